"""The built BFRPG page in headless chromium: offline, every widget live; the grid explorer
recomputes in the page exactly as the Python library does (real mouse clicks on the squares of
its DOM grid)."""
from __future__ import annotations

import html

from widgets import bfrpg as bf
from widgets.ranges import bfrpg_missile_bands
from widgets.views import bfrpg as views
from widgets.views import format as fmt

PAGE = "book/bfrpg.html"
LIVE_UIDS = ["bf-facing", "bf-diagonal", "bf-rate", "bf-range", "bf-sight", "bf-melee",
             "bf-rear", "bf-simul"]
GRIDS = ["bf-grid", "bf-grid-melee"]

CELLS_JS = """(name) => {
  const m = Bokeh.documents.map(d => d.get_model_by_name(name)).find(Boolean);
  return {k: Array.from(m.data.k).join(""), opt: Array.from(m.data.opt),
          feet: Array.from(m.data.feet), label: Array.from(m.data.label), tags: m.tags};
}"""


def cells(page, uid):
    return page.evaluate(CELLS_JS, f"{uid}-cells")


def shown(page, uid):
    """What the reader sees: (class, text) of every square of the DOM grid, in index order."""
    squares = page.locator(f'[data-live="{uid}"] .bfg [data-i]')
    got = squares.evaluate_all("els => els.map(e => [+e.dataset.i, e.className, e.textContent])")
    assert [i for i, _, _ in got] == list(range(len(got)))
    # the keyboard cursor's mark (" cur", see test_a11y.py) is not part of the square
    return [(" ".join(k for k in c.split() if k != "cur"), t) for _, c, t in got]


def open_page(offline_page):
    page = offline_page.open(PAGE)
    page.wait_for_function("(uids) => window.__bfGrid && uids.every(u => window.__bfGrid[u])", arg=GRIDS)
    return page


def assert_equals_library(page, uid, rate):
    """The page's squares (data and what is drawn) equal the Python library's."""
    got = cells(page, uid)
    w, h = got["tags"]
    lay = views.Layout(w, h, got["k"])
    res = views.grid_result(lay, rate)
    assert got["opt"] == list(res.options)
    assert got["feet"] == list(res.feet)
    assert got["label"] == res.labels
    dom = shown(page, uid)
    assert [base_class(c) for c, _ in dom] == [views.cell_class(k, o)
                                               for k, o in zip(lay.codes, res.options)]
    assert [t for _, t in dom] == res.labels
    return lay, res


def base_class(cls: str) -> str:
    """A square's class without the page's marks (" p": on the shown path, " cur": cursor)."""
    return " ".join(c for c in cls.split() if c not in ("p", "cur"))


def square(page, uid, col, row):
    w, _ = cells(page, uid)["tags"]
    return page.locator(f'[data-live="{uid}"] .bfg [data-i="{row * w + col}"]')


def click_square(page, uid, col, row, pause=300):
    """A real mouse click on the DOM square (col, row)."""
    sq = square(page, uid, col, row)
    sq.scroll_into_view_if_needed()
    box = sq.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(pause)


def choose(page, uid, which, label):
    root = page.locator(f'[data-live="{uid}"]')
    root.locator("select").nth(which).select_option(label=label)


def test_page_loads_offline_with_every_widget(offline_page):
    page = open_page(offline_page)
    for uid in LIVE_UIDS + GRIDS:
        assert page.locator(f'[data-live="{uid}"] .bk-Column').count() >= 1, uid
    for uid in GRIDS:  # a DOM grid (no canvas), one element per square
        w, h = cells(page, uid)["tags"]
        assert page.locator(f'[data-live="{uid}"] canvas').count() == 0
        assert page.locator(f'[data-live="{uid}"] .bfg [data-i]').count() == w * h
    for uid in LIVE_UIDS:
        assert offline_page.text_of(f"{uid}-out"), uid
    assert page.locator("div.cell_input").count() == 0
    assert page.evaluate("() => typeof GridCost.costMap === 'function' && typeof BfrpgOptions.options === 'function'")
    assert [e for e in offline_page.errors if "THEBE_JS_URL" not in e] == []


def test_click_places_an_enemy_and_armour_changes_costs(offline_page):
    page = open_page(offline_page)
    uid = "bf-grid"
    g = views.GridExplorer()
    lay, _ = assert_equals_library(page, uid, g.scenes["demo"][2])  # static start
    assert page.evaluate(f"() => Bokeh.documents.map(d => d.get_model_by_name('{uid}-tool'))"
                         ".find(Boolean).value") == "enemy"
    click_square(page, uid, 4, 7)   # an enemy two squares away: the combatant is not engaged
    click_square(page, uid, 3, 5)   # enemy adjacent: the combatant is now engaged
    got = cells(page, uid)
    t = views.Layout(*got["tags"], got["k"]).terrain()
    assert {(4, 7), (3, 5)} <= t.enemies and got["k"] != lay.codes
    lay2, res = assert_equals_library(page, uid, 30)
    assert {"melee_move", "withdraw"} <= set(res.options)
    assert any(o.startswith("flee") for o in res.options)
    rates = views.rate_choices()
    for key in ("metal|heavy", "none|light"):
        choose(page, uid, 1, rates[key][0])
        assert_equals_library(page, uid, rates[key][1])
        assert f"이동 속도 {rates[key][1]}피트" in offline_page.text_of(f"{uid}-out")
    # other tools: wall, barrier, difficult, ally, erase
    for tool, sq in (("벽 놓기", (10, 1)), ("장벽 놓기 (+5피트)", (1, 4)),
                     ("험한 지형 놓기 (2배)", (1, 8)), ("아군 놓기", (0, 6)), ("지우기", (3, 5))):
        choose(page, uid, 0, tool)
        click_square(page, uid, *sq)
    choose(page, uid, 0, "벽 놓기")
    for c in range(10, 14):  # quick clicks, one after another
        click_square(page, uid, c, 10, pause=0)
    page.wait_for_timeout(300)
    lay3, _ = assert_equals_library(page, uid, rates["none|light"][1])
    assert lay3.codes[lay3.width * 10 + 10: lay3.width * 10 + 14] == "####"
    assert lay3.codes[lay3.width * 1 + 10] == "#" and lay3.codes[lay3.width * 5 + 3] == "."
    assert lay3.codes[lay3.width * 4 + 1] == "b" and lay3.codes[lay3.width * 8 + 1] == "d"


def test_scene_presets_reproduce_the_library(offline_page):
    page = open_page(offline_page)
    g = views.GridExplorer()
    for key, (label, lay, rate) in g.scenes.items():
        choose(page, "bf-grid", 2, label)
        got_lay, res = assert_equals_library(page, "bf-grid", rate)
        assert got_lay == lay
    # the Doughbert melee example: 5/10/15/25/35 ft, square 6 is fleeing
    choose(page, "bf-grid", 2, g.scenes["doughbert_melee"][0])
    page.wait_for_timeout(300)
    got = cells(page, "bf-grid")
    t = bf.SCENES["doughbert_melee"].terrain()
    marks = bf.SCENES["doughbert_melee"].marks
    assert [got["feet"][t.index(m.square)] for m in marks[:5]] == [5, 10, 15, 25, 35]
    assert [got["opt"][t.index(m.square)] for m in marks] == [
        bf.scene_options("doughbert_melee").option(m.square) for m in marks]
    assert got["label"][t.index(marks[5].square)].endswith("!")
    # the second explorer starts on it
    melee = cells(page, "bf-grid-melee")
    assert [melee["feet"][t.index(m.square)] for m in marks[:5]] == [5, 10, 15, 25, 35]


def path_shown(page, uid):
    xy = page.evaluate("""(n) => { const m = Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean);
                                   return [Array.from(m.data.x), Array.from(m.data.y)]; }""", f"{uid}-path")
    marked = [i for i, (c, _) in enumerate(shown(page, uid)) if "p" in c.split()]
    return xy, marked


def test_path_mode_highlights_the_librarys_cheapest_path(offline_page):
    page = open_page(offline_page)
    uid = "bf-grid-melee"
    choose(page, uid, 0, "경로 보기")
    page.wait_for_timeout(300)
    opts = bf.scene_options("doughbert_melee")
    t = bf.SCENES["doughbert_melee"].terrain()
    for target in ((2, 1), (0, 2), (4, 1)):  # square 4 of the Doughbert example, a flee square, ...
        click_square(page, uid, *target)
        path = opts.path_to(target)
        xy, marked = path_shown(page, uid)
        assert len(path) > 1
        assert xy == [[c + 0.5 for c, _ in path], [r + 0.5 for _, r in path]]
        assert marked == sorted(t.index(sq) for sq in path)
    square(page, uid, 3, 2).hover()  # hovering shows the path as well
    page.wait_for_timeout(200)
    assert path_shown(page, uid)[1] == sorted(t.index(sq) for sq in opts.path_to((3, 2)))
    choose(page, uid, 0, "적 놓기")  # another tool clears it; the squares are as before
    page.wait_for_timeout(300)
    assert path_shown(page, uid) == ([[], []], [])
    assert_equals_library(page, uid, bf.SCENES["doughbert_melee"].rate)


def test_bad_placement_shows_a_korean_message_and_changes_nothing(offline_page):
    page = open_page(offline_page)
    uid = "bf-grid-melee"
    before = cells(page, uid)
    seen = shown(page, uid)
    choose(page, uid, 0, "전투원 옮기기")
    click_square(page, uid, 3, 0)  # a wall of the corridor
    msg = offline_page.text_of(f"{uid}-out")
    assert "widget-error" in msg and "벽" in msg and "놓을 수 없습니다" in msg
    assert cells(page, uid) == before and shown(page, uid) == seen
    choose(page, uid, 0, "지우기")
    click_square(page, uid, 6, 1)  # erasing the combatant itself is refused too
    assert "전투원이 선 칸" in offline_page.text_of(f"{uid}-out")
    assert cells(page, uid) == before and shown(page, uid) == seen
    # an empty square for the combatant: it moves, and the page recomputes from there
    choose(page, uid, 0, "전투원 옮기기")
    page.wait_for_timeout(300)
    click_square(page, uid, 4, 2)
    got = cells(page, uid)
    assert got["k"].count("@") == 1 and got["k"][got["tags"][0] * 2 + 4] == "@"
    assert_equals_library(page, uid, bf.SCENES["doughbert_melee"].rate)
    assert [e for e in offline_page.errors if "THEBE_JS_URL" not in e] == []


def live_set(page, uid, **values):
    """Set a table widget's controls as the page does (slider with its box) and wait for the answer."""
    assert page.evaluate("([uid, v]) => LiveBook.set(uid, v)", [uid, values]) == "live:answer"


def test_lookup_widgets_follow_the_library(offline_page):
    page = offline_page.open(PAGE)
    live_set(page, "bf-range", weapon="장궁 (longbow)", distance="145")
    band = bfrpg_missile_bands("장궁 (longbow)").band(145)
    assert f"{band.label}, 명중 굴림 {fmt.signed(band.modifier)}" in offline_page.visible_text("bf-range")
    live_set(page, "bf-diagonal", diag="3", orth="2")
    feet = bf.path_cost([(0, 0), (1, 1), (2, 2), (3, 3), (4, 3), (5, 3)])
    assert f"= {feet}피트" in offline_page.visible_text("bf-diagonal")
    live_set(page, "bf-simul", a="10")
    order = bf.simultaneous_move_order({"탄넨": 10, "도우버트": 30, "맨드로스": 40})
    assert f"모두 {len(order)}걸음" in offline_page.visible_text("bf-simul")
    live_set(page, "bf-facing", facing="E", target="-1,0")
    assert "공격할 수 없습니다" in offline_page.visible_text("bf-facing")
    assert not bf.can_attack_square((1, 1), "E", (0, 1))
    root = page.locator('[data-live="bf-rear"]')
    root.locator(".bk-Switch").nth(4).click()  # add the south-east attacker: N, SE, SW
    page.evaluate("() => LiveBook.settled('bf-rear')")
    least, _ = bf.least_rear_attackers((1, 1), [(1, 0), (2, 2), (0, 2)])
    assert f"적어도 {least}명" in offline_page.visible_text("bf-rear")
    live_set(page, "bf-sight", shooter="6,5")
    t = bf.scene("missile").terrain()
    g1 = bf.scene("missile").enemies[0]
    assert f"{g1.square}: {views._SIGHT_KO[bf.missile_sight(t, (6, 5), g1.square)]}" in html.unescape(
        offline_page.visible_text("bf-sight")).replace("\n", "")


def test_explorer_says_which_goblin_gets_a_parting_shot(offline_page):
    """Issue 17: in the corridor past two goblins, the reader taps squares with the path tool:
    the square past the first goblin is a flight with the first goblin's parting shot, the
    square past both names both; the numbers on the grid are the enemies' (적1, 적2)."""
    page = open_page(offline_page)
    uid = "bf-grid"
    g = views.GridExplorer()
    label, lay, rate = g.scenes["two_goblins"]
    choose(page, uid, 2, label)
    page.wait_for_timeout(300)
    _, res = assert_equals_library(page, uid, rate)
    got = cells(page, uid)
    assert got["label"][lay.width * 0 + 3] == "적1" and got["label"][lay.width * 0 + 6] == "적2"
    choose(page, uid, 0, "경로 보기")
    page.wait_for_timeout(300)
    t = lay.terrain()
    o = bf.move_options(t, lay.start(), rate)
    for target, who in (((5, 1), "적1"), ((8, 1), "적1, 적2")):
        click_square(page, uid, *target)
        msg = offline_page.text_of(f"{uid}-out")
        i = t.index(target)
        assert res.describe(i) in html.unescape(msg)
        assert f"분리 사격(명중 +2)을 하는 상대: {who}" in html.unescape(msg)
        assert path_shown(page, uid)[1] == sorted(t.index(s) for s in o.path_to(target))
        # the cursor square (the one tapped) says the same to a screen reader
        label_now = square(page, uid, *target).get_attribute("aria-label") or ""
        assert f"분리 사격(명중 +2)을 하는 상대: {who}" in label_now
    click_square(page, uid, 4, 1)  # still next to the first goblin: a walk, nobody shoots
    assert "분리 사격(" not in html.unescape(offline_page.text_of(f"{uid}-out"))
    assert [e for e in offline_page.errors if "THEBE_JS_URL" not in e] == []


# --- on a phone: squares to tap, labels to read (issue 23 item 7) ---------------------------

PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True,
             has_touch=True)

SIZES_JS = """(uid) => {
  const root = document.querySelector(`[data-live="${uid}"]`);
  let grid = null;
  const stack = [root];
  while (stack.length && !grid) {
    const r = stack.pop();
    grid = r.querySelector('.bfg');
    for (const el of r.querySelectorAll('*')) if (el.shadowRoot) stack.push(el.shadowRoot);
  }
  const pan = grid.parentElement, hint = pan.previousElementSibling;
  const squares = [...grid.querySelectorAll('[data-i]')];
  const boxes = squares.map(e => e.getBoundingClientRect());
  const fonts = squares.filter(e => e.textContent).map(e => parseFloat(getComputedStyle(e).fontSize));
  const labelsFit = squares.filter(e => e.textContent).every(e => e.scrollWidth <= e.clientWidth);
  const me = squares.find(e => e.textContent === '나').getBoundingClientRect();
  const pr = pan.getBoundingClientRect();
  return {w: Math.min(...boxes.map(b => b.width)), h: Math.min(...boxes.map(b => b.height)),
          font: Math.min(...fonts), labelsFit, pans: pan.scrollWidth > pan.clientWidth,
          panRight: pr.right, hint: hint && !hint.hidden ? hint.textContent : '',
          meVisible: me.left >= pr.left && me.right <= pr.right,
          pageWidth: document.documentElement.scrollWidth};
}"""


def tap_square(page, uid, col, row):
    """A finger tap on square (col, row), panned into view first as a reader would swipe."""
    sq = square(page, uid, col, row)
    sq.scroll_into_view_if_needed()
    sq.tap()
    page.wait_for_timeout(300)


def test_grid_squares_and_labels_are_big_enough_on_a_phone(browser, site_url):
    """390×844 touch phone: every square at least 32 px, every label at least 12 px and whole;
    a plan wider than the screen pans in its own box (the page itself never scrolls sideways),
    says so, and starts with the combatant in view; taps with the tools give the library's
    squares, also on a square panned into view."""
    from conftest import OfflinePage
    phone = OfflinePage(browser, site_url, **PHONE)
    page = open_page(phone)
    uid = "bf-grid"
    g = views.GridExplorer()
    for scene in ("demo", "open30", "doughbert_melee"):
        if scene != "demo":
            choose(page, uid, 2, g.scenes[scene][0])
            page.wait_for_timeout(400)
        got = page.evaluate(SIZES_JS, uid)
        assert got["w"] >= 32 and got["h"] >= 32, (scene, got)
        assert got["font"] >= 12 and got["labelsFit"], (scene, got)
        assert got["pageWidth"] <= 390 and got["panRight"] <= 390, (scene, got)
        assert got["meVisible"], (scene, got)
        w = g.scenes[scene][1].width
        assert got["pans"] == (w * 33 > 390) and bool(got["hint"]) == got["pans"], (scene, got)
        if got["pans"]:
            assert "옆으로 밀어 보기" in got["hint"]
        page.screenshot(path=f"/tmp/phone-grid-{scene}.png", full_page=False)
    # taps with the tools on the 30×30 plan: an enemy far right (panned into view), a wall
    choose(page, uid, 2, g.scenes["open30"][0])
    page.wait_for_timeout(400)
    tap_square(page, uid, 27, 15)               # the enemy tool (the default)
    choose(page, uid, 0, "벽 놓기")
    tap_square(page, uid, 5, 14)
    lay, res = assert_equals_library(page, uid, g.scenes["open30"][2])
    assert (27, 15) in lay.terrain().enemies and (5, 14) in lay.terrain().blocked
    choose(page, uid, 0, "경로 보기")
    tap_square(page, uid, 26, 15)               # beside the new enemy: a path is shown
    t = lay.terrain()
    assert path_shown(page, uid)[1] == sorted(t.index(s) for s in res.move_options.path_to((26, 15)))
    assert res.describe(t.index((26, 15))) in html.unescape(phone.text_of(f"{uid}-out"))
    assert [e for e in phone.errors if "THEBE_JS_URL" not in e] == []
    assert phone.off_site == []
    phone.close()
