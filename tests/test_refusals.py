"""Refusals before work: every public function of the library checks sizes before it allocates.

For every public callable of every library module (module functions, class constructors, class
and instance methods; ``__all__`` and every public name defined in the module), each integer-like
parameter (found by its annotation, its default or the valid base value below) and each
coordinate of a square-like parameter (a pair of whole numbers) is set to huge values while the
other arguments stay valid. Each call must either answer within :data:`TIME_LIMIT` with a
correct-looking result, or raise :class:`~widgets.errors.RuleInputError` whose Korean message
names the given value, within :data:`TIME_LIMIT` and :data:`MEMORY_LIMIT` (``tracemalloc`` peak;
time is the best of 3 runs with the library imported and caches emptied before each run, so the
check holds on a shared 2-core machine without ever being skipped). Text arguments ten million
characters long and sequences of ten million items (or endless) get the same treatment.

A public callable is either probed here (it has a base call with an integer-like parameter) or
listed in :data:`NO_INTEGER`; a new one that is neither fails the test. On the reader's side,
every number box of the book takes the same huge values through the engine's entry at once.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import pkgutil
import re
import signal
import time
import tracemalloc
from fractions import Fraction

import pytest

import widgets
from widgets import bfrpg, fight, grid, hunters_moon as hm, underface as uf  # noqa: F401 (fight: COIN)
from widgets.dice import Dist
from widgets.errors import RuleInputError

from test_properties import BASE as FUNCTION_BASE, TERRAIN, check_exact

#: A two-state chain for the whole-fight functions: heads ends it, half the time each step.
COIN = widgets.fight.Chain({"up": {"up": Fraction(1, 2), "heads": Fraction(1, 2)}}, keys=("heads",))

TIME_LIMIT = 0.050            # seconds, best of 3
MEMORY_LIMIT = 50 * 2**20     # bytes, tracemalloc peak
RUNAWAY = 3.0                 # seconds: a call still running then is stopped and reported
HUGE = (10**7, 10**9, 10**18, -10**9, 10**400)
HANGUL = re.compile("[가-힣]")

MODULES = [importlib.import_module(f"widgets.{m.name}")
           for m in pkgutil.iter_modules(widgets.__path__) if not m.ispkg]


def _short(module) -> str:
    return module.__name__.split(".", 1)[1]


def public_callables() -> dict[str, object]:
    """Qualified name → the callable (functions and classes as they are; methods as the raw
    class attribute, resolved on an instance or the class when called)."""
    found: dict[str, object] = {}
    for module in MODULES:
        names = set(getattr(module, "__all__", ())) | {
            n for n, o in vars(module).items() if not n.startswith("_")
            and (inspect.isfunction(o) or inspect.isclass(o)) and o.__module__ == module.__name__}
        for name in sorted(names):
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or obj.__module__ != module.__name__:
                continue   # constants, and names re-exported from where they are checked
            found[f"{_short(module)}.{name}"] = obj
            if inspect.isclass(obj):
                for attr, raw in vars(obj).items():
                    if not attr.startswith("_") and (inspect.isfunction(raw)
                                                     or isinstance(raw, (classmethod, staticmethod))):
                        found[f"{_short(module)}.{name}.{attr}"] = raw
    return found


CALLABLES = public_callables()

#: Instances whose methods are probed (small, valid values of each class).
INSTANCES = {
    "dice.Dist": lambda: Dist({2: 1, 3: 2, 7: 1}),
    "ranges.RangeBands": lambda: widgets.ranges.RangeBands.brackets(50, 100, 150),
    "grid.Terrain": lambda: TERRAIN,
    "grid.CostMap": lambda: grid.cost_map(TERRAIN, (0, 0), 30),
    "bfrpg.MoveOptions": lambda: bfrpg.scene_options("doughbert_melee"),
    "bfrpg.Scene": lambda: bfrpg.scene("doughbert_melee"),
    "damage.Term": lambda: widgets.damage.Term("dice", 1, count=1, sides=6),
    "damage.DamageExpr": lambda: widgets.damage.parse_damage("1D6+1+DB"),
    "underface.CheckSettings": lambda: uf.CheckSettings(),
    "grid.FlightMap": lambda: grid.flight_map(TERRAIN, (0, 0), 30),
    "notation.Roll": lambda: widgets.notation.parse("2D6+1>=7"),
    "notation.Sum": lambda: widgets.notation.parse_expression("2D6+1"),
    "notation.Comparison": lambda: widgets.notation.parse("2D6>=7").comparison,
    "dice.OpenDist": lambda: widgets.dice.exploding_sum(1, 6, below=20),
    "commands.CountRoll": lambda: widgets.notation.parse("3B6>=4"),
    "commands.RerollRoll": lambda: widgets.notation.parse("2R6[6]>=5"),
    "commands.UpperRoll": lambda: widgets.notation.parse("2U6[5]"),
    "commands.D66Roll": lambda: widgets.notation.parse("D66A"),
    "commands.CthulhuRoll": lambda: widgets.notation.parse("CC(1)<=50"),
    "commands.CthulhuClassicRoll": lambda: widgets.notation.parse("CCB<=50"),
    "commands.ChoiceRoll": lambda: widgets.notation.parse("choice[a,b,c]"),
    "commands.RepeatRoll": lambda: widgets.notation.parse("x3 2D6>=7"),
    "commands.CalcRoll": lambda: widgets.notation.parse("C(1+2)"),
    "fight.FightOdds": lambda: widgets.fight.FightOdds(("win",), [{"win": Fraction(1, 2)}], Fraction(1, 2)),
    "fight.Chain": lambda: COIN,
}


def _fields(make) -> dict:
    value = make()
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


#: Valid base arguments (by name) of the callables that test_properties.BASE does not cover.
EXTRA_BASE: dict[str, dict] = {
    "errors.particle": {"word": 12, "pair": "이/가"},
    "errors.shown": {"value": 12, "limit": 40},
    "errors.require_int": {"value": 3, "name": "dice", "name_ko": "주사위", "low": 0, "high": 10},
    "errors.require_number": {"value": 7, "name": "distance", "name_ko": "거리", "low": 0, "high": 12},
    "errors.require_text": {"value": "탄넨", "name": "name", "name_ko": "이름", "max_length": 100},
    "errors.require_items": {"value": [(0, 0)], "name": "path", "name_ko": "경로", "max_items": 10},
    "errors.round_up": {"numerator": 7, "denominator": 2},
    "limits.check_sum": {"count": 20, "sides": 6},
    "limits.check_sum_size": {"size": 100},
    "limits.keep_work": {"count": 150, "keep": 40, "sides": 8},
    "limits.check_keep": {"count": 200, "keep": 10, "sides": 6},
    "limits.check_pairs": {"pairs": 100},
    "limits.check_product": {"bits": 1000},
    "limits.refuse_pool": {"count": 1001},
    "dice.Dist.constant": {"value": 3},
    "dice.Dist.probability": {"value": 3},
    "dice.Dist.at_least": {"threshold": 3},
    "dice.Dist.at_most": {"threshold": 3},
    "dice.Dist.between": {"low": 3, "high": 6},
    "dice.Dist.repeat_sum": {"times": 3},
    "ranges.Band": {"label": "단거리", "lower": Fraction(0), "upper": Fraction(10), "modifier": 1},
    "ranges.RangeBands.increments": {"increment": 30, "penalty_per_step": 2, "max_increments": 6},
    "ranges.RangeBands.brackets": {"short": 50, "medium": 100, "long": 150, "modifiers": [1, 0, -2]},
    "ranges.RangeBands.multiples": {"base_range": 60, "factors": [1, 2], "difficulties": ["보통", "어려움"]},
    "ranges.RangeBands.from_uppers": {"rows": [("가까움", 10, 0, None), ("멂", 30, -1, None)]},
    "ranges.RangeBands": {"bands": (INSTANCES["ranges.RangeBands"]().bands[0],)},
    "dice.Dist.bands": {"bands": [("low", None, 3), ("high", 4, None)]},
    "limits.check_sum_groups": {"groups": [(100, 100), (99, 99)]},
    "ranges.RangeBands.half_range": {"weapon_range": 24, "long_modifier": -1},
    "ranges.RangeBands.band": {"distance": 70},
    "ranges.RangeBands.in_range": {"distance": 70},
    "grid.Terrain": {"width": 8, "height": 6, "blocked": {(4, 0)}, "enemies": {(6, 4)}},
    "grid.Terrain.inside": {"square": (1, 1)},
    "grid.Terrain.index": {"square": (1, 1)},
    "grid.Terrain.square": {"index": 9},
    "grid.Terrain.is_engaged": {"square": (5, 4)},
    "grid.Terrain.check_start": {"start": (0, 0)},
    "grid.CostMap": _fields(INSTANCES["grid.CostMap"]),
    "grid.CostMap.best_state": {"square": (2, 2)},
    "grid.CostMap.feet": {"square": (2, 2)},
    "grid.CostMap.path_to": {"square": (2, 2)},
    "grid.CostMap.previous": {"square": (2, 2)},
    "grid.CostMap.band": {"square": (2, 2)},
    "damage.Term": {"kind": "dice", "sign": 1, "count": 1, "sides": 6, "value": 0, "divisor": 1},
    "bfrpg.MovementRow": {"armor": "가죽갑옷", "load": "가벼운 무게", "rate": 30,
                          "source_squares": (6, 4, 16, 8)},
    "bfrpg.MoveOptions": _fields(INSTANCES["bfrpg.MoveOptions"]),
    "bfrpg.MoveOptions.option": {"square": (1, 1)},
    "bfrpg.MoveOptions.feet": {"square": (1, 1)},
    "bfrpg.MoveOptions.path_to": {"square": (1, 1)},
    "bfrpg.MissileCheck": {"distance": 35, "range_label": "단거리", "modifier": 1, "sight": "clear"},
    "bfrpg.Mark": {"label": "A", "square": (1, 1), "expect": "walk", "feet": 5, "exact": True},
    "bfrpg.Scene": _fields(INSTANCES["bfrpg.Scene"]),
    "bfrpg.Token": {"name": "도우버트", "square": (1, 1), "facing": "N"},
    "pf2e.Modifier": {"kind": "status", "value": 1},
    "underface.Armor": {"name": "가죽 갑옷", "armor_value": 2, "penalty": 5},
    "underface.Character": {"name": "A", "dex": 12, "ranged": False, "weapon_skill": 50, "pc": True},
    "underface.CheckSettings": {"fumble_from": 96, "special_divisor": 5, "hard_divisor": 2,
                                "hard_penalty": 20},
    "underface.Weapon": {"name": "롱보우", "kind": "ranged", "skill": "활", "base_chance": 5,
                         "damage": "1D8+1", "hands": 2, "range_m": 90},
    "hunters_moon.DestroyOdds": {"hit": Fraction(1, 2), "critical": Fraction(1, 36),
                                 "destroy": Fraction(1, 4), "body_loss": 4,
                                 "expected_body_loss": Fraction(1)},
    "hunters_moon.CombatCourse": {"rounds": ("melee1",), "ended_by": "no_pursuit", "pcs_win": False,
                                  "spoils_rolls": 0},
    "hunters_moon.PlottedPC": {"name": "A", "plot": 2, "tie_roll": 3},
    "hunters_moon.PlacedThreat": {"name": "X", "paragraph": 2},
    "bfrpg.MoveOptions.parting_shots": {"square": (1, 1)},
    "bfrpg.MoveOptions.walked": {"square": (1, 1)},
    "grid.FlightMap": _fields(INSTANCES["grid.FlightMap"]),
    "grid.FlightMap.feet": {"square": (2, 2)},
    "grid.FlightMap.foes": {"square": (2, 2)},
    "grid.FlightMap.path_to": {"square": (2, 2)},
    "grid.Terrain.foes_next_to": {"square": (5, 4)},
    "grid.Terrain.foes_of": {"mask": 1},
    "limits.check_expression_work": {"keep_work_total": 1000, "product_bits_total": 1000},
    "notation.Comparison": {"operator": ">=", "target": 7},
    "notation.Comparison.holds": {"total": 7},
    "notation.Constant": {"value": 3},
    "notation.Dice": {"count": 2, "sides": 6},
    "notation.Divided": {"part": widgets.notation.parse_expression("1D6"), "divisor": 2},
    "notation.D66Dice": {"count": 2},
    "notation.FateDice": {"count": 4},
    "notation.Special": {"count": 3, "sides": 6, "kind": "explode", "faces": frozenset({6})},
    "commands.CountRoll": _fields(INSTANCES["commands.CountRoll"]),
    "commands.RerollRoll": _fields(INSTANCES["commands.RerollRoll"]),
    "commands.UpperRoll": _fields(INSTANCES["commands.UpperRoll"]),
    "commands.CthulhuRoll": _fields(INSTANCES["commands.CthulhuRoll"]),
    "commands.CthulhuClassicRoll": _fields(INSTANCES["commands.CthulhuClassicRoll"]),
    "commands.ChoiceRoll": _fields(INSTANCES["commands.ChoiceRoll"]),
    "commands.RepeatRoll": _fields(INSTANCES["commands.RepeatRoll"]),
    "commands.CalcRoll": _fields(INSTANCES["commands.CalcRoll"]),
    "commands.CthulhuRoll.level": {"total": 40},
    "commands.CthulhuClassicRoll.level": {"total": 40},
    "notation.Comparison.faces": {"sides": 6},
    "notation.bcdice_divide": {"value": 7, "divisor": 2, "rounding": "R"},
    "dice.OpenDist": {"weights": {1: 1, 2: 1}, "total": 3, "cut": 3},
    "dice.OpenDist.at_least": {"threshold": 3},
    "dice.OpenDist.at_most": {"threshold": 3},
    "dice.OpenDist.probability": {"value": 3},
    "dice.OpenDist.trimmed": {"rest": Fraction(1, 1000), "keep_below": 5},
    "dice.exploding_sum": {"count": 2, "sides": 6, "explode_on": [6], "penetrating": False, "below": 30},
    "dice.chain_count": {"count": 2, "sides": 6, "continue_on": [6], "counted": [5, 6], "below": 10},
    "dice.open_series": {"P": ((1, 1),), "m": 2, "K": ((1, 1),), "n": 1, "below": 20},
    "dice.explode_series": {"sides": 6, "faces": frozenset({6}), "penetrating": False},
    "dice.chain_series": {"sides": 6, "continue_on": frozenset({6}), "counted": frozenset({5, 6})},
    "dice.series_work": {"P": ((1, 1), (2, 1)), "m": 3, "K": ((3, 1),), "n": 2, "cut": 40},
    "dice.series_reach": {"P": ((1, 1),), "m": 2, "K": ((1, 1),), "n": 1, "rest": Fraction(1, 10**6)},
    "limits.check_open": {"reach": 100, "steps": 100, "bits": 1000},
    "limits.fight_work": {"steps": 40, "moves": 2000, "step_bits": 30, "results": 2},
    "limits.check_fight": {"steps": 40, "moves": 2000, "step_bits": 30, "results": 2},
    "fight.walk": {"chain": COIN, "start": "up", "min_steps": 3},
    "fight.race": {"first": COIN, "first_start": "up", "second": COIN, "second_start": "up",
                   "keys": ("a", "b"), "min_steps": 3},
    "fight.FightOdds.chance": {"key": "win", "by": 1},
    "fight.FightOdds.ended": {"by": 1},
    "underface.Fighter": {"attack": 60, "defence": 50, "weapon": "숏소드", "db": "+1D4", "armor": 1,
                          "hp": 12, "max_hp": 14},
}

#: Public callables with no integer-like parameter (text, flags, distributions, lists, terrains).
NO_INTEGER = {
    "datafiles.read_csv", "datafiles.read_json",
    "errors.RuleInputError", "errors.require_bool", "errors.require_choice",
    "errors.require_instance", "limits.check_sum_groups", "limits.limits_table",
    "dice.Dist", "dice.Dist.outcomes", "dice.Dist.probabilities", "dice.Dist.bands",
    "dice.Dist.mean", "dice.Dist.map", "dice.d3_from_d6", "dice.dice_groups_sum",
    "ranges.RangeBands", "ranges.RangeBands.from_uppers", "ranges.RangeBands.table",
    "ranges.bfrpg_missile_bands",
    "grid.Terrain.to_js", "grid.CostMap.costs", "grid.CostMap.bands", "grid.path_feet",
    "damage.Term.dist", "damage.DamageExpr", "damage.DamageExpr.dist", "damage.DamageExpr.weapon_max",
    "damage.DamageExpr.special_dist", "damage.parse_damage", "damage.db_dist", "damage.DbOption",
    "damage.damage_dist", "damage.special_damage_dist", "damage.from_probabilities",
    "bfrpg.Disagreement", "bfrpg.MoveOptions.options", "bfrpg.Scene.terrain",
    "bfrpg.movement_rate", "bfrpg.path_cost", "bfrpg.movement_table", "bfrpg.table_disagreements",
    "bfrpg.source_disagreements", "bfrpg.can_attack_after", "bfrpg.simultaneous_move_order",
    "bfrpg.scene", "bfrpg.scene_options",
    "bfrpg.scene_rear_attackers",
    "pf2e.stack_modifiers", "pf2e.strike_sequence",
    "underface.CheckSettings.rows", "underface.turn_order", "underface.ranged_defence",
    "hunters_moon.StatusRule", "hunters_moon.success_chance", "hunters_moon.bound_round_end_loss",
    "hunters_moon.failure_chance", "underface.hit_chance", "underface.success_chance",
    "pf2e.success_or_better", "trench_crusade.success_or_better", "errors.require_odds", "dice.or_better",
    "hunters_moon.flying_damage", "hunters_moon.diving_auto_hit", "hunters_moon.round_order",
    "hunters_moon.can_target_threat", "dice.groups_product_bits", "grid.walk_feet",
    "notation.Named", "notation.Roll", "notation.Roll.dist", "notation.Roll.odds", "notation.Sum",
    "notation.Sum.bounds", "notation.Sum.dist", "notation.distribution", "notation.parse",
    "notation.parse_expression", "notation.roll_odds",
    "dice.OpenDist.closed", "dice.OpenDist.map_increasing", "dice.OpenDist.mean", "dice.OpenDist.outcomes",
    "dice.OpenDist.probabilities", "dice.OpenDist.rest_probability", "commands.CountRoll",
    "commands.RerollRoll",
    "commands.CalcRoll.dist", "commands.CalcRoll.replay", "commands.ChoiceRoll.chances",
    "commands.ChoiceRoll.outcome_count", "commands.ChoiceRoll.replay", "commands.CountRoll.dist",
    "commands.CountRoll.faces", "commands.CountRoll.has_odds", "commands.CountRoll.replay",
    "commands.CthulhuClassicRoll.dist", "commands.CthulhuClassicRoll.replay",
    "commands.CthulhuRoll.dist", "commands.CthulhuRoll.replay", "commands.D66Roll", "commands.D66Roll.dist",
    "commands.D66Roll.replay", "notation.Negate", "notation.Product", "commands.RepeatRoll.dist",
    "commands.RepeatRoll.has_odds", "commands.RepeatRoll.replay", "commands.RerollRoll.dist",
    "commands.RerollRoll.replay", "notation.Roll.has_odds", "notation.Roll.replay", "notation.Roll.roundings",
    "commands.UpperRoll.dist", "commands.UpperRoll.highest", "commands.UpperRoll.replay",
    "fight.Chain", "fight.Chain.start", "fight.Chain.step", "fight.FightOdds", "fight.FightOdds.cumulative",
    "fight.FightOdds.mean_steps", "fight.length", "underface.duel",
}

#: Public classes that are not calls of this library's own code.
NOT_LIBRARY_CALLS = {"pf2e.Rank": "an IntEnum: Rank(n) is Python's enum lookup (the API takes a "
                                  "rank by name or as a Rank member)"}


def _base_kwargs() -> dict[str, dict]:
    out = dict(EXTRA_BASE)
    for qualified, (args, kwargs) in FUNCTION_BASE.items():
        bound = inspect.signature(CALLABLES[qualified]).bind(*args, **kwargs)
        out[qualified] = dict(bound.arguments)
    return out


BASE = _base_kwargs()


def target(qualified: str):
    """The thing to call for ``qualified`` (a bound method for instance methods)."""
    raw = CALLABLES[qualified]
    owner = qualified.rsplit(".", 1)[0]
    if owner in CALLABLES and inspect.isclass(CALLABLES[owner]):
        cls = CALLABLES[owner]
        if isinstance(raw, (classmethod, staticmethod)):
            return getattr(cls, qualified.rsplit(".", 1)[1])
        return getattr(INSTANCES[owner](), qualified.rsplit(".", 1)[1])
    return raw


def signature(qualified: str) -> inspect.Signature:
    raw = CALLABLES[qualified]
    if isinstance(raw, (classmethod, staticmethod)):
        raw = raw.__func__
    sig = inspect.signature(raw)
    params = [p for p in sig.parameters.values() if p.name not in ("self", "cls")]
    return sig.replace(parameters=params)


def _number(value: object) -> bool:
    return isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)


def _square(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


def integer_params(qualified: str) -> list[str]:
    """Parameters that take a whole number: by annotation (``int``/``float`` in it), by an int
    default, or by the valid base value."""
    base = BASE.get(qualified, {})
    names = []
    for p in signature(qualified).parameters.values():
        parts = {part.strip() for part in str(p.annotation).replace("'", "").split("|")}
        if parts & {"int", "float"} or _number(p.default) or _number(base.get(p.name)):
            names.append(p.name)
    return names


def square_params(qualified: str) -> list[str]:
    base = BASE.get(qualified, {})
    return [name for name, value in base.items() if _square(value)]


def probes(qualified: str):
    """(label, kwargs, given value) with one argument or one coordinate set to a huge value."""
    base = BASE[qualified]
    for name in integer_params(qualified):
        for value in HUGE:
            yield f"{name}={_label(value)}", {**base, name: value}, value
    for name in square_params(qualified):
        for value in HUGE:
            for i in (0, 1):
                square = list(base[name])
                square[i] = value
                yield f"{name}[{i}]={_label(value)}", {**base, name: tuple(square)}, value


def _label(value: int) -> str:
    return str(value) if abs(value) < 10**30 else f"{len(str(abs(value)))}-digit"


def _digits_ko(value: int) -> str:
    return f"{len(str(abs(value)))}자리 수"


class Runaway(Exception):
    pass


def _alarm(signum, frame):
    raise Runaway()


def _empty_caches() -> None:
    for module in MODULES:
        for obj in vars(module).values():
            if callable(getattr(obj, "cache_clear", None)):
                obj.cache_clear()


def run_once(call, kwargs):
    """(outcome, result or error, seconds) of one call, stopped after :data:`RUNAWAY` seconds."""
    _empty_caches()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, RUNAWAY)
    start = time.perf_counter()
    try:
        try:
            result = call(**kwargs)
            outcome = "answer"
        except RuleInputError as err:
            result, outcome = err, "refused"
        finally:
            elapsed = time.perf_counter() - start
            signal.setitimer(signal.ITIMER_REAL, 0)
    except Runaway:
        return "runaway", None, RUNAWAY
    finally:
        signal.signal(signal.SIGALRM, previous)
    return outcome, result, elapsed


def measure(call, kwargs):
    """The outcome of the call, its best time of 3 runs and its tracemalloc peak."""
    outcome, result, best = run_once(call, kwargs)
    if outcome != "runaway" and best < 20 * TIME_LIMIT:   # a slow call is not worth repeating
        for _ in range(2):
            best = min(best, run_once(call, kwargs)[2])
    peak = 0
    if outcome != "runaway" and best < 20 * TIME_LIMIT:   # already too slow: the time says so
        tracemalloc.start()
        try:
            run_once(call, kwargs)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return outcome, result, best, peak


def check_answer(result) -> None:
    """A correct-looking answer: exact odds sum to 1 (small distributions are read in full)."""
    if isinstance(result, Dist):
        assert result.total > 0 and result.min <= result.max
        if len(result.outcomes()) <= 1000:
            check_exact(result)
    elif isinstance(result, dict) and result and all(isinstance(v, Fraction) for v in result.values()):
        check_exact(result)


PROBED = sorted(q for q in BASE if q in CALLABLES and (integer_params(q) or square_params(q)))


def test_every_public_callable_is_probed_or_listed():
    public = set(CALLABLES) - set(NOT_LIBRARY_CALLS)
    assert sorted(public - set(PROBED) - NO_INTEGER) == [], "neither probed nor listed"
    assert sorted(NO_INTEGER - public) == [], "listed but not public"
    assert sorted(set(BASE) - set(CALLABLES)) == [], "base calls of unknown names"
    # the list holds only callables that take no whole number (by annotation or default)
    assert [q for q in sorted(NO_INTEGER) if integer_params(q)] == []
    assert sorted(NO_INTEGER & set(PROBED)) == []


#: Callables whose every call is a refusal (their base call too).
ALWAYS_REFUSES = {"limits.refuse_pool"}


def test_base_calls_answer():
    for qualified in sorted(BASE):
        outcome, result, _ = run_once(target(qualified), BASE[qualified])
        assert outcome == ("refused" if qualified in ALWAYS_REFUSES else "answer"), (qualified, result)


@pytest.mark.parametrize("qualified", PROBED)
def test_huge_values_are_answered_or_refused_at_once(qualified):
    call = target(qualified)
    slow = []
    for label, kwargs, value in probes(qualified):
        outcome, result, seconds, peak = measure(call, kwargs)
        where = f"{qualified}({label})"
        assert outcome != "runaway", f"{where} still running after {RUNAWAY} s"
        if seconds >= TIME_LIMIT or peak >= MEMORY_LIMIT:
            slow.append(f"{where}: {outcome} in {seconds * 1000:.0f} ms, {peak / 2**20:.1f} MB")
        if outcome == "refused":
            korean = result.korean
            assert HANGUL.search(korean), (where, korean)
            assert str(value) in korean or _digits_ko(value) in korean, \
                f"{where}: the message does not name the given value: {korean}"
        else:
            check_answer(result)
    assert slow == []


# --- long text and long or endless sequences ------------------------------------------------------
#: Text of ten million characters: one word, and five million short words.
LONG_TEXTS = ("가" * 10**7, "x " * (5 * 10**6))
LONG_LIST = 10**7       # items of a list given whole
LONG_MAPPING = 10**6    # entries of a mapping given whole


def _endless(item):
    while True:   # a Python generator, so the runaway alarm can stop a reader that never ends
        yield item


def _sequence(value: object) -> bool:
    return isinstance(value, (list, tuple, set, frozenset, dict)) and not _square(value) and len(value) > 0


def long_inputs(qualified: str):
    """(label, kwargs) with one text argument made ten million characters long, or one sequence
    argument ten million items long (a list given whole, and an endless generator)."""
    base = BASE[qualified]
    for name, value in base.items():
        if isinstance(value, str):
            for text in LONG_TEXTS:
                yield f"{name}=<{len(text)} characters>", {**base, name: text}
        elif _sequence(value) and isinstance(value, dict):
            key, item = next(iter(value.items()))
            many = {f"{key}{i}" if isinstance(key, str) else i: item for i in range(LONG_MAPPING)}
            yield f"{name}=<{LONG_MAPPING} entries>", {**base, name: many}
        elif _sequence(value):
            item = next(iter(value))
            yield f"{name}=<{LONG_LIST} items>", {**base, name: [item] * LONG_LIST}
            yield f"{name}=<endless>", {**base, name: _endless(item)}


LONG_PROBED = sorted(q for q in BASE if any(True for _ in long_inputs(q)))


@pytest.mark.parametrize("qualified", LONG_PROBED)
def test_long_text_and_sequences_are_answered_or_refused_at_once(qualified):
    call = target(qualified)
    slow = []
    for label, kwargs in long_inputs(qualified):
        outcome, result, seconds, peak = measure(call, kwargs)
        where = f"{qualified}({label})"
        assert outcome != "runaway", f"{where} still running after {RUNAWAY} s"
        if seconds >= TIME_LIMIT or peak >= MEMORY_LIMIT:
            slow.append(f"{where}: {outcome} in {seconds * 1000:.0f} ms, {peak / 2**20:.1f} MB")
        if outcome == "refused":
            assert HANGUL.search(result.korean), (where, result.korean)
            assert len(result.korean) < 400, (where, result.korean[:400])
        else:
            check_answer(result)
    assert slow == []


# --- the reader's side: the Basic Fantasy diagonal box ------------------------------------------
@pytest.mark.parametrize("typed", ["10000000", "30000000", "100001", "1" + "0" * 400])
def test_the_diagonal_widget_refuses_a_huge_count_at_once_in_korean(typed):
    from widgets.views.bfrpg import diagonal_widget
    from widgets.views.engine import answer

    request = json.dumps({"origin": diagonal_widget().origin,
                          "values": {"diag": typed, "orth": "0", "rate": "30"}})
    outcome, reply, seconds, peak = measure(lambda request: json.loads(answer(request)),
                                            {"request": request})
    assert outcome == "answer" and "error" in reply, reply
    message = reply["error"]
    assert "대각선 칸 수" in message, message
    assert typed in message or _digits_ko(int(typed)) in message, message
    assert "경로" not in message and "목록" not in message, message   # no internal path list
    assert seconds < TIME_LIMIT and peak < MEMORY_LIMIT, (seconds, peak)


def test_the_diagonal_widget_still_answers_off_slider_counts():
    from widgets.views.bfrpg import diagonal_widget
    from widgets.views.engine import answer

    origin = diagonal_widget().origin
    reply = json.loads(answer(json.dumps({"origin": origin,
                                          "values": {"diag": "99", "orth": "3", "rate": "40"}})))
    # 99 diagonals: 49 pairs of 15 ft and one 5 ft; 3 orthogonal squares 15 ft
    feet = 49 * 15 + 5 + 15
    assert f"<b>{feet}피트</b>" in reply["h"], reply
    assert feet == grid.path_feet([(i, i) for i in range(100)] + [(99 + j, 99) for j in range(1, 4)])


def _book_widgets():
    from test_engine import WIDGETS
    return WIDGETS


@pytest.mark.parametrize("where,data", _book_widgets(), ids=[d["uid"] for _, d in _book_widgets()])
def test_every_number_box_of_the_book_takes_huge_values_at_once(where, data):
    """What a reader may type into any number box: answered or refused in Korean, at once."""
    from widgets.views.live import rebuild

    widget = rebuild(data["origin"])
    defaults = {c.name: c.key(c.default) for c in widget.controls}
    slow = []
    for control in (c for c in widget.controls if c.kind == "number"):
        for value in HUGE:
            raw = {**defaults, control.name: str(value)}
            outcome, reply, seconds, peak = measure(widget.answer, {"raw": raw})
            where = f"{data['uid']}.{control.name}={_label(value)}"
            assert outcome == "answer", (where, reply)
            if seconds >= TIME_LIMIT or peak >= MEMORY_LIMIT:
                slow.append(f"{where}: {seconds * 1000:.0f} ms, {peak / 2**20:.1f} MB")
            if "error" in reply:
                assert HANGUL.search(reply["error"]) and "입력을 처리할 수 없습니다" not in reply["error"], \
                    (where, reply["error"])
    assert slow == []


@pytest.mark.parametrize("typed", ["1" + "0" * 5000, "9" * 10**6])
def test_a_number_too_long_to_read_is_refused_in_korean_by_its_box(typed):
    from widgets.views.bfrpg import diagonal_widget

    outcome, reply, seconds, peak = measure(diagonal_widget().answer,
                                            {"raw": {"diag": typed, "orth": "0", "rate": "30"}})
    assert reply["error"].startswith("대각선 칸 수: 숫자가 너무 깁니다"), reply
    assert seconds < TIME_LIMIT and peak < MEMORY_LIMIT, (seconds, peak)


# --- the built site: the reader types a huge count into the diagonal box --------------------------
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_on_the_site_a_huge_diagonal_count_shows_the_korean_message_and_keeps_the_answer(
        browser, site_url, screen):
    from conftest import OfflinePage
    from test_site_engine import shown, wait_engine

    offline_page = OfflinePage(browser, site_url, **(PHONE if screen == "phone" else {}))
    try:
        page = offline_page.open("book/bfrpg.html")
        page.locator('[data-live="bf-diagonal"]').scroll_into_view_if_needed()
        assert offline_page.type_value("bf-diagonal", "diag", "10000000") == "live:error"
        wait_engine(offline_page)
        page.evaluate("() => LiveBook.settled('bf-diagonal')")
        after = shown(offline_page, "bf-diagonal")
        # the answer stays at the last count typed on the way that the library accepts (1, 10, …)
        assert re.match(r"<p>대각선 10*칸 ", after["h"]), after["h"]
        assert "대각선 칸 수는 0부터 10000까지의 정수여야 합니다 (입력값: 10000000)" in after["status"]
        # with the engine running, another huge count is refused as fast as any answer
        elapsed = page.evaluate("""async () => {
            const t = performance.now();
            await LiveBook.set("bf-diagonal", {diag: "30000000"});
            return performance.now() - t; }""")
        again = shown(offline_page, "bf-diagonal")
        assert "(입력값: 30000000)" in again["status"] and again["h"] == after["h"]
        assert elapsed < 2000, elapsed
        assert offline_page.off_site == [] and offline_page.errors == []
    finally:
        offline_page.close()
