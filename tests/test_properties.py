"""Property tests of the whole library's input contract (seeded generator, no extra dependency).

For every public function of the generic and rules modules:

- random *valid* input gives exact answers: probabilities are ``Fraction`` s summing to exactly 1
  (checked against brute force where that is cheap);
- random *invalid* input (wrong types, booleans where numbers belong and numbers where booleans
  belong, NaN, ±inf, huge, negative, text, full-width digits) raises ``RuleInputError`` with a
  Korean message, quickly, and never another exception;
- the limits are the same everywhere and every refusal is immediate.

Every call is timed; anything over :data:`SLOW` seconds fails.
"""
from __future__ import annotations

import importlib
import inspect
import itertools
import random
import re
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction

import pytest

from widgets import (bfrpg, damage, dice, errors, grid, hunters_moon as hm, limits, notation, pf2e,
                     ranges, trench_crusade as tc, underface as uf)
from widgets.dice import Dist
from widgets.errors import RuleInputError

SLOW = 1.0        # seconds: the contract's bound on any single call
BIG = 3.0         # seconds: the biggest accepted inputs (0.3-0.6 s on an idle machine; CI is shared)
SEED = 20261130
HANGUL = re.compile("[가-힣]")
RULE_MODULES = (dice, notation, damage, ranges, grid, tc, bfrpg, pf2e, uf, hm)
TERRAIN = grid.Terrain(8, 6, blocked={(4, 0), (4, 1)}, enemies={(6, 4)}, allies={(1, 1)})


def timed(call, *args, _limit=SLOW, **kwargs):
    start = time.perf_counter()
    try:
        return call(*args, **kwargs)
    finally:
        elapsed = time.perf_counter() - start
        assert elapsed < _limit, f"{getattr(call, '__name__', call)}{args}{kwargs} took {elapsed:.2f} s"


# --- one valid call of every public function (the base the invalid-input fuzz mutates) --------
BASE: dict[str, tuple[tuple, dict]] = {
    "dice.die": ((6,), {}), "dice.d3_face": ((4,), {}), "dice.d3_from_d6": ((), {}),
    "dice.or_better": (({"failure": Fraction(7, 12), "success": Fraction(5, 12)}, ("success", "failure")), {}),
    "dice.dice_sum": ((3, 6), {}), "dice.keep_highest": ((4, 2, 6), {}),
    "dice.keep_lowest": ((4, 2, 6), {}), "dice.roll_and_keep": ((2, 1, 6), {}),
    "dice.kept_total": (([3, 4, 5], 2, True), {}),
    "dice.dense_sum_bits": ((11, 11, 6, 6), {}), "dice.groups_product_bits": (([(1, 6), (2, 8)],), {}),
    "notation.divide_up": ((7, 2), {}), "notation.parse": (("4D6KH3>=10",), {}),
    "notation.bcdice_divide": ((7, 2, "R"), {}),
    "dice.exploding_sum": ((2, 6), {}), "dice.chain_count": ((2, 6, [6], [5, 6]), {}),
    "dice.open_series": ((((1, 1),), 2, ((1, 1),), 1), {}),
    "dice.explode_series": ((6, frozenset({6})), {"penetrating": False}),
    "dice.chain_series": ((6, frozenset({6}), frozenset({5, 6})), {}),
    "dice.series_work": ((((1, 1), (2, 1), (3, 1), (4, 1), (5, 1)), 6, ((6, 1),), 2, 40), {}),
    "dice.series_reach": ((((1, 1),), 2, ((1, 1),), 1, Fraction(1, 10**6)), {}),
    "notation.parse_expression": (("1D6+½DB",), {"names": ("DB",), "noun": "피해 식"}),
    "notation.distribution": (("2D6+1D4-1",), {}), "notation.roll_odds": (("1D100<=45",), {}),
    "damage.parse_damage": (("1D6+1+DB",), {"allow_db": True}),
    "damage.db_dist": (("+1D4",), {}), "damage.damage_dist": (("1D6+DB", "+1D4"), {}),
    "damage.special_damage_dist": (("1D6+DB", "+1D4"), {}), "damage.after_armor": ((6, 2), {}),
    "damage.hp_after": ((4, 12), {}), "damage.hp_states": ((4, 6, -3), {}),
    "damage.from_probabilities": (({0: Fraction(1, 2), 1: Fraction(1, 2)},), {}),
    "ranges.bfrpg_missile_bands": (("장궁 (longbow)",), {}),
    "grid.neighbours8": (((1, 1),), {}), "grid.diagonal_feet": ((3,), {}),
    "grid.path_feet": (([(0, 0), (1, 1), (2, 2)],), {}), "grid.grid_distance": (((0, 0), (3, 2)), {}),
    "grid.straight_squares": ((30,), {"diagonal": True}), "grid.check_rate": ((30,), {}),
    "grid.cost_map": ((TERRAIN, (0, 0), 30), {"engaged_doubles": False, "may_leave_engagement": True}),
    "grid.rear_arc": (((1, 1), "N"), {}), "grid.front_arc": (((1, 1), "N"), {}),
    "grid.is_behind": (((1, 1), "N", (1, 2)), {}),
    "grid.least_rear_attackers": (((1, 1), [(0, 0), (2, 2)]), {}),
    "grid.sight_line": ((TERRAIN, (0, 0), (7, 5)), {}),
    "grid.has_line_of_sight": ((TERRAIN, (0, 0), (7, 5)), {}),
    "grid.segment_meets_square": (((0, 0), (3, 3), (1, 1)), {}),
    "grid.centre_line_clear": ((TERRAIN, (0, 0), (7, 5)), {}),
    "grid.visible_squares": ((TERRAIN, (0, 0)), {}),
    "grid.flight_map": ((TERRAIN, (0, 0), 30), {"engaged_doubles": True}),
    "grid.walk_feet": ((TERRAIN, [(0, 0), (1, 1), (2, 1)]), {}),
    "trench_crusade.net_dice": ((2, 1), {}), "trench_crusade.kept_total": (([6, 1, 2], 1), {}),
    "trench_crusade.success_roll": ((1, 0), {}), "trench_crusade.success_odds": ((1, 0), {}),
    "trench_crusade.risky_chain_odds": ((0, 0, 2), {}),
    "trench_crusade.markers_to_dice": ((1, 2, 1), {"blood_available": 3, "blessing_available": 2}),
    "trench_crusade.injury_roll": ((0, 1, 0, False, 2), {}),
    "trench_crusade.injury_odds": ((0, 1, 0, True, 2), {}),
    "trench_crusade.bloodbath_available": ((6,), {"down": False}),
    "trench_crusade.charge_odds": ((6, 9.5), {"dice": 0}),
    "trench_crusade.charge_roll_needed": ((6, 10), {}),
    "trench_crusade.first_player": ((5, 7), {}), "trench_crusade.activation_order": ((2, 3, "A"), {}),
    "trench_crusade.ranged_band": ((12, 24), {}),
    "trench_crusade.ranged_dice": ((20, 24), {"cover": True, "elevated": False}),
    "trench_crusade.roll_size": ((1, 2), {}),
    "trench_crusade.attack_odds": ((0, 1), {"target_down": False, "injury_dice": 0}),
    "bfrpg.movement_rate": (("leather", "light"), {}), "bfrpg.running_rate": ((30,), {}),
    "bfrpg.path_cost": (([(0, 0), (1, 1)],), {}), "bfrpg.steps_cost": ((3, 2), {}),
    "bfrpg.squares_reachable": ((30,), {"diagonal": False}),
    "bfrpg.movement_table": ((), {}), "bfrpg.table_disagreements": ((), {}),
    "bfrpg.source_disagreements": ((), {}), "bfrpg.half_move": ((30,), {}),
    "bfrpg.melee_step_cost": ((10,), {}),
    "bfrpg.can_attack_after": (("walk",), {}), "bfrpg.move_options": ((TERRAIN, (0, 0), 30), {}),
    "bfrpg.can_attack_square": (((1, 1), "N", (2, 1)), {}),
    "bfrpg.rear_attack_bonus": (((1, 1), "E", (0, 2)), {}),
    "bfrpg.simultaneous_move_order": (({"a": 10, "b": 20},), {}),
    "bfrpg.missile_sight": ((TERRAIN, (0, 0), (7, 5)), {}),
    "bfrpg.missile_check": ((TERRAIN, (0, 0), (7, 5), "단궁 (shortbow)"), {}),
    "bfrpg.attack_roll_odds": ((3, 14), {}), "bfrpg.scene": (("missile",), {}),
    "bfrpg.scene_options": (("tannen_melee",), {}), "bfrpg.scene_rear_attackers": (("rear_three",), {}),
    "pf2e.proficiency_bonus": (("trained", 3), {}),
    "pf2e.stack_modifiers": (([("circumstance", 1), ("status", -1)],), {}),
    "pf2e.multiple_attack_penalty": ((2,), {"agile": True}),
    "pf2e.strike_sequence": (([(7, False), (7, True)],), {"own_turn": True}),
    "pf2e.range_bands": ((30,), {}), "pf2e.range_penalty": ((61, 30), {}),
    "pf2e.degree_odds": ((5, 18), {}),
    "pf2e.attack_bonus": (("melee",), {"strength": 3, "dexterity": 4, "spellcasting": 0,
                                       "finesse": True, "proficiency": 3, "modifiers": [("item", 1)]}),
    "pf2e.armor_class": ((3, 2, 3), {"item": 1, "other": [], "off_guard": True}),
    "pf2e.spell_dc": ((4, 3), {"modifiers": []}),
    "pf2e.strike_odds": ((9, 18), {"attack_number": 2, "agile": False, "distance_ft": 40,
                                   "increment_ft": 30, "off_guard": False}),
    "pf2e.save_odds": ((5, 17), {}),
    "underface.death_threshold": ((11,), {}), "underface.damage_after_armor": ((6, "가죽 갑옷"), {}),
    "underface.hp_after_hit": ((12, 6), {"armor": 2}),
    "underface.damage_distribution": (("숏소드",), {"armor": "방탄조끼", "db": "+1D4", "special": False}),
    "underface.hit_hp_states": (("숏소드", 8, 11), {"armor": 2, "db": "+1D4", "special": True}),
    "underface.effective_target": ((60,), {"hard": True, "penalty": 5}),
    "underface.check_odds": ((50,), {"hard": False, "penalty": "방탄조끼"}),
    "underface.opposed_odds": ((60, 55), {"attack_hard": False, "defense_hard": True,
                                          "attack_penalty": 0, "defense_penalty": 5}),
    "underface.turn_order": (([uf.Character("A", 12), uf.Character("B", 14)],), {"waiting": ["A"]}),
    "underface.movement": ((9, 8), {}), "underface.range_difficulty": ((50, "권총"), {}),
    "underface.weeks_to_recover": ((-3,), {"goal_hp": 1}),
    "underface.first_aid": ((0, 50, 2), {"hard": False, "penalty": 0}),
    "hunters_moon.check_odds": ((1, 7), {}),
    "hunters_moon.success_chance": (({"fumble": Fraction(1, 36), "failure": Fraction(0),
                                      "success": Fraction(34, 36), "special": Fraction(1, 36)},), {}),
    "hunters_moon.failure_chance": (({"fumble": Fraction(1, 36), "failure": Fraction(5, 36),
                                      "success": Fraction(29, 36), "special": Fraction(1, 36)},), {}),
    "underface.hit_chance": ((uf.opposed_odds(60, 55),), {}),
    "underface.success_chance": ((uf.check_odds(55),), {}),
    "pf2e.success_or_better": ((pf2e.strike_odds(9, 18),), {}),
    "trench_crusade.success_or_better": ((tc.success_odds(1, 0),), {}),
    "hunters_moon.paragraph_label": ((3,), {}),
    "hunters_moon.pc_damage": ((3, 2), {"doom_stage": 1, "critical_achievement": 14,
                                        "pursuit": True, "critical_extra": 1}),
    "hunters_moon.threat_damage": ((4,), {"doom": 1, "pursuit": False}),
    "hunters_moon.bound_round_end_loss": ((), {}),
    "hunters_moon.flying_damage": ((Dist.constant(7), True), {"anti_air": False, "attacker_flying": False}),
    "hunters_moon.diving_auto_hit": ((True, False), {}),
    "hunters_moon.destroy_odds": ((1, 9, 2, 1, 4), {"modifier": 0, "doom_stage": 0, "pursuit": False,
                                                   "critical_extra": 0, "attacker_bound": False,
                                                   "threat_bound": False, "threat_flying": False,
                                                   "anti_air": False, "attacker_flying": False,
                                                   "attacker_diving": False, "threat_diving": False}),
    "hunters_moon.defence_odds": ((2, 8, 0), {"bound": False, "threat_bound": False,
                                              "threat_diving": False}),
    "hunters_moon.recon_odds": ((1, 7, 0, False), {}),
    "hunters_moon.recon_counterattack": ((2,), {}), "hunters_moon.can_pursue": ((1,), {}),
    "hunters_moon.threat_state": ((2, 3), {"placed_before": True}),
    "hunters_moon.can_target_threat": (("unacted",), {}),
    "hunters_moon.combat_course": ((False, 3, True, 0, 2), {"fell_in_first_round": False}),
    "hunters_moon.pursuit_odds": ((2, 9, 0, False, False), {}),
    "hunters_moon.round_order": (([hm.PlottedPC("A", 2)], [hm.PlacedThreat("X", 1)]), {}),
    "hunters_moon.check_outcome": ((7, 1, 8), {}),
    "hunters_moon.body_attack_damage": ((1, 9, 2, 1, 0), {"modifier": 0, "pursuit": False,
                                                         "critical_extra": 0}),
    "hunters_moon.can_interfere": ((True, True, 1), {}),
    "bfrpg.attack_roll_hits": ((13, 1, 14), {}), "dice.dice_groups_sum": (([(1, 10), (2, 4)],), {}),
    "pf2e.roll_degree": ((12, 9, 16), {}),
    "underface.hp_loss_per_attack": (("숏소드", 60, 55, "평상복"), {"db": "+1D4"}),
    "underface.ranged_defence": (("롱보우", "shield"), {}),
    "underface.ranged_hit_odds": (("권총", 60, 50, 60), {"response": "dodge"}),
    "hunters_moon.check_result": ((4, 2, 3, 9), {}), "pf2e.approach_options": ((15,), {"enemy_reach": 10}),
    "pf2e.stride_segments": ((5, 15), {"enemy_reach": 10}),
    "underface.opposed_result": ((23, 50, 31, 35), {}),
    "pf2e.strike_damage": (("1d4-2",), {}),
    "pf2e.turn_damage": ((10, 20, "1d8+4"), {"strikes": 3, "agile": True, "off_guard": False}),
    "pf2e.strikes_to_down": ((10, 20, 30, "1d8+4"), {"strikes": 3, "agile": False, "off_guard": True}),
    "trench_crusade.attacks_to_out": ((0, 0, 0, 1), {"tough": True, "blood": "bloodbath"}),
    "underface.duel": ((uf.Fighter(60, 50, "숏소드", hp=10), uf.Fighter(50, 50, "숏소드", armor=1, hp=10)),
                       {"first": "b"}),
    "hunters_moon.round_loss": (([(2, 3, 3), (1, 4, 2)], 9), {"doom": 1, "pursuit": True}),
    "hunters_moon.hunt": (([(2, 3, 3), (1, 4, 2)], 9, 20), {"doom": 1}),
    # the actual-dice readings the whole-turn walkthroughs use (widgets/views/turn.py)
    "trench_crusade.success_result": (([6, 2, 3], -1), {"modifier": 0}),
    "trench_crusade.injury_result": (([5, 4, 2, 1], 2, 1), {"modifier": 0, "bloodbath": False}),
    "trench_crusade.markers_after_injury": ((1, "down"), {"down": False}),
    "trench_crusade.charge_reaches": ((6, 10, 3), {}),
    "pf2e.hit_damage": ((8, 1, 4), {"critical": False}),
    "pf2e.damage_of_roll": (([5], 8, 4), {"critical": False}),
    "underface.check_result": ((10, 50), {"hard": False, "penalty": 0}),
}

# Arguments that take a value of another kind on purpose (a name or a number, a Dist or text...)
# are fuzzed only for "no foreign exception", not for "must refuse".
LOOSE = {"armor", "penalty", "attack_penalty", "defense_penalty", "db", "weapon_range",
         "critical_achievement", "blood_available", "blessing_available", "dex_cap", "distance_ft",
         "increment_ft", "defense_skill", "dodge_skill", "loss", "dist", "expression", "rank", "kind", "weapon",
         "text", "per_week", "key", "option", "armor_", "load", "first"}


def public_functions():
    for module in RULE_MODULES:
        short = module.__name__.split(".")[-1]
        for name, obj in vars(module).items():
            if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__ == module.__name__:
                yield f"{short}.{name}", obj


FUNCTIONS = dict(public_functions())


def test_every_public_function_has_a_base_call():
    assert sorted(set(FUNCTIONS) - set(BASE)) == []


@pytest.mark.parametrize("qualified", sorted(BASE))
def test_base_calls_answer_and_probabilities_are_exact(qualified):
    args, kwargs = BASE[qualified]
    result = timed(FUNCTIONS[qualified], *args, **kwargs)
    if qualified in CUMULATIVE:     # each grade "or better": rising to exactly 1
        values = list(result.values())
        assert all(isinstance(v, Fraction) for v in values)
        assert values == sorted(values) and values[-1] == 1 and values[0] >= 0
    else:
        check_exact(result)


#: Calls whose answer is a cumulative table (each grade or better), not odds that sum to 1.
CUMULATIVE = {"dice.or_better"}


def check_exact(result):
    """Distributions and odds tables are exact and sum to 1; single odds lie in [0, 1]."""
    if isinstance(result, Dist):
        probs = result.probabilities()
        total = result.total   # every denominator divides it: an exact sum without Fraction additions
        assert all(isinstance(p, Fraction) and total % p.denominator == 0 for p in probs.values())
        assert sum(p.numerator * (total // p.denominator) for p in probs.values()) == total
    elif isinstance(result, dict) and result and all(isinstance(v, Fraction) for v in result.values()):
        assert sum(result.values()) == 1 and all(v >= 0 for v in result.values())
    elif isinstance(result, Fraction):
        assert 0 <= result <= 1


# --- invalid input ----------------------------------------------------------------------------
NOT_A_NUMBER = [True, False, None, "3", "３", "٣", "1e3", float("nan"), float("inf"), float("-inf"),
                10**100, -10**100, 10**5000, 2.5e300, [3], {}, object(), b"3"]
NOT_A_BOOL = [0, 1, 0.5, "no", "True", None, float("nan"), [], 2]


def mutations(qualified):
    """(label, args, kwargs, must_refuse) with one argument replaced by a bad value."""
    args, kwargs = BASE[qualified]
    params = list(inspect.signature(FUNCTIONS[qualified]).parameters)
    slots = [(params[i], ("arg", i), value) for i, value in enumerate(args)] + \
            [(name, ("kw", name), value) for name, value in kwargs.items()]
    for pname, where, good in slots:
        if isinstance(good, bool):
            bad_values, strict = NOT_A_BOOL, True
        elif isinstance(good, (int, float, Fraction)):
            bad_values, strict = NOT_A_NUMBER, pname not in LOOSE
        else:
            bad_values, strict = NOT_A_NUMBER[:8] + [10**5000, object(), [object()], "x" * 10_000], False
        for bad in bad_values:
            new_args, new_kwargs = list(args), dict(kwargs)
            if where[0] == "arg":
                new_args[where[1]] = bad
            else:
                new_kwargs[where[1]] = bad
            yield f"{pname}={errors.shown(bad, 20)}", tuple(new_args), new_kwargs, strict


@pytest.mark.parametrize("qualified", sorted(BASE))
def test_invalid_input_is_refused_quickly_and_only_with_rule_input_error(qualified):
    function = FUNCTIONS[qualified]
    for label, args, kwargs, strict in mutations(qualified):
        start = time.perf_counter()
        try:
            function(*args, **kwargs)
        except RuleInputError as err:
            assert str(err) and HANGUL.search(err.korean), (qualified, label)
            assert "은(는)" not in err.korean and "을(를)" not in err.korean and "이(가)" not in err.korean
        except Exception as err:  # noqa: BLE001 - the point: nothing else may escape
            pytest.fail(f"{qualified}({label}) raised {type(err).__name__}: {err}")
        else:
            assert not strict, f"{qualified}({label}) was accepted"
        assert time.perf_counter() - start < SLOW, (qualified, label)


# --- random valid input against brute force ---------------------------------------------------
def enumerate_rolls(count, sides, score):
    tally = Counter(score(sorted(r)) for r in itertools.product(range(1, sides + 1), repeat=count))
    total = sides**count
    return {v: Fraction(n, total) for v, n in sorted(tally.items())}


def test_random_dice_against_enumeration():
    rng = random.Random(SEED)
    for _ in range(60):
        sides = rng.choice([2, 3, 4, 5, 6, 8, 10, 12])
        count = rng.randint(0, 6)
        while sides**count > 20_000:
            count -= 1
        keep = rng.randint(0, count)
        assert timed(dice.dice_sum, count, sides).probabilities() == enumerate_rolls(count, sides, sum)
        assert timed(dice.keep_highest, count, keep, sides).probabilities() == \
            enumerate_rolls(count, sides, lambda r: sum(r[len(r) - keep:]))
        assert timed(dice.keep_lowest, count, keep, sides).probabilities() == \
            enumerate_rolls(count, sides, lambda r: sum(r[:keep]))


def test_random_big_pools_are_exact_and_quick():
    """Big pools: exact totals, symmetric sums, and the closed form of the top outcome."""
    rng = random.Random(SEED + 1)
    for _ in range(10):
        sides = rng.choice([4, 6, 8, 10, 12, 20, 100])
        count = rng.randint(1, limits.MAX_SUM_SIZE // sides)
        count = min(count, limits.MAX_SUM_DICE)
        total = timed(dice.dice_sum, count, sides)
        assert total.total == sides**count
        weights = [total.weights[v] for v in range(total.min, total.max + 1)]
        assert weights == weights[::-1]
        keep = rng.randint(1, min(count, 40))
        if limits.keep_work(count, keep, sides) > limits.MAX_KEEP_WORK or keep * sides > limits.MAX_SUM_SIZE:
            with pytest.raises(RuleInputError):
                timed(dice.keep_highest, count, keep, sides)
            continue
        kept = timed(dice.keep_highest, count, keep, sides)
        assert kept.total == sides**count
        top = sum(comb(count, j) * (sides - 1) ** (count - j) for j in range(keep, count + 1))
        assert kept.probability(keep * sides) == Fraction(top, sides**count)


def comb(n, k):
    from math import comb as c
    return c(n, k)


def test_random_trench_crusade_against_enumeration():
    rng = random.Random(SEED + 2)
    for _ in range(40):
        net, mod = rng.randint(-3, 3), rng.randint(-6, 6)
        n = 2 + abs(net)
        kept = (lambda r: sum(r[-2:])) if net >= 0 else (lambda r: sum(r[:2]))
        rolls = enumerate_rolls(n, 6, kept)
        expect = {"failure": Fraction(0), "success": Fraction(0), "critical": Fraction(0)}
        for total, p in rolls.items():
            t = total + mod
            expect["failure" if t <= 6 else "success" if t <= 11 else "critical"] += p
        assert timed(tc.success_odds, dice=net, modifier=mod) == expect
    for net in (-tc.MAX_NET_DICE, -200, 200, tc.MAX_NET_DICE):   # ±200 DICE and the limit answer
        odds = timed(tc.success_odds, dice=net)
        assert sum(odds.values()) == 1
        if net < 0:
            assert odds["critical"] == Fraction(1, 6) ** (2 - net)


def test_random_checks_against_enumeration():
    rng = random.Random(SEED + 3)
    for _ in range(60):
        mod, target = rng.randint(-30, 30), rng.randint(-20, 40)
        got = timed(hm.check_odds, mod, target)
        tally = Counter(hm.check_outcome(a + b, mod, target) for a in range(1, 7) for b in range(1, 7))
        assert got == {k: Fraction(tally[k], 36) for k in hm.OUTCOMES}
        dc = rng.randint(-20, 60)
        odds = timed(pf2e.degree_odds, mod, dc)
        assert sum(odds.values()) == 1 and all(p.denominator in (1, 2, 4, 5, 10, 20) for p in odds.values())
        skill = rng.randint(0, uf.MAX_SKILL)
        check_exact(timed(uf.check_odds, skill, hard=rng.random() < 0.5, penalty=rng.randint(0, 30)))
        check_exact(timed(uf.opposed_odds, skill, rng.choice([None, rng.randint(0, 150)])))


def test_random_damage_expressions_against_enumeration():
    rng = random.Random(SEED + 4)
    for _ in range(40):
        dice_terms = [(rng.randint(1, 2), rng.choice([2, 3, 4, 6])) for _ in range(rng.randint(1, 2))]
        const = rng.randint(-3, 5)
        text = "+".join(f"{n}D{s}" for n, s in dice_terms) + (f"{const:+d}" if const else "")
        sides = [s for n, s in dice_terms for _ in range(n)]
        tally = Counter(sum(r) + const for r in itertools.product(*(range(1, s + 1) for s in sides)))
        total = sum(tally.values())
        assert timed(damage.damage_dist, text).probabilities() == \
            {v: Fraction(c, total) for v, c in sorted(tally.items())}


def test_random_underface_and_hunters_moon_distributions_sum_to_one():
    rng = random.Random(SEED + 5)
    weapons, armors = list(uf.WEAPONS), list(uf.ARMOR)
    dbs = list(damage.DB_OPTIONS)
    for _ in range(30):
        dist = timed(uf.damage_distribution, rng.choice(weapons), armor=rng.choice(armors),
                     db=rng.choice(dbs), special=rng.random() < 0.3)
        check_exact(dist)
        check_exact(timed(uf.hit_hp_states, rng.choice(weapons), rng.randint(-5, 20), 20,
                          db=rng.choice(dbs)))
        odds = timed(hm.destroy_odds, rng.randint(-3, 5), rng.randint(2, 14), rng.randint(0, 6),
                     rng.randint(1, 6), rng.randint(1, 20), pursuit=rng.random() < 0.5,
                     threat_flying=rng.random() < 0.5)
        assert 0 <= odds.destroy <= odds.hit <= 1


# --- limits: the same everywhere, refusals immediate ---------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: dice.dice_sum(200, 1000), lambda: dice.dice_sum(limits.MAX_POOL + 1, 2),
    lambda: dice.keep_highest(200, 100, 1000), lambda: dice.keep_highest(200, 10, 100),
    lambda: damage.damage_dist("200D100+1D6"), lambda: uf.damage_distribution("200D100+1D2"),
    lambda: uf.damage_distribution("100D100+DB", db="150D100"),
    lambda: tc.success_odds(dice=tc.MAX_NET_DICE + 1), lambda: dice.roll_and_keep(2, 999, 1000),
    lambda: Dist({0: 1, 10**9: 1}).repeat_sum(1000),
    lambda: Dist({i * 997: 1 for i in range(3000)}) + Dist({i * 991: 1 for i in range(3000)}),
])
def test_refusals_are_immediate_and_name_the_limit(call):
    start = time.perf_counter()
    with pytest.raises(RuleInputError) as err:
        call()
    assert time.perf_counter() - start < 0.2
    numbers = {str(v) for v in (limits.MAX_POOL, limits.MAX_SUM_SIZE, limits.MAX_KEEP_WORK, limits.MAX_SUM_DICE,
                                limits.MAX_PAIRS, limits.MAX_NET_DICE, limits.MAX_POOL - 2)}
    assert any(n in str(err.value) for n in numbers), str(err.value)
    assert any(n in err.value.korean for n in numbers), err.value.korean


def test_biggest_accepted_inputs_answer_within_a_second():
    for call in (lambda: dice.dice_sum(200, 100), lambda: dice.dice_sum(20, 1000),
                 lambda: dice.keep_highest(150, 40, 8), lambda: dice.keep_highest(200, 100, 6),
                 lambda: tc.success_odds(dice=200), lambda: tc.injury_odds(dice=-200, bloodbath=True),
                 lambda: uf.damage_distribution("50D100+50D99+DB", db="30D100"),
                 lambda: dice.keep_highest(1000, 20, 6), lambda: dice.keep_highest(200, 5, 100),
                 lambda: damage.damage_dist("100D100+99D99+1D1")):
        start = time.perf_counter()
        check_exact(call())   # the answer and reading every probability of it
        assert time.perf_counter() - start < BIG


def test_limits_are_shared():
    assert dice.MAX_SIDES == damage.MAX_SIDES == limits.MAX_SIDES
    assert tc.MAX_NET_DICE == limits.MAX_NET_DICE and tc.MAX_NET_DICE + 11 <= limits.MAX_POOL
    table = limits.limits_table()
    assert {row["name"] for row in table} >= {"MAX_SIDES", "MAX_POOL", "MAX_SUM_SIZE", "MAX_KEEP_WORK"}
    assert all(getattr(limits, row["name"]) == row["value"] for row in table)


# --- validators and Korean particles -------------------------------------------------------------
@pytest.mark.parametrize("word,pair,expected", [
    ("주사위", "은/는", "주사위는"), ("거리", "을/를", "거리를"), ("이동력", "이/가", "이동력이"),
    ("갑옷", "은/는", "갑옷은"), ("10", "은/는", "10은"), ("2", "이/가", "2가"), ("DC", "은/는", "DC는"),
    ("12", "으로/로", "12로"), ("3", "으로/로", "3으로"), ("'숏소드'", "은/는", "'숏소드'는"),
    ("(3, 4)", "이/가", "(3, 4)가"), ("1000000", "을/를", "1000000을"), ("방어 점수", "과/와", "방어 점수와"),
])
def test_particles(word, pair, expected):
    assert errors.particle(word, pair) == expected


def test_validators_refuse_what_they_must():
    for bad in NOT_A_NUMBER:
        with pytest.raises(RuleInputError):
            errors.require_int(bad, "n", "개수", -10**6, 10**6)
        if not isinstance(bad, int) or isinstance(bad, bool) or abs(bad) > 10**6:
            with pytest.raises(RuleInputError):
                errors.require_number(bad, "x", "거리", -10**6, 10**6)
    for bad in NOT_A_BOOL:
        with pytest.raises(RuleInputError):
            errors.require_bool(bad, "flag", "여부")
    assert errors.require_int(Fraction(6, 2), "n", "개수", 0, 9) == 3
    assert errors.require_number(0.1, "x", "거리", 0, 1) == Fraction(1, 10)
    err = pytest.raises(RuleInputError, errors.require_number, True, "distance", "거리", 0, 12).value
    assert "True" in str(err) and "True" in err.korean
    err = pytest.raises(RuleInputError, errors.require_int, 10**5000, "dice", "주사위", 0, 9).value
    assert "digit" in str(err) and "자리 수" in err.korean


def test_round_up_is_the_ceiling_everywhere():
    for n in range(-30, 31):
        for d in range(1, 7):
            assert errors.round_up(n, d) == -((-n) // d) == -(-Fraction(n, d) // 1)
    assert tc.round_up is errors.round_up
    # the damage rule halves the rolled dice (never negative) and applies the sign afterwards
    assert [damage.divide_up(v, 2) for v in (3, -3)] == [2, -2]
    assert tc.d3_from_d6_face is dice.d3_face


def test_no_numpy_and_fast_import():
    code = ("import sys, time; t = time.perf_counter(); "
            "import widgets.trench_crusade, widgets.bfrpg, widgets.pf2e, widgets.underface, "
            "widgets.hunters_moon, widgets.damage, widgets.ranges, widgets.grid, widgets.dice; "
            "print(time.perf_counter() - t); assert 'numpy' not in sys.modules, 'numpy imported'")
    times = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(out.stdout))
    assert min(times) < 0.5   # generous for a busy machine; the budget measured alone is 120 ms


def test_every_rules_module_uses_the_shared_validators():
    """No module keeps its own bool check or bool() coercion of an argument."""
    for module in RULE_MODULES:
        source = inspect.getsource(module)
        assert "def _flag" not in source and "def _require_bool" not in source, module.__name__
        assert not re.search(r"\bbool\((cover|elevated|diagonal|target_down|bloodbath|engaged_doubles)",
                             source), module.__name__
        for leftover in ("은(는)", "을(를)", "이(가)"):
            assert leftover not in source, (module.__name__, leftover)
    importlib.import_module("widgets.limits")


def test_random_pools_agree_with_icepool_when_installed():
    """An independent peer (benchmark-only dependency, requirements-bench.txt): skipped when
    icepool is not installed, so the test suite never needs it."""
    icepool = pytest.importorskip("icepool")
    rng = random.Random(SEED + 6)
    for _ in range(20):
        sides = rng.choice([4, 6, 8, 10, 12, 20])
        count = rng.randint(1, 30)
        keep = rng.randint(1, count)
        die = icepool.d(sides)
        for ours, theirs in ((dice.keep_highest(count, keep, sides), die.highest(count, keep)),
                             (dice.keep_lowest(count, keep, sides), die.lowest(count, keep))):
            den = theirs.denominator()
            assert {o: Fraction(q, den) for o, q in theirs.items() if q} == ours.probabilities()
