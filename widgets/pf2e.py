"""Pathfinder 2e attack rolls: bonuses, multiple attack penalty, range increments, AC, DCs, odds.

Source: seed 002 (Korean translation of the PF2e attack-roll rules). Rules the seed refers to but
does not state come from the Player Core and are marked *supplementary* (보충 규칙) below:
proficiency bonuses, stacking of typed bonuses/penalties, degrees of success, off-guard.

>>> multiple_attack_penalty(2, agile=True)
-4
>>> range_penalty(720, 120)
-10
>>> degree_odds(10, 20)["success"]
Fraction(1, 2)
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import Sequence

from . import limits
from .damage import from_probabilities, parse_damage
from .dice import Dist, dice_sum, die
from .errors import RuleInputError, require_bool, require_int, require_odds, shown
from .fight import Chain, FightOdds, walk
from .ranges import RangeBands

#: Bound on any single bonus, penalty or roll modifier (bigger numbers are typos).
MODIFIER_LIMIT = 100
#: Bound on ability modifiers (Str, Dex, spellcasting ability).
ABILITY_LIMIT = 20
#: DCs and ACs accepted by the odds functions.
DC_RANGE = (-100, 200)
#: Player-character levels.
LEVEL_RANGE = (1, 20)
#: Longest list of attacks in one turn the helpers accept.
MAX_ATTACKS = 100

#: Range increments: penalty per increment past the first, and how many increments may be used.
RANGE_PENALTY_PER_INCREMENT = 2
MAX_RANGE_INCREMENTS = 6

#: Degrees of success, best first (the key order of :func:`degree_odds`).
DEGREES = ("critical_success", "success", "failure", "critical_failure")
DEGREE_LABELS_KO = {"critical_success": "대성공", "success": "성공",
                    "failure": "실패", "critical_failure": "대실패"}
DEGREE_RULE = ("보충 규칙 (Player Core): 총합 ≥ DC+10 대성공, ≥ DC 성공, ≤ DC−10 대실패, 그 밖은 실패. "
               "주사위 20은 한 단계 올리고, 1은 한 단계 내린다.")

#: Supplementary rule (Player Core, "Bonuses and Penalties"): the seed names the types but not
#: how they stack.
STACKING_RULE = ("보충 규칙 (Player Core): 같은 종류의 보너스는 가장 큰 것 하나, 같은 종류의 페널티는 가장 "
                 "나쁜 것 하나만 적용한다. 종류 미지정 페널티(다중 공격·사거리 페널티 등)는 모두 더한다. "
                 "보너스에는 종류 미지정이 없다.")
OFF_GUARD_RULE = "보충 규칙 (Player Core): 무방비(off-guard) 상태는 AC에 −2 상황 페널티."
OFF_GUARD_PENALTY = -2


class Rank(IntEnum):
    """Proficiency ranks; the value is what the rank adds on top of the level (untrained: 0,
    and no level either)."""

    UNTRAINED = 0
    TRAINED = 2
    EXPERT = 4
    MASTER = 6
    LEGENDARY = 8


# English and Korean (seed 002 wording: 훈련/전문/달인 등급) names of the ranks.
_RANK_NAMES = {
    "untrained": Rank.UNTRAINED, "미훈련": Rank.UNTRAINED, "비훈련": Rank.UNTRAINED,
    "trained": Rank.TRAINED, "훈련": Rank.TRAINED,
    "expert": Rank.EXPERT, "전문": Rank.EXPERT,
    "master": Rank.MASTER, "달인": Rank.MASTER,
    "legendary": Rank.LEGENDARY, "전설": Rank.LEGENDARY,
}

# Bonus/penalty types (seed 002: 상황/상태/물품 and the 종류 미지정 penalties).
_TYPE_NAMES = {
    "circumstance": "circumstance", "상황": "circumstance",
    "status": "status", "상태": "status",
    "item": "item", "물품": "item",
    "untyped": "untyped", "종류 미지정": "untyped", "미지정": "untyped",
}

_ATTACK_KINDS = {"melee": "melee", "근접": "melee", "ranged": "ranged", "원거리": "ranged",
                 "spell": "spell", "주문": "spell"}


def _rank(rank: object) -> Rank:
    if isinstance(rank, Rank):
        return rank
    if isinstance(rank, str) and len(rank) <= limits.MAX_NAME_TEXT:
        key = rank.strip().lower().removesuffix("등급").strip()
        if key in _RANK_NAMES:
            return _RANK_NAMES[key]
    raise RuleInputError(
        f"unknown proficiency rank {shown(rank)} (untrained, trained, expert, master, legendary)",
        f"숙련 등급은 미훈련·훈련·전문·달인·전설 중 하나여야 합니다 (입력값: {shown(rank)}).",
    )


def _mod(value: object, name: str, name_ko: str, limit: int = MODIFIER_LIMIT) -> int:
    return require_int(value, name, name_ko, -limit, limit)


def _dc(value: object, name: str = "DC", name_ko: str = "DC") -> int:
    return require_int(value, name, name_ko, *DC_RANGE)


def proficiency_bonus(rank: object, level: object) -> int:
    """Proficiency bonus (supplementary, Player Core): untrained 0; trained level+2, expert +4,
    master +6, legendary +8. ``rank`` is a :class:`Rank` or its English/Korean name.

    >>> proficiency_bonus("trained", 1), proficiency_bonus("달인 등급", 5)
    (3, 11)
    """
    r = _rank(rank)
    lvl = require_int(level, "level", "레벨", *LEVEL_RANGE)
    return 0 if r is Rank.UNTRAINED else lvl + int(r)


@dataclass(frozen=True)
class Modifier:
    """A typed bonus (value > 0) or penalty (value < 0). ``kind``: circumstance, status, item,
    or untyped (penalties only); Korean 상황/상태/물품/종류 미지정 also accepted.

    >>> Modifier("상황", 2)
    Modifier(kind='circumstance', value=2)
    """

    kind: str
    value: int

    def __post_init__(self) -> None:
        kind = _TYPE_NAMES.get(self.kind.strip().lower()) if isinstance(self.kind, str) \
            and len(self.kind) <= limits.MAX_NAME_TEXT else None
        if kind is None:
            raise RuleInputError(
                f"unknown bonus type {shown(self.kind)} (circumstance, status, item, untyped)",
                f"보너스/페널티 종류는 상황·상태·물품·종류 미지정 중 하나여야 합니다 "
                f"(입력값: {shown(self.kind)}).",
            )
        value = _mod(self.value, "bonus or penalty", "보너스/페널티")
        if kind == "untyped" and value > 0:
            raise RuleInputError("bonuses always have a type (circumstance, status or item)",
                                 "보너스에는 반드시 종류(상황·상태·물품)가 있어야 합니다.")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "value", value)


def _modifiers(items: object) -> list[Modifier]:
    if isinstance(items, Modifier):
        items = [items]
    if not isinstance(items, (list, tuple)) or len(items) > MAX_ATTACKS:
        raise RuleInputError("modifiers must be a list of (type, value) pairs",
                             "보너스/페널티는 (종류, 값) 쌍의 목록으로 주어야 합니다.")
    out = []
    for item in items:
        if isinstance(item, Modifier):
            out.append(item)
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            out.append(Modifier(*item))
        else:
            raise RuleInputError(f"not a (type, value) pair: {shown(item)}",
                                 f"(종류, 값) 쌍이 아닙니다 (입력값: {shown(item)}).")
    return out


def stack_modifiers(modifiers: Sequence[Modifier | tuple[str, int]]) -> int:
    """Net effect of typed bonuses and penalties (see :data:`STACKING_RULE`): the highest bonus
    and the worst penalty of each type count; untyped penalties all add up.

    >>> stack_modifiers([("circumstance", 1), ("circumstance", 2), ("status", -1),
    ...                  ("status", -2), ("untyped", -5), ("untyped", -2)])
    -7
    """
    best: dict[str, int] = {}
    worst: dict[str, int] = {}
    untyped = 0
    for m in _modifiers(modifiers):
        if m.kind == "untyped":
            untyped += m.value
        elif m.value > 0:
            best[m.kind] = max(best.get(m.kind, 0), m.value)
        else:
            worst[m.kind] = min(worst.get(m.kind, 0), m.value)
    return sum(best.values()) + sum(worst.values()) + untyped


def multiple_attack_penalty(attack_number: object, agile: object = False) -> int:
    """Multiple attack penalty of the ``attack_number``-th attack on your turn: 0, −5, −10
    (agile weapon: 0, −4, −8); every attack from the third on takes the full third-attack
    penalty. The weapon of *this* attack decides ``agile``.

    Reactions (e.g. Attack of Opportunity) made on another creature's turn take no multiple
    attack penalty and do not count toward it: give them attack number 1.

    >>> [multiple_attack_penalty(n) for n in (1, 2, 3, 4)]
    [0, -5, -10, -10]
    >>> [multiple_attack_penalty(n, agile=True) for n in (1, 2, 3)]
    [0, -4, -8]
    """
    n = require_int(attack_number, "attack number", "공격 순서", 1, MAX_ATTACKS)
    step = 4 if require_bool(agile, "agile", "날렵함") else 5
    return -step * (min(n, 3) - 1)


def strike_sequence(strikes: Sequence[tuple[int, bool]], own_turn: object = True) -> list[int]:
    """Total attack bonus of each attack in one turn, given ``(attack bonus, agile)`` per attack
    in order. Each attack's penalty follows the weapon used for *that* attack, whatever was
    used before (seed 002: longsword, longsword, then agile shortsword → the third is −8).
    With ``own_turn=False`` (reactions on someone else's turn) no penalty applies.

    >>> strike_sequence([(7, False), (7, False), (7, True)])
    [7, 2, -1]
    """
    if not isinstance(strikes, (list, tuple)) or len(strikes) > MAX_ATTACKS:
        raise RuleInputError(f"strikes must be a list of at most {MAX_ATTACKS} "
                             "(bonus, agile) pairs",
                             f"공격 목록은 (보너스, 날렵함) 쌍 {MAX_ATTACKS}개 이하여야 합니다.")
    apply_map = require_bool(own_turn, "own_turn", "자기 턴 여부")
    totals = []
    for number, strike in enumerate(strikes, start=1):
        if not isinstance(strike, (list, tuple)) or len(strike) != 2:
            raise RuleInputError(f"not a (bonus, agile) pair: {shown(strike)}",
                                 f"(보너스, 날렵함) 쌍이 아닙니다 (입력값: {shown(strike)}).")
        bonus = _mod(strike[0], "attack bonus", "명중 보너스")
        penalty = multiple_attack_penalty(number if apply_map else 1, strike[1])
        totals.append(bonus + penalty)
    return totals


def range_bands(increment_ft: object) -> RangeBands:
    """The six range increments of a weapon, for the book's table.

    >>> [row["to"] for row in range_bands(120).table()]
    [120, 240, 360, 480, 600, 720]
    """
    return RangeBands.increments(increment_ft, RANGE_PENALTY_PER_INCREMENT,
                                 MAX_RANGE_INCREMENTS, unit="ft")


def range_penalty(distance_ft: object, increment_ft: object) -> int:
    """Range penalty: 0 within the first increment, −2 more per further increment, up to six
    increments (−10); farther raises :class:`RuleInputError` (out of range).

    >>> [range_penalty(d, 120) for d in (120, 121, 240, 241, 720)]
    [0, -2, -2, -4, -10]
    """
    return range_bands(increment_ft).band(distance_ft).modifier


def _degree(total: int, dc: int, face: int) -> int:
    """Degree index 0 (critical failure) … 3 (critical success)."""
    if total >= dc + 10:
        degree = 3
    elif total >= dc:
        degree = 2
    elif total <= dc - 10:
        degree = 0
    else:
        degree = 1
    if face == 20:
        degree = min(degree + 1, 3)
    elif face == 1:
        degree = max(degree - 1, 0)
    return degree


def roll_degree(face: object, modifier: object, dc: object) -> str:
    """Degree of success (a key of :data:`DEGREES`) of one d20 ``face`` + ``modifier`` against
    ``dc`` (supplementary rule, see :data:`DEGREE_RULE`).

    >>> roll_degree(12, 9, 16), roll_degree(20, 0, 25), roll_degree(1, 20, 16)
    ('success', 'success', 'failure')
    """
    face = require_int(face, "face", "d20 눈", 1, 20)
    mod = _mod(modifier, "modifier", "수정치")
    return DEGREES[3 - _degree(face + mod, _dc(dc), face)]


def degree_odds(modifier: object, dc: object) -> dict[str, Fraction]:
    """Exact chance of each degree of success of d20 + ``modifier`` against ``dc``
    (supplementary rule, see :data:`DEGREE_RULE`), best degree first.

    >>> odds = degree_odds(0, 30)  # even 20 is ≤ DC−10; the natural 20 lifts it to failure
    >>> [str(odds[name]) for name in DEGREES]
    ['0', '0', '1/20', '19/20']
    """
    mod = _mod(modifier, "modifier", "수정치")
    target = _dc(dc)
    by_index = die(20).map(lambda face: _degree(face + mod, target, face)).probabilities()
    return {name: by_index.get(3 - i, Fraction(0)) for i, name in enumerate(DEGREES)}


def success_or_better(odds: dict[str, Fraction]) -> Fraction:
    """Success or critical success of a :func:`degree_odds` result (also :func:`strike_odds`,
    :func:`save_odds`): for a Strike, the chance that it hits (명중, 대성공 포함), the GM's
    first question.

    >>> success_or_better(strike_odds(10, 18)), success_or_better(strike_odds(10, 18, attack_number=2))
    (Fraction(13, 20), Fraction(2, 5))
    """
    odds = require_odds(odds, DEGREES, "odds", "성공 단계 확률표(degree_odds의 결과)")
    return odds["critical_success"] + odds["success"]


def attack_bonus(kind: object, *, strength: object = 0, dexterity: object = 0,
                 spellcasting: object = 0, finesse: object = False, proficiency: object = 0,
                 modifiers: Sequence[Modifier | tuple[str, int]] = ()) -> int:
    """Attack roll modifier (everything but the d20), per seed 002:
    melee = Str (or Dex with a finesse weapon, whichever is better) + proficiency + bonuses +
    penalties; ranged = Dex + …; spell = spellcasting ability modifier + …. ``kind`` is
    melee/ranged/spell (근접/원거리/주문); ``modifiers`` stack as in :func:`stack_modifiers`.
    The multiple attack and range penalties are left to :func:`strike_odds`.

    >>> attack_bonus("melee", strength=4, proficiency=proficiency_bonus("trained", 1),
    ...              modifiers=[("item", 1), ("status", 1), ("status", -1)])
    8
    """
    k = _ATTACK_KINDS.get(kind.strip().lower()) if isinstance(kind, str) \
        and len(kind) <= limits.MAX_NAME_TEXT else None
    if k is None:
        raise RuleInputError(f"attack kind must be melee, ranged or spell, got {shown(kind)}",
                             f"공격 종류는 근접·원거리·주문 중 하나여야 합니다 (입력값: {shown(kind)}).")
    strength = _mod(strength, "Strength modifier", "근력 수정치", ABILITY_LIMIT)
    dexterity = _mod(dexterity, "Dexterity modifier", "민첩 수정치", ABILITY_LIMIT)
    spellcasting = _mod(spellcasting, "spellcasting modifier", "주문시전 능력 수정치",
                        ABILITY_LIMIT)
    finesse = require_bool(finesse, "finesse", "기교")
    if k == "melee":
        ability = max(strength, dexterity) if finesse else strength
    elif k == "ranged":
        ability = dexterity
    else:
        ability = spellcasting
    return ability + _mod(proficiency, "proficiency bonus", "숙련 보너스") \
        + stack_modifiers(modifiers)


def armor_class(dex: object, dex_cap: object, proficiency: object, item: object = 0,
                other: Sequence[Modifier | tuple[str, int]] = (), off_guard: object = False) -> int:
    """AC = 10 + Dex (up to the armor's cap; ``None`` = no cap) + proficiency + the armor's item
    bonus + other bonuses + penalties. The armor's ``item`` bonus is an item bonus, so another
    item bonus in ``other`` does not add to it (only the highest counts). ``off_guard`` adds
    the −2 circumstance penalty (supplementary, :data:`OFF_GUARD_RULE`).

    >>> armor_class(4, 1, proficiency_bonus("trained", 1), item=4)
    18
    >>> armor_class(2, None, 3, off_guard=True, other=[("circumstance", -1)])
    13
    """
    dex = _mod(dex, "Dexterity modifier", "민첩 수정치", ABILITY_LIMIT)
    if dex_cap is not None:
        dex = min(dex, require_int(dex_cap, "Dex cap", "민첩 상한", 0, ABILITY_LIMIT))
    mods = _modifiers(other)
    if require_int(item, "armor item bonus", "갑옷 물품 보너스", 0, MODIFIER_LIMIT):
        mods.append(Modifier("item", item))
    if require_bool(off_guard, "off_guard", "무방비"):
        mods.append(Modifier("circumstance", OFF_GUARD_PENALTY))
    return 10 + dex + _mod(proficiency, "proficiency bonus", "숙련 보너스") + stack_modifiers(mods)


def spell_dc(spellcasting: object, proficiency: object,
             modifiers: Sequence[Modifier | tuple[str, int]] = ()) -> int:
    """Spell DC = 10 + spellcasting ability modifier + proficiency + bonuses + penalties.

    >>> spell_dc(4, proficiency_bonus("trained", 1))
    17
    """
    ability = _mod(spellcasting, "spellcasting modifier", "주문시전 능력 수정치", ABILITY_LIMIT)
    return 10 + ability + _mod(proficiency, "proficiency bonus", "숙련 보너스") \
        + stack_modifiers(modifiers)


def strike_odds(bonus: object, ac: object, *, attack_number: object = 1, agile: object = False,
                distance_ft: object = None, increment_ft: object = None,
                off_guard: object = False) -> dict[str, Fraction]:
    """Degree-of-success odds of one attack: ``bonus`` (e.g. from :func:`attack_bonus`) plus the
    multiple attack penalty and, if ``distance_ft`` is given, the range penalty (both untyped,
    so both apply), against ``ac``. ``off_guard`` lowers the AC by 2; if the AC already counts
    another circumstance penalty, build it with :func:`armor_class` (``off_guard=True``) instead.

    >>> strike_odds(10, 20, attack_number=2)["success"]
    Fraction(1, 4)
    """
    total = _mod(bonus, "attack bonus", "명중 보너스") \
        + multiple_attack_penalty(attack_number, agile)
    if distance_ft is not None or increment_ft is not None:
        if distance_ft is None or increment_ft is None:
            raise RuleInputError("give both the distance and the range increment",
                                 "거리와 사거리 단위를 함께 주어야 합니다.")
        total += range_penalty(distance_ft, increment_ft)
    target = _dc(ac, "AC", "AC")
    if require_bool(off_guard, "off_guard", "무방비"):
        target += OFF_GUARD_PENALTY
    return degree_odds(total, target)


#: A critical hit doubles the damage (supplementary rule, Player Core: roll once, double the total).
CRITICAL_DAMAGE_MULTIPLIER = 2
#: Largest damage dice a Strike here takes (count and sides) and its largest flat modifier.
MAX_DAMAGE_DICE, MAX_DAMAGE_SIDES = 20, 20


def _damage_args(sides: object, count: object, modifier: object) -> tuple[int, int, int]:
    return (require_int(sides, "sides", "피해 주사위 면 수", 2, MAX_DAMAGE_SIDES),
            require_int(count, "count", "피해 주사위 개수", 1, MAX_DAMAGE_DICE),
            require_int(modifier, "modifier", "피해 수정치", 0, MODIFIER_LIMIT))


def hit_damage(sides: object, count: object = 1, modifier: object = 0,
               critical: object = False) -> Dist:
    """Damage of one hit, exactly: ``count``d``sides`` + ``modifier``; a critical hit doubles it
    (:data:`CRITICAL_DAMAGE_MULTIPLIER`, supplementary rule).

    >>> hit_damage(8, modifier=4).min, hit_damage(8, modifier=4, critical=True).max
    (5, 24)
    """
    sides, count, modifier = _damage_args(sides, count, modifier)
    hit = dice_sum(count, sides) + modifier
    if require_bool(critical, "critical", "대성공"):
        return hit.map(lambda total: total * CRITICAL_DAMAGE_MULTIPLIER)
    return hit


def damage_of_roll(faces: Sequence[int], sides: object, modifier: object = 0,
                   critical: object = False) -> int:
    """Damage of actual dice (the faces of :func:`hit_damage`'s dice).

    >>> damage_of_roll([5], 8, 4), damage_of_roll([4], 8, 4, critical=True)
    (9, 16)
    """
    sides, _, modifier = _damage_args(sides, 1, modifier)
    if not isinstance(faces, (list, tuple)) or not 1 <= len(faces) <= MAX_DAMAGE_DICE:
        raise RuleInputError(f"faces must be a list of 1 to {MAX_DAMAGE_DICE} dice",
                             f"피해 주사위 눈은 1~{MAX_DAMAGE_DICE}개의 목록이어야 합니다.")
    total = sum(require_int(f, "face", "피해 주사위 눈", 1, sides) for f in faces) + modifier
    return total * CRITICAL_DAMAGE_MULTIPLIER if require_bool(critical, "critical", "대성공") else total


def save_odds(save_modifier: object, dc: object) -> dict[str, Fraction]:
    """Odds of the *saving* creature's degrees of success against a DC (e.g. :func:`spell_dc`).

    >>> save_odds(5, spell_dc(4, 3))["critical_failure"]
    Fraction(1, 10)
    """
    return degree_odds(save_modifier, dc)


# --- Stride, Step and reactions (seed 002, Stride and Strike) -----------------------------------
#: A Step moves exactly this far and triggers no reactions; a Stride can trigger them every 5 ft.
STEP_FT = 5
SQUARE_FT = 5


def stride_segments(start: object, end: object, enemy_reach: object = 5) -> list[tuple[int, int, bool]]:
    """A straight Stride from ``start`` to ``end`` feet away from an enemy, 5 ft at a time:
    ``(from, to, within_reach)`` per 5-ft move; ``within_reach`` marks a move that leaves a square
    inside the enemy's reach, one of the moments a move action can trigger its reactions.

    >>> stride_segments(15, 5)                    # closing in on a 5-ft-reach enemy: no trigger
    [(15, 10, False), (10, 5, False)]
    >>> stride_segments(5, 15, enemy_reach=10)    # backing off a 10-ft reach: two triggers
    [(5, 10, True), (10, 15, True)]
    """
    a = require_int(start, "start", "출발 거리", SQUARE_FT, 1000)
    b = require_int(end, "end", "도착 거리", SQUARE_FT, 1000)
    reach = require_int(enemy_reach, "enemy_reach", "상대의 간격", SQUARE_FT, 100)
    for value, ko in ((a, "출발 거리"), (b, "도착 거리"), (reach, "상대의 간격")):
        if value % SQUARE_FT:
            raise RuleInputError(f"{value} ft is not a multiple of {SQUARE_FT} ft",
                                 f"{ko}는 {SQUARE_FT}ft 단위로 넣어 주세요 (입력값: {value}).")
    step = SQUARE_FT if b > a else -SQUARE_FT
    return [(d, d + step, d <= reach) for d in range(a, b, step)]


def approach_options(distance: object, reach: object = 5, enemy_reach: object = 5) -> dict[str, object]:
    """How to get within your ``reach`` of an enemy ``distance`` feet away: already there, one
    Step (5 ft, no reactions), or a Stride and the 5-ft moves of it that leave a square inside the
    enemy's reach.

    >>> approach_options(10)
    {'gap': 5, 'step': True, 'stride': [(10, 5, False)]}
    >>> approach_options(15, enemy_reach=10)["stride"]
    [(15, 10, False), (10, 5, True)]
    """
    d = require_int(distance, "distance", "거리", SQUARE_FT, 1000)
    r = require_int(reach, "reach", "간격", SQUARE_FT, 100)
    gap = max(0, d - r)
    target = d - gap
    return {"gap": gap, "step": 0 < gap <= STEP_FT,
            "stride": stride_segments(d, target, enemy_reach) if gap else []}


# --- turns to bring a target down (issue 30: widgets.fight) -----------------------------------
#: Most HP of a target for :func:`strikes_to_down` (the widget offers up to 60; the work limit
#: decides the rest).
MAX_TARGET_HP = 1000
#: Most Strikes in one turn (three actions).
MAX_STRIKES = 3
#: Result key of :func:`strikes_to_down`.
DOWN_RESULTS = ("down",)


def strike_damage(damage: object, hp: "int | None" = None) -> Dist:
    """HP one hit takes: the damage expression's roll, at least 1 (보충 규칙, Player Core: damage
    is never below 1 after a successful Strike), optionally capped at ``hp`` (more makes no
    difference to bringing the target down).

    >>> strike_damage("1d4-2").probabilities()
    {1: Fraction(3, 4), 2: Fraction(1, 4)}
    """
    roll = parse_damage(damage, allow_db=False).dist()
    cap = None if hp is None else require_int(hp, "hp", "HP", 1, MAX_TARGET_HP)
    return roll.map(lambda x: max(1, x) if cap is None else min(cap, max(1, x)))


def turn_damage(bonus: object, ac: object, damage: object, strikes: object = 3, agile: object = False,
                off_guard: object = False, hp: "int | None" = None) -> Dist:
    """HP one turn of ``strikes`` Strikes takes, exactly: each Strike with its multiple attack
    penalty (:func:`strike_odds`); a success deals :func:`strike_damage`, a critical success
    double that total (보충 규칙, Player Core), a failure nothing. With ``hp`` each Strike's
    damage is capped there (the turn total stays exact at and below ``hp``).

    >>> turn_damage(10, 20, "1d6", strikes=1).probability(0)   # d20+10 vs AC 20: 9 or less misses
    Fraction(9, 20)
    """
    count = require_int(strikes, "strikes", "Strike 수", 1, MAX_STRIKES)
    normal = strike_damage(damage, hp)
    critical = normal.map(lambda x: 2 * x)
    total = Dist.constant(0)
    for number in range(1, count + 1):
        odds = strike_odds(bonus, ac, attack_number=number, agile=agile, off_guard=off_guard)
        weights: dict[int, Fraction] = {0: odds["failure"] + odds["critical_failure"]}
        for dist, p in ((normal, odds["success"]), (critical, odds["critical_success"])):
            for x, q in dist.probabilities().items():
                weights[x] = weights.get(x, Fraction(0)) + p * q
        total = total + from_probabilities({x: p for x, p in weights.items() if p})
    return total


def strikes_to_down(bonus: object, ac: object, hp: object, damage: object, strikes: object = 3,
                    agile: object = False, off_guard: object = False) -> FightOdds:
    """Exact odds that a target is down (HP 0) by each turn of ``strikes`` Strikes.

    Each turn: ``strikes`` Strikes with the multiple attack penalty of the source (−5/−10;
    ``agile`` −4/−8), degrees of success from the d20 (:func:`degree_odds`); a success deals the
    damage expression's roll, at least 1, a critical success double that total (both 보충 규칙,
    Player Core); a failure nothing. ``off_guard``: the target's AC is 2 lower (보충 규칙).
    Result ``"down"``, one step a turn; steps until the rest is at most one in a million, and at
    least 3 (the GM's question: down within 3 turns?).

    Readings (가정): the target does nothing that changes the odds (no healing, Shield Block,
    resistance or weakness, no moving away), the damage expression holds every bonus (no
    persistent damage, no deadly or fatal traits), the multiple attack penalty starts again each
    turn, every Strike of a turn is made until the target is down, and ``off_guard`` lasts the
    whole fight.

    >>> odds = strikes_to_down(10, 20, 30, "1d8+4")
    >>> odds.keys, odds.steps
    (('down',), 19)
    >>> [round(float(odds.chance("down", by=t)), 4) for t in (1, 2, 3, 4)]
    [0.0255, 0.1596, 0.3876, 0.6153]
    >>> round(float(odds.mean_steps()), 2)          # turns, on average
    4.24
    >>> strikes_to_down(20, 15, 60, "2d12+10").steps    # listed to turn 3 all the same
    3
    """
    hp = require_int(hp, "hp", "HP", 1, MAX_TARGET_HP)
    turn = turn_damage(bonus, ac, damage, strikes, agile, off_guard, hp)
    probabilities = turn.probabilities()
    rows = {}
    for lost in range(hp):   # every loss that reaches HP 0 adds into "down"
        merged: dict = {}
        for x, p in probabilities.items():
            target = lost + x if lost + x < hp else "down"
            merged[target] = merged.get(target, Fraction(0)) + p
        rows[lost] = merged
    return walk(Chain(rows, DOWN_RESULTS), 0, min_steps=3)
