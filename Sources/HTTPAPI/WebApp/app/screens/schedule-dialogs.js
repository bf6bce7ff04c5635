// The schedule's dialogs: an appointment (the actions the server allows it: check in, start,
// complete, cancel, no-show, move by form; a refused move shows the server's nearest free
// alternatives), booking a free slot, choosing a start time inside a free period, and
// re-planning a day for an absent clinician (preview, then apply). `ctx` is the schedule
// screen: its lists, names and reload.

import * as api from '../api.js';
import * as catalogue from '../catalogue.js';
import {
  h, replace, field, select, announce, toast, words, time, date, zonedInstant, minutesOf, hhmm, rfc3339,
  showErrors, clearErrors, zonedParts, isoDate, problemText,
} from '../ui.js';
import { act, submitForm } from '../forms.js';
import { statusLabel } from './schedule-card.js';
import { notesSection } from './schedule-notes.js';

/** The words for the actions the server allows (an appointment's `allowedActions`, the only
 *  ones offered) come from the catalogue. The actions that open a form before anything is sent
 *  end in an ellipsis on their buttons. */
const ASKS_FIRST = new Set(['reschedule', 'cancel', 'complete']);
const buttonLabel = (action) => `${catalogue.appointmentActionLabel(action)}${ASKS_FIRST.has(action) ? '…' : ''}`;
const actionLabel = (action) => catalogue.appointmentActionLabel(action);

/** The consultation of an appointment, for those who write clinical records: "Open visit"
 *  shows the visit recorded for it; "Consultation" records the visit of an appointment still to
 *  be seen (saving it completes the appointment). */
function consultLink(session, appointment, close) {
  if (!session?.can('writeClinical')) return null;
  const open = Boolean(appointment.statusFacts?.open) && !appointment.visitId;
  if (!open && !appointment.visitId) return null;
  const href = `#/consult?patient=${encodeURIComponent(appointment.patientId)}&appointment=${encodeURIComponent(appointment.id)}&from=schedule`;
  return h('a', {
    class: ['button', open && appointment.status !== 'booked' && 'primary'], href,
    dataset: { consult: appointment.id, visit: appointment.visitId || null }, on: { click: close },
  }, open ? 'Consultation' : 'Open visit');
}

/** A modal dialog appended to the page; removed when closed. */
function modal(titleId) {
  const dialog = h('dialog', { class: 'dialog glass screen-dialog', 'aria-labelledby': titleId });
  const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
  dialog.addEventListener('close', () => dialog.remove());
  const show = () => { document.body.append(dialog); dialog.showModal(); };
  return { dialog, close, show };
}

/** An appointment's actions. `conflict`: a 409 met by a drag, shown at once with the move
 *  form set to the time that was tried (`attempt`: {start, clinicianId}). */
export function openAppointment(ctx, appointment, { conflict, attempt } = {}) {
  const { dialog, close, show } = modal('appt-title');
  const body = h('div', { class: 'dialog-body' });
  const patient = ctx.patientName(appointment.patientId);
  // The schedule's list does not say which visit recorded an appointment; its details do.
  const visitLink = h('span', { class: 'visit-link' }, consultLink(ctx.session, appointment, close));
  if (!appointment.visitId && ctx.session?.can('writeClinical') && appointment.statusFacts?.attended) {
    api.get(`/appointments/${appointment.id}`).then((details) => {
      if (details.visitId) replace(visitLink, consultLink(ctx.session, details, close));
    }).catch(() => { /* the link stays as the list allows */ });
  }
  dialog.append(
    h('div', {},
      h('h2', { id: 'appt-title' }, patient || 'Appointment'),
      h('p', {}, `${date(appointment.start)}, ${time(appointment.start)}–${time(appointment.end)} · ${ctx.typeName(appointment.appointmentTypeId)} · ${ctx.clinicianName(appointment.clinicianId)}${appointment.roomId ? ` · ${ctx.roomName(appointment.roomId)}` : ''}`),
      h('p', {}, h('span', { class: 'status-pill' }, statusLabel(appointment.status)), ' ', ctx.urgencyBadge(appointment)),
      h('p', { class: 'row wrap' }, h('a', { class: 'entry-link', href: `#/patients/${appointment.patientId}`, on: { click: close } }, 'Open the record'),
        visitLink)),
    h('div', { class: 'row wrap' }, (appointment.allowedActions || []).map((action) => h('button', {
      type: 'button', class: ['button', action === 'check_in' || action === 'start' ? 'primary' : ''], dataset: { action },
      on: { click: (event) => perform(event.currentTarget, action) },
    }, buttonLabel(action)))),
    body,
    notesSection(appointment, () => ctx.notesChanged?.()),
    h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
  show();

  /** A refused move: the server's nearest free alternatives, in `target`. */
  const conflictIn = (target) => (error) => {
    if (error.status !== 409) return false;
    showConflict(target, error);
    return true;
  };

  async function perform(button, action) {
    if (action === 'reschedule') { moveForm(); return; }
    if (action === 'cancel') { reasonForm(); return; }
    if (action === 'complete') { completeForm(); return; }
    await act(button, async () => {
      await ctx.transition(appointment, { action });
      toast(`${actionLabel(action)}: done`, 'success');
      announce(`${patient || 'Appointment'}: ${actionLabel(action).toLowerCase()}`);
      close();
    }, { into: body });
  }

  function moveForm(prefill) {
    const at = prefill?.start || appointment.start;
    const parts = zonedParts(at);
    const dayInput = h('input', { type: 'date', value: isoDate(parts), required: true });
    const timeInput = h('input', { type: 'time', step: 300, value: hhmm(parts.hour * 60 + parts.minute), required: true });
    const who = select(ctx.clinicians().map((c) => [c.id, c.displayName]), { value: prefill?.clinicianId || appointment.clinicianId });
    const submit = h('button', { type: 'submit', class: 'button primary' }, 'Move');
    const result = h('div', { 'aria-live': 'polite', class: 'move-result' });
    const form = h('form', { class: 'move-form', novalidate: true },
      h('h3', {}, 'Move to'),
      h('div', { class: 'grid-fields' },
        field('Day', dayInput, { fieldName: 'day' }),
        field('Start', timeInput, { fieldName: 'start' }),
        field('Clinician', who, { fieldName: 'clinicianId' })),
      h('div', { class: 'row wrap' }, submit,
        h('button', { type: 'button', class: 'button', on: { click: () => { close(); ctx.startMoving(appointment); } } }, 'Pick a free time on the grid')),
      result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearErrors(form);
      if (!dayInput.value || !timeInput.value) { showErrors(form, [{ field: dayInput.value ? 'start' : 'day', message: 'is required' }]); return; }
      const start = rfc3339(zonedInstant(dayInput.value, minutesOf(timeInput.value)));
      await submitForm(form, submit, async () => {
        await ctx.transition(appointment, { action: 'reschedule', start, clinicianId: who.value });
        toast(`Moved to ${time(start)} with ${ctx.clinicianName(who.value)}`, 'success');
        close();
      }, { label: 'Moving…', into: result, handle: conflictIn(result) });
    });
    replace(body, form);
    timeInput.focus();
    return result;
  }

  function showConflict(target, error) {
    const alternatives = error.problem.alternatives || [];
    const taken = error.problem.conflictingStart ? ` (taken ${time(error.problem.conflictingStart)}–${time(error.problem.conflictingEnd)})` : '';
    replace(target,
      h('div', { class: 'notice notice-warning conflict', role: 'alert' },
        h('strong', {}, 'That time is not free'), `${taken}. ${error.detail || ''} Nothing was changed.`),
      alternatives.length ? [h('h3', {}, 'Nearest free times'), h('ul', { class: 'slot-list alternatives' }, alternatives.map((slot) => h('li', {}, h('button', {
        type: 'button', class: 'button slot-button', dataset: { start: slot.start, clinician: slot.clinicianId },
        on: {
          click: (event) => act(event.currentTarget, async () => {
            await ctx.transition(appointment, { action: 'reschedule', start: slot.start, clinicianId: slot.clinicianId });
            toast(`Moved to ${time(slot.start)}`, 'success');
            close();
          }, { label: 'Moving…', into: target, handle: conflictIn(target) }),
        },
      }, `Move to ${date(slot.start)} ${time(slot.start)}–${time(slot.end)} · ${slot.clinicianName || ctx.clinicianName(slot.clinicianId)}`))))]
        : h('p', {}, 'No free alternative was found nearby.'));
    announce(`That time is not free. ${alternatives.length} alternatives offered.`, { assertive: true });
  }

  function reasonForm() {
    const reason = h('textarea', { rows: 2, maxlength: 500 });
    const submit = h('button', { type: 'submit', class: 'button danger' }, 'Cancel the appointment');
    const result = h('div');
    const form = h('form', { novalidate: true }, field('Reason for cancelling', reason, { fieldName: 'reason' }), submit, result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await submitForm(form, submit, async () => {
        await ctx.transition(appointment, { action: 'cancel', reason: reason.value.trim() || undefined });
        toast('Cancelled', 'success');
        close();
      }, { into: result });
    });
    replace(body, form);
    reason.focus();
  }

  function completeForm() {
    const minutes = h('input', { type: 'number', min: 1, max: 1440, step: 1, inputmode: 'numeric' });
    const submit = h('button', { type: 'submit', class: 'button primary' }, 'Complete');
    const result = h('div');
    const form = h('form', { novalidate: true }, field('Actual minutes (optional)', minutes, { fieldName: 'actualMinutes' }), submit, result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await submitForm(form, submit, async () => {
        await ctx.transition(appointment, { action: 'complete', actualMinutes: minutes.value ? Number(minutes.value) : undefined });
        toast('Completed', 'success');
        close();
      }, { into: result });
    });
    replace(body, form);
    minutes.focus();
  }

  if (conflict) showConflict(moveForm(attempt), conflict);
}

/** A free period was tapped: its one start time, or a choice of its start times. */
export function chooseInRange(ctx, range, chosen) {
  if (range.slots.length === 1) { chosen(range.slots[0]); return; }
  const { dialog, close, show } = modal('free-title');
  dialog.append(
    h('h2', { id: 'free-title' }, `${ctx.moving() ? 'Move to' : 'Book'} ${ctx.clinicianName(range.clinicianId)}, ${date(range.start)} ${time(range.start)}–${time(range.end)}`),
    h('p', {}, 'Choose the start time.'),
    h('ul', { class: 'time-grid' }, range.slots.map((slot) => h('li', {}, h('button', {
      type: 'button', class: 'button', dataset: { start: slot.start },
      on: { click: () => { close(); chosen(slot); } },
    }, time(slot.start))))),
    h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
  show();
  dialog.querySelector('.time-grid button')?.focus();
}

/** Books a free slot for a patient found by name. */
export function openBooking(ctx, slot, typeId) {
  const { dialog, close, show } = modal('book-title');
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
    await act(button, async () => {
      await api.post('/appointments', { patientId: item.patient.id, clinicianId: slot.clinicianId, appointmentTypeId: typeId, start: slot.start },
        { idempotencyKey: api.newKey() });
      toast(`Booked ${item.patient.name} at ${time(slot.start)}`, 'success');
      close();
      ctx.booked?.(item);
      ctx.reload();
    }, { label: 'Booking…', into: status, message: (error) => (error.status === 409 ? 'That time was just taken; choose another free slot.' : problemText(error)) });
  }
  // Opened from a patient's record: that patient is offered first, the search stays for another.
  const chosen = ctx.bookFor?.();
  if (chosen) {
    replace(results, h('li', {}, h('button', {
      type: 'button', class: 'button wide primary', dataset: { patient: chosen.patient.id }, on: { click: (event) => bookFor(event.currentTarget, chosen) },
    }, `Book ${chosen.patient.name} (${words(chosen.patient.species)}, ${chosen.ownerName})`)));
  }
  dialog.append(
    h('h2', { id: 'book-title' }, `Book ${time(slot.start)}–${time(slot.end)}`),
    h('p', {}, `${date(slot.start)} · ${ctx.clinicianName(slot.clinicianId)} · ${ctx.typeName(typeId)}`),
    field(chosen ? 'Or find another patient' : 'Find the patient', searchInput), results, status,
    h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
  show();
  (chosen ? results.querySelector('button') : searchInput).focus();
}

/** Re-plans a day for an absent clinician: a preview of the moves, then applying them. */
export function openReplan(ctx, day) {
  const { dialog, close, show } = modal('replan-title');
  const who = select(ctx.clinicians().map((c) => [c.id, c.displayName]));
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
  // The day's appointments, for the patients' names (the plan carries appointment ids only).
  let known = [];
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await submitForm(form, preview, async () => {
      const plan = await api.post('/schedule/replan', request());
      const from = zonedInstant(dayInput.value, 0);
      const to = new Date(from.getTime() + 36 * 3600000);
      known = (await api.get('/appointments', { from: rfc3339(from), to: rfc3339(to) })).items;
      await ctx.loadNames(known);
      showPlan(plan);
    }, { label: 'Planning…', into: result });
  });
  function showPlan(plan, applied = false) {
    const label = (id) => { const a = known.find((x) => x.id === id); return (a && ctx.patientName(a.patientId)) || 'Appointment'; };
    const apply = h('button', { type: 'button', class: 'button primary' }, 'Apply these moves');
    apply.addEventListener('click', () => act(apply, async () => {
      const done = await api.post('/schedule/replan', { ...request(), apply: true });
      toast(`${done.moved.length} appointments moved; the day is marked as time off`, 'success');
      showPlan(done, true);
      ctx.reload();
    }, { label: 'Applying…', into: result }));
    const session = ctx.session;
    replace(result,
      h('h3', {}, applied ? 'Moved' : 'Proposed moves'),
      plan.moved.length ? h('ul', { class: 'plain entries' }, plan.moved.map((m) => h('li', {},
        h('strong', {}, label(m.appointmentId)), ` ${time(m.fromStart)} ${ctx.clinicianName(m.fromClinicianId)} → ${time(m.toStart)} ${ctx.clinicianName(m.toClinicianId)}`)))
        : h('p', {}, 'Nothing to move.'),
      plan.unplaced.length ? [h('h3', {}, 'Could not be placed'), h('ul', { class: 'plain entries' }, plan.unplaced.map((u) =>
        h('li', {}, `${label(u.appointmentId)}: ${u.reason}`)))] : null,
      !applied && plan.moved.length && session.can('manageSchedule') && session.can('book') ? h('div', { class: 'row end' }, apply)
        : !applied && plan.moved.length ? h('p', { class: 'muted' }, 'Applying a re-plan needs an administrator (it also writes the time off).') : null);
  }
  dialog.append(h('h2', { id: 'replan-title' }, 'Re-plan a day for an absent clinician'),
    h('p', {}, 'Nothing changes until you apply the moves.'), form, result,
    h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Close')));
  show();
  who.focus();
}
