"""The whole-fight widgets (widgets/views/fights.py) show exactly what the library's fight calls
compute, for the page's first answers and for values off the page's table, and refuse bad input
with a Korean message; the Jupyter view answers the same way."""
from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest

from widgets.views.format import josa

from widgets import hunters_moon as hm
from widgets import pf2e
from widgets import trench_crusade as tc
from widgets import underface as uf
from widgets.views import fights as views
from widgets.views import format as fmt
from widget_checks import JupyterView, table_rows

WIDGETS = [views.duel_widget, views.down_widget, views.out_widget, views.hunt_widget]


def _fighter(side: dict) -> uf.Fighter:
    return uf.Fighter(side["attack"], side["defence"], side["weapon"], db=side["db"],
                      armor=side["armor"], hp=side["hp"])


def library_odds(uid: str, v: dict):
    """The library's own call for a widget's values, written out here (not the view's helper)."""
    if uid == "uf-duel":
        a = {f: v[f"a_{f}"] for f in ("attack", "defence", "weapon", "db", "armor", "hp")}
        b = {f: v[f"b_{f}"] for f in ("attack", "defence", "weapon", "db", "armor", "hp")}
        return uf.duel(_fighter(a), _fighter(b), first=v["first"])
    if uid == "pf-down":
        return pf2e.strikes_to_down(v["bonus"], v["ac"], v["hp"], v["damage"], strikes=v["strikes"],
                                    agile=v["agile"], off_guard=v["off_guard"])
    if uid == "tc-out":
        return tc.attacks_to_out(dice=v["dice"], modifier=v["modifier"], injury_dice=v["injury_dice"],
                                 armour=v["armour"], tough=v["tough"], blood=v["blood"])
    pcs = [tuple(int(x) for x in pc.split("/")) for pc in v["pcs"].split(",")]
    return hm.hunt(pcs, v["defence"], v["life"], doom=v["doom"], pursuit=v["pursuit"])


#: What each widget answers first: (result key, steps it counts: None for every listed step).
LEAD = {"uf-duel": ("a", None), "pf-down": ("down", views.PF_TURNS), "tc-out": ("out", views.TC_ATTACKS),
        "hm-hunt": ("win", None)}

#: Values off each page's table (typed into a box), with the defaults for the rest.
OFF_TABLE = {"uf-duel": {"a_hp": 15, "b_attack": 55},
             "pf-down": {"hp": 37, "damage": "2d6+3"},
             "tc-out": {"dice": 3, "armour": 2},
             "hm-hunt": {"life": 27, "pcs": "3/4/1, 1/3/4"}}


def exact(p: Fraction) -> str:
    """A chance's exact fraction, written out here."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def reads_exact(cell: str, p: Fraction) -> bool:
    """A table cell as the reader reads it (:func:`table_rows`: a long fraction once opened from
    behind 「정확한 값 보기」): the exact fraction with its percent."""
    return cell == f"{exact(p)} ({fmt.percent(p)})"


def check_answer(widget, values: dict) -> None:
    """The answer at ``values`` leads with the library's number, exact, and its table and bars
    are the library's cumulative chances."""
    odds = library_odds(widget.uid, values)
    entry = widget.entry(widget.shown(**values))
    text = entry["h"]
    key, by = LEAD[widget.uid]
    by = None if by is None else min(by, odds.steps)
    lead = odds.chance(key, by=by)
    first = re.search(r'<p class="answer-total">(.*?)</p>', text).group(1)
    assert first.startswith(f"<b>{html.escape(views.rounded_percent(lead))}") or \
        f": {html.escape(views.rounded_percent(lead))}" in first, first
    assert exact(lead) in first, first
    rows = table_rows(text)
    layout = {"uf-duel": views.DUEL, "pf-down": views.DOWN, "tc-out": views.OUT,
              "hm-hunt": views.HUNT}[widget.uid]
    keys = [k for k, _, _ in layout.results]
    assert len(rows) - 1 == len(views.shown_steps(odds)) >= 1
    bars = iter(entry["t"])
    for k, row in enumerate(rows[1:], 1):
        expected = [odds.chance(r, by=k) for r in keys] + [1 - odds.ended(by=k)]
        assert all(reads_exact(cell, p) for cell, p in zip(row[1:], expected)), (k, row)
        assert [next(bars) for _ in expected] == [fmt.prob(p) for p in expected]
        assert sum(expected) == 1
    mean = odds.mean_steps()
    assert f"평균 <b>약 {float(mean):.2f}" in text
    if odds.rest and not odds.fixed_end:       # it says what the mean leaves out, and how likely
        last = layout.step_name(odds.steps)
        assert f"계산한 {last}까지 끝나는 경우만의 평균" in text
        assert f"끝나지 않을 확률({html.escape(fmt.percent(odds.rest))})은 셈에 넣지 않았습니다" in text
    else:
        assert "셈에 넣지 않았습니다" not in text


@pytest.mark.parametrize("make", WIDGETS)
def test_the_default_answer_is_the_library_call(make):
    widget = make()
    check_answer(widget, widget.defaults())


@pytest.mark.parametrize("make", WIDGETS)
def test_a_value_off_the_page_table_is_the_library_call(make):
    widget = make()
    values = {**widget.defaults(), **OFF_TABLE[widget.uid]}
    keys = {widget.key(v) for block in widget.first_moves() for v in block}
    assert widget.key(values) not in keys          # the engine answers it on the page
    check_answer(widget, values)
    raw = {c.name: c.key(values[c.name]) for c in widget.controls}
    assert widget.answer(raw) == widget.entry(widget.shown(**values))


@pytest.mark.parametrize("make", WIDGETS)
def test_every_first_move_answers_without_error(make):
    widget = make()
    for values in widget.first_moves()[0]:
        entry = widget.entry(widget.shown(**values))
        assert "widget-error" not in entry["h"], values
        groups = len(entry["y"]) // len(entry["k"])
        assert len(entry["k"]) == len(table_rows(entry["h"])) - 1
        assert groups >= 2


def test_the_duel_answers_the_death_threshold_question():
    widget = views.duel_widget()
    values = widget.defaults()
    odds = library_odds("uf-duel", values)
    text = widget.entry(widget.shown(**values))["h"]
    share = odds.chance("b_at_death_threshold") / odds.chance("a")
    assert f"사망 임계 이하까지 갈 확률: {fmt.percent(odds.chance('b_at_death_threshold'))}" in text
    assert f"B가 지는 결투의 {fmt.percent(share)}" in text
    assert f"B가 이길 확률 {fmt.percent(odds.chance('b'))}" in text


def test_the_totals_line_gives_where_the_fight_stops():
    widget = views.duel_widget()
    values = widget.defaults()
    odds = library_odds("uf-duel", values)
    assert odds.steps > len(views.shown_steps(odds))
    text = widget.entry(widget.shown(**values))["h"]
    assert (f"{odds.steps}라운드까지 (계산을 멈춘 곳): A 승리 {fmt.percent(odds.chance('a'))}, "
            f"B 승리 {fmt.percent(odds.chance('b'))}") in html.unescape(text)


def test_off_guard_is_two_less_ac():
    widget = views.down_widget()
    on = widget.entry(widget.shown(**{**widget.defaults(), "off_guard": True}))["h"]
    plain = pf2e.strikes_to_down(10, 16, 30, "1D8+4")
    assert exact(plain.chance("down", by=3)) in on and fmt.percent(plain.chance("down", by=3)) in on
    assert "무방비: AC 18 − 2 = 16으로 계산" in on


@pytest.mark.parametrize("uid,raw,words", [
    ("uf-duel", {"a_hp": "열둘"}, "숫자만"),
    ("uf-duel", {"a_hp": "0"}, "HP"),
    ("uf-duel", {"b_attack": "1e9"}, "숫자만"),
    ("pf-down", {"damage": "1D6+칼"}, ""),
    ("pf-down", {"hp": "−5"}, "HP"),
    ("tc-out", {"dice": "１０００"}, "±DICE"),
    ("hm-hunt", {"pcs": "2/3"}, "【무용】/무기 위력/자리"),
    ("hm-hunt", {"pcs": "2/3/1, 2/3/2, 2/3/3, 2/3/4, 2/3/5"}, ""),
])
def test_bad_input_gives_a_korean_message(uid, raw, words):
    widget = next(make() for make in WIDGETS if make().uid == uid)
    answer = widget.answer(raw)
    assert set(answer) == {"error"}, answer
    assert re.search("[가-힣]", answer["error"]) and words in answer["error"], answer["error"]
    assert "Traceback" not in answer["error"]


def test_pcs_parse_full_width_and_spaces():
    assert views.parse_pcs("２/３/１ ,  1 / 5 / 2") == [(2, 3, 1), (1, 5, 2)]
    with pytest.raises(ValueError):
        views.parse_pcs("2/3/1; 1/5/2")


@pytest.mark.parametrize("walk,uid", [(views.duel_walk, "uf-duel"), (views.pf_walk, "pf-down"),
                                      (views.tc_walk, "tc-out"), (views.hm_walk, "hm-hunt")])
def test_worked_fights_take_their_numbers_from_the_library(walk, uid):
    worked = walk()
    widget = next(make() for make in WIDGETS if make().uid == uid)
    odds = library_odds(uid, widget.defaults())
    assert worked.numbers["odds"] == odds
    text = worked.text()
    layout = {"uf-duel": views.DUEL, "pf-down": views.DOWN, "tc-out": views.OUT,
              "hm-hunt": views.HUNT}[uid]
    for k in range(1, min(odds.steps, 5) + 1):
        assert f"{layout.rest}: {views.walk_value(1 - odds.ended(by=k))}" in text
        for key, label, _ in layout.results:
            assert (f"{josa(label, '은/는')} 그 {layout.step}에 "
                    f"{views.walk_value(odds.ends[k - 1][key])}") in text
            assert f"여기까지 {views.walk_value(odds.cumulative(key)[k - 1])}" in text
            assert exact(odds.cumulative(key)[k - 1]) in worked.html()      # exact, on demand


@pytest.mark.parametrize("make", WIDGETS)
def test_jupyter_answers_a_typed_value_as_the_library(make):
    widget = make()
    view = JupyterView(widget)
    values = {**widget.defaults(), **OFF_TABLE[widget.uid]}
    for name, value in OFF_TABLE[widget.uid].items():
        view.type(name, value)
    odds = library_odds(widget.uid, values)
    key, by = LEAD[widget.uid]
    lead = odds.chance(key, by=None if by is None else min(by, odds.steps))
    assert exact(lead) in view.out
    assert view.status == ""
    view.type(next(iter(OFF_TABLE[widget.uid])), "일곱")        # refused: the last good value stays
    assert "숫자만" in view.status or "【무용】" in view.status
    assert exact(lead) in view.out


def test_uids_and_keys_are_the_issue_s():
    names = {make().uid: [c.name for c in make().controls] for make in WIDGETS}
    duel = [f"{s}_{f}" for s in "ab" for f in ("attack", "defence", "weapon", "db", "armor", "hp")]
    assert names == {"uf-duel": duel + ["first"],
                     "pf-down": ["bonus", "ac", "off_guard", "hp", "damage", "strikes", "agile"],
                     "tc-out": ["dice", "modifier", "injury_dice", "armour", "tough", "blood"],
                     "hm-hunt": ["pcs", "defence", "life", "doom", "pursuit"]}


def test_tc_armour_menu_names_what_each_armour_takes_off():
    """The whole-fight armour menu names each armour's number, as the chapter's other armour menus
    do: 「표준 갑옷 (−1)」, never a bare 「표준 갑옷」 (issue 29)."""
    menu = next(c for c in views.out_widget().controls if c.name == "armour")
    labels = dict(zip(menu.options, menu.option_labels))
    assert set(labels) == set(tc.ARMOUR.values())
    for name, value in tc.ARMOUR.items():
        assert labels[value] == (f"{name} (\u2212{value})" if value else name)
