// Admin → Audit trail: verifying the chain of audit entries (each chained to the one before by
// a keyed hash), and the entries newest first, filtered by resource on the server and by
// action or person among those loaded, with older entries loaded on request. People are
// named from the staff accounts (`ctx.users`), loaded here when the accounts tab was not.

import * as api from '../api.js';
import { h, replace, field, select, words, dateTime } from '../ui.js';
import { act, loadInto } from '../forms.js';

/** Shows the audit trail in `ctx.body`. */
export function showAudit(ctx) {
  const { session, users } = ctx;
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

  verify.addEventListener('click', () => act(verify, async () => {
    const result = await api.get('/audit/verify');
    replace(verifyBox, h('div', { class: ['notice', result.intact ? 'notice-success' : 'notice-error'], role: 'status' },
      h('strong', {}, result.intact ? 'Intact.' : 'The chain is broken.'),
      ` ${result.checked} entries of this practice checked; newest hash ${String(result.headHash).slice(0, 16)}…`,
      result.firstProblem ? h('p', {}, `First problem: entry ${result.firstProblem.sequence}${result.firstProblem.id ? ` (${result.firstProblem.id})` : ''} — ${result.firstProblem.reason}`) : null));
  }, { label: 'Verifying…', into: verifyBox }));

  function load(reset) {
    if (reset) { entries = []; cursor = null; }
    const query = { limit: 100, cursor: cursor || undefined, resourceType: resourceType.value, resourceId: resourceId.value.trim() };
    return loadInto(table, () => api.get('/audit', query), (page) => {
      entries.push(...page.items);
      cursor = page.nextCursor || null;
      more.hidden = !cursor;
      draw();
    }, { alive: ctx.alive });
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
  more.addEventListener('click', () => act(more, () => load(false), { label: 'Loading…' }));
  replace(ctx.body, h('section', { class: 'panel glass', 'aria-labelledby': 'verify-title' }, h('h2', { id: 'verify-title' }, 'Tamper evidence'),
    h('p', {}, 'Every entry is chained to the one before by a keyed hash; verifying walks the whole chain.'), verify, verifyBox),
  filters, h('section', { 'aria-labelledby': 'trail-title' }, h('h2', { id: 'trail-title' }, 'Entries, newest first'), table, more));
  if (session.can('manageStaff') && !users.size) api.get('/users', { limit: 200 }).then((page) => { page.items.forEach((u) => users.set(u.id, u)); draw(); }).catch(() => {});
  load(true);
}
