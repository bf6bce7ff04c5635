// Intake: find or register the patient, triage as the inputs arrive (VTL level, every fired
// discriminator with its evidence, the ABCDE survey), then recommended clinicians and free
// slots within the level's maximum wait, booked in one tap. Red and orange patients join the
// ER board as soon as the intake is sent. Opened to re-assess a patient on the board
// (#/intake?patient=<id>&reassess=1), the form starts from what the last assessment recorded,
// and sending it re-triages the patient in place on the board.
//
// This screen holds the intake's state, puts the parts together, grades the case as it is
// typed and sends it: the patient (intake-patient.js), the case's controls and reading them
// (intake-case.js) with the vital signs and ABCDE survey laid out (intake-survey.js), the
// result panel (intake-result.js), the clinicians and free slots offered once sent
// (intake-offers.js), a re-assessment from the ER board (intake-reassess.js), and sending
// with a level given by hand while offline (intake-offline.js).

import * as api from '../api.js';
import { h, replace, busy, debounce, showErrors, clearErrors, notice } from '../ui.js';
import { showMessage } from '../forms.js';
import * as catalogue from '../catalogue.js';
import { manualTriage } from '../offline/manual-triage.js';
import { pendingPanel } from '../offline/outbox.js';
import { caseControls, presentingProblem, numberErrors, readCase } from './intake-case.js';
import { vitalSignsFieldset, surveyFieldset } from './intake-survey.js';
import { patientPicker } from './intake-patient.js';
import { resultPanel } from './intake-result.js';
import { intakeOffers } from './intake-offers.js';
import { fillFromAssessment, showRetriaged } from './intake-reassess.js';
import { sendByHand } from './intake-offline.js';

export { recordedInputs } from './intake-reassess.js';
export { ageFromBirthDate } from './intake-patient.js';

export function render(container, { session, query }) {
  let alive = true;
  let evaluation = null; // AbortController of the evaluation in flight
  const state = {
    patient: null, // {id, name, species, sex, birthDate, alerts, ownerName, medicalRecordNumber}
    mode: 'existing',
    exactAgeWeeks: null, // from the chosen patient's date of birth, until the age is edited
    reassessing: null, // the patient re-assessed from the ER board (#/intake?patient=…&reassess=1)
  };
  let lastCase = '';

  // MARK: - The form and the result panel

  const c = caseControls();
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, 'Triage and find clinicians');
  const picker = patientPicker(state, { c, submit, alive: () => alive, chosen: () => { lastCase = ''; evaluate(); } });
  const vitals = vitalSignsFieldset(c);
  const survey = surveyFieldset(c);

  const formErrors = h('div', { class: 'form-errors', role: 'alert', hidden: true });
  const result = resultPanel();
  const stickyBar = h('div', { class: 'sticky-actions' }, result.stickyLevel, submit);
  // Without the server: the VTL reference and a level given by hand.
  const manual = manualTriage();
  const form = h('form', { class: 'intake-form', novalidate: true, 'aria-label': 'Intake' },
    picker.fieldset(),
    presentingProblem(c),
    vitals,
    survey,
    manual.element,
    formErrors,
    stickyBar);

  replace(container, h('section', { class: 'screen intake', 'aria-labelledby': 'intake-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'intake-title' }, 'Intake')),
    pendingPanel((e) => e.path === '/triage/assessments' || (e.method === 'POST' && ['/owners', '/patients'].includes(e.path)), 'Triage waiting to send'),
    catalogue.loaded() ? null : notice('The triage catalogue could not be loaded, so no species, findings or grades can be chosen '
      + 'and no case can be triaged here. Try again from the message at the top.', 'warning'),
    h('div', { class: 'intake-layout' }, form, result.element)));

  const offers = intakeOffers(result.offers, state, { alive: () => alive });

  // MARK: - Evaluation as you type

  const evaluate = debounce(async () => {
    if (!alive) return;
    if (!c.species.value) return;
    const local = numberErrors(form);
    if (local.length) { showErrors(form, local); result.invalid(); return; }
    const triageCase = readCase(c, state.exactAgeWeeks);
    // An existing patient's record completes the case (chronic problems count in the
    // complexity), so the preview agrees with what sending it stores.
    const patientId = state.mode === 'existing' && state.patient ? state.patient.id : undefined;
    const text = JSON.stringify([patientId || null, triageCase]);
    if (text === lastCase) return;
    lastCase = text;
    evaluation?.abort();
    evaluation = new AbortController();
    try {
      const { data } = await api.request('POST', '/triage/evaluate', { body: triageCase, query: { patientId }, signal: evaluation.signal });
      if (!alive) return;
      clearCaseErrors();
      manual.hide();
      result.show(data);
    } catch (error) {
      if (error.name === 'AbortError' || !alive) return;
      if (error.status === 422 || error.status === 400) {
        showErrors(form, error.errors, { summary: formErrors });
        result.invalid();
      } else if (error.status === 0) {
        lastCase = null; // graded again once the server answers
        manual.show();
        result.offline();
      } else {
        result.failed(error.message);
      }
    }
  }, 300);

  function clearCaseErrors() {
    // Errors of the case only: those of the new-patient fields stay until the next send.
    form.querySelectorAll('.field-error').forEach((el) => { if (!el.dataset.for?.startsWith('newPatient')) el.remove(); });
    form.querySelectorAll('[aria-invalid="true"]').forEach((el) => {
      if (el.dataset.field?.startsWith('newPatient')) return;
      el.removeAttribute('aria-invalid');
      const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter((x) => x && !x.endsWith('-error'));
      if (ids.length) el.setAttribute('aria-describedby', ids.join(' ')); else el.removeAttribute('aria-describedby');
    });
    formErrors.hidden = true;
  }

  form.addEventListener('input', (event) => { if (event.target !== picker.search) evaluate(); });
  form.addEventListener('change', (event) => { if (event.target !== picker.search) evaluate(); });

  // MARK: - Sending the intake

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const errors = numberErrors(form);
    if (!c.species.value) errors.push({ field: 'species', message: 'Choose the species.' });
    errors.push(...picker.errors());
    if (errors.length) {
      showErrors(form, errors, { summary: formErrors });
      form.querySelector('[aria-invalid="true"]')?.focus();
      return;
    }
    const body = { case: readCase(c, state.exactAgeWeeks) };
    if (state.mode === 'existing') body.patientId = state.patient.id;
    else body.newPatient = picker.newPatient();
    if (manual.active()) { await sendByHand(body, { level: manual.level(), form, formErrors, submit, state, result }); return; }
    await busy(submit, async () => {
      try {
        // A re-assessment of a patient on the ER board is stored as their new assessment,
        // which the board follows whatever the level (an intake only admits red and orange).
        if (state.mode === 'existing' && state.patient?.id === state.reassessing) {
          const board = await api.get('/triage/queue');
          if (!alive) return;
          if (board.items.some((item) => item.patientId === state.patient.id)) {
            const assessment = await api.post('/triage/assessments', { patientId: state.patient.id, case: body.case });
            if (!alive) return;
            result.show(assessment.result);
            result.title.focus();
            showRetriaged(result.offers, state.patient, assessment);
            return;
          }
        }
        const sent = await api.post('/intake', body);
        if (!alive) return;
        // The patient exists now: a second send triages them again rather than registering a twin.
        if (state.mode === 'new') {
          state.patient = { id: sent.patientId, name: body.newPatient.patient.name, species: body.newPatient.patient.species, sex: body.newPatient.patient.sex,
            alerts: [], ownerName: `${body.newPatient.owner.firstName} ${body.newPatient.owner.lastName}` };
          picker.setMode('existing');
          picker.showChosen();
        }
        result.show(sent.triage);
        // The answer is the result: focus its heading (the button is busy, and would leave
        // the focus on <body>).
        result.title.focus();
        await offers.show(sent, body.case);
      } catch (error) {
        if (error.errors.length) {
          showErrors(form, error.errors, { prefix: 'case.', summary: formErrors });
          form.querySelector('[aria-invalid="true"]')?.focus();
        } else {
          showMessage(formErrors, error.message);
        }
      }
    }, 'Triaging…');
  });

  // Opened from a record ("Triage this patient"): start with that patient; to re-assess a
  // patient on the ER board, also with what their last assessment recorded.
  if (query.patient) {
    const id = encodeURIComponent(query.patient);
    const reassess = query.reassess === '1';
    if (reassess) state.reassessing = query.patient;
    Promise.all([api.get(`/patients/${id}`), reassess ? api.get(`/patients/${id}/assessments`, { limit: 1 }).catch(() => null) : null])
      .then(([p, history]) => {
        if (!alive) return;
        picker.choose({ patient: p, ownerName: '' });
        const last = history?.items?.[0];
        if (last) {
          fillFromAssessment(last, { c, note: picker.reassessNote, patient: state.patient });
          lastCase = '';
          evaluate();
        }
      }).catch(() => {});
  } else {
    picker.search.focus();
  }

  // The sticky action bar's height, for the scroll padding that keeps a focused control clear of it.
  const root = document.documentElement;
  const measureBar = () => root.style.setProperty('--bottom-bar-height', `${Math.ceil(stickyBar.getBoundingClientRect().height)}px`);
  const barObserver = 'ResizeObserver' in window ? new ResizeObserver(measureBar) : null;
  barObserver?.observe(stickyBar);
  measureBar();

  return () => {
    alive = false; evaluate.cancel(); picker.cancel(); evaluation?.abort();
    barObserver?.disconnect();
    root.style.setProperty('--bottom-bar-height', '0px');
  };
}
