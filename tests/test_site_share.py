"""Widget settings in the page address: a reader changes controls, copies the widget's link with
its "링크 복사" control, opens it in a fresh browser and sees the same answer; values from an
address go through the same checks as typed ones and never become markup."""
from __future__ import annotations

import html
import re
from urllib.parse import quote, urlparse

import pytest

from conftest import SITE, OfflinePage
from conftest import page_widgets as page_data
from widgets.views.live import rebuild
from widgets.views.static_page import unpack

CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]
BOOT_MS = 60_000
HOSTILE = "<img src=x onerror=alert(1)>"
COPY_NAME = "이 위젯의 지금 값으로 여는 링크 복사"


def page_widgets(chapter: str) -> list[dict]:
    return page_data(f"book/{chapter}.html")


def shown(page, uid: str) -> dict:
    return page.evaluate(
        """(uid) => { const g = (n) => Bokeh.documents.map(d => d.get_model_by_name(uid + "-" + n)).find(Boolean);
                      const bars = g("bars");
                      return {h: g("out").text, status: g("status-line").text, t: bars ? bars.data.t : null}; }""", uid)


def table_setting(data: dict, default: dict) -> dict:
    """A setting from the widget's own table that differs from the defaults in as many controls
    as the table offers (so the link must carry several values)."""
    def differs(key):
        return sum(a != str(default[n]) for n, a in zip(data["names"], key.split("|")))
    key = max(data["keys"], key=differs)
    assert differs(key) >= 1, data["uid"]
    return dict(zip(data["names"], key.split("|")))


@pytest.fixture
def sharing(browser, site_url):
    """Two readers: one changes controls and copies a link, the other opens it."""
    pages = [OfflinePage(browser, site_url, permissions=["clipboard-read", "clipboard-write"]),
             OfflinePage(browser, site_url)]
    dialogs: list[str] = []
    for p in pages:
        p.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    yield pages, dialogs
    for p in pages:
        assert p.off_site == [], p.off_site
        p.close()


def restored(page):
    return page.evaluate("() => LiveShare.restored.then(() => true)")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_copied_link_opens_the_same_answer_in_a_fresh_page(sharing, chapter):
    (first, second), dialogs = sharing
    page = first.open(f"book/{chapter}.html")
    data = next(d for d in page_widgets(chapter) if "number" in d["kinds"])
    uid = data["uid"]
    raw = table_setting(data, page.evaluate("(uid) => LiveBook.values(uid)", uid))
    # the reader's own moves: choices and switches as set by their controls, numbers typed
    for name, kind in zip(data["names"], data["kinds"]):
        if kind == "select":
            first.set_value(f"{uid}-{name}", raw[name])
        elif kind == "toggle":
            first.set_value(f"{uid}-{name}", raw[name] == "1", "active")
    for name, kind in zip(data["names"], data["kinds"]):
        if kind == "number":
            assert first.type_value(uid, name, raw[name]) == "live:answer"
    answer = shown(page, uid)
    assert answer["status"] == ""
    assert answer["h"] == rebuild(data["origin"]).answer(raw)["h"]
    # the address follows the answer
    address = page.evaluate("() => location.hash")
    for name in data["names"]:
        assert f"{uid}.{name}=" in address

    button = page.locator(f'[data-live="{uid}"] .live-share button')
    assert button.get_attribute("aria-label") == COPY_NAME
    page.get_by_role("button", name=COPY_NAME).nth(
        [d["uid"] for d in page_widgets(chapter)].index(uid)).click()
    page.wait_for_function(f"() => document.querySelector('[data-live=\"{uid}\"] .live-share-note').textContent")
    assert page.locator(f'[data-live="{uid}"] .live-share-note').inner_text() == "링크를 복사했습니다."
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert urlparse(link).fragment.startswith(f"go={uid}&")

    other = second.page
    other.goto(link, wait_until="load")
    restored(other)
    other.evaluate("(uid) => LiveBook.settled(uid)", uid)
    again = shown(other, uid)
    assert again == answer
    assert other.evaluate("(uid) => LiveBook.values(uid)", uid) == {k: str(v) for k, v in raw.items()}
    # opened scrolled to the widget
    top = other.evaluate(f"() => document.querySelector('[data-live=\"{uid}\"]').getBoundingClientRect().top")
    assert 0 <= top < other.viewport_size["height"] / 2, top
    assert first.errors == [] and second.errors == [] and dialogs == []


def test_link_field_when_the_clipboard_refuses(offline_page):
    page = offline_page.open("book/pf2e.html")
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('no')); "
                  "navigator.clipboard.write = () => Promise.reject(new Error('no')); }")
    offline_page.type_value("pf-strikes", "ac", "22")
    page.locator('[data-live="pf-strikes"] .live-share button').click()
    field = page.locator('[data-live="pf-strikes"] .live-share-field')
    field.wait_for(state="visible")
    link = field.input_value()
    assert "pf-strikes.ac=22" in link and link.startswith(offline_page.base.geturl())
    assert page.evaluate("() => window.getSelection().toString() || "
                         "document.activeElement.value.slice(document.activeElement.selectionStart, "
                         "document.activeElement.selectionEnd)") == link
    assert "복사" in page.locator('[data-live="pf-strikes"] .live-share-note').inner_text()
    assert offline_page.errors == []


def test_hostile_address_values_show_the_korean_message_and_no_markup(offline_page):
    data = next(d for d in page_widgets("pf2e") if d["uid"] == "pf-strikes")
    reach = next(d for d in page_widgets("pf2e") if d["uid"] == "pf-reach")
    dialogs: list[str] = []
    offline_page.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    hash_ = "&".join(["go=pf-strikes", f"pf-strikes.bonus={quote(HOSTILE)}",
                      f"pf-strikes.agile1={quote(HOSTILE)}", f"pf-reach.weapon={quote(HOSTILE)}",
                      "pf-reach.__proto__=1", "nowidget.x=1", "constructor.prototype=1"])
    page = offline_page.page
    page.goto(f"{offline_page.base.geturl()}/book/pf2e.html#{hash_}", wait_until="load")
    restored(page)
    page.evaluate("() => LiveBook.embedAll()")
    page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=BOOT_MS)
    page.evaluate("() => LiveBook.settled('pf-strikes')")
    got = shown(page, "pf-strikes")
    widget = rebuild(data["origin"])
    refusal = widget.answer({**page.evaluate("() => LiveBook.values('pf-strikes')"), "bonus": HOSTILE})
    assert "error" in refusal and re.search("[가-힣]", refusal["error"])
    assert "widget-error" in got["status"] and refusal["error"] in html.unescape(got["status"])
    # the default answer stays (the table's first entry is the defaults' answer)
    default_h = unpack(data, next(iter(data["keys"])))["h"]
    assert got["h"] == default_h
    # switches and choices must be one of their own keys: left at the default with a Korean note
    assert page.evaluate("() => LiveBook.values('pf-strikes').agile1") == "0"
    note = page.locator('[data-live="pf-reach"] .live-share-note').inner_text()
    assert "처음 값을 그대로" in note and HOSTILE not in page.evaluate("() => LiveBook.values('pf-reach').weapon")
    assert shown(page, "pf-reach")["h"] == unpack(reach, next(iter(reach["keys"])))["h"]
    # no markup from the address anywhere, in the page or in Bokeh's shadow roots
    injected = page.evaluate(
        """() => { let n = 0; const walk = (root) => { n += root.querySelectorAll('img[src="x"], img[onerror]').length;
                     root.querySelectorAll('*').forEach(e => e.shadowRoot && walk(e.shadowRoot)); };
                   walk(document); return n; }""")
    assert injected == 0
    assert dialogs == [] and offline_page.errors == []


def test_address_follows_every_answer_and_keeps_section_anchors_alone(offline_page):
    page = offline_page.open("book/pf2e.html")
    assert page.evaluate("() => location.hash") == ""
    entries = page.evaluate("() => history.length")
    offline_page.type_value("pf-strikes", "ac", "22")
    reach = next(d for d in page_widgets("pf2e") if d["uid"] == "pf-reach")
    default = page.evaluate("() => LiveBook.values('pf-reach').weapon")
    weapon = next(k.split("|")[0] for k in reach["keys"] if k.split("|")[0] != default)
    offline_page.set_value("pf-reach-weapon", weapon)
    page.evaluate("() => LiveBook.settled('pf-reach')")
    address = page.evaluate("() => decodeURIComponent(location.hash)")
    assert "pf-strikes.ac=22" in address and "pf-reach.weapon=" in address
    assert page.evaluate("() => history.length") == entries    # replaced, not pushed
    # a plain section anchor in the address is not widget state: nothing is applied
    page.goto(f"{offline_page.base.geturl()}/book/pf2e.html#no-such-section", wait_until="load")
    restored(page)
    assert page.evaluate("() => location.hash") == "#no-such-section"
    assert offline_page.errors == []
