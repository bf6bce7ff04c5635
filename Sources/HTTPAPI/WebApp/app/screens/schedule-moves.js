// Moving appointments on the schedule: by dragging one onto a column (schedule-drag.js finds
// the place, this asks the server), or by "Pick a free time on the grid" and tapping a free
// period; a free period tapped while not moving books it. A move onto a taken time is refused
// by the server and the appointment's dialog then offers its nearest free alternatives;
// nothing here decides whether a time is free.

import { h, replace, announce, toast, time, rfc3339, zonedInstant } from '../ui.js';
import { openAppointment, openBooking } from './schedule-dialogs.js';
import { patientName } from './schedule-data.js';
import { dayHeading } from './schedule-days.js';

/** `state`: the screen's {appointments, rooms, moving}, `moving` set and cleared here;
 *  `screen`: {ctx (for the dialogs), banner, grid, transition(a, body), reload(),
 *  refreshFree() (free time again for the move or the type, then drawn), showClinicians()
 *  (columns by clinician, where free time can be tapped), typeId(), clinicianName(id)}.
 *  Returns {accepts, dropped, start, stop, freeChosen} (accepts and dropped for enableDrag). */
export function scheduleMoves(state, screen) {
  /** Whether a column may take a dragged appointment: a room column takes its own room's. */
  function accepts(button, column) {
    const a = state.appointments.find((x) => x.id === button.dataset.appointment);
    if (!a) return false;
    if (column.dataset.room) return column.dataset.room === (a.roomId && state.rooms.some((r) => r.id === a.roomId) ? a.roomId : 'none');
    return Boolean(column.dataset.clinician);
  }

  /** A drag dropped at {column, day, minutes}. */
  async function dropped(button, target) {
    const appointment = state.appointments.find((a) => a.id === button.dataset.appointment);
    if (!appointment) return;
    const start = rfc3339(zonedInstant(target.day, target.minutes));
    const clinicianId = target.column.dataset.clinician || appointment.clinicianId;
    if (Date.parse(start) === Date.parse(appointment.start) && clinicianId === appointment.clinicianId) return;
    const name = patientName(appointment.patientId) || 'The appointment';
    button.setAttribute('aria-busy', 'true');
    try {
      await screen.transition(appointment, { action: 'reschedule', start, clinicianId });
      toast(`Moved ${name} to ${dayHeading(target.day)} ${time(start)} with ${screen.clinicianName(clinicianId)}`, 'success');
      announce(`${name} moved to ${time(start)}`);
    } catch (error) {
      button.removeAttribute('aria-busy');
      if (error.status === 409) openAppointment(screen.ctx, appointment, { conflict: error, attempt: { start, clinicianId } });
      else if (error.status === 412) { toast('Someone changed this appointment meanwhile; the schedule now shows it as it is.', 'error'); screen.reload(); }
      else toast(error.errors[0] ? `${error.errors[0].field}: ${error.errors[0].message}` : error.message, 'error');
    }
  }

  /** Moving by tapping: the grid shows the free time for this appointment. */
  function start(appointment) {
    state.moving = appointment;
    replace(screen.banner, `Moving ${patientName(appointment.patientId) || 'the appointment'} (${time(appointment.start)}): tap a highlighted free time. `,
      h('button', { type: 'button', class: 'button', on: { click: stop } }, 'Stop moving'));
    screen.banner.hidden = false;
    screen.showClinicians();
    screen.refreshFree().then(() => screen.grid.querySelector('.free-slot')?.focus());
  }

  function stop() {
    state.moving = null;
    screen.banner.hidden = true;
    screen.refreshFree();
  }

  /** A free start time chosen on the grid: the move's new time, or a booking. */
  async function freeChosen(slot) {
    if (!state.moving) { openBooking(screen.ctx, slot, screen.typeId()); return; }
    const appointment = state.moving;
    try {
      await screen.transition(appointment, { action: 'reschedule', start: slot.start, clinicianId: slot.clinicianId });
      stop();
      toast(`Moved to ${time(slot.start)} with ${screen.clinicianName(slot.clinicianId)}`, 'success');
    } catch (error) {
      if (error.status === 409) { stop(); openAppointment(screen.ctx, appointment, { conflict: error, attempt: { start: slot.start, clinicianId: slot.clinicianId } }); } else toast(error.message, 'error');
    }
  }

  return { accepts, dropped, start, stop, freeChosen };
}
