"""The BFRPG chapter's views show what the library computes: every static entry, the grid
explorer's data, its Jupyter view, and the JS twin of move_options (widgets/js/bfrpg_options.js)."""
from __future__ import annotations

import html
import json
import random
from pathlib import Path

import pytest

from widgets import bfrpg as bf
from widgets.views import labels
from widgets.errors import RuleInputError
from widgets.grid import Terrain, least_rear_attackers, rear_arc, visible_squares
from widgets.limits import MAX_FLIGHT_WORK
from widgets.ranges import BFRPG_MISSILE_RANGES, bfrpg_missile_bands
from widgets.views import bfrpg as views
from widgets.views import format as fmt
from widget_checks import random_floor

ROOT = Path(__file__).resolve().parent.parent
LIVE = [views.diagonal_widget, views.movement_rate_widget, views.missile_range_widget,
        views.sight_widget, views.facing_widget, views.rear_widget, views.simultaneous_widget,
        views.melee_widget]


@pytest.mark.parametrize("make", LIVE)
def test_static_tables_are_complete_small_and_error_free(make):
    import json
    w = make()
    table = w.static_table()
    size = 1
    for c in w.controls:
        size *= len(c.options)
    assert len(table) == size
    assert len(json.dumps(table, ensure_ascii=False).encode()) < 400_000
    for key, entry in table.items():
        assert "입력을 처리할 수 없습니다" not in entry["h"], key


def test_diagonal_entries_equal_the_library():
    table = views.diagonal_widget().static_table()
    for d in range(13):
        for o in range(13):
            path = [(i, i) for i in range(d + 1)] + [(d + i, d) for i in range(1, o + 1)]
            feet = bf.path_cost(path)
            entry = table[f"{d}|{o}|30"]["h"]
            assert f"<b>{feet}피트</b>" in entry
            assert ("걸어서" in entry) == (feet <= 30)


def test_rate_and_range_entries_equal_the_library():
    table = views.movement_rate_widget().static_table()
    for armor in ("none", "magic_leather", "leather", "magic_metal", "metal"):
        for load in ("light", "heavy"):
            rate = bf.movement_rate(armor, load)
            h = table[f"{armor}|{load}"]["h"]
            assert f"이동 속도 <b>{rate}피트</b>: 가로/세로 {bf.squares_reachable(rate)}칸" in h
            assert f"{bf.running_rate(rate)}피트" in h
            assert f"가로/세로 {bf.squares_reachable(bf.half_move(rate))}칸까지 갑니다" in h
            # the drawn area: one coloured square per square walked to (attack) and run to
            size = bf.squares_reachable(bf.running_rate(rate)) + 1
            opts = bf.move_options(Terrain(size, size), (0, size - 1), rate)
            squares = [(c, r) for c in range(size) for r in range(size)]
            for option in ("walk", "run"):
                count = sum(opts.option(q) == option for q in squares)
                assert h.count(f"background:{views.OPTION_COLORS[option]};width:12px") == count
            row = next(r for r in bf.movement_table() if r["rate"] == rate)
            assert (f"{row['source_run_orth']}칸을 달린다고" in h) == (row["run_orth"] != row["source_run_orth"])
    table = views.missile_range_widget().static_table()
    for weapon in BFRPG_MISSILE_RANGES:
        bands = bfrpg_missile_bands(weapon)
        for d in range(5, 255, 5):
            h = table[f"{weapon}|{d}"]["h"]
            if bands.in_range(d):
                band = bands.band(d)
                assert f"<b>{html.escape(band.label)}</b>, 명중 굴림 {fmt.signed(band.modifier)}" in h
            else:
                assert "widget-error" in h and "사거리 밖" in h


def test_facing_rear_and_simultaneous_entries_equal_the_library():
    table = views.facing_widget().static_table()
    for facing in "NESW":
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if dc == dr == 0:
                    continue
                h = table[f"{facing}|{dc},{dr}"]["h"]
                can = bf.can_attack_square((1, 1), facing, (1 + dc, 1 + dr))
                assert ("공격할 수 있습니다" in h) == can
                assert ("+2" in h) == bool(bf.rear_attack_bonus((1, 1), facing, (1 + dc, 1 + dr)))
    ring = views._RING
    table = views.rear_widget().static_table()
    for key, entry in table.items():
        on = [v == "1" for v in key.split("|")]
        attackers = [sq for sq, o in zip(ring, on) if o]
        least, _ = least_rear_attackers((1, 1), attackers)
        assert (f"적어도 {least}명" in entry["h"]) == (least > 0)
        for f in "NESW":
            n = sum(a in rear_arc((1, 1), f) for a in attackers)
            assert f">{n}명</td>" in entry["h"]
    table = views.simultaneous_widget().static_table()
    for key, entry in table.items():
        a, b, c = (int(v) for v in key.split("|"))
        order = bf.simultaneous_move_order({"탄넨": a, "도우버트": b, "맨드로스": c})
        if order:
            assert f"모두 {len(order)}걸음" in entry["h"]
            assert entry["h"].count("번째 차례") == max(a, b, c) // 5
            for rate in (a, b, c):
                if rate:
                    assert f">{rate}피트</td>" in entry["h"]


def test_sight_entries_equal_the_library():
    s = bf.scene("missile")
    t = s.terrain()
    table = views.sight_widget().static_table()
    assert set(table) == {f"{c},{r}" for c, r in views.SIGHT_SHOOTERS}
    for c, r in views.SIGHT_SHOOTERS:
        h = table[f"{c},{r}"]["h"]
        for g in s.enemies:
            assert f"{html.escape(fmt.korean_only(g.name))} {g.square}: {views._SIGHT_KO[bf.missile_sight(t, (c, r), g.square)]}" in h
        dark = h.count('bgcolor="#222222"') + h.count('bgcolor="#5a2a45"')
        hidden = t.width * t.height - len(t.blocked) - len(visible_squares(t, (c, r)))
        assert dark == hidden


def test_scene_examples_reproduce_the_source_numbers():
    rows = views.scene_examples(("doughbert_melee",)).rows
    s = bf.scene("doughbert_melee")
    opts = bf.scene_options("doughbert_melee")
    for row, mark in zip(rows, s.marks):
        assert f"{opts.feet(mark.square)}피트" in row[2]
        assert row[2].endswith("분리 사격: 고블린") == opts.option(mark.square).startswith("flee")
        if mark.feet is not None:
            assert opts.feet(mark.square) == mark.feet
    assert [opts.feet(m.square) for m in s.marks[:5]] == [5, 10, 15, 25, 35]
    assert opts.option(s.marks[5].square) == "flee_run"


def test_movement_table_is_generated_and_notes_the_disagreements():
    text = repr(views.MovementTable())
    rows = bf.movement_table()
    assert len(text.splitlines()) == len(rows)
    assert text.count("(원문 16칸)") == len(bf.table_disagreements()) == 2
    assert "12칸 (원문 16칸)" in views.MovementTable()._repr_html_()  # issue 17: not "12 (원문 16)칸"
    assert "(원문 16)칸" not in views.MovementTable()._repr_html_()
    assert len(repr(views.Disagreements()).splitlines()) == len(bf.source_disagreements())


# --- the grid explorer -------------------------------------------------------------------

@pytest.mark.parametrize("key", list(views.explorer_scenes()))
def test_explorer_static_data_equals_the_library(key):
    g = views.GridExplorer("bf-grid", key)
    label, lay, rate = g.scenes[key]
    data = g.cell_data(g.result())
    opts = bf.move_options(lay.terrain(), lay.start(), rate)
    t = lay.terrain()
    for i in range(t.width * t.height):
        sq = t.square(i)
        assert data["opt"][i] == opts.option(sq)
        f = opts.feet(sq)
        assert data["feet"][i] == (-1 if f is None else f)
        assert data["shots"][i] == " ".join(str(t.index(e)) for e in opts.parting_shots(sq))
    if key in bf.SCENES:
        s = bf.SCENES[key]
        assert rate == s.rate and lay.terrain() == s.terrain() and lay.start() == s.mover.square


def test_explorer_names_the_opponents_that_get_a_parting_shot():
    """Issue 17: the corridor past two goblins; enemies are numbered on the grid and a flee
    square says which of them gets a parting shot."""
    g = views.GridExplorer("bf-grid", "two_goblins")
    res = g.result()
    t = res.layout.terrain()
    first, second = t.index((3, 0)), t.index((6, 0))
    assert res.labels[first] == "적1" and res.labels[second] == "적2"
    past_first, past_both = t.index((5, 1)), t.index((8, 1))
    assert res.options[past_first] == "flee_walk" and res.shots[past_first] == (first,)
    assert res.describe(past_first).endswith("분리 사격(명중 +2)을 하는 상대: 적1")
    assert res.describe(past_both).endswith("분리 사격(명중 +2)을 하는 상대: 적1, 적2")
    assert "분리 사격" not in res.describe(t.index((4, 1)))  # still next to the first goblin
    assert "적1" in views.grid_table_html(res) and "상대: 적1" in views.grid_table_html(res)
    assert g.export()["maxWork"] == MAX_FLIGHT_WORK


def test_explorer_doughbert_preset_and_rates():
    g = views.GridExplorer("bf-grid-melee", "doughbert_melee")
    res = g.result()
    t = res.layout.terrain()
    marks = bf.SCENES["doughbert_melee"].marks
    assert [res.feet[t.index(m.square)] for m in marks[:5]] == [5, 10, 15, 25, 35]
    assert res.labels[t.index(marks[5].square)].endswith("!")
    assert g.export()["rates"] == {f"{a}|{lo}": bf.movement_rate(a, lo)
                                   for a in ("none", "leather", "metal") for lo in ("light", "heavy")}
    html_out = g.static_html()
    for name in ("tool", "rate", "scene", "cells", "out", "path", "grid"):
        assert f"bf-grid-melee-{name}" in html_out
    # the DOM grid: one element per square, classes and labels from the library; a keyboard
    # grid (one tab stop, rows of grid cells) whose controller is widgets/js/grid_explorer.js
    grid = g.grid_html(res)
    assert grid.count("data-i=") == grid.count('role="gridcell"') == len(res.layout.codes)
    assert grid.count('role="row"') == res.layout.height
    assert 'role="grid" tabindex="0"' in grid and "onclick" not in grid
    assert 'class="c o-start"' in grid and "40!" in grid and ">적1<" in grid
    assert "BfGridExplorer.attach(uid," in html_out


def test_explorer_status_lines_come_from_the_library():
    """The page shows the stored status line of the rate it uses: walk, run and half move
    from bf.running_rate and bf.half_move (no arithmetic on the page)."""
    g = views.GridExplorer()
    data = g.export()
    rates = {r for _, _, r in g.scenes.values()} | {r for _, r in g.rates.values()}
    assert set(data["status"]) == {str(r) for r in rates}
    for r in rates:
        line = data["status"][str(r)]
        assert f"걷기 {r}피트까지" in line
        assert f"달리기 {bf.running_rate(r)}피트까지" in line
        # issue 29: one unit, the cost taken from the rate (a step that stays engaged counts double)
        assert f"근접 이동(•)도 {r}피트까지" in line and "걷는 거리" not in line
        assert f"한 칸 {2 * bf.SQUARE_FEET}피트" in line
        assert f"전투 철수(◂)는 {bf.half_move(r)}피트까지" in line
    assert data["optionsKo"] == labels.BF_MOVE_OPTIONS
    # the grid markup the page builds starts with the same container as Python's
    w, h = 16, 12
    assert data["openTag"].replace("{w}", str(w)).replace("{h}", str(h)) == views.grid_open_tag("bf-grid", w, h)


def test_grid_text_contrast_and_marks():
    """Every square's text reads at 4.5:1 or better on its fill, and options that share a
    look in grey also differ by a mark or a label."""
    for fill in list(views.OPTION_COLORS.values()) + [views.ENEMY_COLOR]:
        assert views.contrast(views.text_on(fill), fill) >= 4.5, fill
    css = views.grid_css()
    for opt, mark in views.OPTION_MARKS.items():
        assert f'.o-{opt}:not(:empty)::after {{ content: "{mark}"' in css
    assert "dashed" in css and "solid" in css  # difficult and barrier borders differ by style
    legend = views.legend_html()
    for mark in set(views.OPTION_MARKS.values()):
        assert f"(표시 {mark})" in legend


def test_parser_and_bad_input_give_korean_messages():
    assert views.parse_squares("적: 3,4; 5, 6;") == [(3, 4), (5, 6)]
    with pytest.raises(RuleInputError) as err:
        views.parse_squares("3;4")
    assert "읽을 수 없습니다" in err.value.korean
    for boxes, words in ((dict(walls="1,1"), "벽"), (dict(enemies="9,9"), "격자 밖"),
                         (dict(enemies="__import__('os')"), "읽을 수 없습니다")):
        with pytest.raises(RuleInputError) as err:
            views.layout_from_text(8, 6, "1,1", **boxes)
        assert words in err.value.korean


def jupyter_grid(scene: str = "demo"):
    """The Jupyter view of an explorer, driven as its front end does (messages to the kernel)."""
    box = views.GridExplorer("bf-grid", scene).ipywidget()
    return box, box.rulebook_grid


def assert_model_equals_library(jg, rate: int):
    """What the kernel sent the front end equals the library's answer for its plan."""
    cells = jg.model.cells
    lay = views.Layout(cells["w"], cells["h"], "".join(cells["k"]))
    res = views.grid_result(lay, rate)
    assert cells["opt"] == list(res.options) and cells["feet"] == list(res.feet)
    assert cells["shots"] == [" ".join(map(str, s)) for s in res.shots]
    assert cells["label"] == res.labels and cells["rate"] == rate
    assert cells["cls"] == [views.cell_class(k, o) for k, o in zip(lay.codes, res.options)]
    return lay, res


def test_jupyter_view_computes_tool_clicks_and_paths_with_the_library():
    """Issue 24: in Jupyter the explorer is the site's (tools, path, parting shots, presets):
    the front end sends a tool's plan or a square's path request, the kernel answers with the
    library's squares."""
    box, jg = jupyter_grid()
    assert_model_equals_library(jg, 30)
    assert jg.model.data["sceneOptions"][0] == ["demo", "연습용 평면 16×12"]
    assert [k for k, _ in jg.model.data["tools"]] == list(views.TOOLS)
    codes = list(jg.layout.codes)
    w = jg.layout.width
    codes[5 * w + 3] = "e"                        # an enemy next to the combatant at (2, 6)
    jg._on_msg(jg.model, {"type": "codes", "codes": "".join(codes), "w": w, "h": 12}, [])
    lay, res = assert_model_equals_library(jg, 30)
    assert (3, 5) in lay.terrain().enemies and "3,5" in jg.boxes["enemies"].value
    flee = next(i for i, o in enumerate(res.options) if o == "flee_walk")
    jg._on_msg(jg.model, {"type": "path", "i": flee}, [])
    opts = bf.move_options(lay.terrain(), lay.start(), 30)
    t = lay.terrain()
    assert jg.model.path["squares"] == [t.index(s) for s in opts.path_to(t.square(flee))]
    assert jg.model.path["i"] == flee and res.shots[flee]
    jg.model.rate_key = "metal|heavy"             # the rate menu
    assert_model_equals_library(jg, 10)
    jg.model.scene = "two_goblins"                # a preset: its plan at its own rate
    _, res = assert_model_equals_library(jg, 40)
    assert jg.model.rate_key == "scene" and res.layout == jg.explorer.scenes["two_goblins"][1]


def test_jupyter_boxes_answer_and_a_bad_box_keeps_the_last_grid():
    box, jg = jupyter_grid("doughbert_melee")
    assert jg.boxes["enemies"].value == "2,2" and not jg.boxes["enemies"].continuous_update
    jg.boxes["enemies"].value = "적: 2,2; 4,2"
    lay, _ = assert_model_equals_library(jg, 30)
    assert lay.terrain().enemies == {(2, 2), (4, 2)}
    before = dict(jg.model.cells)
    for name, typed, words in (("me", "0,0", "벽"), ("width", "1e9", "숫자만 넣어 주세요"),
                               ("enemies", "일곱", "읽을 수 없습니다"), ("width", "61", "60")):
        jg.boxes[name].value = typed
        assert "widget-error" in jg.model.msg and words in html.unescape(jg.model.msg), name
        assert jg.model.cells == before              # the last grid stays
        jg._write_boxes()                            # (the reader fixes the box)
    jg.boxes["width"].value = "１６"                 # full-width digits are digits
    assert "widget-error" not in jg.model.msg and jg.model.cells["w"] == 16


def test_jupyter_view_refuses_a_bad_plan_from_the_front_end_and_keeps_the_grid():
    box, jg = jupyter_grid()
    before = dict(jg.model.cells)
    for bad in ({"codes": "@" * 5, "w": 16, "h": 12}, {"codes": "x" * 192, "w": 16, "h": 12},
                {"codes": None, "w": 16, "h": 12}, {"codes": "." * 192, "w": 16, "h": 12}):
        jg._on_msg(jg.model, dict(bad, type="codes"), [])
        assert "widget-error" in jg.model.msg and jg.model.cells == before


def test_a_60_by_60_change_is_answered_within_half_a_second():
    """Issue 24: the kernel's part of a 60×60 change (the library's answer and the squares sent)
    takes well under half a second; the page's part is measured in tests/test_jupyterlab.py."""
    import time
    box, jg = jupyter_grid()
    jg.boxes["width"].value, jg.boxes["height"].value = "60", "60"
    assert len(jg.model.cells["k"]) == 3600
    times = []
    for i in range(3):
        codes = list(jg.layout.codes)
        codes[i * 61 + 400] = "e"
        t0 = time.perf_counter()
        jg._on_msg(jg.model, {"type": "codes", "codes": "".join(codes), "w": 60, "h": 60}, [])
        times.append(time.perf_counter() - t0)
        assert jg.model.cells["k"][i * 61 + 400] == "e"
    assert min(times) < 0.5, times


def test_mime_bundle_has_all_three_views():
    bundle = views.grid_explorer()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert 'data-live="bf-grid"' in bundle["text/html"]
    assert "나" in bundle["text/plain"]


# --- JS twin of move_options -------------------------------------------------------------

RUN = """(cases) => cases.map((c) => {
  const r = BfrpgOptions.options(c);
  const last = c.width * c.height - 1;
  return {option: r.option.join(), feet: Array.from(r.feet).join(),
          shots: r.shots.map((f) => f.join(" ")).join(),
          path: BfrpgOptions.pathTo(r, last).join()};
})"""


@pytest.fixture
def js_page(browser):
    """A blank page with the two JS twins (the session browser of conftest: one Playwright
    instance for the whole run)."""
    pg = browser.new_page()
    pg.set_content("<html><body></body></html>")
    for name in ("grid_cost.js", "bfrpg_options.js"):
        pg.add_script_tag(content=(ROOT / "widgets" / "js" / name).read_text(encoding="utf-8"))
    yield pg
    pg.close()


def _case(rng, w, h):
    t, start = random_floor(rng, w, h, walls=0.25, enemies=(0, 0.2))
    return t, start, rng.choice([10, 20, 30, 40])


def test_js_move_options_agree_with_python(js_page):
    rng = random.Random(7)
    cases, expected = [], []
    pairs = [_case(rng, rng.randint(2, 18), rng.randint(2, 18)) for _ in range(150)]
    pairs += [(s.terrain(), s.mover.square, s.rate) for s in bf.SCENES.values()]
    for t, start, rate in pairs:
        o = bf.move_options(t, start, rate)
        cases.append(dict(t.to_js(), start=t.index(start), rate=rate, maxWork=MAX_FLIGHT_WORK))
        squares = [t.square(i) for i in range(t.width * t.height)]
        opts = [o.option(s) for s in squares]
        feet = [o.feet(s) for s in squares]
        shots = [" ".join(str(t.index(e)) for e in o.parting_shots(s)) for s in squares]
        expected.append((",".join(opts), ",".join("-1" if f is None else str(f) for f in feet),
                         ",".join(shots), ",".join(str(t.index(s)) for s in o.path_to(squares[-1]))))
    results = js_page.evaluate(RUN, cases)
    for (opts, feet, shots, path), r in zip(expected, results):
        assert r["option"] == opts
        assert r["feet"] == feet
        assert r["shots"] == shots
        assert r["path"] == path


def test_the_sentence_after_the_rear_attack_example_comes_from_the_library():
    """Issue 17: with attackers north, east and west the defender escapes by facing north (the
    library's least_rear_attackers), not south; the chapter shows the library's sentence."""
    claim = views.rear_claim()
    least, facings = least_rear_attackers((1, 1), [(1, 0), (2, 1), (0, 1)])
    assert (claim.three_least, claim.three_facings) == (least, facings) == (0, ("N",))
    assert "북쪽을 보아 아무도 뒤에 두지 않을 수 있습니다" in claim.text() and "남쪽" not in claim.text()
    assert claim.pair_least == least_rear_attackers((1, 1), [(0, 0), (2, 2)])[0] == 1
    nb = json.loads((ROOT / "book" / "bfrpg.ipynb").read_text(encoding="utf-8"))
    section = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "쪽을 보아 피할" not in section  # no hand-written facing left in the prose
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and "views.rear_claim()" in "".join(c["source"]))
    assert "remove-input" in cell["metadata"]["tags"]


def test_the_stored_grid_is_a_table_that_needs_no_stylesheet():
    """Unrun in JupyterLab or on GitHub the explorer shows its plan as a coloured table."""
    html_ = views.GridExplorer().static_html()
    placeholder = html_.split('class="live-placeholder">', 1)[1].split('<script', 1)[0]
    assert placeholder.count("<tr>") == 12 and 'style="background:' in placeholder
