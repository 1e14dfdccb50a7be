"""The book's search: every section of every page is a search result of its own, linked to its
anchor, with a snippet from the matching passage (Pagefind, a static search library).

After the HTML is written, each section (its heading, its own text, the titles of the widgets in
it) and each glossary entry becomes one small record; ``widgets/js/search/pagefind_index.mjs``
hands them to the npm package ``pagefind`` (pinned in ``package-lock.json``, installed by
``scripts/dev.py setup`` with ``npm ci``), which writes the index into ``pagefind/`` at the site
root: ordinary same-origin files, split into chunks and one fragment per record, so one search
downloads a small part of it. ``search.html`` runs ``widgets/js/search/book_search.js``, which
orders the results:

1. the sections ``book/glossary_sections.yml`` declares for a glossary term the query names
   (``다중 공격 페널티를`` → 3.4 다중 공격 페널티), then
2. the other chapter sections, 3. quick references, the appendix and the introduction,
4. glossary entries, each with its rule's link.

Korean particles are stripped from the query (``korean_search.strip_particle``, the same list in
the page script) and words match by their beginning, so 표식을 finds 표식, 표식이, 표식용.

Without npm (or node) the book still builds: search.html then uses Sphinx's own search with the
Korean splitter of ``korean_search.py`` and says that the full search needs the set-up.
Chapter pages load nothing of the search; only search.html does (``book/_templates/layout.html`` drops
the theme's search-as-you-type scripts, which loaded Sphinx's whole index on every page).
"""
from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
import subprocess
import tempfile
import unicodedata
from pathlib import Path

from sphinx.errors import ExtensionError
from sphinx.util import logging

from book_sections import Section, heading_key
from glossary_rules import GLOSSARY, rule_table, target_uri
from korean_search import PARTICLES, strip_particle

logger = logging.getLogger(__name__)

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
JS_DIR = ROOT / "widgets" / "js" / "search"
PAGE_JS = JS_DIR / "book_search.js"
INDEX_JS = JS_DIR / "pagefind_index.mjs"
CSS = HERE / "book_search.css"
TEMPLATES = HERE / "templates"
PAGEFIND = ROOT / "node_modules" / "pagefind"
OUT_DIR = "pagefind"
TERMS_FILE = "book-terms.json"
#: Pagefind's ready-made interfaces: the page has its own, so they are not shipped.
_UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css",
           "pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js")
#: Pages that are not content.
_SKIP_DOCS = {"genindex", "search"}
#: How much more a heading weighs than body text.
HEADING_WEIGHT = 1.0


def term_key(text: str) -> str:
    """What a term and a query are compared by: NFKC, no case, no game in brackets, particles
    stripped from each word, no spaces. The page script computes the same (tested).

    >>> term_key("다중 공격 페널티를"), term_key("스페셜 (언더페이스)"), term_key("±DICE")
    ('다중공격페널티', '스페셜', '±dice')
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"\s*\([^)]*\)\s*$", "", text)
    return "".join(strip_particle(w) for w in text.split())


def available() -> bool:
    """Whether the indexer can run: node on PATH and the npm package installed."""
    return bool(shutil.which("node")) and (PAGEFIND / "package.json").exists()


def _kind(section: Section) -> str:
    return "chapter" if section.number and not section.docname.startswith("book/quickref/") else "reference"


def _span(attrs: dict[str, str], meta: list[str] = (), filters: list[str] = ()) -> str:
    parts = []
    if meta:
        parts.append(f'data-pagefind-meta="{", ".join(f"{m}[data-{m}]" for m in meta)}"')
    if filters:
        parts.append(f'data-pagefind-filter="{", ".join(f"{f}[data-{f}]" for f in filters)}"')
    parts += [f'data-{k}="{html.escape(v, quote=True)}"' for k, v in attrs.items()]
    return f"<span {' '.join(parts)}></span>"


def _paragraphs(text: str) -> str:
    return "".join(f"<p>{html.escape(line)}</p>" for line in text.split("\n") if line)


def section_record(builder, section: Section, explains: list[str]) -> dict:
    """One section as a small HTML page for the indexer."""
    href = builder.get_target_uri(section.docname) + (f"#{section.anchor}" if section.anchor else "")
    title = f"{section.number} {section.title}".strip()
    page = heading_key(section.page_title)
    body = [f'<h1 data-pagefind-meta="title" data-pagefind-weight="{HEADING_WEIGHT}">{html.escape(title)}</h1>',
            _span({"href": href, "page": page, "kind": _kind(section)}, meta=["href", "page"], filters=["kind"])]
    body += [_span({"explains": key}, filters=["explains"]) for key in explains]
    body.append(_paragraphs(section.text))
    return {"url": href, "html": f'<html lang="ko"><body>{"".join(body)}</body></html>'}


def glossary_record(builder, entry, section: Section | None) -> dict:
    href = builder.get_target_uri(GLOSSARY) + f"#{entry.anchor}"
    attrs = {"href": href, "page": "용어집", "kind": "glossary"}
    meta = ["href", "page"]
    if section is not None:
        attrs.update(rule=target_uri(builder, "search", section), rulelabel=section.label)
        meta += ["rule", "rulelabel"]
        if section.widgets:
            uid, title = section.widgets[0]
            attrs.update(widget=target_uri(builder, "search", section, uid), widgetlabel=title or "계산기")
            meta += ["widget", "widgetlabel"]
    body = [f'<h1 data-pagefind-meta="title" data-pagefind-weight="{HEADING_WEIGHT}">{html.escape(entry.term)}</h1>',
            _span(attrs, meta=meta, filters=["kind"]), _paragraphs(entry.text)]
    return {"url": href, "html": f'<html lang="ko"><body>{"".join(body)}</body></html>'}


def build_records(app) -> tuple[list[dict], list[dict]]:
    """(records for the indexer, the declared term → section table for the page script)."""
    table = rule_table(app)
    links = table.links()
    explains: dict[tuple[str, str], list[str]] = {}
    terms: dict[str, list[str]] = {}
    for term, section in links.items():
        if section is None:
            continue
        key = term_key(term)
        explains.setdefault((section.docname, section.anchor), [])
        if key not in explains[(section.docname, section.anchor)]:
            explains[(section.docname, section.anchor)].append(key)
        terms.setdefault(key, [])
    records = []
    for docname in sorted(app.env.found_docs - _SKIP_DOCS - {GLOSSARY}):
        for section in table.sections(docname):
            records.append(section_record(app.builder, section,
                                          explains.get((section.docname, section.anchor), [])))
    for entry in table.entries():
        records.append(glossary_record(app.builder, entry, links.get(entry.term)))
    term_list = [{"k": key} for key in sorted(terms)]
    return records, term_list


def write_index(app, outdir: Path) -> None:
    records, terms = build_records(app)
    target = outdir / OUT_DIR
    shutil.rmtree(target, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.json"
        path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
        done = subprocess.run([shutil.which("node"), str(INDEX_JS), str(path), str(target)], cwd=ROOT,
                              capture_output=True, text=True)
    if done.returncode != 0:
        raise ExtensionError(f"Pagefind indexing failed:\n{done.stdout}\n{done.stderr}")
    logger.info(done.stdout.strip())
    for name in _UNUSED:
        (target / name).unlink(missing_ok=True)
    entry = (target / "pagefind-entry.json").read_bytes()
    data = {"tag": hashlib.sha256(entry).hexdigest()[:12], "particles": list(PARTICLES), "terms": terms}
    (target / TERMS_FILE).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                                     encoding="utf-8")


def _copy_assets(app, config):
    dest = Path(app.confdir) / "_vendor"   # html_static_path: copied into _static
    dest.mkdir(exist_ok=True)
    shutil.copyfile(PAGE_JS, dest / PAGE_JS.name)
    shutil.copyfile(CSS, dest / CSS.name)
    config.templates_path = [*config.templates_path, str(TEMPLATES)]


def _mode(app):
    app.config.book_search_mode = "pagefind" if available() else "sphinx"
    if app.config.book_search_mode == "sphinx":
        logger.info("book_search: node or the npm package pagefind is missing; search.html uses "
                    "Sphinx's search (run `python3 scripts/dev.py setup` with npm for the full search)")


#: Scripts every page loads for its widgets; the search page has none (BokehJS alone is ~2 MB).
_WIDGET_SCRIPTS = re.compile(r"(^|/)(bokeh-[\w.-]+|bokeh_loader|live|grid_cost|grid_explorer|bfrpg_options|share)\.js$")


def _context(app, pagename, templatename, context, doctree):
    context["book_search_mode"] = app.config.book_search_mode   # templates/search.html
    if pagename == "search" and "script_files" in context:
        context["script_files"] = [
            js for js in context["script_files"]
            if not _WIDGET_SCRIPTS.search(str(getattr(js, "filename", "") or ""))
            and "LiveBookConfig" not in str(getattr(js, "attributes", {}).get("body", ""))]


def _finish(app, exception):
    if exception is not None or app.builder.format != "html" or app.config.book_search_mode != "pagefind":
        return
    write_index(app, Path(app.outdir))


def setup(app):
    app.setup_extension("korean_search")
    app.setup_extension("glossary_rules")
    app.add_config_value("book_search_mode", "sphinx", "html")
    app.connect("config-inited", _copy_assets)
    app.connect("builder-inited", _mode)
    app.connect("html-page-context", _context)
    # before offline.py writes the service worker's list of the site's files
    app.connect("build-finished", _finish, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
