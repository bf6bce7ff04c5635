// Re-assessing a patient on the ER board (#/intake?patient=<id>&reassess=1): what their last
// assessment recorded, read back from its result into the intake's form with a note of what
// was filled in, and the outcome once sent (the patient re-triaged in place on the board).

import * as catalogue from '../catalogue.js';
import { h, replace, announce, levelBadge, levelColour, levelLabel, words, time, date } from '../ui.js';
import { FIELD_NAMES } from './intake-case.js';
import { nextArrival } from './intake-offers.js';

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

/** Fills the case's controls `c` with what the patient's last assessment recorded, and says
 *  so in `note`: what was filled, and that sending re-triages the patient. */
export function fillFromAssessment(assessment, { c, note, patient }) {
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
      const boxes = c.findings.filter((b) => value.includes(b.value));
      boxes.forEach((b) => { b.checked = true; });
      if (!boxes.length) continue;
    } else if (numbers[name] && typeof value === 'string') numbers[name].value = value;
    else if (choices[name] && [...choices[name].options].some((o) => o.value === value)) choices[name].value = value;
    else if (flags[name] && value === true) flags[name].checked = true;
    else continue;
    filled.push(FIELD_NAMES[name] || words(name.split('.').pop()));
  }
  note.hidden = false;
  replace(note,
    h('strong', {}, `Re-assessment of ${patient?.name || 'the patient'}`),
    ` — last assessed ${date(assessment.assessedAt)} ${time(assessment.assessedAt)}, level in force `, levelBadge(assessment.currentLevel ?? assessment.level), '. ',
    filled.length ? `Filled in from what it recorded: ${filled.join(', ')} (the values it found normal are not kept). ` : 'It recorded nothing abnormal to fill in. ',
    'Check each value again; sending re-triages the patient in place on the ER board.');
}

/** The outcome of a re-assessment, in `box`: the patient's new level on the ER board. */
export function showRetriaged(box, patient, assessment) {
  const level = assessment.currentLevel ?? assessment.level;
  const target = assessment.result?.targetTime;
  replace(box,
    h('div', { class: ['notice', catalogue.isEmergency(level) ? 'notice-emergency' : 'notice-success', 'retriaged', `level-edge-${levelColour(level)}`], role: 'status' },
      h('strong', {}, `${patient.name} re-triaged on the ER board`), ` — ${levelLabel(level).toLowerCase()}`,
      target ? `, to be seen by ${time(target)}.` : '.', ' ', h('a', { href: '#/er' }, 'Open the ER board')),
    nextArrival());
  announce(`${patient.name} re-triaged on the ER board as ${levelLabel(level)}`, { assertive: catalogue.isEmergency(level) });
}
