// Administration: staff accounts and roles, the audit trail with its verification, and the
// practice's settings.

import * as api from '../api.js';
import { h, replace, field, select, busy, notice, toast, words, dateTime, showErrors, clearErrors } from '../ui.js';

const ROLES = ['administrator', 'veterinarian', 'technician', 'receptionist'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function render(container, { session, query }) {
  let alive = true;
  const tabs = [
    session.can('manageStaff') && ['users', 'Staff accounts'],
    session.can('readAudit') && ['audit', 'Audit trail'],
    ['practice', 'Practice settings'],
  ].filter(Boolean);
  const tab = tabs.some(([key]) => key === query.tab) ? query.tab : tabs[0][0];
  const body = h('div', { class: 'admin-body' });
  replace(container, h('section', { class: 'screen admin', 'aria-labelledby': 'admin-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'admin-title' }, 'Administration')),
    h('nav', { class: 'segmented', 'aria-label': 'Administration sections' }, tabs.map(([key, label]) =>
      h('a', { href: `#/admin?tab=${key}`, 'aria-current': key === tab ? 'page' : null }, label))),
    body));

  const users = new Map();

  // MARK: - Staff accounts

  async function showUsers() {
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
      clearErrors(form);
      await busy(form.querySelector('button'), async () => {
        try {
          await api.post('/users', { email: email.value.trim(), displayName: name.value.trim(), role: role.value, password: password.value }, { idempotencyKey: api.newKey() });
          toast(`Account for ${name.value.trim()} added`, 'success');
          form.reset();
          loadUsers(list);
        } catch (error) {
          if (error.errors.length) showErrors(form, error.errors); else { const box = form.querySelector('.form-errors'); box.hidden = false; replace(box, h('p', {}, error.message)); }
        }
      }, 'Adding…');
    });
    replace(body, h('section', { class: 'panel glass', 'aria-labelledby': 'users-title' }, h('h2', { id: 'users-title' }, 'Staff accounts'), list), form);
    loadUsers(list);
  }

  async function loadUsers(list) {
    try {
      const all = [];
      let cursor;
      for (let i = 0; i < 10; i += 1) {
        const page = await api.get('/users', { limit: 200, cursor });
        all.push(...page.items);
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      if (!alive) return;
      all.forEach((u) => users.set(u.id, u));
      // A phone scrolls the table, not the page.
      replace(list, h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Staff accounts' }, h('table', { class: 'data-table' },
        h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Status', ''].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, all.map((u) => userRow(u, list))))));
    } catch (error) { if (alive) replace(list, notice(error.message)); }
  }

  function userRow(u, list) {
    const self = u.id === session.user.id;
    const role = select(ROLES.map((r) => [r, words(r)]), { value: u.role, 'aria-label': `Role of ${u.displayName}`, disabled: self });
    role.addEventListener('change', () => update(u, { role: role.value }, list, role));
    const toggle = h('button', { type: 'button', class: ['button', u.disabled ? '' : 'quiet'], disabled: self }, u.disabled ? 'Enable' : 'Disable');
    toggle.setAttribute('aria-label', `${u.disabled ? 'Enable' : 'Disable'} ${u.displayName}`);
    toggle.addEventListener('click', () => update(u, { disabled: !u.disabled }, list, toggle));
    return h('tr', {}, h('td', {}, u.displayName, self ? ' (you)' : ''), h('td', {}, u.email), h('td', {}, role),
      h('td', {}, u.disabled ? 'Disabled' : 'Active'), h('td', {}, toggle));
  }

  async function update(u, change, list, control) {
    control.disabled = true;
    try {
      await api.patch(`/users/${u.id}`, change, { ifMatch: u.version });
      toast(`${u.displayName} updated`, 'success');
    } catch (error) {
      toast(error.status === 412 ? 'The account changed meanwhile; the list is reloaded.' : error.message, 'error');
    }
    loadUsers(list);
  }

  // MARK: - Audit trail

  function showAudit() {
    const resourceType = select(['patient', 'owner', 'appointment', 'triage', 'clinician', 'user', 'session', 'vaccination', 'room'].map((t) => [t, words(t)]), { blank: 'Any resource' });
    const resourceId = h('input', { type: 'text', autocomplete: 'off', placeholder: 'id of the patient, appointment…' });
    const action = h('input', { type: 'search', placeholder: 'e.g. record.read' });
    const actor = h('input', { type: 'search', placeholder: 'name or id' });
    const verifyBox = h('div', { 'aria-live': 'polite' });
    const verify = h('button', { type: 'button', class: 'button primary' }, 'Verify the audit chain');
    const table = h('div', {});
    const more = h('button', { type: 'button', class: 'button', hidden: true }, 'Older entries');
    let entries = [];
    let cursor = null;

    verify.addEventListener('click', () => busy(verify, async () => {
      try {
        const result = await api.get('/audit/verify');
        replace(verifyBox, h('div', { class: ['notice', result.intact ? 'notice-success' : 'notice-error'], role: 'status' },
          h('strong', {}, result.intact ? 'Intact.' : 'The chain is broken.'),
          ` ${result.checked} entries of this practice checked; newest hash ${String(result.headHash).slice(0, 16)}…`,
          result.firstProblem ? h('p', {}, `First problem: entry ${result.firstProblem.sequence}${result.firstProblem.id ? ` (${result.firstProblem.id})` : ''} — ${result.firstProblem.reason}`) : null));
      } catch (error) { replace(verifyBox, notice(error.message)); }
    }, 'Verifying…'));

    async function load(reset) {
      if (reset) { entries = []; cursor = null; }
      try {
        const page = await api.get('/audit', { limit: 100, cursor: cursor || undefined, resourceType: resourceType.value, resourceId: resourceId.value.trim() });
        if (!alive) return;
        entries.push(...page.items);
        cursor = page.nextCursor || null;
        more.hidden = !cursor;
        draw();
      } catch (error) { replace(table, notice(error.message)); }
    }

    function draw() {
      const a = action.value.trim().toLowerCase();
      const who = actor.value.trim().toLowerCase();
      const shown = entries.filter((e) => (!a || e.action.toLowerCase().includes(a))
        && (!who || (e.actorId || '').toLowerCase().includes(who) || (users.get(e.actorId)?.displayName || '').toLowerCase().includes(who)));
      replace(table, h('p', { class: 'muted' }, `${shown.length} of ${entries.length} loaded entries`),
        h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Audit entries' }, h('table', { class: 'data-table' },
          h('thead', {}, h('tr', {}, ['#', 'When', 'Who', 'Action', 'Resource', 'Outcome', 'Detail'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, shown.map((e) => h('tr', { class: e.outcome !== 'success' ? 'row-flag' : null },
            h('td', {}, String(e.sequence)), h('td', {}, dateTime(e.occurredAt)), h('td', {}, users.get(e.actorId)?.displayName || e.actorId || '—'),
            h('td', {}, h('code', {}, e.action)), h('td', {}, `${e.resourceType}${e.resourceId ? ` ${e.resourceId.slice(0, 8)}` : ''}`),
            h('td', {}, words(e.outcome)), h('td', {}, e.detail || '')))))));
    }

    const filters = h('form', { class: 'panel glass', role: 'search', 'aria-label': 'Filter the audit trail', on: { submit: (e) => { e.preventDefault(); load(true); } } },
      h('div', { class: 'grid-fields' },
        field('Resource', resourceType), field('Resource id', resourceId), field('Action contains', action), field('Who', actor)),
      h('button', { type: 'submit', class: 'button' }, 'Apply filters'));
    resourceType.addEventListener('change', () => load(true));
    action.addEventListener('input', draw);
    actor.addEventListener('input', draw);
    more.addEventListener('click', () => busy(more, () => load(false), 'Loading…'));
    replace(body, h('section', { class: 'panel glass', 'aria-labelledby': 'verify-title' }, h('h2', { id: 'verify-title' }, 'Tamper evidence'),
      h('p', {}, 'Every entry is chained to the one before by a keyed hash; verifying walks the whole chain.'), verify, verifyBox),
    filters, h('section', { 'aria-labelledby': 'trail-title' }, h('h2', { id: 'trail-title' }, 'Entries, newest first'), table, more));
    if (session.can('manageStaff') && !users.size) api.get('/users', { limit: 200 }).then((page) => { page.items.forEach((u) => users.set(u.id, u)); draw(); }).catch(() => {});
    load(true);
  }

  // MARK: - Practice

  function showPractice() {
    const p = session.practice;
    replace(body, h('section', { class: 'panel glass', 'aria-labelledby': 'practice-title' },
      h('h2', { id: 'practice-title' }, p.name),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Time zone'), h('dd', {}, p.timeZone),
        p.phone ? [h('dt', {}, 'Phone'), h('dd', {}, p.phone)] : null,
        p.address ? [h('dt', {}, 'Address'), h('dd', {}, p.address)] : null),
      h('table', { class: 'week-table' }, h('caption', {}, 'Opening hours'),
        h('tbody', {}, DAYS.map((day, i) => {
          const hours = p.openingHours.find((o) => o.weekday === i + 1);
          return h('tr', {}, h('th', { scope: 'row' }, day), h('td', {}, hours ? `${hours.opens}–${hours.closes}` : 'Closed'));
        }))),
      h('p', { class: 'muted' }, 'These settings are shown as the server holds them; the API offers no way to change them yet.')));
  }

  if (tab === 'users') showUsers(); else if (tab === 'audit') showAudit(); else showPractice();
  return () => { alive = false; };
}
