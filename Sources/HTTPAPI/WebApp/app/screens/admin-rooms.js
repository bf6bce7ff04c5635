// Admin → Types and rooms → Rooms: the table of rooms (kind, in or out of service) and a
// room's edit dialog (its name, and taking it out of service: it then stops counting for free
// slots, and appointments already in it stay).

import * as api from '../api.js';
import { h, replace, field, words, showErrors, clearErrors, uid } from '../ui.js';
import { loadInto } from '../forms.js';
import { dialogWith, saveFromDialog } from './admin-dialog.js';

/** Loads the rooms into `box`: a table, each room with Edit. `ctx`: the admin screen. */
export function loadRooms(ctx, box) {
  return loadInto(box, () => api.get('/rooms'), ({ items }) => {
    replace(box, items.length ? h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Table of rooms' }, h('table', { class: 'data-table setup-table' },
      h('thead', {}, h('tr', {}, ['Room', 'Kind', 'Status', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, items.map((r) => {
        const edit = h('button', { type: 'button', class: 'button', dataset: { action: 'edit-room' }, 'aria-label': `Edit ${r.name}` }, 'Edit');
        edit.addEventListener('click', () => editRoom(ctx, r, edit, box));
        return h('tr', { dataset: { room: r.id } },
          h('th', { scope: 'row' }, r.name),
          h('td', {}, words(r.type)),
          h('td', {}, r.active ? h('span', { class: 'chip chip-ok' }, 'In service') : h('span', { class: 'chip chip-warning' }, 'Out of service')),
          h('td', {}, edit));
      })))) : h('p', { class: 'muted' }, 'No rooms yet.'));
  }, { alive: ctx.alive });
}

function editRoom(ctx, r, opener, box) {
  const { dialog, close, cancel } = dialogWith(`Edit ${r.name}`, opener, 'room-dialog');
  const name = h('input', { type: 'text', autocomplete: 'off', maxlength: 60, value: r.name });
  const out = h('input', { type: 'checkbox', id: uid('out-of-service'), checked: !r.active });
  const save = h('button', { type: 'submit', class: 'button primary' }, 'Save');
  const form = h('form', { class: 'stack-form', novalidate: true },
    field('Name', name, { fieldName: 'name' }),
    h('div', { class: 'field check', dataset: { field: 'active' } }, out, h('label', { for: out.id }, 'Out of service')),
    h('p', { class: 'hint' }, 'A room out of service stops counting for free slots; appointments already in it stay.'),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row end' }, cancel, save));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!name.value.trim()) { showErrors(form, [{ field: 'name', message: 'Enter the name.' }]); name.focus(); return; }
    const change = {};
    if (name.value.trim() !== r.name) change.name = name.value.trim();
    if (out.checked === r.active) change.active = !out.checked;
    if (!Object.keys(change).length) { close(); return; }
    await saveFromDialog(form, save, `/rooms/${r.id}`, change, close, () => { if (ctx.alive()) loadRooms(ctx, box); });
  });
  dialog.append(form);
  dialog.showModal();
  name.focus();
}
