"""Trench Crusade: success rolls, ±DICE, markers, injuries and charges (rules math and data).

Source: ``seeds/003`` (core rules digest, pp. 22–28, 33–34); supplementary rules (injury chart,
armour, ranged modifiers, charge reach) from ``rules-notes.md`` (official rules v1.x).

>>> success_odds(dice=0)
{'failure': Fraction(5, 12), 'success': Fraction(5, 9), 'critical': Fraction(1, 36)}
>>> net_dice(plus=2, minus=1)
1
>>> kept_total([3, 4, 5], dice=+1), kept_total([3, 4, 5], dice=-1)
(9, 7)
>>> round_up(7, 2)   # "fractions are rounded up": the library's one rounding rule
4
"""
from __future__ import annotations

from fractions import Fraction
from itertools import islice

from . import dice as dice_lib  # the rules' own word "dice" names the ±DICE arguments
from . import limits
from .errors import (RuleInputError, require_bool, require_choice, require_int, require_number,
                     require_odds, round_up)
from .fight import Chain, FightOdds, walk
from .ranges import RangeBands

#: Net ±DICE accepted by the API: each DICE is one more die rolled (the library's pool limit).
MAX_NET_DICE = limits.MAX_NET_DICE
#: Flat modifiers to a 2D6 total beyond this make every band certain; refuse them as typos.
MAX_MODIFIER = 100

# --- success roll chart (p. 24) -----------------------------------------------------------
#: (key, Korean label, lowest total, highest total); None = open end.
SUCCESS_CHART: tuple[tuple[str, str, int | None, int | None], ...] = (
    ("failure", "실패", None, 6),
    ("success", "성공", 7, 11),
    ("critical", "대성공", 12, None),
)

# --- injury chart (supplementary: official rules v1.x via rules-notes) --------------------
INJURY_CHART: tuple[tuple[str, str, int | None, int | None], ...] = (
    ("no_effect", "효과 없음", None, 1),
    ("minor_hit", "경상: 유혈 표식 +1", 2, 6),
    ("down", "중상: 유혈 표식 +1, 이미 중상이면 +2", 7, 8),
    ("out_of_action", "전투 불능", 9, None),
)

#: Armour on injury rolls (supplementary): Korean label → amount subtracted from the total.
ARMOUR: dict[str, int] = {
    "없음": 0,
    "표준 갑옷": 1,
    "강화 갑옷": 2,
    "기계 갑옷": 3,
}
#: A trench shield subtracts one more and stacks with armour.
TRENCH_SHIELD = 1

#: Blood markers a model must have spent at once for a bloodbath: normal / Down.
BLOODBATH_COST = {"normal": 6, "down": 3}

#: Where ±DICE come from: key → (situation, the roll it changes, DICE, basis). Markers give that
#: many DICE per marker spent, up to the markers the model carries. Basis "요약본" is the source
#: digest; "보충" the official rules v1.x (supplementary, rules-notes).
DICE_SOURCES: dict[str, tuple[str, str, int, str]] = {
    "blood_action": ("상대가 유혈 표식을 씀 (표식 1개마다)", "그 미니어처의 행동", -1, "요약본"),
    "blood_injury": ("상대가 유혈 표식을 씀 (표식 1개마다)", "그 미니어처가 받는 부상 굴림", +1, "요약본"),
    "blessing_action": ("주인이 축복 표식을 씀 (표식 1개마다)", "그 미니어처의 행동", +1,
                        "요약본 (쓰는 사람이 주인인 것은 가정)"),
    "blessing_injury": ("주인이 축복 표식을 씀 (표식 1개마다)", "그 미니어처가 받는 부상 굴림", -1,
                        "요약본 (쓰는 사람이 주인인 것은 가정)"),
    "critical": ("공격의 성공 굴림이 대성공", "그 공격의 부상 굴림", +1, "요약본 (크기 1은 보충)"),
    "target_down": ("대상이 중상 상태", "그 대상이 받는 부상 굴림", +1, "보충"),
    "own_down": ("자신이 중상 상태", "자기 행동", -1, "보충"),
    "cover": ("대상이 엄폐", "원거리 공격", -1, "보충"),
    "long_range": ("무기 사거리의 절반보다 멂", "원거리 공격", -1, "보충"),
    "elevated": ('대상보다 2" 넘게 높은 곳에서 쏨', "원거리 공격", +1, "보충"),
    "defended_obstacle": ("방어된 장애물 너머의 적", "근접 공격", -1, "보충"),
}


def _check_dice(value: object) -> int:
    return require_int(value, "dice", "±DICE", -MAX_NET_DICE, MAX_NET_DICE)


def _check_modifier(value: object) -> int:
    return require_int(value, "modifier", "보정치", -MAX_MODIFIER, MAX_MODIFIER)


def net_dice(plus: int = 0, minus: int = 0) -> int:
    """Cancel +DICE against −DICE: the net count (positive = keep highest).

    ``minus`` is the number of −DICE, given as a positive count.

    >>> net_dice(1, 1), net_dice(2, 1), net_dice(1, 2)
    (0, 1, -1)
    """
    plus = require_int(plus, "plus", "+DICE 개수", 0, MAX_NET_DICE)
    minus = require_int(minus, "minus", "−DICE 개수", 0, MAX_NET_DICE)
    return plus - minus


def kept_total(rolls: list[int], dice: int) -> int:
    """Total of an actual ±DICE roll: keep the 2 highest (``dice`` > 0) or lowest (< 0) faces.

    >>> kept_total([6, 1, 2, 6], dice=+2)
    12
    """
    net = _check_dice(dice)
    if isinstance(rolls, (str, bytes)) or not hasattr(rolls, "__iter__"):
        rolls = [rolls]
    faces = [require_int(r, "roll", "주사위 눈", 1, 6)
             for r in islice(rolls, 2 + MAX_NET_DICE + 1)]
    if len(faces) != 2 + abs(net):
        raise RuleInputError(
            f"{net:+d} DICE rolls {2 + abs(net)} dice, got {len(faces)}",
            f"{net:+d} DICE면 주사위 {2 + abs(net)}개를 굴립니다 (입력: {len(faces)}개).",
        )
    return dice_lib.kept_total(faces, 2, highest=net >= 0)


def success_roll(dice: int = 0, modifier: int = 0) -> dice_lib.Dist:
    """Distribution of the success-roll total: 2D6 with net ±DICE, plus a flat modifier.

    >>> success_roll(dice=-1).probability(12)   # all three dice must show 6
    Fraction(1, 216)
    """
    net, mod = _check_dice(dice), _check_modifier(modifier)
    return dice_lib.roll_and_keep(2, net, 6) + mod


def success_odds(dice: int = 0, modifier: int = 0) -> dict[str, Fraction]:
    """Exact odds of failure (2–6), success (7–11) and critical (12+) on the success roll.

    ``dice`` is the net ±DICE after cancelling; ``modifier`` a flat modifier to the total.

    >>> success_odds(dice=1)["critical"]
    Fraction(2, 27)
    >>> sum(success_odds(dice=-50, modifier=3).values())
    Fraction(1, 1)
    """
    return success_roll(dice, modifier).bands((key, lo, hi) for key, _, lo, hi in SUCCESS_CHART)


def success_or_better(odds: dict[str, Fraction]) -> Fraction:
    """성공 이상: success or critical of a :func:`success_odds` result, the chance that an
    action (an attack, a risky action) succeeds.

    >>> success_or_better(success_odds()), success_or_better(success_odds(dice=1))
    (Fraction(7, 12), Fraction(29, 36))
    """
    odds = require_odds(odds, (key for key, _, _, _ in SUCCESS_CHART), "odds",
                        "성공 굴림 확률표(success_odds의 결과)")
    return odds["success"] + odds["critical"]


#: Success rolls each action needs before the activation can go on (risky actions need one; a
#: climb onto a trench fire-step is not risky, p.28).
RISKY_ROLLS: dict[str, int] = {"dash": 1, "climb": 1, "fire_step": 0, "dash_climb": 2}


def risky_chain_odds(dice: int = 0, modifier: int = 0, risky_actions: int = 1) -> Fraction:
    """Chance that a model gets through ``risky_actions`` risky actions (each needs 7+) without
    its activation ending.

    >>> risky_chain_odds(risky_actions=2)   # (7/12)²
    Fraction(49, 144)
    """
    count = require_int(risky_actions, "risky_actions", "위험한 행동 수", 0, 10)
    return success_or_better(success_odds(dice, modifier)) ** count


def markers_to_dice(base_dice: int = 0, blood_spent: int = 0, blessing_spent: int = 0,
                    blood_available: int | None = None,
                    blessing_available: int | None = None) -> int:
    """Net DICE on a model's own action after markers are spent.

    The opponent turns up to the model's blood markers into −DICE; the model's owner turns up to
    its blessing markers into +DICE; then ±DICE cancel.

    >>> markers_to_dice(base_dice=1, blood_spent=3, blessing_spent=1)
    -1
    """
    base = _check_dice(base_dice)
    blood = require_int(blood_spent, "blood_spent", "쓴 유혈 표식", 0, MAX_NET_DICE)
    blessing = require_int(blessing_spent, "blessing_spent", "쓴 축복 표식", 0, MAX_NET_DICE)
    for spent, available, en, ko in ((blood, blood_available, "blood", "유혈"),
                                     (blessing, blessing_available, "blessing", "축복")):
        if available is not None and spent > require_int(available, f"{en}_available",
                                                         f"가진 {ko} 표식", 0, 1000):
            raise RuleInputError(
                f"cannot spend {spent} {en} markers, the model has {available}",
                f"{ko} 표식은 가진 만큼({available}개)만 쓸 수 있습니다 (입력: {spent}개).",
            )
    return _check_dice(base + blessing - blood)


def injury_roll(dice: int = 0, armour: int = 0, modifier: int = 0, bloodbath: bool = False,
                base_dice: int = 2) -> dice_lib.Dist:
    """Distribution of an injury-roll total.

    ``base_dice`` D6 are kept (2 normally, 3 for e.g. a bombardment); a bloodbath keeps one die
    more. Net ``dice`` adds dice to roll and chooses highest/lowest; ``armour`` is subtracted.

    >>> injury_roll(armour=2).min, injury_roll(bloodbath=True).max
    (0, 18)
    """
    net, mod = _check_dice(dice), _check_modifier(modifier)
    armour = require_int(armour, "armour", "갑옷", 0, 20)
    kept = require_int(base_dice, "base_dice", "기본 주사위 수", 1, 10) \
        + (1 if require_bool(bloodbath, "bloodbath", "유혈낭자") else 0)
    return dice_lib.roll_and_keep(kept, net, 6) + (mod - armour)


def injury_odds(dice: int = 0, armour: int = 0, modifier: int = 0, bloodbath: bool = False,
                base_dice: int = 2) -> dict[str, Fraction]:
    """Exact odds of each injury-chart result (supplementary rule).

    >>> injury_odds()["out_of_action"]
    Fraction(5, 18)
    >>> injury_odds(bloodbath=True)["out_of_action"]   # 3D6 ≥ 9
    Fraction(20, 27)
    """
    dist = injury_roll(dice, armour, modifier, bloodbath, base_dice)
    return dist.bands((key, lo, hi) for key, _, lo, hi in INJURY_CHART)


def bloodbath_available(blood_markers: int, down: bool = False) -> bool:
    """Whether the model carries enough blood markers to be spent for a bloodbath.

    >>> bloodbath_available(5), bloodbath_available(3, down=True)
    (False, True)
    """
    markers = require_int(blood_markers, "blood_markers", "유혈 표식", 0, 1000)
    return markers >= BLOODBATH_COST["down" if require_bool(down, "down", "중상 여부") else "normal"]


#: Read a D6 face as a D3 (1–2 → 1, 3–4 → 2, 5–6 → 3): the dice layer's one rule.
d3_from_d6_face = dice_lib.d3_face


def charge_odds(movement: object, distance: object, dice: int = 0) -> Fraction:
    """Chance that a charge (Movement + D6") ends within 1" of a target ``distance`` inches away.

    The target must be within 12" to be charged and the charge reaches melee within 1" (both seed).
    ``dice`` is reserved for effects that add ±DICE to the charge roll (1 D6, so highest/lowest of
    1 + |dice|).

    >>> charge_odds(movement=6, distance=10)   # the D6 must show 3+
    Fraction(2, 3)
    """
    move = require_number(movement, "movement", "이동력", 0, 24)
    gap = require_number(distance, "distance", "거리", 0, 1000)
    if gap > 12:
        raise RuleInputError(
            f'a charge target must be within 12", got {distance}"',
            f'돌격 대상은 12" 안에 있어야 합니다 (입력: {distance}").',
        )
    roll = dice_lib.roll_and_keep(1, _check_dice(dice), 6)
    return roll.at_least(charge_roll_needed(move, gap))


def charge_roll_needed(movement: object, distance: object) -> int:
    """Smallest D6 face that brings a charge within 1" of a target ``distance`` inches away
    (0 when Movement alone is enough; 7 means no face is enough).

    >>> charge_roll_needed(6, 10), charge_roll_needed(6, 7), charge_roll_needed(4, 12)
    (3, 0, 7)
    """
    move = require_number(movement, "movement", "이동력", 0, 24)
    gap = require_number(distance, "distance", "거리", 0, 1000)
    needed = gap - 1 - move  # inches the D6 must cover
    return min(7, max(0, round_up(needed)))


def first_player(models_a: int, models_b: int) -> dict[str, Fraction]:
    """Who activates first: the side with fewer models; equal → a D6 roll-off (re-rolled on a
    tie), so each side has exactly 1/2.

    >>> first_player(5, 7)
    {'A': Fraction(1, 1), 'B': Fraction(0, 1)}
    """
    a = require_int(models_a, "models_a", "A 모델 수", 1, 1000)
    b = require_int(models_b, "models_b", "B 모델 수", 1, 1000)
    if a == b:
        return {"A": Fraction(1, 2), "B": Fraction(1, 2)}
    return {"A": Fraction(int(a < b)), "B": Fraction(int(b < a))}


def activation_order(models_a: int, models_b: int, first: str = "A") -> list[str]:
    """Sequence of activations in one turn: sides alternate; when one side has no model left to
    activate, the other activates the rest (ASSUMPTION: the digest does not say what happens then).

    >>> "".join(activation_order(2, 4, first="A"))
    'ABABBB'
    """
    a = require_int(models_a, "models_a", "A 모델 수", 0, 1000)
    b = require_int(models_b, "models_b", "B 모델 수", 0, 1000)
    first = require_choice(first, "first", "먼저 하는 쪽", ("A", "B"))
    left = {"A": a, "B": b}
    turn, order = first, []
    while left["A"] or left["B"]:
        if left[turn]:
            order.append(turn)
            left[turn] -= 1
        turn = "B" if turn == "A" else "A"
    return order


def ranged_band(distance: object, weapon_range: object):
    """The range band (short / long range −1 DICE) of the half-range rule; beyond the weapon's
    range raises :class:`RuleInputError`.

    >>> ranged_band(12, 24).modifier, ranged_band(13, 24).modifier
    (0, -1)
    """
    return RangeBands.half_range(weapon_range, long_modifier=DICE_SOURCES["long_range"][2],
                                 unit='"').band(distance)


def ranged_dice(distance: object, weapon_range: object, cover: bool = False,
                elevated: bool = False) -> int:
    """Net DICE from the ranged modifiers (supplementary): long range (beyond half the weapon's
    range) −1, cover −1, elevated (more than 2" above) +1. Beyond the weapon's range the attack is
    not allowed (the shared range component raises).

    >>> ranged_dice(20, 24), ranged_dice(12, 24, cover=True, elevated=True)
    (-1, 0)
    """
    band = ranged_band(distance, weapon_range)
    return (band.modifier + DICE_SOURCES["cover"][2] * int(require_bool(cover, "cover", "엄폐"))
            + DICE_SOURCES["elevated"][2] * int(require_bool(elevated, "elevated", "높은 곳")))


def roll_size(dice: int = 0, kept: int = 2) -> tuple[int, int]:
    """How many D6 a roll throws and how many it keeps: ``kept`` + |net ±DICE| thrown.

    A success roll keeps 2; an injury roll 2 (3 for e.g. a bombardment); a bloodbath keeps one
    more (pass ``kept`` + 1).

    >>> roll_size(0), roll_size(+2), roll_size(-1, kept=3)
    ((2, 2), (4, 2), (4, 3))
    """
    net = _check_dice(dice)
    keep = require_int(kept, "kept", "남기는 주사위 수", 1, 10)
    return keep + abs(net), keep


def _chart_key(chart, total: int) -> str:
    for key, _, lo, hi in chart:
        if (lo is None or total >= lo) and (hi is None or total <= hi):
            return key
    raise ValueError(total)   # the charts are open-ended: unreachable


def success_result(rolls: list[int], dice: int = 0, modifier: int = 0) -> str:
    """The success chart's result of actual dice: ``'failure'``, ``'success'`` or ``'critical'``
    (the two kept faces of :func:`kept_total` plus ``modifier``).

    >>> success_result([6, 6]), success_result([6, 2, 3], dice=-1), success_result([3, 4])
    ('critical', 'failure', 'success')
    """
    return _chart_key(SUCCESS_CHART, kept_total(rolls, dice) + _check_modifier(modifier))


def injury_result(rolls: list[int], dice: int = 0, armour: int = 0, modifier: int = 0,
                  bloodbath: bool = False) -> tuple[int, str]:
    """The injury chart's total and result of actual dice (supplementary chart): the kept faces
    (2, or 3 with a bloodbath; the highest for +DICE, the lowest for −DICE) less ``armour``.

    >>> injury_result([5, 4, 2, 1], dice=2, armour=1)
    (8, 'down')
    >>> injury_result([1, 2, 6], bloodbath=True)
    (9, 'out_of_action')
    """
    net, mod = _check_dice(dice), _check_modifier(modifier)
    armour = require_int(armour, "armour", "갑옷", 0, 20)
    thrown, kept = roll_size(net, 2 + int(require_bool(bloodbath, "bloodbath", "유혈낭자")))
    faces = [require_int(r, "roll", "주사위 눈", 1, 6)
             for r in islice(rolls if hasattr(rolls, "__iter__") and not isinstance(rolls, str)
                             else [rolls], thrown + 1)]
    if len(faces) != thrown:
        raise RuleInputError(f"this injury roll throws {thrown} dice, got {len(faces)}",
                             f"이 부상 굴림은 주사위 {thrown}개를 굴립니다 (입력: {len(faces)}개).")
    total = dice_lib.kept_total(faces, kept, highest=net >= 0) + mod - armour
    return total, _chart_key(INJURY_CHART, total)


#: Blood markers an injury result puts on the model (chart, supplementary); a model already
#: Down that is Downed again takes :data:`DOWN_AGAIN_MARKERS`.
INJURY_MARKERS = {"no_effect": 0, "minor_hit": 1, "down": 1, "out_of_action": 0}
DOWN_AGAIN_MARKERS = 2


def markers_after_injury(markers: int, result: str, down: bool = False) -> int:
    """Blood markers a model carries after an injury result (``down``: it was Down already).

    >>> markers_after_injury(1, "down"), markers_after_injury(1, "down", down=True)
    (2, 3)
    """
    markers = require_int(markers, "markers", "유혈 표식", 0, 1000)
    result = require_choice(result, "result", "부상 결과", tuple(INJURY_MARKERS))
    if result == "down" and require_bool(down, "down", "중상 여부"):
        return markers + DOWN_AGAIN_MARKERS
    return markers + INJURY_MARKERS[result]


def charge_reaches(movement: object, distance: object, face: int) -> bool:
    """Whether a charge with this D6 face ends within 1" of the target (:func:`charge_roll_needed`).

    >>> charge_reaches(6, 10, 3), charge_reaches(6, 10, 2)
    (True, False)
    """
    return require_int(face, "face", "돌격 주사위 눈", 1, 6) >= charge_roll_needed(movement, distance)


#: Results of one attack, from the success roll to the injury chart.
ATTACK_RESULTS = ("miss",) + tuple(key for key, _, _, _ in INJURY_CHART)


def attack_odds(dice: int = 0, armour: int = 0, target_down: bool = False,
                injury_dice: int = 0, modifier: int = 0,
                injury_modifier: int = 0) -> dict[str, Fraction]:
    """One ranged or melee attack from the success roll to the injury chart, exactly.

    The success roll (net ``dice``, plus ``modifier``) must reach 7; a success leads to an injury
    roll with ``injury_dice`` (+1 DICE against a target already Down, supplementary) and
    ``injury_modifier`` added to its total, a critical success (12+) adds +1 DICE more (source:
    the size +1 from the official rules); ``armour`` is subtracted. ``modifier``,
    ``injury_dice`` and ``injury_modifier`` are where a weapon's own profile goes.

    >>> odds = attack_odds()
    >>> odds["miss"], odds["out_of_action"]
    (Fraction(5, 12), Fraction(1313, 7776))
    >>> sum(attack_odds(dice=1, armour=2, target_down=True).values())
    Fraction(1, 1)
    >>> attack_odds(injury_modifier=1)["out_of_action"] > odds["out_of_action"]
    True
    """
    roll = success_odds(dice, modifier)
    extra = _check_dice(injury_dice) + (DICE_SOURCES["target_down"][2]
                                        if require_bool(target_down, "target_down", "대상 중상") else 0)
    out = dict.fromkeys(ATTACK_RESULTS, Fraction(0))
    out["miss"] = roll["failure"]
    for key, bonus in (("success", 0), ("critical", DICE_SOURCES["critical"][2])):
        for result, p in injury_odds(_check_dice(extra + bonus), armour, injury_modifier).items():
            out[result] += roll[key] * p
    return out


# --- attacks to take a model out of action (issue 30: widgets.fight) -------------------------
#: How the attacking player spends the target's blood markers on injury rolls (all three are
#: the book's readings, 가정, beside "none"): key → Korean label.
BLOOD_POLICIES: dict[str, str] = {
    "none": "쓰지 않음",
    "dice": "모두 +DICE로 (가정)",
    "bloodbath": "유혈낭자에 바로 (가정)",
}
#: Result key of :func:`attacks_to_out`.
OUT_RESULTS = ("out",)


def _after_injury(result: str, down: bool, tough: bool, markers: int) -> "tuple[bool, bool, int] | str":
    """The target's state (down, TOUGH left, blood markers) after one injury-chart result, or
    ``"out"``."""
    if result == "out_of_action" and not tough:
        return "out"
    if result == "out_of_action":            # TOUGH: the first out of action is down instead
        tough, result = False, "down"
    if result == "minor_hit":
        return down, tough, markers + 1
    if result == "down":
        return True, tough, markers + (2 if down else 1)
    return down, tough, markers


def attacks_to_out(dice: int = 0, modifier: int = 0, injury_dice: int = 0, armour: int = 0,
                   tough: bool = False, blood: str = "none") -> FightOdds:
    """Exact odds that a model is out of action by each attack of one profile.

    Each attack is a success roll (:func:`success_odds`, net ``dice`` and ``modifier``): 7 or
    more hits, 12 or more is a critical (+1 DICE on its injury roll). A hit makes an injury
    roll (:func:`injury_odds`: 2D6 with ``injury_dice``, ``armour`` subtracted, read on the
    injury chart, 보충 규칙): no effect; minor hit (+1 blood marker); down (+1 blood marker, +2 if
    already down); out of action. A down target gives +1 DICE to injury rolls against it;
    ``tough``: the first out-of-action result is down instead. ``blood`` is how the attacking
    player spends the target's blood markers on injury rolls (:data:`BLOOD_POLICIES`), tracked
    exactly: ``"none"``; ``"dice"``: every marker as +1 DICE on each injury roll (가정);
    ``"bloodbath"``: a bloodbath (one more kept die) as soon as the markers pay for it, 6 or 3
    when the target is down (가정), and no marker spent otherwise. Result ``"out"``, one step
    an attack; steps until the rest is at most one in a million.

    Readings (가정): the target starts unhurt with no markers and does nothing between attacks
    (no blessing markers, no recovery); every attack has the same profile; the markers an
    injury roll gives come after it; the down that TOUGH turns an out of action into gives
    markers as a down result does; spent markers are removed.

    >>> odds = attacks_to_out()
    >>> odds.keys, round(float(odds.chance("out", by=1)), 4), round(float(odds.chance("out", by=3)), 4)
    (('out',), 0.1689, 0.4803)
    >>> [round(float(attacks_to_out(armour=2, tough=True, blood=b).chance("out", by=4)), 4)
    ...  for b in BLOOD_POLICIES]
    [0.0364, 0.0826, 0.0629]
    """
    roll = success_odds(dice, modifier)
    base = _check_dice(injury_dice)
    armour = require_int(armour, "armour", "갑옷", 0, 20)
    tough = require_bool(tough, "tough", "강인함(TOUGH)")
    policy = require_choice(blood, "blood", "유혈 표식 쓰는 법", tuple(BLOOD_POLICIES))
    chart: dict = {}

    def injury(extra: int, bloodbath: bool) -> dict[str, Fraction]:
        if (extra, bloodbath) not in chart:
            chart[(extra, bloodbath)] = injury_odds(_check_dice(base + extra), armour,
                                                    bloodbath=bloodbath)
        return chart[(extra, bloodbath)]

    rows: dict = {}
    todo = [(False, tough, 0)]
    while todo:
        state = todo.pop()
        if state in rows:
            continue
        down, tough_left, markers = state
        row: dict = {}

        def add(target, p):
            if p:
                row[target] = row.get(target, Fraction(0)) + p

        add(state, roll["failure"])
        for grade, p in (("success", roll["success"]), ("critical", roll["critical"])):
            extra = DICE_SOURCES["target_down"][2] * down \
                + (DICE_SOURCES["critical"][2] if grade == "critical" else 0)
            spent, bloodbath = 0, False
            if policy == "dice":
                spent = markers
            elif policy == "bloodbath" and bloodbath_available(markers, down):
                spent, bloodbath = BLOODBATH_COST["down" if down else "normal"], True
            for result, q in injury(extra + DICE_SOURCES["blood_injury"][2] * spent * (policy == "dice"),
                                    bloodbath).items():
                target = _after_injury(result, down, tough_left,
                                       markers - spent if policy != "none" else 0)
                if policy == "none" and target != "out":
                    target = (target[0], target[1], 0)
                add(target, p * q)
        rows[state] = row
        todo += [t for t in row if t != "out" and t not in rows]
    return walk(Chain(rows, OUT_RESULTS), (False, tough, 0))
