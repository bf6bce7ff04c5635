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

import * as api from '../api.js';
import {
  h, replace, field, select, notice, toast, announce, words, date, time, dateTime, plainDate, today, addDays, showErrors, uid, problemText,
  debounce, zonedParts, isoDate,
} from '../ui.js';
import { act, loadInto, submitForm } from '../forms.js';
import { vitalSigns, describeVitals } from './vitals.js';
import { statusLabel } from './schedule-card.js';
import { prescriptions, prescribedText } from './consult-prescriptions.js';

const CERTAINTIES = ['confirmed', 'presumptive', 'differential', 'ruled_out'];
/** Certainties a diagnosis may join the problem list with (the API's rule). */
const LISTABLE = ['confirmed', 'presumptive'];
const DRAFT_PREFIX = 'vetnet.consult-draft';
/** Drafts untouched this long are dropped (this device may be shared). */
const DRAFT_DAYS = 7;
/** A cancelled or missed appointment (it released its time): its visit is the patient's alone. */
const notSeen = (appointment) => appointment.statusFacts ? !appointment.statusFacts.holdsTime : false;

/** The draft's key: one per account, patient and appointment (or none). */
export function draftKey(userId, patientId, appointmentId) {
  return `${DRAFT_PREFIX}.${userId}.${patientId}.${appointmentId || 'none'}`;
}

/** Removes the drafts on this device older than DRAFT_DAYS. */
function pruneDrafts(now = Date.now()) {
  try {
    for (let i = localStorage.length - 1; i >= 0; i -= 1) {
      const name = localStorage.key(i);
      if (!name?.startsWith(`${DRAFT_PREFIX}.`)) continue;
      let savedAt = NaN;
      try { savedAt = Date.parse(JSON.parse(localStorage.getItem(name))?.savedAt); } catch { /* unreadable: dropped */ }
      if (!(now - savedAt < DRAFT_DAYS * 86400000)) localStorage.removeItem(name);
    }
  } catch { /* no storage: nothing kept */ }
}

export function render(container, { query, session }) {
  let alive = true;
  const patientId = query.patient || '';
  const appointmentId = query.appointment || '';
  const from = query.from || (appointmentId ? 'schedule' : 'record');
  const key = draftKey(session.user.id, patientId, appointmentId);

  let record = null;
  let appointment = null;
  let types = [];
  let symptoms = [];
  let diagnoses = [];
  let restoring = false;
  // The Idempotency-Key of the visit being sent: the same for a retry of the same record.
  let sent = { text: '', key: '' };

  const title = h('h1', { id: 'consult-title' }, 'Consultation');
  const subtitle = h('p', { class: 'record-facts' });
  const back = h('a', { class: 'back-link', href: backHref() }, h('span', { 'aria-hidden': 'true' }, '‹ '), backWords());
  const message = h('div');
  const alerts = h('div');
  const draftNote = h('div', { role: 'status' });
  const appointmentBox = h('div');
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));

  replace(container, h('section', { class: 'screen consult', 'aria-labelledby': 'consult-title' },
    h('p', {}, back),
    h('header', { class: 'screen-header' }, h('div', {}, title, subtitle)),
    message, alerts, appointmentBox, draftNote, body));

  function backHref() {
    if (from === 'er') return '#/er';
    if (from === 'schedule') return appointment ? `#/schedule?date=${isoDate(zonedParts(appointment.start))}` : '#/schedule';
    return `#/patients/${encodeURIComponent(patientId)}`;
  }
  function backWords() {
    return { er: 'ER board', schedule: 'Schedule' }[from] || 'Patient record';
  }

  // MARK: - Loading

  function load() {
    if (!patientId) { replace(body, notice('No patient was given: open a consultation from the schedule, the ER board or a record.')); return null; }
    return loadInto(body, async () => Promise.all([
      api.get(`/patients/${encodeURIComponent(patientId)}/record`),
      appointmentId ? api.get(`/appointments/${encodeURIComponent(appointmentId)}`) : null,
      appointmentId ? api.get('/appointment-types').then((t) => t.items).catch(() => []) : [],
    ]), async ([data, appt, typeList]) => {
      record = data;
      appointment = appt;
      types = typeList;
      if (appointment && appointment.patientId !== patientId) {
        replace(body, notice('This appointment belongs to another patient.'));
        return;
      }
      back.href = backHref();
      drawHeader();
      drawAppointment();
      if (appointment?.visitId) {
        // Recorded already (perhaps its completion is what is left to do).
        const visit = await api.get(`/patients/${encodeURIComponent(patientId)}/visits/${appointment.visitId}`).catch(() => null);
        if (!alive) return;
        if (visit) { showSaved(visit, { already: true }); return; }
      }
      drawForm();
    }, { alive: () => alive, message: (error) => (error.status === 404 ? 'There is no such patient or appointment in this practice.' : problemText(error)) });
  }

  function drawHeader() {
    const p = record.patient;
    document.title = `Consultation: ${p.name} · VetNet`;
    replace(title, `Consultation: ${p.name}`);
    subtitle.textContent = [words(p.species), p.breed, p.sex ? words(p.sex) : null, p.age, p.medicalRecordNumber].filter(Boolean).join(' · ');
    const list = [...(p.alerts || []), ...record.allergies.map((a) => `Allergy: ${a.substance} (${words(a.severity)})${a.reaction ? ` — ${a.reaction}` : ''}`)];
    replace(alerts, list.length ? h('section', { class: 'alert-banner', 'aria-labelledby': 'consult-alerts' },
      h('h2', { id: 'consult-alerts' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), 'Alerts'),
      h('ul', {}, list.map((a) => h('li', {}, a)))) : null);
  }

  function typeName(id) { return types.find((t) => t.id === id)?.name || 'Appointment'; }

  function drawAppointment() {
    if (!appointment) { replace(appointmentBox); return; }
    const a = appointment;
    const actions = a.allowedActions || [];
    // Starting now measures the consultation's time from here (completing reads it).
    const startButton = actions.includes('check_in') || actions.includes('start')
      ? h('button', { type: 'button', class: 'button', dataset: { action: 'start-consultation' } }, 'Start the consultation') : null;
    startButton?.addEventListener('click', () => act(startButton, async () => {
      appointment = await advance(appointment);
      if (!alive) return;
      drawAppointment();
      toast('Consultation started', 'success');
      announce('Consultation started');
    }, { label: 'Starting…', into: appointmentNote }));
    const appointmentNote = h('div');
    replace(appointmentBox, h('section', { class: 'panel glass consult-appointment', 'aria-labelledby': 'consult-appt' },
      h('h2', { id: 'consult-appt' }, 'Appointment'),
      h('div', { class: 'row spread wrap' },
        h('p', {}, `${date(a.start)}, ${time(a.start)}–${time(a.end)} · ${typeName(a.appointmentTypeId)}`, a.reason ? ` · ${a.reason}` : '', ' ',
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
  async function advance(current) {
    let a = await api.get(`/appointments/${current.id}`);
    for (const action of ['check_in', 'start']) {
      if ((a.allowedActions || []).includes(action)) a = await api.post(`/appointments/${a.id}/transitions`, { action }, { ifMatch: a.version });
    }
    return a;
  }

  // MARK: - The form

  function drawForm() {
    const complaint = h('textarea', { rows: 2, maxlength: 500, required: true, 'aria-required': 'true' });
    const vitals = vitalSigns();

    const symptomInput = h('input', { type: 'text', maxlength: 200, autocomplete: 'off' });
    const addSymptom = h('button', { type: 'button', class: 'button' }, 'Add symptom');
    const symptomList = h('ul', { class: 'plain entries symptom-list', 'aria-label': 'Observed symptoms' });

    const active = record.problems.filter((p) => (p.status || 'active') === 'active');
    const source = select([['new', 'A new diagnosis'], ...active.map((p) => [p.id, `Active problem: ${p.name}`])]);
    const dxName = h('input', { type: 'text', maxlength: 200, autocomplete: 'off' });
    const certainty = select(CERTAINTIES.map((c) => [c, words(c)]), { value: 'presumptive' });
    const toList = h('input', { type: 'checkbox', id: uid('to-list') });
    const toListBox = h('div', { class: 'field check' }, toList, h('label', { for: toList.id }, 'Add it to the problem list'));
    const addDiagnosis = h('button', { type: 'button', class: 'button' }, 'Add diagnosis');
    const nameField = field('Diagnosis', dxName, { fieldName: 'diagnosisName' });
    const diagnosisList = h('ul', { class: 'plain entries diagnosis-list', 'aria-label': 'Diagnoses of this visit' });

    const medical = h('input', { type: 'checkbox', value: 'medical', id: uid('medical') });
    const surgical = h('input', { type: 'checkbox', value: 'surgical', id: uid('surgical') });
    medical.dataset.field = 'treatmentPlan.approaches';
    const summary = h('textarea', { rows: 3, maxlength: 4000 });
    const procedures = h('textarea', { rows: 2 });
    const drugs = prescriptions(patientId, () => keep());
    const followUp = h('input', { type: 'date', min: addDays(today(), 1) });
    const followUpReason = h('input', { type: 'text', maxlength: 200, autocomplete: 'off' });

    const save = h('button', { type: 'submit', class: 'button primary large' }, appointment?.statusFacts?.open
      ? 'Save the visit and complete the appointment' : 'Save the visit');
    const discard = h('button', { type: 'button', class: 'button quiet' }, 'Discard the draft');
    const form = h('form', { class: 'consult-form', novalidate: true, 'aria-labelledby': 'consult-title' },
      h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Complaint'),
        field('Chief complaint', complaint, { fieldName: 'chiefComplaint', wide: true, hint: 'Why the patient came, in the owner’s or your words.' })),
      h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Vital signs'), vitals.element),
      h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Observed symptoms'),
        h('div', { class: 'inline-form' }, field('Symptom', symptomInput, { fieldName: 'symptoms' }), addSymptom),
        symptomList,
        h('p', { class: 'hint' }, 'The visit record has no place for symptoms: they are kept in the record as a clinical note (Objective) saved with the visit.')),
      h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Diagnoses'),
        h('div', { class: 'grid-fields' },
          field('Problem or new diagnosis', source, { fieldName: 'diagnoses' }),
          nameField,
          field('Certainty', certainty, { fieldName: 'certainty' })),
        h('div', { class: 'row wrap' }, toListBox, addDiagnosis),
        diagnosisList),
      h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Treatment plan'),
        h('fieldset', { class: 'approach-choice' }, h('legend', {}, 'Approach'),
          h('div', { class: 'row wrap' },
            h('div', { class: 'field check' }, medical, h('label', { for: medical.id }, 'Medical')),
            h('div', { class: 'field check' }, surgical, h('label', { for: surgical.id }, 'Surgical')))),
        h('div', { class: 'grid-fields' },
          field('Plan', summary, { fieldName: 'treatmentPlan.summary', wide: true }),
          field('Procedures, one a line', procedures, { fieldName: 'treatmentPlan.procedures', wide: true, hint: 'A surgical plan names at least one.' })),
        drugs.element),
      h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Follow-up'),
        h('div', { class: 'grid-fields' },
          field('Follow-up date', followUp, { fieldName: 'followUpDate', hint: 'Puts the patient on the recall list until a later visit.' }),
          field('Reason', followUpReason, { fieldName: 'followUpReason' }))),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }),
      h('div', { class: 'row wrap consult-actions' }, save, discard));
    replace(body, form);

    // Symptoms: typed, then added to the list (Enter adds, rather than sending the form).
    function drawSymptoms() {
      replace(symptomList, symptoms.map((text, i) => h('li', { class: 'row spread' }, h('span', {}, text),
        h('button', { type: 'button', class: 'button quiet', 'aria-label': `Remove symptom: ${text}`, on: { click: () => { symptoms.splice(i, 1); drawSymptoms(); keep(); } } }, 'Remove'))));
      symptomList.hidden = !symptoms.length;
    }
    function takeSymptom() {
      const text = symptomInput.value.trim();
      if (!text) { showErrors(form, [{ field: 'symptoms', message: 'Type the symptom first.' }]); symptomInput.focus(); return; }
      if (!symptoms.includes(text)) symptoms.push(text);
      symptomInput.value = '';
      drawSymptoms();
      keep();
      announce(`Symptom added: ${text}`);
      symptomInput.focus();
    }
    addSymptom.addEventListener('click', takeSymptom);
    symptomInput.addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); takeSymptom(); } });

    // Diagnoses: an active problem of the record, or a new one (which may join the list).
    function followSource() {
      const fresh = source.value === 'new';
      nameField.hidden = !fresh;
      toListBox.hidden = !fresh;
      toList.disabled = !LISTABLE.includes(certainty.value);
      if (toList.disabled) toList.checked = false;
    }
    source.addEventListener('change', followSource);
    certainty.addEventListener('change', followSource);
    function drawDiagnoses() {
      replace(diagnosisList, diagnoses.map((d, i) => h('li', { class: 'row spread', dataset: { diagnosis: String(i) } },
        h('span', {}, h('strong', {}, d.name), ` · ${words(d.certainty)}`,
          d.problemId ? h('span', { class: 'muted' }, ' · on the problem list') : d.addToProblemList ? h('span', { class: 'muted' }, ' · joins the problem list') : null),
        h('button', { type: 'button', class: 'button quiet', 'aria-label': `Remove diagnosis: ${d.name}`, on: { click: () => { diagnoses.splice(i, 1); drawDiagnoses(); keep(); } } }, 'Remove'))));
      diagnosisList.hidden = !diagnoses.length;
    }
    addDiagnosis.addEventListener('click', () => {
      const problem = active.find((p) => p.id === source.value);
      const name = problem ? problem.name : dxName.value.trim();
      if (!name) { showErrors(form, [{ field: 'diagnosisName', message: 'Name the diagnosis first.' }]); dxName.focus(); return; }
      const entry = { name, certainty: certainty.value };
      if (problem) entry.problemId = problem.id;
      else if (toList.checked && LISTABLE.includes(certainty.value)) entry.addToProblemList = true;
      diagnoses.push(entry);
      dxName.value = '';
      toList.checked = false;
      source.value = 'new';
      followSource();
      drawDiagnoses();
      keep();
      announce(`Diagnosis added: ${name}`);
    });

    // MARK: the draft, kept as it is typed

    function values() {
      return {
        complaint: complaint.value, vitals: vitals.values(), symptoms, diagnoses,
        approaches: [medical, surgical].filter((b) => b.checked).map((b) => b.value), summary: summary.value, procedures: procedures.value,
        prescriptions: drugs.values(), followUp: followUp.value, followUpReason: followUpReason.value,
      };
    }
    const keep = debounce(() => {
      if (!alive || restoring) return;
      try { localStorage.setItem(key, JSON.stringify({ savedAt: new Date().toISOString(), ...values() })); } catch { /* storage full or refused: the form still works */ }
    }, 300);
    form.addEventListener('input', keep);
    form.addEventListener('change', keep);
    discard.addEventListener('click', () => {
      clearDraft();
      symptoms = [];
      diagnoses = [];
      replace(draftNote, notice('The draft was discarded.', 'success'));
      drawForm();
      complaint.focus();
    });

    function restore() {
      let draft = null;
      try { draft = JSON.parse(localStorage.getItem(key) || 'null'); } catch { draft = null; }
      if (!draft) { replace(draftNote); return; }
      restoring = true;
      complaint.value = draft.complaint || '';
      vitals.fill(draft.vitals);
      symptoms = Array.isArray(draft.symptoms) ? draft.symptoms.filter((s) => typeof s === 'string') : [];
      diagnoses = Array.isArray(draft.diagnoses) ? draft.diagnoses.filter((d) => d && typeof d.name === 'string') : [];
      medical.checked = (draft.approaches || []).includes('medical');
      surgical.checked = (draft.approaches || []).includes('surgical');
      summary.value = draft.summary || '';
      procedures.value = draft.procedures || '';
      drugs.fill(draft.prescriptions);
      followUp.value = draft.followUp || '';
      followUpReason.value = draft.followUpReason || '';
      restoring = false;
      replace(draftNote, h('p', { class: 'notice notice-warning draft-restored' },
        h('strong', {}, 'Draft restored. '), `What was typed on this device ${draft.savedAt ? `at ${dateTime(draft.savedAt)} ` : ''}is back; it is kept here until the visit is saved.`));
    }

    // MARK: saving

    function visitBody() {
      const visit = { chiefComplaint: complaint.value.trim() };
      if (appointment && !notSeen(appointment)) visit.appointmentId = appointment.id;
      const readings = vitals.read();
      if (Object.keys(readings).length) visit.vitals = readings;
      if (symptoms.length) visit.symptoms = [...symptoms];
      if (diagnoses.length) visit.diagnoses = diagnoses.map((d) => ({ ...d }));
      const approaches = [medical, surgical].filter((b) => b.checked).map((b) => b.value);
      const steps = procedures.value.split('\n').map((line) => line.trim()).filter(Boolean).map((name) => ({ name }));
      const prescribed = drugs.read();
      if (approaches.length || summary.value.trim() || steps.length || prescribed.length) {
        visit.treatmentPlan = { approaches };
        if (summary.value.trim()) visit.treatmentPlan.summary = summary.value.trim();
        if (steps.length) visit.treatmentPlan.procedures = steps;
        if (prescribed.length) visit.treatmentPlan.prescriptions = prescribed;
      }
      if (followUp.value) {
        visit.followUpRequired = true;
        visit.followUpDate = followUp.value;
        if (followUpReason.value.trim()) visit.followUpReason = followUpReason.value.trim();
      } else if (followUpReason.value.trim()) {
        visit.followUpReason = followUpReason.value.trim();
      }
      return visit;
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const local = vitals.badNumbers();
      if (!complaint.value.trim()) local.unshift({ field: 'chiefComplaint', message: 'Write the chief complaint.' });
      const visit = visitBody();
      // A visit concludes with at least one diagnosis or a treatment plan (the API's rule too).
      if (!visit.diagnoses && !visit.treatmentPlan) {
        const why = 'Add at least one diagnosis or write a treatment plan.';
        local.push({ field: 'diagnoses', message: why }, { field: 'treatmentPlan.summary', message: why });
      }
      if (local.length) { showErrors(form, local); form.querySelector('[aria-invalid="true"]')?.focus(); return; }
      const text = JSON.stringify(visit);
      if (text !== sent.text) sent = { text, key: api.newKey() };
      await submitForm(form, save, async () => {
        // A visit is recorded for an appointment the patient came to: check in and start first.
        if (appointment?.statusFacts?.awaitingVisit) {
          try { appointment = await advance(appointment); } finally { if (alive) drawAppointment(); }
        }
        const stored = await api.post(`/patients/${encodeURIComponent(patientId)}/visits`, visit, { idempotencyKey: sent.key });
        if (!alive) return;
        clearDraft();
        keep.cancel();
        const completeProblem = await complete();
        toast('Visit saved', 'success');
        showSaved(stored, { completeProblem });
      }, {
        label: 'Saving…', focus: true,
        // A diagnosis is named by its place in the list: shown at the diagnoses, with its name.
        fields: (errors) => errors.map((e) => {
          const m = /^diagnoses\[(\d+)\]/.exec(e.field);
          if (m) return { field: 'diagnoses', message: `${diagnoses[Number(m[1])]?.name || `Diagnosis ${Number(m[1]) + 1}`}: ${e.message}` };
          // "A diagnosis or a plan" is shown at the plan's words.
          return e.field === 'treatmentPlan' ? { ...e, field: 'treatmentPlan.summary' } : e;
        }),
      });
    });

    restore();
    drawSymptoms();
    drawDiagnoses();
    followSource();
  }

  /** Completes the appointment, if it can be; resolves to the problem, if any. */
  async function complete() {
    if (!appointment) return null;
    try {
      const fresh = await api.get(`/appointments/${appointment.id}`);
      appointment = fresh;
      if (!(fresh.allowedActions || []).includes('complete')) return null;
      appointment = await api.post(`/appointments/${fresh.id}/transitions`, { action: 'complete' }, { ifMatch: fresh.version });
      return null;
    } catch (error) {
      return error;
    } finally {
      if (alive) drawAppointment();
    }
  }

  function clearDraft() {
    try { localStorage.removeItem(key); } catch { /* nothing kept */ }
  }

  // MARK: - The saved visit

  function showSaved(visit, { already = false, completeProblem = null } = {}) {
    replace(draftNote);
    const heading = h('h2', { id: 'consult-saved', tabindex: '-1' }, already ? 'The visit recorded for this appointment' : 'Visit saved');
    const problems = h('div');
    const completable = appointment && (appointment.allowedActions || []).includes('complete');
    if (completeProblem || (already && completable)) {
      const retry = h('button', { type: 'button', class: 'button primary' }, 'Complete the appointment');
      retry.addEventListener('click', () => act(retry, async () => {
        const problem = await complete();
        if (problem) throw problem;
        toast('Appointment completed', 'success');
        showSaved(visit, { already });
      }, { label: 'Completing…', into: problems }));
      problems.append(h('div', { class: 'notice notice-warning', role: 'alert' },
        completeProblem ? `The visit is saved, but the appointment could not be completed: ${problemText(completeProblem)} ` : 'The appointment is not completed yet. ',
        retry));
    }
    const plan = visit.treatmentPlan;
    const vitalsText = describeVitals(visit.vitals);
    const recordLink = h('a', { class: 'button primary', href: `#/patients/${encodeURIComponent(patientId)}` }, 'Open the record');
    const backLink = from !== 'record' ? h('a', { class: 'button', href: backHref() }, from === 'er' ? 'Back to the ER board' : 'Back to the schedule') : null;
    replace(body, h('section', { class: 'panel glass consult-saved', 'aria-labelledby': 'consult-saved', dataset: { visit: visit.id } },
      heading,
      already ? null : h('p', { class: 'notice notice-success', role: 'status' },
        h('strong', {}, 'Saved. '), appointment?.status === 'completed' ? 'The appointment is completed.' : 'The visit is in the record.'),
      problems,
      h('dl', { class: 'facts visit-facts' },
        h('dt', {}, 'When'), h('dd', {}, dateTime(visit.occurredAt), visit.recordedBy ? ` · ${visit.recordedBy}` : ''),
        h('dt', {}, 'Complaint'), h('dd', {}, visit.chiefComplaint),
        vitalsText.length ? [h('dt', {}, 'Vital signs'), h('dd', {}, vitalsText.join(' · '))] : null,
        visit.symptoms?.length ? [h('dt', {}, 'Symptoms'), h('dd', {}, visit.symptoms.join(', '))] : null,
        visit.diagnoses.length ? [h('dt', {}, 'Diagnoses'), h('dd', {}, visit.diagnoses.map((d) => `${d.name} (${words(d.certainty)})`).join('; '))] : null,
        plan ? [h('dt', {}, 'Plan'), h('dd', {}, [plan.approaches.map(words).join(' and '), plan.summary, (plan.procedures || []).map((p) => p.name).join(', ')].filter(Boolean).join(' · '))] : null,
        plan?.prescriptions?.length ? [h('dt', {}, 'Prescribed'), h('dd', { class: 'prescribed' }, prescribedText(plan.prescriptions))] : null,
        visit.followUpRequired ? [h('dt', {}, 'Follow-up'), h('dd', { class: 'follow-up' }, plainDate(visit.followUpDate), visit.followUpReason ? ` · ${visit.followUpReason}` : '')] : null,
        appointment ? [h('dt', {}, 'Appointment'), h('dd', {}, h('span', { class: 'status-pill', dataset: { status: appointment.status } }, statusLabel(appointment.status)))] : null),
      h('div', { class: 'row wrap' }, recordLink, backLink,
        visit.followUpRequired && session.can('readRecords') ? h('a', { class: 'button', href: '#/recalls' }, 'Recalls') : null)));
    heading.focus();
    announce(already ? 'The visit recorded for this appointment' : 'Visit saved');
  }

  pruneDrafts();
  load();
  return () => { alive = false; };
}
