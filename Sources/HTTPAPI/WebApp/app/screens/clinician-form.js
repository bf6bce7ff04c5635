// The form for a clinician's name, credentials, expertise (specialty, proficiency, years),
// species treated and limits: adding one (everything sent) or editing one (only what changed
// sent). The API checks every value; its refusals are shown at the fields they name
// (expertise[1].years, species, complexityCeiling …).

import * as catalogue from '../catalogue.js';
import { h, replace, field, select, words, uid, notice } from '../ui.js';
import { submitForm } from '../forms.js';

/** `c`: the clinician to edit, or null for a new one. `send(body)` resolves to the clinician
 *  stored; `done(stored)`, `cancel()`; `conflict`: the words for a version changed meanwhile. */
export function clinicianForm(c, { title, submitLabel, send, done, cancel, conflict }) {
  const titleId = uid('clinician-form');
  const name = h('input', { type: 'text', maxlength: 120, autocomplete: 'off', value: c?.displayName || '' });
  const credentials = h('input', { type: 'text', maxlength: 200, autocomplete: 'off', value: c?.credentials || '' });
  const perDay = h('input', { type: 'number', min: 1, max: 60, step: 1, inputmode: 'numeric', value: c ? String(c.maxAppointmentsPerDay) : '' });
  const ceiling = h('input', { type: 'number', min: 0, max: 1, step: 0.05, inputmode: 'decimal', value: c ? String(c.complexityCeiling) : '' });
  const speciesList = [...new Set([...catalogue.species(), ...(c?.species || [])])];
  const species = speciesList.map((s) => h('input', { type: 'checkbox', value: s, id: uid('species'), checked: c?.species.includes(s) }));
  if (species[0]) species[0].dataset.field = 'species';
  const rows = [];
  const rowBox = h('div', { class: 'expertise-rows' });
  const addRow = h('button', { type: 'button', class: 'button' }, 'Add an expertise');

  function expertiseRow(e) {
    const r = {
      // The API's vocabulary (GET /triage/catalogue), with the clinician's own kept if it is not in it.
      specialty: select([...new Set([...catalogue.specialties(), ...(e?.specialty ? [e.specialty] : [])])].map((x) => [x, words(x)]),
        { value: e?.specialty || 'general_practice' }),
      proficiency: select([1, 2, 3, 4, 5].map((n) => [String(n), `${n} of 5`]), { value: String(e?.proficiency || 3) }),
      years: h('input', { type: 'number', min: 0, max: 60, step: 1, inputmode: 'numeric', value: e ? String(e.years) : '0' }),
    };
    r.remove = h('button', { type: 'button', class: 'button quiet', on: { click: () => { rows.splice(rows.indexOf(r), 1); drawRows(); addRow.focus(); } } }, 'Remove');
    return r;
  }
  function drawRows() {
    replace(rowBox, rows.map((r, i) => {
      r.remove.setAttribute('aria-label', `Remove expertise ${i + 1}`);
      return h('div', { class: 'grid-fields expertise-row', dataset: { index: String(i) } },
        field(`Specialty ${i + 1}`, r.specialty, { fieldName: `expertise[${i}].specialty` }),
        field(`Proficiency ${i + 1}`, r.proficiency, { fieldName: `expertise[${i}].proficiency` }),
        field(`Years ${i + 1}`, r.years, { fieldName: `expertise[${i}].years` }),
        h('div', { class: 'field' }, r.remove));
    }));
    if (!rows.length) rowBox.append(h('p', { class: 'muted' }, 'No expertise listed.'));
  }
  (c?.expertise || []).forEach((e) => rows.push(expertiseRow(e)));
  drawRows();
  addRow.addEventListener('click', () => { rows.push(expertiseRow()); drawRows(); rows[rows.length - 1].specialty.focus(); });

  const number = (input) => (input.value.trim() === '' ? undefined : Number(input.value));
  const values = () => ({
    displayName: name.value.trim(),
    credentials: credentials.value.trim(),
    expertise: rows.map((r) => ({ specialty: r.specialty.value, proficiency: Number(r.proficiency.value), years: number(r.years) })),
    species: species.filter((b) => b.checked).map((b) => b.value),
    maxAppointmentsPerDay: number(perDay),
    complexityCeiling: number(ceiling),
  });
  const before = c ? JSON.stringify(values()) : null;
  const initial = c ? values() : null;

  const save = h('button', { type: 'submit', class: 'button primary' }, submitLabel);
  const status = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'stack-form clinician-form', novalidate: true, 'aria-labelledby': titleId },
    h('h2', { id: titleId }, title),
    h('div', { class: 'grid-fields' },
      field('Name', name, { fieldName: 'displayName' }),
      field('Credentials', credentials, { fieldName: 'credentials' }),
      field('Appointments a day, at most', perDay, { fieldName: 'maxAppointmentsPerDay' }),
      field('Complexity ceiling', ceiling, { fieldName: 'complexityCeiling', hint: 'From 0 to 1: the most complex case they take.' })),
    h('fieldset', { class: 'edit-group' }, h('legend', {}, 'Species treated'),
      h('div', { class: 'row wrap species-choice' }, species.map((b) => h('div', { class: 'field check' }, b, h('label', { for: b.id }, words(b.value)))))),
    h('fieldset', { class: 'edit-group' }, h('legend', {}, 'Expertise'), rowBox, addRow),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    status,
    h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: cancel } }, 'Cancel'), save));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    replace(status);
    const now = values();
    let body = now;
    if (c) {
      if (JSON.stringify(now) === before) { replace(status, notice('Nothing has changed.', 'success')); return; }
      body = Object.fromEntries(Object.entries(now).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(initial[key])));
    }
    if (!c && !body.credentials) delete body.credentials;
    const stored = await submitForm(form, save, () => send(body), {
      label: 'Saving…', focus: true,
      handle: (error) => {
        if (error.status !== 412 || !conflict) return false;
        replace(status, notice(conflict));
        return true;
      },
    });
    if (stored) done(stored);
  });

  return { element: form, titleId, focus: () => name.focus() };
}
