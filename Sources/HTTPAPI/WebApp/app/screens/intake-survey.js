// The intake's examination, laid out from the case's controls (intake-case.js): the vital
// signs, and the ABCDE survey with the catalogue's findings under their letters and a section
// of its own for each group of findings under none. Each finding's checkbox is kept in
// `c.findings`.

import { h, field, uid } from '../ui.js';
import * as catalogue from '../catalogue.js';

/** The letters of the ABCDE survey laid out below, each with its observations; a section of
 *  findings under none of them (the catalogue's other presentations) follows as its own. */
const SURVEY_LETTERS = ['A', 'B', 'C', 'D', 'E'];

const checkbox = (label, input, fieldName) => {
  input.id = uid('c');
  input.dataset.field = fieldName;
  return h('div', { class: 'field check' }, input, h('label', { for: input.id }, label));
};

function withUnitSelect(selectEl, fieldName) { selectEl.dataset.field = fieldName; selectEl.id = uid('u'); return selectEl; }

const letterSection = (letter, title, controls) => h('fieldset', { class: 'abcde-group' },
  h('legend', {}, letter ? h('span', { class: 'abcde-letter', 'aria-hidden': 'true' }, letter) : null, letter ? `${letter} — ${title}` : title),
  controls);

/** The "Vital signs" fieldset. */
export function vitalSignsFieldset(c) {
  return h('fieldset', { class: 'panel glass' },
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
}

/** The "ABCDE survey and findings" fieldset. */
export function surveyFieldset(c) {
  const findingList = (section) => h('div', { class: 'finding-list', role: 'group', 'aria-label': `${section.title} findings` },
    section.items.map(({ id, label }) => {
      const input = h('input', { type: 'checkbox', value: id });
      c.findings.push(input);
      return checkbox(label, input, 'findings');
    }));

  const findingsFor = (letter) => {
    const section = catalogue.findings().find((s) => s.letter === letter);
    return section ? findingList(section) : null;
  };

  const otherFindings = () => catalogue.findings().filter((s) => !SURVEY_LETTERS.includes(s.letter))
    .map((s) => letterSection(s.letter || '', s.title, findingList(s)));

  return h('fieldset', { class: 'panel glass' },
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
}
