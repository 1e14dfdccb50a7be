"""「이 장의 계산기」: a chapter's jump list of its widgets, one tap from the chapter's top.

A chapter says where the list goes with the marker (an HTML comment, so JupyterLab and GitHub
show nothing for it)

    <!-- 이 장의 계산기 -->

and the build fills it with a link to every widget the page shows, in page order: the widget's
title and the section it sits in. The list is made from the page's own outputs (each widget's
``data-live`` id and title, written by ``widgets/views/static_page.py``), so it always names
exactly the calculators the reader will find, even when a section gains or loses one.

Under the list stands the footer's "책 전체를 기기에 저장" (the same template,
``book/_templates/save-book.html``, wired by ``widgets/js/offline.js``): the way to keep the
engine for offline use is found where the calculators are, not only at the page's end.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from docutils import nodes

#: The footer's save control (a Jinja comment, then plain markup).
SAVE_TEMPLATE = Path(__file__).resolve().parent.parent / "_templates" / "save-book.html"

_WIDGET = re.compile(r'<div class="live-widget" id="([a-z][a-z0-9-]*)" data-live="\1"[^>]*>'
                     r'(?:<p class="live-title">(.*?)</p>)?', re.S)


#: The marker a chapter writes where its jump list goes.
MARKER = "<!-- 이 장의 계산기 -->"


def widgets_in(doctree) -> list[tuple[str, str, str, str]]:
    """(uid, widget title, section title, section id) of every widget output, in page order."""
    found = []
    for raw in doctree.findall(nodes.raw):
        if "html" not in raw.get("format", ""):
            continue
        for uid, title in _WIDGET.findall(raw.astext()):
            section = raw.parent
            while section is not None and not isinstance(section, nodes.section):
                section = section.parent
            heading = section[0].astext() if section is not None else ""
            ids = section["ids"][0] if section is not None and section["ids"] else ""
            found.append((uid, html.unescape(title), heading, ids))
    return found


def jump_list_html(items: list[tuple[str, str, str, str]]) -> str:
    """The jump list's markup (a labelled navigation landmark).

    >>> '<a href="#tc-success">성공 굴림 확률 <span' in jump_list_html([("tc-success", "성공 굴림 확률", "성공 굴림", "s")])
    True
    """
    rows = []
    for uid, title, heading, _ in items:
        name = title or heading
        where = f' <span class="calculators-where">{html.escape(heading)}</span>' \
            if heading and heading != name else ""
        rows.append(f'<li><a href="#{html.escape(uid)}">{html.escape(name)}{where}</a></li>')
    return ('<nav class="calculators" aria-label="이 장의 계산기">'
            '<p class="calculators-title">이 장의 계산기</p>'
            f'<ol>{"".join(rows)}</ol>{save_control()}</nav>')


def save_control() -> str:
    """The footer's save control, to stand under the jump list (its Jinja comment dropped).

    >>> 'class="save-book save-book--near"' in save_control(), "{#" in save_control()
    (True, False)
    """
    markup = re.sub(r"\{#.*?#\}", "", SAVE_TEMPLATE.read_text(encoding="utf-8"), flags=re.S).strip()
    return markup.replace('class="save-book"', 'class="save-book save-book--near"', 1)


def _fill(app, doctree, docname):
    places = [raw for raw in doctree.findall(nodes.raw) if raw.astext().strip() == MARKER]
    if not places:
        return
    items = widgets_in(doctree)
    for place in places:
        place.replace_self(nodes.raw("", jump_list_html(items), format="html") if items else [])


def setup(app):
    app.connect("doctree-resolved", _fill)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
