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
2. the sections whose tables rule an armour or a weapon the query names by a name readers know
   (``book/search_names.yml``: ``사슬 갑옷``, ``chain mail``, ``longbow`` …), first where the
   source's own table has it, then where the name comes from the game's core rules and not from
   the source (the result is labelled 보충: the Basic Fantasy movement table says 금속 갑옷 and
   never names chain mail), then
3. the other chapter sections, 4. quick references, the appendix and the introduction,
5. glossary entries, each with its rule's link.

The page answers as the reader types (two characters and a pause; Pagefind's
``debouncedSearch``), on the search page and in the header's search box of every page: a page
loads only the small ``book_search_hook.js``, which fetches the search when the reader starts to
type there.

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
from dataclasses import dataclass
from pathlib import Path

import yaml
from sphinx.errors import ExtensionError
from sphinx.util import logging

from book_sections import Section, heading_key
from glossary_rules import GLOSSARY, find_section, rule_table, split_target, target_uri
from korean_search import PARTICLES, strip_particle

logger = logging.getLogger(__name__)

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
JS_DIR = ROOT / "widgets" / "js" / "search"
PAGE_JS = JS_DIR / "book_search.js"
#: On every page: loads PAGE_JS when the reader types into the header's search box.
HOOK_JS = JS_DIR / "book_search_hook.js"
INDEX_JS = JS_DIR / "pagefind_index.mjs"
CSS = HERE / "book_search.css"
TEMPLATES = HERE / "templates"
PAGEFIND = ROOT / "node_modules" / "pagefind"
OUT_DIR = "pagefind"
TERMS_FILE = "book-terms.json"
#: Armour and weapon names readers know → the sections whose tables rule them.
NAMES = HERE.parent / "search_names.yml"
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


@dataclass(frozen=True)
class KnownName:
    """One entry of ``book/search_names.yml``: names readers know, the sections whose tables
    rule them, the line a result shows, and, when the names come from the game's core rules
    and not from the source, that rule's name (the result is labelled 보충)."""

    names: tuple[str, ...]
    where: tuple[str, ...]
    says: str
    source: str | None = None

    @property
    def line(self) -> str:
        """What the result shows: the entry's line, 「보충 규칙 (출처):」 first when it is one,
        then 「다른 이름:」 and the names the line leaves out (so each of them is found: the
        search matches words by their beginning, so 쇠뇌 inside 중쇠뇌 does not count)."""
        rest = [n for n in dict.fromkeys(self.names)
                if not re.search(r"(?<!\w)" + re.escape(n), self.says, re.IGNORECASE)]
        text = f"보충 규칙 ({self.source}): {self.says}" if self.source else self.says
        return f"{text.rstrip('.')}. 다른 이름: {', '.join(rest)}." if rest else text


def read_names(path: Path = NAMES) -> list[KnownName]:
    """The entries of ``book/search_names.yml``.

    >>> chain = [e for e in read_names() if "chain mail" in e.names]
    >>> [(e.where[0], e.source) for e in chain]
    [('underface § 방어구와 방패', None), ('bfrpg § 이동 속도 표', '베이식 판타지 RPG 핵심 규칙')]
    >>> chain[1].line.startswith("보충 규칙 (베이식 판타지 RPG 핵심 규칙): 사슬 갑옷(chain mail)")
    True
    """
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    out = []
    for i, item in enumerate(data if isinstance(data, list) else [None]):
        where = item.get("where") if isinstance(item, dict) else None
        where = [where] if isinstance(where, str) else where
        names, says, source = ((item.get("names"), item.get("says"), item.get("source"))
                               if isinstance(item, dict) else (None, None, None))
        if not (isinstance(names, list) and names and all(isinstance(n, str) and n.strip() for n in names)
                and isinstance(where, list) and where and all(isinstance(w, str) for w in where)
                and isinstance(says, str) and says.strip() and (source is None or isinstance(source, str))
                and set(item) <= {"names", "where", "says", "source"}):
            raise ValueError(f"{path.name}: entry {i + 1} must have names (a list), where "
                             "('chapter § heading' or a list of them), says and, for a name from "
                             "the core rules, source")
        out.append(KnownName(tuple(n.strip() for n in names), tuple(where), " ".join(says.split()),
                             source.strip() if source else None))
    return out


def _known_names(table) -> list[tuple[KnownName, Section]]:
    """Every (entry, section) of ``book/search_names.yml``, in the file's order; a section that
    does not exist is a warning (it stops a ``-W`` build) and is left out."""
    out = []
    for entry in read_names():
        for target in entry.where:
            docname, heading = split_target(target)
            if docname not in table.env.found_docs:
                logger.warning(f"{NAMES.name}: {entry.names[0]}: no page {docname}")
                continue
            try:
                out.append((entry, find_section(table.sections(docname), heading)))
            except KeyError as err:
                logger.warning(f"{NAMES.name}: {entry.names[0]}: {docname}: {err.args[0]}")
    return out


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


def _section_href(builder, section: Section) -> str:
    """A section's address from the site's root (what a result links and its ``href`` meta)."""
    return builder.get_target_uri(section.docname) + (f"#{section.anchor}" if section.anchor else "")


def section_record(builder, section: Section, explains: list[str],
                   named: list[KnownName] = ()) -> dict:
    """One section as a small HTML page for the indexer; ``named``: the entries of
    ``search_names.yml`` whose tables are here (filters ``names`` for names the source's table
    uses, ``core`` for names from the core rules; their lines open the section's text)."""
    href = _section_href(builder, section)
    title = f"{section.number} {section.title}".strip()
    page = heading_key(section.page_title)
    body = [f'<h1 data-pagefind-meta="title" data-pagefind-weight="{HEADING_WEIGHT}">{html.escape(title)}</h1>',
            _span({"href": href, "page": page, "kind": _kind(section)}, meta=["href", "page"], filters=["kind"])]
    body += [_span({"explains": key}, filters=["explains"]) for key in explains]
    for entry in named:
        group = "core" if entry.source else "names"
        keys = dict.fromkeys(term_key(n) for n in entry.names)
        body += [_span({group: key}, filters=[group]) for key in keys]
        body.append(_paragraphs(entry.line.replace("·", " · ")))   # the indexer reads a·b as one word
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


def build_records(app) -> tuple[list[dict], list[dict], dict]:
    """(records for the indexer, the declared term → section table for the page script, the
    known names: ``{"lines": [[[section href, …], core rule or "", line], …], "keys": [{"k":
    key, "t": [line index, …]}, …]}``, one line per entry: what a result for a name shows and
    labels)."""
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
    named: dict[tuple[str, str], list[KnownName]] = {}
    lines: dict[KnownName, list] = {}
    for entry, section in _known_names(table):
        named.setdefault((section.docname, section.anchor), []).append(entry)
        lines.setdefault(entry, [[], entry.source or "", entry.line])[0].append(
            _section_href(app.builder, section))
    names: dict[str, list[int]] = {}
    for i, entry in enumerate(lines):
        for key in dict.fromkeys(term_key(n) for n in entry.names):
            names.setdefault(key, []).append(i)
    records = []
    for docname in sorted(app.env.found_docs - _SKIP_DOCS - {GLOSSARY}):
        for section in table.sections(docname):
            where = (section.docname, section.anchor)
            records.append(section_record(app.builder, section, explains.get(where, []),
                                          named.get(where, [])))
    for entry in table.entries():
        records.append(glossary_record(app.builder, entry, links.get(entry.term)))
    term_list = [{"k": key} for key in sorted(terms)]
    name_table = {"lines": list(lines.values()),
                  "keys": [{"k": key, "t": at} for key, at in sorted(names.items())]}
    return records, term_list, name_table


def write_index(app, outdir: Path) -> None:
    records, terms, names = build_records(app)
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
    data = {"tag": hashlib.sha256(entry).hexdigest()[:12], "particles": list(PARTICLES), "terms": terms,
            "names": names}
    (target / TERMS_FILE).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                                     encoding="utf-8")


def _copy_assets(app, config):
    dest = Path(app.confdir) / "_vendor"   # html_static_path: copied into _static
    dest.mkdir(exist_ok=True)
    shutil.copyfile(PAGE_JS, dest / PAGE_JS.name)
    shutil.copyfile(HOOK_JS, dest / HOOK_JS.name)
    shutil.copyfile(CSS, dest / CSS.name)
    config.templates_path = [*config.templates_path, str(TEMPLATES)]


def _mode(app):
    app.config.book_search_mode = "pagefind" if available() else "sphinx"
    if app.config.book_search_mode == "pagefind":
        app.add_js_file(HOOK_JS.name, loading_method="defer")   # every page; ~2 KB
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
