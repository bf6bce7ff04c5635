// An appointment on the schedule's grid: a button coloured by its type or by its patient's
// urgency, with its time, patient and details (a short block shows a compact label, its full
// text being its name and tooltip), draggable when the server allows moving it. Also the words
// for an appointment's status and its urgency badge, which its dialog shows too.

import * as catalogue from '../catalogue.js';
import { h, time, levelBadge, levelColour, levelLabel } from '../ui.js';
import { patientName, urgencyKnown, urgencyOf } from './schedule-data.js';


/** An appointment status in words ("Checked in"). */
export function statusLabel(status) { return catalogue.appointmentStatusLabel(status); }

/** The patient's triage level in the day before the appointment as a badge; a note when there
 *  was none; null before the triage history is loaded. */
export function urgencyBadge(appointment) {
  if (!urgencyKnown(appointment)) return null;
  const level = urgencyOf(appointment);
  return level ? levelBadge(level) : h('span', { class: 'muted' }, 'Not triaged in the day before');
}

/** The colour class of an appointment: by its type (`type-0` … `type-11`), or by urgency. */
export function colourClass(appointment, view, names) {
  if (view.colour === 'type') return `type-${names.typeIndex(appointment.appointmentTypeId)}`;
  const level = urgencyOf(appointment);
  return level ? `urgency-${levelColour(level)}` : 'urgency-none';
}

/** The appointment's button. `view`: {colour, by}; `names`: {type, typeIndex, clinician, room};
 *  `moving`: the appointment being moved, if any; `open(a)`: a tap. */
/** Shows on a card how many notes its appointment has (a mark, and words in its name). */
export function markNotes(button, notes) {
  button.querySelector('.appt-note-count')?.remove();
  const words = (button.getAttribute('aria-label') || '').replace(/ · \d+ notes?$/, '');
  const label = notes ? `${words} · ${notes} note${notes === 1 ? '' : 's'}` : words;
  button.setAttribute('aria-label', label);
  button.title = label;
  if (notes) button.querySelector('.appt-patient')?.append(h('span', { class: 'appt-note-count', 'aria-hidden': 'true', dataset: { notes: String(notes) } }, ` ✎${notes}`));
}

export function appointmentCard(a, { view, names, moving, notes, open }) {
  const minutes = Math.round((Date.parse(a.end) - Date.parse(a.start)) / 60000);
  const dataset = { appointment: a.id, start: a.start, clinician: a.clinicianId, minutes: String(minutes) };
  if (a.allowedActions?.includes('reschedule')) dataset.draggable = 'true';
  const level = view.colour === 'urgency' ? urgencyOf(a) : null;
  const detail = [
    level ? levelLabel(level) : null,
    names.type(a.appointmentTypeId),
    view.by === 'room' ? names.clinician(a.clinicianId) : null,
    statusLabel(a.status),
    view.by === 'clinician' && a.roomId ? names.room(a.roomId) : null,
  ].filter(Boolean).join(' · ');
  // A short block shows a compact label (start and patient on one line); its full text is
  // its accessible name and its tooltip.
  const patient = patientName(a.patientId) || 'Patient';
  const full = `${time(a.start)}–${time(a.end)} ${patient} · ${detail}`;
  const short = minutes < 30;
  const button = h('button', {
    type: 'button', class: ['appointment', colourClass(a, view, names), `status-${a.status}`, moving?.id === a.id && 'is-moving', short && 'appt-compact'], dataset,
    title: full, 'aria-label': full,
    on: { click: () => open(a) },
  },
  h('span', { class: 'appt-time' }, short ? time(a.start) : `${time(a.start)}–${time(a.end)}`),
  h('span', { class: 'appt-patient' }, patient),
  short ? null : h('span', { class: 'appt-type' }, detail));
  markNotes(button, notes);
  return button;
}
