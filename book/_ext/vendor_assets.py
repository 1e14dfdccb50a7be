"""Serve BokehJS from the site itself: copy the installed bokeh package's own files into
``_vendor/`` (not ``_static``, which Jupyter Book globs onto every page) and load them on every
page, so widgets work with no network. The version always equals the Python package's."""
from __future__ import annotations

import shutil
from pathlib import Path

import bokeh

BOKEH_FILES = ("bokeh.min.js", "bokeh-widgets.min.js")
HERE = Path(__file__).parent
# JS twins of library algorithms (checked against Python in tests), e.g. widgets/js/grid_cost.js
LIBRARY_JS = sorted((HERE.parent.parent / "widgets" / "js").glob("*.js"))


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
    for js in LIBRARY_JS:
        shutil.copyfile(js, dest / js.name)


def _add_assets(app):
    for name in BOKEH_FILES:
        app.add_js_file(_versioned(name), priority=200)
    app.add_css_file("book.css", priority=200)
    for js in LIBRARY_JS:
        app.add_js_file(js.name, priority=210)


def setup(app):
    app.connect("config-inited", _copy_assets)
    app.connect("builder-inited", _add_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
