// Intake: find or register the patient, triage as the inputs arrive (VTL level, every fired
// discriminator with its evidence, the ABCDE survey), then recommended clinicians and free
// slots within the level's maximum wait, booked in one tap. Red and orange patients join the
// ER board as soon as the intake is sent. Opened to re-assess a patient on the board
// (#/intake?patient=<id>&reassess=1), the form starts from what the last assessment recorded,
// and sending it re-triages the patient in place on the board.

import * as api from '../api.js';
import { go } from '../router.js';
import {
  h, field, select, replace, busy, debounce, showErrors, clearErrors, notice, announce, toast, uid,
  levelBadge, levelColour, levelLabel, maxWait, words, time, date, rfc3339,
} from '../ui.js';
import * as catalogue from '../catalogue.js';
import { MEMBRANES, PULSES, MENTATIONS, EXTREMITIES } from './vitals.js';
import { manualTriage } from '../offline/manual-triage.js';
import { pendingPanel, triageSent } from '../offline/outbox.js';

/** The letters of the ABCDE survey laid out below, each with its observations; a section of
 *  findings under none of them (the catalogue's other presentations) follows as its own. */
const SURVEY_LETTERS = ['A', 'B', 'C', 'D', 'E'];
const FIELD_NAMES = {
  'vitals.temperature': 'Temperature', 'vitals.heartRate': 'Heart rate', 'vitals.respiratoryRate': 'Respiratory rate',
  'vitals.capillaryRefillSeconds': 'CRT', 'vitals.capillaryRefillAbsent': 'CRT absent', 'vitals.mucousMembranes': 'Mucous membranes',
  'vitals.pulseQuality': 'Pulse', 'vitals.mentation': 'Mentation', 'vitals.extremities': 'Extremities', 'vitals.systolicBP': 'Systolic BP',
  'vitals.spo2': 'SpO₂', 'vitals.glucose': 'Glucose', 'vitals.ketosis': 'Ketosis', 'vitals.dehydrationPercent': 'Dehydration',
  findings: 'Findings', species: 'Species', ageWeeks: 'Age', onsetHoursAgo: 'Onset',
};

/** What an assessment recorded, read back from its result: each fired discriminator's
 *  evidence and each abnormal vital sign ({field, value} with the value as the engine wrote
 *  it: "39.1 °C", "180 /min", "cyanotic", "foreign_body_possible (asserted)"). Returns
 *  {field: value} for the case's fields (findings: a list of ids); the result keeps no
 *  normal value, so only these can be recalled. */
export function recordedInputs(result, { assessedAt, now = Date.now() } = {}) {
  const found = {};
  const evidence = [...(result?.fired || []).flatMap((d) => d.evidence || []), ...(result?.abnormalVitals || [])];
  const lead = (text) => /^-?\d+(\.\d+)?/.exec(String(text).trim())?.[0];
  for (const { field, value } of evidence) {
    const text = String(value ?? '');
    if (field === 'vitals.temperature') {
      const m = /^(-?\d+(?:\.\d+)?) °([CF])/.exec(text);
      if (m) found[field] = { value: m[1], unit: m[2] };
    } else if (field === 'vitals.glucose') {
      const m = /^(\d+(?:\.\d+)?) (mmol\/L|mg\/dL)/.exec(text);
      if (m) found[field] = { value: m[1], unit: m[2] };
    } else if (field === 'findings') {
      const m = /^([a-z0-9_]+) \(asserted\)$/.exec(text);
      if (m) found.findings = [...new Set([...(found.findings || []), m[1]])];
    } else if (field === 'onsetHoursAgo') {
      const hours = lead(text);
      if (hours !== undefined && /h ago$/.test(text)) {
        // As many hours ago as then, and the time since.
        const since = assessedAt ? Math.max(0, (now - Date.parse(assessedAt)) / 3600000) : 0;
        found[field] = String(Math.round((Number(hours) + since) * 10) / 10);
      }
    } else if (field === 'ageWeeks') {
      // The age comes from the patient's date of birth.
    } else if (text === 'true') {
      found[field] = true;
    } else if (/^-?\d/.test(text)) {
      if (lead(text) !== undefined) found[field] = lead(text);
    } else if (/^[a-z_]+$/.test(text)) {
      found[field] = text;
    }
  }
  return found;
}

/** An age from a date of birth in the largest sensible unit (years from 2 years, months from
 *  4 months, else weeks), with the exact age in weeks for the API. */
export function ageFromBirthDate(birthDate, now = Date.now()) {
  const [y, m, d] = birthDate.split('-').map(Number);
  const born = Date.UTC(y, m - 1, d);
  if (!Number.isFinite(born) || born > now) return null;
  const weeks = Math.floor((now - born) / (7 * 86400000));
  const today = new Date(now);
  let months = (today.getUTCFullYear() - y) * 12 + (today.getUTCMonth() - (m - 1));
  if (today.getUTCDate() < d) months -= 1;
  if (months >= 24) return { value: Math.floor(months / 12), unit: 'years', weeks };
  if (months >= 4) return { value: months, unit: 'months', weeks };
  return { value: weeks, unit: 'weeks', weeks };
}

function numberInput(name, attrs = {}) {
  return h('input', { type: 'number', step: 'any', inputmode: 'decimal', name, ...attrs });
}

export function render(container, { session, query }) {
  let alive = true;
  let patient = null; // {id, name, species, sex, birthDate, alerts, ownerName, medicalRecordNumber}
  let mode = 'existing';
  let evaluation = null; // AbortController of the evaluation in flight
  let lastCase = '';
  let typesCache = null;
  let exactAgeWeeks = null; // from the chosen patient's date of birth, until the age is edited
  let reassessing = null; // the patient re-assessed from the ER board (#/intake?patient=…&reassess=1)

  // MARK: - Patient: search as you type, or register patient and owner

  const listboxId = uid('patients');
  const search = h('input', {
    type: 'text', name: 'patient-search', role: 'combobox', 'data-field': 'patientId', autocomplete: 'off', 'aria-autocomplete': 'list',
    'aria-expanded': 'false', 'aria-controls': listboxId, placeholder: 'Name, owner, phone, record number or microchip',
  });
  const listbox = h('ul', { id: listboxId, role: 'listbox', class: 'combo-list glass', hidden: true, 'aria-label': 'Matching patients' });
  const chosen = h('div', { class: 'chosen-patient', hidden: true });
  const reassessNote = h('div', { class: 'notice notice-warning reassess-note', role: 'status', hidden: true });
  const newToggle = h('button', { type: 'button', class: 'button', 'aria-expanded': 'false' }, 'New patient and owner');

  const np = {
    name: h('input', { type: 'text', autocomplete: 'off' }),
    breed: h('input', { type: 'text', autocomplete: 'off' }),
    birthDate: h('input', { type: 'date' }),
    first: h('input', { type: 'text', autocomplete: 'off' }),
    last: h('input', { type: 'text', autocomplete: 'off' }),
    phone: h('input', { type: 'text', inputmode: 'tel', autocomplete: 'off' }),
    email: h('input', { type: 'text', inputmode: 'email', autocomplete: 'off', spellcheck: 'false' }),
  };
  const newPatientBox = h('div', { class: 'new-patient', hidden: true },
    h('div', { class: 'grid-fields' },
      field('Patient name', np.name, { fieldName: 'newPatient.patient.name' }),
      field('Breed', np.breed, { fieldName: 'newPatient.patient.breed' }),
      field('Date of birth', np.birthDate, { fieldName: 'newPatient.patient.birthDate' })),
    h('div', { class: 'grid-fields' },
      field('Owner first name', np.first, { fieldName: 'newPatient.owner.firstName' }),
      field('Owner last name', np.last, { fieldName: 'newPatient.owner.lastName' }),
      field('Owner phone', np.phone, { fieldName: 'newPatient.owner.phones' }),
      field('Owner email', np.email, { fieldName: 'newPatient.owner.email' })));

  // MARK: - The case

  // The words a case accepts (species, sexes, grades): the catalogue's, in its order.
  const grades = catalogue.grades().map((g) => [g, words(g)]);
  const c = {
    species: select(catalogue.species().map((s) => [s, words(s)]), { blank: 'Choose…', required: true }),
    // The patient record's own words (male_intact … unknown): the case takes them unchanged.
    sex: select(catalogue.sexes().map((s) => [s, words(s)]), { blank: 'Not recorded' }),
    ageValue: numberInput('age', { min: 0 }),
    ageUnit: select([['years', 'years'], ['months', 'months'], ['weeks', 'weeks']], { 'aria-label': 'Age unit' }),
    onsetValue: numberInput('onset', { min: 0 }),
    onsetUnit: select([['hours', 'hours ago'], ['days', 'days ago']], { 'aria-label': 'Onset unit' }),
    complaint: h('textarea', { rows: 2, maxlength: 500 }),
    temperature: numberInput('temperature'),
    temperatureUnit: select([['C', '°C'], ['F', '°F']], { 'aria-label': 'Temperature unit' }),
    heartRate: numberInput('heartRate', { min: 0 }),
    respiratoryRate: numberInput('respiratoryRate', { min: 0 }),
    crt: numberInput('crt', { min: 0 }),
    crtAbsent: h('input', { type: 'checkbox' }),
    membranes: select(MEMBRANES.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    pulse: select(PULSES.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    mentation: select(MENTATIONS.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    extremities: select(EXTREMITIES.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    systolicBP: numberInput('systolicBP', { min: 0 }),
    spo2: numberInput('spo2', { min: 0, max: 100 }),
    glucose: numberInput('glucose', { min: 0 }),
    glucoseUnit: select([['mmol/L', 'mmol/L'], ['mg/dL', 'mg/dL']], { 'aria-label': 'Glucose unit' }),
    ketosis: h('input', { type: 'checkbox' }),
    dehydration: numberInput('dehydration', { min: 0 }),
    distress: select(grades, { blank: 'Not assessed' }),
    hemorrhage: select(['none', 'controlled', 'uncontrollable_minor', 'uncontrollable_major', 'exsanguinating'].map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    seizures: numberInput('seizures', { min: 0, step: 1, inputmode: 'numeric' }),
    seizingNow: h('input', { type: 'checkbox' }),
    pain: select(grades, { blank: 'Not assessed' }),
    vomiting: select(['none', 'occasional', 'persistent'].map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    lastMeal: numberInput('lastMeal', { min: 0 }),
  };
  const findingBoxes = [];

  const checkbox = (label, input, fieldName) => {
    input.id = uid('c');
    input.dataset.field = fieldName;
    return h('div', { class: 'field check' }, input, h('label', { for: input.id }, label));
  };

  const letterSection = (letter, title, controls) => h('fieldset', { class: 'abcde-group' },
    h('legend', {}, letter ? h('span', { class: 'abcde-letter', 'aria-hidden': 'true' }, letter) : null, letter ? `${letter} — ${title}` : title),
    controls);

  const findingList = (section) => h('div', { class: 'finding-list', role: 'group', 'aria-label': `${section.title} findings` },
    section.items.map(({ id, label }) => {
      const input = h('input', { type: 'checkbox', value: id });
      findingBoxes.push(input);
      return checkbox(label, input, 'findings');
    }));

  const findingsFor = (letter) => {
    const section = catalogue.findings().find((s) => s.letter === letter);
    return section ? findingList(section) : null;
  };

  const otherFindings = () => catalogue.findings().filter((s) => !SURVEY_LETTERS.includes(s.letter))
    .map((s) => letterSection(s.letter || '', s.title, findingList(s)));

  const vitals = h('fieldset', { class: 'panel glass' },
    h('legend', {}, 'Vital signs'),
    h('div', { class: 'grid-fields' },
      field('Temperature', c.temperature, { fieldName: 'vitals.temperature', unit: withUnitSelect(c.temperatureUnit, 'vitals.temperature.unit') }),
      field('Heart rate', c.heartRate, { fieldName: 'vitals.heartRate', unit: '/min' }),
      field('Respiratory rate', c.respiratoryRate, { fieldName: 'vitals.respiratoryRate', unit: '/min' }),
      field('Capillary refill', c.crt, { fieldName: 'vitals.capillaryRefillSeconds', unit: 's' }),
      checkbox('Capillary refill absent', c.crtAbsent, 'vitals.capillaryRefillAbsent'),
      field('Mucous membranes', c.membranes, { fieldName: 'vitals.mucousMembranes' }),
      field('Pulse quality', c.pulse, { fieldName: 'vitals.pulseQuality' }),
      field('Extremities', c.extremities, { fieldName: 'vitals.extremities' }),
      field('Systolic blood pressure', c.systolicBP, { fieldName: 'vitals.systolicBP', unit: 'mmHg' }),
      field('SpO₂', c.spo2, { fieldName: 'vitals.spo2', unit: '%' }),
      field('Blood glucose', c.glucose, { fieldName: 'vitals.glucose', unit: withUnitSelect(c.glucoseUnit, 'vitals.glucose.unit') }),
      checkbox('Ketosis', c.ketosis, 'vitals.ketosis'),
      field('Dehydration', c.dehydration, { fieldName: 'vitals.dehydrationPercent', unit: '%' })));

  const survey = h('fieldset', { class: 'panel glass' },
    h('legend', {}, 'ABCDE survey and findings'),
    letterSection('A', 'Airway', findingsFor('A')),
    letterSection('B', 'Breathing', [h('div', { class: 'grid-fields' }, field('Respiratory distress', c.distress, { fieldName: 'observations.respiratoryDistress' })), findingsFor('B')]),
    letterSection('C', 'Circulation', [h('div', { class: 'grid-fields' }, field('Haemorrhage', c.hemorrhage, { fieldName: 'observations.hemorrhage' })), findingsFor('C')]),
    letterSection('D', 'Disability', [h('div', { class: 'grid-fields' },
      field('Mentation', c.mentation, { fieldName: 'vitals.mentation' }),
      field('Seizures in the last 24 h', c.seizures, { fieldName: 'observations.seizuresLast24h' }),
      checkbox('Seizing now', c.seizingNow, 'observations.seizingNow')), findingsFor('D')]),
    letterSection('E', 'Exposure', [h('div', { class: 'grid-fields' },
      field('Pain', c.pain, { fieldName: 'observations.pain' }),
      field('Vomiting', c.vomiting, { fieldName: 'observations.vomiting' }),
      field('Last meal', c.lastMeal, { fieldName: 'observations.hoursSinceLastMeal', unit: 'h ago' })), findingsFor('E')]),
    otherFindings());

  const formErrors = h('div', { class: 'form-errors', role: 'alert', hidden: true });
  // The live level in a compact strip on the sticky action bar, for the narrow layouts where
  // the result panel is far below the vitals being entered (the panel's own level is the
  // one announced, so this copy is hidden from screen readers).
  const stickyLevel = h('div', { class: 'sticky-level', 'aria-hidden': 'true' }, h('span', { class: 'muted' }, 'No level yet'));
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, 'Triage and find clinicians');
  const stickyBar = h('div', { class: 'sticky-actions' }, stickyLevel, submit);
  // Without the server: the VTL reference and a level given by hand.
  const manual = manualTriage();
  const form = h('form', { class: 'intake-form', novalidate: true, 'aria-label': 'Intake' },
    h('fieldset', { class: 'panel glass patient-panel' },
      h('legend', {}, 'Patient'),
      h('div', { class: 'field combo' }, h('label', { for: (search.id = uid('search')) }, 'Find the patient'), search, listbox),
      chosen,
      reassessNote,
      h('div', { class: 'row' }, newToggle),
      newPatientBox),
    h('fieldset', { class: 'panel glass' },
      h('legend', {}, 'Presenting problem'),
      h('div', { class: 'grid-fields' },
        field('Species', c.species, { fieldName: 'species' }),
        field('Sex', c.sex, { fieldName: 'sex' }),
        field('Age', c.ageValue, { fieldName: 'ageWeeks', unit: c.ageUnit }),
        field('Problem began', c.onsetValue, { fieldName: 'onsetHoursAgo', unit: c.onsetUnit }),
        field('Presenting complaint', c.complaint, { fieldName: 'complaint', wide: true }))),
    vitals,
    survey,
    manual.element,
    formErrors,
    stickyBar);

  // MARK: - The result panel

  const levelBox = h('div', { class: 'result-level', role: 'status', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Choose the species and enter what you find; the level appears as the inputs decide it.'));
  const detailBox = h('div', { class: 'result-detail' });
  const offersBox = h('div', { class: 'offers', 'aria-live': 'polite' });
  const resultTitle = h('h2', { id: 'triage-result-title', tabindex: '-1' }, 'Triage');
  const panel = h('aside', { class: 'result-panel glass', 'aria-labelledby': 'triage-result-title' }, resultTitle, levelBox, detailBox, offersBox);

  replace(container, h('section', { class: 'screen intake', 'aria-labelledby': 'intake-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'intake-title' }, 'Intake')),
    pendingPanel((e) => e.path === '/triage/assessments' || (e.method === 'POST' && ['/owners', '/patients'].includes(e.path)), 'Triage waiting to send'),
    catalogue.loaded() ? null : notice('The triage catalogue could not be loaded, so no species, findings or grades can be chosen '
      + 'and no case can be triaged here. Try again from the message at the top.', 'warning'),
    h('div', { class: 'intake-layout' }, form, panel)));

  // MARK: - Reading the form

  function num(input) {
    if (input.value.trim() === '') return undefined;
    const value = Number(input.value);
    return Number.isFinite(value) ? value : undefined;
  }

  function localErrors() {
    const errors = [];
    for (const input of form.querySelectorAll('input[type=number]')) {
      if (input.validity.badInput) errors.push({ field: input.dataset.field, message: 'must be a number' });
    }
    return errors;
  }

  function buildCase() {
    const triageCase = { species: c.species.value };
    const age = num(c.ageValue);
    if (exactAgeWeeks !== null) triageCase.ageWeeks = exactAgeWeeks;
    else if (age !== undefined) triageCase.ageWeeks = Math.round(age * { weeks: 1, months: 4.345, years: 52.18 }[c.ageUnit.value]);
    const onset = num(c.onsetValue);
    if (onset !== undefined) triageCase.onsetHoursAgo = onset * (c.onsetUnit.value === 'days' ? 24 : 1);
    if (c.sex.value) triageCase.sex = c.sex.value;
    const vitals = {};
    const t = num(c.temperature);
    if (t !== undefined) vitals.temperature = { value: t, unit: c.temperatureUnit.value };
    const set = (key, value) => { if (value !== undefined && value !== '') vitals[key] = value; };
    set('heartRate', num(c.heartRate));
    set('respiratoryRate', num(c.respiratoryRate));
    set('capillaryRefillSeconds', num(c.crt));
    if (c.crtAbsent.checked) vitals.capillaryRefillAbsent = true;
    set('mucousMembranes', c.membranes.value);
    set('pulseQuality', c.pulse.value);
    set('mentation', c.mentation.value);
    set('extremities', c.extremities.value);
    set('systolicBP', num(c.systolicBP));
    set('spo2', num(c.spo2));
    const g = num(c.glucose);
    if (g !== undefined) vitals.glucose = { value: g, unit: c.glucoseUnit.value };
    if (c.ketosis.checked) vitals.ketosis = true;
    set('dehydrationPercent', num(c.dehydration));
    if (Object.keys(vitals).length) triageCase.vitals = vitals;
    const observations = {};
    const obs = (key, value) => { if (value !== undefined && value !== '') observations[key] = value; };
    obs('respiratoryDistress', c.distress.value);
    obs('hemorrhage', c.hemorrhage.value);
    obs('seizuresLast24h', num(c.seizures));
    if (c.seizingNow.checked) observations.seizingNow = true;
    obs('pain', c.pain.value);
    obs('vomiting', c.vomiting.value);
    obs('hoursSinceLastMeal', num(c.lastMeal));
    if (Object.keys(observations).length) triageCase.observations = observations;
    const findings = findingBoxes.filter((b) => b.checked).map((b) => b.value);
    if (findings.length) triageCase.findings = findings;
    if (c.complaint.value.trim()) triageCase.complaint = c.complaint.value.trim();
    return triageCase;
  }

  // MARK: - Evaluation as you type

  const evaluate = debounce(async () => {
    if (!alive) return;
    if (!c.species.value) return;
    const local = localErrors();
    if (local.length) { showErrors(form, local); showInvalid(); return; }
    const triageCase = buildCase();
    // An existing patient's record completes the case (chronic problems count in the
    // complexity), so the preview agrees with what sending it stores.
    const patientId = mode === 'existing' && patient ? patient.id : undefined;
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
      showResult(data);
    } catch (error) {
      if (error.name === 'AbortError' || !alive) return;
      if (error.status === 422 || error.status === 400) {
        showErrors(form, error.errors, { summary: formErrors });
        showInvalid();
      } else if (error.status === 0) {
        lastCase = null; // graded again once the server answers
        manual.show();
        replace(levelBox, h('p', { class: 'notice notice-warning' }, 'Offline: the engine cannot grade this case. Give the level by hand from the VTL reference in the form.'));
      } else {
        replace(levelBox, notice(error.message));
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

  function showInvalid() {
    replace(levelBox, h('p', { class: 'notice notice-warning' }, 'Some values cannot be right — see the highlighted fields. The level appears once they are corrected.'));
    replace(detailBox);
    replace(stickyLevel, h('span', { class: 'muted' }, 'Check the highlighted fields'));
  }

  function showResult(result) {
    const wait = result.maxWaitMinutes ?? maxWait(result.level);
    replace(levelBox,
      levelBadge(result.level, { large: true }),
      wait === null ? null : h('p', { class: 'wait' }, wait === 0 ? 'To be seen immediately.' : `To be seen within ${wait} minutes.`),
      result.validatedForSpecies === false ? h('p', { class: 'notice notice-warning' }, `The VTL is validated for dogs and cats; for a ${result.species || 'patient of this species'} vital signs outside its reference range raise the complexity, not the level.`) : null);
    replace(stickyLevel, h('span', { class: 'sticky-level-label' }, 'Level'), levelBadge(result.level));
    const fired = result.fired || [];
    replace(detailBox,
      abcdeStrip(result.abcde || {}),
      h('h3', {}, fired.length ? `Why: ${fired.length} discriminator${fired.length === 1 ? '' : 's'} fired` : 'Why'),
      fired.length ? h('ul', { class: 'fired-list' }, fired.map((d) => h('li', { class: ['fired', `level-edge-${d.colour}`] },
        h('div', { class: 'fired-head' }, levelBadge(d.level), h('strong', {}, d.definition || words(d.id))),
        h('p', { class: 'fired-meta' }, h('code', {}, d.id), d.abcde ? ` · ${d.abcde}` : '', d.subcategory ? ` · ${d.subcategory}` : ''),
        h('ul', { class: 'evidence' }, (d.evidence || []).map((e) => h('li', {}, `${FIELD_NAMES[e.field] || words(e.field.split('.').pop())}: ${e.value}`))))))
        : h('p', { class: 'muted' }, result.fallThrough ? `${result.fallThrough[0].toUpperCase()}${result.fallThrough.slice(1)}.` : 'No discriminator fired.'),
      (result.abnormalVitals || []).length ? [h('h3', {}, 'Abnormal vital signs'), h('ul', { class: 'plain' }, result.abnormalVitals.map((v) =>
        h('li', {}, `${FIELD_NAMES[v.field] || v.field}: ${v.value} — ${v.interpretation} (reference ${v.reference})`)))] : null,
      (result.specialties || []).length ? [h('h3', {}, 'Suggested specialties'), h('ol', { class: 'plain' }, result.specialties.slice(0, 3).map((s) =>
        h('li', {}, h('strong', {}, s.displayName), h('span', { class: 'muted' }, ` — ${(s.reasons || []).join('; ')}`))))] : null,
      result.complexity ? h('p', { class: 'muted' }, `Complexity ${Number(result.complexity.score).toFixed(2)} of 1`) : null);
  }

  function abcdeStrip(abcde) {
    const letters = ['<C>', 'A', 'B', 'C', 'D', 'E'].filter((l) => abcde[l]);
    if (!letters.length) return null;
    return h('ul', { class: 'abcde-strip', 'aria-label': 'ABCDE survey' }, letters.map((l) =>
      h('li', { class: `abcde-${abcde[l]}` }, h('span', { class: 'abcde-key' }, l), h('span', {}, abcde[l]))));
  }

  // MARK: - Patient search

  let results = [];
  let active = -1;
  const runSearch = debounce(async () => {
    const text = search.value.trim();
    if (text.length < 1) { closeList(); return; }
    try {
      const page = await api.get('/patients', { q: text, limit: 8, status: 'active' });
      if (!alive || search.value.trim() !== text) return;
      results = page.items;
      active = -1;
      replace(listbox, results.length ? results.map((item, i) => h('li', {
        role: 'option', id: `${listboxId}-${i}`, 'aria-selected': 'false', class: 'combo-option',
        on: { click: () => choose(item), mousedown: (e) => e.preventDefault() },
      }, h('strong', {}, item.patient.name), ` · ${words(item.patient.species)}${item.patient.breed ? `, ${item.patient.breed}` : ''} · ${item.ownerName} · ${item.patient.medicalRecordNumber}`))
        : h('li', { class: 'combo-empty', role: 'option', 'aria-disabled': 'true', 'aria-selected': 'false' }, 'No patient matches. Register a new one below.'));
      listbox.hidden = false;
      search.setAttribute('aria-expanded', 'true');
      announce(`${results.length} patient${results.length === 1 ? '' : 's'} found`);
    } catch (error) {
      replace(listbox, h('li', { class: 'combo-empty' }, error.message));
      listbox.hidden = false;
    }
  }, 200);

  function closeList() {
    listbox.hidden = true;
    search.setAttribute('aria-expanded', 'false');
    search.removeAttribute('aria-activedescendant');
  }

  function highlight(index) {
    const options = [...listbox.querySelectorAll('.combo-option')];
    if (!options.length) return;
    active = (index + options.length) % options.length;
    options.forEach((o, i) => o.setAttribute('aria-selected', i === active ? 'true' : 'false'));
    search.setAttribute('aria-activedescendant', options[active].id);
    options[active].scrollIntoView({ block: 'nearest' });
  }

  search.addEventListener('input', runSearch);
  search.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') { event.preventDefault(); if (listbox.hidden) runSearch(); else highlight(active + 1); }
    else if (event.key === 'ArrowUp') { event.preventDefault(); highlight(active - 1); }
    else if (event.key === 'Enter' && !listbox.hidden && active >= 0) { event.preventDefault(); choose(results[active]); }
    else if (event.key === 'Escape') closeList();
  });
  search.addEventListener('blur', () => setTimeout(closeList, 150));

  function choose(item) {
    const p = item.patient;
    patient = { id: p.id, name: p.name, species: p.species, sex: p.sex, birthDate: p.birthDate, alerts: p.alerts || [], ownerName: item.ownerName,
      medicalRecordNumber: p.medicalRecordNumber, age: p.age, breed: p.breed };
    setMode('existing');
    closeList();
    search.value = '';
    c.species.value = p.species;
    c.sex.value = p.sex || '';
    exactAgeWeeks = null;
    const age = p.birthDate ? ageFromBirthDate(p.birthDate) : null;
    if (age) {
      c.ageValue.value = String(age.value);
      c.ageUnit.value = age.unit;
      exactAgeWeeks = age.weeks;
    }
    showChosen();
    lastCase = '';
    evaluate();
    c.complaint.focus();
  }

  function showChosen() {
    submit.textContent = patient && patient.id === reassessing ? 'Re-assess and update the ER board' : 'Triage and find clinicians';
    chosen.hidden = !patient;
    if (!patient) { replace(chosen); reassessNote.hidden = true; return; }
    replace(chosen,
      h('div', {}, h('strong', {}, patient.name), ` · ${words(patient.species)}${patient.breed ? `, ${patient.breed}` : ''}${patient.age ? ` · ${patient.age}` : ''}`,
        h('br'), h('span', { class: 'muted' }, `${patient.ownerName || ''} · ${patient.medicalRecordNumber || ''}`)),
      patient.alerts?.length ? h('ul', { class: 'alert-chips', 'aria-label': 'Alerts' }, patient.alerts.map((a) => h('li', { class: 'chip chip-alert' }, a))) : null,
      h('button', { type: 'button', class: 'button quiet', on: { click: () => { patient = null; showChosen(); search.focus(); } } }, 'Change patient'));
  }

  function setMode(next) {
    mode = next;
    newPatientBox.hidden = mode !== 'new';
    newToggle.setAttribute('aria-expanded', String(mode === 'new'));
    newToggle.textContent = mode === 'new' ? 'Find an existing patient instead' : 'New patient and owner';
    if (mode === 'new') { patient = null; showChosen(); }
  }
  newToggle.addEventListener('click', () => { setMode(mode === 'new' ? 'existing' : 'new'); if (mode === 'new') np.name.focus(); else search.focus(); });
  // An age typed by hand is sent as typed; the exact one from the date of birth until then.
  c.ageValue.addEventListener('input', () => { exactAgeWeeks = null; });
  c.ageUnit.addEventListener('change', () => { exactAgeWeeks = null; });

  form.addEventListener('input', (event) => { if (event.target !== search) evaluate(); });
  form.addEventListener('change', (event) => { if (event.target !== search) evaluate(); });

  // MARK: - Sending the intake

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const errors = localErrors();
    if (!c.species.value) errors.push({ field: 'species', message: 'Choose the species.' });
    if (mode === 'existing' && !patient) errors.push({ field: 'patientId', message: 'Find the patient, or register a new patient and owner.' });
    if (mode === 'new') {
      if (!np.name.value.trim()) errors.push({ field: 'newPatient.patient.name', message: 'Enter the patient’s name.' });
      if (!np.first.value.trim()) errors.push({ field: 'newPatient.owner.firstName', message: 'Enter the owner’s first name.' });
      if (!np.last.value.trim()) errors.push({ field: 'newPatient.owner.lastName', message: 'Enter the owner’s last name.' });
    }
    if (errors.length) {
      showErrors(form, errors, { summary: formErrors });
      form.querySelector('[aria-invalid="true"]')?.focus();
      return;
    }
    const body = { case: buildCase() };
    if (mode === 'existing') body.patientId = patient.id;
    else {
      const owner = { firstName: np.first.value.trim(), lastName: np.last.value.trim() };
      if (np.phone.value.trim()) owner.phones = [{ label: 'mobile', number: np.phone.value.trim() }];
      if (np.email.value.trim()) owner.email = np.email.value.trim();
      const newPatient = { name: np.name.value.trim(), species: c.species.value };
      if (np.breed.value.trim()) newPatient.breed = np.breed.value.trim();
      if (c.sex.value) newPatient.sex = c.sex.value;
      if (np.birthDate.value) newPatient.birthDate = np.birthDate.value;
      body.newPatient = { owner, patient: newPatient };
    }
    if (manual.active()) { await sendByHand(body); return; }
    await busy(submit, async () => {
      try {
        // A re-assessment of a patient on the ER board is stored as their new assessment,
        // which the board follows whatever the level (an intake only admits red and orange).
        if (mode === 'existing' && patient?.id === reassessing) {
          const board = await api.get('/triage/queue');
          if (!alive) return;
          if (board.items.some((item) => item.patientId === patient.id)) {
            const assessment = await api.post('/triage/assessments', { patientId: patient.id, case: body.case });
            if (!alive) return;
            showResult(assessment.result);
            resultTitle.focus();
            showRetriaged(assessment);
            return;
          }
        }
        const result = await api.post('/intake', body);
        if (!alive) return;
        // The patient exists now: a second send triages them again rather than registering a twin.
        if (mode === 'new') {
          patient = { id: result.patientId, name: body.newPatient.patient.name, species: body.newPatient.patient.species, sex: body.newPatient.patient.sex,
            alerts: [], ownerName: `${body.newPatient.owner.firstName} ${body.newPatient.owner.lastName}` };
          setMode('existing');
          showChosen();
        }
        showResult(result.triage);
        // The answer is the result: focus its heading (the button is busy, and would leave
        // the focus on <body>).
        resultTitle.focus();
        await showOffers(result, body.case);
      } catch (error) {
        if (error.errors.length) {
          showErrors(form, error.errors, { prefix: 'case.', summary: formErrors });
          form.querySelector('[aria-invalid="true"]')?.focus();
        } else {
          formErrors.hidden = false;
          replace(formErrors, h('p', {}, error.message));
        }
      }
    }, 'Triaging…');
  });

  /** Offline: the case with the level given by hand, queued as the assessment it will be. A
   *  new arrival's owner and patient are queued before it; each takes the id of the one before
   *  when it is sent. */
  async function sendByHand(body) {
    const level = manual.level();
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
        let subject = patient?.name;
        let patientStep = { made: patient };
        if (mode === 'new') {
          subject = body.newPatient.patient.name;
          const ownerStep = await madeOrQueued('/owners', body.newPatient.owner);
          patientStep = await madeOrQueued('/patients', { ...body.newPatient.patient, ownerId: ownerStep.made?.id || unknown }, after(ownerStep, 'ownerId'));
        }
        const step = await madeOrQueued('/triage/assessments', { patientId: patientStep.made?.id || unknown, case: body.case },
          { manualLevel: level, subject, ...after(patientStep, 'patientId') });
        if (step.made) {
          // The server answered after all: the engine's level beside the hand-given one.
          triageSent({ manualLevel: level, subject, id: step.made.id }, step.made);
          showResult(step.made.result);
          resultTitle.focus();
          return;
        }
        replace(offersBox, h('div', { class: 'notice notice-warning queued-triage', role: 'status' },
          h('strong', {}, `${subject}: given ${levelLabel(level).toLowerCase()} by hand — waiting to send.`),
          ' The engine grades the case when VetNet is back; you are alerted if its level is more urgent.'),
          h('div', { class: 'row wrap next-arrival' }, h('button', { type: 'button', class: 'button', on: { click: () => go('#/intake') } }, 'Next arrival')));
        resultTitle.focus();
      } catch (error) {
        formErrors.hidden = false;
        replace(formErrors, h('p', {}, error.message));
      }
    }, 'Saving…');
  }

  /** The outcome of a re-assessment: the patient's new level on the ER board. */
  function showRetriaged(assessment) {
    const level = assessment.currentLevel ?? assessment.level;
    const target = assessment.result?.targetTime;
    replace(offersBox,
      h('div', { class: ['notice', catalogue.isEmergency(level) ? 'notice-emergency' : 'notice-success', 'retriaged', `level-edge-${levelColour(level)}`], role: 'status' },
        h('strong', {}, `${patient.name} re-triaged on the ER board`), ` — ${levelLabel(level).toLowerCase()}`,
        target ? `, to be seen by ${time(target)}.` : '.', ' ', h('a', { href: '#/er' }, 'Open the ER board')),
      h('div', { class: 'row wrap next-arrival' },
        h('button', { type: 'button', class: 'button', on: { click: () => go('#/intake') } }, 'Next arrival')));
    announce(`${patient.name} re-triaged on the ER board as ${levelLabel(level)}`, { assertive: catalogue.isEmergency(level) });
  }

  async function appointmentTypes() {
    if (!typesCache) typesCache = (await api.get('/appointment-types')).items;
    return typesCache;
  }

  async function showOffers(result, triageCase) {
    const level = result.triage.level;
    const wait = Math.max(result.triage.maxWaitMinutes ?? maxWait(level) ?? 0, 5);
    const parts = [];
    if (result.emergency) {
      parts.push(h('div', { class: ['notice', 'notice-emergency', `level-edge-${levelColour(level)}`], role: 'status' },
        h('strong', {}, `${patient.name} is on the ER board now`), ` — ${levelLabel(level).toLowerCase()}, to be seen by ${time(result.triage.targetTime)}.`,
        result.onDutyClinician ? h('span', {}, ` On duty: ${result.onDutyClinician.displayName}.`) : null,
        ' ', h('a', { href: '#/er' }, 'Open the ER board')));
      announce(`${patient.name} added to the ER board as ${levelLabel(level)}`, { assertive: true });
    }
    parts.push(h('div', { class: 'row wrap next-arrival' },
      h('button', { type: 'button', class: 'button', on: { click: () => go('#/intake') } }, 'Next arrival')));
    parts.push(cliniciansList(result.clinicians || []));
    const slotsBox = h('div', { class: 'slots' }, h('p', { class: 'muted' }, 'Finding free slots…'));
    parts.push(slotsBox);
    replace(offersBox, parts);

    let typeId = result.appointmentTypeId;
    let duration = result.durationMinutes;
    let slots = result.offeredSlots || [];
    let within = true;
    try {
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
    } catch (error) {
      replace(slotsBox, notice(error.message));
      return;
    }
    if (!alive) return;
    renderSlots(slotsBox, { slots, within, wait, typeId, duration, reason: triageCase.complaint });
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

  function renderSlots(box, { slots, within, wait, typeId, duration, reason, title }) {
    if (!slots.length) { replace(box, h('h3', {}, 'Free slots'), h('p', {}, 'No free slot in the coming week for this case.')); return; }
    replace(box,
      h('h3', {}, title || (within ? `Free slots within ${wait} minutes` : 'Free slots')),
      within ? null : h('p', { class: 'notice notice-warning' }, `No slot is free within the ${wait}-minute maximum wait; these are the nearest.`),
      h('ul', { class: 'slot-list' }, slots.map((slot) => h('li', {}, h('button', {
        type: 'button', class: 'button slot-button', dataset: { start: slot.start, clinician: slot.clinicianId },
        on: { click: (event) => book(event.currentTarget, { slot, typeId, duration, reason, box, wait }) },
      }, h('span', { class: 'slot-time' }, `${time(slot.start)}–${time(slot.end)}`), h('span', {}, ` ${date(slot.start)} · ${slot.clinicianName || 'Clinician'}`),
      h('span', { class: 'visually-hidden' }, ' — book'))))));
  }

  async function book(button, { slot, typeId, duration, reason, box, wait }) {
    await busy(button, async () => {
      try {
        const body = { patientId: patient.id, clinicianId: slot.clinicianId, appointmentTypeId: typeId, start: slot.start };
        if (duration) body.durationMinutes = duration;
        if (reason) body.reason = reason.slice(0, 500);
        const appointment = await api.post('/appointments', body, { idempotencyKey: api.newKey() });
        if (!alive) return;
        const day = slot.start.slice(0, 10);
        replace(box, h('div', { class: 'notice notice-success booked', role: 'status' },
          h('strong', {}, 'Booked: '), `${patient.name} with ${slot.clinicianName || 'the clinician'}, ${date(appointment.start)} ${time(appointment.start)}–${time(appointment.end)}.`,
          h('div', { class: 'row' },
            h('a', { class: 'button', href: `#/schedule?date=${day}` }, 'Open the schedule'),
            h('a', { class: 'button', href: `#/patients/${patient.id}` }, 'Open the record'),
            h('button', { type: 'button', class: 'button primary', on: { click: () => go('#/intake') } }, 'Next arrival'))));
        toast(`Booked ${patient.name} at ${time(appointment.start)}`, 'success');
        announce(`Booked ${patient.name} at ${time(appointment.start)} with ${slot.clinicianName || 'the clinician'}`);
      } catch (error) {
        if (error.status === 409 && Array.isArray(error.problem.alternatives)) {
          renderSlots(box, { slots: error.problem.alternatives, within: true, wait, typeId, duration, reason, title: 'Nearest free alternatives' });
          box.prepend(h('p', { class: 'notice notice-warning', role: 'alert' }, 'That slot was just taken. The nearest free alternatives:'));
        } else {
          box.prepend(notice(error.message));
        }
      }
    }, 'Booking…');
  }


  function withUnitSelect(selectEl, fieldName) { selectEl.dataset.field = fieldName; selectEl.id = uid('u'); return selectEl; }

  /** Fills the form with what the patient's last assessment recorded (a re-assessment from
   *  the ER board), and says so: what was filled, and that sending re-triages the patient. */
  function fillFromAssessment(assessment) {
    const found = recordedInputs(assessment.result, { assessedAt: assessment.assessedAt });
    const numbers = {
      'vitals.heartRate': c.heartRate, 'vitals.respiratoryRate': c.respiratoryRate, 'vitals.capillaryRefillSeconds': c.crt,
      'vitals.systolicBP': c.systolicBP, 'vitals.spo2': c.spo2, 'vitals.dehydrationPercent': c.dehydration,
      'observations.seizuresLast24h': c.seizures, 'observations.hoursSinceLastMeal': c.lastMeal,
    };
    const choices = {
      'vitals.mucousMembranes': c.membranes, 'vitals.pulseQuality': c.pulse, 'vitals.mentation': c.mentation, 'vitals.extremities': c.extremities,
      'observations.respiratoryDistress': c.distress, 'observations.hemorrhage': c.hemorrhage, 'observations.pain': c.pain, 'observations.vomiting': c.vomiting,
    };
    const flags = { 'vitals.capillaryRefillAbsent': c.crtAbsent, 'vitals.ketosis': c.ketosis, 'observations.seizingNow': c.seizingNow };
    const filled = [];
    for (const [name, value] of Object.entries(found)) {
      if (name === 'vitals.temperature') { c.temperature.value = value.value; c.temperatureUnit.value = value.unit; } else if (name === 'vitals.glucose') {
        c.glucose.value = value.value; c.glucoseUnit.value = value.unit;
      } else if (name === 'onsetHoursAgo') { c.onsetValue.value = value; c.onsetUnit.value = 'hours'; } else if (name === 'findings') {
        const boxes = findingBoxes.filter((b) => value.includes(b.value));
        boxes.forEach((b) => { b.checked = true; });
        if (!boxes.length) continue;
      } else if (numbers[name] && typeof value === 'string') numbers[name].value = value;
      else if (choices[name] && [...choices[name].options].some((o) => o.value === value)) choices[name].value = value;
      else if (flags[name] && value === true) flags[name].checked = true;
      else continue;
      filled.push(FIELD_NAMES[name] || words(name.split('.').pop()));
    }
    reassessNote.hidden = false;
    replace(reassessNote,
      h('strong', {}, `Re-assessment of ${patient?.name || 'the patient'}`),
      ` — last assessed ${date(assessment.assessedAt)} ${time(assessment.assessedAt)}, level in force `, levelBadge(assessment.currentLevel ?? assessment.level), '. ',
      filled.length ? `Filled in from what it recorded: ${filled.join(', ')} (the values it found normal are not kept). ` : 'It recorded nothing abnormal to fill in. ',
      'Check each value again; sending re-triages the patient in place on the ER board.');
    lastCase = '';
    evaluate();
  }

  // Opened from a record ("Triage this patient"): start with that patient; to re-assess a
  // patient on the ER board, also with what their last assessment recorded.
  if (query.patient) {
    const id = encodeURIComponent(query.patient);
    const reassess = query.reassess === '1';
    if (reassess) reassessing = query.patient;
    Promise.all([api.get(`/patients/${id}`), reassess ? api.get(`/patients/${id}/assessments`, { limit: 1 }).catch(() => null) : null])
      .then(([p, history]) => {
        if (!alive) return;
        choose({ patient: p, ownerName: '' });
        const last = history?.items?.[0];
        if (last) fillFromAssessment(last);
      }).catch(() => {});
  } else {
    search.focus();
  }

  // The sticky action bar's height, for the scroll padding that keeps a focused control clear of it.
  const root = document.documentElement;
  const measureBar = () => root.style.setProperty('--bottom-bar-height', `${Math.ceil(stickyBar.getBoundingClientRect().height)}px`);
  const barObserver = 'ResizeObserver' in window ? new ResizeObserver(measureBar) : null;
  barObserver?.observe(stickyBar);
  measureBar();

  return () => {
    alive = false; evaluate.cancel(); runSearch.cancel(); evaluation?.abort();
    barObserver?.disconnect();
    root.style.setProperty('--bottom-bar-height', '0px');
  };
}
