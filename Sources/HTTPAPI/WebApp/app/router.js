// Hash routes (#/schedule?date=2026-11-24, #/patients/<id>): deep links that need no server
// route and never carry a credential. Each screen is a module under screens/ exporting
// `render(container, {params, query, session})`, which returns a cleanup function (closing
// its live subscriptions and timers) or nothing. Modules load on first use.

import { h, announce } from './ui.js';

const routes = [];
let current = null;
let session = null;
let container = null;
let fallback = '#/';

/** Declares a route: `pattern` like '/patients/:id'; `load` imports the screen module;
 *  `allowed(session)` decides whether the signed-in role may open it. */
export function route(pattern, { title, load, allowed = () => true, nav }) {
  const names = [];
  const regex = new RegExp(`^${pattern.replace(/:[a-z]+/g, (m) => { names.push(m.slice(1)); return '([^/]+)'; })}$`);
  routes.push({ pattern, regex, names, title, load, allowed, nav });
}

/** The routes to show in the navigation for this session. */
export function navigation(forSession) {
  return routes.filter((r) => r.nav && r.allowed(forSession)).map((r) => ({ href: `#${r.pattern}`, label: r.nav, pattern: r.pattern }));
}

/** Starts routing into `target` for `signedIn`; `home` is where '#/' leads for this role. */
export function start(target, signedIn, home) {
  container = target;
  session = signedIn;
  fallback = home;
  window.removeEventListener('hashchange', show);
  window.addEventListener('hashchange', show);
  show();
}

/** Stops routing (sign-out) and closes the current screen. */
export function stop() {
  window.removeEventListener('hashchange', show);
  closeCurrent();
  session = null;
}

/** Navigates to `hash` ('#/patients/…'). */
export function go(hash) {
  if (window.location.hash === hash) show(); else window.location.hash = hash;
}

/** Re-renders the current screen (after a reset of the live stream, or a new sign-in). */
export function reload() { show(); }

function closeCurrent() {
  if (current?.cleanup) { try { current.cleanup(); } catch { /* a screen's cleanup must not stop navigation */ } }
  current = null;
}

async function show() {
  if (!session) return;
  const raw = window.location.hash.slice(1) || '/';
  if (raw === '/' || raw === '') { window.location.replace(fallback); return; }
  const [path, search = ''] = raw.split('?');
  const query = Object.fromEntries(new URLSearchParams(search));
  const match = routes.map((r) => ({ r, m: r.regex.exec(path) })).find((x) => x.m);
  closeCurrent();
  const token = {};
  current = token;
  markNavigation(match?.r.pattern);
  if (!match) {
    container.replaceChildren(h('section', { class: 'screen' }, h('h1', {}, 'Not found'), h('p', {}, 'There is no screen at this address. '), h('a', { href: fallback }, 'Go to your home screen')));
    return;
  }
  if (!match.r.allowed(session)) {
    container.replaceChildren(h('section', { class: 'screen' }, h('h1', {}, 'Not available'), h('p', {}, 'Your role does not include this screen.'), h('a', { href: fallback }, 'Go to your home screen')));
    return;
  }
  const params = Object.fromEntries(match.r.names.map((name, i) => [name, decodeURIComponent(match.m[i + 1])]));
  container.setAttribute('aria-busy', 'true');
  let module;
  try { module = await match.r.load(); } catch {
    container.replaceChildren(h('p', { class: 'notice notice-error', role: 'alert' }, 'This screen could not be loaded; check the connection and try again.'));
    container.removeAttribute('aria-busy');
    return;
  }
  if (current !== token) return; // another navigation started meanwhile
  const screen = h('div', { class: 'screen-host' });
  container.replaceChildren(screen);
  document.title = `${match.r.title} · VetNet`;
  const cleanup = module.render(screen, { params, query, session });
  token.cleanup = cleanup;
  container.removeAttribute('aria-busy');
  // Focus the screen's heading, so keyboard and screen-reader users start at the new content.
  const heading = screen.querySelector('h1');
  if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus({ preventScroll: false }); }
  announce(`${match.r.title} screen`);
}

function markNavigation(pattern) {
  document.querySelectorAll('#nav a').forEach((a) => {
    const active = pattern && a.dataset.pattern === pattern.split('/:')[0].replace(/\/$/, '')
      || (pattern && pattern.startsWith(a.dataset.pattern + '/'));
    if (active) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
}
