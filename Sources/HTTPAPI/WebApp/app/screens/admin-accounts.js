// Admin → Staff accounts: the practice's accounts with their roles, enabled or disabled and
// two-factor sign-in reset (each change sent with If-Match; an account changed meanwhile is
// reloaded), a form to add an account, and the shared devices below (admin-devices.js).
// `ctx` is the admin screen: {session, body, users (the accounts by id, for the audit
// trail's names), alive()}.

import * as api from '../api.js';
import { h, replace, field, select, toast, words } from '../ui.js';
import { loadInto, submitForm } from '../forms.js';
import { sharedDevices } from './admin-devices.js';

/** The staff roles, in the order they are offered. */
export const ROLES = ['administrator', 'veterinarian', 'technician', 'receptionist'];

/** Shows the staff accounts, the form adding one and the shared devices in `ctx.body`. */
export async function showUsers(ctx) {
  const list = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading…'));
  const email = h('input', { type: 'text', inputmode: 'email', autocomplete: 'off', spellcheck: 'false' });
  const name = h('input', { type: 'text', autocomplete: 'off' });
  const role = select(ROLES.map((r) => [r, words(r)]), { value: 'receptionist' });
  const password = h('input', { type: 'password', autocomplete: 'new-password' });
  const form = h('form', { class: 'panel glass stack-form', novalidate: true, 'aria-labelledby': 'new-user-title' },
    h('h2', { id: 'new-user-title' }, 'Add a staff account'),
    h('div', { class: 'grid-fields' },
      field('Email', email, { fieldName: 'email' }), field('Name', name, { fieldName: 'displayName' }),
      field('Role', role, { fieldName: 'role' }), field('First password', password, { fieldName: 'password', hint: '8 to 128 characters; not a common password' })),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('button', { type: 'submit', class: 'button primary' }, 'Add account'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await submitForm(form, form.querySelector('button'), async () => {
      await api.post('/users', { email: email.value.trim(), displayName: name.value.trim(), role: role.value, password: password.value }, { idempotencyKey: api.newKey() });
      toast(`Account for ${name.value.trim()} added`, 'success');
      form.reset();
      loadUsers(ctx, list);
    }, { label: 'Adding…' });
  });
  replace(ctx.body, h('section', { class: 'panel glass', 'aria-labelledby': 'users-title' }, h('h2', { id: 'users-title' }, 'Staff accounts'), list), form,
    sharedDevices(ctx));
  loadUsers(ctx, list);
}

function loadUsers(ctx, list) {
  return loadInto(list, async () => {
    const all = [];
    let cursor;
    for (let i = 0; i < 10; i += 1) {
      const page = await api.get('/users', { limit: 200, cursor });
      all.push(...page.items);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return all;
  }, (all) => {
    all.forEach((u) => ctx.users.set(u.id, u));
    // A phone scrolls the table, not the page.
    replace(list, h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Table of staff accounts' }, h('table', { class: 'data-table' },
      h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Status', ''].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, all.map((u) => userRow(ctx, u, list))))));
  }, { alive: ctx.alive });
}

function userRow(ctx, u, list) {
  const self = u.id === ctx.session.user.id;
  const role = select(ROLES.map((r) => [r, words(r)]), { value: u.role, 'aria-label': `Role of ${u.displayName}`, disabled: self });
  role.addEventListener('change', () => update(ctx, u, { role: role.value }, list, role));
  const toggle = h('button', { type: 'button', class: ['button', u.disabled ? '' : 'quiet'], disabled: self }, u.disabled ? 'Enable' : 'Disable');
  toggle.setAttribute('aria-label', `${u.disabled ? 'Enable' : 'Disable'} ${u.displayName}`);
  toggle.addEventListener('click', () => update(ctx, u, { disabled: !u.disabled }, list, toggle));
  // A lost phone and lost recovery codes: the person signs in with their password and sets up a new one.
  const reset = h('button', { type: 'button', class: 'button quiet', disabled: self }, 'Reset two-factor');
  reset.setAttribute('aria-label', `Reset two-factor sign-in of ${u.displayName}`);
  reset.addEventListener('click', async () => {
    if (!window.confirm(`Remove ${u.displayName}’s two-factor sign-in? Their sessions end; they sign in with their password and set up a new phone.`)) return;
    reset.disabled = true;
    try {
      await api.del(`/users/${u.id}/second-factor`);
      toast(`${u.displayName}’s two-factor sign-in was removed`, 'success');
    } catch (error) { toast(error.message, 'error'); }
    reset.disabled = false;
  });
  return h('tr', {}, h('td', {}, u.displayName, self ? ' (you)' : ''), h('td', {}, u.email), h('td', {}, role),
    h('td', {}, u.disabled ? 'Disabled' : 'Active'), h('td', {}, h('div', { class: 'row wrap' }, toggle, reset)));
}

async function update(ctx, u, change, list, control) {
  control.disabled = true;
  try {
    await api.patch(`/users/${u.id}`, change, { ifMatch: u.version });
    toast(`${u.displayName} updated`, 'success');
  } catch (error) {
    toast(error.status === 412 ? 'The account changed meanwhile; the list is reloaded.' : error.message, 'error');
  }
  loadUsers(ctx, list);
}
