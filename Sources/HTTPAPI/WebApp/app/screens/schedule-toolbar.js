// The schedule's options: previous, today and next with a date field; a day or a week; columns
// by clinician or by room; whose week; colour by type or urgency; and the appointment type
// whose free time is shown. The controls change `view` ({day, span, by, who, colour}) and say
// so; the screen then loads and draws.

import { h, replace, field, select, today, addDays } from '../ui.js';

/** A group of buttons, one pressed: `options` [[value, text]], `value()` the one pressed,
 *  `choose(value)` a press on another. `refresh()` shows the pressed one again. */
function toggle(label, options, value, choose) {
  const group = h('div', { class: 'segmented', role: 'group', 'aria-label': label });
  group.refresh = () => group.querySelectorAll('button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.value === value())));
  for (const [key, text] of options) {
    group.append(h('button', { type: 'button', class: 'button', dataset: { value: key }, on: { click: () => { if (value() !== key) choose(key); } } }, text));
  }
  group.refresh();
  return group;
}

/** The options bar. `changed()`: a control changed `view`; `typeChanged()`: another type's free
 *  time is wanted. Returns {element, typeId(), setTypes(types), refresh(whoChoices)}. */
export function scheduleToolbar(view, { changed, typeChanged }) {
  const step = () => (view.span === 'week' ? 7 : 1);
  const setDay = (day) => { view.day = day; changed(); };
  const dateInput = h('input', { type: 'date', value: view.day, 'aria-label': 'Day' });
  const typeSelect = select([], { 'aria-label': 'Free slots for' });
  const whoSelect = select([]);
  const whoField = field('Whose week', whoSelect);
  const freeField = field('Free for', typeSelect);
  const previous = h('button', { type: 'button', class: 'button', on: { click: () => setDay(addDays(view.day, -step())) } });
  const next = h('button', { type: 'button', class: 'button', on: { click: () => setDay(addDays(view.day, step())) } });
  const current = h('button', { type: 'button', class: 'button', on: { click: () => setDay(today()) } });
  const spanButtons = toggle('Show', [['day', 'Day'], ['week', 'Week']], () => view.span, (value) => { view.span = value; changed(); });
  const byButtons = toggle('Columns', [['clinician', 'Clinicians'], ['room', 'Rooms']], () => view.by, (value) => { view.by = value; view.who = ''; changed(); });
  const colourButtons = toggle('Colour by', [['type', 'Type'], ['urgency', 'Urgency']], () => view.colour, (value) => { view.colour = value; changed(); });

  dateInput.addEventListener('change', () => { if (dateInput.value) setDay(dateInput.value); });
  typeSelect.addEventListener('change', typeChanged);
  whoSelect.addEventListener('change', () => { view.who = whoSelect.value; changed(); });

  const element = h('div', { class: 'toolbar schedule-options' },
    h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Choose the day or week' }, previous, current, next, dateInput),
    spanButtons, byButtons, whoField,
    h('div', { class: 'field' }, h('span', { class: 'toolbar-label', 'aria-hidden': 'true' }, 'Colour'), colourButtons),
    freeField);

  /** The appointment types whose free time may be shown; a consultation first chosen. */
  function setTypes(types) {
    replace(typeSelect, types.map((t) => h('option', { value: t.id }, `${t.name} (${t.defaultDurationMinutes} min)`)));
    typeSelect.value = (types.find((t) => t.name === 'Consultation') || types.find((t) => !t.requiredSpecialty) || types[0])?.id || '';
  }

  /** Shows `view` in the controls; `whoChoices` [[id, name]]: the clinicians or rooms a week
   *  may be of (a week only). */
  function refresh(whoChoices) {
    dateInput.value = view.day;
    const week = view.span === 'week';
    replace(previous, h('span', { 'aria-hidden': 'true' }, '‹ '), 'Previous');
    previous.setAttribute('aria-label', week ? 'Previous week' : 'Previous day');
    replace(next, 'Next', h('span', { 'aria-hidden': 'true' }, ' ›'));
    next.setAttribute('aria-label', week ? 'Next week' : 'Next day');
    current.textContent = week ? 'This week' : 'Today';
    spanButtons.refresh();
    byButtons.refresh();
    colourButtons.refresh();
    whoField.hidden = !week;
    freeField.hidden = view.by === 'room'; // rooms show their free time whatever the type
    if (week) {
      replace(whoSelect, whoChoices.map(([id, name]) => h('option', { value: id }, name)));
      whoSelect.value = view.who;
      whoField.querySelector('label').textContent = view.by === 'room' ? 'Room' : 'Clinician';
    }
  }

  return { element, typeId: () => typeSelect.value, setTypes, refresh };
}
