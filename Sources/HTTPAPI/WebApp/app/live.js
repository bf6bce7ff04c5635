// The one place the app listens to the practice's live event stream (GET /api/v1/events,
// Server-Sent Events, authenticated by the session cookie). Screens subscribe to the kinds
// they show and refetch when one arrives. When the stream drops, a banner says so, the
// screens keep what they last showed, and on return the app catches up from the change feed
// (GET /api/v1/changes?after=…). Where the server offers no stream, the banner says live
// updates are unavailable and the subscribed screens refresh on a timer instead.

import { get } from './api.js';
import { time } from './ui.js';

const POLL_SECONDS = 30;
const RETRY_SECONDS = 60;
const BATCH_MS = 60;

let source = null;
let state = 'idle'; // idle | connecting | live | reconnecting | unavailable
let lastSequence = null;
let lastData = null; // when the screens last had fresh data (shown while the stream is down)
let pollTimer = null;
let retryTimer = null;
let everOpened = false;
const subscribers = new Set();
const stateListeners = new Set();

/** The stream's state. */
export function status() { return state; }

/** Calls `listener(state)` on every change of state; returns the unsubscribe function. */
export function onStatus(listener) { stateListeners.add(listener); return () => stateListeners.delete(listener); }

/** Subscribes to event kinds ('appointment.*' matches a family; 'reset' is always delivered).
 *  `handler(events)` gets the events of a burst together; an event of kind 'reset' means the
 *  screen must reload everything; 'poll' means the periodic refresh while there is no stream.
 *  Returns the unsubscribe function. */
export function subscribe(kinds, handler) {
  const subscriber = { kinds, handler, pending: [], timer: null };
  subscribers.add(subscriber);
  return () => { clearTimeout(subscriber.timer); subscribers.delete(subscriber); };
}

/** Opens the stream for the signed-in session. */
export function start() {
  if (source || state === 'live') return;
  everOpened = false;
  lastData = Date.now();
  if (!('EventSource' in window)) { unavailable(); return; }
  open();
}

/** Closes the stream (sign-out). */
export function stop() {
  if (source) source.close();
  source = null;
  clearInterval(pollTimer); pollTimer = null;
  clearTimeout(retryTimer); retryTimer = null;
  lastSequence = null;
  setState('idle');
}

function open(after = null) {
  setState(everOpened ? 'reconnecting' : 'connecting');
  // A stream opened anew carries no Last-Event-ID; `after` resumes it where the app stands.
  const stream = new EventSource(after === null ? '/api/v1/events' : `/api/v1/events?after=${after}`);
  source = stream;
  stream.addEventListener('open', async () => {
    const resumed = everOpened || state === 'unavailable';
    everOpened = true;
    clearInterval(pollTimer); pollTimer = null;
    setState('live');
    // The browser resends Last-Event-ID when it reconnects by itself; a stream opened anew
    // (after a refusal) starts at "now", so what happened meanwhile comes from the feed.
    if (resumed) await catchUp();
    lastData = Date.now();
  });
  stream.addEventListener('error', () => {
    if (source !== stream) return;
    if (stream.readyState === EventSource.CLOSED) {
      // Refused (no such endpoint, signed out, server error): the browser will not retry.
      source = null;
      if (everOpened) { setState('reconnecting'); scheduleRetry(5); } else unavailable();
    } else {
      setState('reconnecting'); // the browser retries on its own, with Last-Event-ID
    }
  });
  const onFrame = (frame) => {
    let event;
    try { event = JSON.parse(frame.data); } catch { return; }
    if (frame.type === 'ready') {
      if (lastSequence === null && typeof event.headSequence === 'number') lastSequence = event.headSequence;
      // The server names every kind it may send: an EventSource delivers only the named
      // events it listens for, and the frames after this one are dispatched after it.
      for (const kind of Array.isArray(event.kinds) ? event.kinds : []) {
        if (typeof kind === 'string' && !listening.has(kind)) { listening.add(kind); stream.addEventListener(kind, onFrame); }
      }
      return;
    }
    if (frame.type === 'reset') {
      // The position cannot be continued: the browser would reconnect with the same
      // Last-Event-ID and be told so again, so this stream is closed and a new one opened
      // from the head once the screens have reloaded.
      stream.close();
      source = null;
      reset(event);
      if (typeof event.headSequence === 'number') open(event.headSequence); else scheduleRetry(1);
      return;
    }
    if (frame.type === 'session_ended') {
      // Signed out or revoked: the next call asks to sign in again (keeping what was typed).
      stream.close();
      source = null;
      setState('reconnecting');
      get('/me').catch(() => {});
      scheduleRetry(5);
      return;
    }
    if (event.sequence === undefined && frame.lastEventId) event.sequence = Number(frame.lastEventId);
    if (!event.kind) event.kind = frame.type;
    deliver(event);
  };
  const listening = new Set();
  for (const kind of ['ready', 'reset', 'session_ended']) stream.addEventListener(kind, onFrame);
  stream.addEventListener('message', onFrame);
}

function unavailable() {
  setState('unavailable');
  if (!pollTimer) pollTimer = setInterval(() => broadcast({ kind: 'poll' }), POLL_SECONDS * 1000);
  scheduleRetry(RETRY_SECONDS);
}

function scheduleRetry(seconds) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => { if (!source && state !== 'idle') open(); }, seconds * 1000);
}

/** Reads the change feed from the last event seen and delivers what was missed. */
async function catchUp() {
  if (lastSequence === null) { broadcast({ kind: 'reset', reason: 'reconnected' }); return; }
  try {
    for (let guard = 0; guard < 50; guard += 1) {
      const page = await get('/changes', { after: lastSequence, limit: 200 });
      if (page.reset) { reset({ reason: 'the missed changes are no longer kept', headSequence: page.headSequence }); return; }
      for (const event of page.items || []) deliver(event);
      if (!page.hasMore) return;
    }
  } catch {
    // No feed to read: reload what is on screen instead.
    broadcast({ kind: 'reset', reason: 'reconnected' });
  }
}

function reset(info) {
  if (typeof info.headSequence === 'number') lastSequence = info.headSequence;
  broadcast({ kind: 'reset', reason: info.reason });
}

function deliver(event) {
  if (typeof event.sequence === 'number') {
    if (lastSequence !== null && event.sequence <= lastSequence) return; // already seen
    lastSequence = event.sequence;
  }
  lastData = Date.now();
  broadcast(event);
}

function matches(kinds, kind) {
  if (kind === 'reset' || kind === 'poll') return true;
  return kinds.some((k) => k === kind || (k.endsWith('.*') && kind.startsWith(k.slice(0, -1))));
}

function broadcast(event) {
  for (const subscriber of subscribers) {
    if (!matches(subscriber.kinds, event.kind)) continue;
    subscriber.pending.push(event);
    if (!subscriber.timer) {
      // A burst (a re-plan moves many appointments) becomes one refetch.
      subscriber.timer = setTimeout(() => {
        const events = subscriber.pending;
        subscriber.pending = [];
        subscriber.timer = null;
        if (subscribers.has(subscriber)) subscriber.handler(events);
      }, BATCH_MS);
    }
  }
}

function setState(next) {
  if (state === next) return;
  state = next;
  renderBanner();
  for (const listener of stateListeners) listener(state);
}

function renderBanner() {
  const banner = document.getElementById('live-banner');
  if (!banner) return;
  const since = lastData ? ` Showing what was known at ${time(lastData)}.` : '';
  const text = {
    reconnecting: `Connection to VetNet lost — reconnecting.${since} Changes made meanwhile will appear when it returns.`,
    unavailable: `Live updates unavailable — this screen refreshes every ${POLL_SECONDS} seconds.`,
  }[state];
  banner.hidden = !text;
  banner.textContent = text || '';
  banner.className = `live-banner live-${state}`;
}
