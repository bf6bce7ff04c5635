// What the intake offers once it is sent: for a red or orange patient the word that they are on
// the ER board, the recommended clinicians with their reasons, and free slots within the
// level's maximum wait (else the nearest in the coming week), each booked in one tap; a slot
// taken meanwhile is refused by the server and its nearest free alternatives are offered.

import * as api from '../api.js';
import { go } from '../router.js';
import { h, replace, busy, notice, announce, toast, levelColour, levelLabel, maxWait, words, time, date, rfc3339 } from '../ui.js';
import { loadInto } from '../forms.js';

/** The row with the "Next arrival" button, which starts a fresh intake. */
export function nextArrival() {
  return h('div', { class: 'row wrap next-arrival' },
    h('button', { type: 'button', class: 'button', on: { click: () => go('#/intake') } }, 'Next arrival'));
}

function cliniciansList(ranked) {
  if (!ranked.length) return h('p', { class: 'muted' }, 'No clinician is suited to this case.');
  return h('section', { 'aria-labelledby': 'recommended-title' },
    h('h3', { id: 'recommended-title' }, 'Recommended clinicians'),
    h('ol', { class: 'clinician-list' }, ranked.slice(0, 4).map((r) => h('li', { class: 'clinician-card' },
      h('div', { class: 'row spread' }, h('strong', {}, r.displayName), h('span', { class: 'score' }, `score ${Number(r.score).toFixed(2)}`)),
      h('p', { class: 'muted' }, r.earliestStart ? `Earliest ${date(r.earliestStart)} ${time(r.earliestStart)}${r.withinMaxWait ? ', within the maximum wait' : ', beyond the maximum wait'}` : 'No free time this week'),
      h('details', {}, h('summary', {}, 'Reasons'), h('ul', { class: 'plain' }, r.parts.map((p) => h('li', {}, `${p.detail} (${words(p.factor)} +${Number(p.contribution).toFixed(2)})`))))))));
}

/** The offers shown in `box` for the screen's patient (`state.patient`, read when shown and
 *  booked); `alive()`: whether the screen is still shown. Returns {show(result, triageCase)}
 *  for a sent intake's answer. */
export function intakeOffers(box, state, { alive }) {
  let typesCache = null;

  async function appointmentTypes() {
    if (!typesCache) typesCache = (await api.get('/appointment-types')).items;
    return typesCache;
  }

  async function show(result, triageCase) {
    const level = result.triage.level;
    const wait = Math.max(result.triage.maxWaitMinutes ?? maxWait(level) ?? 0, 5);
    const parts = [];
    if (result.emergency) {
      parts.push(h('div', { class: ['notice', 'notice-emergency', `level-edge-${levelColour(level)}`], role: 'status' },
        h('strong', {}, `${state.patient.name} is on the ER board now`), ` — ${levelLabel(level).toLowerCase()}, to be seen by ${time(result.triage.targetTime)}.`,
        result.onDutyClinician ? h('span', {}, ` On duty: ${result.onDutyClinician.displayName}.`) : null,
        ' ', h('a', { href: '#/er' }, 'Open the ER board')));
      announce(`${state.patient.name} added to the ER board as ${levelLabel(level)}`, { assertive: true });
    }
    parts.push(nextArrival());
    parts.push(cliniciansList(result.clinicians || []));
    const slotsBox = h('div', { class: 'slots' }, h('p', { class: 'muted' }, 'Finding free slots…'));
    parts.push(slotsBox);
    replace(box, parts);

    let typeId = result.appointmentTypeId;
    let duration = result.durationMinutes;
    let slots = result.offeredSlots || [];
    let within = true;
    await loadInto(slotsBox, async () => {
      if (result.emergency || !typeId) {
        const types = await appointmentTypes();
        const type = result.emergency ? types.find((t) => t.requiredSpecialty === 'emergency_critical_care') : types.find((t) => !t.requiredSpecialty);
        typeId = type?.id;
      }
      if (typeId && !slots.length) {
        const now = Date.now();
        const found = await api.get('/appointments/slots', { from: rfc3339(now), to: rfc3339(now + wait * 60000), appointmentTypeId: typeId, species: triageCase.species, limit: 5 });
        slots = found.items;
        duration = found.durationMinutes;
        if (!slots.length) {
          within = false;
          const later = await api.get('/appointments/slots', { from: rfc3339(now), to: rfc3339(now + 7 * 86400000), appointmentTypeId: typeId, species: triageCase.species, limit: 5 });
          slots = later.items;
          duration = later.durationMinutes;
        }
      }
    }, () => renderSlots(slotsBox, { slots, within, wait, typeId, duration, reason: triageCase.complaint }), { alive });
  }

  function renderSlots(slotsBox, { slots, within, wait, typeId, duration, reason, title }) {
    if (!slots.length) { replace(slotsBox, h('h3', {}, 'Free slots'), h('p', {}, 'No free slot in the coming week for this case.')); return; }
    replace(slotsBox,
      h('h3', {}, title || (within ? `Free slots within ${wait} minutes` : 'Free slots')),
      within ? null : h('p', { class: 'notice notice-warning' }, `No slot is free within the ${wait}-minute maximum wait; these are the nearest.`),
      h('ul', { class: 'slot-list' }, slots.map((slot) => h('li', {}, h('button', {
        type: 'button', class: 'button slot-button', dataset: { start: slot.start, clinician: slot.clinicianId },
        on: { click: (event) => book(event.currentTarget, { slot, typeId, duration, reason, box: slotsBox, wait }) },
      }, h('span', { class: 'slot-time' }, `${time(slot.start)}–${time(slot.end)}`), h('span', {}, ` ${date(slot.start)} · ${slot.clinicianName || 'Clinician'}`),
      h('span', { class: 'visually-hidden' }, ' — book'))))));
  }

  async function book(button, { slot, typeId, duration, reason, box: slotsBox, wait }) {
    await busy(button, async () => {
      try {
        const body = { patientId: state.patient.id, clinicianId: slot.clinicianId, appointmentTypeId: typeId, start: slot.start };
        if (duration) body.durationMinutes = duration;
        if (reason) body.reason = reason.slice(0, 500);
        const appointment = await api.post('/appointments', body, { idempotencyKey: api.newKey() });
        if (!alive()) return;
        const day = slot.start.slice(0, 10);
        replace(slotsBox, h('div', { class: 'notice notice-success booked', role: 'status' },
          h('strong', {}, 'Booked: '), `${state.patient.name} with ${slot.clinicianName || 'the clinician'}, ${date(appointment.start)} ${time(appointment.start)}–${time(appointment.end)}.`,
          h('div', { class: 'row' },
            h('a', { class: 'button', href: `#/schedule?date=${day}` }, 'Open the schedule'),
            h('a', { class: 'button', href: `#/patients/${state.patient.id}` }, 'Open the record'),
            h('button', { type: 'button', class: 'button primary', on: { click: () => go('#/intake') } }, 'Next arrival'))));
        toast(`Booked ${state.patient.name} at ${time(appointment.start)}`, 'success');
        announce(`Booked ${state.patient.name} at ${time(appointment.start)} with ${slot.clinicianName || 'the clinician'}`);
      } catch (error) {
        if (error.status === 409 && Array.isArray(error.problem.alternatives)) {
          renderSlots(slotsBox, { slots: error.problem.alternatives, within: true, wait, typeId, duration, reason, title: 'Nearest free alternatives' });
          slotsBox.prepend(h('p', { class: 'notice notice-warning', role: 'alert' }, 'That slot was just taken. The nearest free alternatives:'));
        } else {
          slotsBox.prepend(notice(error.message));
        }
      }
    }, 'Booking…');
  }

  return { show };
}
