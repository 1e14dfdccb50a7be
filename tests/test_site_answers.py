"""Every answer at once at the table (issue 22), on a desktop and on a 390×844 touch phone:

- a second chapter answers a value no table holds without booting the engine again: the same
  engine (a SharedWorker) or, where the browser has none, a worker that restores the engine's
  memory snapshot; the answer equals CPython's;
- a reader who changed any widget online has the engine kept, and every chapter's off-table
  values are answered exactly with the network cut;
- offline with no engine kept, the widget says so in Korean (offline, which values still work,
  how to keep the engine, with the save button beside it) and the old answer stays marked stale;
- a typed or linked value moves the slider's knob to the nearest step, the box keeps it exactly;
- number boxes ask for a number keypad, negative ranges have −/+ steps, the dice box is not
  spell-checked, a switch's label toggles it, an opened "N 이상 · N 이하" stays open (in links too);
- a roll of hundreds of dice comes back bounded (bars and rows) and exact.

Every test fails on a page error or a request to another host.
"""
from __future__ import annotations

import html
import re
from urllib.parse import unquote

import pytest

from bench import first_visit
from conftest import OfflinePage
from test_site_offline import (Visit, offline_every_chapter_answers_off_table, page_widgets, subpath,
                               wait_kept)  # noqa: F401  (subpath: the sub-path site fixture)
from widgets.views.dice_calc import dice_calculator_widget
from widgets.views.live import MAX_BARS, MAX_CUMULATIVE_ROWS, rebuild

BOOT_MS = 120_000
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1280, "height": 900})
SCREENS = {"phone": PHONE, "desktop": DESKTOP}
NO_SHARED = "delete window.SharedWorker;"


def model_text(page, name: str) -> str:
    return page.evaluate("(n) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean).text", name)


def model_value(page, name: str, attr: str = "value"):
    return page.evaluate("([n, a]) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean)[a]",
                         [name, attr])


def reader_types(page, uid: str, index: int, text: str, tap: bool) -> None:
    """As a reader: tap (or click) the widget's number box, select all, type, Enter."""
    page.locator(f'[data-live="{uid}"]').scroll_into_view_if_needed()
    page.wait_for_function("(uid) => LiveBook.values(uid) !== null", arg=uid, timeout=60_000)
    box = page.locator(f'[data-live="{uid}"] .live-box input').nth(index)
    box.scroll_into_view_if_needed()
    box.tap() if tap else box.click()
    box.press("Control+a")
    box.press_sequentially(text, delay=5)
    box.press("Enter")


def answered(page, uid: str, name: str, text: str) -> str:
    page.wait_for_function("([u, n, t]) => { const v = LiveBook.values(u); return v && v[n] === t; }",
                           arg=[uid, name, text])
    return page.evaluate("(uid) => LiveBook.settled(uid)", uid)


@pytest.fixture(params=list(SCREENS))
def screen(request):
    return request.param


@pytest.mark.parametrize("shared", [True, False], ids=["shared-worker", "worker-per-page"])
def test_a_second_chapter_answers_without_a_second_boot(browser, site_url, screen, shared):
    reader = OfflinePage(browser, site_url, **SCREENS[screen])
    try:
        if not shared:
            reader.context.add_init_script(NO_SHARED)
        page = reader.open("book/pf2e.html")
        assert reader.type_value("pf-strikes", "bonus", "37") == "live:answer"
        first = page.evaluate("() => LiveBook.engineInfo()")
        assert first["state"] == "ready" and first["shared"] is shared and first["boot"]["from"] == "start"
        if not shared:   # the engine keeps its memory snapshot for the next page
            page.wait_for_function("() => caches.open('book-engine-snapshots').then(c => c.keys())"
                                   ".then(k => k.some(r => r.url.includes('snapshot=1')))", timeout=60_000)
            page.wait_for_timeout(300)
        page = reader.open("book/trench_crusade.html")
        data = next(d for d in page_widgets("book/trench_crusade.html") if d["uid"] == "tc-success")
        raw = {**dict(zip(data["names"], next(iter(data["keys"])).split("|"))), "dice": "14"}
        assert "14|0" not in data["keys"]
        reader_types(page, "tc-success", 0, "14", tap=screen == "phone")
        assert answered(page, "tc-success", "dice", "14") == "live:answer"
        assert model_text(page, "tc-success-out") == rebuild(data["origin"]).answer(raw)["h"]
        second = page.evaluate("() => LiveBook.engineInfo()")
        if shared:   # the very engine the first chapter started: no boot at all
            assert second["shared"] and second["boot"] == first["boot"]
        else:        # a new worker, restored from the snapshot instead of starting Python
            assert not second["shared"] and second["boot"]["from"] == "snapshot", second
        assert reader.errors == [] and reader.off_site == []
    finally:
        reader.close()


def test_a_widget_changed_online_keeps_the_engine_for_offline(browser, subpath):  # noqa: F811
    """A reader only taps a switch's label (an answer from the page's table, no engine): the
    engine is still kept in the background, and offline every chapter's off-table value is
    answered exactly."""
    v = Visit(browser, subpath.url, **PHONE)
    try:
        page = v.page
        page.goto(subpath.url + "book/pf2e.html", wait_until="load")
        wait_kept(page, "ap")
        page.locator('[data-live="pf-strikes"]').scroll_into_view_if_needed()
        page.wait_for_function("() => LiveBook.values('pf-strikes') !== null", timeout=60_000)
        page.locator('[data-live="pf-strikes"] .live-switch-label').first.tap()
        page.wait_for_function("() => LiveBook.values('pf-strikes').agile1 === '1'")
        assert page.evaluate("() => LiveBook.settled('pf-strikes')") == "live:answer"
        wait_kept(page, "ape", timeout_s=240)
        offline_every_chapter_answers_off_table(v, subpath.url)
    finally:
        v.close()


def test_offline_without_the_engine_says_so_and_keeps_the_old_answer_marked(browser, subpath):  # noqa: F811
    visit, context, page = first_visit(browser, subpath, "book/trench_crusade.html")
    v = Visit(browser, subpath.url, context=context, page=page)
    try:
        wait_kept(page, "ap")
        context.set_offline(True)
        page.reload(wait_until="load")
        page.locator('[data-live="tc-success"]').scroll_into_view_if_needed()
        page.wait_for_function("() => LiveBook.values('tc-success') !== null", timeout=60_000)
        reader_types(page, "tc-success", 0, "14", tap=True)
        assert answered(page, "tc-success", "dice", "14") == "live:error"
        status = html.unescape(model_text(page, "tc-success-status-line"))
        assert "인터넷에 연결되어 있지 않고" in status and "흐리게 보이는 답은 앞의 값" in status
        assert "한 가지만 바꾼 값" in status and "책 전체를 기기에 저장" in status
        assert 'class="live-save"' in status                       # the save button, in the widget
        # the old answer stays (typed key by key, the last the page could answer is the one for
        # "1", from its table) …
        data = next(d for d in page_widgets("book/trench_crusade.html") if d["uid"] == "tc-success")
        assert model_text(page, "tc-success-out") == rebuild(data["origin"]).answer({"dice": "1", "modifier": "0"})["h"]
        assert page.evaluate("() => document.querySelector('[data-live=\"tc-success\"]')"
                             ".classList.contains('live-computing')")   # … marked stale
        assert "live-stale" in model_value(page, "tc-success-out", "css_classes")
        # a value from the page's table still answers at once, at full strength
        reader_types(page, "tc-success", 0, "2", tap=True)
        assert answered(page, "tc-success", "dice", "2") == "live:answer"
        assert "live-stale" not in model_value(page, "tc-success-out", "css_classes")
        assert model_text(page, "tc-success-status-line") == ""
        assert v.errors == [] and v.off_site == []
    finally:
        v.close()


def test_an_engine_that_cannot_start_online_says_so_not_offline(browser, site_url):
    """Online, an engine that cannot start (here its worker's file is missing) says that the
    engine could not be loaded and that changing the value again tries again: not that the
    reader is offline (the page asks the site itself, past the service worker)."""
    reader = OfflinePage(browser, site_url)
    try:
        reader.context.add_init_script("""Object.defineProperty(window, "LiveBookConfig", {
            set(v) { this.__config = Object.assign(v, {worker: "engine/no-such-worker.mjs"}); },
            get() { return this.__config; }, configurable: true});""")
        page = reader.open("book/trench_crusade.html")
        reader_types(page, "tc-success", 0, "14", tap=False)
        assert answered(page, "tc-success", "dice", "14") == "live:error"
        status = html.unescape(model_text(page, "tc-success-status-line"))
        assert "계산 엔진을 불러오지 못했습니다" in status and "다시 불러옵니다" in status
        assert "인터넷에 연결되어 있지 않고" not in status and 'class="live-save"' not in status
        assert "live-stale" in model_value(page, "tc-success-out", "css_classes")
    finally:
        reader.close()


def test_knobs_follow_typed_and_linked_values(offline_page, screen):
    page = offline_page.page
    page.set_viewport_size(SCREENS[screen]["viewport"])
    offline_page.open("book/pf2e.html")
    # pf-strikes: bonus 6…22 by 4, AC 14…30 by 4
    assert offline_page.type_value("pf-strikes", "bonus", "41") == "live:answer"
    assert model_value(page, "pf-strikes-bonus") == 22                  # the knob at the end
    assert model_value(page, "pf-strikes-bonus-box") == "41"            # the box keeps the value
    assert offline_page.type_value("pf-strikes", "ac", "21") == "live:answer"
    assert model_value(page, "pf-strikes-ac") == 22                      # nearest step of 14+4k
    assert model_value(page, "pf-strikes-ac-box") == "21"
    # a linked value does the same
    page.goto(page.url.split("#")[0] + "#go=pf-strikes&pf-strikes.bonus=13&pf-strikes.ac=27")
    page.reload(wait_until="load")
    page.evaluate("() => LiveShare.restored")
    page.wait_for_function("() => LiveBook.values('pf-strikes') && LiveBook.values('pf-strikes').bonus === '13'")
    assert model_value(page, "pf-strikes-bonus") == 14 and model_value(page, "pf-strikes-ac") == 26
    assert model_value(page, "pf-strikes-bonus-box") == "13"


def test_phone_controls_keypads_steps_labels_and_the_fold(browser, site_url, screen):
    reader = OfflinePage(browser, site_url, permissions=["clipboard-read", "clipboard-write"], **SCREENS[screen])
    try:
        page = reader.open("book/trench_crusade.html")
        tap = screen == "phone"
        inputs = page.evaluate("""(uid) => {
            const out = {};
            for (const name of ["dice", "modifier"]) {
              const m = Bokeh.documents.map(d => d.get_model_by_name(uid + "-" + name + "-box")).find(Boolean);
              out[name] = Bokeh.index.find_one(m).input_el.inputMode;
            }
            return out; }""", "tc-success")
        assert inputs == {"dice": "decimal", "modifier": "decimal"}       # both may be negative
        # −/+ beside a negative range: tap − twice from ±DICE 0
        down = page.locator('[data-live="tc-success"]').get_by_role("button", name="순 ±DICE 한 단계 내리기")
        down.first.tap() if tap else down.first.click()
        page.wait_for_function("() => LiveBook.values('tc-success').dice === '-1'")
        down.first.tap() if tap else down.first.click()
        assert answered(page, "tc-success", "dice", "-2") == "live:answer"
        assert model_value(page, "tc-success-dice") == -2
        data = next(d for d in page_widgets("book/trench_crusade.html") if d["uid"] == "tc-success")
        assert model_text(page, "tc-success-out") == rebuild(data["origin"]).answer({"dice": "-2", "modifier": "0"})["h"]
        # a switch's label toggles it (the whole row is the target, at least 44 px high)
        label = page.locator('[data-live="tc-injury-blood"] .live-switch-label').first
        label.scroll_into_view_if_needed()
        assert label.bounding_box()["height"] >= 44
        toggles = page.evaluate("() => { const d = JSON.parse(document.querySelector('[data-live=\"tc-injury-blood\"] "
                                "script.live-data').textContent); return d.names.filter((n, i) => d.kinds[i] === 'toggle'); }")
        assert toggles
        before = page.evaluate("(n) => LiveBook.values('tc-injury-blood')[n]", toggles[0])
        label.tap() if tap else label.click()
        page.wait_for_function("([n, b]) => LiveBook.values('tc-injury-blood')[n] !== b", arg=[toggles[0], before])
        # an opened fold stays open across changes and rides in the copied link
        fold = page.locator('[data-live="tc-success"] details.cumulative summary')
        fold.scroll_into_view_if_needed()
        fold.tap() if tap else fold.click()
        page.wait_for_function("() => LiveBook.fold('tc-success')")
        reader.set_value("tc-success-modifier", 2)
        assert '<details class="cumulative" open>' in model_text(page, "tc-success-out")
        assert page.locator('[data-live="tc-success"] details.cumulative[open]').count() == 1
        link = page.evaluate("() => LiveShare.linkFor('tc-success')")
        assert "tc-success.fold=1" in unquote(link)
        other = OfflinePage(browser, site_url, **SCREENS[screen])
        try:
            other.page.goto(link, wait_until="load")
            other.page.evaluate("() => LiveShare.restored")
            other.page.wait_for_function("() => LiveBook.values('tc-success') && LiveBook.values('tc-success').modifier === '2'")
            assert other.page.locator('[data-live="tc-success"] details.cumulative[open]').count() == 1
            assert other.errors == [] and other.off_site == []
        finally:
            other.close()
        # the dice box: no spell-check, no capitals, no autocorrect
        dice = reader.open("book/dice.html")
        attrs = dice.evaluate("""() => {
            const m = Bokeh.documents.map(d => d.get_model_by_name("dice-calc-expr")).find(Boolean);
            const i = Bokeh.index.find_one(m).input_el;
            return [i.spellcheck, i.getAttribute("autocapitalize"), i.getAttribute("autocorrect")]; }""")
        assert attrs == [False, "off", "off"]
        assert reader.errors == [] and reader.off_site == []
    finally:
        reader.close()


def test_a_huge_roll_comes_back_bounded_and_exact(offline_page, screen):
    page = offline_page.page
    page.set_viewport_size(SCREENS[screen]["viewport"])
    offline_page.open("book/dice.html")
    page.evaluate("() => LiveBook.startEngine()")
    page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=BOOT_MS)
    assert offline_page.type_text("dice-calc", "expr", "200d100") == "live:answer"
    want = dice_calculator_widget().answer({"expr": "200d100"})
    shown = model_text(page, "dice-calc-out")
    assert shown == want["h"]
    labels = offline_page.bar_labels("dice-calc")
    assert labels == want["t"] and len(labels) <= MAX_BARS
    assert shown.count("<tr>") <= MAX_CUMULATIVE_ROWS + 10 and len(shown.encode()) < 200_000
    assert "19801가지" in shown and "막대 하나에" in shown
    # a tapped bin names its range
    page.evaluate("() => LiveBook.picked('dice-calc', [1])")
    picked = model_text(page, "dice-calc-picked")
    assert re.search(r"\d+~\d+: <b>", picked), picked
