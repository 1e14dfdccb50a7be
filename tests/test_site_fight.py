"""The whole-fight widgets on the built site (issue 30), on a desktop and on a 390×844 touch phone:
a reader scrolls to the chapter's fight widget, taps (or clicks) a number box, types a value no
page table holds and reads the exact answer the library gives, computed by the in-page engine.
No request leaves the local server (other hosts are aborted and recorded) and no page error is
allowed; the first answer, before any change, comes from the page's own table, and the address
keeps the typed value under the widget's id and the parameter's name (``uf-duel.a_hp=15``)."""
from __future__ import annotations

import pytest

from conftest import OfflinePage
from test_site_answers import SCREENS, answered, reader_types
from test_views_fight import LEAD, exact, library_odds
from widgets.views.table import INLINE_FRACTION_CHARS
from widgets.views import fights as views
from widgets.views import format as fmt

BOOT_MS = 120_000

#: (chapter, widget, number control, typed text): each value lies off the widget's page table.
CASES = [("underface", views.duel_widget, "a_hp", "15"),
         ("pf2e", views.down_widget, "hp", "37"),
         ("trench_crusade", views.out_widget, "dice", "3"),
         ("hunters_moon", views.hunt_widget, "life", "27")]


def seen(p) -> list[str]:
    """An exact chance as the reader sees it before opening anything: a short fraction and its
    percent (side by side, or on a phone's card the percent under it); a long one's percent (its
    fraction waits behind 「정확한 값 보기」)."""
    return [exact(p), fmt.percent(p)] if len(exact(p)) <= INLINE_FRACTION_CHARS else [fmt.percent(p)]


def lead_text(widget, values: dict) -> list[str]:
    """What the reader must see for these values, from the library: the GM's number (「약 N%」
    and its exact value) and every exact cumulative chance of the table's rows."""
    odds = library_odds(widget.uid, values)
    key, by = LEAD[widget.uid]
    p = odds.chance(key, by=None if by is None else min(by, odds.steps))
    rows = [t for step in views.shown_steps(odds) for k in odds.keys for t in seen(odds.chance(k, by=step))]
    return [views.rounded_percent(p), *rows]


def answer_text(page, uid: str) -> str:
    return page.locator(f'[data-live="{uid}"] .live-out .bk-clearfix').inner_text()


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("chapter,make,control,text", CASES, ids=[c[0] for c in CASES])
def test_a_reader_types_an_off_table_value_and_reads_the_exact_answer(browser, site_url, screen,
                                                                      chapter, make, control, text):
    widget = make()
    values = {**widget.defaults(), control: int(text)}
    keys = {widget.key(v) for block in widget.first_moves() for v in block}
    assert widget.key(values) not in keys
    reader = OfflinePage(browser, site_url, **SCREENS[screen])
    try:
        page = reader.page
        page.goto(f"{site_url}/book/{chapter}.html", wait_until="load")
        uid = widget.uid
        page.locator(f'[data-live="{uid}"]').scroll_into_view_if_needed()
        page.wait_for_function("(uid) => LiveBook.values(uid) !== null", arg=uid, timeout=60_000)
        # the first answer, from the page's table: the defaults' lead
        reader.settle(uid)
        first = answer_text(page, uid)
        assert [t for t in lead_text(widget, widget.defaults()) if t not in first] == [], first
        assert page.evaluate("() => LiveBook.engineState()") == "off"
        reader_types(page, uid, reader.number_index(uid, control), text, tap=screen == "phone")
        page.set_default_timeout(BOOT_MS)
        assert answered(page, uid, control, text) == "live:answer"
        assert page.evaluate("() => LiveBook.engineState()") == "ready"   # the engine answered
        shown = answer_text(page, uid)
        assert [t for t in lead_text(widget, values) if t not in shown] == [], shown
        # the address keeps the setting by the widget's id and the parameter's name (share.js)
        page.wait_for_function("(part) => location.hash.includes(part)", arg=f"{uid}.{control}={text}")
        assert reader.off_site == [], reader.off_site
        assert reader.errors == [], reader.stacks
    finally:
        reader.close()
