"""Every page of the built site: offline, no code cells shown, every widget rendered; the
introduction's dice-pool widget answers with the library's exact values."""
from __future__ import annotations

import re

import pytest

from conftest import SITE
from widgets.views import format as fmt
from widgets.views.generic import pool_distribution

PAGES = sorted(p.relative_to(SITE).as_posix() for p in (SITE / "book").glob("*.html"))


def test_every_chapter_is_built():
    names = {p.split("/")[-1] for p in PAGES}
    assert {"intro.html", "trench_crusade.html", "api.html"} <= names


@pytest.mark.parametrize("path", PAGES)
def test_page_is_offline_and_every_widget_renders(offline_page, path):
    html = (SITE / path).read_text(encoding="utf-8")
    uids = re.findall(r'data-live="([a-z0-9-]+)"', html)
    # the API appendix is the one page that shows its code on purpose
    offline_page.assert_page_live(path, uids, code_hidden=not path.endswith("api.html"))


def test_intro_dice_pool_widget(offline_page):
    page = offline_page.open("book/intro.html")
    root = page.locator('[data-live="dice-pool"]')
    for count, sides, keep, label in [(4, 8, "low2", "낮은 눈 2개"), (2, 12, "all", "모두 더하기"),
                                      (5, 6, "high1", "높은 눈 1개")]:
        offline_page.set_value("dice-pool-count", count)
        root.locator("select").nth(0).select_option(label=f"D{sides}")
        root.locator("select").nth(1).select_option(label=label)
        dist = pool_distribution(count, sides, keep)
        assert offline_page.bar_labels("dice-pool") == [fmt.prob(p) for p in dist.probabilities().values()]
        assert f"평균 {fmt.fraction(dist.mean())}" in offline_page.visible_text("dice-pool")


#: Appendix pages that look things up rather than teach: no widget per section.
REFERENCE_PAGES = ("api.html", "glossary.html")
#: A chapter's frame (issue 29): its one-screen opening, the kit list before play, the practice
#: questions (answered from the library, folded) and the closing summary hold no widget.
FRAME_SECTIONS = ("한눈에 보기", "준비할 것", "직접 해 보기", "정리")


@pytest.mark.parametrize("path", [p for p in PAGES if not p.endswith(REFERENCE_PAGES)])
def test_every_section_has_a_live_widget(path):
    from bs4 import BeautifulSoup  # comes with the book theme
    soup = BeautifulSoup((SITE / path).read_text(encoding="utf-8"), "html.parser")
    sections = [s for s in soup.find_all("section") if s.find("h2", recursive=False)]
    assert sections, path
    bare = [s.find("h2").get_text(strip=True) for s in sections if not s.select("[data-live]")]
    bare = [h for h in bare if not re.sub(r"^[\d.]+", "", h).startswith(FRAME_SECTIONS)]
    assert bare == [], f"{path}: sections without a widget: {bare}"
