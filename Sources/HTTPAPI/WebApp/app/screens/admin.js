// Administration: staff accounts and roles, the audit trail with its verification, the
// practice's settings, and its appointment types and rooms (changed, retired or taken out of
// service: never deleted).

import * as api from '../api.js';
import { h, replace, field, select, notice, toast, words, dateTime, plainDate, showErrors, clearErrors, uid, announce, problemText } from '../ui.js';
import { act, loadInto, submitForm } from '../forms.js';

const ROLES = ['administrator', 'veterinarian', 'technician', 'receptionist'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function render(container, { session, query }) {
  let alive = true;
  const tabs = [
    session.can('manageStaff') && ['users', 'Staff accounts'],
    session.can('readAudit') && ['audit', 'Audit trail'],
    ['practice', 'Practice settings'],
    session.can('managePractice') && ['setup', 'Types and rooms'],
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
      await submitForm(form, form.querySelector('button'), async () => {
        await api.post('/users', { email: email.value.trim(), displayName: name.value.trim(), role: role.value, password: password.value }, { idempotencyKey: api.newKey() });
        toast(`Account for ${name.value.trim()} added`, 'success');
        form.reset();
        loadUsers(list);
      }, { label: 'Adding…' });
    });
    replace(body, h('section', { class: 'panel glass', 'aria-labelledby': 'users-title' }, h('h2', { id: 'users-title' }, 'Staff accounts'), list), form,
      sharedDevices());
    loadUsers(list);
  }

  // MARK: - Shared devices

  /** The practice's shared devices, and registering this browser as one. */
  function sharedDevices() {
    const list = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading…'));
    const name = h('input', { type: 'text', autocomplete: 'off', maxlength: 80, placeholder: 'Ward iPad' });
    const idle = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', value: '120' });
    const submit = h('button', { type: 'submit', class: 'button' }, 'Register this device');
    const form = h('form', { class: 'stack-form', novalidate: true },
      h('div', { class: 'grid-fields' }, field('Device name', name, { fieldName: 'name' }),
        field('Lock after', idle, { fieldName: 'idleLockSeconds', unit: 's', hint: '10 to 3600 seconds without use' })),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('div', { class: 'row wrap' }, submit));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const seconds = Number(idle.value.trim());
      if (!Number.isInteger(seconds)) { showErrors(form, [{ field: 'idleLockSeconds', message: 'Enter a whole number of seconds.' }]); idle.focus(); return; }
      const device = await submitForm(form, submit, () => api.post('/shared-devices', { name: name.value.trim(), idleLockSeconds: seconds }),
        { label: 'Registering…', focus: true });
      if (device) { toast(`This browser is now the shared device “${device.name}”`, 'success'); form.reset(); load(); }
    });
    function load() {
      loadInto(list, () => api.get('/shared-devices'), (answer) => {
        replace(list, answer.items.length
          ? h('ul', { class: 'device-list' }, answer.items.map((d) => {
            const revoke = h('button', { type: 'button', class: 'button quiet' }, 'Revoke');
            revoke.setAttribute('aria-label', `Revoke ${d.name}`);
            revoke.addEventListener('click', () => act(revoke, async () => {
              if (!window.confirm(`Revoke “${d.name}”? PINs stop working on it; staff sign in there with their password.`)) return;
              await api.del(`/shared-devices/${d.id}`);
              toast(`${d.name} revoked`, 'success');
              load();
            }, { label: 'Revoking…' }));
            return h('li', { class: 'row wrap' }, h('span', {}, h('strong', {}, d.name), ` · locks after ${d.idleLockSeconds} s · registered ${dateTime(d.registeredAt)}`), revoke);
          }))
          : h('p', { class: 'muted' }, 'No device is registered as shared.'));
      }, { alive: () => alive });
    }
    load();
    return h('section', { class: 'panel glass', 'aria-labelledby': 'devices-title' },
      h('h2', { id: 'devices-title' }, 'Shared devices'),
      h('p', {}, 'On a registered device (a ward or reception iPad) staff unlock with their own PIN, within 12 hours of signing in there with their password; it locks itself after the time set here.'),
      list, form);
  }

  function loadUsers(list) {
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
      all.forEach((u) => users.set(u.id, u));
      // A phone scrolls the table, not the page.
      replace(list, h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Table of staff accounts' }, h('table', { class: 'data-table' },
        h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Status', ''].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, all.map((u) => userRow(u, list))))));
    }, { alive: () => alive });
  }

  function userRow(u, list) {
    const self = u.id === session.user.id;
    const role = select(ROLES.map((r) => [r, words(r)]), { value: u.role, 'aria-label': `Role of ${u.displayName}`, disabled: self });
    role.addEventListener('change', () => update(u, { role: role.value }, list, role));
    const toggle = h('button', { type: 'button', class: ['button', u.disabled ? '' : 'quiet'], disabled: self }, u.disabled ? 'Enable' : 'Disable');
    toggle.setAttribute('aria-label', `${u.disabled ? 'Enable' : 'Disable'} ${u.displayName}`);
    toggle.addEventListener('click', () => update(u, { disabled: !u.disabled }, list, toggle));
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
      }, { alive: () => alive });
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
    replace(body, h('section', { class: 'panel glass', 'aria-labelledby': 'verify-title' }, h('h2', { id: 'verify-title' }, 'Tamper evidence'),
      h('p', {}, 'Every entry is chained to the one before by a keyed hash; verifying walks the whole chain.'), verify, verifyBox),
    filters, h('section', { 'aria-labelledby': 'trail-title' }, h('h2', { id: 'trail-title' }, 'Entries, newest first'), table, more));
    if (session.can('manageStaff') && !users.size) api.get('/users', { limit: 200 }).then((page) => { page.items.forEach((u) => users.set(u.id, u)); draw(); }).catch(() => {});
    load(true);
  }

  // MARK: - Practice

  const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
  const CLOSES = /^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/;

  /** Loads the practice's settings and shows them (`message`: a word on what just happened). */
  function showPractice(message) {
    if (!body.childElementCount) replace(body, h('p', { class: 'muted' }, 'Loading…'));
    return loadInto(body, () => api.request('GET', '/practice'), (answer) => drawPractice(answer, message), { alive: () => alive });
  }

  function drawPractice(answer, message) {
    const canEdit = session.can('managePractice');
    const practice = answer.data;
    let etag = answer.etag ?? practice.version;
    Object.assign(session.practice, practice);
    document.getElementById('practice-name').textContent = practice.name;

    const facts = h('dl', { class: 'facts' },
      h('dt', {}, 'Time zone'), h('dd', {}, practice.timeZone),
      practice.slotGridMinutes ? [h('dt', {}, 'Booking grid'), h('dd', {}, `every ${practice.slotGridMinutes} minutes`)] : null);

    if (!canEdit) {
      replace(body, h('section', { class: 'panel glass', 'aria-labelledby': 'practice-title' },
        h('h2', { id: 'practice-title' }, practice.name), facts,
        h('dl', { class: 'facts' },
          practice.phone ? [h('dt', {}, 'Phone'), h('dd', {}, practice.phone)] : null,
          practice.address ? [h('dt', {}, 'Address'), h('dd', {}, practice.address)] : null),
        hoursTable(practice, false).table,
        h('p', { class: 'muted' }, 'An administrator changes these settings.')),
      closuresSection(practice, false));
      return;
    }

    // Name, contact and opening hours: one form, sent as one change with If-Match.
    const name = h('input', { type: 'text', autocomplete: 'off', maxlength: 120, value: practice.name });
    const phone = h('input', { type: 'text', inputmode: 'tel', autocomplete: 'off', maxlength: 40, value: practice.phone || '' });
    const address = h('textarea', { rows: 3, maxlength: 400 });
    address.value = practice.address || '';
    const hours = hoursTable(practice, true);
    // Who signs in with a second factor: administrators unless the practice says otherwise.
    const asked = new Set(practice.secondFactorRoles || []);
    const factorBoxes = ROLES.map((r) => {
      const box = h('input', { type: 'checkbox', value: r, checked: asked.has(r) });
      return { role: r, box, label: h('label', { class: 'check' }, box, ` ${words(r)}`) };
    });
    const factors = h('fieldset', { class: 'field field-wide', 'data-field': 'secondFactorRoles' },
      h('legend', {}, 'Two-factor sign-in asked of'),
      h('div', { class: 'row wrap' }, factorBoxes.map((f) => f.label)),
      h('p', { class: 'hint' }, 'Members of these roles sign in with a code from an authenticator app as well as their password; until they set one up they can do nothing else.'));
    const status = h('div', { 'aria-live': 'polite' }, message || null);
    const save = h('button', { type: 'submit', class: 'button primary' }, 'Save the settings');
    const form = h('form', { class: 'panel glass stack-form practice-form', novalidate: true, 'aria-labelledby': 'practice-title' },
      h('h2', { id: 'practice-title' }, 'Practice settings'),
      facts,
      h('div', { class: 'grid-fields' },
        field('Practice name', name, { fieldName: 'name' }),
        field('Phone', phone, { fieldName: 'phone' }),
        field('Address', address, { fieldName: 'address', wide: true }),
        factors),
      hours.table,
      h('div', { class: 'form-errors', role: 'alert', hidden: true }),
      h('div', { class: 'row wrap' }, save),
      status);

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearErrors(form);
      replace(status);
      const change = {};
      if (name.value.trim() !== practice.name) change.name = name.value.trim();
      if (phone.value.trim() !== (practice.phone || '')) change.phone = phone.value.trim();
      if (address.value.trim() !== (practice.address || '')) change.address = address.value.trim();
      const wanted = hours.read();
      const local = [...wanted.errors];
      if ('name' in change && !change.name) local.push({ field: 'name', message: 'Enter the practice’s name.' });
      if (local.length) {
        showErrors(form, local);
        form.querySelector('[aria-invalid="true"]')?.focus();
        return;
      }
      const wantedFactors = factorBoxes.filter((f) => f.box.checked).map((f) => f.role);
      if (JSON.stringify(wantedFactors) !== JSON.stringify(ROLES.filter((r) => asked.has(r)))) change.secondFactorRoles = wantedFactors;
      const sameHours = JSON.stringify(wanted.openingHours) === JSON.stringify(sortHours(practice.openingHours));
      if (!sameHours) change.openingHours = wanted.openingHours;
      if (!Object.keys(change).length) { replace(status, h('p', { class: 'notice notice-success', role: 'status' }, 'Nothing has changed.')); return; }
      await submitForm(form, save, async () => {
        const answer = await api.request('PATCH', '/practice', { body: change, ifMatch: etag });
        if (!alive) return;
        const replan = answer.data.appointmentsToReplan || [];
        toast('Practice settings saved', 'success');
        announce('Practice settings saved');
        await showPractice(h('div', { class: 'notice notice-success saved', role: 'status' },
          h('strong', {}, 'Saved. '),
          replan.length ? [`${replan.length} appointment${replan.length === 1 ? '' : 's'} still to come now fall${replan.length === 1 ? 's' : ''} outside the opening hours and need re-planning (nothing was moved or cancelled):`,
            h('ul', { class: 'replan-list' }, replan.slice(0, 20).map((a) => h('li', {}, h('a', { class: 'entry-link', href: `#/schedule?date=${a.start.slice(0, 10)}` }, dateTime(a.start)))))]
            : 'No appointment still to come falls outside the opening hours.'));
      }, { label: 'Saving…', focus: true, handle: changedMeanwhile('Someone else changed the settings meanwhile. They are shown as now stored: check them and save again.') });
    });

    replace(body, form, closuresSection(practice, true, (next) => { etag = next ?? etag; }, () => etag));
  }

  /** A change refused because the settings changed meanwhile (412): they are shown as now
   *  stored, with `text`; any other failure is left to the caller. */
  function changedMeanwhile(text) {
    return (error) => {
      if (!alive) return true;
      if (error.status !== 412) return false;
      showPractice(notice(text));
      return true;
    };
  }

  function sortHours(list) {
    return [...(list || [])].sort((a, b) => a.weekday - b.weekday || a.opens.localeCompare(b.opens))
      .map(({ weekday, opens, closes }) => ({ weekday, opens, closes }));
  }

  /** The opening hours as a table: a row per opening span (a day without one is closed);
   *  editable, `read()` gives the openingHours to send and the times that cannot be sent. */
  function hoursTable(practice, editable) {
    const spans = sortHours(practice.openingHours);
    const rows = [];
    const tbody = h('tbody', {});
    DAYS.forEach((day, i) => {
      const own = spans.filter((o) => o.weekday === i + 1);
      (own.length ? own : [null]).forEach((span, k) => {
        const label = own.length > 1 ? `${day} (${k + 1})` : day;
        if (!editable) {
          tbody.append(h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, span ? `${span.opens}–${span.closes}` : 'Closed')));
          return;
        }
        const open = h('input', { type: 'checkbox', id: uid('open'), checked: Boolean(span) });
        const opens = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', 'aria-label': `${label} opens`, value: span?.opens || '08:00', id: uid('opens') });
        const closes = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', 'aria-label': `${label} closes`, value: span?.closes || '18:00', id: uid('closes') });
        const sync = () => { opens.disabled = !open.checked; closes.disabled = !open.checked; };
        open.addEventListener('change', sync);
        sync();
        rows.push({ weekday: i + 1, open, opens, closes });
        tbody.append(h('tr', { dataset: { weekday: String(i + 1) } },
          h('th', { scope: 'row' }, h('div', { class: 'field hours-day' }, open, h('label', { for: open.id }, h('span', { class: 'visually-hidden' }, 'Open on '), label))),
          h('td', {}, h('div', { class: 'field' }, opens)),
          h('td', {}, h('div', { class: 'field' }, closes))));
      });
    });
    const table = h('table', { class: ['week-table', editable && 'hours-table'], id: uid('hours'), dataset: editable ? { field: 'openingHours' } : {} },
      h('caption', {}, 'Opening hours'),
      editable ? h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col' }, 'Opens'), h('th', { scope: 'col' }, 'Closes'))) : null,
      tbody);
    function read() {
      const openingHours = [];
      const errors = [];
      // Each open span's controls carry the index it is sent at, so a refusal naming
      // openingHours[2].closes lands next to that very field.
      for (const row of rows) {
        for (const el of [row.open, row.opens, row.closes]) delete el.dataset.field;
        if (!row.open.checked) continue;
        const index = openingHours.length;
        row.open.dataset.field = `openingHours[${index}]`;
        row.opens.dataset.field = `openingHours[${index}].opens`;
        row.closes.dataset.field = `openingHours[${index}].closes`;
        const span = { weekday: row.weekday, opens: row.opens.value.trim(), closes: row.closes.value.trim() };
        if (!HHMM.test(span.opens)) errors.push({ field: row.opens.dataset.field, message: 'a time like 08:30 (00:00 to 23:59)' });
        if (!CLOSES.test(span.closes)) errors.push({ field: row.closes.dataset.field, message: 'a time like 18:00 (24:00 for midnight)' });
        openingHours.push(span);
      }
      return { openingHours, errors };
    }
    return { table: editable ? h('div', { class: 'field hours-field' }, table) : table, read };
  }

  /** The closures (bank holidays, training afternoons), and for administrators a form to add one. */
  function closuresSection(practice, editable, setEtag = () => {}, getEtag = () => undefined) {
    const listBox = h('div', {});
    let closures = [...(practice.closures || [])];
    const describe = (c) => {
      const days = c.firstDay === c.lastDay ? plainDate(c.firstDay) : `${plainDate(c.firstDay)} – ${plainDate(c.lastDay)}`;
      const hoursText = c.wholeDay ? 'all day' : `${c.from}–${c.until}`;
      return `${days} · ${hoursText}${c.recursYearly ? ' · every year' : ''}`;
    };
    function drawList() {
      closures.sort((a, b) => a.firstDay.localeCompare(b.firstDay));
      replace(listBox, closures.length ? h('ul', { class: 'plain entries closure-list' }, closures.map((c) => h('li', { dataset: { closure: c.id } },
        h('span', {}, h('strong', {}, c.reason), ` — ${describe(c)}`),
        editable ? h('button', { type: 'button', class: 'button quiet', 'aria-label': `Reopen: ${c.reason}, ${describe(c)}`, on: { click: (e) => reopen(e.currentTarget, c) } }, 'Reopen') : null)))
        : h('p', { class: 'muted' }, 'No closures: the opening hours apply every week.'));
    }
    async function reopen(button, c) {
      const meanwhile = changedMeanwhile('The settings changed meanwhile; they are shown as now stored.');
      await act(button, async () => {
        const answer = await api.request('DELETE', `/practice/closures/${c.id}`, { ifMatch: getEtag() });
        setEtag(answer.etag);
        closures = closures.filter((x) => x.id !== c.id);
        drawList();
        toast(`Reopened: ${c.reason}`, 'success');
      }, {
        label: 'Reopening…',
        // Above the list, which stays as it is.
        handle: (error) => { if (!meanwhile(error)) listBox.prepend(notice(problemText(error))); return true; },
      });
    }
    drawList();
    const section = h('section', { class: 'panel glass', 'aria-labelledby': 'closures-title' }, h('h2', { id: 'closures-title' }, 'Closures'), listBox);
    if (!editable) return section;

    const first = h('input', { type: 'date' });
    const last = h('input', { type: 'date' });
    const wholeDay = h('input', { type: 'checkbox', id: uid('whole'), checked: true });
    const from = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', value: '13:00' });
    const until = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: 5, placeholder: 'HH:mm', value: '24:00' });
    const yearly = h('input', { type: 'checkbox', id: uid('yearly') });
    const reason = h('input', { type: 'text', autocomplete: 'off', maxlength: 120, placeholder: 'e.g. Christmas Day' });
    const times = h('div', { class: 'grid-fields', hidden: true },
      field('Closed from', from, { fieldName: 'from', hint: 'local time, HH:mm' }),
      field('Until', until, { fieldName: 'until', hint: '24:00: the rest of the day' }));
    wholeDay.dataset.field = 'wholeDay';
    yearly.dataset.field = 'recursYearly';
    wholeDay.addEventListener('change', () => { times.hidden = wholeDay.checked; });
    const add = h('button', { type: 'submit', class: 'button primary' }, 'Add the closure');
    const result = h('div', { 'aria-live': 'polite' });
    const form = h('form', { class: 'stack-form add-closure', novalidate: true, 'aria-labelledby': 'add-closure-title' },
      h('h3', { id: 'add-closure-title' }, 'Add a closure'),
      h('div', { class: 'grid-fields' },
        field('Reason', reason, { fieldName: 'reason' }),
        field('First day', first, { fieldName: 'firstDay' }),
        field('Last day', last, { fieldName: 'lastDay', hint: 'empty: the first day only' })),
      h('div', { class: 'row wrap' },
        h('div', { class: 'field check' }, wholeDay, h('label', { for: wholeDay.id }, 'All day')),
        h('div', { class: 'field check' }, yearly, h('label', { for: yearly.id }, 'Every year'))),
      times,
      h('div', { class: 'form-errors', role: 'alert', hidden: true }),
      h('div', { class: 'row wrap' }, add),
      result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearErrors(form);
      replace(result);
      const errors = [];
      if (!reason.value.trim()) errors.push({ field: 'reason', message: 'Say why the practice is closed (it is shown to staff).' });
      if (!first.value) errors.push({ field: 'firstDay', message: 'Choose the first day.' });
      if (errors.length) { showErrors(form, errors); form.querySelector('[aria-invalid="true"]')?.focus(); return; }
      const closure = { firstDay: first.value, reason: reason.value.trim() };
      if (last.value) closure.lastDay = last.value;
      if (yearly.checked) closure.recursYearly = true;
      if (!wholeDay.checked) { closure.from = from.value.trim(); closure.until = until.value.trim(); }
      await submitForm(form, add, async () => {
        const answer = await api.request('POST', '/practice/closures', { body: closure, idempotencyKey: api.newKey() });
        if (!alive) return;
        setEtag(answer.etag);
        closures.push(answer.data.closure);
        drawList();
        const replan = answer.data.appointmentsToReplan || [];
        replace(result, h('p', { class: 'notice notice-success', role: 'status' }, `Added: ${answer.data.closure.reason}. `,
          replan.length ? `${replan.length} appointment${replan.length === 1 ? ' falls' : 's fall'} in it and need${replan.length === 1 ? 's' : ''} re-planning (kept as booked).` : 'No booked appointment falls in it.'));
        form.reset();
        wholeDay.checked = true;
        from.value = '13:00';
        until.value = '24:00';
        times.hidden = true;
        toast('Closure added', 'success');
      }, { label: 'Adding…', focus: true, handle: () => !alive });
    });
    section.append(form);
    return section;
  }

  // MARK: - Appointment types and rooms

  function showSetup() {
    const typesBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
    const roomsBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
    replace(body,
      h('section', { class: 'panel glass setup-types', 'aria-labelledby': 'types-title' }, h('h2', { id: 'types-title' }, 'Appointment types'), typesBox),
      h('section', { class: 'panel glass setup-rooms', 'aria-labelledby': 'rooms-title' }, h('h2', { id: 'rooms-title' }, 'Rooms'), roomsBox));
    loadTypes(typesBox);
    loadRooms(roomsBox);
  }

  function money(minor, currency) {
    try { return new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency || 'GBP' }).format((minor || 0) / 100); } catch { return `${((minor || 0) / 100).toFixed(2)} ${currency || ''}`; }
  }

  function loadTypes(box) {
    return loadInto(box, () => api.get('/appointment-types'), ({ items }) => {
      const rows = [...items].sort((a, b) => Number(Boolean(a.retiredAt)) - Number(Boolean(b.retiredAt)) || a.name.localeCompare(b.name));
      replace(box, rows.length ? h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Table of appointment types' }, h('table', { class: 'data-table setup-table' },
        h('thead', {}, h('tr', {}, ['Type', 'Duration', 'Buffer after', 'Fee', 'Status', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, rows.map((t) => {
          const edit = t.retiredAt ? null : h('button', { type: 'button', class: 'button', dataset: { action: 'edit-type' }, 'aria-label': `Edit ${t.name}` }, 'Edit');
          const retire = t.retiredAt ? null : h('button', { type: 'button', class: 'button', dataset: { action: 'retire-type' }, 'aria-label': `Retire ${t.name}` }, 'Retire');
          edit?.addEventListener('click', () => editType(t, edit, box));
          retire?.addEventListener('click', () => retireType(t, retire, box));
          return h('tr', { dataset: { type: t.id }, class: t.retiredAt ? 'retired' : null },
            h('th', { scope: 'row' }, t.name),
            h('td', {}, `${t.defaultDurationMinutes} min`),
            h('td', {}, `${t.bufferAfterMinutes} min`),
            h('td', {}, money(t.feeMinorUnits, t.currency)),
            h('td', {}, t.retiredAt ? h('span', { class: 'chip chip-warning' }, `Retired ${plainDate(t.retiredAt.slice(0, 10))}`) : h('span', { class: 'chip chip-ok' }, 'Offered')),
            h('td', {}, h('div', { class: 'row wrap' }, edit, retire)));
        })))) : h('p', { class: 'muted' }, 'No appointment types yet.'));
    }, { alive: () => alive });
  }

  function loadRooms(box) {
    return loadInto(box, () => api.get('/rooms'), ({ items }) => {
      replace(box, items.length ? h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Table of rooms' }, h('table', { class: 'data-table setup-table' },
        h('thead', {}, h('tr', {}, ['Room', 'Kind', 'Status', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, items.map((r) => {
          const edit = h('button', { type: 'button', class: 'button', dataset: { action: 'edit-room' }, 'aria-label': `Edit ${r.name}` }, 'Edit');
          edit.addEventListener('click', () => editRoom(r, edit, box));
          return h('tr', { dataset: { room: r.id } },
            h('th', { scope: 'row' }, r.name),
            h('td', {}, words(r.type)),
            h('td', {}, r.active ? h('span', { class: 'chip chip-ok' }, 'In service') : h('span', { class: 'chip chip-warning' }, 'Out of service')),
            h('td', {}, edit));
        })))) : h('p', { class: 'muted' }, 'No rooms yet.'));
    }, { alive: () => alive });
  }

  /** A small modal dialog with `content`; removed when closed, the focus back on `opener`. */
  function dialogWith(title, opener, kind) {
    const titleId = uid('setup-title');
    const dialog = h('dialog', { class: ['dialog', 'glass', 'screen-dialog', 'setup-dialog', kind], 'aria-labelledby': titleId });
    const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
    dialog.addEventListener('close', () => { dialog.remove(); if (opener?.isConnected) opener.focus(); });
    dialog.append(h('h2', { id: titleId }, title));
    document.body.append(dialog);
    return { dialog, close, cancel: h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Cancel') };
  }

  function editType(t, opener, box) {
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
      await submitForm(form, save, async () => {
        const saved = await api.request('PATCH', `/appointment-types/${t.id}`, { body: change });
        close();
        toast(`${saved.data.name} saved`, 'success');
        announce(`${saved.data.name} saved`);
        if (alive) loadTypes(box);
      }, { label: 'Saving…', focus: true });
    });
    dialog.append(form);
    dialog.showModal();
    name.focus();
  }

  function retireType(t, opener, box) {
    const { dialog, close, cancel } = dialogWith(`Retire ${t.name}?`, opener, 'retire-dialog');
    const message = h('div');
    const confirm = h('button', { type: 'button', class: 'button danger', dataset: { action: 'confirm-retire' } }, 'Retire');
    confirm.addEventListener('click', () => act(confirm, async () => {
      await api.post(`/appointment-types/${t.id}/retire`, {});
      close();
      toast(`${t.name} retired`, 'success');
      announce(`${t.name} retired`);
      if (alive) loadTypes(box);
    }, { label: 'Retiring…', into: message }));
    dialog.append(h('p', {}, 'It is kept: past appointments still name it and booked ones may still be moved, but no free slot is offered and nothing new is booked as it.'),
      message, h('div', { class: 'row end' }, cancel, confirm));
    dialog.showModal();
    cancel.focus();
  }

  function editRoom(r, opener, box) {
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
      await submitForm(form, save, async () => {
        const saved = await api.request('PATCH', `/rooms/${r.id}`, { body: change });
        close();
        toast(`${saved.data.name} saved`, 'success');
        announce(`${saved.data.name} saved`);
        if (alive) loadRooms(box);
      }, { label: 'Saving…', focus: true });
    });
    dialog.append(form);
    dialog.showModal();
    name.focus();
  }

  if (tab === 'users') showUsers(); else if (tab === 'audit') showAudit(); else if (tab === 'setup') showSetup(); else showPractice();
  return () => { alive = false; };
}
