// The appointment a consultation was opened from: its panel (when, type, reason and status,
// with "Start the consultation" while it can be checked in or started), and bringing it along
// through the actions it allows: checked in and started for the visit, completed once the
// visit is saved.

import * as api from '../api.js';
import { h, replace, toast, announce, date, time } from '../ui.js';
import { act } from '../forms.js';
import { statusLabel } from './schedule-card.js';

/** A cancelled or missed appointment (it released its time): its visit is the patient's alone. */
export const notSeen = (appointment) => appointment.statusFacts ? !appointment.statusFacts.holdsTime : false;

/** Draws the appointment (`ctx.appointment`, none: nothing) into `ctx.appointmentBox`. `ctx`:
 *  the consultation screen. */
export function drawAppointment(ctx) {
  if (!ctx.appointment) { replace(ctx.appointmentBox); return; }
  const a = ctx.appointment;
  const actions = a.allowedActions || [];
  // Starting now measures the consultation's time from here (completing reads it).
  const startButton = actions.includes('check_in') || actions.includes('start')
    ? h('button', { type: 'button', class: 'button', dataset: { action: 'start-consultation' } }, 'Start the consultation') : null;
  startButton?.addEventListener('click', () => act(startButton, async () => {
    ctx.appointment = await advance(ctx.appointment);
    if (!ctx.alive()) return;
    drawAppointment(ctx);
    toast('Consultation started', 'success');
    announce('Consultation started');
  }, { label: 'Starting…', into: appointmentNote }));
  const appointmentNote = h('div');
  const typeName = ctx.types.find((t) => t.id === a.appointmentTypeId)?.name || 'Appointment';
  replace(ctx.appointmentBox, h('section', { class: 'panel glass consult-appointment', 'aria-labelledby': 'consult-appt' },
    h('h2', { id: 'consult-appt' }, 'Appointment'),
    h('div', { class: 'row spread wrap' },
      h('p', {}, `${date(a.start)}, ${time(a.start)}–${time(a.end)} · ${typeName}`, a.reason ? ` · ${a.reason}` : '', ' ',
        h('span', { class: 'status-pill', dataset: { status: a.status } }, statusLabel(a.status))),
      startButton),
    a.statusFacts?.open
      ? h('p', { class: 'hint' }, 'Saving the visit completes this appointment (checking it in and starting it first if that was not done).') : null,
    notSeen(a)
      ? h('p', { class: 'notice notice-warning' }, `This appointment is ${statusLabel(a.status).toLowerCase()}: the visit is recorded for the patient, not for it.`) : null,
    appointmentNote));
}

/** Brings the appointment to "in progress" through the actions it allows (check in, start),
 *  reading it afresh first; resolves to the appointment as it is then. */
export async function advance(current) {
  let a = await api.get(`/appointments/${current.id}`);
  for (const action of ['check_in', 'start']) {
    if ((a.allowedActions || []).includes(action)) a = await api.post(`/appointments/${a.id}/transitions`, { action }, { ifMatch: a.version });
  }
  return a;
}

/** Completes the appointment of `ctx`, if it can be, and draws it again; resolves to the
 *  problem, if any. */
export async function complete(ctx) {
  if (!ctx.appointment) return null;
  try {
    const fresh = await api.get(`/appointments/${ctx.appointment.id}`);
    ctx.appointment = fresh;
    if (!(fresh.allowedActions || []).includes('complete')) return null;
    ctx.appointment = await api.post(`/appointments/${fresh.id}/transitions`, { action: 'complete' }, { ifMatch: fresh.version });
    return null;
  } catch (error) {
    return error;
  } finally {
    if (ctx.alive()) drawAppointment(ctx);
  }
}
