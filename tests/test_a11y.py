"""Accessibility of the built site in headless chromium, offline.

- axe-core (npm, pinned in tests/node/package.json; installed there by `scripts/dev.py test`,
  never copied into the site; injected into each page by Playwright) finds no serious or critical
  violation on any page, in light and in dark mode;
- every slider handle and switch is named with its control's Korean label;
- keyboard only: the grid explorer (arrow keys, Enter / Space, the path tool) and one widget per
  chapter give exactly the library's answer; a result is announced once it settles;
- widgets follow the page's colour mode.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from conftest import SITE, OfflinePage, page_widgets
from widgets import bfrpg as bf
from widgets.views import bfrpg as views
from widgets.views.live import rebuild

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "tests" / "node" / "node_modules" / "axe-core" / "axe.min.js"
PAGES = sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html")
               if p.relative_to(SITE).parts[0] not in ("_static", "_sources") and p.name != "index.html")
CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]

# Every slider handle and switch on the page (inside Bokeh's shadow roots) with its name.
CONTROLS_JS = """() => {
  const out = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      const role = el.getAttribute("role");
      if (role === "slider" || role === "switch") {
        const w = (() => { let n = el; while (n) { const hit = n.closest && n.closest("[data-live]");
                   if (hit) return hit.dataset.live; const r = n.getRootNode(); n = r.host; } return null; })();
        out.push([w, role, el.getAttribute("aria-label") || ""]);
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return out;
}"""


def themed_page(browser, site_url, mode: str) -> OfflinePage:
    page = OfflinePage(browser, site_url, color_scheme=mode)
    page.context.add_init_script(f"localStorage.setItem('mode', '{mode}')")
    return page


def open_ready(op: OfflinePage, path: str):
    """Open a page with every widget embedded and named by the page script."""
    page = op.open(path)
    page.wait_for_function("""(js) => { const c = eval(js)();
                                        return c.every(([w, role, name]) => name); }""",
                           arg=CONTROLS_JS, timeout=15000)
    page.wait_for_timeout(300)
    return page


def axe_serious(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ["violations"]});
      return r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
        .flatMap(v => v.nodes.map(n => v.id + ": " + n.target.join(" > ") + " :: " + n.failureSummary));
    }""")
    return found


@pytest.fixture(scope="module", autouse=True)
def axe_installed():
    if not AXE.exists():
        pytest.fail("axe-core is missing: `python3 scripts/dev.py test` installs it with npm into tests/node/")


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_axe_finds_no_serious_violation(browser, site_url, path, mode):
    op = themed_page(browser, site_url, mode)
    try:
        page = open_ready(op, path)
        assert page.evaluate("() => document.documentElement.dataset.theme") == mode
        assert axe_serious(page) == []
        assert op.errors == [] and op.off_site == []
    finally:
        op.close()


@pytest.mark.parametrize("chapter", ["intro"] + CHAPTERS)
def test_controls_are_named_with_their_korean_labels(offline_page, chapter):
    page = open_ready(offline_page, f"book/{chapter}.html")
    labels = {d["uid"]: set(d["labels"]) for d in page_widgets(f"book/{chapter}.html")}
    controls = page.evaluate(CONTROLS_JS)
    assert controls
    for uid, role, name in controls:
        assert name, (uid, role)
        if uid in labels:  # table widgets: the name is the control's label, as shown beside it
            assert name in labels[uid], (uid, role, name)
    # the theme's buttons: Korean names that contain their visible text
    search = page.locator(".search-button__button.search-button-field").first
    assert search.get_attribute("aria-label") == "검색 Ctrl+K"
    assert page.locator(".theme-switch-button").first.get_attribute("aria-label").startswith("색상 모드")


# --- the grid explorer by keyboard --------------------------------------------------------

def explorer_cells(page, uid):
    return page.evaluate("""(n) => { const m = Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean);
                                     return {k: Array.from(m.data.k).join(""), opt: Array.from(m.data.opt),
                                             feet: Array.from(m.data.feet), w: m.tags[0], h: m.tags[1]}; }""",
                         f"{uid}-cells")


def deep_active(page) -> dict:
    """The focused element, through shadow roots: class, role, active descendant's label."""
    return page.evaluate("""() => {
      let a = document.activeElement;
      while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      const cur = a && a.getAttribute("aria-activedescendant")
        ? a.getRootNode().getElementById(a.getAttribute("aria-activedescendant")) : null;
      return {cls: a ? String(a.className) : "", role: a ? a.getAttribute("role") : null,
              tag: a ? a.tagName : "", cursor: cur ? +cur.dataset.i : -1,
              label: cur ? cur.getAttribute("aria-label") : null,
              outline: cur ? getComputedStyle(cur).outlineStyle + " " + getComputedStyle(cur).outlineWidth : ""};
    }""")


def described(lay: views.Layout, res: views.GridResult, i: int) -> str:
    """What the page says for square i (the cursor's accessible name), from the library
    (enemies by their number on the grid, who gets a parting shot on a flee square)."""
    assert res.layout == lay
    return res.describe(i)


def test_grid_explorer_by_keyboard_alone(offline_page):
    page = open_ready(offline_page, "book/bfrpg.html")
    uid = "bf-grid"
    page.wait_for_function("(u) => window.__bfGrid && window.__bfGrid[u]", arg=uid)
    # from the tool select, Tab through the two other selects to the grid
    page.locator(f'[data-live="{uid}"] select').first.focus()
    for _ in range(3):
        page.keyboard.press("Tab")
    got = deep_active(page)
    assert got["role"] == "grid" and "bfg" in got["cls"]
    lay0 = views.Layout(*(lambda c: (c["w"], c["h"], c["k"]))(explorer_cells(page, uid)))
    start = lay0.start()
    assert got["cursor"] == lay0.width * start[1] + start[0]  # the cursor starts on the mover
    assert got["outline"] == "solid 3px"                   # and is visible
    # two squares right, one down, Enter: the chosen tool (enemy) is applied there
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    target = (start[0] + 2, start[1] + 1)
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    c = explorer_cells(page, uid)
    lay = views.Layout(c["w"], c["h"], c["k"])
    assert target in lay.terrain().enemies and lay.codes.count("e") == lay0.codes.count("e") + 1
    res = views.grid_result(lay, views.GridExplorer().scenes["demo"][2])
    assert c["opt"] == list(res.options) and c["feet"] == list(res.feet)
    # a screen reader hears what the square now is
    ti = lay.width * target[1] + target[0]
    number = res.enemy_numbers[ti]
    assert announced(page, uid)["text"] == described(lay, res, ti) == f"열 {target[0]}, 행 {target[1]}, 적{number}"
    # the cursor square is described in words from the library (option and feet)
    page.keyboard.press("ArrowUp")
    got = deep_active(page)
    i = lay.width * (target[1] - 1) + target[0]
    assert got["cursor"] == i and got["label"] == described(lay, res, i)
    # Space applies the tool as well: a wall
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")  # back on the tool select
    pick_option_by_keyboard(page, uid, "wall")
    for _ in range(3):
        page.keyboard.press("Tab")
    page.keyboard.press(" ")
    page.wait_for_timeout(200)
    c = explorer_cells(page, uid)
    assert c["k"][i] == "#"
    # the path tool: moving the cursor shows the cheapest path to it, as hovering does
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
    pick_option_by_keyboard(page, uid, "path")
    for _ in range(3):
        page.keyboard.press("Tab")
    lay = views.Layout(c["w"], c["h"], c["k"])
    t = lay.terrain()
    opts = bf.move_options(t, lay.start(), views.GridExplorer().scenes["demo"][2])
    for key in ("ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowDown", "ArrowDown"):
        page.keyboard.press(key)
        cur = deep_active(page)["cursor"]
        marked = page.locator(f'[data-live="{uid}"] .bfg .c.p').evaluate_all("els => els.map(e => +e.dataset.i)")
        want = sorted(t.index(sq) for sq in opts.path_to(t.square(cur)))
        assert sorted(marked) == want
    assert offline_page.errors == []


def pick_option_by_keyboard(page, uid, value):
    """On the focused select, move with the arrow keys until the option ``value`` is chosen."""
    order = list(views.TOOLS)
    now = page.evaluate("(n) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean).value",
                        f"{uid}-tool")
    step = "ArrowDown" if order.index(value) > order.index(now) else "ArrowUp"
    for _ in range(abs(order.index(value) - order.index(now))):
        page.keyboard.press(step)
    page.wait_for_timeout(150)
    assert page.evaluate("(n) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean).value",
                         f"{uid}-tool") == value


# --- one widget per chapter by keyboard, with what a screen reader hears -------------------

def first_slider_widget(chapter: str) -> dict:
    for data in page_widgets(f"book/{chapter}.html"):
        if "number" in data["kinds"]:
            return data
    raise AssertionError(f"no widget with a slider in {chapter}")


def settled(page, uid, ms: int = 15000) -> str:
    """Wait until the widget shows the answer to its latest change (fails instead of hanging)."""
    return page.evaluate("""([uid, ms]) => Promise.race([LiveBook.settled(uid),
                              new Promise(r => setTimeout(() => r("timeout"), ms))])""", [uid, ms])


def announced(page, uid) -> dict:
    return page.evaluate("""(uid) => { const el = document.querySelector('.book-announce[data-for="' + uid + '"]');
                                       return el ? {text: el.textContent, count: +el.dataset.count,
                                                    live: el.getAttribute("aria-live")} : null; }""", uid)


def plain(html_text: str) -> str:
    """The text of result html as the page's announcer makes it (blocks separated by spaces)."""
    text = re.sub(r"</(p|li|tr|td|th|caption|h\d|div)>", " ", html_text)
    text = re.sub(r"<br\s*/?>", " ", text)
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_one_widget_per_chapter_by_keyboard(offline_page, chapter):
    data = first_slider_widget(chapter)
    uid = data["uid"]
    widget = rebuild(data["origin"])
    page = open_ready(offline_page, f"book/{chapter}.html")
    before = announced(page, uid)
    assert before == {"text": "", "count": 0, "live": "polite"}
    handle = page.locator(f'[data-live="{uid}"] [role="slider"]').first
    handle.focus()
    assert handle.get_attribute("aria-label") == data["labels"][data["kinds"].index("number")]
    # three quick steps, as when a reader holds the key: one announcement, of the last value
    number = [c for c in widget.controls if c.kind == "number"][0]
    key = "ArrowLeft" if number.default == number.options[-1] else "ArrowRight"
    for _ in range(3):
        page.keyboard.press(key)
    assert settled(page, uid) == "live:answer"
    page.wait_for_timeout(1200)
    raw = page.evaluate("(uid) => LiveBook.values(uid)", uid)
    values = {c.name: c.parse(raw[c.name]) for c in widget.controls}
    assert values[number.name] != number.default  # the keys moved the slider
    want = widget.entry(widget.shown(**values))["h"]   # what the page shows for these values
    got = page.evaluate("(n) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean).text", f"{uid}-out")
    assert got == want
    heard = announced(page, uid)
    assert heard["count"] == 1 and heard["text"] == plain(want)
    print(f"\n{uid} announces: {heard['text']}")
    assert offline_page.errors == []


def test_switch_by_keyboard(offline_page):
    page = open_ready(offline_page, "book/bfrpg.html")
    uid = "bf-rear"
    switch = page.locator(f'[data-live="{uid}"] [role="switch"]').nth(4)
    assert switch.get_attribute("aria-label") == "남동쪽에 공격자"
    switch.focus()
    page.keyboard.press(" ")
    assert settled(page, uid) == "live:answer"
    assert switch.get_attribute("aria-checked") == "true"
    least, _ = bf.least_rear_attackers((1, 1), [(1, 0), (2, 2), (0, 2)])
    assert f"적어도 {least}명" in offline_page.visible_text(uid)
    page.keyboard.press("Enter")
    assert settled(page, uid) == "live:answer"
    assert switch.get_attribute("aria-checked") == "false"


def test_widgets_follow_the_dark_mode(browser, site_url):
    op = themed_page(browser, site_url, "dark")
    try:
        page = open_ready(op, "book/trench_crusade.html")
        colours = {
            "select": page.locator("[data-live] select").first.evaluate("e => getComputedStyle(e).backgroundColor"),
            "text": page.locator("[data-live] .live-out .bk-clearfix").first.evaluate("e => getComputedStyle(e).color"),
            "plot": page.evaluate("() => Bokeh.documents.map(d => d.get_model_by_name('tc-dice-bar-plot')"
                                  " || d.get_model_by_name('tc-dice-plot')).find(Boolean).background_fill_color"),
        }
        assert colours["select"] == "rgb(30, 35, 41)"      # --book-w-bg, not Bokeh's white
        assert colours["text"] == "rgb(206, 214, 221)"     # the page's text colour
        assert colours["plot"] == "#1e2329"
    finally:
        op.close()


PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
             has_touch=True)


@pytest.mark.parametrize("chapter", CHAPTERS + ["dice"])
def test_touch_targets_pass_axe_target_size_on_a_phone(browser, site_url, chapter):
    """WCAG 2.2 target size (axe's target-size rule, off by default, turned on here) on a
    390×844 touch screen, every widget embedded."""
    op = OfflinePage(browser, site_url, **PHONE)
    try:
        page = open_ready(op, f"book/{chapter}.html")
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("""async () => {
          const r = await axe.run(document, {runOnly: {type: "rule", values: ["target-size"]},
                                             resultTypes: ["violations"]});
          return r.violations.flatMap(v => v.nodes.map(n => n.target.join(" > ") + " :: " + n.failureSummary));
        }""")
        assert found == []
        assert op.errors == [] and op.off_site == []
    finally:
        op.close()
