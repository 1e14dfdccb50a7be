/* The book offline after one visit: this service worker caches every file of the built site
 * (pages, search index, BokehJS, the engine's runtime and library) when a page first registers
 * it, and answers from that cache, so a reader who opened the book once can open any chapter and
 * use every widget with no network.
 *
 * book/_ext/offline.py writes it to the site root as sw.js, preceded by one line of data:
 *   const OFFLINE = {version, files};   // files: paths relative to the site root
 * The version is a digest of every file, so a new build is a new worker with a new cache; the old
 * cache is deleted once the new worker takes over: when no page of the old build is open, or when
 * the reader accepts the page's notice (widgets/js/offline.js), which reloads that page.
 * Every address is relative to the worker's own scope: the site works under any sub-path.
 */
/* global OFFLINE */
"use strict";

const PREFIX = "rulebook-";
const CACHE = PREFIX + OFFLINE.version;
const SCOPE = self.registration.scope;            // the site root, ending with "/"
const BATCH = 8;                                   // files fetched at once while installing

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

async function precache() {
  const cache = await caches.open(CACHE);
  const files = OFFLINE.files.slice();
  while (files.length) {
    const batch = files.splice(0, BATCH);
    // reload: never take a file of an older build from the browser's HTTP cache
    await cache.addAll(batch.map((f) => new Request(new URL(f, SCOPE).href, {cache: "reload"})));
  }
}

// a page of the old build asks for the new one (the reader pressed the notice's button)
self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
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
  if (url.origin !== self.location.origin || !url.href.startsWith(SCOPE)) return;
  event.respondWith(answer(request, url));
});

async function answer(request, url) {
  // the site is static: a query (?v=… on assets, ?highlight=… on pages) never changes a file
  let key = url.origin + url.pathname;
  if (key.endsWith("/")) key += "index.html";
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  // a cached response carries the address it was stored under (no query); a module worker reads
  // its settings from its own address's query (import.meta.url), so answer with a fresh Response,
  // which takes the request's address
  if (hit && url.search) return new Response(hit.body, {status: hit.status, statusText: hit.statusText, headers: hit.headers});
  if (hit) return hit;
  try {
    return await fetch(request);
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
