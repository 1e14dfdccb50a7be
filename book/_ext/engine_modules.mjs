/* What the in-page engine reads, compiled: run under Node by the site's build
 * (book/_ext/vendor_assets.py), with the npm package's full python_stdlib.zip.
 *
 *   node book/_ext/engine_modules.mjs <pyodide folder> <library bundle JSON>
 *
 * Boots Pyodide as widgets/js/engine-worker.mjs does (the library written to /rulebook, its
 * imports, a memory snapshot), answers every widget's first moves, a value beyond each slider
 * and a refused value (widgets.views.engine.exercise), lets an uncaught Python error reach
 * JavaScript (its traceback is formatted in Python), then prints (JSON) "files": every module
 * then loaded from the standard library (by its path inside python_stdlib.zip) or from the
 * `widgets` package (by its path in the bundle), compiled by this same Python to bytecode
 * ("name.pyc", base64), which the zip the engine loads holds instead of the source (frozen
 * modules, built into the runtime, are left out): without docstrings, and with each function's
 * (class's, module's) first line as the line of all its code, which makes the zip 35% smaller
 * (a traceback in the engine names the function, its file and where it starts); and
 * "library": the `widgets` package's .py files it imported. Compiled here, the engine's Python
 * starts without compiling any source: on a phone that was most of its start. */
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
import ast, base64, importlib.util, json, marshal, sys, types

def _first_lines(code):
    """The code object with every instruction on its first line (co_firstlineno): a line table
    of "no columns, line delta 0" entries of 8 code units each (CPython's 3.11+ format),
    for it and every code object it holds."""
    consts = tuple(_first_lines(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    units = len(code.co_code) // 2
    entry = lambda n: bytes([0x80 | (13 << 3) | (n - 1), 0])
    table = entry(8) * (units // 8) + (entry(units % 8) if units % 8 else b"")
    return code.replace(co_linetable=table, co_consts=consts)

def _pyc(source, filename):
    """Bytecode of the module's source without its docstrings, as a sourceless .pyc (no mtime:
    nothing to compare, the zip holds no source)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \\
                    and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    code = _first_lines(compile(tree, filename, "exec", dont_inherit=True))
    return base64.b64encode(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)).decode()

_zip = next(p for p in sys.path if p.endswith(".zip"))
_files, _library = {}, []
for _m in list(sys.modules.values()):
    _spec = getattr(_m, "__spec__", None)
    if _spec is not None and _spec.origin == "frozen":
        continue                      # built into the runtime: never read from the zip
    _f = getattr(_m, "__file__", None) or ""
    if _f.startswith(_zip + "/"):
        _name = _f[len(_zip) + 1:]
    elif _f.startswith(${JSON.stringify(ROOT + "/")}):
        _name = _f[${ROOT.length + 1}:]
        _library.append(_name)
    else:
        continue
    _files[_name + "c"] = _pyc(_spec.loader.get_source(_spec.name), _zip + "/" + _name)
json.dumps({"files": dict(sorted(_files.items())), "library": sorted(_library)})
`);
process.stdout.write(found + "\n");
