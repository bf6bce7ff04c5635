// The device's copy of what staff need without a connection, in IndexedDB and encrypted with
// the session's key (AES-GCM). The key comes from GET /me (`offlineKey`) and is kept here as a
// non-extractable CryptoKey: an offline reload or a fresh tab can still read the copy, while a
// script cannot take the key elsewhere. The copy belongs to one person of one practice: another
// person signing in on the device wipes it, and signing out deletes it with the key.
//
// Stores: `session` (the key, whose copy it is, and the signed-in account, encrypted), `data`
// (answers of the API by address, encrypted, with when they were read) and `outbox` (changes
// waiting to be sent, encrypted, in the order they were made).

const NAME = 'vetnet-offline';
let database = null;
let key = null;

function opened() {
  if (database) return Promise.resolve(database);
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('session');
      db.createObjectStore('data');
      db.createObjectStore('outbox', { autoIncrement: true });
    };
    request.onsuccess = () => {
      database = request.result;
      // Another tab deleting the database (signing out) must not wait for this one.
      database.onversionchange = () => { database.close(); database = null; key = null; };
      resolve(database);
    };
    request.onerror = () => reject(request.error);
  });
}

/** Runs `work(store)` in one transaction; resolves to the value of the request it returns. */
async function run(name, mode, work) {
  const db = await opened();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => resolve(request?.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function seal(value, with_ = key) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, with_, new TextEncoder().encode(JSON.stringify(value)));
  return { iv, data };
}

async function open_(sealed, with_ = key) {
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv }, with_, sealed.data);
  return JSON.parse(new TextDecoder().decode(plain));
}

/** Whether the key is at hand (signed in, online or from an earlier start). */
export function ready() { return key !== null; }

/** Takes over the device for the signed-in account `me` (from GET /me): another person's copy
 *  is wiped first; the same person's changes not yet sent, kept under an earlier session's
 *  key, are sealed again with the new one (what was read is read again). */
export async function begin(me) {
  const raw = fromBase64url(me.offlineKey);
  const fingerprint = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', raw)), (b) => b.toString(16).padStart(2, '0')).join('');
  const owner = `${me.practice.id}/${me.user.id}`;
  const next = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  raw.fill(0);
  let previous = null;
  try { previous = await run('session', 'readonly', (s) => s.get('current')); } catch { previous = null; }
  if (previous && previous.owner !== owner) await clearAll();
  else if (previous && previous.fingerprint !== fingerprint) {
    const waiting = [];
    try {
      const rows = await entries('outbox');
      for (const [id, sealed] of rows) waiting.push([id, await open_(sealed, previous.key)]);
    } catch { /* unreadable: nothing can be sent from it */ }
    await run('data', 'readwrite', (s) => s.clear());
    await run('outbox', 'readwrite', (s) => s.clear());
    for (const [id, value] of waiting) { const sealed = await seal(value, next); await run('outbox', 'readwrite', (s) => s.put(sealed, id)); }
  }
  key = next;
  const account = { ...me };
  delete account.offlineKey;
  const sealedMe = await seal(account);
  await run('session', 'readwrite', (s) => s.put({ owner, fingerprint, key: next, me: sealedMe, at: Date.now() }, 'current'));
}

/** The account of the last session on this device (for starting without a connection), or null. */
export async function resume() {
  try {
    const current = await run('session', 'readonly', (s) => s.get('current'));
    if (!current) return null;
    key = current.key;
    return await open_(current.me);
  } catch { return null; }
}

async function clearAll() {
  for (const name of ['session', 'data', 'outbox']) await run(name, 'readwrite', (s) => s.clear());
}

/** Deletes the whole copy and the key (signing out). */
export async function wipe() {
  key = null;
  try { await clearAll(); } catch { /* deleted below anyway */ }
  if (database) { database.close(); database = null; }
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(NAME);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

async function entries(name) {
  return run(name, 'readonly', (s) => {
    const rows = [];
    const request = s.openCursor();
    request.onsuccess = () => {
      const cursor = request.result;
      if (cursor) { rows.push([cursor.key, cursor.value]); cursor.continue(); }
    };
    return { get result() { return rows; } };
  });
}

/** Keeps `value` under `name` (an API address), with the time it was read. */
export async function put(name, value, at = Date.now()) {
  if (!key) return;
  const sealed = await seal(value);
  await run('data', 'readwrite', (s) => s.put({ ...sealed, at }, name));
}

/** What is kept under `name`: {value, at}, or null. */
export async function get(name) {
  if (!key) return null;
  try {
    const row = await run('data', 'readonly', (s) => s.get(name));
    return row ? { value: await open_(row), at: row.at } : null;
  } catch { return null; }
}

/** Removes what was read before `before` (ms) under names `keep(name)` does not protect. */
export async function prune(before, keep = () => false) {
  const rows = await entries('data');
  const old = rows.filter(([name, row]) => row.at < before && !keep(name)).map(([name]) => name);
  if (old.length) await run('data', 'readwrite', (s) => { let last; for (const name of old) last = s.delete(name); return last; });
}

/** The names kept, with when each was read. */
export async function names() {
  return (await entries('data')).map(([name, row]) => ({ name, at: row.at }));
}

// MARK: - The outbox

/** Adds a change to the end of the outbox; resolves to its number (its place in the order). */
export async function queue(change) {
  const sealed = await seal(change);
  return run('outbox', 'readwrite', (s) => s.add(sealed));
}

/** The changes waiting, oldest first: [{id, ...change}]. */
export async function queued() {
  if (!key) return [];
  const rows = await entries('outbox');
  const out = [];
  for (const [id, sealed] of rows) {
    try { out.push({ ...(await open_(sealed)), id }); } catch { /* sealed by another key: not readable here */ }
  }
  return out;
}

/** Replaces change `id` (its state after a try). */
export async function update(id, change) {
  const copy = { ...change };
  delete copy.id;
  const sealed = await seal(copy);
  await run('outbox', 'readwrite', (s) => s.put(sealed, id));
}

/** Removes change `id` (sent, or discarded by the person who made it). */
export async function remove(id) { await run('outbox', 'readwrite', (s) => s.delete(id)); }
