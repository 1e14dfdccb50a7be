"""PF2e attack rules: every number seed 002 states, degree odds against a brute-force oracle,
the stacking / AC / DC formulas, and bad input."""
from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from widgets import pf2e
from widgets.errors import RuleInputError
from widgets.pf2e import (DEGREES, Modifier, Rank, armor_class, attack_bonus, degree_odds,
                          multiple_attack_penalty, proficiency_bonus, range_penalty, save_odds,
                          spell_dc, stack_modifiers, strike_odds, strike_sequence)

HANGUL = re.compile("[가-힣]")


def raises_rule_error(call, *args, **kwargs) -> RuleInputError:
    with pytest.raises(RuleInputError) as err:
        call(*args, **kwargs)
    assert str(err.value) and HANGUL.search(err.value.korean)
    return err.value


# --- range penalty: seed 002 crossbow example (increment 120 ft) ---------------------------
@pytest.mark.parametrize("distance,penalty", [
    (0, 0), (120, 0),            # "120 ft 이내 … 페널티는 적용받지 않습니다"
    (121, -2), (240, -2),        # "120 ~ 240 ft … -2"
    (241, -4), (360, -4),        # "240 ~ 360 ft … -4"
    (720, -10),                  # "최대 사거리는 … 720 ft … -10"
])
def test_crossbow_example(distance, penalty):
    assert range_penalty(distance, 120) == penalty


def test_crossbow_beyond_six_increments_is_out_of_range():
    err = raises_rule_error(range_penalty, 721, 120)
    assert "out of range" in str(err) and "사거리 밖입니다" in err.korean


@pytest.mark.parametrize("increment", [5, 10, 30, 60, 100, 120, 150])
@pytest.mark.parametrize("k", range(1, 7))
def test_range_penalty_every_increment(increment, k):
    # "사거리 단위만큼 멀어질 때마다 -2씩", up to six increments
    assert range_penalty(increment * k, increment) == -2 * (k - 1)
    assert range_penalty(increment * (k - 1) + 1, increment) == -2 * (k - 1)
    if k == 6:
        raises_rule_error(range_penalty, increment * 6 + 1, increment)


@pytest.mark.parametrize("distance,increment", [
    (-1, 120), (-0.5, 120), (100, 0), (100, -30), ("100", 120), (100, "120"), (True, 120),
    (100, True), (float("nan"), 120), (100, float("nan")), (float("inf"), 120), (None, 120),
    (10**9, 120), (100, 10**9),
])
def test_range_penalty_bad_input(distance, increment):
    raises_rule_error(range_penalty, distance, increment)


def test_range_penalty_float_distance_is_exact():
    assert range_penalty(120.0, 120) == 0
    assert range_penalty(120.5, 120) == -2


# --- multiple attack penalty ------------------------------------------------------------------
@pytest.mark.parametrize("number,plain,agile", [(1, 0, 0), (2, -5, -4), (3, -10, -8)])
def test_map_as_stated(number, plain, agile):
    assert multiple_attack_penalty(number) == plain
    assert multiple_attack_penalty(number, agile=False) == plain
    assert multiple_attack_penalty(number, agile=True) == agile


@pytest.mark.parametrize("number", [4, 5, 10, 100])
def test_map_stays_at_third_attack_value(number):
    assert multiple_attack_penalty(number) == multiple_attack_penalty(3)
    assert multiple_attack_penalty(number, True) == multiple_attack_penalty(3, True)


LONGSWORD, SHORTSWORD = False, True  # seed 002: the shortsword is agile (날렵함)


@pytest.mark.parametrize("weapons", list(itertools.product([LONGSWORD, SHORTSWORD], repeat=3)))
@pytest.mark.parametrize("bonus", [0, 7, -1])
def test_longsword_shortsword_example(weapons, bonus):
    """Seed 002: first attack no penalty with either; second −5 longsword / −4 shortsword;
    third −10 / −8, whatever the earlier attacks used."""
    stated = {LONGSWORD: [0, -5, -10], SHORTSWORD: [0, -4, -8]}
    totals = strike_sequence([(bonus, agile) for agile in weapons])
    assert totals == [bonus + stated[agile][i] for i, agile in enumerate(weapons)]


def test_reactions_take_no_map():
    strikes = [(5, False), (5, True), (5, False)]
    assert strike_sequence(strikes, own_turn=False) == [5, 5, 5]
    assert strike_sequence([]) == []


@pytest.mark.parametrize("number", [0, -1, 1.5, "2", True, None, 101, 10**12, float("nan")])
def test_map_bad_attack_number(number):
    raises_rule_error(multiple_attack_penalty, number)


@pytest.mark.parametrize("agile", ["yes", 1, 0, None, "False"])
def test_map_agile_must_be_bool(agile):
    raises_rule_error(multiple_attack_penalty, 2, agile)


@pytest.mark.parametrize("strikes", [
    "7,7", 7, None, [(7,)], [(7, False, 1)], [("7", False)], [(7, "agile")], [7, 7],
    [(10**6, False)], [(1, False)] * 101,
])
def test_strike_sequence_bad_input(strikes):
    raises_rule_error(strike_sequence, strikes)


def test_strike_sequence_own_turn_must_be_bool():
    raises_rule_error(strike_sequence, [(1, False)], own_turn="no")


# --- degrees of success: independent brute-force oracle ---------------------------------------
def oracle(modifier: int, dc: int) -> dict[str, Fraction]:
    """Roll every d20 face by hand, with the rules as written in rules-notes.md."""
    ladder = ["critical_failure", "failure", "success", "critical_success"]
    counts = dict.fromkeys(ladder, 0)
    for face in range(1, 21):
        total = face + modifier
        if total >= dc + 10:
            name = "critical_success"
        elif total >= dc:
            name = "success"
        elif total <= dc - 10:
            name = "critical_failure"
        else:
            name = "failure"
        step = 1 if face == 20 else -1 if face == 1 else 0
        position = min(max(ladder.index(name) + step, 0), len(ladder) - 1)
        counts[ladder[position]] += 1
    return {name: Fraction(counts[name], 20) for name in ladder}


GRID = [(m, dc) for m in range(-15, 46, 3) for dc in range(0, 61, 4)] + \
       [(m, 20) for m in range(-15, 35)]


@pytest.mark.parametrize("modifier,dc", GRID)
def test_degree_odds_matches_oracle(modifier, dc):
    odds = degree_odds(modifier, dc)
    assert odds == oracle(modifier, dc)
    assert list(odds) == ["critical_success", "success", "failure", "critical_failure"]
    assert list(odds) == list(DEGREES)
    assert sum(odds.values()) == 1
    assert all(isinstance(p, Fraction) for p in odds.values())


@pytest.mark.parametrize("modifier,dc", [
    ("5", 15), (5, "15"), (True, 15), (5, False), (1.5, 15), (float("nan"), 15), (None, 15),
    (10**6, 15), (5, 10**6), (-10**6, 15), (5, -10**6),
])
def test_degree_odds_bad_input(modifier, dc):
    raises_rule_error(degree_odds, modifier, dc)


# --- proficiency ------------------------------------------------------------------------------
NAMES = {
    Rank.UNTRAINED: ["untrained", "Untrained", "미훈련", "미훈련 등급"],
    Rank.TRAINED: ["trained", "TRAINED", "훈련", "훈련 등급"],
    Rank.EXPERT: ["expert", "전문", "전문 등급"],
    Rank.MASTER: ["master", "달인", "달인 등급"],
    Rank.LEGENDARY: ["legendary", "전설", " 전설 등급 "],
}
ADDS = {Rank.TRAINED: 2, Rank.EXPERT: 4, Rank.MASTER: 6, Rank.LEGENDARY: 8}  # rules-notes


@pytest.mark.parametrize("level", range(1, 21))
@pytest.mark.parametrize("rank", list(Rank))
def test_proficiency_bonus(rank, level):
    expected = 0 if rank is Rank.UNTRAINED else level + ADDS[rank]
    assert proficiency_bonus(rank, level) == expected
    for name in NAMES[rank]:
        assert proficiency_bonus(name, level) == expected


@pytest.mark.parametrize("rank,level", [
    ("novice", 1), (2, 1), (None, 1), (True, 1), ("trained", 0), ("trained", 21),
    ("trained", "3"), ("trained", True), ("trained", 2.5), ("untrained", -1),
])
def test_proficiency_bad_input(rank, level):
    raises_rule_error(proficiency_bonus, rank, level)


# --- typed bonuses and penalties (supplementary, Player Core) ---------------------------------
TYPES = ["circumstance", "status", "item"]


@pytest.mark.parametrize("kind", TYPES)
@pytest.mark.parametrize("values", list(itertools.product([1, 2, 3, -1, -2, -4], repeat=3)))
def test_same_type_takes_best_bonus_and_worst_penalty(kind, values):
    bonuses = [v for v in values if v > 0]
    penalties = [v for v in values if v < 0]
    expected = max(bonuses, default=0) + min(penalties, default=0)
    assert stack_modifiers([(kind, v) for v in values]) == expected


@pytest.mark.parametrize("values", list(itertools.product([-1, -2, -5, -10], repeat=3)))
def test_untyped_penalties_all_add(values):
    # seed 002 names MAP and range penalty as the untyped (종류 미지정) penalties; both apply
    assert stack_modifiers([("untyped", v) for v in values]) == sum(values)


def test_different_types_add():
    mods = [("circumstance", 1), ("status", 2), ("item", 3), ("circumstance", -1),
            ("status", -2), ("item", -3), ("untyped", -4)]
    assert stack_modifiers(mods) == 1 + 2 + 3 - 1 - 2 - 3 - 4


@pytest.mark.parametrize("korean,english", [("상황", "circumstance"), ("상태", "status"),
                                            ("물품", "item"), ("종류 미지정", "untyped")])
def test_korean_type_names(korean, english):
    assert Modifier(korean, -1) == Modifier(english, -1)


@pytest.mark.parametrize("kind,value", [("untyped", 1), ("luck", 1), (None, 1), ("item", "2"),
                                        ("item", 1.5), ("item", True), ("status", 10**6)])
def test_bad_modifiers(kind, value):
    raises_rule_error(Modifier, kind, value)
    raises_rule_error(stack_modifiers, [(kind, value)])


@pytest.mark.parametrize("mods", ["item 1", 3, [("item",)], [("item", 1, 2)], None])
def test_bad_modifier_lists(mods):
    raises_rule_error(stack_modifiers, mods)


# --- attack bonus, AC, spell DC (seed 002 formulas) -------------------------------------------
ABILITY_GRID = list(itertools.product([-1, 0, 3, 5], [-1, 2, 4], [0, 3, 9]))


@pytest.mark.parametrize("strength,dexterity,prof", ABILITY_GRID)
def test_attack_bonus_formulas(strength, dexterity, prof):
    mods = [("circumstance", 1), ("item", 2), ("status", -1)]
    extra = stack_modifiers(mods)
    common = dict(strength=strength, dexterity=dexterity, spellcasting=dexterity + 1,
                  proficiency=prof, modifiers=mods)
    assert attack_bonus("melee", **common) == strength + prof + extra
    assert attack_bonus("근접", **common, finesse=True) == max(strength, dexterity) + prof + extra
    assert attack_bonus("ranged", **common) == dexterity + prof + extra
    assert attack_bonus("원거리", **common, finesse=True) == dexterity + prof + extra
    assert attack_bonus("spell", **common) == dexterity + 1 + prof + extra
    assert attack_bonus("주문", **common) == attack_bonus("spell", **common)


@pytest.mark.parametrize("kwargs", [
    dict(kind="thrown"), dict(kind=None), dict(kind="melee", strength="4"),
    dict(kind="melee", strength=50), dict(kind="melee", finesse="yes"),
    dict(kind="melee", proficiency=1.5), dict(kind="melee", modifiers=[("untyped", 2)]),
])
def test_attack_bonus_bad_input(kwargs):
    kind = kwargs.pop("kind")
    raises_rule_error(attack_bonus, kind, **kwargs)


@pytest.mark.parametrize("dex,cap,prof,item", list(itertools.product(
    [-1, 0, 2, 5], [None, 0, 1, 3], [0, 3, 7], [0, 1, 4])))
def test_armor_class_formula(dex, cap, prof, item):
    capped = dex if cap is None else min(dex, cap)
    assert armor_class(dex, cap, prof, item) == 10 + capped + prof + item
    # the armor's item bonus is an item bonus: another item bonus does not add to it
    assert armor_class(dex, cap, prof, item, [("item", 2)]) == 10 + capped + prof + max(item, 2)
    assert armor_class(dex, cap, prof, item, off_guard=True) == 10 + capped + prof + item - 2


def test_off_guard_is_a_circumstance_penalty():
    # a worse circumstance penalty already there: off-guard's −2 does not add to it
    assert armor_class(0, None, 0, other=[("circumstance", -3)], off_guard=True) == 10 - 3
    # a status penalty does stack with it
    assert armor_class(0, None, 0, other=[("status", -1)], off_guard=True) == 10 - 1 - 2


@pytest.mark.parametrize("args", [("2", None, 3), (2, -1, 3), (2, "1", 3), (2, None, "3"),
                                  (2, None, 3, -1), (2, None, 3, 0, [("item", 1)], "yes")])
def test_armor_class_bad_input(args):
    raises_rule_error(armor_class, *args)


@pytest.mark.parametrize("ability,prof", list(itertools.product([-1, 0, 4, 7], [0, 3, 12])))
def test_spell_dc_formula(ability, prof):
    assert spell_dc(ability, prof) == 10 + ability + prof
    mods = [("status", 1), ("status", 2), ("circumstance", -1)]
    assert spell_dc(ability, prof, mods) == 10 + ability + prof + stack_modifiers(mods)


@pytest.mark.parametrize("args", [("4", 3), (4, None), (True, 3), (4, 3, [("untyped", 1)])])
def test_spell_dc_bad_input(args):
    raises_rule_error(spell_dc, *args)


# --- strike and save odds are thin wrappers over degree_odds ---------------------------------
@pytest.mark.parametrize("number,agile,distance,off_guard", list(itertools.product(
    [1, 2, 3], [False, True], [None, 100, 130, 700], [False, True])))
def test_strike_odds_wraps_degree_odds(number, agile, distance, off_guard):
    bonus, ac, increment = 9, 21, 120
    total = bonus + multiple_attack_penalty(number, agile)
    if distance is not None:
        total += range_penalty(distance, increment)
    expected = degree_odds(total, ac - 2 if off_guard else ac)
    got = strike_odds(bonus, ac, attack_number=number, agile=agile, distance_ft=distance,
                      increment_ft=increment if distance is not None else None,
                      off_guard=off_guard)
    assert got == expected


@pytest.mark.parametrize("kwargs", [dict(distance_ft=100), dict(increment_ft=100),
                                    dict(distance_ft=721, increment_ft=120),
                                    dict(off_guard=1), dict(attack_number=0)])
def test_strike_odds_bad_input(kwargs):
    raises_rule_error(strike_odds, 9, 21, **kwargs)


@pytest.mark.parametrize("modifier,dc", [(0, 15), (7, 20), (12, 17), (-2, 30)])
def test_save_odds(modifier, dc):
    assert save_odds(modifier, dc) == oracle(modifier, dc)


def test_supplementary_rules_are_labelled():
    for text in (pf2e.STACKING_RULE, pf2e.DEGREE_RULE, pf2e.OFF_GUARD_RULE):
        assert "보충 규칙" in text and "Player Core" in text


# --- 명중 (대성공 포함): the total a GM asks for first, counted face by face ------------------------
@pytest.mark.parametrize("bonus,ac", [(10, 18), (6, 30), (22, 14), (0, 40), (40, 10), (-5, 12)])
@pytest.mark.parametrize("number,agile", [(1, False), (2, False), (2, True), (3, True)])
def test_success_or_better_counts_the_faces_that_hit(bonus, ac, number, agile):
    total = bonus + {1: 0, 2: -4 if agile else -5, 3: -8 if agile else -10}[number]
    hits = 0
    for face in range(1, 21):   # this face's degree by hand: 2 crit, 1 success, 0 failure, -1 crit fail
        value = face + total
        step = 2 if value >= ac + 10 else 1 if value >= ac else -1 if value <= ac - 10 else 0
        step += 1 if face == 20 else -1 if face == 1 else 0   # natural 20 / 1 move one step
        hits += step >= 1
    odds = strike_odds(bonus, ac, attack_number=number, agile=agile)
    assert pf2e.success_or_better(odds) == Fraction(hits, 20)
    assert pf2e.success_or_better(odds) == odds["critical_success"] + odds["success"]


@pytest.mark.parametrize("bad", [None, {}, {"success": Fraction(1)}, oracle(0, 10) | {"success": 0.5},
                                 {k: Fraction(1, 4) for k in ("fumble", "failure", "success", "special")}])
def test_success_or_better_refuses_other_tables(bad):
    raises_rule_error(pf2e.success_or_better, bad)
