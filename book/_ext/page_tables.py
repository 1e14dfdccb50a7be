"""Each page's widget data out of the page, after the build, so that a chapter paints first.

A widget on the site carries two JSON scripts inline (widgets/views/static_page.py): the Bokeh
document that the page script embeds and the page table of first answers. They are three
quarters of a chapter's HTML (trench_crusade: 417 of 539 KB), and a phone must download all of
it before the first paint. Once every page is written, they are moved, in page order, into one
script per page, ``_static/tables/<page>-<digest>.js`` (the data line, then
``widgets/js/tables/page_tables.js``), named in the page's head by ``<link rel="live-tables">``
(which no browser fetches by itself). ``widgets/js/live.js`` asks for it when it runs, once the
page is parsed and has painted, before the page's load event; the script gives every widget its
two scripts back, where ``live.js`` and ``share.js`` then look for them (``LiveBook.tables``).
Kept offline like every file a page loads (``book/_ext/offline.py``, group ``a``). The widgets' documents side by side also
compress better than scattered through the prose (the whole first visit is 33 KB smaller).

:func:`page_widgets` reads the page tables of a built page back (tests and benches).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCE = ROOT / "widgets" / "js" / "tables" / "page_tables.js"
TABLES_DIR = "_static/tables"
_PAIR = re.compile(r'<script type="application/json" class="live-doc">(.*?)</script>'
                   r'(?:<script type="application/json" class="live-data">(.*?)</script>)?', re.S)
_WIDGET = '<div class="live-widget" id="'
_DATA_LINE = re.compile(r"const TABLES = (\[.*\]);")
_SRC = re.compile(r'<link rel="live-tables" href="([^"]*' + TABLES_DIR + r'/[^"]+\.js)">')


def _value(text: str):
    return json.loads(text.replace("<\\/", "</"))


def split_page(page_html: str) -> tuple[str, list[list]]:
    """``page_html`` without its widgets' JSON scripts, and the data they held:
    ``[uids, Bokeh documents, page tables (or None)]``, in page order.

    >>> page = ('<p>a</p><div class="live-widget" id="w1" data-live="w1"><div class="live-mount">'
    ...         '</div><script type="application/json" class="live-doc">{"d":"<\\\\/b>"}</script>'
    ...         '<script type="application/json" class="live-data">{"n":1}</script></div>')
    >>> rest, tables = split_page(page)
    >>> rest
    '<p>a</p><div class="live-widget" id="w1" data-live="w1"><div class="live-mount"></div></div>'
    >>> tables
    [['w1'], [{'d': '</b>'}], [{'n': 1}]]
    >>> split_page("<p>no widget</p>")
    ('<p>no widget</p>', [[], [], []])
    """
    uids, docs, datas = [], [], []
    for match in _PAIR.finditer(page_html):
        start = page_html.rfind(_WIDGET, 0, match.start())
        uids.append(page_html[start + len(_WIDGET):page_html.index('"', start + len(_WIDGET))])
        docs.append(_value(match.group(1)))
        datas.append(_value(match.group(2)) if match.group(2) is not None else None)
    return _PAIR.sub("", page_html), [uids, docs, datas]


def tables_script(tables: list[list]) -> str:
    """The page's script: the data line, then ``widgets/js/tables/page_tables.js``.

    >>> text = tables_script([["w1"], [{"d": 1}], [None]])
    >>> text.splitlines()[0], read_tables(text)
    ('const TABLES = [["w1"],[{"d":1}],[null]];', [['w1'], [{'d': 1}], [None]])
    """
    line = json.dumps(tables, ensure_ascii=False, separators=(",", ":"))
    return f"const TABLES = {line};\n" + SOURCE.read_text(encoding="utf-8")


def read_tables(script: str) -> list[list]:
    """The data of a page's tables script (:func:`tables_script`).

    >>> read_tables('const TABLES = [["w"],[{}],[{"uid":"w"}]];')
    [['w'], [{}], [{'uid': 'w'}]]
    """
    return json.loads(_DATA_LINE.fullmatch(script.split("\n", 1)[0]).group(1))


def move_tables(outdir: Path, rel: str) -> str | None:
    """Move the widgets' data of the page ``rel`` of the site ``outdir`` into its tables script;
    return the script's path in the site (None for a page with no widget, left as it is).

    >>> import tempfile
    >>> site = Path(tempfile.mkdtemp()); (site / "book").mkdir()
    >>> _ = (site / "book" / "a.html").write_text(
    ...     '<head><script defer="defer" src="../_static/x.js"></script></head><body>'
    ...     '<div class="live-widget" id="w" data-live="w"><script type="application/json" '
    ...     'class="live-doc">{}</script></div></body>', encoding="utf-8")
    >>> script = move_tables(site, "book/a.html"); script  # doctest: +ELLIPSIS
    '_static/tables/a-....js'
    >>> print((site / "book" / "a.html").read_text(encoding="utf-8"))  # doctest: +NORMALIZE_WHITESPACE +ELLIPSIS
    <head><script defer="defer" src="../_static/x.js"></script><link rel="live-tables"
    href="../_static/tables/a-....js"></head><body><div class="live-widget" id="w" data-live="w"></div></body>
    >>> page_widgets(site, "book/a.html"), move_tables(site, "book/a.html")
    ([], None)
    """
    path = outdir / rel
    page_html = path.read_text(encoding="utf-8")
    rest, tables = split_page(page_html)
    if not tables[0]:
        return None
    script = tables_script(tables)
    name = f"{TABLES_DIR}/{Path(rel).stem}-{hashlib.sha256(script.encode()).hexdigest()[:10]}.js"
    (outdir / TABLES_DIR).mkdir(parents=True, exist_ok=True)
    (outdir / name).write_text(script, encoding="utf-8")
    src = os.path.relpath(outdir / name, path.parent).replace(os.sep, "/")
    head, body = rest.split("</head>", 1)
    path.write_text(f'{head}<link rel="live-tables" href="{src}"></head>{body}', encoding="utf-8")
    return name


def page_widgets(site: Path, rel: str) -> list[dict]:
    """The page tables of the built page ``rel`` (a widget's ``live-data``), in page order,
    from its tables script (or inline, in a site built before it).

    >>> import tempfile
    >>> site = Path(tempfile.mkdtemp()); (site / "book").mkdir()
    >>> _ = (site / "book" / "b.html").write_text(
    ...     '<head></head><div class="live-widget" id="w" data-live="w"><script type="application/json" '
    ...     'class="live-doc">{}</script><script type="application/json" class="live-data">{"uid":"w"}'
    ...     '</script></div>', encoding="utf-8")
    >>> before = page_widgets(site, "book/b.html")
    >>> _ = move_tables(site, "book/b.html")
    >>> before, page_widgets(site, "book/b.html")
    ([{'uid': 'w'}], [{'uid': 'w'}])
    """
    page_html = (site / rel).read_text(encoding="utf-8")
    inline = [_value(m.group(2)) for m in _PAIR.finditer(page_html) if m.group(2) is not None]
    found = _SRC.search(page_html)
    if not found:
        return inline
    script = ((site / rel).parent / found.group(1)).resolve().read_text(encoding="utf-8")
    return inline + [d for d in read_tables(script)[2] if d is not None]


def _finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    used = set()
    for path in sorted(outdir.rglob("*.html")):
        rel = path.relative_to(outdir).as_posix()
        if rel.startswith("_static/"):
            continue
        name = move_tables(outdir, rel)
        if name is None:           # no widget, or moved by an earlier build: keep what it loads
            found = _SRC.search(path.read_text(encoding="utf-8"))
            name = found and (path.parent / found.group(1)).resolve().relative_to(outdir.resolve()).as_posix()
        if name:
            used.add(name)
    for old in (outdir / TABLES_DIR).glob("*.js") if (outdir / TABLES_DIR).exists() else ():
        if f"{TABLES_DIR}/{old.name}" not in used:
            old.unlink()


def setup(app):
    # after the search index is built from the pages (book_search.py, priority 400), before the
    # theme's stylesheet is cut to the words of the pages and scripts (theme_css.py, 800) and the
    # offline cache lists the site's files (offline.py, 990)
    app.connect("build-finished", _finish, priority=700)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
