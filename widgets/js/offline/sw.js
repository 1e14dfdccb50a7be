/* The book offline after one visit, without making the first visit heavy.
 *
 * book/_ext/offline.py writes this worker to the site root as sw.js, preceded by one line of data:
 *   const OFFLINE = {version, files: [[path, digest, size, group, query], ...]};
 * paths relative to the site root; digest: the first 12 hex digits of the file's SHA-256; query:
 * the address's query the pages use ("?v=…"); group: when the file is kept —
 *   "a" what pages load and "p" the pages: at install, the open page and what it loaded are
 *       copied from the browser's HTTP cache (never downloaded again); the rest when a page asks
 *       ({type: "save", what: "pages"}; widgets/js/offline.js does unless the reader's browser
 *       asks to save data);
 *   "e" the in-page engine: once a reader has changed a widget ({type: "save", what: "engine"},
 *       unless the browser asks to save data), from the HTTP cache where the engine's worker
 *       loaded it, else downloaded in the background;
 *   "s" the search index: when the search page was used ({type: "save", what: "search"}), the
 *       whole index (each query reads other pieces of it), so that search works offline after;
 *   "o" the rest: when first fetched;
 * and everything on the reader's request ({type: "save", what: "all"}), with progress messages
 * ({type: "progress", done, total, bytes, totalBytes}, then {type: "saved", failed}).
 * While a page waits for its engine to boot ({type: "hold"} … {type: "go"}, sent by offline.js),
 * downloads for keeping wait, so that the engine's own download has the connection (a hold lasts
 * at most HOLD_MS); copies of what the open page loaded (cacheOnly) go on.
 * Any same-origin file a page fetches (a page not kept yet, a search-index chunk) is kept when it
 * arrives. Every download is checked against its digest before it is kept, so a file of another
 * build (an older one from the HTTP cache, a newer one on the server) is never mixed in.
 *
 * A new build is a new worker with a new cache: it copies the files whose digest did not change
 * from the old cache, downloads the changed ones the old cache held, and takes over when no page of
 * the old build is open, or when the reader accepts the page's notice (offline.js). The old cache
 * is then deleted. Every address is relative to the worker's scope: the site works under any
 * sub-path.
 */
/* global OFFLINE */
"use strict";

const PREFIX = "rulebook-";
const CACHE = PREFIX + OFFLINE.version;
const SCOPE = self.registration.scope;            // the site root, ending with "/"
const DIGEST = "X-Book-Digest";                    // header of a kept response: its file's digest
const AT_ONCE = 4;                                 // downloads at once when saving in the background
const FILES = new Map(OFFLINE.files.map(([path, digest, size, group, query]) =>
  [SCOPE + path, {path, digest, size, group, query}]));
const inflight = new Map();                        // key -> Promise of the kept file (or null)
let saveData = false;                              // a page's request said "Save-Data: on"
const HOLD_MS = 60000;                              // the longest a page's engine boot holds downloads
const holds = new Map();                           // page (client id) -> timer ending its hold
let waiting = [];                                  // downloads waiting for the holds to end
const parked = new Set();                          // keys of those downloads (a page never waits for them)

function hold(id) {
  clearTimeout(holds.get(id));
  holds.set(id, setTimeout(() => release(id), HOLD_MS));
}

function release(id) {
  clearTimeout(holds.get(id));
  holds.delete(id);
  if (!holds.size) waiting.splice(0).forEach((go) => go());
}

async function downloadTurn() {
  while (holds.size) await new Promise((go) => waiting.push(go));
}

function keyOf(url) {
  // the site is static: a query (?v=… on assets, ?highlight=… on pages) never changes a file
  const u = new URL(url);
  let key = u.origin + u.pathname;
  if (key.endsWith("/")) key += "index.html";
  return key;
}

function inScope(url) {
  return url.origin === self.location.origin && url.href.startsWith(SCOPE);
}

async function digestOf(buffer) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(hash.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
}

/* Keep one response under key if it is this build's file (or a file the list does not know).
 * Returns whether it was kept. */
async function keep(cache, key, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return false;
  const body = await response.arrayBuffer();
  const file = FILES.get(key);
  const digest = await digestOf(body);
  if (file && digest !== file.digest) return false;
  const headers = new Headers(response.headers);
  headers.set(DIGEST, digest);
  await cache.put(key, new Response(body, {status: 200, statusText: response.statusText, headers}));
  return true;
}

/* Download one listed file (or copy it from the HTTP cache) and keep it; the same file asked
 * twice at once is fetched once. cacheOnly: only from the HTTP cache, never the network. */
function fetchAndKeep(cache, key, {cacheOnly = false} = {}) {
  if (inflight.has(key)) return inflight.get(key);
  const file = FILES.get(key);
  const url = file ? SCOPE + file.path + file.query : key;
  const job = (async () => {
    if (await cache.match(key)) return true;
    const tries = cacheOnly ? ["only-if-cached"] : ["force-cache", "reload"];
    for (const mode of tries) {
      let response;
      if (!cacheOnly && holds.size) {                        // an engine boot goes first
        parked.add(key);
        await downloadTurn().finally(() => parked.delete(key));
        if (await cache.match(key)) return true;             // the page fetched it meanwhile
      }
      try {
        response = await fetch(url, {cache: mode, mode: "same-origin", credentials: "same-origin"});
      } catch (err) {
        if (mode === "only-if-cached") return false;
        continue;                                 // no network: the next try fails too, or works
      }
      if (await keep(cache, key, response)) return true;
    }
    return false;
  })().finally(() => inflight.delete(key));
  inflight.set(key, job);
  return job;
}

/* Keep every file of the given groups that is not kept yet; report progress to a page. */
async function save(groups, client) {
  const cache = await caches.open(CACHE);
  const kept = new Set((await cache.keys()).map((r) => r.url));
  const wanted = [...FILES].filter(([, f]) => groups.includes(f.group));
  const total = wanted.length;
  const totalBytes = wanted.reduce((n, [, f]) => n + f.size, 0);
  let done = 0, bytes = 0;
  const failed = [];
  const tell = (msg) => client && client.postMessage(msg);
  const todo = wanted.filter(([key, f]) => {
    if (!kept.has(key)) return true;
    done += 1;
    bytes += f.size;
    return false;
  });
  tell({type: "progress", done, total, bytes, totalBytes});
  async function worker() {
    while (todo.length) {
      const [key, file] = todo.shift();
      if (await fetchAndKeep(cache, key)) {
        done += 1;
        bytes += file.size;
      } else {
        failed.push(file.path);
      }
      tell({type: "progress", done, total, bytes, totalBytes});
    }
  }
  await Promise.all(Array.from({length: AT_ONCE}, worker));
  tell({type: "saved", groups, done, total, failed: failed.length});
  return failed;
}

/* What is kept, per group: {a: [kept, total], p: …, e: …, o: …}. */
async function status() {
  const cache = await caches.open(CACHE);
  const kept = new Set((await cache.keys()).map((r) => r.url));
  const out = {};
  for (const [key, f] of FILES) {
    const g = out[f.group] || (out[f.group] = [0, 0, 0, 0]);
    g[1] += 1;
    g[3] += f.size;
    if (kept.has(key)) {
      g[0] += 1;
      g[2] += f.size;
    }
  }
  return out;
}

self.addEventListener("install", (event) => {
  event.waitUntil(install());
});

async function install() {
  const cache = await caches.open(CACHE);
  const olds = (await caches.keys()).filter((n) => n.startsWith(PREFIX) && n !== CACHE);
  // a new build: copy what did not change, download what changed and was kept before
  const changed = new Set();
  for (const name of olds) {
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      const file = FILES.get(request.url);
      if (!file) continue;
      const response = await old.match(request);
      if (response && response.headers.get(DIGEST) === file.digest) await cache.put(request.url, response);
      else changed.add(request.url);
    }
  }
  for (const key of changed) await fetchAndKeep(cache, key);
  // the first visit: the open page and what it loaded, from the HTTP cache only
  const pages = await self.clients.matchAll({type: "window", includeUncontrolled: true});
  const keys = new Set(pages.map((c) => keyOf(c.url)).filter((k) => FILES.has(k)));
  for (const [key, f] of FILES) if (f.group === "a") keys.add(key);
  await Promise.all([...keys].map((key) => fetchAndKeep(cache, key, {cacheOnly: true})));
}

// a page of the old build asks for the new one (the reader pressed the notice's button), or asks
// to keep files
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (msg === "skip-waiting") {
    self.skipWaiting();
    return;
  }
  if (!msg || typeof msg !== "object") return;
  const client = event.source;
  if (msg.type === "save") {
    if ((msg.what === "pages" || msg.what === "engine") &&
        (saveData || (self.navigator.connection || {}).saveData)) return;
    const groups = {pages: ["a", "p"], engine: ["e"], search: ["s"],
                    all: ["a", "p", "e", "s", "o"]}[msg.what];
    if (groups) event.waitUntil(save(groups, msg.what === "all" ? client : null)
      .then(() => status()).then((s) => client && client.postMessage({type: "status", status: s})));
  } else if (msg.type === "hold" && client) {
    hold(client.id);
  } else if (msg.type === "go" && client) {
    release(client.id);
  } else if (msg.type === "status") {
    event.waitUntil(status().then((s) => client && client.postMessage({type: "status", status: s})));
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();   // the first visit's page is answered from the cache too
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!inScope(url)) return;
  if (request.mode === "navigate" && request.headers.get("Save-Data") === "on") saveData = true;
  event.respondWith(answer(event, request, url));
});

async function answer(event, request, url) {
  const key = keyOf(url);
  const cache = await caches.open(CACHE);
  let hit = await cache.match(key);
  if (!hit && inflight.has(key) && !parked.has(key)) {   // being kept right now: wait, do not fetch twice
    await inflight.get(key);
    hit = await cache.match(key);
  }
  // a kept response carries the address it was stored under (no query); a module worker reads
  // its settings from its own address's query (import.meta.url), so answer with a fresh Response,
  // which takes the request's address
  if (hit && url.search) return new Response(hit.body, {status: hit.status, statusText: hit.statusText, headers: hit.headers});
  if (hit) return hit;
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.type === "basic") {
      // keep it as it arrives (a page not kept yet, a search-index chunk, the engine)
      const job = keep(cache, key, response.clone()).catch(() => false).finally(() => inflight.delete(key));
      inflight.set(key, job);
      event.waitUntil(job);
    }
    return response;
  } catch (err) {
    if (request.mode !== "navigate") throw err;
    return new Response(
      '<!doctype html><html lang="ko"><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      "<title>연결 없음</title><p>인터넷에 연결되어 있지 않고, 이 페이지는 아직 저장되지 않았습니다. " +
      "연결된 상태에서 책을 한 번 열어 두면 모든 장을 인터넷 없이 볼 수 있습니다.</p></html>",
      {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
  }
}
