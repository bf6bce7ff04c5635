// The practice's closures (bank holidays, training afternoons): listed by first day, and for
// administrators reopened one by one or added with a form (a day or a span of days, all day
// or between two times, once or every year). Adding one says how many booked appointments
// fall in it and need re-planning; they are kept as booked.

import * as api from '../api.js';
import { h, replace, field, notice, toast, plainDate, showErrors, clearErrors, uid, problemText } from '../ui.js';
import { act, submitForm } from '../forms.js';

/** The closures section. Editable, `setEtag(etag)` and `getEtag()` keep the practice's version
 *  current with the settings form's, `alive()` says whether the screen is still shown, and
 *  `changedMeanwhile(text)` handles a refusal because the settings changed meanwhile. */
export function closuresSection(practice, editable, { setEtag = () => {}, getEtag = () => undefined, alive = () => true, changedMeanwhile } = {}) {
  const listBox = h('div', {});
  let closures = [...(practice.closures || [])];
  const describe = (c) => {
    const days = c.firstDay === c.lastDay ? plainDate(c.firstDay) : `${plainDate(c.firstDay)} – ${plainDate(c.lastDay)}`;
    const hoursText = c.wholeDay ? 'all day' : `${c.from}–${c.until}`;
    return `${days} · ${hoursText}${c.recursYearly ? ' · every year' : ''}`;
  };
  function drawList() {
    closures.sort((a, b) => a.firstDay.localeCompare(b.firstDay));
    replace(listBox, closures.length ? h('ul', { class: 'plain entries closure-list' }, closures.map((c) => h('li', { dataset: { closure: c.id } },
      h('span', {}, h('strong', {}, c.reason), ` — ${describe(c)}`),
      editable ? h('button', { type: 'button', class: 'button quiet', 'aria-label': `Reopen: ${c.reason}, ${describe(c)}`, on: { click: (e) => reopen(e.currentTarget, c) } }, 'Reopen') : null)))
      : h('p', { class: 'muted' }, 'No closures: the opening hours apply every week.'));
  }
  async function reopen(button, c) {
    const meanwhile = changedMeanwhile('The settings changed meanwhile; they are shown as now stored.');
    await act(button, async () => {
      const answer = await api.request('DELETE', `/practice/closures/${c.id}`, { ifMatch: getEtag() });
      setEtag(answer.etag);
      closures = closures.filter((x) => x.id !== c.id);
      drawList();
      toast(`Reopened: ${c.reason}`, 'success');
    }, {
      label: 'Reopening…',
      // Above the list, which stays as it is.
      handle: (error) => { if (!meanwhile(error)) listBox.prepend(notice(problemText(error))); return true; },
    });
  }
  drawList();
  const section = h('section', { class: 'panel glass', 'aria-labelledby': 'closures-title' }, h('h2', { id: 'closures-title' }, 'Closures'), listBox);
  if (!editable) return section;

  const first = h('input', { type: 'date' });
  const last = h('input', { type: 'date' });
  const wholeDay = h('input', { type: 'checkbox', id: uid('whole'), checked: true });
  const from = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', value: '13:00' });
  const until = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', value: '24:00' });
  const yearly = h('input', { type: 'checkbox', id: uid('yearly') });
  const reason = h('input', { type: 'text', autocomplete: 'off', maxlength: 120, placeholder: 'e.g. Christmas Day' });
  const times = h('div', { class: 'grid-fields', hidden: true },
    field('Closed from', from, { fieldName: 'from', hint: 'local time, HH:mm' }),
    field('Until', until, { fieldName: 'until', hint: '24:00: the rest of the day' }));
  wholeDay.dataset.field = 'wholeDay';
  yearly.dataset.field = 'recursYearly';
  wholeDay.addEventListener('change', () => { times.hidden = wholeDay.checked; });
  const add = h('button', { type: 'submit', class: 'button primary' }, 'Add the closure');
  const result = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'stack-form add-closure', novalidate: true, 'aria-labelledby': 'add-closure-title' },
    h('h3', { id: 'add-closure-title' }, 'Add a closure'),
    h('div', { class: 'grid-fields' },
      field('Reason', reason, { fieldName: 'reason' }),
      field('First day', first, { fieldName: 'firstDay' }),
      field('Last day', last, { fieldName: 'lastDay', hint: 'empty: the first day only' })),
    h('div', { class: 'row wrap' },
      h('div', { class: 'field check' }, wholeDay, h('label', { for: wholeDay.id }, 'All day')),
      h('div', { class: 'field check' }, yearly, h('label', { for: yearly.id }, 'Every year'))),
    times,
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row wrap' }, add),
    result);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    replace(result);
    const errors = [];
    if (!reason.value.trim()) errors.push({ field: 'reason', message: 'Say why the practice is closed (it is shown to staff).' });
    if (!first.value) errors.push({ field: 'firstDay', message: 'Choose the first day.' });
    if (errors.length) { showErrors(form, errors); form.querySelector('[aria-invalid="true"]')?.focus(); return; }
    const closure = { firstDay: first.value, reason: reason.value.trim() };
    if (last.value) closure.lastDay = last.value;
    if (yearly.checked) closure.recursYearly = true;
    if (!wholeDay.checked) { closure.from = from.value.trim(); closure.until = until.value.trim(); }
    await submitForm(form, add, async () => {
      const answer = await api.request('POST', '/practice/closures', { body: closure, idempotencyKey: api.newKey() });
      if (!alive()) return;
      setEtag(answer.etag);
      closures.push(answer.data.closure);
      drawList();
      const replan = answer.data.appointmentsToReplan || [];
      replace(result, h('p', { class: 'notice notice-success', role: 'status' }, `Added: ${answer.data.closure.reason}. `,
        replan.length ? `${replan.length} appointment${replan.length === 1 ? ' falls' : 's fall'} in it and need${replan.length === 1 ? 's' : ''} re-planning (kept as booked).` : 'No booked appointment falls in it.'));
      form.reset();
      wholeDay.checked = true;
      from.value = '13:00';
      until.value = '24:00';
      times.hidden = true;
      toast('Closure added', 'success');
    }, { label: 'Adding…', focus: true, handle: () => !alive() });
  });
  section.append(form);
  return section;
}
