"""Every number box, every time (issue 31): a reader taps (or clicks) a box and types, and what
they type replaces the value, in the second and third box of a page after typing in another,
on a 390×844 touch phone and on a desktop. The answer shown is then the library's exact answer
for the values typed. A refused value dims and marks the answer left standing, as the page says.
Menus are not cut on a phone.

No test here selects a box's text itself (no Control+A): the page must do it.
"""
from __future__ import annotations

import pytest

from conftest import ROOT, OfflinePage
from test_site_answers import DESKTOP, PHONE, model_text, model_value
from widgets.views.live import rebuild

SCREENS = {"phone": PHONE, "desktop": DESKTOP}
BOOT_MS = 120_000


@pytest.fixture(params=list(SCREENS))
def reader(request, browser, site_url):
    page = OfflinePage(browser, site_url, **SCREENS[request.param])
    page.touch = request.param == "phone"
    yield page
    assert page.off_site == [], f"requests to other hosts: {page.off_site}"
    page.close()


def library_answer(page, uid: str) -> str:
    """The library's own answer (CPython) for the values the page holds now."""
    data = page.evaluate("(uid) => JSON.parse(document.querySelector(`[data-live=\"${uid}\"] "
                         "script.live-data`).textContent)", uid)
    raw = page.evaluate("(uid) => LiveBook.values(uid)", uid)
    return rebuild(data["origin"]).answer(raw)["h"]


def tap_and_type(reader, uid: str, control: str, text: str) -> list:
    """As a reader: tap or click the box, read what is selected, type, Enter; return the box's
    selection when it was tapped (start, end, length of its value)."""
    page = reader.page
    page.wait_for_function("(uid) => LiveBook.values(uid) !== null", arg=uid, timeout=60_000)
    box = page.locator(f'[data-live="{uid}"] .live-box input').nth(reader.number_index(uid, control))
    box.scroll_into_view_if_needed()
    box.tap() if reader.touch else box.click()
    page.wait_for_timeout(80)
    chosen = box.evaluate("(el) => [el.selectionStart, el.selectionEnd, el.value.length]")
    box.press_sequentially(text, delay=30)
    assert box.input_value() == text, (uid, control, box.input_value())
    box.press("Enter")
    return chosen


def settled(page, uid: str, control: str, text: str) -> str:
    page.wait_for_function("([u, n, t]) => { const v = LiveBook.values(u); return v && v[n] === t; }",
                           arg=[uid, control, text])
    return page.evaluate("(uid) => LiveBook.settled(uid)", uid)


# (widget, control, typed): a box of one widget, another of it, its first again, then two boxes
# of another widget; values on and off the page's table (the engine answers the others)
STEPS = {
    "book/trench_crusade.html": [("tc-success", "dice", "1"), ("tc-success", "modifier", "2"),
                                 ("tc-success", "dice", "-1"), ("tc-charge", "distance", "11"),
                                 ("tc-charge", "movement", "5")],
    "book/hunters_moon.html": [("hm-check", "modifier", "3"), ("hm-check", "target", "8"),
                               ("hm-defence", "ability", "4"), ("hm-defence", "attack_value", "9")],
}


@pytest.mark.parametrize("path", list(STEPS))
def test_every_box_takes_a_new_number_and_answers_exactly(reader, path):
    page = reader.open(path)
    page.set_default_timeout(BOOT_MS)
    for uid, control, text in STEPS[path]:
        start, end, length = tap_and_type(reader, uid, control, text)
        assert length > 0 and (start, end) == (0, length), (uid, control, start, end, length)
        assert settled(page, uid, control, text) == "live:answer", (uid, control)
        assert model_text(page, f"{uid}-out") == library_answer(page, uid), (uid, control, text)
        assert "live-stale" not in model_value(page, f"{uid}-out", "css_classes")
    assert reader.errors == []


def test_a_refused_value_dims_and_marks_the_answer_left_standing(reader):
    page = reader.open("book/trench_crusade.html")
    page.set_default_timeout(BOOT_MS)
    tap_and_type(reader, "tc-success", "modifier", "2")
    settled(page, "tc-success", "modifier", "2")
    shown = model_text(page, "tc-success-out")
    tap_and_type(reader, "tc-success", "dice", "99999")
    assert settled(page, "tc-success", "dice", "99999") == "live:error"
    status = model_text(page, "tc-success-status-line")
    assert "±DICE" in status and "흐리게 보이는 답은 앞의 값에 대한 것입니다" in status
    assert model_text(page, "tc-success-out") == shown                     # left standing …
    assert "live-stale" in model_value(page, "tc-success-out", "css_classes")   # … dimmed
    assert page.evaluate("() => document.querySelector('[data-live=\"tc-success\"]')"
                         ".classList.contains('live-computing')")
    tap_and_type(reader, "tc-success", "dice", "1")                        # a good value: full again
    assert settled(page, "tc-success", "dice", "1") == "live:answer"
    assert "live-stale" not in model_value(page, "tc-success-out", "css_classes")
    assert reader.errors == []


CUT_MENUS_JS = """() => {
  // every menu of every widget: its longest option's text, in the menu's own font, must fit
  // inside the menu, between its paddings (its arrow sits in the right padding)
  const out = [];
  const canvas = document.createElement("canvas").getContext("2d");
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.tagName !== "SELECT" || !el.offsetParent) continue;
      const style = getComputedStyle(el);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 1;
      for (const o of el.options) {
        const w = canvas.measureText(o.text).width;
        if (w > room) out.push([o.text, Math.round(w), Math.round(room)]);
      }
    }
  };
  visit(document);
  return out;
}"""


def test_menu_labels_are_not_cut_on_a_phone(browser, site_url):
    page = OfflinePage(browser, site_url, **PHONE)
    try:
        for path in ("book/bfrpg.html", "book/trench_crusade.html"):
            p = page.open(path)
            p.wait_for_timeout(400)
            assert p.evaluate(CUT_MENUS_JS) == [], path
        assert page.errors == [] and page.off_site == []
    finally:
        page.close()


# --- in JupyterLab: the book's plugin (lab/extension) selects a widget's number box ----------------

LAB_PLUGIN = ROOT / "lab" / "extension" / "static" / "remoteEntry.js"
#: Three number boxes as ipywidgets draws them (widgets/views/jupyter.py gives each the class
#: rulebook-number), and a text box that is no number box.
LAB_BOXES = "".join(
    f'<div class="lm-Widget jupyter-widgets widget-inline-hbox widget-text rulebook-number">'
    f'<label class="widget-label">상자 {i}</label><input type="text" class="widget-input" value="{v}"></div>'
    for i, v in enumerate(("9", "60", "1.5"))) + '<div class="widget-text"><input id="dice" value="2D6"></div>'


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_lab_plugin_selects_each_number_box_a_reader_taps(browser, screen):
    context = browser.new_context(**SCREENS[screen])
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_content(f"<!doctype html><html><body>{LAB_BOXES}</body></html>")
        page.add_script_tag(content=LAB_PLUGIN.read_text(encoding="utf-8"))
        page.evaluate("""async () => {
            const mod = await window._JUPYTERLAB['rulebook-lab'].get('./extension');
            const app = {shell: {widgets: () => []}, commands: {}, serviceManager: {}};
            for (const plugin of mod().default) plugin.activate(app);
        }""")
        boxes = page.locator(".rulebook-number input")
        for i, text in [(0, "11"), (1, "45"), (2, "3"), (0, "7")]:
            box = boxes.nth(i)
            box.tap() if screen == "phone" else box.click()
            page.wait_for_timeout(80)
            chosen = box.evaluate("(el) => [el.selectionStart, el.selectionEnd, el.value.length]")
            assert chosen[0] == 0 and chosen[1] == chosen[2] > 0, (i, chosen)
            box.press_sequentially(text, delay=30)
            assert box.input_value() == text
        # a reader who finished a value (Enter) and taps the box again types over it too
        boxes.nth(0).press("Enter")
        boxes.nth(0).tap() if screen == "phone" else boxes.nth(0).click()
        page.wait_for_timeout(80)
        assert boxes.nth(0).evaluate("(el) => [el.selectionStart, el.selectionEnd]") == [0, 1]
        # a second click in a box already focused puts the caret where it lands (no select)
        boxes.nth(0).click(position={"x": 5, "y": 5})
        page.wait_for_timeout(80)
        again = boxes.nth(0).evaluate("(el) => el.selectionEnd - el.selectionStart")
        assert again == 0
        # a text box that is no number box is left as it is
        page.locator("#dice").click()
        page.wait_for_timeout(80)
        assert page.locator("#dice").evaluate("(el) => el.selectionEnd - el.selectionStart") == 0
        assert errors == []
    finally:
        context.close()
