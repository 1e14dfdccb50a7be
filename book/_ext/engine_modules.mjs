/* Which files of Pyodide's standard library the in-page engine reads: run under Node by the
 * site's build (book/_ext/vendor_assets.py), with the npm package's full python_stdlib.zip.
 *
 *   node book/_ext/engine_modules.mjs <pyodide folder> <library bundle JSON>
 *
 * Boots Pyodide as widgets/js/engine-worker.mjs does (the library written to /rulebook, its
 * imports, a memory snapshot), answers every widget's first moves, a value beyond each slider
 * and a refused value (widgets.views.engine.exercise), lets an uncaught Python error reach
 * JavaScript (its traceback is formatted in Python), then prints (JSON) "stdlib": the source of
 * every standard-library file a loaded module came from, by its path inside python_stdlib.zip,
 * without docstrings and comments (frozen modules, built into the runtime, are left out); and
 * "library": the files of the `widgets` package it imported. */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [folder, bundlePath] = process.argv.slice(2);
const indexURL = path.resolve(folder) + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL, packages: [], _makeSnapshot: true });
const ROOT = "/rulebook";
for (const [file, text] of Object.entries(JSON.parse(readFileSync(bundlePath, "utf8")))) {
  py.FS.mkdirTree(ROOT + "/" + file.split("/").slice(0, -1).join("/"));
  py.FS.writeFile(ROOT + "/" + file, text);
}
py.runPython("import sys\nsys.path.insert(0, " + JSON.stringify(ROOT) + ")\n" +
             "from widgets.views.engine import answer as _answer, warm as _warm\n_warm()\n");
py.makeMemorySnapshot();
py.runPython("from widgets.views.engine import exercise\nexercise()\n" +
             "_answer('{\"origin\": {\"module\": \"widgets.views.nowhere\", \"factory\": \"x\", \"kwargs\": {}}, \"values\": {}}')\n");
try {
  py.runPython("raise ValueError('an uncaught error, as the page would see it')");
} catch (err) {
  // expected: its message was formatted by Python's traceback module
}
const found = py.runPython(`
import ast, json, sys

def _small(source):
    """The module without docstrings and comments (ast.unparse of Python's own parser)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \\
                    and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    return ast.unparse(tree) + "\\n"

_zip = next(p for p in sys.path if p.endswith(".zip"))
_stdlib, _library = {}, []
for _m in list(sys.modules.values()):
    _spec = getattr(_m, "__spec__", None)
    if _spec is not None and _spec.origin == "frozen":
        continue                      # built into the runtime: never read from the zip
    _f = getattr(_m, "__file__", None) or ""
    if _f.startswith(_zip + "/"):
        _name = _f[len(_zip) + 1:]
        _stdlib[_name] = _small(_spec.loader.get_source(_spec.name))
    elif _f.startswith(${JSON.stringify(ROOT + "/")}):
        _library.append(_f[${ROOT.length + 1}:])
json.dumps({"stdlib": dict(sorted(_stdlib.items())), "library": sorted(_library)})
`);
process.stdout.write(found + "\n");
