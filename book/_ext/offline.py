"""Offline after one visit, and installable on a phone.

* Every page links a web app manifest (``manifest.webmanifest`` at the site root: Korean name,
  icons from ``book/_ext/icons``) and the stylesheet of the per-widget "링크 복사" control.
* After the build, ``sw.js`` is written at the site root: the service worker
  ``widgets/js/offline/sw.js`` preceded by one line of data, the list of every file of the site
  and a version derived from their contents. A new build that changes any file changes the
  version, so browsers install the new worker, which caches the new files under a new name and
  deletes the old cache. ``widgets/js/offline.js`` registers it with a relative address, so the
  site works unchanged under a sub-path.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
ICONS = HERE / "icons"
ICON_FILES = ("icon.svg", "icon-192.png", "icon-512.png")
SW_SOURCE = ROOT / "widgets" / "js" / "offline" / "sw.js"
SW_NAME = "sw.js"
MANIFEST_NAME = "manifest.webmanifest"
#: Not cached: page sources, debugger maps, build bookkeeping, the worker itself.
_SKIP_DIRS = ("_sources/", ".doctrees/")
_SKIP_SUFFIXES = (".map",)
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
                or any(part.startswith(".") for part in rel.split("/"))):
            continue
        out.append(rel)
    return out


def site_version(outdir: Path, files: list[str]) -> str:
    """A short digest of every cached file's path and contents: the cache's name.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); _ = (d / "a.html").write_text("1")
    >>> v1 = site_version(d, ["a.html"]); _ = (d / "a.html").write_text("2")
    >>> v1 != site_version(d, ["a.html"]), len(v1)
    (True, 12)
    """
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + hashlib.sha256((outdir / rel).read_bytes()).digest())
    return digest.hexdigest()[:12]


def write_service_worker(outdir: Path) -> str:
    """Write ``sw.js`` (file list and version, then the worker's code) at the site root; return
    the version."""
    files = site_files(outdir)
    version = site_version(outdir, files)
    data = json.dumps({"version": version, "files": files}, ensure_ascii=False, separators=(",", ":"))
    (outdir / SW_NAME).write_text(f"const OFFLINE = {data};\n" + SW_SOURCE.read_text(encoding="utf-8"),
                                  encoding="utf-8")
    return version


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
    app.connect("build-finished", _finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
