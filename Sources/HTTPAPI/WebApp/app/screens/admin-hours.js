// The practice's opening hours as a table: a row per opening span, a day without one closed;
// editable for administrators, with the times checked before they are sent and each span's
// controls named for the index it is sent at, so a refusal lands next to its field.

import { h, uid } from '../ui.js';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const CLOSES = /^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/;

/** Opening spans in the order they are compared and sent: by weekday, then opening time. */
export function sortHours(list) {
  return [...(list || [])].sort((a, b) => a.weekday - b.weekday || a.opens.localeCompare(b.opens))
    .map(({ weekday, opens, closes }) => ({ weekday, opens, closes }));
}

/** The opening hours as a table: a row per opening span (a day without one is closed);
 *  editable, `read()` gives the openingHours to send and the times that cannot be sent. */
export function hoursTable(practice, editable) {
  const spans = sortHours(practice.openingHours);
  const rows = [];
  const tbody = h('tbody', {});
  DAYS.forEach((day, i) => {
    const own = spans.filter((o) => o.weekday === i + 1);
    (own.length ? own : [null]).forEach((span, k) => {
      const label = own.length > 1 ? `${day} (${k + 1})` : day;
      if (!editable) {
        tbody.append(h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, span ? `${span.opens}–${span.closes}` : 'Closed')));
        return;
      }
      const open = h('input', { type: 'checkbox', id: uid('open'), checked: Boolean(span) });
      const opens = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', 'aria-label': `${label} opens`, value: span?.opens || '08:00', id: uid('opens') });
      const closes = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', 'aria-label': `${label} closes`, value: span?.closes || '18:00', id: uid('closes') });
      const sync = () => { opens.disabled = !open.checked; closes.disabled = !open.checked; };
      open.addEventListener('change', sync);
      sync();
      rows.push({ weekday: i + 1, open, opens, closes });
      tbody.append(h('tr', { dataset: { weekday: String(i + 1) } },
        h('th', { scope: 'row' }, h('div', { class: 'field hours-day' }, open, h('label', { for: open.id }, h('span', { class: 'visually-hidden' }, 'Open on '), label))),
        h('td', {}, h('div', { class: 'field' }, opens)),
        h('td', {}, h('div', { class: 'field' }, closes))));
    });
  });
  const table = h('table', { class: ['week-table', editable && 'hours-table'], id: uid('hours'), dataset: editable ? { field: 'openingHours' } : {} },
    h('caption', {}, 'Opening hours'),
    editable ? h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col' }, 'Opens'), h('th', { scope: 'col' }, 'Closes'))) : null,
    tbody);
  function read() {
    const openingHours = [];
    const errors = [];
    // Each open span's controls carry the index it is sent at, so a refusal naming
    // openingHours[2].closes lands next to that very field.
    for (const row of rows) {
      for (const el of [row.open, row.opens, row.closes]) delete el.dataset.field;
      if (!row.open.checked) continue;
      const index = openingHours.length;
      row.open.dataset.field = `openingHours[${index}]`;
      row.opens.dataset.field = `openingHours[${index}].opens`;
      row.closes.dataset.field = `openingHours[${index}].closes`;
      const span = { weekday: row.weekday, opens: row.opens.value.trim(), closes: row.closes.value.trim() };
      if (!HHMM.test(span.opens)) errors.push({ field: row.opens.dataset.field, message: 'a time like 08:30 (00:00 to 23:59)' });
      if (!CLOSES.test(span.closes)) errors.push({ field: row.closes.dataset.field, message: 'a time like 18:00 (24:00 for midnight)' });
      openingHours.push(span);
    }
    return { openingHours, errors };
  }
  return { table: editable ? h('div', { class: 'field hours-field' }, table) : table, read };
}
