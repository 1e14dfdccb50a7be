"""Offline after one visit, light on the first one, and installable on a phone.

* Every page links a web app manifest (``manifest.webmanifest`` at the site root: Korean name,
  icons from ``book/_ext/icons``) and the stylesheet of the per-widget "링크 복사" control.
* After the build, ``sw.js`` is written at the site root: the service worker
  ``widgets/js/offline/sw.js`` preceded by one line of data, every file of the site with its
  content digest, size, group and the address pages ask for it by (with its ``?v=`` query), and
  a version derived from all of them. The groups say when the worker keeps a file:

  - ``a``, what pages load (styles, scripts, BokehJS, images) and ``p``, the pages: the open page
    and what it loaded are kept at once from the browser's own cache (no second download); the
    rest in the background after the first visit, unless the reader's browser asks to save data;
  - ``e``, the in-page engine (Pyodide and the library, about 14 MB): kept once a reader has
    used it, or when the reader asks for the whole book (the footer's "책 전체를 기기에 저장");
  - ``o``, everything else (files a stylesheet may ask for): kept when first fetched, or with
    the whole book.

  A new build that changes any file changes the version, so browsers install the new worker,
  which copies the unchanged files from the old cache, fetches the changed ones it held and
  deletes the old cache. ``widgets/js/offline.js`` registers it with a relative address, so the
  site works unchanged under a sub-path.
"""
from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlsplit

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
ICONS = HERE / "icons"
ICON_FILES = ("icon.svg", "icon-192.png", "icon-512.png")
SW_SOURCE = ROOT / "widgets" / "js" / "offline" / "sw.js"
SW_NAME = "sw.js"
MANIFEST_NAME = "manifest.webmanifest"
#: Not cached: page sources, debugger maps, build bookkeeping, the worker itself, and Font
#: Awesome's script and fonts, which no page loads any more (book/_templates/layout.html,
#: book/_ext/chrome.css); a file left out is still kept if a page ever fetches it.
_SKIP_DIRS = ("_sources/", ".doctrees/", "_static/vendor/fontawesome/",
              "_static/locales/")   # the themes' catalogues: read by the build, not by pages
_SKIP_SUFFIXES = (".map",)
_SKIP_FILES = ("_static/scripts/fontawesome.js", "_static/scripts/fontawesome.js.LICENSE.txt")
#: The in-page engine's folders (book/_ext/vendor_assets.py)
ENGINE_DIRS = ("_static/pyodide/", "_static/engine/")
#: BokehJS: pages load it when a widget nears the screen (widgets/js/bokeh_loader.js), so no tag
#: names it; every page with a widget needs it to answer from its table
#: Loaded by pages after they load (BokehJS when a widget nears the screen).
_LOADED_LATER = re.compile(r"_static/bokeh-[^/]*\.js")
#: The search index (book/_ext/book_search.py): kept whole once the reader has searched.
SEARCH_DIR = "pagefind/"
_IMPORT = re.compile(r"""@import\s+(?:url\()?\s*["']?([^"')\s;]+)""")
_REFERENCE = re.compile(r"<(?:script|link|img|source)\b[^>]*?\s(?:src|href)=\"([^\"]+)\"", re.I)
THEME_COLOR = "#7a1f1f"


def site_files(outdir: Path) -> list[str]:
    """Every file the reader's browser may need, as paths relative to the site root.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for name in ("index.html", "_sources/a.ipynb", "_static/x.js", "_static/x.js.map", ".buildinfo"):
    ...     (d / name).parent.mkdir(parents=True, exist_ok=True); _ = (d / name).write_text("x")
    >>> site_files(d)
    ['_static/x.js', 'index.html']
    """
    out = []
    for path in sorted(outdir.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(outdir).as_posix()
        if (rel == SW_NAME or rel.startswith(_SKIP_DIRS) or rel.endswith(_SKIP_SUFFIXES)
                or rel in _SKIP_FILES or any(part.startswith(".") for part in rel.split("/"))):
            continue
        out.append(rel)
    return out


_BLOCK_COMMENT = re.compile(r"^[ \t]*/\*.*?\*/[ \t]*\n", re.M | re.S)
_LINE_COMMENT = re.compile(r"^[ \t]*//.*\n", re.M)


def without_comments(source: str) -> str:
    r"""The worker's code as it is sent: comments that stand on lines of their own left out (the
    worker comes with every first visit; its comments were a third of it, compressed).

    >>> without_comments("/* a\n * b */\nconst x = 1;   // kept\n  // gone\nf('//x');\n")
    "const x = 1;   // kept\nf('//x');\n"
    """
    return _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", source))


def file_digest(path: Path) -> str:
    """The first 12 hex digits of a file's SHA-256: what the worker checks a download against.

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "a"; _ = f.write_bytes(b"abc")
    >>> file_digest(f)
    'ba7816bf8f01'
    """
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def page_references(page_html: str, page: str) -> dict[str, str]:
    """Site files a page's tags load (scripts, styles, icons, images), as {path relative to the
    site root: the address's query, e.g. ``?v=1a2b``}; links to other pages are not loads.

    >>> page_references('<link href="../_static/a.css?v=12" rel="stylesheet">'
    ...                 '<script src="../_static/b.js"></script><a href="c.html">c</a>'
    ...                 '<img src="https://example.org/x.png">', "book/p.html")
    {'_static/a.css': '?v=12', '_static/b.js': ''}
    """
    base = "https://site.invalid/"
    out = {}
    for ref in _REFERENCE.findall(page_html):
        url = urlsplit(urljoin(base + page, html.unescape(ref)))
        if url.scheme != "https" or url.netloc != "site.invalid" or url.path.endswith(".html"):
            continue
        out[url.path[1:]] = "?" + url.query if url.query else ""
    return out


def is_page(rel: str) -> bool:
    """A page of the book (not a theme's template copied among the static files).

    >>> is_page("book/pf2e.html"), is_page("_static/webpack-macros.html"), is_page("searchindex.js")
    (True, False, False)
    """
    return rel.endswith(".html") and not rel.startswith("_static/")


def group_of(rel: str, loaded: dict[str, str]) -> str:
    """When the worker keeps a file: ``p`` page, ``a`` loaded by pages, ``e`` engine, ``s`` the
    search index, ``o`` other.

    >>> [group_of(f, {"_static/x.css": ""}) for f in ("book/a.html", "_static/x.css",
    ...  "_static/bokeh-3.js", "_static/pyodide/p.wasm", "pagefind/index/a.pf_index",
    ...  "_static/y.png", "_static/macros.html")]
    ['p', 'a', 'a', 'e', 's', 'o', 'o']
    """
    if is_page(rel):
        return "p"
    if rel.startswith(ENGINE_DIRS):
        return "e"
    if rel.startswith(SEARCH_DIR):
        return "s"
    if rel in loaded or _LOADED_LATER.fullmatch(rel):
        return "a"
    return "o"


def offline_data(outdir: Path) -> dict:
    """The worker's data: ``{"version", "files": [[path, digest, size, group, query], ...]}``.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for name, text in {"a.html": '<link rel="stylesheet" href="_static/s.css?v=1">',
    ...                    "_static/s.css": '@import "t.css";', "_static/t.css": "p {}",
    ...                    "_static/pyodide/x.wasm": "w", "_static/u.png": "u"}.items():
    ...     (d / name).parent.mkdir(parents=True, exist_ok=True); _ = (d / name).write_text(text)
    >>> [(path, group, query) for path, _, _, group, query in offline_data(d)["files"]]
    [('_static/pyodide/x.wasm', 'e', ''), ('_static/s.css', 'a', '?v=1'), ('_static/t.css', 'a', ''), ('_static/u.png', 'o', ''), ('a.html', 'p', '')]
    """
    files = site_files(outdir)
    loaded: dict[str, str] = {}
    for rel in files:
        if is_page(rel):
            for ref, query in page_references((outdir / rel).read_text(encoding="utf-8"), rel).items():
                loaded.setdefault(ref, query)
    # a stylesheet a loaded stylesheet imports is loaded too (the theme's theme.css -> basic.css)
    todo = [rel for rel in loaded if rel.endswith(".css")]
    while todo:
        css = todo.pop()
        if not (outdir / css).is_file():
            continue
        for ref in _IMPORT.findall((outdir / css).read_text(encoding="utf-8", errors="replace")):
            url = urlsplit(urljoin("https://site.invalid/" + css, ref))
            if url.netloc == "site.invalid" and url.path[1:] not in loaded:
                loaded[url.path[1:]] = ""
                todo.append(url.path[1:])
    rows = [[rel, file_digest(outdir / rel), (outdir / rel).stat().st_size, group_of(rel, loaded),
             loaded.get(rel, "")] for rel in files]
    version = hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:12]
    return {"version": version, "files": rows}


def write_service_worker(outdir: Path) -> str:
    """Write ``sw.js`` (the data line, then the worker's code) at the site root; return the
    version.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); _ = (d / "a.html").write_text("1")
    >>> v = write_service_worker(d)
    >>> (d / "sw.js").read_text(encoding="utf-8").startswith('const OFFLINE = {"version":"' + v)
    True
    """
    data = offline_data(outdir)
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    (outdir / SW_NAME).write_text(f"const OFFLINE = {line};\n" + without_comments(SW_SOURCE.read_text(encoding="utf-8")),
                                  encoding="utf-8")
    return data["version"]


def manifest(title: str) -> dict:
    """The web app manifest (addresses relative to the site root, where it is written)."""
    return {
        "name": title, "short_name": "전투 룰북", "lang": "ko", "dir": "ltr",
        "description": "다섯 가지 TTRPG 전투 규칙과 정확한 확률 계산기. 한 번 열어 두면 인터넷 없이도 쓸 수 있습니다.",
        "start_url": "./", "scope": "./", "display": "standalone",
        "background_color": "#ffffff", "theme_color": THEME_COLOR,
        "icons": [
            {"src": "_static/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "_static/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "_static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": "_static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }


def _copy_static(app, config):
    dest = Path(app.confdir) / "_vendor"   # html_static_path: copied into _static
    dest.mkdir(exist_ok=True)
    for name in ICON_FILES:
        shutil.copyfile(ICONS / name, dest / name)
    shutil.copyfile(HERE / "share.css", dest / "share.css")


def _add_assets(app):
    app.add_css_file("share.css", priority=210)


def _head_links(app, pagename, templatename, context, doctree):
    pathto = context.get("pathto")
    if pathto is None:
        return
    links = (f'<link rel="manifest" href="{pathto(MANIFEST_NAME, 1)}">\n'
             f'<link rel="icon" href="{pathto("_static/icon.svg", 1)}" type="image/svg+xml">\n'
             f'<link rel="apple-touch-icon" href="{pathto("_static/icon-192.png", 1)}">\n'
             f'<meta name="theme-color" content="{THEME_COLOR}">\n')
    context["metatags"] = context.get("metatags", "") + links


def _icon_on_redirect(index: Path) -> None:
    """The site root's page only redirects to the first chapter; give it the icon too, or the
    browser asks for /favicon.ico at the host's root, outside a site published under a sub-path."""
    if not index.exists():
        return
    text = index.read_text(encoding="utf-8")
    link = '<link rel="icon" href="_static/icon.svg" type="image/svg+xml">'
    if link not in text:
        index.write_text(link + "\n" + text, encoding="utf-8")


def _finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    _icon_on_redirect(outdir / "index.html")
    (outdir / MANIFEST_NAME).write_text(
        json.dumps(manifest(app.config.html_title or app.config.project), ensure_ascii=False, indent=1),
        encoding="utf-8")
    write_service_worker(outdir)


def setup(app):
    app.connect("config-inited", _copy_static)
    app.connect("builder-inited", _add_assets)
    app.connect("html-page-context", _head_links)
    # last: other extensions still write files when the build finishes (the theme's pygments.css,
    # myst-nb's stylesheet, the root index.html), and the list must hold what they wrote
    app.connect("build-finished", _finish, priority=990)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
