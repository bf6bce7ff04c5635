// A consultation's saved visit: what was recorded (when and by whom, the complaint, vital
// signs, symptoms, diagnoses, the plan with its prescriptions and the follow-up) with the
// appointment's status, a way to complete the appointment when that is still to do, and the
// ways on: the record, back to where the consultation was opened, and the recalls.

import { h, replace, toast, announce, words, dateTime, plainDate, problemText } from '../ui.js';
import { act } from '../forms.js';
import { describeVitals } from './vitals.js';
import { statusLabel } from './schedule-card.js';
import { prescribedText } from './consult-prescriptions.js';
import { complete } from './consult-appointment.js';

/** Shows the saved `visit` in `ctx.body` (`ctx`: the consultation screen). `already`: the
 *  visit was recorded before the screen was opened; `completeProblem`: why the appointment
 *  could not be completed. */
export function showSaved(ctx, visit, { already = false, completeProblem = null } = {}) {
  const { appointment, from } = ctx;
  replace(ctx.draftNote);
  const heading = h('h2', { id: 'consult-saved', tabindex: '-1' }, already ? 'The visit recorded for this appointment' : 'Visit saved');
  const problems = h('div');
  const completable = appointment && (appointment.allowedActions || []).includes('complete');
  if (completeProblem || (already && completable)) {
    const retry = h('button', { type: 'button', class: 'button primary' }, 'Complete the appointment');
    retry.addEventListener('click', () => act(retry, async () => {
      const problem = await complete(ctx);
      if (problem) throw problem;
      toast('Appointment completed', 'success');
      showSaved(ctx, visit, { already });
    }, { label: 'Completing…', into: problems }));
    problems.append(h('div', { class: 'notice notice-warning', role: 'alert' },
      completeProblem ? `The visit is saved, but the appointment could not be completed: ${problemText(completeProblem)} ` : 'The appointment is not completed yet. ',
      retry));
  }
  const plan = visit.treatmentPlan;
  const vitalsText = describeVitals(visit.vitals);
  const recordLink = h('a', { class: 'button primary', href: `#/patients/${encodeURIComponent(ctx.patientId)}` }, 'Open the record');
  const backLink = from !== 'record' ? h('a', { class: 'button', href: ctx.backHref() }, from === 'er' ? 'Back to the ER board' : 'Back to the schedule') : null;
  replace(ctx.body, h('section', { class: 'panel glass consult-saved', 'aria-labelledby': 'consult-saved', dataset: { visit: visit.id } },
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
      visit.followUpRequired && ctx.session.can('readRecords') ? h('a', { class: 'button', href: '#/recalls' }, 'Recalls') : null)));
  heading.focus();
  announce(already ? 'The visit recorded for this appointment' : 'Visit saved');
}
