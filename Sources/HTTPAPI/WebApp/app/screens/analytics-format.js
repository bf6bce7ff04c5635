// How the analytics screen writes its figures: numbers, percentages, hours, minutes and money
// as people in the practice read them, a bucket's name in words, and the tables that hold the
// figures, each cell with the exact value in data-value.

import { h } from '../ui.js';

export const number = (value, digits = 0) => Number(value).toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const percent = (ratio) => (ratio === null || ratio === undefined ? '—' : `${number(ratio * 100, 1)}%`);
export const hours = (minutes) => (minutes === null || minutes === undefined ? '—' : `${number(minutes / 60, 1)} h`);
export const minutesText = (minutes) => (minutes === null || minutes === undefined ? '—' : `${number(minutes, 1)} min`);

/** The digits after the point of a currency's amounts (2 when it is unknown). */
export function currencyDigits(currency) {
  try { return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits; } catch { return 2; }
}

/** An amount in minor units as money; `whole`: rounded to whole units. */
export function money(minorUnits, currency, { whole = false } = {}) {
  const digits = whole ? 0 : currencyDigits(currency);
  if (whole) minorUnits = Math.round(minorUnits / 10 ** currencyDigits(currency));
  try {
    return (minorUnits / 10 ** digits).toLocaleString('en-GB', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  } catch { return `${number(minorUnits / 10 ** digits, digits)} ${currency}`; }
}

/** The currency of the largest of `amounts` ([{currency, minorUnits}]); GBP for none. */
export function mainCurrency(amounts = []) {
  return [...amounts].sort((a, b) => b.minorUnits - a.minorUnits)[0]?.currency || 'GBP';
}

/** The minor units of `amounts` in `currency` (0 for none). */
export function minor(amounts = [], currency) {
  return (amounts || []).find((m) => m.currency === currency)?.minorUnits ?? 0;
}

/** A bucket's label (its first day) as words: 3 Nov, the week of 3 Nov, Nov 2026. */
export function bucketName(label, bucket) {
  if (!label) return '';
  const [y, m, d] = label.split('-').map(Number);
  const when = new Date(Date.UTC(y, m - 1, d));
  if (bucket === 'month') return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', year: 'numeric' }).format(when);
  const short = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' }).format(when);
  return bucket === 'week' ? `w/c ${short}` : short;
}

/** A table cell holding a figure: the text people read, the exact value in data-value. */
export function cell(value, text) {
  return h('td', { class: 'num', dataset: { value: value === null || value === undefined ? '' : String(value) } }, text);
}

/** A table of figures: its caption, the column headings (the first names the rows) and rows. */
export function table(caption, headings, rows) {
  return h('table', { class: 'analytics-table' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headings.map((text, i) => h('th', { scope: 'col', class: i ? 'num' : null }, text)))),
    h('tbody', {}, rows));
}

/** A named region that scrolls sideways when its table is wider than the screen. */
export function scrollBox(label, ...content) {
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label }, content);
}
