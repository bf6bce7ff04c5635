// The consultation (#/consult?patient=<id>&appointment=<id>&from=schedule|er|record): what a
// clinician records with the patient in front of them — the complaint, vital signs (the
// triage case's, checked by the API with the triage reader), the symptoms observed, the
// diagnoses (an active problem of the record, or a new one that may join the problem list),
// the treatment plan and the follow-up date that puts the patient on the recall list. What is
// typed is kept as a draft on this device for this patient and appointment, restored when the
// screen is opened again and cleared once the visit is saved. Saving records the visit (POST
// /patients/{id}/visits) for the appointment it was opened from and completes that
// appointment through its allowed actions (checking it in and starting it first when that was
// not done: a visit is recorded for an appointment the patient came to).
//
// This screen loads the patient's record and the appointment, shows the patient's alerts and
// puts the parts together: the appointment's panel and its actions (consult-appointment.js),
// the form (consult-form.js) with its symptoms, diagnoses and treatment plan
// (consult-symptoms.js, consult-diagnoses.js, consult-plan.js, consult-prescriptions.js) and
// its draft (consult-draft.js), and the visit once saved (consult-saved.js).

import * as api from '../api.js';
import { h, replace, notice, words, zonedParts, isoDate, problemText } from '../ui.js';
import { loadInto } from '../forms.js';
import { drawAppointment } from './consult-appointment.js';
import { drawForm } from './consult-form.js';
import { showSaved } from './consult-saved.js';
import { draftKey, pruneDrafts } from './consult-draft.js';

export { draftKey } from './consult-draft.js';

export function render(container, { query, session }) {
  let alive = true;
  const patientId = query.patient || '';
  const appointmentId = query.appointment || '';
  const from = query.from || (appointmentId ? 'schedule' : 'record');

  const message = h('div');
  const alerts = h('div');
  const draftNote = h('div', { role: 'status' });
  const appointmentBox = h('div');
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));

  /** What the parts share: the patient, where the screen was opened from and the draft's key;
   *  what was loaded (record, appointment, types) and the visit's symptoms and diagnoses as
   *  typed; the visit last sent with its Idempotency-Key (`sent`, the same for a retry of the
   *  same visit); the boxes they draw in; whether the screen is still shown; the way back. */
  const ctx = {
    session, patientId, from, key: draftKey(session.user.id, patientId, appointmentId),
    record: null, appointment: null, types: [], symptoms: [], diagnoses: [],
    sent: { text: '', key: '' },
    body, draftNote, appointmentBox,
    alive: () => alive,
    backHref,
  };

  const title = h('h1', { id: 'consult-title' }, 'Consultation');
  const subtitle = h('p', { class: 'record-facts' });
  const back = h('a', { class: 'back-link', href: backHref() }, h('span', { 'aria-hidden': 'true' }, '‹ '), backWords());

  replace(container, h('section', { class: 'screen consult', 'aria-labelledby': 'consult-title' },
    h('p', {}, back),
    h('header', { class: 'screen-header' }, h('div', {}, title, subtitle)),
    message, alerts, appointmentBox, draftNote, body));

  function backHref() {
    if (from === 'er') return '#/er';
    if (from === 'schedule') return ctx.appointment ? `#/schedule?date=${isoDate(zonedParts(ctx.appointment.start))}` : '#/schedule';
    return `#/patients/${encodeURIComponent(patientId)}`;
  }
  function backWords() {
    return { er: 'ER board', schedule: 'Schedule' }[from] || 'Patient record';
  }

  function load() {
    if (!patientId) { replace(body, notice('No patient was given: open a consultation from the schedule, the ER board or a record.')); return null; }
    return loadInto(body, async () => Promise.all([
      api.get(`/patients/${encodeURIComponent(patientId)}/record`),
      appointmentId ? api.get(`/appointments/${encodeURIComponent(appointmentId)}`) : null,
      appointmentId ? api.get('/appointment-types').then((t) => t.items).catch(() => []) : [],
    ]), async ([data, appt, typeList]) => {
      ctx.record = data;
      ctx.appointment = appt;
      ctx.types = typeList;
      if (ctx.appointment && ctx.appointment.patientId !== patientId) {
        replace(body, notice('This appointment belongs to another patient.'));
        return;
      }
      back.href = backHref();
      drawHeader();
      drawAppointment(ctx);
      if (ctx.appointment?.visitId) {
        // Recorded already (perhaps its completion is what is left to do).
        const visit = await api.get(`/patients/${encodeURIComponent(patientId)}/visits/${ctx.appointment.visitId}`).catch(() => null);
        if (!alive) return;
        if (visit) { showSaved(ctx, visit, { already: true }); return; }
      }
      drawForm(ctx);
    }, { alive: () => alive, message: (error) => (error.status === 404 ? 'There is no such patient or appointment in this practice.' : problemText(error)) });
  }

  function drawHeader() {
    const p = ctx.record.patient;
    document.title = `Consultation: ${p.name} · VetNet`;
    replace(title, `Consultation: ${p.name}`);
    subtitle.textContent = [words(p.species), p.breed, p.sex ? words(p.sex) : null, p.age, p.medicalRecordNumber].filter(Boolean).join(' · ');
    const list = [...(p.alerts || []), ...ctx.record.allergies.map((a) => `Allergy: ${a.substance} (${words(a.severity)})${a.reaction ? ` — ${a.reaction}` : ''}`)];
    replace(alerts, list.length ? h('section', { class: 'alert-banner', 'aria-labelledby': 'consult-alerts' },
      h('h2', { id: 'consult-alerts' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), 'Alerts'),
      h('ul', {}, list.map((a) => h('li', {}, a)))) : null);
  }

  pruneDrafts();
  load();
  return () => { alive = false; };
}
