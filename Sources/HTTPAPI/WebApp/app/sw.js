// The service worker that lets the app start without a connection. The server serves this
// file as /sw.js with a first line naming the app's version (ASSET_VERSION, a hash of every
// app file) and its files (ASSET_FILES), so a new build is a new worker.
//
// One version at a time: a worker caches every file of its version before it is installed,
// and answers the app's files only from that cache, so the code of one running app never
// mixes two versions. A newer version waits until the app starts again (main.js then lets it
// take over before anything is drawn). API answers are never put in this cache: what the app
// keeps of the practice's data is encrypted in IndexedDB.
/* global ASSET_VERSION, ASSET_FILES */

const PREFIX = 'vetnet-app-';
const CACHE = `${PREFIX}${ASSET_VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSET_FILES.map((path) => new Request(path, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('message', (event) => {
  // Sent by a starting app only, before it draws anything: no running page mixes versions.
  if (event.data === 'take-over') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const address = new URL(request.url);
  if (address.origin !== self.location.origin) return;
  // The app's page and files only: the API, /sw.js, calendar feeds and the health checks go
  // to the network as they are.
  const page = address.pathname === '/' || address.pathname === '/index.html';
  if (!page && !address.pathname.startsWith('/app/')) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(page ? '/' : address.pathname);
    if (kept) return kept;
    // A file this version does not list: from the network, without keeping it.
    return fetch(request);
  })());
});
