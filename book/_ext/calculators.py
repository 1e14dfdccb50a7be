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

#: The question each widget answers, the name the jump list gives it (issue 29: a newcomer looks
#: for a question, not a formula; no two names alike on a page). A widget not named here is
#: listed by its title.
QUESTIONS = {
    # Underface, in the chapter's order of play
    "uf-order": "누가 먼저 움직이나?",
    "uf-move": "걸었나, 달렸나? 이번 판정은?",
    "uf-hit": "공격이 막기·회피를 뚫고 맞을까?",
    "uf-settings": "판정 규칙을 바꾸면 확률이 어떻게 달라지나?",
    "uf-damage": "방어구를 뚫고 피해가 얼마나 들어오나?",
    "uf-hp": "한 방에 쓰러질까?",
    "uf-special": "스페셜로 맞히면 피해가 얼마나 되나?",
    "uf-weeks": "자연 회복으로 깨어나기까지 몇 주 걸리나?",
    "uf-firstaid": "응급처치로 깨울 수 있을까?",
    "uf-range": "이 거리에서 쏘면 맞을까?",
    "uf-armor": "이 방어구가 득일까, 실일까?",
    "uf-worked": "한 번의 공격은 어떻게 흘러가나?",
    # Hunter's Moon
    "hm-check": "이 판정이 성공할까?",
    "hm-recon": "정찰에 성공할까? 펌블이면 얼마나 다치나?",
    "hm-plot": "플롯치를 몇으로 고를까?",
    "hm-order": "이번 라운드에 누가 언제 움직이나?",
    "hm-destroy": "이 공격이 위협을 격파할까?",
    "hm-body": "본체를 치면 【생명력】이 얼마나 줄까?",
    "hm-defence": "위협의 공격을 막아 낼까?",
    "hm-interfere": "술식을 방해할 수 있나, 성공할까?",
    "hm-pursuit": "추격에 성공할까? 데미지는 얼마나 늘까?",
    "hm-end": "전투는 언제 끝나고 누가 이기나?",
    "hm-status-attack": "포박·비행·잠수가 내 공격을 어떻게 바꾸나?",
    "hm-status-defence": "포박·비행·잠수가 위협의 공격을 어떻게 바꾸나?",
    "hm-worked": "정찰부터 추격까지, 한 전투는 어떻게 흘러가나?",
    # Basic Fantasy
    "bf-facing": "어느 칸을 칠 수 있나?",
    "bf-diagonal": "이 길은 몇 피트인가?",
    "bf-grid": "어디까지 걸어서, 어디까지 달려서 가나?",
    "bf-rate": "갑옷과 짐에 따라 어디까지 가나?",
    "bf-range": "이 거리에서 쏠 수 있나?",
    "bf-sight": "이 자리에서 누가 보이나?",
    "bf-melee": "근접 예제의 칸마다 어떻게 움직이나?",
    "bf-grid-melee": "근접전을 떠나면 누가 분리 사격을 하나?",
    "bf-rear": "누가 뒤에서 칠 수 있나?",
    "bf-simul": "함께 움직이면 누가 먼저 가나?",
    "bf-worked": "근접전을 벗어나 다시 치는 한 라운드는 어떻게 흘러가나?",
}


def calculator_name(uid: str, title: str, heading: str) -> str:
    """The name a widget goes by in the jump list: its question, else its title, else its section.

    >>> calculator_name("uf-hit", "명중 판정: 공격 대 막기·회피", "공격과 방어")
    '공격이 막기·회피를 뚫고 맞을까?'
    >>> calculator_name("xx-new", "새 위젯", "절"), calculator_name("xx-new", "", "절")
    ('새 위젯', '절')
    """
    return QUESTIONS.get(uid) or title or heading


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
        name = calculator_name(uid, title, heading)
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
