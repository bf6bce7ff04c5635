// The intake's patient: found by searching as you type (a combobox of the practice's active
// patients, chosen by tap or with the keys), shown with their alerts once chosen, or a new
// patient and owner entered to be registered by the intake. Choosing a patient fills the
// case's species, sex and age from their record.

import * as api from '../api.js';
import { h, field, replace, debounce, announce, uid, words } from '../ui.js';

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

/**
 * The patient part of the intake. `state`: the screen's {patient, mode, exactAgeWeeks,
 * reassessing}, kept current here; `c`: the case's controls; `submit`: the form's button,
 * named for what sending does; `alive()`: whether the screen is still shown; `chosen()`: a
 * patient was chosen from the search. Returns {fieldset(), search, reassessNote, choose(item),
 * showChosen(), setMode(mode), errors(), newPatient(), cancel()}.
 */
export function patientPicker(state, { c, submit, alive, chosen: onChosen }) {
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

  /** The "Patient" fieldset of the form. */
  const fieldset = () => h('fieldset', { class: 'panel glass patient-panel' },
    h('legend', {}, 'Patient'),
    h('div', { class: 'field combo' }, h('label', { for: (search.id = uid('search')) }, 'Find the patient'), search, listbox),
    chosen,
    reassessNote,
    h('div', { class: 'row' }, newToggle),
    newPatientBox);

  // MARK: - Patient search

  let results = [];
  let active = -1;
  const runSearch = debounce(async () => {
    const text = search.value.trim();
    if (text.length < 1) { closeList(); return; }
    try {
      const page = await api.get('/patients', { q: text, limit: 8, status: 'active' });
      if (!alive() || search.value.trim() !== text) return;
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

  // MARK: - The chosen patient, or a new one

  function choose(item) {
    const p = item.patient;
    state.patient = { id: p.id, name: p.name, species: p.species, sex: p.sex, birthDate: p.birthDate, alerts: p.alerts || [], ownerName: item.ownerName,
      medicalRecordNumber: p.medicalRecordNumber, age: p.age, breed: p.breed };
    setMode('existing');
    closeList();
    search.value = '';
    c.species.value = p.species;
    c.sex.value = p.sex || '';
    state.exactAgeWeeks = null;
    const age = p.birthDate ? ageFromBirthDate(p.birthDate) : null;
    if (age) {
      c.ageValue.value = String(age.value);
      c.ageUnit.value = age.unit;
      state.exactAgeWeeks = age.weeks;
    }
    showChosen();
    onChosen();
    c.complaint.focus();
  }

  function showChosen() {
    const patient = state.patient;
    submit.textContent = patient && patient.id === state.reassessing ? 'Re-assess and update the ER board' : 'Triage and find clinicians';
    chosen.hidden = !patient;
    if (!patient) { replace(chosen); reassessNote.hidden = true; return; }
    replace(chosen,
      h('div', {}, h('strong', {}, patient.name), ` · ${words(patient.species)}${patient.breed ? `, ${patient.breed}` : ''}${patient.age ? ` · ${patient.age}` : ''}`,
        h('br'), h('span', { class: 'muted' }, `${patient.ownerName || ''} · ${patient.medicalRecordNumber || ''}`)),
      patient.alerts?.length ? h('ul', { class: 'alert-chips', 'aria-label': 'Alerts' }, patient.alerts.map((a) => h('li', { class: 'chip chip-alert' }, a))) : null,
      h('button', { type: 'button', class: 'button quiet', on: { click: () => { state.patient = null; showChosen(); search.focus(); } } }, 'Change patient'));
  }

  function setMode(next) {
    state.mode = next;
    newPatientBox.hidden = state.mode !== 'new';
    newToggle.setAttribute('aria-expanded', String(state.mode === 'new'));
    newToggle.textContent = state.mode === 'new' ? 'Find an existing patient instead' : 'New patient and owner';
    if (state.mode === 'new') { state.patient = null; showChosen(); }
  }
  newToggle.addEventListener('click', () => { setMode(state.mode === 'new' ? 'existing' : 'new'); if (state.mode === 'new') np.name.focus(); else search.focus(); });
  // An age typed by hand is sent as typed; the exact one from the date of birth until then.
  c.ageValue.addEventListener('input', () => { state.exactAgeWeeks = null; });
  c.ageUnit.addEventListener('change', () => { state.exactAgeWeeks = null; });

  /** What is missing before the intake can be sent: the patient, or the new one's names. */
  function errors() {
    const found = [];
    if (state.mode === 'existing' && !state.patient) found.push({ field: 'patientId', message: 'Find the patient, or register a new patient and owner.' });
    if (state.mode === 'new') {
      if (!np.name.value.trim()) found.push({ field: 'newPatient.patient.name', message: 'Enter the patient’s name.' });
      if (!np.first.value.trim()) found.push({ field: 'newPatient.owner.firstName', message: 'Enter the owner’s first name.' });
      if (!np.last.value.trim()) found.push({ field: 'newPatient.owner.lastName', message: 'Enter the owner’s last name.' });
    }
    return found;
  }

  /** The new patient and owner as the intake registers them ({owner, patient}). */
  function newPatient() {
    const owner = { firstName: np.first.value.trim(), lastName: np.last.value.trim() };
    if (np.phone.value.trim()) owner.phones = [{ label: 'mobile', number: np.phone.value.trim() }];
    if (np.email.value.trim()) owner.email = np.email.value.trim();
    const patient = { name: np.name.value.trim(), species: c.species.value };
    if (np.breed.value.trim()) patient.breed = np.breed.value.trim();
    if (c.sex.value) patient.sex = c.sex.value;
    if (np.birthDate.value) patient.birthDate = np.birthDate.value;
    return { owner, patient };
  }

  return { fieldset, search, reassessNote, choose, showChosen, setMode, errors, newPatient, cancel: () => runSearch.cancel() };
}
