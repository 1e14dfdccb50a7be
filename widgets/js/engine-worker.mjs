/* The in-page engine: the project's own Python library (the `widgets` package, pure Python)
 * running in Pyodide inside this module worker. Everything is loaded from the site itself: the
 * worker's address carries `pyodide` (folder of the vendored runtime) and `bundle`, the library:
 * - a zip (`.zip`, where the build could run Pyodide): the library and only the standard
 *   library's modules the engine reads, compiled to bytecode (book/_ext/vendor_assets.py
 *   engine_zip), loaded through Pyodide's `stdLibURL` instead of the runtime's full
 *   python_stdlib.zip, so that Python starts and imports the library without compiling source;
 * - else JSON {path: source} of the library, written to /rulebook beside the full one.
 * With the zip, `unzstd` names the module (fzstd) that unpacks the wasm and the zip, which the
 * site holds packed with Zstandard (book/_ext/vendor_assets.py zstd_packed).
 *
 * One engine per visit:
 * - Started as a SharedWorker (widgets/js/live.js does where the browser has one, with
 *   `extendedLifetime`, so it outlives the page that started it while the next page of the book
 *   opens), every page and tab of the book asks the same running engine; as a dedicated Worker
 *   (elsewhere) each page has its own.
 * - Booting the first time imports the library's entry point and keeps a memory snapshot of
 *   that interpreter (then, once it has imported the rest, one of the whole library in its place)
 *   in the browser's Cache Storage (Pyodide's `_makeSnapshot` / `makeMemorySnapshot`
 *   / `_loadSnapshot`, marked private and experimental upstream; keyed by this build's bundle,
 *   so a new build makes a new one). Every later boot restores that snapshot instead of starting
 *   Python again. Either way the engine answers the questions that waited, then imports the rest
 *   of the library, one module at a time. A snapshot that cannot be restored (Pyodide's own
 *   restore refuses one larger than its first heap: pyodide/pyodide#6254) is deleted, and the
 *   engine boots as the first time, without making another.
 *
 * Messages in: {type: "ask", id, request: JSON text}, {type: "timeline"}; out: {type: "ready",
 * boot: {ms, from: "snapshot" | "start", shared, snapshot: when it started, why not from a kept
 * one ("none" kept, the restore's error, "refused before")}}, {type: "failed", error}, {type: "answer", id,
 * answer}, {type: "timeline", steps: [[name, ms since the epoch]], files: [[address, start, end,
 * bytes]]} (how the boot went, for scripts/bench_engine.py --timeline).
 */
const steps = [];
function step(name) {
  steps.push([name, performance.timeOrigin + performance.now()]);
}
step("worker started");
// the runtime's wasm compiled and instantiated (inside loadPyodide): timed for the timeline only
for (const fn of ["instantiateStreaming", "instantiate"]) {
  const real = WebAssembly[fn];
  if (typeof real !== "function") continue;
  WebAssembly[fn] = function (...args) {
    step("wasm " + fn + " called");
    return real.apply(this, args).then((out) => {
      step("wasm compiled and instantiated");
      return out;
    });
  };
}
const params = new URL(import.meta.url).searchParams;
const ROOT = "/rulebook";
const SNAPSHOTS = "book-engine-snapshots";       // not the offline cache's "rulebook-" prefix
const bundleURL = params.get("bundle");
const zipped = new URL(bundleURL).pathname.endsWith(".zip");
const snapshotKey = bundleURL + (bundleURL.includes("?") ? "&" : "?") + "snapshot=1";
const refusedKey = bundleURL + (bundleURL.includes("?") ? "&" : "?") + "snapshot=refused";
// The runtime's wasm and the library's zip are asked for at once, beside pyodide.mjs (which
// would ask for them only once it has itself arrived, a round trip later on a phone's link):
// Pyodide's own first request of each address is handed the response already under way.
// Where the build packed them with Zstandard (`unzstd` names the unpacker, fzstd), the site holds
// `name.zst` (a quarter fewer bytes than a host's gzip of `name`): the response handed to Pyodide
// is unpacked as it arrives, so the wasm still compiles while it downloads.
const early = new Map();
const pyodideURL = params.get("pyodide");
const unzstdURL = params.get("unzstd");
const unzstd = unzstdURL ? import(unzstdURL) : null;
if (unzstd) unzstd.catch(() => {});               // offline: the request below says so

const fetchNow = globalThis.fetch;
async function unpacked(url) {
  const [response, fzstd] = await Promise.all([fetchNow(url + ".zst", {credentials: "same-origin"}), unzstd]);
  if (!response.ok || !response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    start(controller) {
      const stream = new fzstd.Decompress((chunk, last) => {
        controller.enqueue(chunk);
        if (last) controller.close();
      });
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          stream.push(value);
        }
        stream.push(new Uint8Array(0), true);
      })().catch((err) => controller.error(err));
    },
  });
  const type = url.endsWith(".wasm") ? "application/wasm" : "application/zip";
  return new Response(body, {status: 200, headers: {"Content-Type": type}});
}

const packedURLs = new Set([new URL("pyodide.asm.wasm", pyodideURL).href, zipped ? bundleURL : null]);
for (const url of packedURLs) {
  if (!url) continue;
  const response = unzstd ? unpacked(url) : fetch(url, {credentials: "same-origin"});
  response.catch(() => {});                       // offline: Pyodide's own request says so
  early.set(url, response);
}
globalThis.fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : null;
  const response = url !== null && early.get(url);
  if (response) {
    early.delete(url);
    return response;
  }
  if (unzstd && packedURLs.has(url)) return unpacked(url);     // asked again (a refused snapshot)
  return fetchNow(input, init);
};
const shared = typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope;
// The engine's entry point, imported before the first answer (which imports what its widget
// needs); every other module of the library is imported after the answers already asked for,
// and before the snapshot, so that a restored engine needs no import.
const IMPORTS = (zipped ? "" : "import sys\nsys.path.insert(0, " + JSON.stringify(ROOT) + ")\n") +
  "from widgets.views.engine import answer as _answer\n";
const FIRST_PAUSE_MS = 250; // after the first answers: the page shows them before the engine goes on
const PAUSE_MS = 20;        // between two modules: a new question comes first

async function cache() {
  try {
    return await caches.open(SNAPSHOTS);
  } catch (err) {
    return null;                                  // no Cache Storage here (e.g. file://)
  }
}

async function readSnapshot() {
  const c = await cache();
  if (!c) return null;
  if (await c.match(refusedKey)) return "refused";
  const hit = await c.match(snapshotKey);
  return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
}

async function keepSnapshot(bytes) {
  const c = await cache();
  if (!c) return;
  for (const old of await c.keys()) if (old.url !== snapshotKey) await c.delete(old);   // older builds
  await c.put(snapshotKey, new Response(bytes, {headers: {"Content-Type": "application/octet-stream"}}));
}

async function refuseSnapshots() {
  const c = await cache();
  if (!c) return;
  await c.delete(snapshotKey);
  await c.put(refusedKey, new Response("1"));
}

function writeLibrary(py, files) {
  if (!files) return;                             // in the zip
  for (const [path, text] of Object.entries(files)) {
    py.FS.mkdirTree(ROOT + "/" + path.split("/").slice(0, -1).join("/"));
    py.FS.writeFile(ROOT + "/" + path, text);
  }
}

let refusal = null;                               // why a kept snapshot could not be restored

// The questions that waited for the engine are answered first (their handlers go on as soon as
// `ready` resolves); then the rest of the library is imported, one module a task, and a fresh
// engine keeps a second snapshot, with the whole library, in place of its first.
function warmLater(py, snap = false) {
  let importlib = null;
  let rest = null;
  const next = () => {
    try {
      if (rest === null) {
        const names = py.runPython("from widgets.views.engine import warm_modules\nwarm_modules()");
        rest = names.toJs();
        names.destroy();
        importlib = py.pyimport("importlib");
      }
      if (rest.length) {
        importlib.import_module(rest.shift()).destroy();
        setTimeout(next, PAUSE_MS);
        return;
      }
      importlib.destroy();
      step("library imported");
      if (snap) keepSnapshot(py.makeMemorySnapshot()).catch(() => {});
    } catch (err) {
      // a module that failed (its widget's answer says so), or no second snapshot: the first stays
    }
  };
  setTimeout(next, FIRST_PAUSE_MS);
}

async function boot() {
  const started = performance.now();
  const indexURL = pyodideURL;
  const stdLibURL = zipped ? bundleURL : undefined;     // undefined: the runtime's own
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  step("pyodide.mjs imported");
  const files = zipped ? Promise.resolve(null) : fetch(bundleURL).then((r) => {
    if (!r.ok) throw new Error("bundle " + r.status);
    return r.json();
  }).then((f) => { step("library bundle arrived"); return f; });
  const snapshot = await readSnapshot().catch(() => null);
  step("snapshot looked up");
  if (snapshot instanceof Uint8Array) {
    try {
      const py = await loadPyodide({ indexURL, stdLibURL, packages: [], _loadSnapshot: snapshot });
      writeLibrary(py, await files);              // the file system is not in the snapshot
      const fn = py.globals.get("_answer");
      if (typeof fn !== "function") throw new Error("snapshot without the library");
      warmLater(py);
      return {fn, boot: {ms: performance.now() - started, from: "snapshot", shared}};
    } catch (err) {
      refusal = String((err && err.message) || err).slice(0, 300);
      await refuseSnapshots().catch(() => {});
    }
  }
  const snap = snapshot === null;                 // not after a refused one
  const py = await loadPyodide({ indexURL, stdLibURL, packages: [], _makeSnapshot: snap });
  step("loadPyodide done");
  writeLibrary(py, await files);
  step("library written");
  py.runPython(IMPORTS);
  step("library entry imported");
  if (snap) {
    // made now, before any answer: kept (a write of some 30 MB) while the reader reads the first
    // answer, not cut short by the next page
    try {
      keepSnapshot(py.makeMemorySnapshot()).catch(() => {});
    } catch (err) {
      // no snapshot this time: the engine still answers
    }
    step("snapshot made");
  }
  warmLater(py, snap);
  step("ready");
  return {fn: py.globals.get("_answer"),
          boot: {ms: performance.now() - started, from: "start", shared, snapshot: snapshot === null ? "none" : refusal || "refused before"}};
}

const ready = boot();

let asked = 0;

async function handle(msg, reply) {
  const m = msg.data;
  if (m && m.type === "timeline") {
    const files = performance.getEntriesByType("resource").map((r) => [
      r.name, performance.timeOrigin + r.startTime, performance.timeOrigin + r.responseEnd, r.encodedBodySize]);
    reply.postMessage({ type: "timeline", steps, files });
    return;
  }
  if (!m || m.type !== "ask") return;
  let answer;
  try {
    const { fn } = await ready;
    const first = asked++ === 0;
    if (first) step("first question computing");
    answer = JSON.parse(fn(m.request));
    if (first) step("first answer computed");
  } catch (err) {
    answer = { error: "계산 엔진이 답하지 못했습니다." };
  }
  reply.postMessage({ type: "answer", id: m.id, answer });
}

function greet(port) {
  ready.then(
    ({ boot }) => port.postMessage({ type: "ready", boot }),
    (err) => port.postMessage({ type: "failed", error: String((err && err.message) || err) }),
  );
}

if (shared) {
  self.onconnect = (event) => {
    const port = event.ports[0];
    port.onmessage = (msg) => handle(msg, port);
    port.start();
    greet(port);
  };
} else {
  self.onmessage = (msg) => handle(msg, self);
  greet(self);
}

// a shared engine that could not start closes, so that the next page starts a fresh one
ready.catch(() => { if (shared) setTimeout(() => self.close(), 1000); });
