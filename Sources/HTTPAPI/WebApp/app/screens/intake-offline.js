// Sending an intake while VetNet cannot be reached: the case with the level given by hand
// (offline/manual-triage.js) is queued as the assessment it will be, and a new arrival's owner
// and patient before it; each takes the id of the one before when it is sent. Should the
// server answer after all, the engine's level is shown beside the hand-given one.

import * as api from '../api.js';
import { h, replace, busy, showErrors, levelLabel } from '../ui.js';
import { showMessage } from '../forms.js';
import { triageSent } from '../offline/outbox.js';
import { nextArrival } from './intake-offers.js';

/** Sends (or queues) the intake `body` with the hand-given `level`. `form`, `formErrors` and
 *  `submit`: the intake's form, its message box and button; `state`: the screen's {patient,
 *  mode}; `result`: the result panel. */
export async function sendByHand(body, { level, form, formErrors, submit, state, result }) {
  if (!level) {
    showErrors(form, [{ field: 'manualLevel', message: 'Give the level by hand.' }], { summary: formErrors });
    form.querySelector('[aria-invalid="true"]')?.focus();
    return;
  }
  const unknown = '00000000-0000-0000-0000-000000000000';
  const madeOrQueued = async (path, sent, queue) => {
    try { return { made: await api.post(path, sent, { idempotencyKey: api.newKey(), queue }) }; } catch (error) {
      if (!error.queued) throw error;
      return { entry: error.entry };
    }
  };
  const after = (step, field) => (step.entry ? { after: step.entry.id, field } : {});
  await busy(submit, async () => {
    try {
      let subject = state.patient?.name;
      let patientStep = { made: state.patient };
      if (state.mode === 'new') {
        subject = body.newPatient.patient.name;
        const ownerStep = await madeOrQueued('/owners', body.newPatient.owner);
        patientStep = await madeOrQueued('/patients', { ...body.newPatient.patient, ownerId: ownerStep.made?.id || unknown }, after(ownerStep, 'ownerId'));
      }
      const step = await madeOrQueued('/triage/assessments', { patientId: patientStep.made?.id || unknown, case: body.case },
        { manualLevel: level, subject, ...after(patientStep, 'patientId') });
      if (step.made) {
        // The server answered after all: the engine's level beside the hand-given one.
        triageSent({ manualLevel: level, subject, id: step.made.id }, step.made);
        result.show(step.made.result);
        result.title.focus();
        return;
      }
      replace(result.offers, h('div', { class: 'notice notice-warning queued-triage', role: 'status' },
        h('strong', {}, `${subject}: given ${levelLabel(level).toLowerCase()} by hand — waiting to send.`),
        ' The engine grades the case when VetNet is back; you are alerted if its level is more urgent.'),
      nextArrival());
      result.title.focus();
    } catch (error) {
      showMessage(formErrors, error.message);
    }
  }, 'Saving…');
}
