// Registering a patient and their owner at reception, without a triage (POST /owners, then
// POST /patients). Before anything is saved the server is asked which patients on file may be
// this one (GET /patient-duplicates: the same microchip, owner phone, email or name, or a
// similar name of the same species — its rule, not this screen's); they are shown as possible
// duplicates with links to their records, and the person may register this owner's new
// patient for an owner found, or go on anyway.

import * as api from '../api.js';
import * as catalogue from '../catalogue.js';
import { go } from '../router.js';
import { h, replace, field, select, toast, announce, words, uid, showErrors, clearErrors, debounce, notice } from '../ui.js';
import { submitForm } from '../forms.js';

/** A duplicate reason of the API (`same_owner_phone`) as the words shown on its chip. */
const reasonWords = (reason) => String(reason).replace(/_/g, ' ');

export function render(container) {
  let alive = true;
  let owner = null; // an existing owner chosen from the duplicates: {id, name}
  let createdOwner = null; // the owner this screen registered, when the patient could not be yet
  let checkedFor = ''; // the values the duplicates shown were searched for
  let found = []; // [{item, reasons}]
  let unchecked = false; // the duplicate check could not reach the server (offline)
  const keys = { owner: { text: '', key: '' }, patient: { text: '', key: '' } };

  const o = {
    firstName: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    lastName: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    phone: h('input', { type: 'text', inputmode: 'tel', maxlength: 30, autocomplete: 'off' }),
    email: h('input', { type: 'text', inputmode: 'email', maxlength: 254, autocomplete: 'off', spellcheck: 'false' }),
  };
  const p = {
    name: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    species: select(catalogue.species().map((s) => [s, words(s)]), { blank: 'Choose…' }),
    breed: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    sex: select(catalogue.sexes().map((s) => [s, words(s)]), { blank: 'Not recorded' }),
    birthDate: h('input', { type: 'date' }),
    estimated: h('input', { type: 'checkbox', id: uid('estimated') }),
    colour: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    microchip: h('input', { type: 'text', inputmode: 'numeric', maxlength: 15, autocomplete: 'off' }),
  };
  p.estimated.dataset.field = 'patient.birthDateEstimated';

  const chosenOwner = h('div', { class: 'chosen-owner', hidden: true });
  const ownerFields = h('div', { class: 'grid-fields' },
    field('First name', o.firstName, { fieldName: 'owner.firstName' }),
    field('Last name', o.lastName, { fieldName: 'owner.lastName' }),
    field('Phone', o.phone, { fieldName: 'owner.phones' }),
    field('Email', o.email, { fieldName: 'owner.email' }));
  const duplicates = h('div', { class: 'duplicates', 'aria-live': 'polite' });
  const save = h('button', { type: 'submit', class: 'button primary large' }, 'Register');
  const form = h('form', { class: 'register-form', novalidate: true, 'aria-labelledby': 'register-title' },
    h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Owner'), h('div', {}, chosenOwner, ownerFields)),
    h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Patient'),
      h('div', { class: 'grid-fields' },
        field('Patient name', p.name, { fieldName: 'patient.name' }),
        field('Species', p.species, { fieldName: 'patient.species' }),
        field('Breed', p.breed, { fieldName: 'patient.breed' }),
        field('Sex', p.sex, { fieldName: 'patient.sex' }),
        field('Date of birth', p.birthDate, { fieldName: 'patient.birthDate' }),
        h('div', { class: 'field check' }, p.estimated, h('label', { for: p.estimated.id }, 'Date of birth estimated')),
        field('Colour', p.colour, { fieldName: 'patient.colour' }),
        field('Microchip', p.microchip, { fieldName: 'patient.microchip', hint: '15 digits' }))),
    duplicates,
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row wrap' }, save, h('a', { class: 'button quiet', href: '#/patients' }, 'Cancel')));

  replace(container, h('section', { class: 'screen register', 'aria-labelledby': 'register-title' },
    h('p', {}, h('a', { class: 'back-link', href: '#/patients' }, h('span', { 'aria-hidden': 'true' }, '‹ '), 'All patients')),
    h('header', { class: 'screen-header' }, h('h1', { id: 'register-title' }, 'Register a patient')),
    h('p', { class: 'muted' }, 'For a patient who is not being triaged now (a new client booking ahead, a transfer). An arrival is registered at intake.'),
    catalogue.loaded() ? null : notice('The triage catalogue could not be loaded, so no species can be chosen. Try again from the message at the top.', 'warning'),
    form));

  // MARK: - Possible duplicates

  function wanted() {
    return {
      ownerName: owner ? '' : `${o.firstName.value.trim()} ${o.lastName.value.trim()}`.trim(),
      ownerPhone: owner ? '' : o.phone.value.trim(),
      ownerEmail: owner ? '' : o.email.value.trim(),
      microchip: p.microchip.value.trim(),
      patientName: p.name.value.trim(),
      species: p.species.value,
    };
  }

  /** Asks the server which patients on file may be this one, and why (its rule, strongest first).
   *  Offline it cannot be asked: the form says so and the registration goes on (it waits to be sent). */
  async function search(w) {
    unchecked = false;
    if (!Object.values(w).some(Boolean)) return [];
    try {
      const answer = await api.get('/patient-duplicates', w);
      return answer.items.map(({ patient, ownerName, reasons }) => ({ item: { patient, ownerName }, reasons }));
    } catch (error) {
      if (error.status !== 0) throw error;
      unchecked = true;
      return [];
    }
  }

  /** Searches for what is typed now, unless that was searched already; shows what it found. */
  async function check() {
    const w = wanted();
    const text = JSON.stringify(w);
    if (text === checkedFor) return found;
    const result = await search(w);
    if (!alive) return [];
    checkedFor = text;
    found = result;
    drawDuplicates();
    return found;
  }

  function drawDuplicates(asking = false) {
    if (!found.length) {
      replace(duplicates, unchecked ? notice('Offline: possible duplicates cannot be checked until VetNet is reachable. Search the patient list first; the registration is sent when the connection is back.', 'warning') : null);
      return;
    }
    replace(duplicates, h('section', { class: 'notice notice-warning duplicate-warning', 'aria-labelledby': 'dup-title' },
      h('h2', { id: 'dup-title' }, 'Possible duplicates'),
      h('p', {}, asking ? 'These records may already be this patient or owner. Open them to check; register anyway only if none is.'
        : 'These records may already be this patient or owner: open them to check before registering.'),
      h('ul', { class: 'plain entries duplicate-list' }, found.map(({ item, reasons }) => h('li', { dataset: { patient: item.patient.id } },
        h('a', { class: 'entry-link', href: `#/patients/${item.patient.id}` }, h('strong', {}, item.patient.name)),
        ` · ${words(item.patient.species)} · ${item.ownerName} · ${item.patient.medicalRecordNumber}${item.patient.status !== 'active' ? ` · ${words(item.patient.status)}` : ''} `,
        reasons.map((r) => h('span', { class: 'chip chip-warning' }, reasonWords(r))),
        owner?.id === item.patient.ownerId ? null : h('button', {
          type: 'button', class: 'button', 'aria-label': `Register for ${item.ownerName}, the owner of ${item.patient.name}`,
          on: { click: () => useOwner(item) },
        }, `Register for ${item.ownerName}`)))),
      asking ? h('div', { class: 'row wrap' }, h('button', { type: 'button', class: 'button', dataset: { action: 'register-anyway' }, on: { click: (e) => register(e.currentTarget, true) } }, 'Register anyway')) : null));
  }

  function useOwner(item) {
    owner = { id: item.patient.ownerId, name: item.ownerName };
    ownerFields.hidden = true;
    chosenOwner.hidden = false;
    replace(chosenOwner, h('p', {}, 'The patient is registered for ', h('strong', {}, owner.name), ', already a client. '),
      h('button', { type: 'button', class: 'button', on: { click: () => { owner = null; chosenOwner.hidden = true; ownerFields.hidden = false; checkedFor = ''; replace(chosenOwner); recheck(); o.firstName.focus(); } } }, 'A new owner instead'));
    checkedFor = '';
    recheck();
    announce(`Registering for ${owner.name}`);
    p.name.focus();
  }

  const recheck = debounce(() => { check().catch(() => {}); }, 400);
  for (const input of [o.firstName, o.lastName, o.phone, o.email, p.microchip, p.name]) input.addEventListener('input', recheck);
  p.species.addEventListener('change', recheck);

  // MARK: - Registering

  function localErrors() {
    const errors = [];
    if (!owner) {
      if (!o.firstName.value.trim()) errors.push({ field: 'owner.firstName', message: 'Enter the owner’s first name.' });
      if (!o.lastName.value.trim()) errors.push({ field: 'owner.lastName', message: 'Enter the owner’s last name.' });
    }
    if (!p.name.value.trim()) errors.push({ field: 'patient.name', message: 'Enter the patient’s name.' });
    if (!p.species.value) errors.push({ field: 'patient.species', message: 'Choose the species.' });
    if (p.microchip.value.trim() && !/^\d{15}$/.test(p.microchip.value.trim())) errors.push({ field: 'patient.microchip', message: 'A microchip number is 15 digits.' });
    return errors;
  }

  function keyFor(kind, body) {
    const text = JSON.stringify(body);
    if (keys[kind].text !== text) keys[kind] = { text, key: api.newKey() };
    return keys[kind].key;
  }

  async function register(button, anyway = false) {
    clearErrors(form);
    const local = localErrors();
    if (local.length) { showErrors(form, local); form.querySelector('[aria-invalid="true"]')?.focus(); return; }
    await submitForm(form, button, async () => {
      const seen = checkedFor;
      const matches = await check();
      if (!alive) return;
      // Possible duplicates stop the first press (or one after the values changed).
      if (matches.length && !(anyway && seen === checkedFor)) {
        drawDuplicates(true);
        duplicates.querySelector('h2')?.setAttribute('tabindex', '-1');
        duplicates.querySelector('h2')?.focus();
        announce(`${matches.length} possible duplicate${matches.length === 1 ? '' : 's'}: check them before registering`, { assertive: true });
        return;
      }
      let ownerId = owner?.id;
      let queuedOwner = null; // offline: the owner waits in the outbox, and the patient after it
      if (!ownerId) {
        const newOwner = { firstName: o.firstName.value.trim(), lastName: o.lastName.value.trim() };
        if (o.phone.value.trim()) newOwner.phones = [{ label: 'mobile', number: o.phone.value.trim() }];
        if (o.email.value.trim()) newOwner.email = o.email.value.trim();
        // An owner registered by an earlier press that stopped at the patient is not registered twice.
        if (createdOwner && createdOwner.text === JSON.stringify(newOwner)) ownerId = createdOwner.id;
        else {
          try {
            const made = await api.post('/owners', newOwner, { idempotencyKey: keyFor('owner', newOwner) });
            createdOwner = { id: made.id, text: JSON.stringify(newOwner) };
            ownerId = made.id;
          } catch (error) {
            if (!error.queued) {
              error.errors = error.errors.map((e) => ({ ...e, field: `owner.${e.field}` }));
              throw error;
            }
            queuedOwner = error.entry;
          }
        }
      }
      // Until the queued owner is registered its id is unknown: the outbox fills it in.
      const patient = { name: p.name.value.trim(), species: p.species.value, ownerId: ownerId || '00000000-0000-0000-0000-000000000000' };
      if (p.breed.value.trim()) patient.breed = p.breed.value.trim();
      if (p.sex.value) patient.sex = p.sex.value;
      if (p.birthDate.value) { patient.birthDate = p.birthDate.value; if (p.estimated.checked) patient.birthDateEstimated = true; }
      if (p.colour.value.trim()) patient.colour = p.colour.value.trim();
      if (p.microchip.value.trim()) patient.microchip = p.microchip.value.trim();
      let made;
      try {
        made = await api.post('/patients', patient, {
          idempotencyKey: keyFor('patient', patient), queue: queuedOwner ? { after: queuedOwner.id, field: 'ownerId' } : undefined,
        });
      } catch (error) {
        if (error.queued) {
          if (!alive) return;
          // Offline: kept on the device; the record number comes when it is registered.
          toast(`${patient.name}: saved on this device — waiting to send`, 'info');
          announce(`${patient.name} saved on this device, waiting to send`);
          go('#/patients');
          return;
        }
        error.errors = error.errors.map((e) => ({ ...e, field: `patient.${e.field}` }));
        if (createdOwner && !owner && !error.errors.length) error.detail = `The owner is registered; the patient is not yet: ${error.detail}`;
        throw error;
      }
      if (!alive) return;
      toast(`${made.name} registered (${made.medicalRecordNumber})`, 'success');
      announce(`${made.name} registered`);
      go(`#/patients/${made.id}`);
    }, { label: 'Registering…', focus: true });
  }

  form.addEventListener('submit', (event) => { event.preventDefault(); register(save); });
  o.firstName.focus();
  return () => { alive = false; recheck.cancel(); };
}
