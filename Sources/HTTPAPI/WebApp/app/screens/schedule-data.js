// What the schedule reads from the API besides the appointments themselves: the free start
// times of a range, the patients' names and the patients' recent triage (to colour by
// urgency). Names and triage are kept across visits to the screen: the appointment list
// carries patient ids only.

import * as api from '../api.js';
import { words, rfc3339 } from '../ui.js';

const SLOT_PAGE = 500;

/** Patient names by id, kept across visits. */
const patientNames = new Map();
/** Each patient's recent triage assessments (newest first), for colouring by urgency. */
const assessments = new Map();

/** A patient's name with the species ("Bella (Dog)"), once loaded; undefined before. */
export function patientName(id) { return patientNames.get(id); }

/** Loads the names of the patients of `list` (appointments) not yet known. */
export async function loadNames(list) {
  const missing = [...new Set(list.map((a) => a.patientId))].filter((id) => !patientNames.has(id));
  await Promise.all(missing.map(async (id) => {
    try { const p = await api.get(`/patients/${id}`); patientNames.set(id, `${p.name} (${words(p.species)})`); } catch { patientNames.set(id, 'Patient'); }
  }));
}

/** Loads the recent triage of the patients of `list` (appointments): those not yet known, or
 *  every one of them with `refresh`. */
export async function loadUrgency(list, refresh = false) {
  const ids = [...new Set(list.map((a) => a.patientId))].filter((id) => refresh || !assessments.has(id));
  await Promise.all(ids.map(async (id) => {
    try { assessments.set(id, (await api.get(`/patients/${id}/assessments`, { limit: 10 })).items); } catch { assessments.set(id, []); }
  }));
}

/** Whether the patient's triage history has been loaded. */
export function urgencyKnown(appointment) { return assessments.has(appointment.patientId); }

/** Appointments carry no triage level: the urgency shown is the patient's triage made in the
 *  24 hours before the appointment (or during it), from the patient's triage history; null
 *  when there was none. */
export function urgencyOf(appointment) {
  const start = Date.parse(appointment.start);
  const found = (assessments.get(appointment.patientId) || []).find((x) => {
    const at = Date.parse(x.assessedAt || x.arrivalTime);
    return at <= Date.parse(appointment.end) && at >= start - 24 * 3600000;
  });
  return found ? found.level : null;
}

/** Free start times from `from` (never before now) to `to` for an appointment type, page by
 *  page (an answer stops at 500 starts, and a day of eight clinicians on a 5-minute grid has
 *  more); one per gap: a start that overlaps the previous one kept for its clinician is left
 *  out. A failure gives what was found so far: free time is a help, the appointments still
 *  show. */
export async function freeSlots({ from, to, appointmentTypeId, clinicianId, durationMinutes }) {
  const found = [];
  let after = Math.max(from.getTime(), Date.now());
  try {
    for (let page = 0; page < 10 && after < to.getTime(); page += 1) {
      const answer = await api.get('/appointments/slots', { from: rfc3339(after), to: rfc3339(to), appointmentTypeId, clinicianId, durationMinutes, limit: SLOT_PAGE });
      found.push(...answer.items);
      if (answer.items.length < SLOT_PAGE) break;
      after = Date.parse(answer.items[answer.items.length - 1].start) + 60000;
    }
  } catch { /* free time is a help; the appointments still show */ }
  const lastEnd = new Map();
  const slots = [];
  for (const slot of found.sort((a, b) => a.start.localeCompare(b.start))) {
    const end = lastEnd.get(slot.clinicianId);
    if (end && Date.parse(slot.start) < end) continue;
    lastEnd.set(slot.clinicianId, Date.parse(slot.end));
    slots.push(slot);
  }
  return slots;
}
