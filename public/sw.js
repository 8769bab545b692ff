// The playground's service worker: keeps the app and the engine in a cache so that a second
// visit, and a lab without network, start from the cache; a new build is fetched in the
// background and the page offers to switch to it (the banner in index.html).
//
// BUILD is written by the post-build hook (`scripts/build-site.sh --stage-hook`, Trunk.toml
// [[hooks]]): the build's version (a hash over every file's content) and the files to cache,
// relative to this script. Every build changes this file's bytes, which is how the browser
// notices a new version. Without it (the file copied by hand) the worker only passes requests
// through to the network and keeps a copy for offline use.
const BUILD = null;

const PREFIX = 'predabs-';
const CACHE = PREFIX + (BUILD ? BUILD.version : 'network-first');
const SCOPE = new URL('./', self.location).pathname;

self.addEventListener('install', (event) => {
  if (!BUILD) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Files without a content hash in their name (index.html, the worker) are revalidated with
    // the server (a 304 when the page has just loaded them), so that a new version never mixes
    // with an old file; hashed ones may come straight from the HTTP cache.
    const hashed = (file) => /-[0-9a-f]{16}(_bg)?\.[a-z]+$/.test(file);
    await cache.addAll(BUILD.files.map((file) => new Request(file, { cache: hashed(file) ? 'default' : 'no-cache' })));
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The page's "Reload" button on the update banner.
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'skip-waiting') self.skipWaiting();
});

/** The cache key for a request: navigations to the site's folder are its index.html. */
function cacheKey(request) {
  const url = new URL(request.url);
  if (request.mode === 'navigate' && (url.pathname === SCOPE || url.pathname === SCOPE + 'index.html')) {
    return new URL('index.html', self.location).href;
  }
  url.search = '';
  url.hash = '';
  return url.href;
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(cacheKey(request));
  return hit ?? fetch(request);
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(cacheKey(request), response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(cacheKey(request));
    if (hit) return hit;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(BUILD ? cacheFirst(request) : networkFirst(request));
});
