// Below the schedule's grid: what its colours mean (the appointment types shown, or the
// catalogue's triage levels), how to move an appointment, and a summary of the view: a closed
// day, how many appointments and which free time are shown, and the cancelled and no-show
// appointments, which hold no time on the grid.

import { h, replace, time, date, levelColour, levelWords } from '../ui.js';
import * as catalogue from '../catalogue.js';
import { patientName } from './schedule-data.js';
import { statusLabel } from './schedule-card.js';
import { isOff } from './schedule-columns.js';
import { openingOf } from './schedule-days.js';

/** The colours' legend and the hint on moving. `names`: {type, typeIndex}. */
export function drawLegend(legend, { view, list, names }) {
  const hint = h('p', { class: 'muted drag-hint' }, 'Drag an appointment to move it (on a touch screen, hold it first), or tap it to move it with a form.');
  if (view.colour === 'urgency') {
    replace(legend, h('ul', { class: 'legend', 'aria-label': 'Colours: urgency' },
      catalogue.levels().map(({ level }) => h('li', {}, h('span', { class: ['swatch', `urgency-${levelColour(level)}`], 'aria-hidden': 'true' }), levelWords(level))),
      h('li', {}, h('span', { class: 'swatch urgency-none', 'aria-hidden': 'true' }), 'Not triaged in the day before')), hint);
    return;
  }
  const used = [...new Set(list.flatMap((c) => c.items.map((a) => a.appointmentTypeId)))];
  replace(legend, used.length ? h('ul', { class: 'legend', 'aria-label': 'Colours: appointment types' }, used.map((id) =>
    h('li', {}, h('span', { class: ['swatch', `type-${names.typeIndex(id)}`], 'aria-hidden': 'true' }), names.type(id)))) : null, hint);
}

/** The view's summary. `typeId`: the type whose free time is shown (when not moving). */
export function drawSummary(extra, { view, list, appointments, practice, moving, typeId, names }) {
  const week = view.span === 'week';
  const off = appointments.filter(isOff);
  const visibleCount = list.reduce((n, c) => n + c.items.length, 0);
  const freeText = view.by === 'room' ? 'free room time shown (the booking picks the room)'
    : `free time shown${moving ? ' for the move' : ` for a ${names.type(typeId).toLowerCase()}`}`;
  replace(extra,
    !week && !openingOf(practice, view.day) ? h('p', { class: 'notice notice-warning' }, 'The practice is closed on this day.') : null,
    h('p', { class: 'muted' }, `${visibleCount} appointment${visibleCount === 1 ? '' : 's'} · ${freeText}`),
    off.length ? h('details', {}, h('summary', {}, `${off.length} cancelled or no-show`), h('ul', { class: 'plain' }, off.map((a) =>
      h('li', {}, `${week ? `${date(a.start)}, ` : ''}${time(a.start)} ${patientName(a.patientId) || 'Patient'} with ${names.clinician(a.clinicianId)} — ${statusLabel(a.status)}${a.cancellationReason ? `: ${a.cancellationReason}` : ''}`)))) : null);
}
