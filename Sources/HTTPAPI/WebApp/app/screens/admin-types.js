// Admin → Types and rooms → Appointment types: the table of types (duration, buffer after, fee,
// offered or retired), a type's edit dialog, and retiring one (kept for the appointments that
// name it, but no longer offered or booked). Appointments already booked keep their times.

import * as api from '../api.js';
import { h, replace, field, toast, plainDate, showErrors, clearErrors, announce } from '../ui.js';
import { act, loadInto } from '../forms.js';
import { dialogWith, saveFromDialog } from './admin-dialog.js';

/** A fee in minor units, as money in its currency. */
function money(minor, currency) {
  try { return new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency || 'GBP' }).format((minor || 0) / 100); } catch { return `${((minor || 0) / 100).toFixed(2)} ${currency || ''}`; }
}

/** Loads the appointment types into `box`: a table, retired ones last, each offered one with
 *  Edit and Retire. `ctx`: the admin screen. */
export function loadTypes(ctx, box) {
  return loadInto(box, () => api.get('/appointment-types'), ({ items }) => {
    const rows = [...items].sort((a, b) => Number(Boolean(a.retiredAt)) - Number(Boolean(b.retiredAt)) || a.name.localeCompare(b.name));
    replace(box, rows.length ? h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Table of appointment types' }, h('table', { class: 'data-table setup-table' },
      h('thead', {}, h('tr', {}, ['Type', 'Duration', 'Buffer after', 'Fee', 'Status', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.map((t) => {
        const edit = t.retiredAt ? null : h('button', { type: 'button', class: 'button', dataset: { action: 'edit-type' }, 'aria-label': `Edit ${t.name}` }, 'Edit');
        const retire = t.retiredAt ? null : h('button', { type: 'button', class: 'button', dataset: { action: 'retire-type' }, 'aria-label': `Retire ${t.name}` }, 'Retire');
        edit?.addEventListener('click', () => editType(ctx, t, edit, box));
        retire?.addEventListener('click', () => retireType(ctx, t, retire, box));
        return h('tr', { dataset: { type: t.id }, class: t.retiredAt ? 'retired' : null },
          h('th', { scope: 'row' }, t.name),
          h('td', {}, `${t.defaultDurationMinutes} min`),
          h('td', {}, `${t.bufferAfterMinutes} min`),
          h('td', {}, money(t.feeMinorUnits, t.currency)),
          h('td', {}, t.retiredAt ? h('span', { class: 'chip chip-warning' }, `Retired ${plainDate(t.retiredAt.slice(0, 10))}`) : h('span', { class: 'chip chip-ok' }, 'Offered')),
          h('td', {}, h('div', { class: 'row wrap' }, edit, retire)));
      })))) : h('p', { class: 'muted' }, 'No appointment types yet.'));
  }, { alive: ctx.alive });
}

function editType(ctx, t, opener, box) {
  const { dialog, close, cancel } = dialogWith(`Edit ${t.name}`, opener, 'type-dialog');
  const name = h('input', { type: 'text', autocomplete: 'off', maxlength: 80, value: t.name });
  const duration = h('input', { type: 'number', min: 1, max: 720, step: 1, inputmode: 'numeric', value: t.defaultDurationMinutes });
  const buffer = h('input', { type: 'number', min: 0, max: 240, step: 1, inputmode: 'numeric', value: t.bufferAfterMinutes });
  const fee = h('input', { type: 'number', min: 0, step: '0.01', inputmode: 'decimal', value: ((t.feeMinorUnits || 0) / 100).toFixed(2) });
  const save = h('button', { type: 'submit', class: 'button primary' }, 'Save');
  const form = h('form', { class: 'stack-form', novalidate: true },
    h('div', { class: 'grid-fields' },
      field('Name', name, { fieldName: 'name' }),
      field('Duration', duration, { fieldName: 'defaultDurationMinutes', unit: 'min' }),
      field('Buffer after', buffer, { fieldName: 'bufferAfterMinutes', unit: 'min' }),
      field('Fee', fee, { fieldName: 'feeMinorUnits', unit: t.currency || 'GBP' })),
    h('p', { class: 'hint' }, 'Appointments already booked keep their times.'),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row end' }, cancel, save));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const local = [];
    const whole = (input, min, max) => /^\d+$/.test(input.value.trim()) && Number(input.value) >= min && Number(input.value) <= max;
    if (!name.value.trim()) local.push({ field: 'name', message: 'Enter the name.' });
    if (!whole(duration, 1, 720)) local.push({ field: 'defaultDurationMinutes', message: 'Enter whole minutes from 1 to 720.' });
    if (!whole(buffer, 0, 240)) local.push({ field: 'bufferAfterMinutes', message: 'Enter whole minutes from 0 to 240.' });
    if (fee.value.trim() === '' || !(Number(fee.value) >= 0)) local.push({ field: 'feeMinorUnits', message: 'Enter the fee (0 or more).' });
    if (local.length) { showErrors(form, local); form.querySelector('[aria-invalid="true"]')?.focus(); return; }
    const change = {};
    if (name.value.trim() !== t.name) change.name = name.value.trim();
    if (Number(duration.value) !== t.defaultDurationMinutes) change.defaultDurationMinutes = Number(duration.value);
    if (Number(buffer.value) !== t.bufferAfterMinutes) change.bufferAfterMinutes = Number(buffer.value);
    const minor = Math.round(Number(fee.value) * 100);
    if (minor !== t.feeMinorUnits) change.feeMinorUnits = minor;
    if (!Object.keys(change).length) { close(); return; }
    await saveFromDialog(
      form, save, `/appointment-types/${t.id}`, change, close, () => { if (ctx.alive()) loadTypes(ctx, box); });
  });
  dialog.append(form);
  dialog.showModal();
  name.focus();
}

function retireType(ctx, t, opener, box) {
  const { dialog, close, cancel } = dialogWith(`Retire ${t.name}?`, opener, 'retire-dialog');
  const message = h('div');
  const confirm = h('button', { type: 'button', class: 'button danger', dataset: { action: 'confirm-retire' } }, 'Retire');
  confirm.addEventListener('click', () => act(confirm, async () => {
    await api.post(`/appointment-types/${t.id}/retire`, {});
    close();
    toast(`${t.name} retired`, 'success');
    announce(`${t.name} retired`);
    if (ctx.alive()) loadTypes(ctx, box);
  }, { label: 'Retiring…', into: message }));
  dialog.append(h('p', {}, 'It is kept: past appointments still name it and booked ones may still be moved, but no free slot is offered and nothing new is booked as it.'),
    message, h('div', { class: 'row end' }, cancel, confirm));
  dialog.showModal();
  cancel.focus();
}
