"""Trench Crusade rules: every worked example of the source and the odds against enumeration."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from widgets import trench_crusade as tc
from widgets.errors import RuleInputError


def enumerate_2d6_kept(net: int, modifier: int = 0, kept: int = 2):
    """All (kept + |net|)D6 rolls, keeping the highest or lowest ``kept`` faces."""
    totals = []
    for roll in itertools.product(range(1, 7), repeat=kept + abs(net)):
        faces = sorted(roll)
        chosen = faces[-kept:] if net >= 0 else faces[:kept]
        totals.append(sum(chosen) + modifier)
    return totals


def chart(total: int) -> str:
    return "failure" if total <= 6 else ("success" if total <= 11 else "critical")


@pytest.mark.parametrize("net", range(-4, 5))
@pytest.mark.parametrize("modifier", [-3, -1, 0, 1, 2, 5])
def test_success_odds_match_enumeration(net, modifier):
    totals = enumerate_2d6_kept(net, modifier)
    expected = {k: Fraction(sum(chart(t) == k for t in totals), len(totals))
                for k in ("failure", "success", "critical")}
    odds = tc.success_odds(dice=net, modifier=modifier)
    assert odds == expected
    assert list(odds) == ["failure", "success", "critical"]
    assert sum(odds.values()) == 1


def test_source_examples_for_plus_and_minus_dice():
    # p.25: 3, 4, 5 rolled with +1 DICE → 4 + 5 = 9; with −1 DICE → 3 + 4 = 7
    assert tc.kept_total([3, 4, 5], dice=+1) == 9
    assert tc.kept_total([3, 4, 5], dice=-1) == 7
    # cancelling: +1 and −1 → 0; +2 and −1 → +1; +1 and −2 → −1
    assert tc.net_dice(plus=1, minus=1) == 0
    assert tc.net_dice(plus=2, minus=1) == 1
    assert tc.net_dice(plus=1, minus=2) == -1


def test_kept_total_needs_the_right_number_of_dice():
    with pytest.raises(RuleInputError, match="rolls 3 dice"):
        tc.kept_total([3, 4], dice=1)
    with pytest.raises(RuleInputError):
        tc.kept_total([3, 4, 7], dice=1)


def test_d3_from_d6_reading():
    assert [tc.d3_from_d6_face(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("net", [-50, -20, 20, 50])
def test_huge_pools_answer_exactly(net):
    odds = tc.success_odds(dice=net)
    assert sum(odds.values()) == 1
    # closed forms: all of 52 dice must be ≤ 6 for −DICE to fail... check monotone extremes instead
    if net > 0:
        assert odds["critical"] == 1 - (Fraction(5, 6) ** (2 + net) + (2 + net) * Fraction(1, 6) * Fraction(5, 6) ** (1 + net))
    else:
        # the two lowest faces are both 6 only if every die shows 6
        assert odds["critical"] == Fraction(1, 6) ** (2 - net)


@pytest.mark.parametrize("bad", ["1", 1.5, None, True, tc.MAX_NET_DICE + 1, -tc.MAX_NET_DICE - 1])
def test_success_odds_rejects_bad_dice(bad):
    with pytest.raises(ValueError) as err:
        tc.success_odds(dice=bad)
    assert err.value.korean


@pytest.mark.parametrize("bad", [101, -101, "x", 0.5])
def test_success_odds_rejects_bad_modifier(bad):
    with pytest.raises(ValueError):
        tc.success_odds(modifier=bad)


def injury_band(total: int) -> str:
    return ("no_effect" if total <= 1 else "minor_hit" if total <= 6 else
            "down" if total <= 8 else "out_of_action")


@pytest.mark.parametrize("net", range(-3, 4))
@pytest.mark.parametrize("armour", [0, 1, 3])
@pytest.mark.parametrize("bloodbath", [False, True])
def test_injury_odds_match_enumeration(net, armour, bloodbath):
    totals = enumerate_2d6_kept(net, -armour, kept=3 if bloodbath else 2)
    expected = {k: Fraction(sum(injury_band(t) == k for t in totals), len(totals))
                for k in ("no_effect", "minor_hit", "down", "out_of_action")}
    assert tc.injury_odds(dice=net, armour=armour, bloodbath=bloodbath) == expected


def test_bloodbath_with_plus_two_rolls_five_keeps_three():
    # source note: a normal injury roll with bloodbath and +2 DICE rolls five dice, keeps 3 highest
    dist = tc.injury_roll(dice=2, bloodbath=True)
    totals = enumerate_2d6_kept(2, 0, kept=3)
    assert len(totals) == 6**5
    assert dist.probabilities() == {t: Fraction(totals.count(t), len(totals)) for t in set(totals)}


def test_bloodbath_costs():
    assert tc.bloodbath_available(6) and not tc.bloodbath_available(5)
    assert tc.bloodbath_available(3, down=True) and not tc.bloodbath_available(2, down=True)


def test_markers_turn_into_dice_and_cancel():
    assert tc.markers_to_dice(base_dice=0, blood_spent=2) == -2
    assert tc.markers_to_dice(base_dice=0, blessing_spent=2) == 2
    assert tc.markers_to_dice(base_dice=1, blood_spent=1, blessing_spent=1) == 1
    with pytest.raises(RuleInputError):
        tc.markers_to_dice(blood_spent=3, blood_available=2)


@pytest.mark.parametrize("movement,distance", [(6, 10), (6, 7), (5, 12), (4, 3), (6, 9.5), (8, 12)])
def test_charge_odds_match_enumeration(movement, distance):
    reach = [movement + face for face in range(1, 7)]
    expected = Fraction(sum(r >= Fraction(str(distance)) - 1 for r in reach), 6)
    assert tc.charge_odds(movement, distance) == expected


def test_charge_target_must_be_within_12_inches():
    with pytest.raises(RuleInputError, match="within 12"):
        tc.charge_odds(6, 12.5)


def test_who_starts_and_alternation():
    assert tc.first_player(5, 7) == {"A": 1, "B": 0}
    assert tc.first_player(9, 7) == {"A": 0, "B": 1}
    assert tc.first_player(6, 6) == {"A": Fraction(1, 2), "B": Fraction(1, 2)}
    order = tc.activation_order(3, 5, "A")
    assert order == ["A", "B", "A", "B", "A", "B", "B", "B"]
    assert order.count("A") == 3 and order.count("B") == 5


def test_risky_chain_and_fire_step():
    one = tc.success_odds()["success"] + tc.success_odds()["critical"]
    assert tc.risky_chain_odds(risky_actions=1) == one == Fraction(7, 12)
    assert tc.risky_chain_odds(risky_actions=2) == one**2
    assert tc.risky_chain_odds(risky_actions=0) == 1  # a fire-step climb is not risky


@pytest.mark.parametrize("num,den", [(7, 2), (6, 2), (1, 3), (0, 5), (-7, 2), (13, 4)])
def test_fractions_round_up(num, den):
    import math
    assert tc.round_up(num, den) == math.ceil(Fraction(num, den))


def test_ranged_modifiers():
    assert tc.ranged_dice(12, 24) == 0          # exactly half range is not long range
    assert tc.ranged_dice(12.5, 24) == -1
    assert tc.ranged_dice(20, 24, cover=True) == -2
    assert tc.ranged_dice(5, 24, elevated=True) == 1
    with pytest.raises(RuleInputError):
        tc.ranged_dice(25, 24)


@pytest.mark.parametrize("movement,distance", [(6, 10), (6, 7), (4, 12), (5, 6.5), (8, 3), (4, 11)])
def test_charge_roll_needed_is_the_smallest_reaching_face(movement, distance):
    reach = [f for f in range(0, 7) if movement + f >= Fraction(str(distance)) - 1]
    assert tc.charge_roll_needed(movement, distance) == (min(reach) if reach else 7)


def test_risky_rolls_table():
    # dash and climb are risky (one roll each); a fire-step climb is not (p.28)
    assert tc.RISKY_ROLLS["fire_step"] == 0 and tc.RISKY_ROLLS["dash"] == tc.RISKY_ROLLS["climb"] == 1


def injury_result(total: int) -> str:
    return ("no_effect" if total <= 1 else "minor_hit" if total <= 6 else
            "down" if total <= 8 else "out_of_action")


@pytest.mark.parametrize("net", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("armour", [0, 3])
@pytest.mark.parametrize("target_down", [False, True])
def test_attack_odds_match_enumeration_of_both_rolls(net, armour, target_down):
    """Success roll, then the injury roll it leads to (critical → +1 DICE; Down target → +1)."""
    counts: dict[str, Fraction] = {}
    attack = enumerate_2d6_kept(net)
    for total in attack:
        result = chart(total)
        if result == "failure":
            counts["miss"] = counts.get("miss", 0) + Fraction(1, len(attack))
            continue
        extra = int(target_down) + (1 if result == "critical" else 0)
        injuries = enumerate_2d6_kept(extra, -armour)
        for injury in injuries:
            key = injury_result(injury)
            counts[key] = counts.get(key, 0) + Fraction(1, len(attack) * len(injuries))
    odds = tc.attack_odds(net, armour, target_down)
    assert {k: v for k, v in odds.items() if v} == counts
    assert sum(odds.values()) == 1 and tuple(odds) == tc.ATTACK_RESULTS


@pytest.mark.parametrize("net", range(-5, 6))
@pytest.mark.parametrize("kept", [2, 3, 4])
def test_roll_size_is_what_enumeration_throws(net, kept):
    rolled, keep = tc.roll_size(net, kept)
    assert keep == kept and rolled == kept + abs(net)
    assert len(enumerate_2d6_kept(net, kept=kept)) == 6 ** rolled


# --- 성공 이상: the total a GM asks for first, counted over every roll ---------------------------
@pytest.mark.parametrize("net", range(-3, 4))
@pytest.mark.parametrize("modifier", [-6, -1, 0, 2, 5])
def test_success_or_better_counts_every_roll_of_seven_or_more(net, modifier):
    totals = enumerate_2d6_kept(net, modifier)
    expected = Fraction(sum(t >= 7 for t in totals), len(totals))
    odds = tc.success_odds(net, modifier)
    assert tc.success_or_better(odds) == expected
    assert tc.success_or_better(odds) == odds["success"] + odds["critical"]


@pytest.mark.parametrize("bad", [None, {"success": Fraction(1)}, tc.injury_odds(),
                                 {"failure": Fraction(1, 2), "success": Fraction(1, 2), "critical": Fraction(1, 2)}])
def test_success_or_better_refuses_other_tables(bad):
    with pytest.raises(RuleInputError):
        tc.success_or_better(bad)
