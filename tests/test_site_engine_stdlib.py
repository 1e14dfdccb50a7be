"""The in-page engine loads a standard library of only the modules it reads, with the library,
compiled, in one zip (book/_ext/vendor_assets.py engine_zip packs them from what the engine
imported under Pyodide at build time). This test fails if any widget's answer needs a module left out: every widget of every page, at its
defaults and each offered value of one control (a text control's examples), a value beyond each
slider and refused text, answered by the engine in the page, must equal CPython's answer (a
missing module would answer "요청을 처리할 수 없습니다 (ImportError)" or fail the engine)."""
from __future__ import annotations

import gzip
import io
import json
import re
import zipfile

import pytest

from bench_engine import engine_files, gzip_bytes
from conftest import SITE, page_widgets
from widgets.views.engine import ENGINE_MODULES
from widgets.views.live import rebuild

BOOT_MS = 60_000


def site_config() -> dict:
    text = (SITE / "book" / "pf2e.html").read_text(encoding="utf-8")
    return json.loads(re.search(r"window\.LiveBookConfig = (\{.*?\});", text).group(1))


def every_widget() -> list[dict]:
    """Every widget the engine answers for (the appendix on the odds' math ships all its answers)."""
    out = []
    for page in sorted(SITE.rglob("*.html")):
        if "_static" not in page.relative_to(SITE).parts:
            out += page_widgets(page.relative_to(SITE).as_posix())
    return [d for d in out if d["origin"]["module"] in {f"widgets.views.{m}" for m in ENGINE_MODULES}]


def requests_of(data: dict) -> list[dict]:
    widget = rebuild(data["origin"])
    defaults = {c.name: c.key(c.default) for c in widget.controls}
    out = [{c.name: c.key(values[c.name]) for c in widget.controls} for values in widget.first_moves()[0]]
    for c in widget.controls:
        if c.kind == "number":
            out += [{**defaults, c.name: typed} for typed in (str(c.options[-1] * 3 + 7), "일곱", "-1")]
    return out


pytestmark = pytest.mark.skipif(not site_config().get("bundle", "").endswith(".zip"),
                                reason="the site was built without Node: the engine loads the full standard library")


def test_the_engine_loads_a_small_standard_library_and_the_library_compiled():
    config = site_config()
    path = SITE / "_static" / config["bundle"]
    if config.get("unzstd"):                        # kept packed; the worker unpacks it as it arrives
        import zstandard
        assert not path.exists()
        packed = path.with_name(path.name + ".zst")
        archive = zipfile.ZipFile(io.BytesIO(zstandard.ZstdDecompressor().decompress(packed.read_bytes())))
    else:
        archive = zipfile.ZipFile(path)
    names = archive.namelist()
    assert "fractions.pyc" in names and "json/__init__.pyc" in names
    assert "email/" not in names and "tkinter/" not in names          # what the library never reads
    # the library's modules the engine imports, compiled (no source: nothing to compile in the
    # page), its data files, and not its views for Bokeh and Jupyter
    assert {"widgets/views/engine.pyc", "widgets/notation.pyc", "widgets/data/underface_armor.csv"} <= set(names)
    assert not [n for n in names if n.endswith(".py")]
    assert "widgets/views/jupyter.pyc" not in names and "widgets/views/grid_widget.pyc" not in names
    # bytecode of the engine's own Python (its magic number: this Pyodide's CPython version)
    assert all(archive.read(n)[2:4] == b"\r\n" for n in names if n.endswith(".pyc"))
    assert not (SITE / "_static" / "pyodide" / "python_stdlib.zip").exists()


def test_the_engine_is_under_4_5_mb_as_sent():
    """Issue 32: every file a cold engine downloads, in bytes as a host sends it (gzip; a file the
    build packed with Zstandard as it is), adds up to at most 4.5 MB; the wasm and the zip are
    packed (each smaller than a host's gzip of it) and the lock file lists no package."""
    config = site_config()
    files = engine_files(SITE)
    assert all(f.exists() for f in files)
    assert sum(gzip_bytes(f) for f in files) <= 4_500_000
    assert config.get("unzstd")
    import zstandard
    for packed in [f for f in files if f.suffix == ".zst"]:
        data = zstandard.ZstdDecompressor().decompress(packed.read_bytes())
        assert packed.stat().st_size < 0.9 * len(gzip.compress(data, 6))
    assert {f.name.split("-")[0] for f in files if f.suffix == ".zst"} == {"pyodide.asm.wasm.zst", "python"}
    lock = json.loads((SITE / "_static" / config["pyodide"] / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"] == {} and lock["info"]["python"]


def test_every_widget_answers_in_the_engine_as_in_cpython(offline_page):
    page = offline_page.open("book/pf2e.html")
    page.evaluate("() => LiveBook.startEngine()")
    page.wait_for_function("() => ['ready', 'failed'].includes(LiveBook.engineState())", timeout=BOOT_MS)
    assert page.evaluate("() => LiveBook.engineState()") == "ready"     # it booted with this library
    asked, wants = [], []
    seen = set()
    for data in every_widget():
        key = json.dumps(data["origin"], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        widget = rebuild(data["origin"])
        for raw in requests_of(data):
            asked.append([data["origin"], raw])
            wants.append(widget.answer(raw))
    assert len(seen) >= 50 and len(asked) > 1000
    got = page.evaluate("(reqs) => Promise.all(reqs.map(([o, v]) => LiveBook.ask(o, v)))", asked)
    mismatches = [(r, g.get("error") if isinstance(g, dict) else g, w.get("error"))
                  for r, g, w in zip(asked, got, wants) if g != w]
    assert not mismatches, mismatches[:3]
    assert offline_page.errors == []
