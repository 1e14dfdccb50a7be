"""Tests for widgets.underface: the source's worked examples, its tables, and exact odds checked
against brute-force enumeration (D100 pairs, dice faces) written independently here."""
from __future__ import annotations

import dataclasses
import itertools
import math
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import widgets.underface as uf
from widgets.errors import RuleInputError
from widgets.underface import (ARMOR, MELEE_WEAPONS, RANGED_WEAPONS, SHIELDS, WEAPONS, Character,
                               CheckSettings, check_odds, damage_after_armor, damage_distribution,
                               death_threshold, effective_target, first_aid, hit_hp_states,
                               hp_after_hit, movement, opposed_odds, range_difficulty, turn_order,
                               weeks_to_recover)

HANGUL = re.compile("[가-힣]")
SEED = Path("/work/shared/seeds/000_d83c413e3dcb3bfd.txt")


def up(x: int, n: int = 2) -> int:
    return math.ceil(x / n) if x >= 0 else -math.ceil(-x / n)


# --- worked examples stated by the source --------------------------------------------

def test_hp_12_armor_2_damage_6_leaves_hp_8():
    assert damage_after_armor(6, 2) == 4
    assert hp_after_hit(12, 6, armor=2) == 8


def test_damage_never_negative():
    assert damage_after_armor(1, 5) == 0


@pytest.mark.parametrize("max_hp,threshold", [(11, -6), (12, -6)])
def test_death_threshold_examples(max_hp, threshold):
    assert death_threshold(max_hp) == threshold


@pytest.mark.parametrize("max_hp", range(1, 60))
def test_death_threshold_is_minus_half_rounded_up(max_hp):
    assert death_threshold(max_hp) == -math.ceil(max_hp / 2)


def test_dodge_60_in_bulletproof_vest_is_55():
    assert ARMOR["방탄조끼"].penalty == 5
    assert effective_target(60, penalty="방탄조끼") == 55
    assert effective_target(60, penalty=5) == 55


# --- tables against the source text ----------------------------------------------------

def _source_tables() -> list[list[list[str]]]:
    if not SEED.exists():
        pytest.skip("source text not available")
    tables, current = [], []
    for line in SEED.read_text(encoding="utf-8").splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-") for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def test_tables_match_source_text():
    melee, ranged, armor, shields = _source_tables()
    hands = {"한손": 1, "양손": 2}
    assert [r[0] for r in melee[1:]] == list(MELEE_WEAPONS)
    for name, skill, chance, dmg, hand in melee[1:]:
        w = MELEE_WEAPONS[name]
        assert (w.skill, w.base_chance, w.damage, w.hands, w.hands_label) == \
            (skill, int(chance), dmg, hands[hand], hand)
    assert [r[0] for r in ranged[1:]] == list(RANGED_WEAPONS)
    for name, skill, chance, dmg, hand, rng in ranged[1:]:
        w = RANGED_WEAPONS[name]
        assert (w.skill, w.base_chance, w.damage, w.hands, f"{w.range_m}m") == \
            (skill, int(chance), dmg, hands[hand], rng)
    assert [r[0] for r in armor[1:]] == list(ARMOR)
    for name, value, penalty in armor[1:]:
        a = ARMOR[name]
        assert (a.armor_value, a.penalty_label) == (int(value), penalty)
    assert [r[0] for r in shields[1:]] == list(SHIELDS)
    for name, kind, dmg in shields[1:]:
        assert (SHIELDS[name].shield_class, SHIELDS[name].damage) == (kind, dmg)


def test_weapon_tables_spot_checks_and_merge():
    assert MELEE_WEAPONS["파이크"].damage == "1D10+2+DB"
    assert RANGED_WEAPONS["롱보우"].range_m == 100
    assert (ARMOR["판금 갑옷"].armor_value, ARMOR["판금 갑옷"].penalty) == (6, 25)
    assert len(WEAPONS) == len(MELEE_WEAPONS) + len(RANGED_WEAPONS) + len(SHIELDS)
    assert all(w.range_m is None for w in MELEE_WEAPONS.values())
    assert all(w.skill == "방패" for w in SHIELDS.values())
    for weapon in WEAPONS.values():
        assert weapon.expr is not None  # every printed damage string parses


# --- damage distributions against dice enumeration -------------------------------------

_FORM = re.compile(r"(\d)D(\d+)(÷2)?([+-]\d)?(\+(½)?DB)?")


def brute_weapon(damage: str, db_sides: list[int], db_sign: int, armor: int,
                 special: bool) -> dict[int, Fraction]:
    """Enumerate weapon dice × DB dice for the printed damage forms, independently."""
    count, sides, halve, const, has_db, half_db = _FORM.fullmatch(damage).groups()
    count, sides, const = int(count), int(sides), int(const or 0)

    def weapon(faces):
        total = sum(faces)
        return (math.ceil(total / 2) if halve else total) + const

    def bonus(faces):
        if not has_db:
            return 0
        roll = sum(faces)
        return db_sign * (math.ceil(roll / 2) if half_db else roll)

    weapon_rolls = list(itertools.product(range(1, sides + 1), repeat=count))
    db_rolls = list(itertools.product(*(range(1, s + 1) for s in db_sides)))
    top = max(weapon(f) for f in weapon_rolls)
    counts = Counter()
    for wf in ([None] if special else weapon_rolls):
        for df in db_rolls:
            raw = (top if special else weapon(wf)) + bonus(df)
            counts[max(0, raw - armor)] += 1
    total = sum(counts.values())
    return {v: Fraction(n, total) for v, n in counts.items()}


DBS = [("0", [], 1), ("-1D4", [4], -1), ("+1D6", [6], 1), ("+2D6", [6, 6], 1)]


@pytest.mark.parametrize("name", list(WEAPONS))
@pytest.mark.parametrize("special", [False, True])
def test_damage_distribution_matches_enumeration(name, special):
    for (db, db_sides, sign), (armor, armor_value) in itertools.product(
            DBS, [(0, 0), ("가죽 갑옷", 2), ("판금 갑옷", 6)]):
        got = damage_distribution(name, armor=armor, db=db, special=special)
        expected = brute_weapon(WEAPONS[name].damage, db_sides, sign, armor_value, special)
        assert got.probabilities() == expected, (db, armor)
        assert sum(got.probabilities().values()) == 1


def test_damage_distribution_accepts_gm_expression():
    assert damage_distribution("1D10+1D4", armor=3) == damage_distribution("1d10 + 1d4", armor=3)


@pytest.mark.parametrize("weapon,hp,max_hp", [("그레이트 소드", 12, 12), ("맨손", 3, 11), ("라이플", 6, 9)])
def test_hit_hp_states_match_enumeration(weapon, hp, max_hp):
    loss = damage_distribution(weapon, armor=1, db="+1D4")
    threshold = -math.ceil(max_hp / 2)
    expected = Counter()
    for v, p in loss.probabilities().items():
        left = hp - v
        expected["standing" if left >= 1 else
                 "at_death_threshold" if left <= threshold else "unconscious"] += p
    got = hit_hp_states(weapon, hp, max_hp, armor=1, db="+1D4")
    assert sum(got.values()) == 1
    assert all(got[k] == expected[k] for k in got)


# --- checks and opposed checks against D100 enumeration ----------------------------------

def brute_target(skill, hard, penalty, s: CheckSettings) -> int:
    target = max(0, skill - penalty)
    if hard:
        target = math.ceil(target / s.hard_divisor) if s.hard == "divide" \
            else max(0, target - s.hard_penalty)
    return target


def brute_roll(roll: int, target: int, s: CheckSettings):
    """(success, special, margin) of one roll, from the rules-notes wording."""
    fumble = roll >= s.fumble_from
    success = roll <= target and not fumble
    special = success and roll <= math.ceil(target / s.special_divisor)
    margin = (target - roll) if s.margin == "target_minus_roll" else roll
    return success, special, margin


def brute_opposed(att, dfn, s: CheckSettings) -> dict[str, Fraction]:
    counts = Counter()
    d_rolls = range(1, 101) if dfn is not None else [None]
    for a, d in itertools.product(range(1, 101), d_rolls):
        a_ok, a_sp, a_m = brute_roll(a, att, s)
        d_ok, d_sp, d_m = brute_roll(d, dfn, s) if d is not None else (False, False, 0)
        if a_ok and not d_ok:
            winner = "attacker"
        elif d_ok and not a_ok:
            winner = "defender"
        elif a_ok and d_ok:
            winner = "attacker" if a_m >= d_m else "defender"   # tie → attacker (source)
        else:
            winner = None
        if winner == "attacker":
            counts["attacker_wins_special" if a_sp else "attacker_wins"] += 1
        elif winner == "defender":
            counts["defender_wins_special" if d_sp else "defender_wins"] += 1
        else:
            counts["both_fail"] += 1
    total = sum(counts.values())
    return {k: Fraction(counts[k], total) for k in uf.OUTCOME_LABELS}


SETTINGS = {
    "default": CheckSettings(),
    "fumble100": CheckSettings(fumble_from=100),
    "nofumble": CheckSettings(fumble_from=101),
    "special10": CheckSettings(special_divisor=10),
    "hard_minus20": CheckSettings(hard="penalty", hard_penalty=20),
    "hard_third": CheckSettings(hard_divisor=3),
    "margin_roll": CheckSettings(margin="roll"),
}
OPPOSED = [  # attack, defense, attack_hard, defense_hard, defense_penalty
    (50, 50, False, False, 0), (60, 60, False, False, 5), (60, 60, False, False, "사슬 갑옷"),
    (0, 50, False, False, 0), (45, 0, False, False, 0), (100, 100, False, False, 0),
    (150, 30, False, False, 0), (20, 90, False, False, 0), (75, 40, True, False, 0),
    (40, 75, False, True, 10), (99, 98, True, True, 0), (35, None, False, False, 0),
    (97, None, True, False, 0),
]


@pytest.mark.parametrize("settings_name", list(SETTINGS))
@pytest.mark.parametrize("att,dfn,att_hard,def_hard,def_pen", OPPOSED)
def test_opposed_odds_match_d100_pairs(settings_name, att, dfn, att_hard, def_hard, def_pen):
    s = SETTINGS[settings_name]
    pen = ARMOR[def_pen].penalty if isinstance(def_pen, str) else def_pen
    att_t = brute_target(att, att_hard, 0, s)
    def_t = None if dfn is None else brute_target(dfn, def_hard, pen, s)
    got = opposed_odds(att, dfn, attack_hard=att_hard, defense_hard=def_hard,
                       defense_penalty=def_pen, settings=s)
    assert got == brute_opposed(att_t, def_t, s)
    assert sum(got.values()) == 1
    assert list(got) == list(uf.OUTCOME_LABELS)


def test_attack_penalty_applies_to_attacker():
    s = CheckSettings()
    got = opposed_odds(60, 40, attack_penalty="진압복")
    assert got == brute_opposed(brute_target(60, False, 10, s), 40, s)


@pytest.mark.parametrize("settings_name", list(SETTINGS))
@pytest.mark.parametrize("skill,hard,penalty", [(0, False, 0), (1, False, 0), (50, False, 0),
                                                (60, False, 5), (60, True, 5), (99, False, 0),
                                                (130, True, 0), (200, False, 25)])
def test_check_odds_match_d100(settings_name, skill, hard, penalty):
    s = SETTINGS[settings_name]
    target = brute_target(skill, hard, penalty, s)
    counts = Counter()
    for roll in range(1, 101):
        ok, special, _ = brute_roll(roll, target, s)
        counts["special" if special else "success" if ok else
               "fumble" if roll >= s.fumble_from else "failure"] += 1
    got = check_odds(skill, hard=hard, penalty=penalty, settings=s)
    assert got == {k: Fraction(counts[k], 100) for k in uf.CHECK_RESULTS}
    assert sum(got.values()) == 1


def test_settings_defaults_follow_rules_notes_and_are_labelled():
    s = CheckSettings()
    assert (s.fumble_from, s.special_divisor, s.hard, s.hard_divisor, s.margin) == \
        (96, 5, "divide", 2, "target_minus_roll")
    rows = s.rows()
    assert all(HANGUL.search(label) and value for label, value in rows)
    assert sum("(가정)" in label for label, _ in rows) >= 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.fumble_from = 100


@pytest.mark.parametrize("kwargs", [{"fumble_from": 1}, {"fumble_from": 102}, {"special_divisor": 0},
                                    {"hard": "halve"}, {"hard_divisor": 0}, {"hard_penalty": -5},
                                    {"margin": "biggest"}, {"fumble_from": 96.5}])
def test_bad_settings_raise(kwargs):
    with pytest.raises(RuleInputError) as err:
        CheckSettings(**kwargs)
    assert HANGUL.search(err.value.korean)


# --- turn order -------------------------------------------------------------------------

def precedes(x: Character, y: Character) -> bool | None:
    """True if the source says x moves before y, False if after, None on a full tie."""
    if x.dex != y.dex:
        return x.dex > y.dex
    if x.ranged != y.ranged:
        return x.ranged
    if x.weapon_skill != y.weapon_skill:
        return x.weapon_skill > y.weapon_skill
    if x.pc != y.pc:
        return x.pc
    return None


@pytest.mark.parametrize("first,second", [
    (Character("빠름", 14), Character("느림", 12, ranged=True, weapon_skill=90)),      # DEX first
    (Character("사수", 12, ranged=True, weapon_skill=10), Character("검사", 12, weapon_skill=90)),
    (Character("숙련", 12, weapon_skill=60, pc=False), Character("초보", 12, weapon_skill=40)),
    (Character("PC", 12, weapon_skill=50), Character("NPC", 12, weapon_skill=50, pc=False)),
])
def test_each_tie_breaker_from_source(first, second):
    assert [c.name for c in turn_order([second, first])] == [first.name, second.name]
    assert [c.name for c in turn_order([first, second])] == [first.name, second.name]


def test_full_ties_keep_given_order():
    a, b = Character("갑", 10, weapon_skill=30), Character("을", 10, weapon_skill=30)
    assert turn_order([a, b]) == [a, b]
    assert turn_order([b, a]) == [b, a]


@pytest.mark.parametrize("seed", range(5))
def test_random_rosters_respect_source_order_and_waiting(seed):
    rng = random.Random(seed)
    chars = [Character(f"c{i}", rng.randint(8, 11), rng.random() < 0.5, rng.choice([30, 50]),
                       rng.random() < 0.5) for i in range(25)]
    base = turn_order(chars)
    assert sorted(c.name for c in base) == sorted(c.name for c in chars)
    for i, j in itertools.combinations(range(len(base)), 2):
        assert precedes(base[i], base[j]) in (True, None)
    waiting = [c.name for c in rng.sample(chars, 6)]
    order = turn_order(chars, waiting=waiting)
    # waiters go to the back; among them, whoever waited first (earlier turn) acts first
    assert [c for c in order if c.name not in waiting] == [c for c in base if c.name not in waiting]
    assert [c for c in order[-6:]] == [c for c in base if c.name in waiting]


@pytest.mark.parametrize("chars,waiting", [
    ([Character("A", 10), Character("A", 12)], ()),
    ([Character("A", 10)], ["B"]),
    ([Character("A", 10), Character("B", 11)], ["A", "A"]),   # a delayed turn cannot wait again
    (["A"], ()),
])
def test_turn_order_bad_input(chars, waiting):
    with pytest.raises(RuleInputError) as err:
        turn_order(chars, waiting)
    assert HANGUL.search(err.value.korean)


@pytest.mark.parametrize("kwargs", [{"name": "", "dex": 10}, {"name": "A", "dex": -1},
                                    {"name": "A", "dex": 10, "ranged": 1},
                                    {"name": "A", "dex": 10, "weapon_skill": 500},
                                    {"name": "A", "dex": "10"}])
def test_bad_character_raises(kwargs):
    with pytest.raises(RuleInputError):
        Character(**kwargs)


# --- movement and range -------------------------------------------------------------------

@pytest.mark.parametrize("mov", [0, 1, 8, 10])
@pytest.mark.parametrize("factor", [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(11, 10),
                                    Fraction(3), Fraction(31, 10), Fraction(5)])
def test_movement_walk_up_to_mov_run_up_to_three_mov(mov, factor):
    distance = factor * mov if mov else factor
    expected = "walk" if distance <= mov else "run" if distance <= 3 * mov else "too_far"
    assert movement(distance, mov) == expected
    assert movement(distance, mov) in uf.MOVES


@pytest.mark.parametrize("name", list(RANGED_WEAPONS))
def test_range_difficulty_per_source(name):
    r = RANGED_WEAPONS[name].range_m
    assert range_difficulty(r, name) == "normal"
    assert range_difficulty(r + 0.5, name) == "hard"
    assert range_difficulty(2 * r, r) == "hard"
    assert range_difficulty(2 * r + 1, r) == "out_of_range"


# --- recovery against dice enumeration -------------------------------------------------------

def brute_weeks(need: int, per_week) -> dict[int, Fraction]:
    """Weeks until the regained total reaches `need`, enumerating D6 rolls week by week."""
    counts = Counter()
    weeks = need  # every week regains at least 1
    for rolls in itertools.product(range(1, 7), repeat=weeks):
        total = 0
        for week, roll in enumerate(rolls, 1):
            total += per_week(roll)
            if total >= need:
                counts[week] += 1
                break
    n = sum(counts.values())
    return {k: Fraction(v, n) for k, v in counts.items()}


@pytest.mark.parametrize("hp,goal", [(0, 1), (-1, 1), (-3, 1), (-4, 1), (2, 6), (5, 5)])
def test_weeks_to_recover_natural(hp, goal):
    need = goal - hp
    expected = {0: Fraction(1)} if need <= 0 else brute_weeks(need, lambda r: math.ceil(r / 2))
    got = weeks_to_recover(hp, goal)
    assert got.probabilities() == expected
    assert sum(got.probabilities().values()) == 1


def test_weeks_to_recover_gm_adjusted_amount():
    assert weeks_to_recover(-3, per_week="1D6").probabilities() == brute_weeks(4, lambda r: r)


@pytest.mark.parametrize("hp,skill,attempts,hard", [(0, 50, 1, False), (-2, 50, 3, False),
                                                    (-5, 70, 4, False), (-1, 60, 2, True),
                                                    (-3, 0, 2, False), (0, 40, 0, False)])
def test_first_aid_matches_enumeration(hp, skill, attempts, hard):
    s = CheckSettings()
    target = brute_target(skill, hard, 0, s)
    ok = sum(brute_roll(r, target, s)[0] for r in range(1, 101))
    # one attempt: D100 × D6 = 600 equally likely pairs; a failure ignores the D6
    outcomes = [(0, (100 - ok) * 6)] + [(math.ceil(f / 2), ok) for f in range(1, 7)]
    counts = Counter()
    for seq in itertools.product(outcomes, repeat=attempts):
        value, weight = hp, 1
        for gain, w in seq:
            weight *= w
            if value <= 0:     # first aid only while unconscious
                value += gain
        counts[value] += weight
    total = sum(counts.values())
    expected = {v: Fraction(n, total) for v, n in counts.items() if n}
    got = first_aid(hp, skill, attempts, hard=hard)
    assert got.probabilities() == expected
    assert sum(got.probabilities().values()) == 1


# --- bad input everywhere -------------------------------------------------------------------

BAD_CALLS = [
    (death_threshold, (0,), {}), (death_threshold, ("11",), {}), (death_threshold, (11.5,), {}),
    (damage_after_armor, (6, -1), {}), (damage_after_armor, (6, "종이 갑옷"), {}),
    (damage_after_armor, (None, 2), {}), (hp_after_hit, ("12", 6), {}),
    (damage_distribution, ("광선검",), {}), (damage_distribution, ("숏소드",), {"armor": "강철"}),
    (damage_distribution, ("숏소드",), {"db": "+1D4+DB"}),
    (damage_distribution, ("숏소드",), {"special": "yes"}),
    (opposed_odds, (-1, 50), {}), (opposed_odds, (50, 201), {}), (opposed_odds, (50, "50"), {}),
    (opposed_odds, (50, 50), {"attack_hard": 1}), (opposed_odds, (50, 50), {"defense_penalty": "코트"}),
    (opposed_odds, (50, 50), {"settings": {"fumble_from": 100}}),
    (opposed_odds, (50, None), {"defense_penalty": -3}),
    (check_odds, (50.5,), {}), (effective_target, (50,), {"penalty": 101}),
    (movement, (-1, 8), {}), (movement, (5, -8), {}), (movement, ("5", 8), {}),
    (range_difficulty, (10, "숏소드"), {}), (range_difficulty, (10, 0), {}),
    (range_difficulty, (float("nan"), 50), {}),
    (weeks_to_recover, (-400,), {}), (weeks_to_recover, (0,), {"per_week": "1D6-1"}),
    (weeks_to_recover, (0,), {"per_week": "1D6+DB"}),
    (first_aid, (1, 50), {}), (first_aid, (0, 50, 101), {}), (first_aid, (0, 50, -1), {}),
    (hit_hp_states, ("숏소드", 13, 12), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", BAD_CALLS,
                         ids=[f"{f.__name__}{a}{k}" for f, a, k in BAD_CALLS])
def test_bad_input_raises_korean_rule_input_error(fn, args, kwargs):
    with pytest.raises(RuleInputError) as err:
        fn(*args, **kwargs)
    assert HANGUL.search(err.value.korean)
    assert str(err.value)


# --- shots and the HP cost of an attack -----------------------------------------------------
@pytest.mark.parametrize("weapon", list(uf.RANGED_WEAPONS))
@pytest.mark.parametrize("response", list(uf.RANGED_RESPONSES))
def test_firearms_cannot_be_defended_and_slow_shots_follow_the_shield_rule(weapon, response):
    allowed, hard = uf.ranged_defence(weapon, response)
    firearm = uf.RANGED_WEAPONS[weapon].skill in ("권총", "라이플", "산탄총")
    assert allowed == (not firearm and response != "none")
    if allowed:
        assert hard == (response != "large_shield")   # 4.7.3: only a large shield blocks at normal
    rng = uf.RANGED_WEAPONS[weapon].range_m
    for distance, attack_hard in ((rng, False), (2 * rng, True)):
        assert uf.ranged_hit_odds(weapon, distance, 50, 60, response) == uf.opposed_odds(
            50, 60 if allowed else None, attack_hard=attack_hard, defense_hard=hard if allowed else False)
    with pytest.raises(RuleInputError):
        uf.ranged_hit_odds(weapon, 2 * rng + 1, 50, 60, response)


@pytest.mark.parametrize("armor", list(uf.ARMOR))
@pytest.mark.parametrize("weapon,db", [("숏소드", "0"), ("그레이트 소드", "+1D4"), ("단검", "0")])
def test_hp_loss_per_attack_combines_hit_odds_and_damage(armor, weapon, db):
    loss = uf.hp_loss_per_attack(weapon, 60, 60, armor, db)
    odds = uf.opposed_odds(60, 60, defense_penalty=armor)
    normal = uf.damage_distribution(weapon, armor, db)
    special = uf.damage_distribution(weapon, armor, db, special=True)
    assert sum(loss.probabilities().values()) == 1
    assert loss.mean() == odds["attacker_wins"] * normal.mean() + \
        odds["attacker_wins_special"] * special.mean()
    missed = 1 - odds["attacker_wins"] - odds["attacker_wins_special"]
    assert loss.probability(0) == missed + odds["attacker_wins"] * normal.probability(0) + \
        odds["attacker_wins_special"] * special.probability(0)


# --- the totals a GM asks for first, against D100 pairs counted here ----------------------------

@pytest.mark.parametrize("settings_name", list(SETTINGS))
@pytest.mark.parametrize("att,dfn,att_hard,def_hard,def_pen", OPPOSED)
def test_hit_chance_counts_every_pair_the_attack_wins(settings_name, att, dfn, att_hard, def_hard,
                                                      def_pen):
    """명중 (스페셜 포함): the pairs of D100 rolls in which the attack hits, counted directly
    (attacker succeeds, and the defender fails or has no larger margin), whatever the grade."""
    s = SETTINGS[settings_name]
    pen = ARMOR[def_pen].penalty if isinstance(def_pen, str) else def_pen
    att_t = brute_target(att, att_hard, 0, s)
    def_t = None if dfn is None else brute_target(dfn, def_hard, pen, s)
    hits = pairs = 0
    for a, d in itertools.product(range(1, 101), range(1, 101) if def_t is not None else [None]):
        a_ok, _, a_m = brute_roll(a, att_t, s)
        d_ok, _, d_m = brute_roll(d, def_t, s) if d is not None else (False, False, 0)
        hits += a_ok and (not d_ok or a_m >= d_m)
        pairs += 1
    odds = opposed_odds(att, dfn, attack_hard=att_hard, defense_hard=def_hard,
                        defense_penalty=def_pen, settings=s)
    assert uf.hit_chance(odds) == Fraction(hits, pairs)
    assert uf.hit_chance(odds) == odds["attacker_wins"] + odds["attacker_wins_special"]


@pytest.mark.parametrize("settings_name", list(SETTINGS))
@pytest.mark.parametrize("skill,hard", [(0, False), (1, False), (50, False), (60, True), (99, False),
                                        (130, True), (200, False)])
def test_success_chance_counts_every_succeeding_roll(settings_name, skill, hard):
    s = SETTINGS[settings_name]
    target = brute_target(skill, hard, 0, s)
    succeeding = sum(brute_roll(roll, target, s)[0] for roll in range(1, 101))
    assert uf.success_chance(check_odds(skill, hard=hard, settings=s)) == Fraction(succeeding, 100)


@pytest.mark.parametrize("weapon,distance,response", [("롱보우", 150, "shield"), ("롱보우", 50, "dodge"),
                                                      ("권총", 60, "large_shield"), ("슬링", 10, "none")])
def test_hit_chance_of_a_shot(weapon, distance, response):
    odds = uf.ranged_hit_odds(weapon, distance, 60, 60, response)
    assert uf.hit_chance(odds) == 1 - odds["defender_wins"] - odds["defender_wins_special"] - odds["both_fail"]


@pytest.mark.parametrize("bad", [None, {}, {"attacker_wins": Fraction(1)}, "명중",
                                 {**opposed_odds(60, 60), "attacker_wins": Fraction(2)},
                                 {k: float(v) for k, v in opposed_odds(60, 60).items()},
                                 check_odds(60)])
def test_hit_chance_refuses_what_is_not_a_hit_check(bad):
    with pytest.raises(RuleInputError) as err:
        uf.hit_chance(bad)
    assert HANGUL.search(err.value.korean)
    with pytest.raises(RuleInputError):
        uf.success_chance(opposed_odds(60, 60))
