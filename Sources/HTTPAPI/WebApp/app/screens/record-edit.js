// Editing a patient's or an owner's details at reception (PUT with If-Match: the API replaces
// the whole resource, so every field read is sent back, changed or not). When the record was
// changed by someone else since it was read (412), nothing is overwritten: the dialog says so,
// shows what is stored now beside the changes typed here, and the person either applies their
// changes to the current version or starts again from it.

import * as api from '../api.js';
import * as catalogue from '../catalogue.js';
import { h, replace, field, select, toast, announce, words, plainDate, uid, clearErrors, showErrors, notice, problemText } from '../ui.js';
import { loadInto, submitForm } from '../forms.js';

const PHONE_LABELS = ['mobile', 'home', 'work', 'other'];
const CHANNELS = ['email', 'sms', 'phone', 'post'];
const STATUSES = ['active', 'deceased', 'archived'];
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const text = (input) => input.value.trim();

/** A modal dialog appended to the page; removed when closed, the focus back on `opener`. */
function modal(title, opener) {
  const titleId = uid('edit-title');
  const dialog = h('dialog', { class: 'dialog glass screen-dialog edit-dialog', 'aria-labelledby': titleId });
  const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
  dialog.addEventListener('close', () => { dialog.remove(); if (opener?.isConnected) opener.focus(); });
  const heading = h('h2', { id: titleId }, title);
  dialog.append(heading);
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, close, heading };
}

/**
 * The editing dialog for one resource. `spec`: {title, path, noun, units: [{name, label,
 * read(), write(value), show(value)}], controls (the form's fields), fromRecord(record) →
 * {unit: value}, toBody(record, values)}; `onSaved(record)` after a save.
 */
function editDialog(spec, { opener, onSaved }) {
  const { dialog, close } = modal(spec.title, opener);
  const box = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  dialog.append(box);
  let record = null; // as last read
  let etag = null;
  let base = null; // the units' values as last read: what the changes typed here are measured from

  loadInto(box, () => api.request('GET', spec.path), ({ data, etag: tag }) => {
    record = data;
    etag = tag ?? data.version;
    base = spec.fromRecord(data);
    draw();
  });

  const conflictBox = h('div', { class: 'conflict-box' });
  const status = h('div', { role: 'status' });
  const save = h('button', { type: 'submit', class: 'button primary' }, 'Save');
  const form = h('form', { class: 'stack-form', novalidate: true },
    spec.controls,
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    conflictBox, status,
    h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Cancel'), save));

  function fill(values) { for (const unit of spec.units) unit.write(values[unit.name]); }
  function typed() { return Object.fromEntries(spec.units.map((u) => [u.name, u.read()])); }
  /** The units changed here since the record was read. */
  function changes() {
    const now = typed();
    return Object.fromEntries(spec.units.filter((u) => !same(now[u.name], base[u.name])).map((u) => [u.name, now[u.name]]));
  }

  function draw() {
    fill(base);
    replace(box, form);
    form.querySelector('input, select, textarea')?.focus();
  }

  async function send(values, button) {
    return submitForm(form, button, async () => {
      // Offline the outbox keeps the version edited (base), for a conflict when it is sent.
      const answer = await api.request('PUT', spec.path, { body: spec.toBody(record, values), ifMatch: etag, queue: { base: spec.toBody(record, base), label: `${spec.noun}’s details` } });
      toast(`${spec.noun} saved`, 'success');
      announce(`${spec.noun} saved`);
      close();
      onSaved?.(answer.data);
      return true;
    }, {
      label: 'Saving…', focus: true,
      handle: (error) => {
        if (error.queued) { toast(`${spec.noun}: saved on this device — waiting to send`, 'info'); close(); return true; }
        if (error.status !== 412) return false;
        changedMeanwhile();
        return true;
      },
    });
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    replace(status);
    const local = spec.check?.(typed()) || [];
    if (local.length) { showErrors(form, local); form.querySelector('[aria-invalid="true"]')?.focus(); return; }
    const mine = changes();
    if (!Object.keys(mine).length) { replace(status, h('p', { class: 'notice notice-success' }, 'Nothing has changed.')); return; }
    await send({ ...base, ...mine }, save);
  });

  /** Someone else saved first: what is stored now beside the changes typed here. */
  async function changedMeanwhile() {
    const mine = changes();
    let current;
    try { current = await api.request('GET', spec.path); } catch (error) {
      replace(conflictBox, notice(`Someone else changed this ${spec.noun.toLowerCase()} meanwhile, and it cannot be read again: ${problemText(error)}`));
      return;
    }
    const now = spec.fromRecord(current.data);
    const rows = spec.units.filter((u) => u.name in mine || !same(now[u.name], base[u.name])).map((u) => {
      const theirs = !same(now[u.name], base[u.name]);
      const ours = u.name in mine;
      return h('tr', { dataset: { unit: u.name } },
        h('th', { scope: 'row' }, u.label),
        h('td', { class: 'stored-now' }, u.show(now[u.name]) || '—', theirs ? h('span', { class: 'chip chip-warning' }, ' changed meanwhile') : null),
        h('td', { class: 'typed-here' }, ours ? u.show(mine[u.name]) || '—' : h('span', { class: 'muted' }, 'unchanged')));
    });
    const apply = h('button', { type: 'button', class: 'button primary', dataset: { action: 'reapply' } }, 'Apply my changes to the current version');
    const restart = h('button', { type: 'button', class: 'button', dataset: { action: 'restart' } }, 'Discard mine and edit the current version');
    const both = Object.keys(mine).filter((name) => !same(now[name], base[name]));
    replace(conflictBox, h('section', { class: 'notice notice-warning conflict', role: 'alert', 'aria-labelledby': 'conflict-title' },
      h('h3', { id: 'conflict-title' }, `Changed by someone else`),
      h('p', {}, `This ${spec.noun.toLowerCase()} was changed by someone else after you opened it, so nothing was saved. `
        + 'Here is what is stored now beside your changes.'
        + (both.length ? ` Both of you changed: ${both.map((n) => spec.units.find((u) => u.name === n).label).join(', ')} — applying yours replaces theirs.` : '')),
      h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Stored now and your changes' },
        h('table', { class: 'data-table conflict-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, 'Stored now'), h('th', { scope: 'col' }, 'Your change'))),
          h('tbody', {}, rows))),
      h('div', { class: 'row wrap' }, apply, restart)));
    announce(`Changed by someone else meanwhile; nothing was saved.`, { assertive: true });
    apply.addEventListener('click', async () => {
      // From the version stored now, with the changes typed here on top.
      record = current.data;
      etag = current.etag ?? current.data.version;
      base = now;
      const values = { ...now, ...mine };
      fill(values);
      replace(conflictBox);
      await send(values, apply.isConnected ? apply : save);
    });
    restart.addEventListener('click', () => {
      record = current.data;
      etag = current.etag ?? current.data.version;
      base = now;
      fill(base);
      replace(conflictBox);
      replace(status, h('p', { class: 'notice notice-success' }, 'The form shows what is stored now.'));
      form.querySelector('input, select, textarea')?.focus();
    });
    conflictBox.querySelector('h3')?.setAttribute('tabindex', '-1');
    conflictBox.querySelector('h3')?.focus();
  }
}

// MARK: - Units: one value each, read from and written to the form's controls

function textUnit(name, label, input) {
  return { name, label, read: () => text(input), write: (v) => { input.value = v ?? ''; }, show: (v) => v || '' };
}

// MARK: - Owner

/** Opens the dialog that edits owner `ownerId`. */
export function editOwner(ownerId, options) {
  const c = {
    firstName: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    lastName: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    email: h('input', { type: 'text', inputmode: 'email', maxlength: 254, autocomplete: 'off', spellcheck: 'false' }),
    line1: h('input', { type: 'text', maxlength: 200, autocomplete: 'off' }),
    line2: h('input', { type: 'text', maxlength: 200, autocomplete: 'off' }),
    city: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    postcode: h('input', { type: 'text', maxlength: 20, autocomplete: 'off' }),
    country: h('input', { type: 'text', maxlength: 60, autocomplete: 'off' }),
    channel: select(CHANNELS.map((ch) => [ch, words(ch === 'sms' ? 'SMS' : ch)]), { blank: 'Not recorded' }),
    reminders: h('input', { type: 'checkbox', id: uid('reminders') }),
    marketing: h('input', { type: 'checkbox', id: uid('marketing') }),
    notes: h('textarea', { rows: 2, maxlength: 4000 }),
  };
  c.channel.dataset.field = 'communication';
  const phoneBox = h('div', { class: 'phone-rows' });
  const addPhone = h('button', { type: 'button', class: 'button' }, 'Add a phone');
  let phoneRows = [];
  function phoneRow(phone, i) {
    const labels = PHONE_LABELS.includes(phone?.label) || !phone?.label ? PHONE_LABELS : [...PHONE_LABELS, phone.label];
    const label = select(labels.map((l) => [l, words(l)]), { value: phone?.label || 'mobile' });
    const number = h('input', { type: 'text', inputmode: 'tel', maxlength: 30, autocomplete: 'off', value: phone?.number || '' });
    return { label, number, element: h('div', { class: 'grid-fields phone-row' },
      field(`Phone ${i + 1}`, number, { fieldName: `phones[${i}].number` }),
      field(`Phone ${i + 1} kind`, label, { fieldName: `phones[${i}].label` })) };
  }
  function drawPhones(phones) {
    const list = [...(phones || [])];
    if (!list.length) list.push(null);
    phoneRows = list.map(phoneRow);
    replace(phoneBox, phoneRows.map((r) => r.element));
    addPhone.hidden = phoneRows.length >= 5;
  }
  addPhone.addEventListener('click', () => {
    const row = phoneRow(null, phoneRows.length);
    phoneRows.push(row);
    phoneBox.append(row.element);
    addPhone.hidden = phoneRows.length >= 5;
    row.number.focus();
  });
  const phones = {
    name: 'phones', label: 'Phones',
    read: () => phoneRows.filter((r) => text(r.number)).map((r) => ({ label: r.label.value, number: text(r.number) })),
    write: (v) => drawPhones(v),
    show: (v) => (v || []).map((p) => `${p.number} (${words(p.label)})`).join(', '),
  };
  const address = {
    name: 'address', label: 'Address',
    read: () => {
      const parts = { line1: text(c.line1), line2: text(c.line2), city: text(c.city), postcode: text(c.postcode), country: text(c.country) };
      if (!Object.values(parts).some(Boolean)) return null;
      if (!parts.line2) delete parts.line2;
      return parts;
    },
    write: (v) => { for (const k of ['line1', 'line2', 'city', 'postcode', 'country']) c[k].value = v?.[k] || ''; },
    show: (v) => (v ? [v.line1, v.line2, v.city, v.postcode, v.country].filter(Boolean).join(', ') : ''),
  };
  const communication = {
    name: 'communication', label: 'Contact preferences',
    read: () => (c.channel.value ? { preferredChannel: c.channel.value, reminders: c.reminders.checked, marketing: c.marketing.checked } : null),
    write: (v) => { c.channel.value = v?.preferredChannel || ''; c.reminders.checked = Boolean(v?.reminders); c.marketing.checked = Boolean(v?.marketing); },
    show: (v) => (v ? `${words(v.preferredChannel === 'sms' ? 'SMS' : v.preferredChannel)}; reminders ${v.reminders ? 'yes' : 'no'}; marketing ${v.marketing ? 'yes' : 'no'}` : ''),
  };
  const units = [
    textUnit('firstName', 'First name', c.firstName), textUnit('lastName', 'Last name', c.lastName), phones,
    textUnit('email', 'Email', c.email), address, communication, textUnit('notes', 'Notes', c.notes),
  ];
  const check = (c2) => [
    !c2.firstName && { field: 'firstName', message: 'Enter the first name.' },
    !c2.lastName && { field: 'lastName', message: 'Enter the last name.' },
  ].filter(Boolean);
  const controls = [
    h('div', { class: 'grid-fields' },
      field('First name', c.firstName, { fieldName: 'firstName' }),
      field('Last name', c.lastName, { fieldName: 'lastName' }),
      field('Email', c.email, { fieldName: 'email' })),
    h('fieldset', { class: 'edit-group' }, h('legend', {}, 'Phones'), phoneBox, addPhone),
    h('fieldset', { class: 'edit-group' }, h('legend', {}, 'Address'),
      h('div', { class: 'grid-fields' },
        field('Address line 1', c.line1, { fieldName: 'address.line1' }),
        field('Address line 2', c.line2, { fieldName: 'address.line2' }),
        field('Town or city', c.city, { fieldName: 'address.city' }),
        field('Postcode', c.postcode, { fieldName: 'address.postcode' }),
        field('Country', c.country, { fieldName: 'address.country' }))),
    h('fieldset', { class: 'edit-group' }, h('legend', {}, 'Contact preferences'),
      h('div', { class: 'grid-fields' },
        field('Preferred channel', c.channel),
        h('div', { class: 'field check' }, c.reminders, h('label', { for: c.reminders.id }, 'Reminders')),
        h('div', { class: 'field check' }, c.marketing, h('label', { for: c.marketing.id }, 'Marketing')))),
    field('Notes', c.notes, { fieldName: 'notes', wide: true }),
  ];
  editDialog({
    title: 'Edit owner', noun: 'Owner', path: `/owners/${encodeURIComponent(ownerId)}`, units, controls, check,
    fromRecord: (o) => ({
      firstName: o.firstName || '', lastName: o.lastName || '', email: o.email || '', notes: o.notes || '',
      phones: (o.phones || []).map((p) => ({ label: p.label, number: p.number })),
      address: o.address ? Object.fromEntries(['line1', 'line2', 'city', 'postcode', 'country'].filter((k) => o.address[k]).map((k) => [k, o.address[k]])) : null,
      communication: o.communication ? { preferredChannel: o.communication.preferredChannel, reminders: Boolean(o.communication.reminders), marketing: Boolean(o.communication.marketing) } : null,
    }),
    toBody: (o, v) => {
      const body = { firstName: v.firstName, lastName: v.lastName };
      if (v.email) body.email = v.email;
      if (v.phones?.length) body.phones = v.phones;
      if (v.address) body.address = v.address;
      if (v.communication) body.communication = v.communication;
      if (v.notes) body.notes = v.notes;
      return body;
    },
  }, options);
}

// MARK: - Patient

/** Opens the dialog that edits patient `patientId`, its status (active, deceased, archived) too. */
export function editPatient(patientId, options) {
  const speciesList = catalogue.species();
  const sexList = catalogue.sexes();
  const c = {
    name: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    species: select((speciesList.length ? speciesList : ['dog', 'cat', 'rabbit', 'ferret', 'bird', 'horse', 'reptile', 'other']).map((s) => [s, words(s)])),
    breed: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    sex: select(sexList.map((s) => [s, words(s)]), { blank: 'Not recorded' }),
    birthDate: h('input', { type: 'date' }),
    estimated: h('input', { type: 'checkbox', id: uid('estimated') }),
    colour: h('input', { type: 'text', maxlength: 100, autocomplete: 'off' }),
    microchip: h('input', { type: 'text', inputmode: 'numeric', maxlength: 15, autocomplete: 'off' }),
    status: select(STATUSES.map((s) => [s, words(s)])),
    alerts: h('textarea', { rows: 2 }),
  };
  c.estimated.dataset.field = 'birthDateEstimated';
  const choice = (input) => ({ read: () => input.value, write: (v) => {
    if (v && ![...input.options].some((o) => o.value === v)) input.append(h('option', { value: v }, words(v)));
    input.value = v ?? '';
  } });
  const units = [
    textUnit('name', 'Name', c.name),
    { name: 'species', label: 'Species', ...choice(c.species), show: words },
    textUnit('breed', 'Breed', c.breed),
    { name: 'sex', label: 'Sex', ...choice(c.sex), show: words },
    { name: 'birthDate', label: 'Date of birth', read: () => c.birthDate.value, write: (v) => { c.birthDate.value = v || ''; }, show: plainDate },
    { name: 'birthDateEstimated', label: 'Date of birth estimated', read: () => c.estimated.checked, write: (v) => { c.estimated.checked = Boolean(v); }, show: (v) => (v ? 'yes' : 'no') },
    textUnit('colour', 'Colour', c.colour),
    textUnit('microchip', 'Microchip', c.microchip),
    { name: 'status', label: 'Status', ...choice(c.status), show: words },
    { name: 'alerts', label: 'Alerts', read: () => c.alerts.value.split('\n').map((l) => l.trim()).filter(Boolean),
      write: (v) => { c.alerts.value = (v || []).join('\n'); }, show: (v) => (v || []).join('; ') },
  ];
  const statusHint = 'Deceased and archived patients leave the active lists; archiving starts the retention period.';
  const controls = [
    h('div', { class: 'grid-fields' },
      field('Name', c.name, { fieldName: 'name' }),
      field('Species', c.species, { fieldName: 'species' }),
      field('Breed', c.breed, { fieldName: 'breed' }),
      field('Sex', c.sex, { fieldName: 'sex' }),
      field('Date of birth', c.birthDate, { fieldName: 'birthDate' }),
      h('div', { class: 'field check' }, c.estimated, h('label', { for: c.estimated.id }, 'Date of birth estimated')),
      field('Colour', c.colour, { fieldName: 'colour' }),
      field('Microchip', c.microchip, { fieldName: 'microchip', hint: '15 digits' }),
      field('Status', c.status, { fieldName: 'status', hint: statusHint })),
    field('Alerts, one a line', c.alerts, { fieldName: 'alerts', wide: true, hint: 'Shown on the record and the ER board (for example “Bites — muzzle”).' }),
  ];
  const check = (v) => [
    !v.name && { field: 'name', message: 'Enter the patient’s name.' },
    v.microchip && !/^\d{15}$/.test(v.microchip) && { field: 'microchip', message: 'A microchip number is 15 digits.' },
  ].filter(Boolean);
  editDialog({
    title: 'Edit patient', noun: 'Patient', path: `/patients/${encodeURIComponent(patientId)}`, units, controls, check,
    fromRecord: (p) => ({
      name: p.name || '', species: p.species, breed: p.breed || '', sex: p.sex || '', birthDate: p.birthDate || '',
      birthDateEstimated: Boolean(p.birthDateEstimated), colour: p.colour || '', microchip: p.microchip || '', status: p.status || 'active',
      alerts: p.alerts || [],
    }),
    toBody: (p, v) => {
      const body = { name: v.name, species: v.species, ownerId: p.ownerId, status: v.status, alerts: v.alerts };
      if (p.coOwnerId) body.coOwnerId = p.coOwnerId;
      for (const key of ['breed', 'sex', 'birthDate', 'colour', 'microchip']) if (v[key]) body[key] = v[key];
      if (v.birthDate && v.birthDateEstimated) body.birthDateEstimated = true;
      return body;
    },
  }, options);
}
