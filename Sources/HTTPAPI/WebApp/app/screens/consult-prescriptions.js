// The drugs a consultation's treatment plan prescribes: a row of fields per drug, named as the
// API names them (treatmentPlan.prescriptions[i].drug …), so a refused field is shown at its
// place. Each row shows, before saving, the dose the API computes from the patient's latest
// weight (GET /patients/{id}/dose); the app does no dose arithmetic of its own.

import * as api from '../api.js';
import { h, replace, field, select, words, date, uid, debounce, problemText } from '../ui.js';

/** The routes a prescription accepts (the contract's list, in its order). */
export const ROUTES = ['oral', 'subcutaneous', 'intramuscular', 'intravenous', 'topical', 'ophthalmic', 'otic', 'intranasal', 'inhaled', 'rectal', 'transdermal'];

const trim = (value) => Number(value).toLocaleString('en-GB', { maximumFractionDigits: 3 });

/** The prescriptions' part of the form. `changed()`: a row was added, removed or typed in (for
 *  the draft). Returns {element, values(), fill(list), read()}: `values` what was typed, `read`
 *  the prescriptions to send. */
export function prescriptions(patientId, changed) {
  const rows = [];
  const list = h('div', { class: 'prescription-rows' });
  const add = h('button', { type: 'button', class: 'button', dataset: { action: 'add-prescription' } }, 'Add a prescription');
  add.addEventListener('click', () => { addRow(); rows[rows.length - 1].drug.focus(); changed(); });

  function addRow(value = {}) {
    const r = {
      drug: h('input', { type: 'text', maxlength: 200, autocomplete: 'off', value: value.drug || '' }),
      concentration: h('input', { type: 'number', step: 'any', min: 0, inputmode: 'decimal', value: value.concentration ?? '' }),
      dose: h('input', { type: 'number', step: 'any', min: 0, inputmode: 'decimal', value: value.dose ?? '' }),
      route: select(ROUTES.map((x) => [x, words(x)]), { value: value.route || 'oral' }),
      frequency: h('input', { type: 'text', maxlength: 200, autocomplete: 'off', placeholder: 'e.g. every 12 hours', value: value.frequency || '' }),
      startDate: h('input', { type: 'date', value: value.startDate || '' }),
      endDate: h('input', { type: 'date', value: value.endDate || '' }),
      preview: h('p', { class: 'dose-result dose-preview', 'aria-live': 'polite' }),
      heading: h('h3', { id: uid('rx') }),
    };
    r.remove = h('button', { type: 'button', class: 'button quiet' }, 'Remove');
    r.remove.addEventListener('click', () => { rows.splice(rows.indexOf(r), 1); draw(); changed(); });
    let asked = 0;
    r.ask = debounce(async () => {
      const mine = ++asked;
      const dose = Number(r.dose.value);
      const concentration = Number(r.concentration.value);
      if (!r.dose.value || !r.concentration.value || !(dose > 0) || !(concentration > 0)) {
        replace(r.preview, h('span', { class: 'muted' }, 'The dose is shown here once the dose rate and concentration are entered.'));
        r.preview.classList.remove('notice-error');
        return;
      }
      replace(r.preview, h('span', { class: 'muted' }, 'Calculating the dose…'));
      try {
        const d = await api.get(`/patients/${encodeURIComponent(patientId)}/dose`, { doseMgPerKg: dose, concentrationMgPerML: concentration });
        if (mine !== asked) return;
        r.preview.classList.remove('notice-error');
        replace(r.preview, 'Dose: ', h('strong', { dataset: { doseMg: String(d.doseMg), volumeMl: String(d.volumeML) } }, `${trim(d.doseMg)} mg = ${trim(d.volumeML)} mL`),
          h('span', { class: 'muted' }, ` (${trim(d.weightKg)} kg weighed ${date(d.weightMeasuredAt)})`));
      } catch (error) {
        if (mine !== asked) return;
        r.preview.classList.add('notice-error');
        replace(r.preview, problemText(error));
      }
    }, 350);
    r.dose.addEventListener('input', r.ask);
    r.concentration.addEventListener('input', r.ask);
    rows.push(r);
    draw();
    r.ask();
  }

  /** The rows, numbered in order: their fields carry the API's names for their place. */
  function draw() {
    replace(list, rows.map((r, i) => {
      const name = (key) => `treatmentPlan.prescriptions[${i}].${key}`;
      r.heading.textContent = `Prescription ${i + 1}`;
      r.remove.setAttribute('aria-label', `Remove prescription ${i + 1}`);
      return h('section', { class: 'prescription', 'aria-labelledby': r.heading.id, dataset: { index: String(i) } },
        h('div', { class: 'row spread' }, r.heading, r.remove),
        h('div', { class: 'grid-fields' },
          field('Drug', r.drug, { fieldName: name('drug') }),
          field('Concentration', r.concentration, { fieldName: name('concentrationMgPerML'), unit: 'mg/mL' }),
          field('Dose rate', r.dose, { fieldName: name('doseMgPerKg'), unit: 'mg/kg' }),
          field('Route', r.route, { fieldName: name('route') }),
          field('Frequency', r.frequency, { fieldName: name('frequency') }),
          field('Start', r.startDate, { fieldName: name('startDate'), hint: 'The visit’s day when left empty.' }),
          field('End', r.endDate, { fieldName: name('endDate') })),
        r.preview);
    }));
  }

  const values = () => rows.map((r) => ({
    drug: r.drug.value, concentration: r.concentration.value, dose: r.dose.value, route: r.route.value,
    frequency: r.frequency.value, startDate: r.startDate.value, endDate: r.endDate.value,
  }));

  function fill(list2) {
    rows.splice(0, rows.length);
    for (const v of Array.isArray(list2) ? list2 : []) if (v && typeof v === 'object') addRow(v);
    draw();
  }

  /** The prescriptions to send; a number field left empty is left out, for the API to name. */
  const read = () => rows.map((r) => {
    const p = {
      drug: r.drug.value.trim(), route: r.route.value, frequency: r.frequency.value.trim(),
      concentrationMgPerML: r.concentration.value === '' ? undefined : Number(r.concentration.value),
      doseMgPerKg: r.dose.value === '' ? undefined : Number(r.dose.value),
    };
    if (r.startDate.value) p.startDate = r.startDate.value;
    if (r.endDate.value) p.endDate = r.endDate.value;
    return p;
  });

  const element = h('fieldset', { class: 'prescriptions' }, h('legend', {}, 'Prescriptions'),
    h('p', { class: 'hint' }, 'Each drug prescribed becomes an active medication of the patient when the visit is saved.'),
    list, add);
  return { element, values, fill, read };
}

/** A saved visit's prescriptions, in words. */
export function prescribedText(list) {
  return (list || []).map((m) => `${m.drug} ${m.doseMgPerKg} mg/kg · ${m.concentrationMgPerML} mg/mL · ${words(m.route)} · ${m.frequency}`).join('; ');
}
