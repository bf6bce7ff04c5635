// The analytics screen's period: presets (the last 7 or 30 days, this quarter, the last 12
// months), the first and last day and the bucket, starting from the address's when it names a
// valid one. A preset pressed or a field changed sets the period and tells the screen.

import { h, field, select, today, addDays } from '../ui.js';

const BUCKETS = [['day', 'Day'], ['week', 'Week'], ['month', 'Month']];
const PRESETS = [['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['quarter', 'This quarter'], ['12m', 'Last 12 months']];
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The period a preset stands for, ending today in the practice's zone. */
export function presetPeriod(key, now = today()) {
  const [y, m, d] = now.split('-').map(Number);
  const iso = (t) => t.toISOString().slice(0, 10);
  switch (key) {
    case '7d': return { from: addDays(now, -6), to: now, bucket: 'day' };
    case 'quarter': return { from: iso(new Date(Date.UTC(y, Math.floor((m - 1) / 3) * 3, 1))), to: now, bucket: 'week' };
    case '12m': return { from: iso(new Date(Date.UTC(y - 1, m - 1, d + 1))), to: now, bucket: 'month' };
    default: return { from: addDays(now, -29), to: now, bucket: 'day' };
  }
}

/** The period's form. `query`: the address's from, to and bucket (else the last 30 days);
 *  `changed()`: a preset was pressed or a field changed. Returns {form, period, markPresets}:
 *  `period` {from, to, bucket} as it is now, `markPresets()` presses the preset it equals. */
export function periodForm(query, changed) {
  const initial = ISO_DAY.test(query.from || '') && ISO_DAY.test(query.to || '')
    ? { from: query.from, to: query.to, bucket: BUCKETS.some(([b]) => b === query.bucket) ? query.bucket : 'day' }
    : presetPeriod('30d');
  const period = { ...initial };

  const fromInput = h('input', { type: 'date', value: period.from, required: true });
  const toInput = h('input', { type: 'date', value: period.to, required: true });
  const bucketSelect = select(BUCKETS, { value: period.bucket });
  const presets = h('div', { class: 'segmented', role: 'group', 'aria-label': 'Period' },
    PRESETS.map(([key, label]) => h('button', { type: 'button', class: 'button', dataset: { preset: key }, on: { click: () => choose(presetPeriod(key)) } }, label)));
  const form = h('form', { class: 'panel glass analytics-period', novalidate: true, 'aria-label': 'Period and bucket' },
    presets,
    h('div', { class: 'period-fields' },
      field('From', fromInput, { fieldName: 'from' }), field('To', toInput, { fieldName: 'to' }), field('Bucket', bucketSelect, { fieldName: 'bucket' })),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }));
  form.addEventListener('submit', (event) => { event.preventDefault(); fromForm(); });
  for (const control of [fromInput, toInput, bucketSelect]) control.addEventListener('change', fromForm);

  function choose(next) {
    Object.assign(period, next);
    fromInput.value = period.from;
    toInput.value = period.to;
    bucketSelect.value = period.bucket;
    changed();
  }

  function fromForm() {
    if (!fromInput.value || !toInput.value) return;
    period.from = fromInput.value;
    period.to = toInput.value;
    period.bucket = bucketSelect.value;
    changed();
  }

  function markPresets() {
    const now = today();
    presets.querySelectorAll('button').forEach((b) => {
      const p = presetPeriod(b.dataset.preset, now);
      b.setAttribute('aria-pressed', String(p.from === period.from && p.to === period.to));
    });
  }

  return { form, period, markPresets };
}
