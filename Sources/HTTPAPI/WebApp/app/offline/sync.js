// Keeps the device copy current while VetNet can be reached, and answers from it when it
// cannot. What is kept (offline/store.js, encrypted): the ER board, the schedule of today and
// tomorrow, the clinicians with their hours, appointment types and rooms, the patient
// directory (names, species, record numbers, owners with their phones and email, alerts) for
// searching and for a registration's duplicate check, and every record opened in the last
// seven days. It follows the live stream: a change of the board, the schedule, a clinician, a
// patient or an owner is read again.
//
// It also says how old the data on screen is when the server cannot be reached ("Offline —
// data from 14:02, 6 min ago"): from the time each answer shown on the screen was read.

import * as api from '../api.js';
import * as catalogue from '../catalogue.js';
import * as live from '../live.js';
import * as store from './store.js';
import * as outbox from './outbox.js';
import { h, replace, time, date, today, addDays, zonedInstant, rfc3339, levelLabel } from '../ui.js';

const WEEK = 7 * 86400000;
const CHECK_SECONDS = 15;
const REFRESH_MINUTES = 5;

// Answers worth keeping, by address: what the screens show of the board, the schedule, the
// clinicians and the records opened. Searches, analytics, audit and administration are not kept.
const KEPT = [
  /^\/triage\/(queue|catalogue)$/, /^\/specialists$/, /^\/specialists\/[^/]+\/availability$/, /^\/appointment-types$/, /^\/rooms$/,
  /^\/practice$/, /^\/appointments$/, /^\/appointments\/(?!slots$)[^/]+$/, /^\/owners\/[^/]+$/,
  /^\/patients\/[^/]+$/, /^\/patients\/[^/]+\/(record|visits|documents|assessments|appointments)$/, /^\/vaccinations\/due$/, /^\/recalls\/due$/,
];

// Changes the outbox carries when the server cannot be reached.
const QUEUED = [
  ['POST', /^\/owners$/], ['POST', /^\/patients$/], ['POST', /^\/patients\/[^/]+\/(weights|notes|vaccinations)$/],
  ['POST', /^\/patients\/[^/]+\/notes\/[^/]+\/addenda$/], ['POST', /^\/triage\/assessments$/],
  ['POST', /^\/triage\/queue\/[^/]+\/status$/], ['POST', /^\/appointments\/[^/]+\/transitions$/],
  ['PUT', /^\/owners\/[^/]+$/], ['PUT', /^\/patients\/[^/]+$/],
];

let session = null;
let reachable = true;
let lastReached = null;
// The answers the current screen was given, by address: when each was read, and whether it
// came from the device (its age is what the banner tells).
let shown = new Map();
let timers = [];
let unsubscribe = [];
let windowRange = null;
let refreshing = null;

/** Installs the device copy under the API calls (the key must be at hand: store.begin or
 *  store.resume first). `offline`: started without the server. */
export function attach({ offline = false } = {}) {
  reachable = !offline;
  document.body.classList.toggle('offline', offline);
  api.useDeviceCopy({
    remember,
    recall,
    queueable: (method, path, body) => QUEUED.some(([m, pattern]) => m === method && pattern.test(path))
      // Of an appointment's actions, those that depend on the appointment alone (not a move).
      && (!path.endsWith('/transitions') || catalogue.queueableOffline(body?.action)),
    waiting: outbox.waiting,
    enqueue: outbox.enqueue,
    reached,
    unreachable,
  });
}

/** Starts keeping the copy current for the signed-in `signedIn` session. */
export async function start(signedIn) {
  session = signedIn;
  outbox.start(signedIn);
  window.addEventListener('hashchange', newScreen);
  window.addEventListener('online', check);
  window.addEventListener('offline', unreachable);
  unsubscribe.push(live.subscribe(['triage.*', 'patient.*', 'owner.*', 'appointment.*', 'schedule.*', 'clinician.*', 'record.*'], changed));
  unsubscribe.push(live.onStatus((state) => { if (state === 'live') { reached(); outbox.flush(); } }));
  timers.push(setInterval(() => { if (!reachable || outbox.waiting()) check(); }, CHECK_SECONDS * 1000));
  timers.push(setInterval(() => { if (reachable) refreshAll(); }, REFRESH_MINUTES * 60000));
  timers.push(setInterval(renderBanner, 30000));
  unsubscribe.push(outbox.onChange(drawOutboxButton), outbox.onTriage(drawTriageResults));
  drawOutboxButton();
  newScreen();
  await store.prune(Date.now() - WEEK).catch(() => {});
  if (reachable) { catchUp(); outbox.flush(); } else renderBanner();
}

/** Stops (signing out); the caller wipes the copy. */
export function stop() {
  for (const timer of timers) clearInterval(timer);
  for (const off of unsubscribe) off();
  timers = []; unsubscribe = [];
  window.removeEventListener('hashchange', newScreen);
  window.removeEventListener('online', check);
  window.removeEventListener('offline', unreachable);
  api.useDeviceCopy(null);
  outbox.stop();
  session = null;
  reachable = true;
  document.body.classList.remove('offline');
  renderBanner();
  drawOutboxButton();
  document.getElementById('triage-results')?.replaceChildren();
}

/** The top bar's count of changes on the device, which opens the outbox. */
function drawOutboxButton() {
  const button = document.getElementById('outbox-button');
  if (!button) return;
  const mine = session ? outbox.all() : [];
  const decisions = mine.filter((e) => e.state !== 'pending').length;
  button.hidden = !mine.length;
  button.classList.toggle('needs-decision', decisions > 0);
  button.textContent = decisions ? `${decisions} need${decisions === 1 ? 's' : ''} your decision` : `${mine.length} waiting to send`;
}

/** Triages given by hand and since graded by the engine: both levels side by side, and an
 *  alert when the engine's is more urgent. */
function drawTriageResults(results) {
  const box = document.getElementById('triage-results');
  if (!box) return;
  replace(box, results.map((r) => h('div', { class: ['triage-result', 'notice', r.more ? 'notice-emergency' : 'notice-success'] },
    h('p', { role: r.more ? 'alert' : 'status', dataset: { engine: String(r.engine), manual: String(r.manual) } },
      h('strong', {}, `${r.subject}: `), r.more ? 'the engine’s level is MORE URGENT than the one given by hand — see this patient now. ' : 'triage sent. ',
      `Engine: ${levelLabel(r.engine)} · given by hand: ${levelLabel(r.manual)}.`),
    h('button', { type: 'button', class: 'button', 'aria-label': `Dismiss: ${r.subject}`, on: { click: () => outbox.dismissTriage(r.id) } }, 'Dismiss'))));
}

/** Whether the server answered the last call. */
export function online() { return reachable; }

// MARK: - Keeping and answering

function remember(path, query, address, data, etag) {
  if (!store.ready() || !KEPT.some((pattern) => pattern.test(path))) return;
  const at = Date.now();
  noteScreen(address, at, false);
  store.put(address, { data, etag }, at).catch(() => {});
}

async function recall(path, query, address) {
  if (!store.ready()) return null;
  let found = await store.get(address);
  if (found) { noteScreen(address, found.at, true); return { data: found.value.data, etag: found.value.etag, at: found.at }; }
  if (path === '/appointments') found = await fromWindow(query);
  else if (path === '/patients') found = await search(query);
  else if (/^\/patients\/[^/]+$/.test(path)) found = await fromDirectory(decodeURIComponent(path.split('/')[2]));
  if (found) noteScreen(address, found.at, true);
  return found;
}

/** The appointments of a period within today and tomorrow, from the kept schedule. */
async function fromWindow({ from, to, clinicianId }) {
  const kept = await store.get('schedule-window');
  if (!kept || !from || !to) return null;
  const start = Date.parse(from);
  const end = Date.parse(to);
  if (start < Date.parse(kept.value.from) || end > Date.parse(kept.value.to)) return null;
  const items = kept.value.items.filter((a) => Date.parse(a.start) < end && Date.parse(a.end) > start && (!clinicianId || a.clinicianId === clinicianId));
  return { data: { items }, at: kept.at };
}

function fold(text) { return String(text || '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase(); }

/** A search of the kept directory, as the server searches: a prefix of the patient's or the
 *  owner's name, the record number, the microchip or the owner's phone. */
async function search({ q = '', species, status, limit = 50 }) {
  const kept = await store.get('directory');
  if (!kept) return null;
  const wanted = fold(q).trim();
  const digits = wanted.replace(/[^0-9]/g, '');
  const matches = kept.value.items.filter(({ patient, ownerName, phones }) => {
    if (species && patient.species !== species) return false;
    if (status && (patient.status || 'active') !== status) return false;
    if (!wanted) return true;
    const words = `${fold(patient.name)} ${fold(ownerName)}`;
    return words.startsWith(wanted) || words.includes(` ${wanted}`)
      || fold(patient.medicalRecordNumber).startsWith(wanted)
      || (patient.microchip && patient.microchip.startsWith(wanted))
      || (digits.length >= 4 && (phones || []).some((p) => String(p).replace(/[^0-9]/g, '').includes(digits)));
  }).sort((a, b) => a.patient.name.localeCompare(b.patient.name));
  return { data: { items: matches.slice(0, Number(limit) || 50).map(({ patient, ownerName }) => ({ patient, ownerName })), nextCursor: null }, at: kept.at };
}

async function fromDirectory(id) {
  const kept = await store.get('directory');
  const item = kept?.value.items.find((x) => x.patient.id === id);
  return item ? { data: item.patient, at: kept.at } : null;
}

// MARK: - Keeping it current

/** Reads everything again (the first start, a position the change feed no longer holds). */
async function refreshAll() {
  if (refreshing) return refreshing;
  refreshing = (async () => {
    const head = await api.get('/changes', { limit: 1 }).then((page) => page.headSequence).catch(() => null);
    const tasks = [api.get('/triage/queue'), api.get('/appointment-types'), api.get('/rooms'), refreshWindow(), refreshClinicians(), refreshDirectory()];
    if (!session?.can('triage')) tasks.shift();
    const done = await Promise.allSettled(tasks);
    if (head !== null && done.every((d) => d.status === 'fulfilled')) await store.put('feed-position', head);
  })().finally(() => { refreshing = null; });
  return refreshing;
}

/** Brings the copy up to date at a start: what changed since it was last current, from the
 *  change feed (the board and today's schedule are read again in any case). */
async function catchUp() {
  const kept = await store.get('feed-position');
  const day = (await store.get('schedule-window'))?.value.from;
  if (kept === null || day !== rfc3339(zonedInstant(today(), 0))) { await refreshAll(); return; }
  let after = kept.value;
  const events = [];
  try {
    for (let page = 0; page < 20; page += 1) {
      const feed = await api.get('/changes', { after, limit: 1000 });
      if (feed.reset) { await refreshAll(); return; }
      events.push(...feed.items);
      after = feed.nextAfter ?? feed.headSequence;
      if (!feed.hasMore) break;
    }
  } catch { return; }
  const always = session?.can('triage') ? [{ kind: 'triage.queue_changed' }, { kind: 'appointment.moved' }] : [{ kind: 'appointment.moved' }];
  await changed([...always, ...events], true);
  await store.put('feed-position', after);
}

async function refreshWindow() {
  const day = today();
  windowRange = { from: rfc3339(zonedInstant(day, 0)), to: rfc3339(zonedInstant(addDays(day, 2), 0)) };
  const range = windowRange;
  const { items } = await api.get('/appointments', range);
  await store.put('schedule-window', { ...range, items });
}

async function refreshClinicians() {
  const { items } = await api.get('/specialists');
  await Promise.allSettled(items.map((c) => api.request('GET', `/specialists/${c.id}/availability`)));
}

/** Every patient (a page at a time), with the phones of their owners: the owners already
 *  known are read again only when they change. */
async function refreshDirectory(changedOwners = null) {
  if (!session?.can('readRecords')) return;
  const previous = (await store.get('directory'))?.value;
  const contacts = new Map(Object.entries(previous?.contacts || {}));
  const items = [];
  let cursor;
  for (let page = 0; page < 100; page += 1) {
    const answer = await api.get('/patients', { limit: 200, cursor, status: undefined });
    items.push(...answer.items);
    if (!answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  const owners = [...new Set(items.map((x) => x.patient.ownerId))].filter((id) => !contacts.has(id) || changedOwners?.has(id));
  for (let i = 0; i < owners.length; i += 4) {
    await Promise.allSettled(owners.slice(i, i + 4).map(async (id) => {
      const owner = await api.get(`/owners/${encodeURIComponent(id)}`);
      contacts.set(id, { phones: (owner.phones || []).map((p) => p.number), email: owner.email || null });
    }));
  }
  await store.put('directory', {
    contacts: Object.fromEntries(contacts),
    items: items.map(({ patient, ownerName }) => ({ patient, ownerName, ...(contacts.get(patient.ownerId) || { phones: [], email: null }) })),
  });
}

async function changed(events, catchingUp = false) {
  if (!reachable) return;
  const last = Math.max(...events.map((e) => (typeof e.sequence === 'number' ? e.sequence : -1)));
  if (!catchingUp && last >= 0) store.put('feed-position', last).catch(() => {});
  const all = events.some((e) => e.kind === 'reset' || e.kind === 'poll');
  if (all) { refreshAll(); return; }
  const kinds = events.map((e) => e.kind);
  const jobs = [];
  if (kinds.some((k) => k.startsWith('triage.') || k === 'patient.triaged') && session?.can('triage')) jobs.push(api.get('/triage/queue'));
  if (kinds.some((k) => k.startsWith('appointment.') || k.startsWith('schedule.'))) jobs.push(refreshWindow());
  if (kinds.some((k) => k.startsWith('clinician.'))) jobs.push(refreshClinicians());
  if (kinds.some((k) => k.startsWith('patient.') || k.startsWith('owner.'))) {
    jobs.push(refreshDirectory(new Set(events.filter((e) => e.kind.startsWith('owner.')).map((e) => e.resourceId))));
  }
  // A record kept on the device is read again when it changes.
  const patients = new Set(events.filter((e) => e.kind.startsWith('record.') || e.kind === 'patient.updated')
    .map((e) => e.payload?.patientID || e.resourceId).filter(Boolean));
  for (const id of patients) {
    const path = `/patients/${encodeURIComponent(id)}/record`;
    if (await store.get(`/api/v1${path}`)) jobs.push(api.get(path));
  }
  await Promise.allSettled(jobs);
}

// MARK: - Reachability and the age of what is shown

function reached() {
  lastReached = Date.now();
  if (reachable) return;
  reachable = true;
  document.body.classList.remove('offline');
  renderBanner();
  outbox.flush();
  refreshAll();
}

function unreachable() {
  if (!reachable) return;
  reachable = false;
  document.body.classList.add('offline');
  renderBanner();
}

/** Asks the server whether it is back (and sends what waits when it is). */
async function check() {
  try { await api.request('GET', '/me', { noRetry: true }); } catch { /* the answer (or none) set the state */ }
  if (reachable) outbox.flush();
}

function newScreen() {
  shown = new Map();
  renderBanner();
}

function noteScreen(address, at, fromDevice) {
  shown.set(address, { at, fromDevice });
  renderBanner();
}

/** "6 min ago", "2 h 5 min ago", "3 days ago". */
export function ago(at) {
  const minutes = Math.max(0, Math.floor((Date.now() - at) / 60000));
  if (minutes < 1) return 'less than a minute ago';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
  const days = Math.floor(minutes / 1440);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

function when(at) {
  return new Date(at).toDateString() === new Date().toDateString() ? time(at) : `${date(at)} ${time(at)}`;
}

function renderBanner() {
  const banner = document.getElementById('offline-banner');
  if (!banner) return;
  if (!session) { banner.hidden = true; banner.replaceChildren(); return; }
  const answers = [...shown.values()];
  const screenData = answers.length ? Math.min(...answers.map((a) => a.at)) : null;
  if (!reachable) {
    const at = screenData ?? lastReached;
    banner.hidden = false;
    banner.className = 'offline-banner offline-now';
    replace(banner, h('strong', {}, 'Offline'),
      at ? ` — data from ${when(at)}, ${ago(at)}. ` : ' — nothing on this screen has been read from VetNet yet. ',
      'Changes you make are kept on this device and sent when VetNet is back; a new booking needs the connection.');
    return;
  }
  const fromDevice = answers.filter((a) => a.fromDevice);
  if (fromDevice.length) {
    const oldest = Math.min(...fromDevice.map((a) => a.at));
    // Back online, but this screen still shows what the device held.
    const refresh = h('button', { type: 'button', class: 'button', on: { click: () => { window.dispatchEvent(new HashChangeEvent('hashchange')); } } }, 'Refresh');
    banner.hidden = false;
    banner.className = 'offline-banner offline-back';
    replace(banner, `Connection back — this screen shows data from ${when(oldest)}, ${ago(oldest)}. `, refresh);
    return;
  }
  banner.hidden = true;
  banner.replaceChildren();
}
