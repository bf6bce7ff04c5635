// The consultation's treatment plan: its approach (medical, surgical or both), the plan in
// words, the procedures one a line, and the drugs prescribed (consult-prescriptions.js), as the
// visit's treatmentPlan.

import { h, field, uid } from '../ui.js';
import { prescriptions } from './consult-prescriptions.js';

/** The "Treatment plan" fieldset of the patient `patientId`. `changed()`: a prescription was
 *  added, removed or typed in (for the draft). Returns {element, values(), fill(values),
 *  read()}: `values` what was typed ({approaches, summary, procedures, prescriptions}), `fill`
 *  puts it back, `read` the treatmentPlan to send (null when nothing was given). */
export function treatmentPlan(patientId, changed) {
  const medical = h('input', { type: 'checkbox', value: 'medical', id: uid('medical') });
  const surgical = h('input', { type: 'checkbox', value: 'surgical', id: uid('surgical') });
  medical.dataset.field = 'treatmentPlan.approaches';
  const summary = h('textarea', { rows: 3, maxlength: 4000 });
  const procedures = h('textarea', { rows: 2 });
  const drugs = prescriptions(patientId, changed);
  const approaches = () => [medical, surgical].filter((b) => b.checked).map((b) => b.value);

  const values = () => ({ approaches: approaches(), summary: summary.value, procedures: procedures.value, prescriptions: drugs.values() });

  function fill(draft) {
    medical.checked = (draft.approaches || []).includes('medical');
    surgical.checked = (draft.approaches || []).includes('surgical');
    summary.value = draft.summary || '';
    procedures.value = draft.procedures || '';
    drugs.fill(draft.prescriptions);
  }

  function read() {
    const chosen = approaches();
    const steps = procedures.value.split('\n').map((line) => line.trim()).filter(Boolean).map((name) => ({ name }));
    const prescribed = drugs.read();
    if (!(chosen.length || summary.value.trim() || steps.length || prescribed.length)) return null;
    const plan = { approaches: chosen };
    if (summary.value.trim()) plan.summary = summary.value.trim();
    if (steps.length) plan.procedures = steps;
    if (prescribed.length) plan.prescriptions = prescribed;
    return plan;
  }

  const element = h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Treatment plan'),
    h('fieldset', { class: 'approach-choice' }, h('legend', {}, 'Approach'),
      h('div', { class: 'row wrap' },
        h('div', { class: 'field check' }, medical, h('label', { for: medical.id }, 'Medical')),
        h('div', { class: 'field check' }, surgical, h('label', { for: surgical.id }, 'Surgical')))),
    h('div', { class: 'grid-fields' },
      field('Plan', summary, { fieldName: 'treatmentPlan.summary', wide: true }),
      field('Procedures, one a line', procedures, { fieldName: 'treatmentPlan.procedures', wide: true, hint: 'A surgical plan names at least one.' })),
    drugs.element);
  return { element, values, fill, read };
}
