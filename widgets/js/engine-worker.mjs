/* The in-page engine: the project's own Python library (the `widgets` package, pure Python)
 * running in Pyodide inside this module Web Worker. Everything is loaded from the site itself:
 * the worker's address carries `pyodide` (folder of the vendored runtime) and `bundle` (JSON
 * {path: source} of the library). Requests: {type: "ask", id, request: JSON text}; replies:
 * {type: "ready"}, {type: "failed", error}, {type: "answer", id, answer}.
 */
const params = new URL(import.meta.url).searchParams;
const ROOT = "/rulebook";

async function boot() {
  const indexURL = params.get("pyodide");
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const [py, files] = await Promise.all([
    loadPyodide({ indexURL, packages: [] }),
    fetch(params.get("bundle")).then((r) => {
      if (!r.ok) throw new Error("bundle " + r.status);
      return r.json();
    }),
  ]);
  for (const [path, text] of Object.entries(files)) {
    const dir = ROOT + "/" + path.split("/").slice(0, -1).join("/");
    py.FS.mkdirTree(dir);
    py.FS.writeFile(ROOT + "/" + path, text);
  }
  py.runPython(
    "import sys\nsys.path.insert(0, " + JSON.stringify(ROOT) + ")\n" +
    "from widgets.views.engine import answer as _answer\n");
  return py.globals.get("_answer");
}

const ready = boot();
ready.then(
  () => postMessage({ type: "ready" }),
  (err) => postMessage({ type: "failed", error: String(err && err.message || err) }),
);

self.onmessage = async (msg) => {
  const m = msg.data;
  if (!m || m.type !== "ask") return;
  let answer;
  try {
    const fn = await ready;
    answer = JSON.parse(fn(m.request));
  } catch (err) {
    answer = { error: "계산 엔진이 답하지 못했습니다." };
  }
  postMessage({ type: "answer", id: m.id, answer });
};
