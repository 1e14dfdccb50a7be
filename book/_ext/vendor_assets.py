"""Serve BokehJS from the site itself: copy the installed bokeh package's own files into
``_vendor/`` (not ``_static``, which Jupyter Book globs onto every page) and load them on every
page, so widgets work with no network. The version always equals the Python package's."""
from __future__ import annotations

import shutil
from pathlib import Path

import bokeh

BOKEH_FILES = ("bokeh.min.js", "bokeh-widgets.min.js")


def _vendor(app):
    src = Path(bokeh.__file__).parent / "server" / "static" / "js"
    dest = Path(app.confdir) / "_vendor"
    dest.mkdir(exist_ok=True)
    for name in BOKEH_FILES:
        versioned = name.replace("bokeh", f"bokeh-{bokeh.__version__}", 1)
        target = dest / versioned
        if not target.exists():
            shutil.copyfile(src / name, target)
        app.add_js_file(versioned, priority=200)
    app.add_css_file("book.css", priority=200)
    css = Path(__file__).parent / "book.css"
    shutil.copyfile(css, dest / "book.css")


def setup(app):
    app.connect("builder-inited", _vendor)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
