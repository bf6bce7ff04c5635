// The one place the app talks to the VetNet API (/api/v1). JSON in and out; failures become
// ApiError carrying the RFC 9457 problem document and its field errors. The session is the
// HttpOnly cookie set by a cookie sign-in: no token is ever held by this code, in a URL or
// in storage. Every change (POST, PUT, PATCH, DELETE) carries X-CSRF-Token, copied from the
// vetnet_csrf cookie that only pages of this origin can read.

/** A failed call: `status` (0 when the server could not be reached), the problem's `detail`,
 *  and `errors` [{field, message}] naming the fields at fault. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || (status ? `The server answered ${status}.` : 'VetNet cannot be reached; check the connection.'));
    this.status = status;
    this.problem = problem || {};
    this.detail = this.message;
    this.errors = Array.isArray(problem?.errors) ? problem.errors : [];
  }
}

/** A change kept on this device because the server could not be reached: it waits in the
 *  outbox (`entry`) and is sent, exactly once, when VetNet is back. */
export class QueuedError extends ApiError {
  constructor(entry) {
    super(0, { detail: 'Saved on this device — waiting to send. It is sent when VetNet is back.' });
    this.queued = true;
    this.entry = entry;
  }
}

// The device copy (offline/sync.js) when signed in: answers to keep, answers to give when
// the server cannot be reached, and changes to queue. None while signed out.
let device = null;
/** Sets the device copy's hooks: {remember(path, query, address, data), recall(path, query,
 *  address) → {data, at} | null, queueable(method, path, body) → bool, waiting() → bool,
 *  enqueue(change) → entry, reached(), unreachable()}; null detaches it. */
export function useDeviceCopy(hooks) { device = hooks; }

/** Why a change that must reach the server now cannot be made offline. */
function offlineProblem(method, path) {
  if (method === 'POST' && path === '/appointments') {
    return { detail: 'VetNet cannot be reached. A new booking needs the server’s check for clashes, so it cannot be made offline; book it when the connection is back.' };
  }
  if (method === 'POST' && /^\/appointments\/[^/]+\/transitions$/.test(path)) {
    return { detail: 'VetNet cannot be reached. Moving an appointment needs the server’s check for clashes; other changes to an appointment (check-in, start, completion, cancelling, no-show) are kept to send later.' };
  }
  return null;
}

/** Whether the server answers at all (its health check, whatever it says). */
async function reachable() {
  try { await fetch('/health', { cache: 'no-store', credentials: 'omit' }); return true; } catch { return false; }
}

let reauthenticate = null;
/** Sets what happens when a session has ended mid-work: `handler()` must resolve once the
 *  user has signed in again (the screen and what was typed stay as they were), and the call
 *  that met the 401 is then sent once more. */
export function onSessionExpired(handler) { reauthenticate = handler; }

function csrfToken() {
  const match = document.cookie.split(';').map((c) => c.trim()).find((c) => c.startsWith('vetnet_csrf='));
  return match ? decodeURIComponent(match.slice('vetnet_csrf='.length)) : '';
}

function url(path, query) {
  const target = new URL(`/api/v1${path}`, window.location.origin);
  for (const [key, value] of Object.entries(query || {})) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) target.searchParams.append(key, String(item));
  }
  return target.pathname + target.search;
}

/** Sends a request; resolves to {status, data, etag, headers}. Options: query, body (JSON),
 *  raw (a Blob or File sent as is, with its type), ifMatch (a version number or ETag),
 *  idempotencyKey, signal, noRetry; accept (a media type wanted instead of JSON, such as
 *  text/csv) with blob (the answer as a Blob); queue (what the outbox keeps beside a change
 *  made offline, such as its label and the version it was made from); replay (a change sent
 *  from the outbox). Without a connection, a GET answers from the device copy when it holds
 *  the answer (`offline`: when it was read) and a change the outbox carries is queued
 *  (QueuedError). */
export async function request(method, path, options = {}) {
  const headers = { Accept: options.accept ? `${options.accept}, application/problem+json` : 'application/json, application/problem+json' };
  let body;
  if (options.raw) { body = options.raw; headers['Content-Type'] = options.raw.type; } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  if (!['GET', 'HEAD'].includes(method)) headers['X-CSRF-Token'] = csrfToken();
  if (options.ifMatch !== undefined && options.ifMatch !== null) {
    const tag = String(options.ifMatch);
    headers['If-Match'] = /^(W\/)?"/.test(tag) ? tag : `"${tag}"`;
  }
  const writing = !['GET', 'HEAD'].includes(method);
  const address = url(path, options.query);
  // A change the outbox can carry keeps its place behind the changes already waiting there.
  const queueable = writing && device && !options.replay && device.queueable(method, path, options.body);
  const enqueue = async () => {
    const change = {
      method, path, query: options.query || null, body: options.body ?? null, ifMatch: headers['If-Match'] || null,
      idempotencyKey: options.idempotencyKey || newKey(), ...(options.queue || {}),
    };
    throw new QueuedError(await device.enqueue(change));
  };
  if (queueable && device.waiting()) return enqueue();
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  let response;
  try {
    response = await fetch(address, { method, headers, body, credentials: 'same-origin', cache: 'no-store', signal: options.signal });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    // The device's copy stands in only when VetNet cannot be reached at all, not when one
    // call failed on its way (then the screen says so, as it would without a copy).
    if (!writing && device && !options.blob && !options.live && !(await reachable())) {
      device.unreachable();
      const copy = await device.recall(path, options.query || {}, address);
      if (copy) return { status: 200, data: copy.data, etag: copy.etag ?? null, headers: new Headers(), offline: copy.at };
    }
    if (writing) device?.unreachable();
    if (queueable) return enqueue();
    throw new ApiError(0, offlineProblem(method, path));
  }
  device?.reached();
  if (response.status === 401 && path !== '/auth/login' && !options.noRetry && reauthenticate) {
    await reauthenticate();
    return request(method, path, { ...options, noRetry: true });
  }
  const type = response.headers.get('Content-Type') || '';
  let data = null;
  if (response.status !== 204 && response.status !== 304) {
    if (type.includes('json')) data = await response.json().catch(() => null);
    else if (options.blob) data = await response.blob();
    else data = await response.text();
  }
  if (!response.ok) throw new ApiError(response.status, data && typeof data === 'object' ? data : null);
  if (!writing && device && data && typeof data === 'object' && !options.blob) device.remember(path, options.query || {}, address, data, response.headers.get('ETag'));
  return { status: response.status, data, etag: response.headers.get('ETag'), headers: response.headers };
}

/** GET → the JSON body. */
export async function get(path, query, options = {}) { return (await request('GET', path, { ...options, query })).data; }
/** POST JSON → the JSON body. */
export async function post(path, body, options = {}) { return (await request('POST', path, { ...options, body })).data; }
/** PUT JSON → the JSON body. */
export async function put(path, body, options = {}) { return (await request('PUT', path, { ...options, body })).data; }
/** PATCH JSON → the JSON body. */
export async function patch(path, body, options = {}) { return (await request('PATCH', path, { ...options, body })).data; }
/** DELETE → nothing. */
export async function del(path, options = {}) { await request('DELETE', path, options); }

/** A fresh key for Idempotency-Key, so a retried booking or creation happens once. Built from
 *  getRandomValues, which (unlike randomUUID) also works on a practice's plain-HTTP network. */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// MARK: - Sessions

/** The problem type of a sign-in that needs the account's second factor (a code). */
export const SECOND_FACTOR_REQUIRED = 'https://vetnet.dev/problems/second-factor-required';

/** Signs in for a cookie session, with the authenticator or recovery `code`, or a `passkey`
 *  answer, when the account has a second factor; resolves to the sign-in's answer (the account, and whether the session
 *  must set up a second factor first). */
export async function signIn(email, password, code, passkey) {
  const body = { email, password, session: 'cookie' };
  if (code) body.code = code;
  if (passkey) body.passkey = passkey;
  const { data } = await request('POST', '/auth/login', { body, noRetry: true });
  return data;
}

/** Unlocks a registered shared device with the staff member's PIN, or with one of their
 *  passkeys' `passkey` answer instead (a cookie session). */
export async function unlock(email, pin, passkey) {
  const body = { email, session: 'cookie' };
  if (passkey) body.passkey = passkey; else body.pin = pin;
  const { data } = await request('POST', '/auth/unlock', { body, noRetry: true });
  return data;
}

/** Whether this browser is a registered shared device: {registered, name, idleLockSeconds}. */
export async function workstation() {
  try { return (await request('GET', '/auth/workstation', { noRetry: true })).data; } catch { return { registered: false }; }
}

/** The problem type of a PIN unlock that needs a full sign-in on the device first. */
export const FULL_SIGN_IN_REQUIRED = 'https://vetnet.dev/problems/full-sign-in-required';

/** Ends the session; the server clears both cookies. */
export async function signOut() {
  try { await request('POST', '/auth/logout', { noRetry: true }); } catch (error) { if (error.status !== 401) throw error; }
}

/** The signed-in account, its practice and permissions; null when there is no session. */
export async function me() {
  try { return (await request('GET', '/me', { noRetry: true })).data; } catch (error) {
    if (error.status === 401) return null;
    throw error;
  }
}
