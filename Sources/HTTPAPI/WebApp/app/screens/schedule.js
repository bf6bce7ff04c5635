// The schedule: one day, a column per clinician, appointments coloured by type, free slots
// visible. Tap an appointment to check in, start, complete, cancel, mark a no-show or move
// it; a move onto a taken time is refused by the server and its nearest free alternatives
// are offered instead. Changes made anywhere arrive through the live stream.

import * as api from '../api.js';
import * as live from '../live.js';
import {
  h, replace, busy, field, select, notice, announce, toast, words, time, date, today, addDays, weekday, zonedInstant,
  minutesOf, hhmm, rfc3339, showErrors, clearErrors, zonedParts, isoDate,
} from '../ui.js';

const REM_PER_MINUTE = 0.2; // 15 minutes = 3 rem, taller than a 44 px touch target
const STATUS = { booked: 'Booked', checked_in: 'Checked in', in_progress: 'In progress', completed: 'Completed', cancelled: 'Cancelled', no_show: 'No-show' };
const ACTIONS = {
  booked: ['check_in', 'start', 'move', 'cancel', 'no_show'],
  checked_in: ['start', 'move', 'cancel', 'no_show'],
  in_progress: ['complete'],
};
const ACTION_LABELS = { check_in: 'Check in', start: 'Start', move: 'Move…', cancel: 'Cancel…', no_show: 'No-show', complete: 'Complete…' };

/** Patient names by id, kept across visits: the appointment list carries ids only. */
const patientNames = new Map();

export function render(container, { session, query }) {
  let alive = true;
  let day = /^\d{4}-\d{2}-\d{2}$/.test(query.date || '') ? query.date : today();
  let clinicians = [];
  let types = [];
  let appointments = [];
  let slots = [];
  let moving = null; // an appointment being moved by tapping a free slot
  let loadToken = 0;

  const dateInput = h('input', { type: 'date', value: day, 'aria-label': 'Day' });
  const typeSelect = select([], { 'aria-label': 'Free slots for' });
  const title = h('p', { class: 'schedule-date' });
  const moveBanner = h('div', { class: 'move-banner glass', role: 'status', hidden: true });
  const message = h('div');
  const grid = h('div', { class: 'schedule-scroll', tabindex: '0', 'aria-label': 'Day schedule by clinician' });
  const extra = h('div', { class: 'schedule-extra' });

  replace(container, h('section', { class: 'screen schedule', 'aria-labelledby': 'schedule-title' },
    h('header', { class: 'screen-header' },
      h('h1', { id: 'schedule-title' }, 'Schedule'),
      title,
      h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Choose the day' },
        h('button', { type: 'button', class: 'button', on: { click: () => setDay(addDays(day, -1)) } }, h('span', { 'aria-hidden': 'true' }, '‹ '), 'Previous day'),
        h('button', { type: 'button', class: 'button', on: { click: () => setDay(today()) } }, 'Today'),
        h('button', { type: 'button', class: 'button', on: { click: () => setDay(addDays(day, 1)) } }, 'Next day', h('span', { 'aria-hidden': 'true' }, ' ›')),
        dateInput),
      h('div', { class: 'toolbar' }, field('Free slots for', typeSelect),
        session.can('optimizeSchedule') ? h('button', { type: 'button', class: 'button', on: { click: () => openReplan() } }, 'Re-plan for an absence…') : null)),
    moveBanner, message, grid, extra));

  dateInput.addEventListener('change', () => { if (dateInput.value) setDay(dateInput.value); });
  typeSelect.addEventListener('change', () => loadSlots().then(draw));

  function setDay(next) {
    day = next;
    dateInput.value = day;
    history.replaceState(null, '', `#/schedule?date=${day}`);
    loadDay();
  }

  async function start() {
    try {
      const [specialists, typeList] = await Promise.all([api.get('/specialists'), api.get('/appointment-types')]);
      if (!alive) return;
      clinicians = specialists.items;
      types = typeList.items;
      replace(typeSelect, types.map((t) => h('option', { value: t.id }, `${t.name} (${t.defaultDurationMinutes} min)`)));
      typeSelect.value = (types.find((t) => t.name === 'Consultation') || types.find((t) => !t.requiredSpecialty) || types[0])?.id || '';
      await loadDay();
    } catch (error) {
      replace(message, notice(error.message));
    }
  }

  function range() {
    const from = zonedInstant(day, 0);
    const to = zonedInstant(addDays(day, 1), 0);
    return { from, to };
  }

  async function loadDay() {
    const token = ++loadToken;
    const { from, to } = range();
    title.textContent = date(zonedInstant(day, 12 * 60));
    try {
      const [list] = await Promise.all([api.get('/appointments', { from: rfc3339(from), to: rfc3339(to) }), loadSlots()]);
      if (!alive || token !== loadToken) return;
      appointments = list.items;
      await loadNames(appointments);
      if (!alive || token !== loadToken) return;
      replace(message);
      draw();
    } catch (error) {
      if (!alive) return;
      replace(message, notice(`${error.message} The schedule shows what was last known.`));
    }
  }

  async function loadSlots() {
    const { from, to } = range();
    const typeId = moving ? moving.appointmentTypeId : typeSelect.value;
    if (!typeId) { slots = []; return; }
    const duration = moving ? Math.round((Date.parse(moving.end) - Date.parse(moving.start)) / 60000) : undefined;
    const found = await api.get('/appointments/slots', { from: rfc3339(Math.max(from.getTime(), Date.now())), to: rfc3339(to), appointmentTypeId: typeId, durationMinutes: duration, limit: 500 })
      .catch(() => ({ items: [] }));
    // One free block per gap: a slot that overlaps the previous one shown for the clinician is left out.
    const shown = new Map();
    slots = [];
    for (const slot of found.items.sort((a, b) => a.start.localeCompare(b.start))) {
      const lastEnd = shown.get(slot.clinicianId);
      if (lastEnd && Date.parse(slot.start) < lastEnd) continue;
      shown.set(slot.clinicianId, Date.parse(slot.end));
      slots.push(slot);
    }
  }

  async function loadNames(list) {
    const missing = [...new Set(list.map((a) => a.patientId))].filter((id) => !patientNames.has(id));
    await Promise.all(missing.map(async (id) => {
      try { const p = await api.get(`/patients/${id}`); patientNames.set(id, `${p.name} (${words(p.species)})`); } catch { patientNames.set(id, 'Patient'); }
    }));
  }

  function typeName(id) { return types.find((t) => t.id === id)?.name || 'Appointment'; }
  function typeClass(id) { const index = types.findIndex((t) => t.id === id); return `type-${index < 0 ? 0 : index % 8}`; }
  function clinicianName(id) { return clinicians.find((c) => c.id === id)?.displayName || 'Clinician'; }

  function draw() {
    const { from } = range();
    const hours = session.practice.openingHours.find((o) => o.weekday === weekday(day));
    let startMin = hours ? minutesOf(hours.opens) : 8 * 60;
    let endMin = hours ? minutesOf(hours.closes) : 18 * 60;
    const visible = appointments.filter((a) => a.status !== 'cancelled' && a.status !== 'no_show');
    for (const a of visible) {
      startMin = Math.min(startMin, Math.floor((Date.parse(a.start) - from) / 60000 / 60) * 60);
      endMin = Math.max(endMin, Math.ceil((Date.parse(a.end) - from) / 60000 / 60) * 60);
    }
    startMin = Math.max(0, startMin);
    endMin = Math.min(24 * 60, Math.max(endMin, startMin + 60));
    const top = (instant) => `${((Date.parse(instant) - from) / 60000 - startMin) * REM_PER_MINUTE}rem`;
    const height = (a, b) => `${Math.max((Date.parse(b) - Date.parse(a)) / 60000 * REM_PER_MINUTE, 2.75)}rem`;
    const columnHeight = `${(endMin - startMin) * REM_PER_MINUTE}rem`;

    const axis = h('div', { class: 'sched-axis', 'aria-hidden': 'true', style: { height: columnHeight } });
    for (let m = Math.ceil(startMin / 60) * 60; m < endMin; m += 60) {
      axis.append(h('span', { class: 'sched-hour', style: { top: `${(m - startMin) * REM_PER_MINUTE}rem` } }, hhmm(m)));
    }
    const columns = clinicians.map((clinician) => {
      const own = visible.filter((a) => a.clinicianId === clinician.id);
      const free = freeRanges(slots.filter((s) => s.clinicianId === clinician.id));
      // An empty column is no list (a list must have items).
      const column = h('div', { class: 'sched-col', role: own.length + free.length ? 'list' : null, 'aria-label': `${clinician.displayName}: ${own.length} appointments`, style: { height: columnHeight } },
        free.map((range) => h('div', { role: 'listitem', class: 'sched-item', style: { top: top(range.start), height: height(range.start, range.end) } },
          h('button', {
            type: 'button', class: ['free-slot', moving && 'free-slot-target'], dataset: { start: range.start, clinician: clinician.id },
            on: { click: () => freeRangeChosen(range) },
          }, h('span', { class: 'visually-hidden' }, `${clinician.displayName}, `),
          `${moving ? 'Move here' : 'Free'} ${time(range.start)}–${time(range.end)}`))),
        own.map((a) => h('div', { role: 'listitem', class: 'sched-item', style: { top: top(a.start), height: height(a.start, a.end) } },
          h('button', {
            type: 'button', class: ['appointment', typeClass(a.appointmentTypeId), `status-${a.status}`, moving?.id === a.id && 'is-moving'],
            dataset: { appointment: a.id, start: a.start, clinician: a.clinicianId },
            on: { click: () => openAppointment(a) },
          },
          h('span', { class: 'appt-time' }, `${time(a.start)}–${time(a.end)}`),
          h('span', { class: 'appt-patient' }, patientNames.get(a.patientId) || 'Patient'),
          h('span', { class: 'appt-type' }, `${typeName(a.appointmentTypeId)} · ${STATUS[a.status]}`)))));
      return h('div', { class: 'sched-column' }, h('h2', { class: 'sched-head' }, clinician.displayName), column);
    });
    replace(grid, h('div', { class: 'sched-grid' },
      h('div', { class: 'sched-column sched-axis-column' }, h('div', { class: 'sched-head', 'aria-hidden': 'true' }, ''), axis),
      columns));
    const off = appointments.filter((a) => a.status === 'cancelled' || a.status === 'no_show');
    replace(extra,
      hours ? null : h('p', { class: 'notice notice-warning' }, 'The practice is closed on this day.'),
      h('p', { class: 'muted' }, `${visible.length} appointments · free time shown${moving ? ' for the move' : ` for a ${typeName(typeSelect.value).toLowerCase()}`}`),
      off.length ? h('details', {}, h('summary', {}, `${off.length} cancelled or no-show`), h('ul', { class: 'plain' }, off.map((a) =>
        h('li', {}, `${time(a.start)} ${patientNames.get(a.patientId) || 'Patient'} with ${clinicianName(a.clinicianId)} — ${STATUS[a.status]}${a.cancellationReason ? `: ${a.cancellationReason}` : ''}`)))) : null);
  }

  // MARK: - Moving by tapping a free slot

  function startMoving(appointment) {
    moving = appointment;
    replace(moveBanner, `Moving ${patientNames.get(appointment.patientId) || 'the appointment'} (${time(appointment.start)}): tap a highlighted free time. `,
      h('button', { type: 'button', class: 'button', on: { click: stopMoving } }, 'Stop moving'));
    moveBanner.hidden = false;
    loadSlots().then(() => { draw(); grid.querySelector('.free-slot')?.focus(); });
  }

  function stopMoving() {
    moving = null;
    moveBanner.hidden = true;
    loadSlots().then(draw);
  }

  /** Free slots that follow one another (within a buffer's length) as one free period. */
  function freeRanges(list) {
    const ranges = [];
    for (const slot of list) {
      const last = ranges[ranges.length - 1];
      if (last && Date.parse(slot.start) - Date.parse(last.end) <= 10 * 60000) {
        last.end = slot.end;
        last.slots.push(slot);
      } else ranges.push({ clinicianId: slot.clinicianId, start: slot.start, end: slot.end, slots: [slot] });
    }
    return ranges;
  }

  /** A free period was tapped: its one start time, or a choice of its start times. */
  function freeRangeChosen(range) {
    if (range.slots.length === 1) { freeSlotChosen(range.slots[0]); return; }
    const dialog = h('dialog', { class: 'dialog glass screen-dialog', 'aria-labelledby': 'free-title' });
    const close = () => { dialog.close(); dialog.remove(); };
    dialog.addEventListener('close', () => dialog.remove());
    dialog.append(
      h('h2', { id: 'free-title' }, `${moving ? 'Move to' : 'Book'} ${clinicianName(range.clinicianId)}, ${time(range.start)}–${time(range.end)}`),
      h('p', {}, 'Choose the start time.'),
      h('ul', { class: 'time-grid' }, range.slots.map((slot) => h('li', {}, h('button', {
        type: 'button', class: 'button', dataset: { start: slot.start },
        on: { click: () => { close(); freeSlotChosen(slot); } },
      }, time(slot.start))))),
      h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector('.time-grid button')?.focus();
  }

  async function freeSlotChosen(slot) {
    if (moving) {
      const appointment = moving;
      try {
        await transition(appointment, { action: 'reschedule', start: slot.start, clinicianId: slot.clinicianId });
        stopMoving();
        toast(`Moved to ${time(slot.start)} with ${clinicianName(slot.clinicianId)}`, 'success');
      } catch (error) {
        if (error.status === 409) { stopMoving(); openAppointment(appointment, { conflict: error }); } else toast(error.message, 'error');
      }
      return;
    }
    openBooking(slot);
  }

  async function transition(appointment, body) {
    const updated = await api.post(`/appointments/${appointment.id}/transitions`, body, { ifMatch: appointment.version });
    await loadDay();
    return updated;
  }

  // MARK: - The appointment dialog

  function openAppointment(appointment, { conflict } = {}) {
    const dialog = h('dialog', { class: 'dialog glass screen-dialog', 'aria-labelledby': 'appt-title' });
    const body = h('div', { class: 'dialog-body' });
    const close = () => { dialog.close(); dialog.remove(); };
    dialog.addEventListener('close', () => dialog.remove());
    const header = h('div', {},
      h('h2', { id: 'appt-title' }, patientNames.get(appointment.patientId) || 'Appointment'),
      h('p', {}, `${date(appointment.start)}, ${time(appointment.start)}–${time(appointment.end)} · ${typeName(appointment.appointmentTypeId)} · ${clinicianName(appointment.clinicianId)}`),
      h('p', {}, h('span', { class: 'status-pill' }, STATUS[appointment.status])),
      h('p', {}, h('a', { href: `#/patients/${appointment.patientId}`, on: { click: close } }, 'Open the record')));
    const actions = h('div', { class: 'row wrap' }, (ACTIONS[appointment.status] || []).map((action) => h('button', {
      type: 'button', class: ['button', action === 'check_in' || action === 'start' ? 'primary' : ''], dataset: { action },
      on: { click: (event) => act(event.currentTarget, action) },
    }, ACTION_LABELS[action])));
    dialog.append(header, actions, body, h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
    document.body.append(dialog);
    dialog.showModal();

    async function act(button, action) {
      if (action === 'move') { moveForm(); return; }
      if (action === 'cancel') { reasonForm('cancel', 'Reason for cancelling', 'Cancel the appointment'); return; }
      if (action === 'complete') { completeForm(); return; }
      await busy(button, async () => {
        try {
          await transition(appointment, { action });
          toast(`${ACTION_LABELS[action]}: done`, 'success');
          announce(`${patientNames.get(appointment.patientId) || 'Appointment'}: ${ACTION_LABELS[action].toLowerCase()}`);
          close();
        } catch (error) { replace(body, notice(error.message)); }
      });
    }

    function moveForm(prefill) {
      const dayInput = h('input', { type: 'date', value: prefill?.day || isoDate(zonedParts(appointment.start)), required: true });
      const startParts = zonedParts(prefill?.start || appointment.start);
      const timeInput = h('input', { type: 'time', step: 300, value: hhmm(startParts.hour * 60 + startParts.minute), required: true });
      const who = select(clinicians.map((c) => [c.id, c.displayName]), { value: appointment.clinicianId });
      const submit = h('button', { type: 'submit', class: 'button primary' }, 'Move');
      const result = h('div', { 'aria-live': 'polite' });
      const form = h('form', { class: 'move-form', novalidate: true },
        h('h3', {}, 'Move to'),
        h('div', { class: 'grid-fields' },
          field('Day', dayInput, { fieldName: 'day' }),
          field('Start', timeInput, { fieldName: 'start' }),
          field('Clinician', who, { fieldName: 'clinicianId' })),
        h('div', { class: 'row wrap' }, submit,
          h('button', { type: 'button', class: 'button', on: { click: () => { close(); startMoving(appointment); } } }, 'Pick a free time on the grid')),
        result);
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        clearErrors(form);
        if (!dayInput.value || !timeInput.value) { showErrors(form, [{ field: dayInput.value ? 'start' : 'day', message: 'is required' }]); return; }
        const start = rfc3339(zonedInstant(dayInput.value, minutesOf(timeInput.value)));
        await busy(submit, async () => {
          try {
            await transition(appointment, { action: 'reschedule', start, clinicianId: who.value });
            toast(`Moved to ${time(start)} with ${clinicianName(who.value)}`, 'success');
            close();
          } catch (error) {
            if (error.status === 409) showConflict(result, error);
            else if (error.errors.length) showErrors(form, error.errors);
            else replace(result, notice(error.message));
          }
        }, 'Moving…');
      });
      replace(body, form);
      timeInput.focus();
    }

    function showConflict(target, error) {
      const alternatives = error.problem.alternatives || [];
      const taken = error.problem.conflictingStart ? ` (taken ${time(error.problem.conflictingStart)}–${time(error.problem.conflictingEnd)})` : '';
      replace(target,
        h('div', { class: 'notice notice-warning conflict', role: 'alert' },
          h('strong', {}, 'That time is not free'), `${taken}. ${error.detail || ''}`),
        alternatives.length ? [h('h3', {}, 'Nearest free times'), h('ul', { class: 'slot-list alternatives' }, alternatives.map((slot) => h('li', {}, h('button', {
          type: 'button', class: 'button slot-button', dataset: { start: slot.start, clinician: slot.clinicianId },
          on: {
            click: (event) => busy(event.currentTarget, async () => {
              try {
                await transition(appointment, { action: 'reschedule', start: slot.start, clinicianId: slot.clinicianId });
                toast(`Moved to ${time(slot.start)}`, 'success');
                close();
              } catch (again) { if (again.status === 409) showConflict(target, again); else replace(target, notice(again.message)); }
            }, 'Moving…'),
          },
        }, `${date(slot.start)} ${time(slot.start)}–${time(slot.end)} · ${slot.clinicianName || clinicianName(slot.clinicianId)}`))))]
          : h('p', {}, 'No free alternative was found nearby.'));
      announce(`That time is not free. ${alternatives.length} alternatives offered.`, { assertive: true });
    }

    function reasonForm(action, label, submitLabel) {
      const reason = h('textarea', { rows: 2, maxlength: 500 });
      const submit = h('button', { type: 'submit', class: 'button danger' }, submitLabel);
      const form = h('form', { novalidate: true }, field(label, reason, { fieldName: 'reason' }), submit);
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        await busy(submit, async () => {
          try {
            await transition(appointment, { action, reason: reason.value.trim() || undefined });
            toast('Cancelled', 'success');
            close();
          } catch (error) { if (error.errors.length) showErrors(form, error.errors); else form.append(notice(error.message)); }
        });
      });
      replace(body, form);
      reason.focus();
    }

    function completeForm() {
      const minutes = h('input', { type: 'number', min: 1, max: 1440, step: 1, inputmode: 'numeric' });
      const submit = h('button', { type: 'submit', class: 'button primary' }, 'Complete');
      const form = h('form', { novalidate: true }, field('Actual minutes (optional)', minutes, { fieldName: 'actualMinutes' }), submit);
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        await busy(submit, async () => {
          try {
            await transition(appointment, { action: 'complete', actualMinutes: minutes.value ? Number(minutes.value) : undefined });
            toast('Completed', 'success');
            close();
          } catch (error) { if (error.errors.length) showErrors(form, error.errors); else form.append(notice(error.message)); }
        });
      });
      replace(body, form);
      minutes.focus();
    }

    if (conflict) { moveForm(); showConflict(body.querySelector('[aria-live]'), conflict); }
  }

  // MARK: - Booking a free slot

  function openBooking(slot) {
    const dialog = h('dialog', { class: 'dialog glass screen-dialog', 'aria-labelledby': 'book-title' });
    const close = () => { dialog.close(); dialog.remove(); };
    dialog.addEventListener('close', () => dialog.remove());
    const searchInput = h('input', { type: 'search' });
    const results = h('ul', { class: 'plain pick-list' });
    const status = h('div', { 'aria-live': 'polite' });
    let timer = null;
    searchInput.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const text = searchInput.value.trim();
        if (!text) { replace(results); return; }
        try {
          const page = await api.get('/patients', { q: text, limit: 6, status: 'active' });
          replace(results, page.items.map((item) => h('li', {}, h('button', {
            type: 'button', class: 'button wide', on: { click: (event) => bookFor(event.currentTarget, item) },
          }, `Book ${item.patient.name} (${words(item.patient.species)}, ${item.ownerName})`))));
          if (!page.items.length) replace(results, h('li', {}, 'No patient matches.'));
        } catch (error) { replace(results, h('li', {}, error.message)); }
      }, 200);
    });
    async function bookFor(button, item) {
      await busy(button, async () => {
        try {
          const typeId = typeSelect.value;
          await api.post('/appointments', { patientId: item.patient.id, clinicianId: slot.clinicianId, appointmentTypeId: typeId, start: slot.start },
            { idempotencyKey: api.newKey() });
          toast(`Booked ${item.patient.name} at ${time(slot.start)}`, 'success');
          close();
          loadDay();
        } catch (error) {
          if (error.status === 409) replace(status, notice('That time was just taken; choose another free slot.'));
          else replace(status, notice(error.message));
        }
      }, 'Booking…');
    }
    dialog.append(
      h('h2', { id: 'book-title' }, `Book ${time(slot.start)}–${time(slot.end)}`),
      h('p', {}, `${date(slot.start)} · ${clinicianName(slot.clinicianId)} · ${typeName(typeSelect.value)}`),
      field('Find the patient', searchInput), results, status,
      h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
    document.body.append(dialog);
    dialog.showModal();
    searchInput.focus();
  }

  // MARK: - Re-planning a day for an absent clinician

  function openReplan() {
    const dialog = h('dialog', { class: 'dialog glass screen-dialog', 'aria-labelledby': 'replan-title' });
    const close = () => { dialog.close(); dialog.remove(); };
    dialog.addEventListener('close', () => dialog.remove());
    const who = select(clinicians.map((c) => [c.id, c.displayName]));
    const dayInput = h('input', { type: 'date', value: day });
    const delay = h('input', { type: 'number', min: 0, max: 480, step: 5, value: '60', inputmode: 'numeric' });
    const preview = h('button', { type: 'submit', class: 'button primary' }, 'Preview the moves');
    const result = h('div', { 'aria-live': 'polite' });
    const form = h('form', { novalidate: true },
      h('div', { class: 'grid-fields' },
        field('Absent clinician', who, { fieldName: 'clinicianId' }),
        field('Day', dayInput, { fieldName: 'date' }),
        field('Longest delay', delay, { fieldName: 'maxDelayMinutes', unit: 'min' })),
      h('div', { class: 'row end' }, preview));
    const request = () => ({ clinicianId: who.value, date: dayInput.value, maxDelayMinutes: delay.value === '' ? undefined : Number(delay.value) });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearErrors(form);
      await busy(preview, async () => {
        try {
          const plan = await api.post('/schedule/replan', request());
          await loadNames(plan.moved.map((m) => ({ patientId: appointments.find((a) => a.id === m.appointmentId)?.patientId })).filter((a) => a.patientId));
          showPlan(plan);
        } catch (error) { if (error.errors.length) showErrors(form, error.errors); else replace(result, notice(error.message)); }
      }, 'Planning…');
    });
    function showPlan(plan, applied = false) {
      const label = (id) => { const a = appointments.find((x) => x.id === id); return a ? patientNames.get(a.patientId) || 'Appointment' : 'Appointment'; };
      const apply = h('button', { type: 'button', class: 'button primary' }, 'Apply these moves');
      apply.addEventListener('click', () => busy(apply, async () => {
        try {
          const done = await api.post('/schedule/replan', { ...request(), apply: true });
          toast(`${done.moved.length} appointments moved; the day is marked as time off`, 'success');
          showPlan(done, true);
          loadDay();
        } catch (error) { replace(result, notice(error.message)); }
      }, 'Applying…'));
      replace(result,
        h('h3', {}, applied ? 'Moved' : 'Proposed moves'),
        plan.moved.length ? h('ul', { class: 'plain entries' }, plan.moved.map((m) => h('li', {},
          h('strong', {}, label(m.appointmentId)), ` ${time(m.fromStart)} ${clinicianName(m.fromClinicianId)} → ${time(m.toStart)} ${clinicianName(m.toClinicianId)}`)))
          : h('p', {}, 'Nothing to move.'),
        plan.unplaced.length ? [h('h3', {}, 'Could not be placed'), h('ul', { class: 'plain entries' }, plan.unplaced.map((u) =>
          h('li', {}, `${label(u.appointmentId)}: ${u.reason}`)))] : null,
        !applied && plan.moved.length && session.can('manageSchedule') && session.can('book') ? h('div', { class: 'row end' }, apply)
          : !applied && plan.moved.length ? h('p', { class: 'muted' }, 'Applying a re-plan needs an administrator (it also writes the time off).') : null);
    }
    dialog.append(h('h2', { id: 'replan-title' }, 'Re-plan a day for an absent clinician'),
      h('p', {}, 'Nothing changes until you apply the moves.'), form, result,
      h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
    document.body.append(dialog);
    dialog.showModal();
    who.focus();
  }

  const onKey = (event) => { if (event.key === 'Escape' && moving) stopMoving(); };
  document.addEventListener('keydown', onKey);
  const unsubscribe = live.subscribe(['appointment.*', 'schedule.*', 'clinician.availability_changed'], () => loadDay());
  start();

  return () => {
    alive = false;
    unsubscribe();
    document.removeEventListener('keydown', onKey);
    document.querySelectorAll('dialog.screen-dialog').forEach((d) => d.remove());
  };
}
