"""A whole turn, live (widgets/views/turn.py): every step's odds are the library's at that
moment, typed dice re-resolve the rest of the turn, the seed is deterministic, bad typed dice get a
Korean message naming the step, and one answer is fast. The rule functions the turns read (actual
dice → result) are checked against the library's exact odds by enumerating every roll."""
from __future__ import annotations

import itertools
import time
from collections import Counter
from fractions import Fraction

import pytest

from widgets import trench_crusade as tc
from widgets.errors import RuleInputError
from widgets.views import turn as t
from widgets.views.practice import chance
from widget_checks import check_static_table

TC_TEXTS = ["", "1", "2", "- / 2 3", "- / 5 6", "6 / 6 6 / 6 6 5 4", "6 / 6 6 / 1 1 2 1", "6 / 5 6 / 1 1 2",
            "6 / 6 6 / 4 4 2 1 / 1 1 2 2", "6 / 6 5 / 6 6 6 / 6 6 / 6 6"]


def _tc(text="", seed=0):
    return t.tc_turn(t.Dice(text, seed, t.TC_SLOTS))


# --- the library's rule functions against its exact odds -----------------------------------
@pytest.mark.parametrize("net", range(-3, 4))
def test_success_result_of_every_roll_gives_success_odds(net):
    n = 2 + abs(net)
    counts = Counter(tc.success_result(list(r), net) for r in itertools.product(range(1, 7), repeat=n))
    assert {k: Fraction(v, 6 ** n) for k, v in counts.items()} == \
        {k: p for k, p in tc.success_odds(net).items() if p}


@pytest.mark.parametrize("net,armour,bloodbath", [(0, 0, False), (2, 1, False), (-1, 3, False),
                                                  (1, 1, True), (0, 2, True)])
def test_injury_result_of_every_roll_gives_injury_odds(net, armour, bloodbath):
    n = 2 + bloodbath + abs(net)
    rolls = list(itertools.product(range(1, 7), repeat=n))
    counts = Counter(tc.injury_result(list(r), net, armour, bloodbath=bloodbath)[1] for r in rolls)
    # the kept faces, by sorting (independent of the library's kept_total)
    for r in rolls[::37]:
        kept = sorted(r, reverse=net >= 0)[:2 + bloodbath]
        assert tc.injury_result(list(r), net, armour, bloodbath=bloodbath)[0] == sum(kept) - armour
    assert {k: Fraction(v, len(rolls)) for k, v in counts.items()} == \
        {k: p for k, p in tc.injury_odds(net, armour, bloodbath=bloodbath).items() if p}


@pytest.mark.parametrize("movement,distance", [(6, 10), (6, 7), (4, 12), (5, 9.5), (3, 12)])
def test_charge_reaches_of_every_face_gives_charge_odds(movement, distance):
    assert Fraction(sum(tc.charge_reaches(movement, distance, f) for f in range(1, 7)), 6) == \
        tc.charge_odds(movement, distance)


def test_markers_after_injury_follow_the_chart_text():
    for key, label, _, _ in tc.INJURY_CHART:
        plus = {"no_effect": 0, "out_of_action": 0}.get(key)
        if plus is None:   # "유혈 표식 +1" in the chart's own words
            plus = int(label.split("+")[1][0])
        assert tc.markers_after_injury(2, key) == 2 + plus
    assert tc.markers_after_injury(2, "down", down=True) == 2 + int(tc.INJURY_CHART[2][1].rsplit("+", 1)[1][0])
    with pytest.raises(RuleInputError):
        tc.injury_result([1, 2], dice=1)


# --- the Trench Crusade turn -------------------------------------------------------------------
def _step(turn, head):
    return next(s for s in turn.steps if head in s.head)


@pytest.mark.parametrize("text", TC_TEXTS)
@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_tc_each_steps_odds_are_the_librarys(text, seed):
    turn = _tc(text, seed)
    html = turn.html()
    charge = _step(turn, "루카의 돌격")
    assert dict(charge.odds)["닿음"] == tc.charge_odds(t.TC_MOVEMENT, t.TC_CHARGE_DISTANCE)
    hit = _step(turn, "근접 공격")
    injury = _step(turn, "비토의 부상")
    reply = _step(turn, "비토의 반격")
    back = _step(turn, "루카의 부상")
    face = turn.dice.used[0][0]
    assert turn.numbers["reached"] == (t.TC_MOVEMENT + face >= t.TC_CHARGE_DISTANCE - 1)
    if not turn.numbers["reached"]:
        assert hit.skipped and injury.skipped and reply.skipped and back.skipped
        return
    assert [p for _, p in hit.odds] == list(tc.success_odds(0).values())
    faces = turn.dice.used[1]
    expected_hit = "failure" if sum(faces) < 7 else "critical" if sum(faces) == 12 else "success"
    assert turn.numbers["hit"] == expected_hit
    if expected_hit == "failure":
        assert injury.skipped and turn.numbers["injury"] is None
        return
    net = 1 + (expected_hit == "critical")          # one blood marker spent, +1 for a critical
    assert [p for _, p in injury.odds] == list(tc.injury_odds(net, 1).values())
    rolled = sorted(turn.dice.used[2], reverse=True)
    assert len(rolled) == 2 + net and turn.numbers["injury"][0] == sum(rolled[:2]) - 1
    for _, p in injury.odds:
        assert chance(p) in html
    result = turn.numbers["injury"][1]
    if result == "out_of_action":
        assert reply.skipped and back.skipped
        return
    own = -1 if result == "down" else 0
    markers_left = 2 - 1 + (1 if result in ("down", "minor_hit") else 0)
    reply_net = own - min(1, markers_left)
    assert [p for _, p in reply.odds] == list(tc.success_odds(reply_net).values())
    low = sorted(turn.dice.used[3])[:2] if reply_net < 0 else sorted(turn.dice.used[3])[-2:]
    assert turn.numbers["reply"] == ("failure" if sum(low) < 7 else "critical" if sum(low) >= 12 else "success")
    if turn.numbers["reply"] == "failure":
        assert back.skipped
    else:
        assert [p for _, p in back.odds] == list(
            tc.injury_odds(int(turn.numbers["reply"] == "critical"), 1).values())


def test_tc_default_is_the_issue_turn_charge_critical_down_markers_spent():
    turn = _tc()
    assert turn.numbers["order"] == "ABABB"
    assert turn.numbers["reached"] and turn.numbers["hit"] == "critical"
    assert turn.numbers["injury"][1] == "down"
    assert "유혈 표식 1개를 써서" in turn.html() and "−1 DICE를 붙입니다" in turn.html()


def test_tc_typed_dice_re_resolve_the_rest():
    failed = _tc("1")                                      # 6 + 1 < 9: the charge falls short
    assert not failed.numbers["reached"] and failed.numbers["hit"] is None
    assert "일어나지 않음: 돌격이 닿지 않아" in failed.html()
    missed = _tc("- / 2 3")
    assert missed.numbers["hit"] == "failure" and missed.numbers["injury"] is None
    out = _tc("- / - / 6 6 5 4")                           # 12 − 1: out of action, no reply
    assert out.numbers["injury"] == (11, "out_of_action") and out.numbers["reply"] is None
    # a typed roll leaves the other rolls' seeded dice as they were
    assert _tc("- / 6 6", 5).dice.used[0] == _tc("", 5).dice.used[0]


def test_tc_seed_is_deterministic_and_seeds_differ():
    assert _tc("", 3).html() == _tc("", 3).html()
    assert len({_tc("", s).dice.replay_text() for s in range(1, 30)}) > 20
    # the replay text rolls the very same turn again
    for s in range(1, 30):
        turn = _tc("", s)
        assert _tc(turn.dice.replay_text(), 0).numbers == turn.numbers


@pytest.mark.parametrize("typed,words", [
    ("x", "1번째 칸(루카의 돌격)"), ("1 2", "1번째 칸(루카의 돌격)"), ("7", "1번째 칸(루카의 돌격)"),
    ("−1", "1번째 칸(루카의 돌격)"), ("- / 5 6 7", "2번째 칸(루카의 명중)"),
    ("- / 6 6 / 5 4 2", "3번째 칸(비토의 부상)"), ("1/2/3/4/5/6", "칸이 6개"),
    ("- / 3.5 4", "2번째 칸(루카의 명중)")])
def test_tc_bad_typed_dice_give_a_korean_message_naming_the_step(typed, words):
    answer = t.tc_turn_widget().answer({"dice": typed, "seed": "0"})
    assert words in answer["error"] and "Traceback" not in answer["error"]


def test_tc_full_width_digits_are_read():
    assert _tc("１ / ６ ６").dice.used[0] == (1,)
    assert _tc("- / ６ ６").numbers["hit"] == "critical"


def test_tc_widget_table_and_speed():
    widget = t.tc_turn_widget()
    check_static_table(widget)
    assert widget.origin["factory"] == "tc_turn_widget"
    start = time.perf_counter()
    for s in range(40):
        widget.answer({"dice": "", "seed": str(s)})
    assert (time.perf_counter() - start) / 40 < 0.05
