"""Each glossary entry links to the chapter section that explains its rule.

Which section explains which term is declared as data in ``book/glossary_sections.yml``
(``다중 공격 페널티: pf2e § 다중 공격 페널티``), not guessed, so the glossary's wording can change
freely. At build time every entry of the glossary page gets a last line

    규칙 보기 → 3.4 다중 공격 페널티 · 계산기 → 한 턴의 타격 세 번 (다중 공격 페널티)

linking the section's anchor and, when widgets sit in that section, each widget (``#go=uid``,
which ``widgets/js/share.js`` scrolls to). A term missing from the file, a name the glossary no
longer has, or a section that does not exist stops the build with a warning (the book builds
with ``-W``). The search (``book_search.py``) puts these sections first for a term's name.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from docutils import nodes
from sphinx.util import logging

from book_sections import GlossaryEntry, Section, glossary_entries, page_sections

logger = logging.getLogger(__name__)

HERE = Path(__file__).parent
DATA = HERE.parent / "glossary_sections.yml"
GLOSSARY = "book/glossary"
SEP = "§"


@dataclass(frozen=True)
class RuleLink:
    term: str
    section: Section


def read_mapping(path: Path = DATA) -> dict[str, str | None]:
    """Glossary term → ``"chapter § heading"`` (or ``"chapter"``, or None), as the file says.

    >>> m = read_mapping()
    >>> m["다중 공격 페널티"], m["D6"]
    ('pf2e § 다중 공격 페널티', None)
    """
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict) or not all(isinstance(k, str) and (v is None or isinstance(v, str))
                                             for k, v in data.items()):
        raise ValueError(f"{path.name}: every line must be 'term: chapter § heading' or 'term: null'")
    return data


def split_target(target: str) -> tuple[str, str | None]:
    """``"pf2e § 다중 공격 페널티"`` → ``("book/pf2e", "다중 공격 페널티")``; ``"bfrpg"`` → ``("book/bfrpg", None)``.

    >>> split_target("quickref/pf2e § 보너스와 페널티, 숙련")
    ('book/quickref/pf2e', '보너스와 페널티, 숙련')
    """
    page, _, heading = (part.strip() for part in target.partition(SEP))
    return f"book/{page}", heading or None


def find_section(sections: list[Section], heading: str | None) -> Section:
    """The page's section with that heading (its key: bracketed parts left out); the page's top
    for None. Raises KeyError when none or several have it."""
    if heading is None:
        return sections[0]
    found = [s for s in sections if s.key == heading]
    if len(found) != 1:
        raise KeyError(f"{len(found)} sections headed {heading!r}")
    return found[0]


class RuleTable:
    """Every section of the book, read once per build, and the glossary's declared targets."""

    def __init__(self, env):
        self.env = env
        self._pages: dict[str, list[Section]] = {}

    def sections(self, docname: str) -> list[Section]:
        if docname not in self._pages:
            self._pages[docname] = page_sections(self.env, docname)
        return self._pages[docname]

    def entries(self) -> list[GlossaryEntry]:
        return glossary_entries(self.env.get_doctree(GLOSSARY)) if GLOSSARY in self.env.found_docs else []

    def links(self) -> dict[str, Section | None]:
        """Term → the section that explains it (None: declared as having none). Problems are
        logged as warnings (they stop a ``-W`` build) and those terms left out."""
        if hasattr(self, "_links"):
            return self._links
        mapping = read_mapping()
        names = [e.term for e in self.entries()]
        out: dict[str, Section | None] = {}
        missing = [n for n in names if n not in mapping]
        if missing:
            logger.warning(f"{DATA.name}: glossary terms without a section (add 'term: chapter § "
                           f"heading' or 'term: null'): {', '.join(missing)}")
        stale = sorted(set(mapping) - set(names))
        if stale:
            logger.warning(f"{DATA.name}: names the glossary does not have: {', '.join(stale)}")
        for name in names:
            target = mapping.get(name)
            if target is None:
                if name in mapping:
                    out[name] = None
                continue
            docname, heading = split_target(target)
            if docname not in self.env.found_docs:
                logger.warning(f"{DATA.name}: {name}: no page {docname}")
                continue
            try:
                out[name] = find_section(self.sections(docname), heading)
            except KeyError as err:
                logger.warning(f"{DATA.name}: {name}: {docname}: {err.args[0]}")
        self._links = out
        return out


def rule_table(app) -> RuleTable:
    table = getattr(app, "_rule_table", None)
    if table is None or table.env is not app.env:
        table = app._rule_table = RuleTable(app.env)
    return table


def target_uri(builder, fromdoc: str, section: Section, widget: str | None = None) -> str:
    """Relative address of a section (or of a widget in it) from another page."""
    uri = builder.get_relative_uri(fromdoc, section.docname)
    if widget:
        return f"{uri}#go={widget}"
    return f"{uri}#{section.anchor}" if section.anchor else uri


def rule_paragraph(builder, fromdoc: str, section: Section) -> nodes.paragraph:
    """``규칙 보기 → 3.4 다중 공격 페널티 · 계산기 → …`` as links."""
    para = nodes.paragraph(classes=["glossary-rule"])
    para += nodes.Text("규칙 보기 → ")
    para += nodes.reference("", section.label, internal=True,
                            refuri=target_uri(builder, fromdoc, section))
    for uid, title in section.widgets:
        para += nodes.Text(" · 계산기 → ")
        para += nodes.reference("", title or "이 절의 계산기", internal=True,
                                refuri=target_uri(builder, fromdoc, section, uid))
    return para


def _add_links(app, doctree, docname):
    if docname != GLOSSARY or app.builder.format != "html":
        return
    links = rule_table(app).links()
    for item in doctree.findall(nodes.definition_list_item):
        term = next((c for c in item.children if isinstance(c, nodes.term)), None)
        body = next((c for c in item.children if isinstance(c, nodes.definition)), None)
        if term is None or body is None:
            continue
        section = links.get(term.astext().strip())
        if section is not None:
            body += rule_paragraph(app.builder, docname, section)


def setup(app):
    app.connect("doctree-resolved", _add_links)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
