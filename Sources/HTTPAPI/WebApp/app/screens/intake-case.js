// The intake's case: its controls (species, sex, age, onset and complaint, the vital signs and
// the survey's observations, in the catalogue's words), the "Presenting problem" fieldset, and
// the case read from the controls as the triage API takes it. The vital signs and the survey
// are laid out by intake-survey.js.

import { h, field, select, words } from '../ui.js';
import * as catalogue from '../catalogue.js';
import { MEMBRANES, PULSES, MENTATIONS, EXTREMITIES } from './vitals.js';

/** The case's fields as the result and a re-assessment name them. */
export const FIELD_NAMES = {
  'vitals.temperature': 'Temperature', 'vitals.heartRate': 'Heart rate', 'vitals.respiratoryRate': 'Respiratory rate',
  'vitals.capillaryRefillSeconds': 'CRT', 'vitals.capillaryRefillAbsent': 'CRT absent', 'vitals.mucousMembranes': 'Mucous membranes',
  'vitals.pulseQuality': 'Pulse', 'vitals.mentation': 'Mentation', 'vitals.extremities': 'Extremities', 'vitals.systolicBP': 'Systolic BP',
  'vitals.spo2': 'SpO₂', 'vitals.glucose': 'Glucose', 'vitals.ketosis': 'Ketosis', 'vitals.dehydrationPercent': 'Dehydration',
  findings: 'Findings', species: 'Species', ageWeeks: 'Age', onsetHoursAgo: 'Onset',
};

function numberInput(name, attrs = {}) {
  return h('input', { type: 'number', step: 'any', inputmode: 'decimal', name, ...attrs });
}

/** The case's controls, by name; `findings` collects the findings' checkboxes as the survey
 *  lays them out. */
export function caseControls() {
  // The words a case accepts (species, sexes, grades): the catalogue's, in its order.
  const grades = catalogue.grades().map((g) => [g, words(g)]);
  return {
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
    findings: [],
  };
}

/** The "Presenting problem" fieldset: species, sex, age, onset and complaint. */
export function presentingProblem(c) {
  return h('fieldset', { class: 'panel glass' },
    h('legend', {}, 'Presenting problem'),
    h('div', { class: 'grid-fields' },
      field('Species', c.species, { fieldName: 'species' }),
      field('Sex', c.sex, { fieldName: 'sex' }),
      field('Age', c.ageValue, { fieldName: 'ageWeeks', unit: c.ageUnit }),
      field('Problem began', c.onsetValue, { fieldName: 'onsetHoursAgo', unit: c.onsetUnit }),
      field('Presenting complaint', c.complaint, { fieldName: 'complaint', wide: true })));
}

function num(input) {
  if (input.value.trim() === '') return undefined;
  const value = Number(input.value);
  return Number.isFinite(value) ? value : undefined;
}

/** The number fields of `form` holding what is not a number, as field errors. */
export function numberErrors(form) {
  const errors = [];
  for (const input of form.querySelectorAll('input[type=number]')) {
    if (input.validity.badInput) errors.push({ field: input.dataset.field, message: 'must be a number' });
  }
  return errors;
}

/** The case as the triage API takes it. `exactAgeWeeks`: the age from the patient's date of
 *  birth, sent instead of the age field's (null once the age is edited). */
export function readCase(c, exactAgeWeeks) {
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
  const findings = c.findings.filter((b) => b.checked).map((b) => b.value);
  if (findings.length) triageCase.findings = findings;
  if (c.complaint.value.trim()) triageCase.complaint = c.complaint.value.trim();
  return triageCase;
}
