"""Serve BokehJS from the site itself: copy the installed bokeh package's own files into
``_vendor/`` (not ``_static``, which Jupyter Book globs onto every page); every page loads them
when its first widget nears the screen (widgets/js/bokeh_loader.js), so widgets work with no
network. The version always equals the Python package's."""
from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import bokeh

BOKEH_FILES = ("bokeh.min.js", "bokeh-widgets.min.js")
HERE = Path(__file__).parent
# JS twins of library algorithms (checked against Python in tests), e.g. widgets/js/grid_cost.js
LIBRARY_JS = sorted((HERE.parent.parent / "widgets" / "js").glob("*.js"))
# The in-page engine: the npm package `pyodide` (installed by scripts/dev.py with `npm ci`) and
# the library's own Python files, shared by every page from _static/pyodide and _static/engine.
ROOT = HERE.parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")
#: The engine's worker unpacks what the build packed with Zstandard (:func:`zstd_packed`): the npm
#: package `fzstd`, one ES module of 24 kB (4 kB as sent), installed beside pyodide
UNZSTD = ROOT / "node_modules" / "fzstd" / "esm" / "index.mjs"
#: Files the site holds packed with Zstandard (name + ".zst"), which the engine's worker unpacks as
#: they arrive (widgets/js/engine-worker.mjs): the runtime's wasm, 3.56 MB as a host's gzip sends it,
#: is 2.90 MB packed; the library's zip (bytecode, each file deflated on its own) 1.10 → 0.81 MB
PACKED = ("pyodide.asm.wasm",)
WORKER = ROOT / "widgets" / "js" / "engine-worker.mjs"
#: The Node script that learns which standard-library files the engine reads (run at build time)
ENGINE_MODULES = HERE / "engine_modules.mjs"
#: Where the build keeps what it learnt, keyed by everything that can change it (not in _build,
#: so a clean rebuild of the same library does not run Pyodide again; not in _vendor, which the
#: site copies whole)
STDLIB_CACHE = ROOT / ".engine-cache"


def _versioned(name: str) -> str:
    return name.replace("bokeh", f"bokeh-{bokeh.__version__}", 1)


def _copy_assets(app, config):
    # config-inited runs before Sphinx checks that html_static_path exists
    src = Path(bokeh.__file__).parent / "server" / "static" / "js"
    dest = Path(app.confdir) / "_vendor"
    dest.mkdir(exist_ok=True)
    for name in BOKEH_FILES:
        target = dest / _versioned(name)
        if not target.exists():
            shutil.copyfile(src / name, target)
    shutil.copyfile(HERE / "book.css", dest / "book.css")
    shutil.copyfile(HERE / "chrome.css", dest / "chrome.css")   # the theme's header, sidebars, footer
    # the widgets' parts and every table's phone layout (widgets/js/a11y.js adopts it into the
    # widgets' shadow roots too)
    shutil.copyfile(HERE / "widget.css", dest / "widget.css")
    for js in LIBRARY_JS:
        shutil.copyfile(js, dest / js.name)
    app.config.live_engine = _copy_engine(dest)


def library_bundle() -> dict[str, str]:
    """The ``widgets`` package as {relative path: text}: what the in-page engine imports."""
    package = ROOT / "widgets"
    files = sorted(p for p in package.rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".csv")
                   and "__pycache__" not in p.parts)
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}


def _copy_engine(dest: Path) -> dict:
    """Copy Pyodide and the library into the site; the page script's settings. ``bundle`` is
    what the engine loads the library from: where the build could run Pyodide (Node), one zip
    of the library and the standard library it reads, compiled (:func:`engine_zip`), which the
    worker loads as Pyodide's standard library; else the library's sources as JSON, beside the
    runtime's full standard library. With the zip, the wasm and the zip are kept packed with
    Zstandard (``name.zst``, :func:`zstd_packed`; ``unzstd`` names the module that unpacks them) and
    the lock file lists no package (the engine loads none)."""
    if not all((PYODIDE / name).exists() for name in PYODIDE_FILES[:5]):
        return {}  # no npm at set-up: table answers still work; the page says so in Korean
    (dest / "pyodide").mkdir(exist_ok=True)
    files = library_bundle()
    raw = json.dumps(files, ensure_ascii=False, separators=(",", ":")).encode()
    unzstd = UNZSTD.exists()
    packed = engine_zip(raw, deflate=not unzstd)    # packed whole below: stored, it packs 26% smaller
    unzstd = unzstd and packed is not None
    for old in (dest / "pyodide").glob("*"):
        old.unlink()
    for name in PYODIDE_FILES:
        source, target = PYODIDE / name, dest / "pyodide" / name
        if name == "python_stdlib.zip" and packed is not None:
            continue                                  # the engine loads its own, much smaller one
        if not source.exists():
            continue
        if unzstd and name in PACKED:
            shutil.copyfile(zstd_packed(source), target.with_name(name + ".zst"))
        elif unzstd and name == "pyodide-lock.json":
            lock = json.loads(source.read_text(encoding="utf-8"))
            target.write_text(json.dumps({"info": lock["info"], "packages": {}}), encoding="utf-8")
        else:
            shutil.copyfile(source, target)
    (dest / "engine").mkdir(exist_ok=True)
    for old in (dest / "engine").glob("*"):
        old.unlink()
    if packed is not None:
        body, name = packed.read_bytes(), "python-{}.zip"
    else:
        body, name = raw, "widgets-{}.json"
    digest = hashlib.sha256(body + WORKER.read_bytes()).hexdigest()[:12]
    if unzstd:
        (dest / "engine" / (name.format(digest) + ".zst")).write_bytes(zstd_packed(packed).read_bytes())
        (dest / "engine" / f"fzstd-{digest}.mjs").write_bytes(UNZSTD.read_bytes())
    else:
        (dest / "engine" / name.format(digest)).write_bytes(body)
    (dest / "engine" / f"engine-worker-{digest}.mjs").write_bytes(WORKER.read_bytes())
    settings = {"bundle": "engine/" + name.format(digest), "worker": f"engine/engine-worker-{digest}.mjs",
                "pyodide": "pyodide/"}
    if unzstd:
        settings["unzstd"] = f"engine/fzstd-{digest}.mjs"
    return settings


def zstd_packed(source: Path) -> Path:
    """``source`` packed with Zstandard at its strongest level, with a window of 4 MiB (what
    the page's unpacker, fzstd, streams fastest) and its size in the frame; kept in
    :data:`STDLIB_CACHE` under a key of its bytes (packing the wasm takes some seconds).

    >>> import tempfile, zstandard
    >>> source = Path(tempfile.mkdtemp()) / "a.bin"
    >>> _ = source.write_bytes(b"dice " * 1000)
    >>> packed = zstd_packed(source)
    >>> packed.stat().st_size < 100, zstandard.ZstdDecompressor().decompress(packed.read_bytes()) == source.read_bytes()
    (True, True)
    """
    import zstandard                                  # a build-time need only

    data = source.read_bytes()
    target = STDLIB_CACHE / f"{source.name}-{hashlib.sha256(data).hexdigest()[:12]}.zst"
    if not target.exists():
        STDLIB_CACHE.mkdir(parents=True, exist_ok=True)
        params = zstandard.ZstdCompressionParameters.from_level(22, window_log=22, source_size=len(data),
                                                                write_content_size=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(zstandard.ZstdCompressor(compression_params=params).compress(data))
        partial.replace(target)
    return target


def engine_zip(bundle: bytes, deflate: bool = True) -> Path | None:
    """What the engine reads, learnt by running it, in one zip: the standard library's modules
    it imports (Pyodide's python_stdlib.zip holds every module, 2.5 MB that does not compress)
    and the library's own (the views for Bokeh and Jupyter stay out), each compiled to bytecode
    by the engine's own Python (so the engine compiles no source when it starts), and the
    library's data files; the worker loads it through Pyodide's ``stdLibURL``.
    :data:`ENGINE_MODULES` boots Pyodide under Node with the full standard library and the whole
    ``bundle``, imports the library as the worker does, answers every widget's first moves, and
    compiles every module then loaded. Kept in :data:`STDLIB_CACHE` under a key of the runtime,
    the library and this code; ``None`` without Node (the engine then loads the sources and the
    full standard library, as before). ``deflate``: each file compressed on its own (else stored,
    for the build to pack the whole zip, :func:`zstd_packed`)."""
    full = PYODIDE / "python_stdlib.zip"
    key = hashlib.sha256(full.read_bytes() + bundle + ENGINE_MODULES.read_bytes()
                         + Path(__file__).read_bytes() + bytes([deflate])).hexdigest()[:12]
    target = STDLIB_CACHE / f"python-{key}.zip"
    if target.exists():
        return target
    if shutil.which("node") is None:
        return None
    STDLIB_CACHE.mkdir(parents=True, exist_ok=True)
    bundle_file = STDLIB_CACHE / f"bundle-{key}.json"
    bundle_file.write_bytes(bundle)
    try:
        out = subprocess.run(["node", str(ENGINE_MODULES), str(PYODIDE), str(bundle_file)],
                             capture_output=True, text=True, timeout=900, check=True)
        found = json.loads(out.stdout)
    except (subprocess.SubprocessError, ValueError, OSError) as err:
        detail = getattr(err, "stderr", "") or ""
        raise RuntimeError(f"could not learn what the engine reads: {err} {detail[-2000:]}") from err
    finally:
        bundle_file.unlink(missing_ok=True)
    for old in STDLIB_CACHE.glob("python-*.*"):     # older libraries' zips (the runtime's wasm stays)
        old.unlink()
    members: dict[str, bytes] = {name: base64.b64decode(data) for name, data in found["files"].items()}
    data_files = {path: text for path, text in json.loads(bundle).items() if not path.endswith(".py")}
    members.update({path: text.encode("utf-8") for path, text in data_files.items()})
    pack_zip(members, target, deflate)
    return target


def pack_zip(members: dict[str, bytes], target: Path, deflate: bool = True) -> None:
    """Write ``members`` ({path inside the zip: bytes}) and the folders holding them into the
    zip ``target``, each file compressed (else stored, ``deflate=False``), in a fixed order with
    fixed dates (the same bytes from every build).

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "small.zip"
    >>> pack_zip({"pkg/b.pyc": b"x", "a.pyc": b"y"}, target)
    >>> zipfile.ZipFile(target).namelist(), zipfile.ZipFile(target).read("pkg/b.pyc")
    (['a.pyc', 'pkg/', 'pkg/b.pyc'], b'x')
    """
    wanted: dict[str, bytes | None] = dict(members)
    for name in members:
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            wanted["/".join(parts[:i]) + "/"] = None
    partial = target.with_suffix(".part")
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(partial, "w", method, compresslevel=9 if deflate else None) as out:
        for name in sorted(wanted):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            if wanted[name] is None:
                info.external_attr = 0o40755 << 16 | 0x10
                out.writestr(info, b"")
            else:
                info.compress_type = method
                info.external_attr = 0o644 << 16
                out.writestr(info, wanted[name], compresslevel=9 if deflate else None)
    partial.replace(target)


def _add_assets(app):
    # BokehJS is not a page script: widgets/js/bokeh_loader.js loads it when a widget nears the
    # screen, from the names in the page's settings below
    app.add_css_file("book.css", priority=200)
    app.add_css_file("chrome.css", priority=200)
    app.add_css_file("widget.css", priority=200)
    # settings for widgets/js/live.js and bokeh_loader.js (data only): where the engine's
    # and BokehJS's files are
    settings = {**app.config.live_engine, "bokeh": [_versioned(name) for name in BOKEH_FILES]}
    app.add_js_file(None, body="window.LiveBookConfig = " + json.dumps(settings) + ";", priority=205)
    for js in LIBRARY_JS:
        app.add_js_file(js.name, priority=210)


#: Files Jupyter Book puts on every page that the book does not use: sphinx-thebe (it declares
#: THEBE_JS_URL twice, a page error, and names a CDN; the book runs no remote kernels),
#: sphinx-design (no tabs, cards or grids) and sphinx-togglebutton (no cell is folded: hidden
#: code is removed). Left off every page, they are no part of a first visit either.
_UNUSED_ASSETS = ("thebe", "sphinx-design", "design-tabs", "togglebutton")


def _drop_unused(app, pagename, templatename, context, doctree):
    """Leave :data:`_UNUSED_ASSETS` off the page."""
    def unused(asset) -> bool:
        text = (str(asset) + str(getattr(asset, "attributes", {}).get("body", ""))).lower()
        return any(name in text for name in _UNUSED_ASSETS)
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [a for a in context[key] if not unused(a)]


def deferred(scripts: list) -> list:
    """``scripts`` (a page's ``script_files``) with nothing blocking the first paint: every file
    is loaded with ``defer`` (fetched alongside the page, run in order once the page is parsed,
    before DOMContentLoaded, which is what the theme's, Sphinx's and the book's scripts wait for);
    a file's own ``async``/``defer``/``type`` is kept. Inline scripts stay as they are (data such
    as ``window.LiveBookConfig``, read only by the deferred files) and an exact repeat of one is
    left out.

    >>> from sphinx.builders.html._assets import _JavaScript
    >>> out = deferred([_JavaScript("a.js"), _JavaScript("", body="x=1"), _JavaScript("", body="x=1"),
    ...                 _JavaScript(None, body="x=1"), _JavaScript("m.mjs", type="module"),
    ...                 _JavaScript("b.js", defer="defer")])
    >>> [(js.filename, js.attributes) for js in out]
    [('a.js', {'defer': 'defer'}), ('', {'body': 'x=1'}), ('m.mjs', {'type': 'module'}), ('b.js', {'defer': 'defer'})]
    """
    from sphinx.builders.html._assets import _JavaScript
    out, seen = [], set()
    for js in scripts:
        if not isinstance(js, _JavaScript):          # an old-style plain file name
            js = _JavaScript(js)
        attributes = dict(js.attributes)
        if js.filename and not {"async", "defer", "type"} & attributes.keys():
            attributes["defer"] = "defer"
        key = (str(js.filename or ""), tuple(sorted(attributes.items())))
        if key in seen:
            continue
        seen.add(key)
        out.append(_JavaScript(js.filename, priority=js.priority, **attributes))
    return out


def _defer_scripts(app, pagename, templatename, context, doctree):
    if "script_files" in context:
        context["script_files"] = deferred(context["script_files"])


def setup(app):
    app.add_config_value("live_engine", {}, "html")
    app.connect("html-page-context", _drop_unused, priority=100)
    app.connect("html-page-context", _defer_scripts, priority=900)   # after every extension's own
    app.connect("config-inited", _copy_assets)
    app.connect("builder-inited", _add_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
