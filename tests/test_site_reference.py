"""The built reader's pages: quick references work offline and print on A4 without navigation
or widget controls; the glossary has its terms and every chapter link lands on one."""
from __future__ import annotations

import html
import re

import pytest

from conftest import SITE

CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]
HIDDEN_IN_PRINT = [".bd-sidebar-primary", ".bd-sidebar-secondary", ".bd-header", ".prev-next-area",
                   ".bd-header-article", ".live-widget"]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_quick_reference_is_offline_and_prints_without_navigation(offline_page, chapter):
    page = offline_page.open(f"book/quickref/{chapter}.html")
    assert page.locator("table.quickref, .cell_output table").count() >= 2
    assert page.locator("div.cell_input").count() == 0
    page.emulate_media(media="print")
    for selector in HIDDEN_IN_PRINT:
        shown = page.evaluate(
            "(sel) => [...document.querySelectorAll(sel)].some(e => getComputedStyle(e).display !== 'none')",
            selector)
        assert not shown, selector
    # the article takes the whole printed width: nothing beside it
    width = page.evaluate("() => document.querySelector('article.bd-article').getBoundingClientRect().width")
    assert width > 0.9 * page.viewport_size["width"] - 60
    pdf = page.pdf(format="A4")
    assert pdf[:4] == b"%PDF"
    assert offline_page.errors == []


def test_chapter_print_hides_widget_controls(offline_page):
    page = offline_page.open("book/trench_crusade.html")
    page.emulate_media(media="print")
    assert page.evaluate(
        "() => [...document.querySelectorAll('.live-widget')].every(e => getComputedStyle(e).display === 'none')")


def test_glossary_terms_and_chapter_links_resolve():
    glossary = (SITE / "book" / "glossary.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<dt id="(term-[^"]+)"', glossary))
    assert len(anchors) >= 80
    for chapter in CHAPTERS:
        html = (SITE / "book" / f"{chapter}.html").read_text(encoding="utf-8")
        links = re.findall(r'href="glossary\.html#(term-[^"]+)"', html)
        assert len(links) >= 20, chapter
        assert set(links) <= anchors, chapter


WORKED = [("trench_crusade", "tc-worked", "seed", "37"), ("bfrpg", "bf-worked", "seed", "37"),
          ("pf2e", "pf-worked", "seed", "37"), ("underface", "uf-worked", "seed", "37"),
          ("hunters_moon", "hm-worked", "seed", "37")]


@pytest.mark.parametrize("chapter, uid, control, typed", WORKED)
def test_worked_round_answers_a_typed_value_like_the_library(offline_page, chapter, uid, control, typed):
    """A value beyond the slider, typed into the box, is answered in the page by the library
    itself (or refused with the library's Korean message), the same as in Python."""
    from test_site_engine import page_widgets, shown, wait_engine
    from widgets.views.live import rebuild
    page = offline_page.open(f"book/{chapter}.html")
    data = next(d for d in page_widgets(chapter) if d["uid"] == uid)
    offline_page.type_value(uid, control, typed)
    wait_engine(offline_page)
    page.evaluate("(uid) => LiveBook.settled(uid)", uid)
    want = rebuild(data["origin"]).answer({control: typed})
    got = shown(offline_page, uid)
    if "error" in want:
        assert want["error"] in html.unescape(got["status"])
    else:
        assert got["h"] == want["h"] and got["status"] == ""
    assert offline_page.errors == []
