"""The book's sections as data, read from Sphinx's doctrees: what the search indexes and what the
glossary's rule links point to.

Every section of every page becomes a :class:`Section`: its page, anchor, number (``3.4``), heading,
the heading without its bracketed original-language part (the *key* that ``glossary_sections.yml``
and the tests name it by), its own text (not its subsections'), the widgets embedded in it and the
glossary terms it links with ``{term}``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from docutils import nodes

#: Elements of a widget's HTML whose text is not prose: its first answers and its Bokeh document.
_SKIP_TAGS = {"script", "style", "template", "svg"}
_SKIP_CLASSES = {"live-placeholder"}
_BLOCK_TAGS = {"p", "div", "tr", "li", "br", "table", "caption", "h1", "h2", "h3", "h4", "h5", "h6",
               "ul", "ol", "dl", "dt", "dd", "section", "blockquote"}
_CELL_TAGS = {"td", "th"}


@dataclass(frozen=True)
class Section:
    docname: str            #: e.g. ``book/pf2e``
    anchor: str             #: the section's id; ``""`` for a page's top section
    number: str             #: e.g. ``3.4`` (``""`` where the page is not numbered)
    title: str              #: the heading as printed, without its number
    key: str                #: the heading without bracketed parts (see :func:`heading_key`)
    page_title: str         #: the page's own heading
    level: int              #: 1 for the page's top section, 2 for ``##`` …
    text: str               #: the section's own text, without its subsections
    widgets: tuple[tuple[str, str], ...] = ()   #: (uid, title) of widgets embedded in it
    terms: frozenset[str] = field(default_factory=frozenset)  #: glossary terms it links, casefolded

    @property
    def label(self) -> str:
        """What a link to the section says: ``3.4 다중 공격 페널티``."""
        return f"{self.number} {self.key}".strip()


def heading_key(title: str) -> str:
    """A heading as ``glossary_sections.yml`` names it: bracketed parts left out.

    >>> heading_key("사전 측정 (Pre-measuring)과 돌격 거리")
    '사전 측정과 돌격 거리'
    >>> heading_key("다중 공격 페널티 (Multiple Attack Penalty)")
    '다중 공격 페널티'
    """
    return re.sub(r"\s+", " ", re.sub(r"\s*\([^)]*\)", "", title)).strip()


class _HtmlText(HTMLParser):
    """Text of an HTML fragment without scripts and widget first answers; widget titles kept."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0          # depth inside a skipped element
        self.stack: list[bool] = []
        self.widgets: list[tuple[str, str]] = []
        self._title_of: str | None = None
        self._title: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("br", "img", "input", "hr", "meta", "link"):
            if tag == "br":
                self.parts.append("\n")
            return
        classes = set((a.get("class") or "").split())
        skipped = self.skip > 0 or tag in _SKIP_TAGS or bool(classes & _SKIP_CLASSES)
        self.stack.append(skipped)
        if skipped:
            self.skip += 1
            return
        if a.get("data-live"):
            self.widgets.append((a["data-live"], ""))
        if "live-title" in classes and self.widgets:
            self._title = []
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")
        elif tag in _CELL_TAGS:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in ("br", "img", "input", "hr", "meta", "link") or not self.stack:
            return
        skipped = self.stack.pop()
        if skipped:
            self.skip -= 1
            return
        if self._title is not None and tag == "p":
            uid, _ = self.widgets[-1]
            self.widgets[-1] = (uid, "".join(self._title).strip())
            self._title = None
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        self.parts.append(data)
        if self._title is not None:
            self._title.append(data)


def html_text(html: str) -> tuple[str, list[tuple[str, str]]]:
    """Text of a raw HTML output and the widgets in it (uid, title).

    >>> html_text('<div class="live-widget" data-live="pf-strikes"><p class="live-title">한 턴의 타격'
    ...           '</p><div class="live-placeholder"><table><tr><td>3/20</td></tr></table></div>'
    ...           '<script>var x = 1;</script></div><table><tr><th>등급</th><td>+3</td></tr></table>')
    ('한 턴의 타격\\n등급 +3', [('pf-strikes', '한 턴의 타격')])
    """
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return _tidy("".join(parser.parts)), parser.widgets


def _tidy(text: str) -> str:
    lines = (re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


_SKIP_NODES = (nodes.comment, nodes.system_message, nodes.target, nodes.substitution_definition,
               nodes.title, nodes.section)


def _is_term_ref(node) -> bool:
    return isinstance(node, nodes.Element) and node.get("reftype") == "term" and bool(node.get("reftarget"))


def _other_mime(node) -> bool:
    """A notebook output's plain-text (or widget) alternative to an HTML one beside it."""
    mime = node.get("mime_type") if isinstance(node, nodes.Element) else None
    if not mime or mime == "text/html" or node.parent is None:
        return False
    return any(isinstance(s, nodes.Element) and s.get("mime_type") == "text/html"
               for s in node.parent.children) or mime != "text/plain"


def _own_text(node, widgets: list) -> str:
    if isinstance(node, nodes.raw):
        if "html" not in node.get("format", ""):
            return ""
        text, found = html_text(node.astext())
        widgets.extend(found)
        return text
    if isinstance(node, _SKIP_NODES) or _other_mime(node):
        return ""
    if isinstance(node, nodes.Text):
        return str(node)
    if isinstance(node, nodes.TextElement) and not any(True for _ in node.findall(nodes.raw)):
        # a paragraph's line breaks are the source's, not the reader's
        return node.astext() if isinstance(node, nodes.FixedTextElement) else node.astext().replace("\n", " ")
    return "\n".join(t for t in (_own_text(c, widgets) for c in node.children) if t)


def _secnumber(env, docname: str, anchor: str) -> str:
    """``3.4`` for a section (``""`` anchor: the page's top section), ``""`` where unnumbered."""
    got = getattr(env, "toc_secnumbers", {}).get(docname, {}).get("#" + anchor if anchor else "")
    return ".".join(map(str, got)) if got else ""


def page_sections(env, docname: str, doctree=None) -> list[Section]:
    """Every section of one page, in page order (the top section's anchor is ``""``)."""
    doctree = doctree if doctree is not None else env.get_doctree(docname)
    out: list[Section] = []
    page_title = ""

    def visit(section, level: int):
        nonlocal page_title
        title_node = next((c for c in section.children if isinstance(c, nodes.title)), None)
        title = title_node.astext().strip() if title_node is not None else ""
        if level == 1:
            page_title = title
        widgets: list[tuple[str, str]] = []
        terms: set[str] = set()
        own = [c for c in section.children if not isinstance(c, nodes.section)]
        parts = [t for t in (_own_text(c, widgets) for c in own) if t]
        for child in own:
            if isinstance(child, nodes.Element):
                terms.update(x["reftarget"].casefold() for x in child.findall(_is_term_ref))
        anchor = section["ids"][0] if section["ids"] and level > 1 else ""
        number = _secnumber(env, docname, anchor)
        out.append(Section(docname=docname, anchor=anchor, number=number, title=title,
                           key=heading_key(title), page_title=page_title, level=level,
                           text=_tidy("\n".join(parts)), widgets=tuple(widgets),
                           terms=frozenset(terms)))
        for child in section.children:
            if isinstance(child, nodes.section):
                visit(child, level + 1)

    for top in doctree.children:
        if isinstance(top, nodes.section):
            visit(top, 1)
    return out


@dataclass(frozen=True)
class GlossaryEntry:
    term: str          #: the entry's name as printed, e.g. ``특성 (트렌치 크루세이드)``
    anchor: str        #: its id on the glossary page, e.g. ``term-12``
    text: str          #: its definition
    group: str         #: the heading of its block (공통, 패스파인더 2판 …)


def glossary_entries(doctree) -> list[GlossaryEntry]:
    """The entries of every ``{glossary}`` block of a page, in page order."""
    out = []
    for section in doctree.findall(nodes.section):
        title = next((c.astext() for c in section.children if isinstance(c, nodes.title)), "")
        for item in section.findall(nodes.definition_list_item):
            if item.parent.parent is not None and _enclosing_section(item) is not section:
                continue
            term = next((c for c in item.children if isinstance(c, nodes.term)), None)
            body = next((c for c in item.children if isinstance(c, nodes.definition)), None)
            if term is None or not term["ids"]:
                continue
            out.append(GlossaryEntry(term=term.astext().strip(), anchor=term["ids"][0],
                                     text=_tidy(body.astext()) if body is not None else "",
                                     group=heading_key(title)))
    return out


def _enclosing_section(node):
    while node is not None and not isinstance(node, nodes.section):
        node = node.parent
    return node
