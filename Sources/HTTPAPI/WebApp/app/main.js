// Starts the app: finds out whether this browser has a session, shows sign-in or the
// role's home, loads the triage catalogue, builds the navigation for the role, and opens the
// live stream. Without a connection it starts on the last session of this device, from the
// app files its service worker keeps and the data kept encrypted in IndexedDB (offline/).

import * as api from './api.js';
import * as catalogue from './catalogue.js';
import * as live from './live.js';
import * as router from './router.js';
import { h, replace, busy, toast, setTimeZone, watchNumberFields } from './ui.js';
import { renderSignIn, signInDialog } from './screens/signin.js';
import { renderSetup, openAccountDialog } from './screens/second-factor.js';
import { watchIdle, stopWatching, showLock, rememberPerson } from './screens/shared-device.js';
import * as store from './offline/store.js';
import * as sync from './offline/sync.js';
import * as outbox from './offline/outbox.js';

const main = document.getElementById('main');
const SIGNED_OUT = 'vetnet-signed-out-offline';
let session = null;

/** What every screen knows about the signed-in person. */
function makeSession(me) {
  const permissions = new Set(me.permissions);
  return {
    user: me.user,
    practice: me.practice,
    role: me.user.role,
    can: (permission) => permissions.has(permission),
  };
}

const can = (permission) => (s) => s.can(permission);

router.route('/home', { title: 'Home', nav: 'Home', load: () => import('./screens/home.js') });
router.route('/intake', { title: 'Intake', nav: 'Intake', allowed: can('triage'), load: () => import('./screens/intake.js') });
router.route('/er', { title: 'ER board', nav: 'ER board', allowed: can('triage'), load: () => import('./screens/er-board.js') });
router.route('/schedule', { title: 'Schedule', nav: 'Schedule', allowed: can('book'), load: () => import('./screens/schedule.js') });
router.route('/schedule/plan', { title: 'Plan open requests', allowed: (s) => s.can('optimizeSchedule'), load: () => import('./screens/optimizer.js') });
router.route('/patients', { title: 'Patients', nav: 'Patients', allowed: can('readRecords'), load: () => import('./screens/patients.js') });
// Before '/patients/:id', which would take "new" for an id.
router.route('/patients/new', { title: 'Register a patient', allowed: can('writeRecords'), load: () => import('./screens/register.js') });
router.route('/patients/:id', { title: 'Patient record', allowed: can('readRecords'), load: () => import('./screens/record.js') });
router.route('/recalls', { title: 'Recalls', nav: 'Recalls', allowed: can('readRecords'), load: () => import('./screens/recalls.js') });
router.route('/consult', { title: 'Consultation', allowed: can('writeClinical'), load: () => import('./screens/consult.js') });
router.route('/clinicians', { title: 'Clinicians', nav: 'Clinicians', allowed: can('readRecords'), load: () => import('./screens/clinicians.js') });
router.route('/analytics', { title: 'Analytics', nav: 'Analytics', allowed: can('readAnalytics'), load: () => import('./screens/analytics.js') });
router.route('/admin', { title: 'Administration', nav: 'Admin', allowed: (s) => s.can('manageStaff') || s.can('readAudit'),
  load: () => import('./screens/admin.js') });

async function boot() {
  if (await takeOverUpdate()) return;
  // A sign-out made offline ends the server's session once it can be reached.
  if (localStorage.getItem(SIGNED_OUT)) {
    try { await api.signOut(); localStorage.removeItem(SIGNED_OUT); } catch { showSignIn(); return; }
  }
  let me;
  try { me = await api.me(); } catch (error) {
    // Not reachable: the last session of this device, from what it keeps.
    const kept = error.status === 0 ? await store.resume() : null;
    if (kept) { sync.attach({ offline: true }); enter(kept); return; }
    replace(main, h('section', { class: 'screen' }, h('h1', {}, 'VetNet'), h('p', { class: 'notice notice-error', role: 'alert' }, error.message),
      h('button', { class: 'button', type: 'button', on: { click: boot } }, 'Try again')));
    return;
  }
  if (me) await arrive(me); else showSignIn();
}

/** Into the app for `me`, or first to setting up a second factor when the practice asks one
 *  of their role and they have none (the session may do nothing else until then). */
async function arrive(me) {
  if (me.mustEnrolSecondFactor) { showSecondFactorSetup(me); return; }
  await begin(me);
  enter(me);
}

function showSecondFactorSetup(me) {
  document.getElementById('top-bar').hidden = true;
  document.title = 'Set up two-factor sign-in · VetNet';
  const place = h('div', {});
  const signOut = h('button', { type: 'button', class: 'button quiet' }, 'Sign out');
  signOut.addEventListener('click', async () => { try { await api.signOut(); } catch { /* ends at its expiry */ } showSignIn(); });
  replace(main, h('div', { class: 'sign-in' },
    h('div', { class: 'brand large' }, h('img', { src: '/app/icon.svg', alt: '', width: 48, height: 48 }), h('span', {}, 'VetNet')),
    h('p', {}, `Signed in as ${me.user.displayName} (${roleName(me.user.role)}), ${me.practice.name}.`),
    place,
    h('div', { class: 'row wrap' }, signOut)));
  renderSetup(place, {
    intro: `${me.practice.name} asks ${roleName(me.user.role).toLowerCase()}s to sign in with a code from an authenticator app on their phone as well as their password. Set it up now to carry on.`,
    onDone: async () => {
      const again = await api.me();
      if (again) await arrive(again); else showSignIn();
    },
  });
}

/** Takes the device for the signed-in account: the encrypted copy under this session's key. */
async function begin(me) {
  try { await store.begin(me); sync.attach(); } catch {
    // No IndexedDB or WebCrypto (a private window, plain HTTP): online only.
  }
}

/** The service worker that keeps the app for starting without a connection. A newer version
 *  found at an earlier start takes over now, before anything is drawn (resolves true: the page
 *  reloads with it); one found during a session waits for the next start. */
async function takeOverUpdate() {
  if (!('serviceWorker' in navigator)) return false;
  let registration;
  try { registration = await navigator.serviceWorker.register('/sw.js', { updateViaCache: 'none' }); } catch { return false; }
  if (!navigator.serviceWorker.controller) return false;
  // Asks for the server's version (registering again does not); one found now has a few
  // seconds to finish keeping its files, else it takes over at the next start.
  try { await registration.update(); } catch { /* offline: the version kept stays */ }
  const installing = registration.installing;
  if (installing) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 4000);
      installing.addEventListener('statechange', () => { if (installing.state !== 'installing') { clearTimeout(timer); resolve(); } });
    });
  }
  if (registration.waiting) {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    registration.waiting.postMessage('take-over');
    return true;
  }
  return false;
}

async function showSignIn(email = '') {
  document.getElementById('top-bar').hidden = true;
  // A registered shared device opens on its PIN unlock; a password sign-in is one tap away.
  const workstation = email ? { registered: false } : await api.workstation();
  if (workstation.registered) {
    replace(main);
    showLock({
      person: null, deviceName: workstation.name,
      onUnlocked: async () => { localStorage.removeItem(SIGNED_OUT); const me = await api.me(); if (me) await arrive(me); },
      onPasswordSignIn: () => showPasswordSignIn(),
    });
    return;
  }
  showPasswordSignIn(email);
}

function showPasswordSignIn(email = '') {
  document.getElementById('top-bar').hidden = true;
  main.hidden = false;
  document.title = 'Sign in · VetNet';
  renderSignIn(main, {
    email,
    onSignedIn: async () => {
      localStorage.removeItem(SIGNED_OUT);
      const me = await api.me();
      if (me) await arrive(me);
    },
  });
}

async function enter(me) {
  // The levels, findings and vocabularies every screen shows, before any screen renders.
  const ready = await catalogue.load();
  session = makeSession(me);
  showCatalogueProblem(!ready);
  setTimeZone(me.practice.timeZone);
  document.getElementById('practice-name').textContent = me.practice.name;
  // Name and role, always on screen (a shared iPad changes hands).
  // The name opens the account's two-factor sign-in.
  const person = h('button', { type: 'button', class: 'account-button', title: 'Sign-in and security', 'aria-haspopup': 'dialog' },
    h('span', { class: 'account-person' }, me.user.displayName),
    h('span', { class: 'account-role' }, h('span', { class: 'visually-hidden' }, ', '), roleName(me.user.role)));
  person.addEventListener('click', () => openAccountDialog(person));
  replace(document.getElementById('account-name'), person);
  const nav = document.getElementById('nav');
  replace(nav, h('ul', {}, router.navigation(session).map((item) =>
    h('li', {}, h('a', { href: item.href, dataset: { pattern: item.pattern } }, item.label)))));
  document.getElementById('top-bar').hidden = false;
  followTopBar();
  watchWorkstation();
  live.start();
  if (store.ready()) sync.start(session);
  if (!window.location.hash || window.location.hash === '#/') window.location.replace('#/home');
  router.start(main, session, '#/home');
}

/** Says that the triage catalogue could not be loaded (the screens show level numbers and
 *  say what they cannot offer), with a way to load it again and redraw the screen with it. */
function showCatalogueProblem(shown) {
  const banner = document.getElementById('catalogue-banner');
  banner.hidden = !shown;
  if (!shown) { banner.replaceChildren(); return; }
  const retry = h('button', { type: 'button', class: 'button' }, 'Try again');
  retry.addEventListener('click', () => busy(retry, async () => {
    if (!(await catalogue.load())) { toast('The triage catalogue still cannot be loaded.', 'error'); return; }
    showCatalogueProblem(false);
    router.reload();
  }, 'Loading…'));
  replace(banner, 'The triage levels and findings could not be loaded: levels show as numbers. ', retry);
}

function roleName(role) {
  return { administrator: 'Administrator', veterinarian: 'Veterinarian', technician: 'Technician', receptionist: 'Reception' }[role] || role;
}

// A tap on the screen already shown starts it afresh (Intake: the next arrival, not the
// previous patient and findings); the address does not change, so no hashchange would.
document.getElementById('nav').addEventListener('click', (event) => {
  const link = event.target.closest('a[href]');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (link.getAttribute('href') === window.location.hash) { event.preventDefault(); router.reload(); }
});

// The sticky top bar's height, for the scroll padding that keeps a focused control clear of
// it (and for the screens' own sticky parts); 0 where the bar scrolls away (phones).
let topBarObserver = null;
function followTopBar() {
  const bar = document.getElementById('top-bar');
  const measure = () => {
    const sticky = !bar.hidden && getComputedStyle(bar).position === 'sticky';
    document.documentElement.style.setProperty('--top-bar-height', `${sticky ? Math.ceil(bar.getBoundingClientRect().height) : 0}px`);
  };
  if (!topBarObserver && 'ResizeObserver' in window) {
    topBarObserver = new ResizeObserver(measure);
    topBarObserver.observe(bar);
    window.addEventListener('resize', measure);
  }
  measure();
}

// MARK: - Shared devices

let workstation = { registered: false };

/** On a registered shared device: the Lock button and the lock after the device's idle time. */
async function watchWorkstation() {
  workstation = await api.workstation();
  document.getElementById('lock-button').hidden = !workstation.registered;
  if (workstation.registered && session) rememberPerson(session.user);
  watchIdle(workstation, lock);
}

/** Locks a shared device: the session ends and the screen is hidden until someone unlocks
 *  with their PIN. The same person carries on where they were; someone else starts afresh. */
async function lock() {
  if (!session) return;
  const kept = session;
  // A call still in flight that finds the session ended must not ask for a sign-in.
  session = null;
  live.stop();
  sync.stop();
  try { await api.signOut(); } catch { localStorage.setItem(SIGNED_OUT, '1'); }
  showLock({
    person: kept.user, deviceName: workstation.name,
    onUnlocked: async (user) => {
      localStorage.removeItem(SIGNED_OUT);
      if (user.id !== kept.user.id) { window.location.reload(); return; }
      const me = await api.me();
      if (!me) { window.location.reload(); return; }
      await begin(me); // the new session's key for the device's copy
      session = kept;
      document.getElementById('top-bar').hidden = false;
      live.start();
      if (store.ready()) sync.start(session);
      watchIdle(workstation, lock);
    },
    onPasswordSignIn: async () => {
      await store.wipe();
      router.stop();
      window.location.hash = '';
      showPasswordSignIn();
    },
  });
}

document.getElementById('lock-button').addEventListener('click', () => lock());

document.getElementById('outbox-button').addEventListener('click', (event) => outbox.openOutbox(event.currentTarget));

document.getElementById('sign-out').addEventListener('click', async () => {
  const unsent = outbox.all().length;
  if (unsent && !window.confirm(`${unsent} change${unsent === 1 ? ' has' : 's have'} not been sent to VetNet yet. Signing out deletes ${unsent === 1 ? 'it' : 'them'} from this device. Sign out anyway?`)) return;
  // From here a call of the screen still in flight that finds the session ended is not a
  // reason to ask the person leaving to sign in again.
  session = null;
  try { await api.signOut(); } catch {
    // Offline: the device's copy is deleted all the same, and the session ended at the next start.
    localStorage.setItem(SIGNED_OUT, '1');
  } finally {
    live.stop();
    sync.stop();
    stopWatching();
    // The practice's data leaves the device with the person.
    await store.wipe();
    router.stop();
    showCatalogueProblem(false);
    session = null;
    window.location.hash = '';
    showSignIn();
  }
});

// A session that ends mid-work: sign in again over the current screen, keeping what was typed.
let pending = null;
api.onSessionExpired(() => {
  if (!session) return Promise.reject(new api.ApiError(401, { detail: 'Sign in first.' }));
  if (!pending) {
    const previous = session.user.id;
    pending = signInDialog({ email: session.user.email }).then(async () => {
      const me = await api.me();
      // Someone else signed in: start over as them rather than show the previous person's screen.
      if (!me || me.user.id !== previous) { window.location.reload(); return new Promise(() => {}); }
      await begin(me); // the new session's key for the device's copy
      return undefined;
    }).finally(() => { pending = null; });
  }
  return pending;
});

watchNumberFields();
boot();
