// The vital signs a clinician measures, in the triage case's keys, words and units: the intake
// sends them in a triage case, the consultation in a visit record, and the API reads both
// with the triage context's reader and limits (an impossible reading is refused and named by
// its field, such as vitals.temperature.value, which the field of that name shows).

import { h, field, select, uid, words } from '../ui.js';

/** The words each observation accepts, in the order offered. */
export const MEMBRANES = ['pink', 'pale_pink', 'pale', 'white', 'grey', 'cyanotic', 'brick_red', 'icteric'];
export const PULSES = ['normal', 'weak', 'absent', 'bounding'];
export const MENTATIONS = ['alert', 'depressed', 'obtunded', 'stuporous', 'unresponsive'];
export const EXTREMITIES = ['warm', 'cool'];

/** What each key of a case's `vitals` is called, and its unit when it has a fixed one. */
export const VITAL_NAMES = {
  temperature: ['Temperature'], heartRate: ['Heart rate', '/min'], respiratoryRate: ['Respiratory rate', '/min'],
  capillaryRefillSeconds: ['Capillary refill', 's'], capillaryRefillAbsent: ['Capillary refill absent'], mucousMembranes: ['Mucous membranes'],
  pulseQuality: ['Pulse quality'], mentation: ['Mentation'], extremities: ['Extremities'], systolicBP: ['Systolic blood pressure', 'mmHg'],
  spo2: ['SpO₂', '%'], glucose: ['Blood glucose'], ketosis: ['Ketosis'], dehydrationPercent: ['Dehydration', '%'],
};

function numberInput(attrs = {}) {
  return h('input', { type: 'number', step: 'any', inputmode: 'decimal', ...attrs });
}

function unitSelect(options, fieldName, label) {
  const el = select(options, { 'aria-label': label });
  el.dataset.field = fieldName;
  el.id = uid('u');
  return el;
}

/** The vital signs as fields (`element`, a grid), with `read()` → the case's `vitals` object
 *  (only what was entered), `values()` / `fill(values)` for keeping what was typed (a
 *  draft), and `badNumbers()` → [{field, message}] for number fields holding no number. */
export function vitalSigns() {
  const c = {
    temperature: numberInput(),
    temperatureUnit: unitSelect([['C', '°C'], ['F', '°F']], 'vitals.temperature.unit', 'Temperature unit'),
    heartRate: numberInput({ min: 0 }),
    respiratoryRate: numberInput({ min: 0 }),
    capillaryRefillSeconds: numberInput({ min: 0 }),
    mucousMembranes: select(MEMBRANES.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    pulseQuality: select(PULSES.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    mentation: select(MENTATIONS.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    extremities: select(EXTREMITIES.map((v) => [v, words(v)]), { blank: 'Not assessed' }),
    systolicBP: numberInput({ min: 0 }),
    spo2: numberInput({ min: 0, max: 100 }),
    glucose: numberInput({ min: 0 }),
    glucoseUnit: unitSelect([['mmol/L', 'mmol/L'], ['mg/dL', 'mg/dL']], 'vitals.glucose.unit', 'Glucose unit'),
    dehydrationPercent: numberInput({ min: 0 }),
  };
  const element = h('div', { class: 'grid-fields' },
    field('Temperature', c.temperature, { fieldName: 'vitals.temperature', unit: c.temperatureUnit }),
    field('Heart rate', c.heartRate, { fieldName: 'vitals.heartRate', unit: '/min' }),
    field('Respiratory rate', c.respiratoryRate, { fieldName: 'vitals.respiratoryRate', unit: '/min' }),
    field('Capillary refill', c.capillaryRefillSeconds, { fieldName: 'vitals.capillaryRefillSeconds', unit: 's' }),
    field('Mucous membranes', c.mucousMembranes, { fieldName: 'vitals.mucousMembranes' }),
    field('Pulse quality', c.pulseQuality, { fieldName: 'vitals.pulseQuality' }),
    field('Mentation', c.mentation, { fieldName: 'vitals.mentation' }),
    field('Extremities', c.extremities, { fieldName: 'vitals.extremities' }),
    field('Systolic blood pressure', c.systolicBP, { fieldName: 'vitals.systolicBP', unit: 'mmHg' }),
    field('SpO₂', c.spo2, { fieldName: 'vitals.spo2', unit: '%' }),
    field('Blood glucose', c.glucose, { fieldName: 'vitals.glucose', unit: c.glucoseUnit }),
    field('Dehydration', c.dehydrationPercent, { fieldName: 'vitals.dehydrationPercent', unit: '%' }));

  const num = (input) => {
    if (input.value.trim() === '') return undefined;
    const value = Number(input.value);
    return Number.isFinite(value) ? value : undefined;
  };

  function read() {
    const vitals = {};
    const t = num(c.temperature);
    if (t !== undefined) vitals.temperature = { value: t, unit: c.temperatureUnit.value };
    for (const key of ['heartRate', 'respiratoryRate', 'capillaryRefillSeconds', 'systolicBP', 'spo2', 'dehydrationPercent']) {
      const value = num(c[key]);
      if (value !== undefined) vitals[key] = value;
    }
    for (const key of ['mucousMembranes', 'pulseQuality', 'mentation', 'extremities']) if (c[key].value) vitals[key] = c[key].value;
    const g = num(c.glucose);
    if (g !== undefined) vitals.glucose = { value: g, unit: c.glucoseUnit.value };
    return vitals;
  }

  return {
    element,
    read,
    values: () => Object.fromEntries(Object.entries(c).map(([key, input]) => [key, input.value])),
    fill(values) {
      for (const [key, value] of Object.entries(values || {})) if (c[key] && typeof value === 'string') c[key].value = value;
    },
    badNumbers: () => Object.values(c).filter((input) => input.type === 'number' && input.validity.badInput)
      .map((input) => ({ field: input.dataset.field, message: 'must be a number' })),
    focusFirst: () => c.temperature.focus(),
  };
}

/** A stored visit's vitals in words, one line each ("Temperature: 38.6 °C"). */
export function describeVitals(vitals) {
  return Object.entries(vitals || {}).map(([key, value]) => {
    const [name, unit] = VITAL_NAMES[key] || [words(key)];
    let text;
    if (value && typeof value === 'object') text = `${value.value} ${value.unit === 'C' || value.unit === 'F' ? `°${value.unit}` : value.unit || ''}`.trim();
    else if (typeof value === 'boolean') text = value ? 'yes' : 'no';
    else if (typeof value === 'string') text = words(value);
    else text = unit ? `${value} ${unit}` : String(value);
    return `${name}: ${text}`;
  });
}
