"""The PF2e views show what the library computes, on every static entry and in Jupyter."""
from __future__ import annotations

import html
import itertools

import pytest

from widgets import pf2e
from widgets.views import format as fmt
from widgets.views import pf2e as views
from widgets.views.live import BAND_COLORS
from widget_checks import JupyterView, check_static_table, shows_exact, table_rows

WIDGETS = [views.attack_widget, views.bonus_widget, views.ac_widget, views.strike_widget,
           views.range_widget, views.strike_reach_widget, views.spell_widget]


def shows(p, text: str) -> bool:
    return shows_exact(p, text)


@pytest.mark.parametrize("make", WIDGETS)
def test_static_table_covers_every_option_without_python_errors(make):
    # the strike widget plots three Strikes' distributions side by side
    check_static_table(make(), rule_messages_allowed=True,
                       bars_total=3 if make is views.strike_widget else 1)


def test_attack_entries_equal_the_library():
    table = views.attack_widget().static_table()
    for kind, s, d, rank, level in itertools.product(
            ["melee", "finesse", "ranged"], range(5), range(5),
            ["untrained", "trained", "expert", "master", "legendary"], [1, 5, 10, 15, 20]):
        prof = pf2e.proficiency_bonus(rank, level)
        total = pf2e.attack_bonus("ranged" if kind == "ranged" else "melee", strength=s,
                                  dexterity=d, finesse=kind == "finesse", proficiency=prof)
        entry = table[f"{kind}|{s}|{d}|{rank}|{level}"]["h"]
        assert f"d20 {fmt.signed(total)} " in entry, entry
        assert f"숙련 {fmt.signed(prof)}" in entry


def test_finesse_uses_the_better_of_str_and_dex():
    entry = views.attack_widget().static_table()["finesse|1|4|trained|1"]["h"]
    assert "민첩 +4" in entry and f"d20 {fmt.signed(4 + pf2e.proficiency_bonus('trained', 1))}" in entry


def test_bonus_entries_show_only_the_counted_ones():
    widget = views.bonus_widget()
    table = widget.static_table()
    choices = [c.options for c in widget.controls]
    for combo in itertools.product(*choices):
        mods = [(kind, int(v)) for kind, code in zip(["circumstance", "status", "item", "untyped"],
                                                       combo)
                for v in code.split(",") if int(v)]
        entry = table["|".join(combo)]["h"]
        assert f"합계: <b>{fmt.signed(pf2e.stack_modifiers(mods))}</b>" in entry
    # +1 and +2 circumstance: only +2 is applied; −5 and −2 untyped: both
    entry = table["1,2|0|0|-5,-2"]["h"]
    assert table_rows(entry)[1][1:3] == ["+1, +2", "+2"]
    assert f"<b>{fmt.signed(pf2e.stack_modifiers([('circumstance', 1), ('circumstance', 2), ('untyped', -5), ('untyped', -2)]))}</b>" in entry


def test_ac_entries_equal_the_library():
    table = views.ac_widget().static_table()
    for dex, cap, item, prof, off in itertools.product(range(5), [None, 0, 1, 2, 3], range(7),
                                                       ["untrained:1", "trained:1", "expert:11",
                                                        "master:13", "legendary:17"],
                                                       [False, True]):
        rank, level = prof.split(":")
        ac = pf2e.armor_class(dex, cap, pf2e.proficiency_bonus(rank, int(level)), item=item,
                              off_guard=off)
        entry = table[f"{dex}|{cap}|{item}|{prof}|{int(off)}"]["h"]
        assert f"<b>AC {ac}</b>" in entry


def test_dex_cap_limits_the_shown_dex():
    entry = views.ac_widget().static_table()["4|1|4|trained:1|0"]["h"]
    assert "민첩 +1 (수정치 +4, 상한 +1)" in entry
    assert f"AC {pf2e.armor_class(4, 1, 3, item=4)}" in entry


def test_strike_entries_equal_the_library():
    table = views.strike_widget().static_table()
    for bonus, ac, a1, a2, a3 in itertools.product(range(6, 23, 4), range(14, 31, 4),
                                                   [0, 1], [0, 1], [0, 1]):
        entry = table[f"{bonus}|{ac}|{a1}|{a2}|{a3}"]
        expected_t = []
        for n, agile in enumerate((a1, a2, a3), start=1):
            odds = pf2e.strike_odds(bonus, ac, attack_number=n, agile=bool(agile))
            expected_t += [fmt.prob(odds[k]) for k in pf2e.DEGREES]
        assert entry["t"] == expected_t
        for n in range(3):
            assert abs(sum(entry["y"][4 * n:4 * n + 4]) - 1) < 1e-9
        totals = pf2e.strike_sequence([(bonus, bool(a)) for a in (a1, a2, a3)])
        assert [row[2] for row in table_rows(entry["h"])[1:]] == [fmt.signed(t) for t in totals]
        assert entry["k"] == [[2.5, "1격"], [7.5, "2격"], [12.5, "3격"]]   # the axis names strikes


def test_source_example_shortsword_third_strike():
    entry = views.strike_widget().static_table()["10|18|0|0|1"]["h"]
    assert table_rows(entry)[3][1] == fmt.signed(pf2e.multiple_attack_penalty(3, True))
    text = repr(views.map_examples())
    assert " / ".join(fmt.signed(v) for v in pf2e.strike_sequence(
        [(0, False), (0, False), (0, True)])) in text


def test_range_entries_equal_the_library():
    table = views.range_widget().static_table()
    for inc in range(10, 121, 10):
        for dist in range(0, 801, 10):
            entry = table[f"{inc}|{dist}"]["h"]
            if dist <= 6 * inc:
                assert f"사거리 페널티: {fmt.signed(pf2e.range_penalty(dist, inc))}" in entry
            else:
                with pytest.raises(pf2e.RuleInputError) as err:
                    pf2e.range_penalty(dist, inc)
                assert html.escape(err.value.korean) in entry and "widget-error" in entry


def test_crossbow_table_and_examples_come_from_the_library():
    rows = pf2e.range_bands(120).table()
    text = repr(views.crossbow_table())
    assert all(fmt.signed(r["modifier"]) in text for r in rows)
    examples = repr(views.crossbow_examples())
    assert f"720ft | 사거리 단위 120ft | {fmt.signed(pf2e.range_penalty(720, 120))}" in examples
    assert "사거리 밖" in examples


def test_reach_widget_shows_step_and_the_reactions_of_a_stride():
    table = views.strike_reach_widget().static_table()
    assert "지금 자리에서 타격할 수 있습니다" in table["reach5|5|5"]["h"]
    assert "지금 자리에서 타격할 수 있습니다" in table["reach10|10|5"]["h"]
    assert "한 걸음으로 충분합니다" in table["reach5|10|5"]["h"]
    band = pf2e.range_bands(60).band(60)
    assert band.modifier == 0 and f"({band.label})" in table["inc60|60|5"]["h"]
    for distance in range(5, 61, 5):
        for enemy in (5, 10):
            entry = table[f"reach5|{distance}|{enemy}"]["h"]
            plan = pf2e.approach_options(distance, 5, enemy)
            if plan["gap"]:
                hot = sum(1 for *_, h in plan["stride"] if h)
                assert f"<b>{hot}개</b>" in entry
                assert ("한 걸음으로 충분합니다" in entry) == plan["step"]
                assert len(table_rows(entry)) == 1 + len(plan["stride"])


def test_stride_segments_count_every_five_feet_inside_the_enemy_reach():
    for start in range(5, 41, 5):
        for end in range(5, 41, 5):
            for reach in (5, 10, 15):
                segments = pf2e.stride_segments(start, end, reach)
                assert len(segments) == abs(end - start) // 5
                assert [h for a, _, h in segments] == [a <= reach for a, _, _ in segments]
                assert all(abs(b - a) == 5 for a, b, _ in segments)


def test_spell_entries_equal_the_library():
    table = views.spell_widget().static_table()
    for ability, prof, save in itertools.product(range(6), ["trained:1", "trained:5", "expert:7",
                                                            "master:15", "legendary:19"],
                                                 range(0, 31, 3)):
        rank, level = prof.split(":")
        p = pf2e.proficiency_bonus(rank, int(level))
        dc = pf2e.spell_dc(ability, p)
        entry = table[f"{ability}|{prof}|{save}"]
        assert f"주문 DC {dc}" in entry["h"]
        assert f"d20 {fmt.signed(pf2e.attack_bonus('spell', spellcasting=ability, proficiency=p))}" \
            in entry["h"]
        assert entry["t"] == [fmt.prob(pf2e.save_odds(save, dc)[k]) for k in pf2e.DEGREES]


def test_proficiency_table_from_the_library():
    text = repr(views.ProficiencyTable())
    assert fmt.signed(pf2e.proficiency_bonus("legendary", 20)) in text
    assert "미훈련" in text


def test_jupyter_range_view_bad_input_is_a_korean_message():
    widget = views.range_widget()
    view = JupyterView(widget)
    inc, dist = (c.name for c in widget.controls)
    view.type(dist, "1000").type(inc, "200")   # beyond the static table: the library computes it
    assert f"사거리 페널티: {fmt.signed(pf2e.range_penalty(1000, 200))}" in view.out
    view.type(dist, "-5")
    assert "widget-error" in view.seen and "거리" in view.seen and "Traceback" not in view.seen
    view.type(dist, "100").type(inc, "0")
    assert "widget-error" in view.seen and "0보다 커야" in view.seen
    view.type(inc, "120").type(dist, "721")
    assert "사거리 밖" in view.out and view.status == ""
    view.type(dist, "열 칸")                  # text in a number box: the box's Korean message
    assert "숫자만 넣어 주세요" in view.status
    shown = widget.shown(increment=120, distance="열 칸")
    assert "widget-error" in shown.html and "숫자를 넣어 주세요" in shown.html
    shown = widget.shown(increment="abc", distance=10)
    assert "widget-error" in shown.html and "사거리 단위" in shown.html


def test_jupyter_strike_view_follows_the_library():
    widget = views.strike_widget()
    view = JupyterView(widget)
    names = [c.name for c in widget.controls]
    view.type(names[0], "13").type(names[1], "21").switch(names[3], True)
    odds = pf2e.strike_odds(13, 21, attack_number=2, agile=True)
    assert all(shows(p, view.out) for p in odds.values())
    view.type(names[0], "999")
    assert "widget-error" in view.seen


def test_mime_bundle_carries_html_and_text():
    bundle = views.range_widget()._repr_mimebundle_()
    assert 'data-live="pf-range"' in bundle["text/html"]
    assert fmt.signed(pf2e.range_penalty(250, 120)) in bundle["text/plain"]


# --- the Strikes chart: each Strike's bars grouped under its own label -------------------------

def _svg_parts(svg: str):
    """(rects as (left, right, colour, title), axis names as (centre, text)) of a bars_svg."""
    import re
    rects = [(float(x), float(x) + float(w), c, t) for x, w, c, t in re.findall(
        r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="([^"]+)"><title>([^<]*)</title>', svg)]
    names = [(float(x), t) for x, t in re.findall(
        r'<text x="([\d.]+)" y="\d+" font-size="10" text-anchor="middle">([^<]+)</text>', svg)]
    return rects, names


@pytest.mark.parametrize("key", ["10|18|0|0|0", "22|14|1|0|1", "6|30|1|1|1"])
def test_jupyter_chart_puts_each_strike_label_under_its_own_four_bars(key):
    from widgets.views.jupyter import bars_svg
    entry = views.strike_widget().static_table()[key]
    rects, names = _svg_parts(bars_svg(entry, "타격"))
    assert len(rects) == 12 and [t for _, t in names] == ["1격", "2격", "3격"]
    for n, (centre, _) in enumerate(names):
        own = rects[4 * n:4 * n + 4]
        assert own[0][0] < centre < own[-1][1]                         # under its own bars…
        assert abs(centre - (own[0][0] + own[-1][1]) / 2) < 1          # …at their middle
        others = rects[:4 * n] + rects[4 * n + 4:]
        assert all(r < own[0][0] or l > own[-1][1] for l, r, _, _ in others)   # no other bar among them
        assert [c for _, _, c, _ in own] == [BAND_COLORS[views.DEGREE_BANDS[k]] for k in pf2e.DEGREES]
    gaps = [rects[4 * n][0] - rects[4 * n - 1][1] for n in (1, 2)]
    inner = [rects[i + 1][0] - rects[i][1] for i in range(11) if (i + 1) % 4]
    assert min(gaps) > max(inner)                                      # the groups stand apart


def test_site_chart_separates_strikes_between_their_groups_not_through_them():
    from bokeh.models import FixedTicker
    from widgets.views.static_page import bokeh_layout
    widget = views.strike_widget()
    fig = next(m for m in bokeh_layout(widget, "t").references() if m.name == "pf-strikes-bar-plot")
    first = widget.entry(widget.shown(**widget.defaults()))
    xs = first["x"]
    spans = [(xs[4 * n] - 0.4, xs[4 * n + 3] + 0.4) for n in range(3)]   # vbar width 0.8
    ticks = fig.xaxis[0].ticker.ticks
    assert ticks == [2.5, 7.5, 12.5]
    assert fig.xaxis[0].major_label_overrides == {2.5: "1격", 7.5: "2격", 12.5: "3격"}
    assert all(lo < t < hi for t, (lo, hi) in zip(ticks, spans))       # each label under its group
    grid = fig.xgrid[0].ticker
    assert isinstance(grid, FixedTicker) and grid.ticks == [5.0, 10.0]
    assert not any(lo < g < hi for g in grid.ticks for lo, hi in spans)  # no grid line cuts a group
