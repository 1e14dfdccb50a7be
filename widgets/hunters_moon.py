"""Hunter's Moon (헌터즈 문) combat chapter: checks, damage, destroying threats, round order.

Check procedure, an ASSUMPTION (가정): the source names the special, the fumble and the
achievement value (달성치) but gives no dice procedure, and no official rule for one is known
(a dice bot is not one). The book reads a check as 2D6 + modifiers ≥ target; a raw 12 is a
special (always succeeds), a raw 2 a fumble (always fails), whatever the modifiers.

WORKING MODEL (also an assumption, not the seed): hit check = 2D6 + 【무용】 + modifiers against the
target's 【방어치】; defence check = 2D6 + the ability on the threat card against its 【공격치】.
Everything else below is read from the seed's combat chapter.

>>> check_odds(0, 7)["success"]
Fraction(5, 9)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from .dice import Dist, dice_sum, die
from .errors import (RuleInputError, require_bool, require_int, require_items, require_odds,
                     require_text, shown)
from .fight import Chain, FightOdds, walk

# --- constants: the first two are the assumed check procedure (가정), the rest the source's ---
FUMBLE_RAW = 2            # raw 2D6 = 2: fumble, always fails (assumed procedure)
SPECIAL_RAW = 12          # raw 2D6 = 12: special, always succeeds (assumed; a special hit check is a critical hit: source)
PARAGRAPHS = (1, 2, 3, 4, 5)
OUT_OF_RANGE = 6          # plotting a 6 puts the token in 권외 (out of range)
PURSUIT_ROUND = 3         # the pursuit round counts as melee round 3
PURSUIT_DAMAGE_DIE = 6    # in the pursuit round all damage is +1D6
RECON_COUNTERATTACK_DIE = 6  # recon fumble: 1D6 + monster level to every PC
BOUND_CHECK_MODIFIER = -1        # 포박: a bound PC takes −1 on every check
BOUND_THREAT_VALUE_MODIFIER = -1  # 포박: a bound body/threat has 【공격치】 and 【방어치】 −1
BOUND_ROUND_END_DIE = 6          # 포박: −1D6 【생명력】 at round end
RECON_TARGET_EXAMPLE = 8         # the source names no recon target (the GM sets it): the book's widgets start here
FLYING_DAMAGE_REDUCTION = 5      # 비행: damage from a non-anti-air (대공) attack −5
DIVING_ACHIEVEMENT = 6           # 잠수: an auto-hit counts as achievement 6 where one is needed

# ASSUMPTION (the seed gives no number): 권외 is not a paragraph, so it adds no paragraph bonus.
OUT_OF_RANGE_DAMAGE_BONUS = 0

OUTCOMES = ("fumble", "failure", "success", "special")

# --- input bounds (sanity limits so every call stays small; not rules) ---------------------
MAX_VALUE = 100       # abilities, modifiers, achievement values
MAX_TOTAL = 2 * MAX_VALUE + 1  # ability + modifier + status, as combined inside one check
MAX_TARGET = 200      # target numbers (【방어치】, 【공격치】, recon target)
MAX_POWER = 100       # weapon / threat power, weapon critical extra
MAX_DURABILITY = 200  # threat 【내구도】, body 【생명력】
MAX_DOOM_STAGE = 20   # black-area awakening stage
MAX_LEVEL = 50        # monster level
MAX_PCS = 30          # PCs in one round order
MAX_NAME = 100        # characters in a name

_TWO_D6 = dice_sum(2, 6)


def _require_name(value: object) -> str:
    require_text(value, "name", "이름", MAX_NAME)
    return value  # type: ignore[return-value]  # the name is kept as given


def _bound_mod(bound: bool, what: int) -> int:
    return what if bound else 0


def _outcome(raw: int, modifier: int, target: int) -> str:
    # raw dice decide special/fumble before the modifiers are even looked at
    if raw <= FUMBLE_RAW:
        return "fumble"
    if raw >= SPECIAL_RAW:
        return "special"
    return "success" if raw + modifier >= target else "failure"


# --- the check -----------------------------------------------------------------------------
def check_result(die1: int, die2: int, modifier: int, target: int) -> str:
    """Outcome of one actual 2D6 check (one of :data:`OUTCOMES`): the two dice, plus
    ``modifier``, against ``target``; raw 12 is a special and raw 2 a fumble whatever the rest.

    >>> check_result(4, 2, 3, 9), check_result(1, 1, 20, 3), check_result(6, 6, -20, 9)
    ('success', 'fumble', 'special')
    """
    dice = [require_int(d, "die", "주사위 눈", 1, 6) for d in (die1, die2)]
    modifier = require_int(modifier, "modifier", "수정치", -MAX_TOTAL, MAX_TOTAL)
    target = require_int(target, "target", "목표치", -MAX_TARGET - 1, MAX_TARGET)
    return _outcome(sum(dice), modifier, target)


def check_odds(modifier: int, target: int) -> dict[str, Fraction]:
    """Exact odds of a 2D6 + ``modifier`` ≥ ``target`` check by outcome.

    Raw 12 is a special (a success even if the total misses), raw 2 a fumble (a failure even if
    the total makes it), so success + special is never 0 and never 1.

    >>> check_odds(0, 7)
    {'fumble': Fraction(1, 36), 'failure': Fraction(7, 18), 'success': Fraction(5, 9), 'special': Fraction(1, 36)}
    >>> check_odds(-20, 7)["special"], check_odds(20, 7)["fumble"]
    (Fraction(1, 36), Fraction(1, 36))
    """
    modifier = require_int(modifier, "modifier", "수정치", -MAX_TOTAL, MAX_TOTAL)
    target = require_int(target, "target", "목표치", -MAX_TARGET - 1, MAX_TARGET)
    counts = dict.fromkeys(OUTCOMES, 0)
    for raw, weight in _TWO_D6.weights.items():
        counts[_outcome(raw, modifier, target)] += weight
    return {key: Fraction(n, _TWO_D6.total) for key, n in counts.items()}


def success_chance(odds: dict[str, Fraction]) -> Fraction:
    """Success + special of a :func:`check_odds` result.

    >>> success_chance(check_odds(0, 7))
    Fraction(7, 12)
    """
    odds = require_odds(odds, OUTCOMES, "odds", "판정 확률표(check_odds의 결과)")
    return odds["success"] + odds["special"]


def failure_chance(odds: dict[str, Fraction]) -> Fraction:
    """Failure + fumble of a :func:`check_odds` result: for a defence check, the chance that
    the threat's attack lands (맞을 확률).

    >>> failure_chance(defence_odds(2, 8)), failure_chance(defence_odds(2, 8, threat_diving=True))
    (Fraction(5, 18), Fraction(1, 1))
    """
    odds = require_odds(odds, OUTCOMES, "odds", "판정 확률표(check_odds의 결과)")
    return odds["failure"] + odds["fumble"]


def paragraph_label(paragraph: int) -> str:
    """Korean label of a paragraph slot (6 = 권외).

    >>> paragraph_label(3), paragraph_label(6)
    ('패러그래프 3', '권외')
    """
    paragraph = require_int(paragraph, "paragraph", "패러그래프", 1, OUT_OF_RANGE)
    return "권외" if paragraph == OUT_OF_RANGE else f"패러그래프 {paragraph}"


# --- damage --------------------------------------------------------------------------------
def pc_damage(weapon_power: int, paragraph: int, doom_stage: int = 0,
              critical_achievement: int | None = None, pursuit: bool = False,
              critical_extra: int = 0) -> Dist:
    """Damage of a PC's hit: weapon power + own current paragraph number.

    Plus the black-area awakening stage (파멸의 색, 0 = not awakened), plus the hit check's
    achievement value on a critical hit (special) together with any weapon ``critical_extra``,
    plus 1D6 in the pursuit round. ``paragraph`` 6 means 권외 (adds
    ``OUT_OF_RANGE_DAMAGE_BONUS``, an assumption). Never below 0.

    >>> pc_damage(3, 2)
    Dist({5: 1})
    >>> pc_damage(3, 2, doom_stage=1, critical_achievement=15).mean()
    Fraction(21, 1)
    >>> pc_damage(3, 2, pursuit=True).min, pc_damage(3, 2, pursuit=True).max
    (6, 11)
    """
    weapon_power = require_int(weapon_power, "weapon_power", "무기 위력", 0, MAX_POWER)
    paragraph = require_int(paragraph, "paragraph", "패러그래프", 1, OUT_OF_RANGE)
    doom_stage = require_int(doom_stage, "doom_stage", "파멸의 색 각성단계", 0, MAX_DOOM_STAGE)
    pursuit = require_bool(pursuit, "pursuit", "추격 라운드")
    critical_extra = require_int(critical_extra, "critical_extra", "크리티컬 추가 데미지", 0, MAX_POWER)
    bonus = OUT_OF_RANGE_DAMAGE_BONUS if paragraph == OUT_OF_RANGE else paragraph
    flat = weapon_power + bonus + doom_stage
    if critical_achievement is not None:
        flat += require_int(critical_achievement, "critical_achievement", "명중판정 달성치",
                            -MAX_TOTAL, MAX_TOTAL + SPECIAL_RAW) + critical_extra
    damage = Dist.constant(flat) + (die(PURSUIT_DAMAGE_DIE) if pursuit else 0)
    return damage.map(lambda d: max(0, d))  # a very negative achievement cannot heal


def threat_damage(power: int, doom: int = 0, pursuit: bool = False) -> Dist:
    """Damage of a threat's hit: its power, no paragraph bonus; the doom colour counts double.

    ``doom`` is the black-area awakening stage (0 = not awakened); a threat adds 2 × it.
    In the pursuit round all damage is +1D6, a threat's too.

    >>> threat_damage(4)
    Dist({4: 1})
    >>> threat_damage(4, doom=2)
    Dist({8: 1})
    """
    power = require_int(power, "power", "위협 위력", 0, MAX_POWER)
    doom = require_int(doom, "doom", "파멸의 색 각성단계", 0, MAX_DOOM_STAGE)
    pursuit = require_bool(pursuit, "pursuit", "추격 라운드")
    return Dist.constant(power + 2 * doom) + (die(PURSUIT_DAMAGE_DIE) if pursuit else 0)


# --- statuses (상태) ------------------------------------------------------------------------
@dataclass(frozen=True)
class StatusRule:
    """One special status as the seed words it (for display next to the widgets)."""
    key: str
    name_ko: str
    rule_ko: str


STATUSES = (
    StatusRule("bound", "포박", "이동 불가, 모든 판정 −1. 괴물 본체·위협은 【공격치】·【방어치】 −1. "
                               "라운드 종료 시 【생명력】 1D6 감소."),
    StatusRule("flying", "비행", "자신의 모든 무기에 「대공」. 「대공」이 없는 공격에 받는 데미지 5점 경감."),
    StatusRule("diving", "잠수", "잠수상태가 아닌 목표를 공격할 때 주사위 없이 자동명중을 고를 수 있음(달성치가 필요하면 6). "
                               "괴물·위협이 잠수상태면 목표 PC는 방어판정 불가."),
)


def bound_round_end_loss() -> Dist:
    """【생명력】 a bound character loses at round end (1D6).

    >>> bound_round_end_loss().mean()
    Fraction(7, 2)
    """
    return die(BOUND_ROUND_END_DIE)


def flying_damage(damage: Dist, target_flying: bool, anti_air: bool = False,
                  attacker_flying: bool = False) -> Dist:
    """Damage a target takes after 비행: −5 (not below 0) unless the attack is 대공.

    A flying attacker's weapons all count as 대공.

    >>> flying_damage(Dist.constant(7), target_flying=True)
    Dist({2: 1})
    >>> flying_damage(Dist.constant(7), target_flying=True, attacker_flying=True)
    Dist({7: 1})
    """
    if not isinstance(damage, Dist):
        raise RuleInputError("damage must be a Dist", "데미지는 분포(Dist)여야 합니다.")
    target_flying = require_bool(target_flying, "target_flying", "목표 비행상태")
    anti_air = require_bool(anti_air, "anti_air", "대공")
    attacker_flying = require_bool(attacker_flying, "attacker_flying", "공격자 비행상태")
    if not target_flying or anti_air or attacker_flying:
        return damage
    return damage.map(lambda d: max(0, d - FLYING_DAMAGE_REDUCTION))


def diving_auto_hit(attacker_diving: bool, target_diving: bool) -> bool:
    """Whether 잠수 lets the attacker skip the hit check (diving attacker, non-diving target).

    >>> diving_auto_hit(True, False), diving_auto_hit(True, True)
    (True, False)
    """
    attacker_diving = require_bool(attacker_diving, "attacker_diving", "공격자 잠수상태")
    target_diving = require_bool(target_diving, "target_diving", "목표 잠수상태")
    return attacker_diving and not target_diving


# --- attacking a threat --------------------------------------------------------------------
@dataclass(frozen=True)
class DestroyOdds:
    """Exact odds of one attack on a threat card."""
    hit: Fraction            # hit check succeeds (or auto-hit)
    critical: Fraction       # special on the hit check → critical hit
    destroy: Fraction        # hit and damage ≥ 【내구도】 (격파)
    body_loss: int           # 본체 【생명력】 lost when destroyed = the threat's 【내구도】
    expected_body_loss: Fraction
    auto_hit: bool = False   # a diving attacker chose the auto-hit over rolling


def destroy_odds(might: int, defence: int, weapon_power: int, paragraph: int, durability: int,
                 *, modifier: int = 0, doom_stage: int = 0, pursuit: bool = False,
                 critical_extra: int = 0, attacker_bound: bool = False,
                 threat_bound: bool = False, threat_flying: bool = False,
                 anti_air: bool = False, attacker_flying: bool = False,
                 attacker_diving: bool = False, threat_diving: bool = False) -> DestroyOdds:
    """Chance that a PC's attack hits a threat and destroys it, and what the body loses.

    Hit check (working model): 2D6 + ``might`` (【무용】) + ``modifier`` ≥ 【방어치】. On a special
    the damage gains the achievement value (12 + modifiers) and ``critical_extra``. 포박 gives
    the attacker −1 and the threat −1 【방어치】; 비행 on the threat takes 5 off non-대공 damage;
    a diving attacker against a non-diving threat *may* auto-hit (no dice, so no special — a
    reading): it does so only when that destroys at least as often as rolling (``auto_hit``).

    >>> destroy_odds(1, 9, 2, 1, 4, attacker_diving=True).destroy   # rolling keeps the 1/36
    Fraction(1, 36)
    >>> destroy_odds(1, 9, 2, 3, 4, attacker_diving=True).auto_hit
    True

    >>> odds = destroy_odds(1, 9, 2, 1, 4)
    >>> odds.hit, odds.destroy, odds.body_loss
    (Fraction(5, 12), Fraction(1, 36), 4)
    >>> destroy_odds(1, 9, 2, 3, 4).destroy
    Fraction(5, 12)
    """
    might = require_int(might, "might", "무용", -MAX_VALUE, MAX_VALUE)
    modifier = require_int(modifier, "modifier", "수정치", -MAX_VALUE, MAX_VALUE)
    defence = require_int(defence, "defence", "방어치", -MAX_TARGET, MAX_TARGET)
    durability = require_int(durability, "durability", "내구도", 1, MAX_DURABILITY)
    total_mod = might + modifier + _bound_mod(
        require_bool(attacker_bound, "attacker_bound", "공격자 포박상태"), BOUND_CHECK_MODIFIER)
    defence += _bound_mod(require_bool(threat_bound, "threat_bound", "위협 포박상태"),
                          BOUND_THREAT_VALUE_MODIFIER)

    def dealt(achievement: int | None) -> Dist:
        raw = pc_damage(weapon_power, paragraph, doom_stage, achievement, pursuit, critical_extra)
        return flying_damage(raw, threat_flying, anti_air, attacker_flying)

    plain_destroy = dealt(None).at_least(durability)
    hit = critical = destroy = Fraction(0)
    for raw, weight in _TWO_D6.weights.items():
        p = Fraction(weight, _TWO_D6.total)
        result = _outcome(raw, total_mod, defence)
        if result == "success":
            hit += p
            destroy += p * plain_destroy
        elif result == "special":
            hit += p
            critical += p
            destroy += p * dealt(raw + total_mod).at_least(durability)
    # 잠수 lets the attacker auto-hit ("할 수 있습니다"): an option, so the attacker takes it only
    # when it destroys at least as often as rolling (an auto-hit has no special, so no critical).
    if diving_auto_hit(attacker_diving, threat_diving) and plain_destroy >= destroy:
        return DestroyOdds(Fraction(1), Fraction(0), plain_destroy, durability,
                           plain_destroy * durability, auto_hit=True)
    return DestroyOdds(hit, critical, destroy, durability, destroy * durability)


def defence_odds(ability: int, attack_value: int, modifier: int = 0, *, bound: bool = False,
                 threat_bound: bool = False, threat_diving: bool = False) -> dict[str, Fraction]:
    """Outcome odds of a PC's defence check against a threat's attack (working model).

    2D6 + ``ability`` (named on the card) + ``modifier`` ≥ the threat's 【공격치】 (−1 if the
    threat is bound); a bound PC has −1. A diving threat allows no defence check: the attack
    lands (reported as failure 1).

    >>> defence_odds(2, 8)["failure"]
    Fraction(1, 4)
    >>> defence_odds(2, 8, threat_diving=True)["failure"]
    Fraction(1, 1)
    """
    if require_bool(threat_diving, "threat_diving", "위협 잠수상태"):
        return {key: Fraction(key == "failure") for key in OUTCOMES}
    attack_value = require_int(attack_value, "attack_value", "공격치", -MAX_TARGET, MAX_TARGET)
    return _bound_check(ability, modifier, bound, attack_value, threat_bound,
                        ("threat_bound", "위협 포박상태"))


# --- recon and pursuit ---------------------------------------------------------------------
def recon_odds(brain: int, target: int, modifier: int = 0, bound: bool = False) -> dict[str, Fraction]:
    """Recon check (【두뇌】) odds; the seed names no target, so the GM's number is passed in.

    A failure ends the recon round; a fumble also brings the counterattack
    (:func:`recon_counterattack`).

    >>> recon_odds(1, 7)["fumble"]
    Fraction(1, 36)
    """
    brain = require_int(brain, "brain", "두뇌", -MAX_VALUE, MAX_VALUE)
    modifier = require_int(modifier, "modifier", "수정치", -MAX_VALUE, MAX_VALUE)
    bonus = _bound_mod(require_bool(bound, "bound", "포박상태"), BOUND_CHECK_MODIFIER)
    return check_odds(brain + modifier + bonus, target)


def recon_counterattack(monster_level: int) -> Dist:
    """Damage each PC in the fight takes after a recon fumble: 1D6 + the body's level.

    >>> recon_counterattack(2).min, recon_counterattack(2).max
    (3, 8)
    """
    monster_level = require_int(monster_level, "monster_level", "괴물 본체 레벨", 0, MAX_LEVEL)
    return die(RECON_COUNTERATTACK_DIE) + monster_level


def can_pursue(body_life: int) -> bool:
    """Pursuit is possible while the body has 【생명력】 1 or more.

    >>> can_pursue(1), can_pursue(0)
    (True, False)
    """
    body_life = require_int(body_life, "body_life", "본체 생명력", 0, MAX_DURABILITY)
    return body_life >= 1


def _bound_check(ability: object, modifier: object, bound: object, target: int,
                 target_bound: object, target_bound_names: tuple[str, str]) -> dict[str, Fraction]:
    """A PC check (ability + modifier, −1 if the PC is bound) against a target value (−1 if the
    monster side is bound)."""
    ability = require_int(ability, "ability", "능력치", -MAX_VALUE, MAX_VALUE)
    modifier = require_int(modifier, "modifier", "수정치", -MAX_VALUE, MAX_VALUE)
    total = ability + modifier + _bound_mod(require_bool(bound, "bound", "포박상태"),
                                            BOUND_CHECK_MODIFIER)
    target += _bound_mod(require_bool(target_bound, *target_bound_names),
                         BOUND_THREAT_VALUE_MODIFIER)
    return check_odds(total, target)


@dataclass(frozen=True)
class CombatCourse:
    """How a combat runs from start to end (see :func:`combat_course`)."""

    rounds: tuple[str, ...]   # "recon", "melee1", "melee2", "pursuit"
    ended_by: str             # "body_destroyed_in_melee", "no_pursuit", "body_destroyed_in_pursuit", "pursuit_over"
    pcs_win: bool
    spoils_rolls: int         # uses of the spoils table (monster level on a win, else 0)


def combat_course(ambush: bool, life_after_melee: int, pursued: bool,
                  life_after_pursuit: int, level: int,
                  fell_in_first_round: bool = False) -> CombatCourse:
    """The rounds played, why combat ends and who wins.

    A recon round comes first unless the encounter is an ambush; two melee rounds follow; if the
    body still has 【생명력】 and a PC's pursuit check succeeds, one pursuit round. The PCs win when
    the body's 【생명력】 reaches 0, and then use the spoils table as many times as the monster level.
    Combat ends the moment the body's 【생명력】 reaches 0: with ``fell_in_first_round`` (and
    ``life_after_melee`` 0) the second melee round is never played.

    >>> combat_course(True, 0, False, 0, 3, fell_in_first_round=True).rounds
    ('melee1',)

    >>> combat_course(False, 3, True, 0, 2)
    CombatCourse(rounds=('recon', 'melee1', 'melee2', 'pursuit'), ended_by='body_destroyed_in_pursuit', pcs_win=True, spoils_rolls=2)
    """
    level = require_int(level, "level", "괴물 레벨", 1, MAX_LEVEL)
    ambush = require_bool(ambush, "ambush", "기습 여부")
    pursued = require_bool(pursued, "pursued", "추격 성공 여부")
    fell_in_first_round = require_bool(fell_in_first_round, "fell_in_first_round",
                                       "난전 1라운드에 쓰러짐")
    rounds = ("melee1", "melee2") if ambush else ("recon", "melee1", "melee2")
    if not can_pursue(life_after_melee):
        final, ended_by = 0, "body_destroyed_in_melee"
        if fell_in_first_round:
            rounds = rounds[:-1]
    elif not pursued:
        final, ended_by = life_after_melee, "no_pursuit"
    else:
        rounds += ("pursuit",)
        final = require_int(life_after_pursuit, "life_after_pursuit", "추격 후 본체 생명력", 0,
                            MAX_DURABILITY)
        ended_by = "pursuit_over" if can_pursue(final) else "body_destroyed_in_pursuit"
    won = final == 0
    return CombatCourse(rounds, ended_by, won, level if won else 0)


def pursuit_odds(ability: int, body_defence: int, modifier: int = 0, bound: bool = False,
                 body_bound: bool = False) -> Fraction:
    """Chance one PC's pursuit check (【두뇌】 or 【기술】) meets the body's 【방어치】.

    Success gives one extra round, treated as melee round ``PURSUIT_ROUND`` (3), in which all
    damage is +1D6 (``pursuit=True`` in the damage functions).

    >>> pursuit_odds(2, 9)
    Fraction(7, 12)
    """
    body_defence = require_int(body_defence, "body_defence", "본체 방어치", -MAX_TARGET, MAX_TARGET)
    return success_chance(_bound_check(ability, modifier, bound, body_defence, body_bound,
                                       ("body_bound", "본체 포박상태")))


# --- melee round order -----------------------------------------------------------------------
@dataclass(frozen=True)
class PlottedPC:
    """A PC after the plot: ``plot`` 1–5 is that paragraph, 6 is 권외.

    ``tie_roll`` is the 1D6 rolled only when players sharing a paragraph cannot agree; leave it
    ``None`` and the list order is taken as the players' agreed order.

    >>> PlottedPC("A", 6).paragraph_label
    '권외'
    """
    name: str
    plot: int
    tie_roll: int | None = None

    def __post_init__(self) -> None:
        _require_name(self.name)
        object.__setattr__(self, "plot", require_int(self.plot, "plot", "플롯치", 1, OUT_OF_RANGE))
        if self.tie_roll is not None:
            object.__setattr__(self, "tie_roll",
                               require_int(self.tie_roll, "tie_roll", "순서 결정 1D6", 1, 6))

    @property
    def paragraph(self) -> int:
        return self.plot

    @property
    def paragraph_label(self) -> str:
        return paragraph_label(self.plot)


@dataclass(frozen=True)
class PlacedThreat:
    """A threat card of paragraph 1–5 (권외 holds no threat).

    >>> PlacedThreat("촉수", 2).paragraph_label
    '패러그래프 2'
    """
    name: str
    paragraph: int

    def __post_init__(self) -> None:
        _require_name(self.name)
        object.__setattr__(self, "paragraph", require_int(
            self.paragraph, "paragraph", "위협 패러그래프", PARAGRAPHS[0], PARAGRAPHS[-1]))

    @property
    def paragraph_label(self) -> str:
        return paragraph_label(self.paragraph)


def _pcs_in_paragraph(group: Sequence[PlottedPC]) -> list[PlottedPC]:
    """Agreed (list) order, or the 1D6 tie-break: higher roll acts first."""
    rolls = [pc.tie_roll for pc in group]
    if len(group) < 2 or all(r is None for r in rolls):
        return list(group)
    if any(r is None for r in rolls) or len(set(rolls)) != len(rolls):
        raise RuleInputError(
            "PCs sharing a paragraph need all-different tie rolls (or none)",
            "같은 패러그래프의 PC는 순서 결정 1D6을 모두 굴려 서로 다른 눈이어야 합니다 "
            "(같은 눈이면 다시 굴린다고 봅니다: 가정). 상의로 정했다면 1D6을 비워 두세요.")
    return sorted(group, key=lambda pc: -pc.tie_roll)


def round_order(pcs: Iterable[PlottedPC], threats: Iterable[PlacedThreat] = ()
                ) -> list[PlottedPC | PlacedThreat]:
    """Processing order of a melee round as plotted (moves during the round are not replayed).

    Paragraph 1 → 5, then 권외; in each paragraph its PCs first, then its threat.

    >>> order = round_order([PlottedPC("A", 2), PlottedPC("B", 6), PlottedPC("C", 2)],
    ...                     [PlacedThreat("X", 2), PlacedThreat("Y", 1)])
    >>> [item.name for item in order]
    ['Y', 'A', 'C', 'X', 'B']
    """
    pcs = require_items(pcs, "pcs", "PC 목록", MAX_PCS)
    threats = require_items(threats, "threats", "위협 목록", len(PARAGRAPHS))
    if len(pcs) > MAX_PCS:
        raise RuleInputError(f"at most {MAX_PCS} PCs", f"PC는 {MAX_PCS}명까지만 됩니다.")
    if len(threats) > len(PARAGRAPHS):
        raise RuleInputError("at most one threat per paragraph", "위협은 패러그래프마다 하나까지입니다.")
    if not all(isinstance(pc, PlottedPC) for pc in pcs) or \
            not all(isinstance(t, PlacedThreat) for t in threats):
        raise RuleInputError("pcs must be PlottedPC and threats PlacedThreat",
                             "PC는 PlottedPC, 위협은 PlacedThreat로 넣어 주세요.")
    by_paragraph = {t.paragraph: t for t in threats}
    if len(by_paragraph) != len(threats):
        raise RuleInputError("at most one threat per paragraph", "위협은 패러그래프마다 하나까지입니다.")
    order: list[PlottedPC | PlacedThreat] = []
    for paragraph in (*PARAGRAPHS, OUT_OF_RANGE):
        order += _pcs_in_paragraph([pc for pc in pcs if pc.paragraph == paragraph])
        if paragraph in by_paragraph:
            order.append(by_paragraph[paragraph])
    return order


#: States of a threat card when a PC acts: not on the sheet yet, 미행동 (upright), 행동완료.
THREAT_STATES = ("unplaced", "unacted", "acted")


def threat_state(pc_paragraph: int, threat_paragraph: int, *, placed_before: bool) -> str:
    """State of the threat card of ``threat_paragraph`` when the PC plotted at ``pc_paragraph``
    (6 = 권외) acts, nobody having moved this round (one of :data:`THREAT_STATES`).

    Paragraphs are processed 1 → 5, then 권외, and in each paragraph its PCs act before its
    threat. So a threat of an earlier paragraph has acted (``'acted'``, 행동완료; an unscouted
    card was placed at that moment). Otherwise it has not acted yet: ``'unacted'`` (미행동) if
    its card was placed before this round (revealed in the recon round, or placed in an earlier
    melee round), else ``'unplaced'`` (only its name is on the sheet: the card is placed when
    its paragraph's monster action comes).

    >>> threat_state(2, 3, placed_before=True), threat_state(3, 3, placed_before=False)
    ('unacted', 'unplaced')
    >>> threat_state(4, 3, placed_before=False)
    'acted'
    """
    pc = require_int(pc_paragraph, "pc_paragraph", "PC의 패러그래프", 1, OUT_OF_RANGE)
    threat = require_int(threat_paragraph, "threat_paragraph", "위협 패러그래프",
                         PARAGRAPHS[0], PARAGRAPHS[-1])
    placed = require_bool(placed_before, "placed_before", "이번 라운드 전에 놓인 카드")
    if threat < pc:
        return "acted"
    return "unacted" if placed else "unplaced"


def can_target_threat(state: str) -> bool:
    """A PC's attack may target a threat card only while it is 미행동 (``'unacted'``); the
    monster body can always be chosen.

    >>> [can_target_threat(s) for s in THREAT_STATES]
    [False, True, False]
    """
    if state not in THREAT_STATES:
        raise RuleInputError(f"unknown threat state {shown(state)}",
                             "위협 카드의 상태는 아직 놓이지 않음·미행동·행동완료 가운데 하나입니다.")
    return state == "unacted"


def check_outcome(raw: int, modifier: int, target: int) -> str:
    """Outcome of one check from the raw 2D6 total: ``fumble`` (raw 2), ``special`` (raw 12),
    else ``success`` when raw + ``modifier`` ≥ ``target``, else ``failure``.

    >>> [check_outcome(r, 2, 9) for r in (2, 6, 7, 12)]
    ['fumble', 'failure', 'success', 'special']
    """
    raw = require_int(raw, "raw", "주사위 눈의 합", 2, 12)
    modifier = require_int(modifier, "modifier", "수정치", -MAX_TOTAL, MAX_TOTAL)
    target = require_int(target, "target", "목표치", -MAX_TARGET - 1, MAX_TARGET)
    return _outcome(raw, modifier, target)


def body_attack_damage(might: int, body_defence: int, weapon_power: int, paragraph: int,
                       doom_stage: int = 0, *, modifier: int = 0, pursuit: bool = False,
                       critical_extra: int = 0) -> Dist:
    """【생명력】 the monster body loses to one PC attack on it: 0 on a miss, else the damage
    (weapon power + paragraph + 파멸의 색; on a special, + the achievement value).

    Hit check (working model): 2D6 + ``might`` + ``modifier`` ≥ the body's 【방어치】.

    >>> loss = body_attack_damage(2, 9, 3, 3)
    >>> loss.probability(0), loss.probability(6), loss.probability(20)
    (Fraction(5, 12), Fraction(5, 9), Fraction(1, 36))
    """
    might = require_int(might, "might", "무용", -MAX_VALUE, MAX_VALUE)
    modifier = require_int(modifier, "modifier", "수정치", -MAX_VALUE, MAX_VALUE)
    body_defence = require_int(body_defence, "body_defence", "본체 방어치", -MAX_TARGET, MAX_TARGET)
    total_mod = might + modifier
    plain = pc_damage(weapon_power, paragraph, doom_stage, None, pursuit, critical_extra)
    # whole-number weights over 36 × the damage's total (the same for a special: one more constant)
    weights: dict[int, int] = {}
    for raw, weight in _TWO_D6.weights.items():
        result = _outcome(raw, total_mod, body_defence)
        if result in ("fumble", "failure"):
            weights[0] = weights.get(0, 0) + weight * plain.total
            continue
        dealt = plain if result == "success" else \
            pc_damage(weapon_power, paragraph, doom_stage, raw + total_mod, pursuit, critical_extra)
        for d, w in dealt.weights.items():
            weights[d] = weights.get(d, 0) + weight * w * (plain.total // dealt.total)
    return Dist(weights)


def can_interfere(same_paragraph: bool, placed_before_this_round: bool,
                  areas_with_cause: int) -> tuple[bool, str]:
    """Whether a PC may attempt 방해 against a spell threat, and why not (Korean).

    All must hold: the threat is in the PC's paragraph; its card was placed in the recon round or
    an earlier melee round; each of the four non-black areas of the wheel of fate still has a
    cause (인과) to remove (``areas_with_cause`` of 4).

    >>> can_interfere(True, True, 4)
    (True, '')
    >>> can_interfere(True, False, 4)[0], can_interfere(True, True, 3)[0]
    (False, False)
    """
    same = require_bool(same_paragraph, "same_paragraph", "같은 패러그래프")
    earlier = require_bool(placed_before_this_round, "placed_before_this_round", "이전 라운드 배치")
    areas = require_int(areas_with_cause, "areas_with_cause", "인과가 남은 영역 수", 0,
                        INTERFERENCE_AREAS)
    if not same:
        return False, "그 위협이 방해하려는 PC와 같은 패러그래프에 있지 않습니다"
    if not earlier:
        return False, "이번 라운드에 막 놓인 위협 카드는 방해할 수 없습니다"
    if areas < INTERFERENCE_AREAS:
        return False, (f"흑색이 아닌 {INTERFERENCE_AREAS}개 영역 가운데 {INTERFERENCE_AREAS - areas}곳에 "
                       "없앨 인과가 없습니다")
    return True, ""


#: 방해 costs one cause (인과) from each area of the wheel of fate but the black one.
INTERFERENCE_AREAS = 4


# --- can the PCs bring the body down? (issue 30: widgets.fight) ------------------------------
#: Most PCs of one :func:`hunt`.
MAX_HUNT_PCS = 4
#: Result key of :func:`hunt`.
HUNT_RESULTS = ("win",)


def _hunt_pc(pc: object) -> tuple[int, int, int]:
    if not isinstance(pc, (tuple, list)) or len(pc) != 3:
        raise RuleInputError(f"a PC is (might, weapon power, paragraph), got {shown(pc)}",
                             f"PC는 (【무용】, 무기 위력, 패러그래프) 세 수로 넣어 주세요 (입력값: {shown(pc)}).")
    return (require_int(pc[0], "might", "무용", -MAX_VALUE, MAX_VALUE),
            require_int(pc[1], "weapon_power", "무기 위력", 0, MAX_POWER),
            require_int(pc[2], "paragraph", "패러그래프", 1, OUT_OF_RANGE))


def round_loss(pcs: Sequence[tuple[int, int, int]], defence: int, doom: int = 0,
               pursuit: bool = False, cap: "int | None" = None) -> Dist:
    """【생명력】 the body loses in one round in which each PC of ``pcs`` ((【무용】, weapon power,
    paragraph) each) attacks it once (:func:`body_attack_damage`); in the pursuit round every hit
    is +1D6. With ``cap`` each attack's damage is capped there (the total stays exact up to it).

    >>> round_loss([(2, 3, 3)], 9).probability(0)
    Fraction(5, 12)
    >>> round_loss([(2, 3, 3), (1, 2, 1)], 9, cap=8).max
    16
    """
    people = [_hunt_pc(pc) for pc in require_items(pcs, "pcs", "PC 목록", MAX_HUNT_PCS)]
    if cap is not None:
        cap = require_int(cap, "cap", "피해 상한", 1, MAX_DURABILITY)
    total = Dist.constant(0)
    for might, power, paragraph in people:
        loss = body_attack_damage(might, defence, power, paragraph, doom, pursuit=pursuit)
        total = total + (loss if cap is None else loss.map(lambda x: min(x, cap)))
    return total


def hunt(pcs: Sequence[tuple[int, int, int]], defence: int, life: int, doom: int = 0,
         pursuit: "int | None" = None) -> FightOdds:
    """Exact odds that the PCs bring the monster body down, round by round.

    ``pcs``: 1 to 4 PCs as (【무용】, weapon power, paragraph); in each melee round each PC
    attacks the body once: the hit check 2D6 + 【무용】 against its 【방어치】 ``defence``
    (:func:`check_odds`), a hit deals weapon power + paragraph + the doom stage ``doom``, a
    special (raw 12) adds the 달성치 (:func:`body_attack_damage`). Two melee rounds; with
    ``pursuit`` (the pursuing PC's 【두뇌】 or 【기술】) a pursuit check against ``defence``
    (:func:`pursuit_odds`) follows while the body has 【생명력】 left, and on a success one more
    round in which all damage is +1D6. Result ``"win"`` (【생명력】 0), one step a round: melee
    round 1, melee round 2 and (with ``pursuit``) the pursuit; a fixed end, so ``rest`` is the
    chance that the body survives.

    Readings (가정): threats are left out (their attacks, the damage they take, the 【생명력】
    a destroyed threat takes from the body); each PC attacks the body every round and keeps its
    paragraph; no recon round, no statuses and no other modifiers; the doom stage does not change
    during the fight.

    >>> odds = hunt([(2, 3, 3), (1, 4, 2)], defence=9, life=20, pursuit=2)
    >>> odds.keys, odds.steps, odds.fixed_end
    (('win',), 3, True)
    >>> [round(float(x), 4) for x in odds.cumulative("win")], round(float(odds.rest), 4)
    ([0.0432, 0.1476, 0.4198], 0.5802)
    >>> hunt([(2, 3, 3)], defence=9, life=20).steps       # no pursuit: the two melee rounds
    2
    """
    people = [_hunt_pc(pc) for pc in require_items(pcs, "pcs", "PC 목록", MAX_HUNT_PCS)]
    if not people:
        raise RuleInputError("a hunt needs 1 to 4 PCs", f"PC는 1명부터 {MAX_HUNT_PCS}명까지 넣어 주세요.")
    defence = require_int(defence, "defence", "본체 방어치", -MAX_TARGET, MAX_TARGET)
    life = require_int(life, "life", "본체 생명력", 1, MAX_DURABILITY)
    doom = require_int(doom, "doom", "파멸의 색 각성단계", 0, MAX_DOOM_STAGE)
    go_on = None if pursuit is None else pursuit_odds(pursuit, defence)

    def chain(loss: Dist, go_on: Fraction) -> Chain:
        """One round: with chance ``go_on`` it is played (``loss``), else the body is left be."""
        weights, scale = loss.weights, go_on.numerator
        stay = (go_on.denominator - go_on.numerator) * loss.total
        rows: dict = {}
        for lost in range(life):
            row: dict = {lost: stay} if stay else {}
            for x, w in weights.items():
                target = lost + x if lost + x < life else "win"
                row[target] = row.get(target, 0) + scale * w
            rows[lost] = row
        return Chain(rows, HUNT_RESULTS)

    melee = chain(round_loss(people, defence, doom, cap=life), Fraction(1))
    rounds = [melee, melee]
    if go_on is not None:
        rounds.append(chain(round_loss(people, defence, doom, pursuit=True, cap=life), go_on))
    return walk(rounds, 0)
