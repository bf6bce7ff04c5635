// The consultation's form: the chief complaint, the vital signs (vitals.js), the observed
// symptoms (consult-symptoms.js), the diagnoses (consult-diagnoses.js), the treatment plan
// (consult-plan.js) and the follow-up. What is typed is kept as a draft (consult-draft.js) and
// restored from it. Saving checks what a visit needs, checks in and starts the appointment
// when that was not done, records the visit and completes the appointment.

import * as api from '../api.js';
import { h, replace, field, notice, toast, dateTime, today, addDays, showErrors, debounce } from '../ui.js';
import { submitForm } from '../forms.js';
import { vitalSigns } from './vitals.js';
import { symptomsFieldset } from './consult-symptoms.js';
import { diagnosesFieldset } from './consult-diagnoses.js';
import { treatmentPlan } from './consult-plan.js';
import { notSeen, drawAppointment, advance, complete } from './consult-appointment.js';
import { readDraft, keepDraft, clearDraft } from './consult-draft.js';
import { showSaved } from './consult-saved.js';

/** Draws the form into `ctx.body`, with the draft kept for it, if any. `ctx`: the
 *  consultation screen (its symptoms and diagnoses are the form's lists). Returns the chief
 *  complaint box, where the form starts. */
export function drawForm(ctx) {
  let restoring = false;
  const complaint = h('textarea', { rows: 2, maxlength: 500, required: true, 'aria-required': 'true' });
  const vitals = vitalSigns();
  const refuse = (errors) => showErrors(form, errors);
  const symptoms = symptomsFieldset(ctx, { changed: () => keep(), refuse });
  const diagnoses = diagnosesFieldset(ctx, { changed: () => keep(), refuse });
  const plan = treatmentPlan(ctx.patientId, () => keep());
  const followUp = h('input', { type: 'date', min: addDays(today(), 1) });
  const followUpReason = h('input', { type: 'text', maxlength: 200, autocomplete: 'off' });

  const save = h('button', { type: 'submit', class: 'button primary large' }, ctx.appointment?.statusFacts?.open
    ? 'Save the visit and complete the appointment' : 'Save the visit');
  const discard = h('button', { type: 'button', class: 'button quiet' }, 'Discard the draft');
  const form = h('form', { class: 'consult-form', novalidate: true, 'aria-labelledby': 'consult-title' },
    h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Complaint'),
      field('Chief complaint', complaint, { fieldName: 'chiefComplaint', wide: true, hint: 'Why the patient came, in the owner’s or your words.' })),
    h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Vital signs'), vitals.element),
    symptoms.element,
    diagnoses.element,
    plan.element,
    h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Follow-up'),
      h('div', { class: 'grid-fields' },
        field('Follow-up date', followUp, { fieldName: 'followUpDate', hint: 'Puts the patient on the recall list until a later visit.' }),
        field('Reason', followUpReason, { fieldName: 'followUpReason' }))),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row wrap consult-actions' }, save, discard));
  replace(ctx.body, form);

  // MARK: the draft, kept as it is typed

  function values() {
    return {
      complaint: complaint.value, vitals: vitals.values(), symptoms: ctx.symptoms, diagnoses: ctx.diagnoses,
      ...plan.values(), followUp: followUp.value, followUpReason: followUpReason.value,
    };
  }
  const keep = debounce(() => {
    if (!ctx.alive() || restoring) return;
    keepDraft(ctx.key, values());
  }, 300);
  form.addEventListener('input', keep);
  form.addEventListener('change', keep);
  discard.addEventListener('click', () => {
    clearDraft(ctx.key);
    ctx.symptoms = [];
    ctx.diagnoses = [];
    // The form is drawn anew (which clears the draft's note), then says so; the focus goes to
    // the new form's first box, not this one's.
    const start = drawForm(ctx);
    replace(ctx.draftNote, notice('The draft was discarded.', 'success'));
    start.focus();
  });

  function restore() {
    const draft = readDraft(ctx.key);
    if (!draft) { replace(ctx.draftNote); return; }
    restoring = true;
    complaint.value = draft.complaint || '';
    vitals.fill(draft.vitals);
    ctx.symptoms = Array.isArray(draft.symptoms) ? draft.symptoms.filter((s) => typeof s === 'string') : [];
    ctx.diagnoses = Array.isArray(draft.diagnoses) ? draft.diagnoses.filter((d) => d && typeof d.name === 'string') : [];
    plan.fill(draft);
    followUp.value = draft.followUp || '';
    followUpReason.value = draft.followUpReason || '';
    restoring = false;
    replace(ctx.draftNote, h('p', { class: 'notice notice-warning draft-restored' },
      h('strong', {}, 'Draft restored. '), `What was typed on this device ${draft.savedAt ? `at ${dateTime(draft.savedAt)} ` : ''}is back; it is kept here until the visit is saved.`));
  }

  // MARK: saving

  function visitBody() {
    const visit = { chiefComplaint: complaint.value.trim() };
    if (ctx.appointment && !notSeen(ctx.appointment)) visit.appointmentId = ctx.appointment.id;
    const readings = vitals.read();
    if (Object.keys(readings).length) visit.vitals = readings;
    if (ctx.symptoms.length) visit.symptoms = [...ctx.symptoms];
    if (ctx.diagnoses.length) visit.diagnoses = ctx.diagnoses.map((d) => ({ ...d }));
    const treatment = plan.read();
    if (treatment) visit.treatmentPlan = treatment;
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
    if (text !== ctx.sent.text) ctx.sent = { text, key: api.newKey() };
    await submitForm(form, save, async () => {
      // A visit is recorded for an appointment the patient came to: check in and start first.
      if (ctx.appointment?.statusFacts?.awaitingVisit) {
        try { ctx.appointment = await advance(ctx.appointment); } finally { if (ctx.alive()) drawAppointment(ctx); }
      }
      const stored = await api.post(`/patients/${encodeURIComponent(ctx.patientId)}/visits`, visit, { idempotencyKey: ctx.sent.key });
      if (!ctx.alive()) return;
      clearDraft(ctx.key);
      keep.cancel();
      const completeProblem = await complete(ctx);
      toast('Visit saved', 'success');
      showSaved(ctx, stored, { completeProblem });
    }, {
      label: 'Saving…', focus: true,
      // A diagnosis is named by its place in the list: shown at the diagnoses, with its name.
      fields: (errors) => errors.map((e) => {
        const m = /^diagnoses\[(\d+)\]/.exec(e.field);
        if (m) return { field: 'diagnoses', message: `${ctx.diagnoses[Number(m[1])]?.name || `Diagnosis ${Number(m[1]) + 1}`}: ${e.message}` };
        // "A diagnosis or a plan" is shown at the plan's words.
        return e.field === 'treatmentPlan' ? { ...e, field: 'treatmentPlan.summary' } : e;
      }),
    });
  });

  restore();
  symptoms.draw();
  diagnoses.draw();
  diagnoses.follow();
  return complaint;
}
