// Changes made while VetNet could not be reached: kept on the device (encrypted, in the order
// they were made) with the Idempotency-Key given when they were queued and the version they
// were made from (If-Match), shown as "waiting to send", and sent in order when the server is
// back. A key repeated within a day returns the first result, so a change sent twice (a tab
// closed mid-send) lands once. A change the server refuses because the resource changed
// meanwhile (409, 412) waits for the person who made it: both versions side by side, with
// "apply mine to the current version" or "discard mine"; nothing is dropped or overwritten
// unseen. A state change refused because the resource is already in that state has landed.

import * as api from '../api.js';
import * as catalogue from '../catalogue.js';
import * as store from './store.js';
import { h, replace, toast, announce, time, words, levelLabel } from '../ui.js';


let entries = [];
let session = null;
let flushing = null;
let soon = null;
const listeners = new Set();

/** Starts for the signed-in session: reads what waits on the device. */
export async function start(signedIn) {
  session = signedIn;
  entries = await store.queued().catch(() => []);
  // Triage results not yet dismissed stay on screen across reloads.
  const kept = await store.get('triage-results').catch(() => null);
  triageResults.splice(0, triageResults.length, ...(kept?.value || []));
  notify();
  tellTriage();
}

export function stop() { session = null; entries = []; triageResults.length = 0; clearTimeout(soon); notify(); tellTriage(); }

/** Whether changes wait to be sent (a new change then queues behind them, keeping the order). */
export function waiting() { return entries.some((e) => e.state === 'pending'); }

/** The changes on the device: [{id, state: pending | conflict | refused, ...}]. */
export function all() { return entries; }

/** Calls `listener(entries)` whenever the outbox changes; returns the unsubscribe function. */
export function onChange(listener) { listeners.add(listener); return () => listeners.delete(listener); }

function notify() { for (const listener of listeners) listener(entries); }

/** Queues a change (from api.js); resolves to the entry kept. */
export async function enqueue(change) {
  const entry = { ...change, state: 'pending', createdAt: Date.now(), userId: session?.user.id || null };
  entry.id = await store.queue(entry);
  entries.push(entry);
  notify();
  announce(`${describe(entry)}: saved on this device, waiting to send.`);
  clearTimeout(soon);
  soon = setTimeout(flush, 1000);
  return entry;
}

/** Sends what waits, oldest first, one at a time; stops at the first that cannot reach the
 *  server. One tab sends at a time. */
export function flush() {
  if (flushing || !session) return flushing;
  const run = async () => {
    entries = await store.queued().catch(() => entries);
    for (const entry of entries.filter((e) => e.state === 'pending')) {
      if (!session) break;
      if (await send(entry) === 'unreachable') break;
    }
    notify();
  };
  flushing = (navigator.locks ? navigator.locks.request('vetnet-outbox', run) : run()).finally(() => { flushing = null; });
  return flushing;
}

async function send(entry) {
  try {
    const answer = await api.request(entry.method, entry.path, {
      body: entry.body ?? undefined, query: entry.query || undefined, ifMatch: entry.ifMatch, idempotencyKey: entry.idempotencyKey, replay: true, noRetry: true,
    });
    await landed(entry, answer.data);
    return 'sent';
  } catch (error) {
    if (error.status === 0 || error.status === 401 || error.status >= 500) return 'unreachable';
    const versioned = entry.method === 'PUT' || /\/(status|transitions)$/.test(entry.path);
    if (versioned && (error.status === 409 || error.status === 412)) {
      if (await alreadyThere(entry)) { await landed(entry, null); return 'sent'; }
      let current = null;
      try { current = await currentOf(entry); } catch { current = null; }
      Object.assign(entry, { state: 'conflict', problem: error.message, current });
      await store.update(entry.id, entry);
      notify();
      announce(`${describe(entry)}: changed on the server meanwhile — your decision is needed.`, { assertive: true });
      return 'conflict';
    }
    Object.assign(entry, { state: 'refused', problem: error.message });
    await store.update(entry.id, entry);
    notify();
    announce(`${describe(entry)}: refused by VetNet — ${error.message}`, { assertive: true });
    return 'refused';
  }
}

async function landed(entry, data) {
  await store.remove(entry.id);
  entries = entries.filter((e) => e.id !== entry.id);
  // A patient queued with an owner queued before it takes the owner's new id.
  for (const later of entries.filter((e) => e.after === entry.id && data?.id)) {
    later.body = { ...later.body, [later.field]: data.id };
    delete later.after;
    await store.update(later.id, later);
  }
  if (entry.manualLevel && data) triageSent(entry, data);
  toast(`Sent: ${describe(entry)}`, 'success');
  notify();
}

/** Whether a refused state change asked for the state the resource is in already. */
async function alreadyThere(entry) {
  try {
    const status = /^\/triage\/queue\/([^/]+)\/status$/.exec(entry.path);
    if (status) {
      const board = await api.get('/triage/queue');
      const item = board.items.find((x) => x.patientId === decodeURIComponent(status[1]));
      // Off the board: a change that took the patient off it (done, left) is there already.
      return item ? item.status === entry.body.status : !catalogue.onBoard(entry.body.status) && catalogue.loaded();
    }
    const transition = /^\/appointments\/([^/]+)\/transitions$/.exec(entry.path);
    const leadsTo = catalogue.appointmentAction(entry.body?.action)?.resultingStatus;
    if (transition && leadsTo) {
      const appointment = await api.get(`/appointments/${transition[1]}`);
      return appointment.status === leadsTo;
    }
  } catch { /* unknown: treat as a conflict */ }
  return false;
}

/** The server's current version of what a change was made to: {data, etag}. */
async function currentOf(entry) {
  if (entry.method === 'PUT') { const { data, etag } = await api.request('GET', entry.path); return { data, etag }; }
  const status = /^\/triage\/queue\/([^/]+)\/status$/.exec(entry.path);
  if (status) {
    const board = await api.get('/triage/queue');
    return { data: board.items.find((x) => x.patientId === decodeURIComponent(status[1])) || null, etag: null };
  }
  const transition = /^\/appointments\/([^/]+)\/transitions$/.exec(entry.path);
  if (transition) { const { data, etag } = await api.request('GET', `/appointments/${transition[1]}`); return { data, etag }; }
  return null;
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields a conflict is about: [{name, stored, mine, theirsChanged, mineChanged}]. */
export function differences(entry) {
  const current = entry.current?.data;
  if (entry.method === 'PUT') {
    const base = entry.base || {};
    return Object.keys(entry.body || {}).map((name) => ({
      name, stored: current?.[name], mine: entry.body[name],
      mineChanged: !same(entry.body[name], base[name]), theirsChanged: current ? !same(current[name], base[name]) : false,
    })).filter((d) => d.mineChanged || d.theirsChanged);
  }
  if (/\/status$/.test(entry.path)) return [{ name: 'status', stored: current ? catalogue.boardStatusLabel(current.status) : 'Not on the board', mine: catalogue.boardStatusLabel(entry.body.status), mineChanged: true, theirsChanged: true }];
  return [{ name: 'status', stored: current ? catalogue.appointmentStatusLabel(current.status) : 'Unknown', mine: catalogue.appointmentActionLabel(entry.body?.action), mineChanged: true, theirsChanged: true }];
}

/** Sends the change again on top of the server's current version: an edit keeps the fields
 *  changed there and puts the ones changed here on top. */
export async function applyMine(entry) {
  let current;
  try { current = await currentOf(entry); } catch (error) { toast(`The current version cannot be read: ${error.message}`, 'error'); return; }
  if (entry.method === 'PUT' && current?.data) {
    const base = entry.base || {};
    const merged = {};
    for (const name of Object.keys(entry.body)) merged[name] = same(entry.body[name], base[name]) && name in current.data ? current.data[name] : entry.body[name];
    entry.body = merged;
    entry.base = Object.fromEntries(Object.keys(merged).map((name) => [name, current.data[name]]));
  }
  const version = current?.etag ?? (current?.data?.version !== undefined ? `"${current.data.version}"` : null);
  if (version) entry.ifMatch = version;
  Object.assign(entry, { state: 'pending', problem: null, current: null });
  await store.update(entry.id, entry);
  notify();
  await flush();
}

/** Drops a change its maker decided against. */
export async function discard(entry) {
  await store.remove(entry.id);
  entries = entries.filter((e) => e.id !== entry.id);
  announce(`${describe(entry)}: discarded.`);
  notify();
}

/** What a change is, in words (the patient's name, then "weight 12.5 kg"). */
export function describe(entry) {
  const who = entry.subject ? `${entry.subject}: ` : '';
  if (entry.label) return who + entry.label;
  const b = entry.body || {};
  const p = entry.path;
  let what = 'change';
  if (/\/weights$/.test(p)) what = `weight ${b.value} ${b.unit || ''}`.trim();
  else if (/\/addenda$/.test(p)) what = `addendum “${short(b.text)}”`;
  else if (/\/notes$/.test(p)) what = `note “${short(Object.values(b).join(' '))}”`;
  else if (/\/vaccinations$/.test(p)) what = `vaccination ${b.vaccine || ''}`.trim();
  else if (/\/status$/.test(p)) what = `ER board → ${catalogue.boardStatusLabel(b.status)}`;
  else if (/\/transitions$/.test(p)) what = `appointment: ${catalogue.appointmentActionLabel(b.action || '').toLowerCase()}`;
  else if (p === '/triage/assessments') what = `triage, given ${levelLabel(entry.manualLevel).toLowerCase()} by hand`;
  else if (p === '/owners' && entry.method === 'POST') what = `new owner ${b.firstName || ''} ${b.lastName || ''}`.trim();
  else if (p === '/patients' && entry.method === 'POST') what = `new patient ${b.name || ''}`.trim();
  else if (/^\/owners\//.test(p)) what = 'owner’s details';
  else if (/^\/patients\//.test(p)) what = 'patient’s details';
  return who + what.charAt(0).toUpperCase() + what.slice(1);
}

function short(text) { const t = String(text || '').trim(); return t.length > 40 ? `${t.slice(0, 39)}…` : t; }

// MARK: - A triage given by hand, once the engine has graded it

const triageResults = [];
const triageListeners = new Set();

/** Calls `listener(results)` with the triages sent since the start: [{subject, manual, engine, more}]. */
export function onTriage(listener) { triageListeners.add(listener); listener(triageResults); return () => triageListeners.delete(listener); }

/** Compares the engine's level with the one given by hand (lower is more urgent). */
export function triageSent(entry, assessment) {
  const engine = assessment.level ?? assessment.result?.level;
  triageResults.push({ id: assessment.id || entry.id, subject: entry.subject || 'Patient', manual: entry.manualLevel, engine, more: engine < entry.manualLevel, at: Date.now() });
  tellTriage();
}

/** Keeps the triage results on the device first, then shows them: one shown is one kept. */
async function tellTriage() {
  if (session) await store.put('triage-results', triageResults).catch(() => {});
  for (const listener of triageListeners) listener(triageResults);
}

/** Removes a triage result from view (read and acted on). */
export function dismissTriage(id) {
  const index = triageResults.findIndex((r) => r.id === id);
  if (index >= 0) triageResults.splice(index, 1);
  tellTriage();
}

// MARK: - Showing what waits

/** A list of the changes waiting for what a screen shows (`match(entry)`), kept up to date;
 *  hidden while there are none. */
export function pendingPanel(match, title = 'Waiting to send') {
  const id = `pending-${Math.random().toString(36).slice(2, 8)}`;
  const list = h('ul', { class: 'plain pending-list' });
  const panel = h('section', { class: 'pending-panel', 'aria-labelledby': id, hidden: true }, h('h2', { id }, title), list);
  const draw = () => {
    if (!panel.isConnected && panel.dataset.drawn) { off(); return; }
    panel.dataset.drawn = '1';
    const mine = entries.filter(match);
    panel.hidden = !mine.length;
    replace(list, mine.map((entry) => h('li', { dataset: { state: entry.state } },
      h('span', {}, describe(entry)), ' ',
      h('span', { class: 'muted' }, `· made ${time(entry.createdAt)} · `),
      h('strong', {}, stateWords(entry)),
      entry.state !== 'pending' ? [' ', h('button', { type: 'button', class: 'button', on: { click: (e) => openOutbox(e.currentTarget) } }, 'Review')] : null)));
  };
  const off = onChange(draw);
  draw();
  return panel;
}

export function stateWords(entry) {
  return { pending: 'waiting to send', conflict: 'changed on the server meanwhile — needs your decision', refused: `refused: ${entry.problem || ''}` }[entry.state] || entry.state;
}

function show(value) {
  if (value === undefined || value === null || value === '') return '—';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? Object.values(v).filter(Boolean).join(' ') : v)).join('; ') || '—';
  if (typeof value === 'object') return Object.values(value).filter(Boolean).join(', ') || '—';
  return String(value);
}

let dialog = null;
/** The outbox: every change on the device with its state; a conflict shows both versions and
 *  the choice, a refused change its reason and "discard". */
export function openOutbox(opener) {
  if (dialog) { dialog.close(); }
  const title = h('h2', { id: 'outbox-title', tabindex: '-1' }, 'Changes made on this device');
  const body = h('div', { class: 'outbox-body' });
  const close = h('button', { type: 'button', class: 'button', on: { click: () => dialog.close() } }, 'Close');
  dialog = h('dialog', { class: 'dialog glass outbox-dialog', 'aria-labelledby': 'outbox-title' }, title, body, h('div', { class: 'row end' }, close));
  const draw = () => {
    const mine = entries.filter((e) => !e.userId || e.userId === session?.user.id);
    replace(body, mine.length ? h('ol', { class: 'plain outbox-list' }, mine.map(item)) : h('p', {}, 'Everything made on this device has been sent.'));
  };
  const off = onChange(draw);
  dialog.addEventListener('close', () => { off(); dialog.remove(); dialog = null; opener?.focus?.(); });
  draw();
  document.body.append(dialog);
  dialog.showModal();
  (body.querySelector('.conflict button') || title).focus();
}

function item(entry) {
  const parts = [h('p', {}, h('strong', {}, describe(entry)), h('span', { class: 'muted' }, ` · made ${time(entry.createdAt)} · `), stateWords(entry))];
  if (entry.state === 'conflict') {
    const headingId = `conflict-${entry.id}`;
    const rows = differences(entry).map((d) => h('tr', { dataset: { field: d.name } },
      h('th', { scope: 'row' }, words(d.name)),
      h('td', { class: 'stored-now' }, show(d.stored), d.theirsChanged && entry.method === 'PUT' ? h('span', { class: 'chip chip-warning' }, ' changed meanwhile') : null),
      h('td', { class: 'typed-here' }, d.mineChanged ? show(d.mine) : h('span', { class: 'muted' }, 'unchanged'))));
    const apply = h('button', { type: 'button', class: 'button primary', dataset: { action: 'apply-mine' } }, 'Apply mine to the current version');
    const drop = h('button', { type: 'button', class: 'button', dataset: { action: 'discard-mine' } }, 'Discard mine');
    apply.addEventListener('click', () => applyMine(entry));
    drop.addEventListener('click', () => discard(entry));
    parts.push(h('section', { class: 'conflict notice notice-warning', 'aria-labelledby': headingId },
      h('h3', { id: headingId }, 'Changed on the server meanwhile'),
      h('p', {}, `${entry.problem || ''} Nothing of yours was saved yet. The server’s current version beside yours:`),
      h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Stored now and your change' },
        h('table', { class: 'data-table conflict-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, 'Stored now'), h('th', { scope: 'col' }, 'Yours'))),
          h('tbody', {}, rows))),
      h('div', { class: 'row wrap' }, apply, drop)));
  } else if (entry.state === 'refused') {
    const drop = h('button', { type: 'button', class: 'button', dataset: { action: 'discard-mine' } }, 'Discard');
    drop.addEventListener('click', () => discard(entry));
    parts.push(h('div', { class: 'row wrap' }, drop));
  }
  return h('li', { class: 'outbox-item', dataset: { state: entry.state, id: String(entry.id) } }, parts);
}
