"""The dice calculator on the built site, offline, as a reader uses it on a desktop and on a
390×844 touch screen: typing dice-bot notation into its box shows the library's exact answer
(computed in the page by the same library), a bad expression shows the library's Korean
message and the last answer stays, an example link types its roll, and a shared link opens with
the same roll."""
from __future__ import annotations

import html

import pytest

from conftest import OfflinePage
from widgets import notation
from widgets.views import dice_calc
from widgets.views import format as fmt

PAGE = "book/dice.html"
UID = "dice-calc"
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
             has_touch=True)


@pytest.fixture(params=["desktop", "phone"])
def reader(request, browser, site_url):
    page = OfflinePage(browser, site_url, **(PHONE if request.param == "phone" else {}))
    yield page
    assert page.off_site == [], f"requests to other hosts: {page.off_site}"
    assert page.errors == []
    page.close()


def _labels(roll: str) -> list[str]:
    return [fmt.prob(p) for p in notation.distribution(roll).probabilities().values()]


def test_typed_rolls_are_answered_exactly_by_the_library(reader):
    page = reader.open(PAGE)
    page.locator(f'[data-live="{UID}"] .live-text input').scroll_into_view_if_needed()
    for typed in ("4d6kh3", "３D6>=10", "(1D6+1D4)÷2+1D8", "2d20kl1+5"):
        assert reader.type_text(UID, "expr", typed) == "live:answer", typed
        assert reader.bar_labels(UID) == _labels(typed)
        roll = notation.parse(typed)
        shown = reader.visible_text(UID)
        assert str(roll) in shown
        if roll.comparison is not None:
            assert fmt.prob(roll.odds()["success"]) in shown
    before = reader.bar_labels(UID)
    assert reader.type_text(UID, "expr", "2d6!", paste=True) == "live:error"
    status = html.unescape(reader.status_text(UID))
    assert "4번째 글자" in status and "폭발 주사위" in status
    assert reader.bar_labels(UID) == before                      # the last good answer stays


def test_example_links_and_a_shared_link_reproduce_the_roll(browser, site_url):
    first = OfflinePage(browser, site_url)
    page = first.open(PAGE)
    example = dice_calc.EXAMPLES[0]
    page.locator(f'a[href*="{UID}.expr="]').first.click()
    page.evaluate("() => LiveShare.restored")
    page.evaluate(f"() => LiveBook.settled('{UID}')")
    assert first.bar_labels(UID) == _labels(example.text)
    assert first.type_text(UID, "expr", "1D100<=45") == "live:answer"
    link = page.evaluate(f"() => LiveShare.linkFor('{UID}')")
    second = OfflinePage(browser, site_url)
    try:
        second.page.goto(link, wait_until="load")
        second.page.evaluate("() => LiveShare.restored")
        second.page.wait_for_function(f"() => LiveBook.values('{UID}') !== null")
        second.page.evaluate(f"() => LiveBook.settled('{UID}')")
        assert second.bar_labels(UID) == _labels("1D100<=45")
        assert fmt.prob(notation.roll_odds("1D100<=45")["success"]) in second.visible_text(UID)
        assert second.errors == [] and second.off_site == []
    finally:
        second.close()
    assert first.errors == [] and first.off_site == []
    first.close()
