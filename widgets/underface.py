"""Underface (『언더페이스』) combat: equipment tables and exact odds for the combat chapter.

The source text is the combat chapter only. The system rules it cites (Section 3: checks,
difficulty, special/fumble, opposed checks) are missing, so they live in
:class:`CheckSettings` with labelled defaults (see ``rules-notes.md``). Every calculation
rounds fractions up, as the source says for all of Underface.

>>> death_threshold(11)
-6
>>> hp_after_hit(12, 6, armor=2)
8
>>> opposed_odds(50, 50)["both_fail"]
Fraction(1, 4)
"""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from fractions import Fraction
from typing import Iterable, Literal

from . import limits
from .damage import (HP_STATES, DamageExpr, after_armor, db_dist, divide_up, from_probabilities,
                     hp_states, parse_damage)
from .dice import Dist
from .datafiles import read_csv
from .fight import Chain, FightOdds, race
from .errors import (RuleInputError, particle, require_bool, require_choice, require_instance,
                     require_int, require_items, require_number, require_odds, shown)

MAX_SKILL = 200       # skills may pass 100 in D100 games; 200 is plenty
MAX_HP = 1000
MAX_CHARACTERS = 100
MAX_DISTANCE = 100_000  # metres

# --- equipment tables (source 4.7, exactly as printed; data in widgets/data/*.csv) ---------


@dataclass(frozen=True)
class Weapon:
    """One row of the weapon or shield tables.

    ``skill`` is the 특화 분야 (shields use the 방패 skill); ``hands`` is 1 (한손) or 2 (양손);
    ``range_m`` only for ranged weapons; ``shield_class`` (일반/대형) only for shields. The
    shield table gives no base chance or hands, so those are ``None``.
    """

    name: str
    kind: Literal["melee", "ranged", "shield"]
    skill: str
    base_chance: int | None
    damage: str
    hands: int | None = None
    range_m: int | None = None
    shield_class: str | None = None

    @property
    def expr(self) -> DamageExpr:
        return parse_damage(self.damage)

    @property
    def hands_label(self) -> str:
        return {1: "한손", 2: "양손"}.get(self.hands or 0, "-")


def _int_or_none(text: str) -> int | None:
    return int(text) if text else None


def _weapons(kind: str) -> dict[str, Weapon]:
    """One of the source's tables, from ``widgets/data/underface_weapons.csv``."""
    return {row["name"]: Weapon(row["name"], row["kind"], row["skill"],  # type: ignore[arg-type]
                                _int_or_none(row["base_chance"]), row["damage"],
                                _int_or_none(row["hands"]), _int_or_none(row["range_m"]),
                                row["shield_class"] or None)
            for row in read_csv("underface_weapons.csv") if row["kind"] == kind}


#: 4.7.1.1 근접 무기
MELEE_WEAPONS = _weapons("melee")
#: 4.7.1.2 사격 무기 (사정거리 in metres)
RANGED_WEAPONS = _weapons("ranged")
#: 4.7.3 방패 (분류 일반/대형; attacks and blocks use the 방패 skill)
SHIELDS = _weapons("shield")

#: Every weapon and shield by name (the names never collide).
WEAPONS: dict[str, Weapon] = {**MELEE_WEAPONS, **RANGED_WEAPONS, **SHIELDS}


@dataclass(frozen=True)
class Armor:
    """One row of the armour table: 방어 점수 and the 신체 판정 penalty in percent points."""

    name: str
    armor_value: int
    penalty: int

    @property
    def penalty_label(self) -> str:
        return f"신체 판정 −{self.penalty}%" if self.penalty else "없음"


#: 4.7.2 방어구 (from ``widgets/data/underface_armor.csv``)
ARMOR: dict[str, Armor] = {row["name"]: Armor(row["name"], int(row["armor_value"]), int(row["penalty"]))
                           for row in read_csv("underface_armor.csv")}

#: The "신체 판정" the armour penalty applies to (source 4.7.2).
PHYSICAL_CHECKS = ("오르기", "도약", "회피", "정밀 조작", "손놀림", "은밀행동", "수영", "던지기",
                   "민첩 판정")


def _weapon_expr(weapon: str) -> DamageExpr:
    """A table name, or else a damage expression (the GM may add weapons)."""
    if isinstance(weapon, str) and len(weapon) <= limits.MAX_NAME_TEXT and weapon.strip() in WEAPONS:
        return WEAPONS[weapon.strip()].expr
    try:
        return parse_damage(weapon)
    except RuleInputError as err:
        raise RuleInputError(f"unknown weapon {shown(weapon)}: not a table name, and {err}",
                             f"{particle(shown(weapon), '은/는')} 표에 없는 무기이고 피해 식으로도 "
                             f"읽을 수 없습니다. ({err.korean})") from None


def _armor_value(armor: str | int) -> int:
    if isinstance(armor, str):
        if len(armor) > limits.MAX_NAME_TEXT or armor.strip() not in ARMOR:
            raise RuleInputError(f"unknown armor {shown(armor)}",
                                 f"{particle(shown(armor), '은/는')} 방어구 표에 없습니다.")
        return ARMOR[armor.strip()].armor_value
    return require_int(armor, "armor", "방어 점수", 0, 100)


def _penalty(penalty: str | int) -> int:
    if isinstance(penalty, str):
        if len(penalty) > limits.MAX_NAME_TEXT or penalty.strip() not in ARMOR:
            raise RuleInputError(f"unknown armor {shown(penalty)}",
                                 f"{particle(shown(penalty), '은/는')} 방어구 표에 없습니다.")
        return ARMOR[penalty.strip()].penalty
    return require_int(penalty, "penalty", "불이익", 0, 100)


# --- damage, HP, death (source 4.4, 4.5) ---------------------------------------------


def death_threshold(max_hp: int) -> int:
    """사망 임계: half the maximum HP, rounded up, made negative.

    >>> death_threshold(11), death_threshold(12)
    (-6, -6)
    """
    return -divide_up(require_int(max_hp, "max_hp", "최대 HP", 1, MAX_HP), 2)


def damage_after_armor(damage: int, armor: str | int) -> int:
    """Damage that gets through: ``max(0, damage − armor)``; armour by value or table name.

    >>> damage_after_armor(6, 2), damage_after_armor(1, 5), damage_after_armor(6, "가죽 갑옷")
    (4, 0, 4)
    """
    damage = require_int(damage, "damage", "피해", -MAX_HP, MAX_HP)
    return max(0, damage - _armor_value(armor))


def hp_after_hit(hp: int, damage: int, armor: str | int = 0) -> int:
    """Current HP after a hit of ``damage`` through ``armor`` (may go below zero).

    >>> hp_after_hit(12, 6, armor=2)
    8
    """
    hp = require_int(hp, "hp", "현재 HP", -MAX_HP, MAX_HP)
    return hp - damage_after_armor(damage, armor)


def damage_distribution(weapon: str, armor: str | int = 0, db: "Dist | str | None" = "0",
                        special: bool = False) -> Dist:
    """Exact distribution of HP lost to one hit.

    ``weapon``: a name from :data:`WEAPONS` (or a damage expression); ``armor``: a name from
    :data:`ARMOR` or a value; ``db``: a key of ``DB_OPTIONS`` (``"0"``, ``"+1D4"``, …), a dice
    expression or a Dist. ``special=True``: the weapon does its maximum damage and the DB is
    rolled as usual (a ``½DB`` weapon adds half the DB roll).

    >>> damage_distribution("숏소드", armor="가죽 갑옷").probabilities()
    {0: Fraction(1, 6), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6), 4: Fraction(1, 6), 5: Fraction(1, 6)}
    >>> damage_distribution("숏소드", armor=2, db="+1D4", special=True).outcomes()
    [6, 7, 8, 9]
    """
    require_bool(special, "special", "스페셜 여부")
    expr = _weapon_expr(weapon)
    raw = expr.special_dist(db) if special else expr.dist(db)
    return after_armor(raw, _armor_value(armor))


def hit_hp_states(weapon: str, hp: int, max_hp: int, armor: str | int = 0,
                  db: "Dist | str | None" = "0", special: bool = False) -> dict[str, Fraction]:
    """Odds of standing / unconscious / at or below the death threshold after one hit.

    Keys as in ``damage.HP_STATES``.

    >>> hit_hp_states("그레이트 소드", hp=4, max_hp=11)["standing"]
    Fraction(0, 1)
    """
    max_hp = require_int(max_hp, "max_hp", "최대 HP", 1, MAX_HP)
    hp = require_int(hp, "hp", "현재 HP", -MAX_HP, max_hp)
    return hp_states(damage_distribution(weapon, armor, db, special), hp, death_threshold(max_hp))


# --- checks (settings for the missing Section 3) -------------------------------------


@dataclass(frozen=True)
class CheckSettings:
    """Assumed D100 check rules (the source's Section 3 is missing). Defaults follow
    rules-notes: success D100 ≤ target; special ≤ ⌈target/5⌉; fumble 96–100 (a fumble always
    fails); hard = ⌈target/2⌉; success margin = target − roll. :meth:`rows` gives the Korean
    labels the book shows beside each widget.

    >>> CheckSettings(fumble_from=100).rows()[2]
    ('펌블 (가정)', 'D100 100 (항상 실패)')
    """

    fumble_from: int = 96                      # 101 = no fumbles
    special_divisor: int = 5
    hard: Literal["divide", "penalty"] = "divide"
    hard_divisor: int = 2
    hard_penalty: int = 20
    margin: Literal["target_minus_roll", "roll"] = "target_minus_roll"

    def __post_init__(self) -> None:
        for name, ko, low, high in (("fumble_from", "펌블 시작", 2, 101),
                                    ("special_divisor", "스페셜 나누는 수", 1, 100),
                                    ("hard_divisor", "어려움 나누는 수", 1, 10),
                                    ("hard_penalty", "어려움 불이익", 0, 100)):
            object.__setattr__(self, name, require_int(getattr(self, name), name, ko, low, high))
        if self.hard not in ("divide", "penalty"):
            raise RuleInputError(f"hard must be 'divide' or 'penalty', got {shown(self.hard)}",
                                 "어려움 난이도 방식은 'divide'(나누기) 또는 'penalty'(빼기)입니다.")
        if self.margin not in ("target_minus_roll", "roll"):
            raise RuleInputError(f"margin must be 'target_minus_roll' or 'roll', got {shown(self.margin)}",
                                 "성공 폭 방식은 'target_minus_roll' 또는 'roll'입니다.")

    def rows(self) -> list[tuple[str, str]]:
        """(Korean label, Korean value) pairs; '(가정)' marks rules not in the source."""
        fumble = ("없음" if self.fumble_from > 100 else
                  f"D100 {self.fumble_from}" + ("" if self.fumble_from == 100 else "–100")
                  + " (항상 실패)")
        hard = (f"목표치 ÷ {self.hard_divisor} (올림)" if self.hard == "divide"
                else f"목표치 − {self.hard_penalty}")
        margin = "목표치 − 굴림" if self.margin == "target_minus_roll" else "굴린 값 (높을수록 큼)"
        return [
            ("성공 (가정)", "D100 ≤ 목표치"),
            ("스페셜 (가정)", f"D100 ≤ 목표치 ÷ {self.special_divisor} (올림)"),
            ("펌블 (가정)", fumble),
            ("어려움 난이도 (가정)", hard),
            ("성공 폭 계산 (가정)", margin),
            ("대항 판정 (원문)", "한쪽만 성공하면 그쪽 승, 양쪽 성공이면 성공 폭이 큰 쪽, 같으면 공격자 승"),
        ]


DEFAULT_SETTINGS = CheckSettings()


def _settings(settings: object) -> CheckSettings:
    if not isinstance(settings, CheckSettings):
        raise RuleInputError(f"settings must be CheckSettings, got {shown(settings)}",
                             "판정 설정(CheckSettings)을 넣어 주세요.")
    return settings


def effective_target(skill: int, *, hard: bool = False, penalty: str | int = 0,
                     settings: CheckSettings = DEFAULT_SETTINGS) -> int:
    """Target value after an armour penalty (points, or an armour name) and hard difficulty.

    The penalty comes off first, then the hard-difficulty rule (an assumption; the source
    gives no order). Never below 0.

    >>> effective_target(60, penalty="방탄조끼"), effective_target(60, hard=True)
    (55, 30)
    """
    settings = _settings(settings)
    target = max(0, require_int(skill, "skill", "기능 수치", 0, MAX_SKILL) - _penalty(penalty))
    if require_bool(hard, "hard", "어려움 여부"):
        target = (divide_up(target, settings.hard_divisor) if settings.hard == "divide"
                  else max(0, target - settings.hard_penalty))
    return target


def _roll_class(roll: int, target: int, settings: CheckSettings) -> tuple[bool, bool, int]:
    """(success, special, margin) of one D100 roll against ``target``."""
    if roll <= target and roll < settings.fumble_from:   # a fumble always fails
        margin = target - roll if settings.margin == "target_minus_roll" else roll
        return True, roll <= divide_up(target, settings.special_divisor), margin
    return False, False, 0


def _side(target: int, settings: CheckSettings) -> dict[tuple[bool, bool, int], int]:
    """Outcome classes of one D100 roll: (success, special, margin) → number of faces."""
    classes: dict[tuple[bool, bool, int], int] = {}
    for roll in range(1, 101):
        key = _roll_class(roll, target, settings)
        classes[key] = classes.get(key, 0) + 1
    return classes


def _winner(attack: tuple[bool, bool, int], defense: tuple[bool, bool, int]) -> str:
    """The hit check's outcome (a key of :data:`OUTCOME_LABELS`) from both sides' classes."""
    (a_ok, a_special, a_margin), (d_ok, d_special, d_margin) = attack, defense
    if a_ok and (not d_ok or a_margin >= d_margin):
        return "attacker_wins_special" if a_special else "attacker_wins"
    if d_ok:
        return "defender_wins_special" if d_special else "defender_wins"
    return "both_fail"


#: The results of one check (their Korean words: ``widgets.views.labels.UF_CHECKS``).
CHECK_RESULTS: tuple[str, ...] = ("special", "success", "failure", "fumble")


def check_odds(skill: int, *, hard: bool = False, penalty: str | int = 0,
               settings: CheckSettings = DEFAULT_SETTINGS) -> dict[str, Fraction]:
    """Exact odds of one D100 check, exclusive: special, (other) success, (other) failure,
    fumble.

    >>> check_odds(50)
    {'special': Fraction(1, 10), 'success': Fraction(2, 5), 'failure': Fraction(9, 20), 'fumble': Fraction(1, 20)}
    """
    settings = _settings(settings)
    target = effective_target(skill, hard=hard, penalty=penalty, settings=settings)
    special_at = divide_up(target, settings.special_divisor)
    success = min(target, settings.fumble_from - 1)
    special = min(special_at, success)
    fumble = 101 - settings.fumble_from
    return {"special": Fraction(special, 100), "success": Fraction(success - special, 100),
            "failure": Fraction(100 - success - fumble, 100), "fumble": Fraction(fumble, 100)}


def check_result(roll: int, skill: int, *, hard: bool = False, penalty: str | int = 0,
                 settings: CheckSettings = DEFAULT_SETTINGS) -> str:
    """The result (a key of :data:`CHECK_RESULTS`) of one actual D100 ``roll`` of a check, as
    :func:`check_odds` counts it.

    >>> check_result(10, 50), check_result(11, 50), check_result(51, 50), check_result(96, 99)
    ('special', 'success', 'failure', 'fumble')
    """
    settings = _settings(settings)
    roll = require_int(roll, "roll", "D100 굴림", 1, 100)
    target = effective_target(skill, hard=hard, penalty=penalty, settings=settings)
    if roll >= settings.fumble_from:
        return "fumble"
    ok, special, _ = _roll_class(roll, target, settings)
    return "special" if special else "success" if ok else "failure"


#: Korean labels of the :func:`opposed_odds` keys (the outcomes of one attack).
OUTCOME_LABELS = {
    "attacker_wins": "명중 (보통 피해)",
    "attacker_wins_special": "스페셜 명중 (무기 최대 피해 + DB)",
    "defender_wins": "막음/피함",
    "defender_wins_special": "스페셜 방어 (공격자의 다음 행동 한 번이 어려움)",
    "both_fail": "빗나감 (양쪽 실패)",
}


def opposed_odds(attack_skill: int, defense_skill: int | None, *, attack_hard: bool = False,
                 defense_hard: bool = False, attack_penalty: str | int = 0,
                 defense_penalty: str | int = 0,
                 settings: CheckSettings = DEFAULT_SETTINGS) -> dict[str, Fraction]:
    """Exact odds of the hit check (attack vs. parry/dodge as an opposed check, source 4.3.3).

    Keys (exclusive, summing to 1): ``attacker_wins`` (hit, normal damage),
    ``attacker_wins_special`` (hit with a special: maximum damage), ``defender_wins``
    (parried or dodged), ``defender_wins_special`` (parried/dodged with a special: the
    attacker's next action is hard), ``both_fail`` (miss). Only one success → it wins; both
    succeed → larger margin wins, a tie goes to the attacker. Specials decide nothing: they
    only grade the winner's result. ``defense_skill=None``: no defence roll (e.g. firearms),
    so the attack hits whenever it succeeds. Penalties (points or an armour name) apply to
    physical checks such as 회피 — not to parries.

    >>> odds = opposed_odds(60, 60, defense_penalty="방탄조끼")
    >>> sum(odds.values())
    Fraction(1, 1)
    >>> opposed_odds(50, None)["attacker_wins_special"]
    Fraction(1, 10)
    """
    settings = _settings(settings)
    attack = _side(effective_target(attack_skill, hard=attack_hard, penalty=attack_penalty,
                                    settings=settings), settings)
    if defense_skill is None:
        require_bool(defense_hard, "defense_hard", "방어 어려움 여부")
        _penalty(defense_penalty)
        defense = {(False, False, 0): 1}  # nobody rolls: as if the defence failed
    else:
        defense = _side(effective_target(defense_skill, hard=defense_hard,
                                         penalty=defense_penalty, settings=settings), settings)
    counts = dict.fromkeys(OUTCOME_LABELS, 0)
    for a_key, a_n in attack.items():
        for d_key, d_n in defense.items():
            counts[_winner(a_key, d_key)] += a_n * d_n
    total = sum(counts.values())
    return {key: Fraction(n, total) for key, n in counts.items()}


#: The :func:`opposed_odds` outcomes in which the attack hits.
HIT_OUTCOMES = ("attacker_wins", "attacker_wins_special")


def hit_chance(odds: dict[str, Fraction]) -> Fraction:
    """명중, 스페셜 명중 포함: the chance that the attack hits, whatever grade, of an
    :func:`opposed_odds` (or :func:`ranged_hit_odds`) result. The GM's first question.

    >>> hit_chance(opposed_odds(60, 60)), hit_chance(opposed_odds(50, None))
    (Fraction(423, 1000), Fraction(1, 2))
    """
    odds = require_odds(odds, OUTCOME_LABELS, "odds", "명중 판정 확률표(opposed_odds의 결과)")
    return sum((odds[k] for k in HIT_OUTCOMES), Fraction(0))


def success_chance(odds: dict[str, Fraction]) -> Fraction:
    """성공, 스페셜 포함: the chance that one check succeeds, of a :func:`check_odds` result.

    >>> success_chance(check_odds(60)), success_chance(check_odds(60, hard=True))
    (Fraction(3, 5), Fraction(3, 10))
    """
    odds = require_odds(odds, CHECK_RESULTS, "odds", "판정 확률표(check_odds의 결과)")
    return odds["special"] + odds["success"]


def opposed_result(attack_roll: int, attack_target: int, defense_roll: int,
                   defense_target: int, settings: CheckSettings = DEFAULT_SETTINGS) -> str:
    """The outcome (a key of :data:`OUTCOME_LABELS`) of one actual hit check: both D100 rolls
    against their (already adjusted) targets, decided as in :func:`opposed_odds`.

    >>> opposed_result(23, 50, 31, 35), opposed_result(30, 50, 5, 35), opposed_result(97, 50, 60, 35)
    ('attacker_wins', 'defender_wins_special', 'both_fail')
    """
    settings = _settings(settings)
    rolls = [require_int(r, name, ko, 1, 100) for r, name, ko in
             ((attack_roll, "attack_roll", "공격 굴림"), (defense_roll, "defense_roll", "방어 굴림"))]
    targets = [require_int(t, name, ko, 0, MAX_SKILL) for t, name, ko in
               ((attack_target, "attack_target", "공격 목표치"),
                (defense_target, "defense_target", "방어 목표치"))]
    return _winner(_roll_class(rolls[0], targets[0], settings),
                   _roll_class(rolls[1], targets[1], settings))


# --- turn order, movement, range (source 4.1, 4.2.2, 4.7.1) --------------------------


@dataclass(frozen=True)
class Character:
    """A combatant for :func:`turn_order`: DEX, ranged or melee weapon, its skill, PC/NPC."""

    name: str
    dex: int
    ranged: bool = False
    weapon_skill: int = 0
    pc: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or len(self.name) > 40 or not self.name.strip():
            raise RuleInputError(f"a character needs a name of 1 to 40 characters, got {shown(self.name)}",
                                 "캐릭터 이름은 1자부터 40자까지입니다.")
        object.__setattr__(self, "dex", require_int(self.dex, "dex", "DEX", 0, 100))
        object.__setattr__(self, "weapon_skill",
                           require_int(self.weapon_skill, "weapon_skill", "무기 기능", 0, MAX_SKILL))
        require_bool(self.ranged, "ranged", "사격 무기 여부")
        require_bool(self.pc, "pc", "PC 여부")


def turn_order(characters: Iterable[Character], waiting: Iterable[str] = ()) -> list[Character]:
    """Turn order of one round (source 4.1).

    Higher DEX first; ties: ranged weapon before melee, then higher weapon skill, then PC
    before NPC. A full tie keeps the order given: PCs settle it by discussion, and for NPCs the
    source gives no rule, so keeping the order given is the book's assumption (가정). Characters
    named in ``waiting`` go to the end of the round; among them the first to wait acts first,
    which is their original order since each waits on its own turn. A delayed turn cannot
    wait again, so a name may appear in ``waiting`` only once.

    >>> party = [Character("A", 12), Character("B", 14), Character("C", 12, ranged=True),
    ...          Character("D", 12, weapon_skill=50, pc=False), Character("E", 12, weapon_skill=50)]
    >>> [c.name for c in turn_order(party)]
    ['B', 'C', 'E', 'D', 'A']
    >>> [c.name for c in turn_order(party, waiting=["A", "B"])]
    ['C', 'E', 'D', 'B', 'A']
    """
    chars = require_items(characters, "characters", "캐릭터 목록", MAX_CHARACTERS)
    if not all(isinstance(c, Character) for c in chars):
        raise RuleInputError("characters must be Character objects", "캐릭터 목록이 올바르지 않습니다.")
    names = [c.name for c in chars]
    if len(set(names)) != len(names):
        raise RuleInputError("character names must be unique", "캐릭터 이름이 겹칩니다.")
    if isinstance(waiting, str):
        waiting = [waiting]
    waiting = [require_instance(w, str, "waiting name", "대기한 캐릭터 이름")
               for w in require_items(waiting, "waiting", "대기 목록", MAX_CHARACTERS)]
    if len(set(waiting)) != len(waiting):
        raise RuleInputError("a character can wait only once a round",
                             "대기로 밀려난 턴에는 다시 대기할 수 없습니다.")
    unknown = [w for w in waiting if w not in names]
    if unknown:
        raise RuleInputError(f"unknown waiting character {unknown[0]!r}",
                             f"대기한 캐릭터 {particle(shown(unknown[0]), '이/가')} 목록에 없습니다.")
    # sorted() is stable, so full ties keep the order given
    order = sorted(chars, key=lambda c: (-c.dex, not c.ranged, -c.weapon_skill, not c.pc))
    return [c for c in order if c.name not in waiting] + [c for c in order if c.name in waiting]


#: The results of :func:`movement` (their Korean words: ``widgets.views.labels.UF_MOVES``).
MOVES: tuple[str, ...] = ("walk", "run", "too_far")


def movement(distance: float, mov: int) -> str:
    """Kind of move on one turn: ``walk`` (≤ MOV m), ``run`` (≤ MOV×3 m), else ``too_far``.

    >>> movement(8, 8), movement(9, 8), movement(25, 8)
    ('walk', 'run', 'too_far')
    """
    distance = require_number(distance, "distance", "이동 거리", 0, MAX_DISTANCE)
    mov = require_int(mov, "mov", "MOV", 0, 100)
    return "walk" if distance <= mov else "run" if distance <= 3 * mov else "too_far"


#: Korean labels of the :func:`range_difficulty` results.
RANGE_LABELS = {"normal": "보통 난이도", "hard": "어려움 난이도 (사정거리의 2배까지)",
                "out_of_range": "닿지 않음 (사정거리의 2배 초과)"}


def range_difficulty(distance: float, weapon_range: str | int) -> str:
    """Shooting difficulty: within range ``normal``, up to twice it ``hard``, else
    ``out_of_range``. ``weapon_range`` in metres or a ranged weapon's name.

    >>> range_difficulty(50, "권총"), range_difficulty(100, 50), range_difficulty(101, 50)
    ('normal', 'hard', 'out_of_range')
    """
    distance = require_number(distance, "distance", "거리", 0, MAX_DISTANCE)
    if isinstance(weapon_range, str):
        weapon = RANGED_WEAPONS.get(weapon_range.strip()) \
            if len(weapon_range) <= limits.MAX_NAME_TEXT else None
        if weapon is None:
            raise RuleInputError(f"{shown(weapon_range)} is not a ranged weapon",
                                 f"{particle(shown(weapon_range), '은/는')} 사격 무기 표에 없습니다.")
        weapon_range = weapon.range_m
    weapon_range = require_int(weapon_range, "weapon_range", "사정거리", 1, MAX_DISTANCE)
    return "normal" if distance <= weapon_range else "hard" if distance <= 2 * weapon_range \
        else "out_of_range"


# --- recovery (source 4.6) -------------------------------------------------------------

#: Natural recovery a week and the HP one successful first aid restores.
NATURAL_RECOVERY = "1D6÷2"
FIRST_AID_HEAL = "1D6÷2"
MAX_DEFICIT = 300   # HP to regain; keeps the week-by-week loop short


def weeks_to_recover(current_hp: int, goal_hp: int = 1, per_week: str = NATURAL_RECOVERY) -> Dist:
    """Exact distribution of the number of weeks of natural recovery until HP ≥ ``goal_hp``
    (default 1: awake). ``per_week`` lets the GM change the weekly amount (at least 1 HP).

    >>> weeks_to_recover(-1).probabilities()
    {1: Fraction(2, 3), 2: Fraction(1, 3)}
    """
    current_hp = require_int(current_hp, "current_hp", "현재 HP", -MAX_HP, MAX_HP)
    goal_hp = require_int(goal_hp, "goal_hp", "목표 HP", -MAX_HP, MAX_HP)
    step = parse_damage(per_week, allow_db=False).dist()
    if step.min < 1 or len(step.outcomes()) > 50:
        raise RuleInputError("weekly recovery must be at least 1 with at most 50 outcomes",
                             "주당 회복량은 항상 1 이상이고 결과가 50가지 이하여야 합니다.")
    need = goal_hp - current_hp
    if need <= 0:
        return Dist.constant(0)
    if need > MAX_DEFICIT:
        raise RuleInputError(f"at most {MAX_DEFICIT} HP to regain",
                             f"회복할 HP는 {MAX_DEFICIT}점까지입니다.")
    # regained HP capped at `need`: reaching it is the absorbing "recovered" state
    regained, done_before, weeks = Dist.constant(0), Fraction(0), {}
    while done_before < 1:   # each week regains ≥ 1 HP, so at most `need` rounds
        regained = (regained + step).map(lambda v: min(v, need))
        done = regained.probability(need)
        weeks[len(weeks) + 1] = done - done_before
        done_before = done
    return from_probabilities(weeks)


def first_aid(current_hp: int, skill: int, attempts: int = 1, *, hard: bool = False,
              penalty: str | int = 0, settings: CheckSettings = DEFAULT_SETTINGS) -> Dist:
    """Exact HP after up to ``attempts`` first-aid tries on an unconscious character.

    Only usable at HP ≤ 0; each success restores 1D6÷2 HP; tries stop once HP ≥ 1 (the
    character wakes and first aid no longer applies). ``result.at_least(1)`` is the chance of
    waking within ``attempts`` tries. Death checks at the threshold are not modelled.

    >>> first_aid(0, 50).probabilities()
    {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}
    """
    current_hp = require_int(current_hp, "current_hp", "현재 HP", -MAX_DEFICIT, 0)
    attempts = require_int(attempts, "attempts", "시도 횟수", 0, 100)
    odds = check_odds(skill, hard=hard, penalty=penalty, settings=settings)
    success = odds["special"] + odds["success"]
    heal = parse_damage(FIRST_AID_HEAL).dist().probabilities()
    hp = {current_hp: Fraction(1)}
    for _ in range(attempts):
        nxt: dict[int, Fraction] = {}
        for value, p in hp.items():
            if value >= 1:   # awake: no more first aid
                nxt[value] = nxt.get(value, 0) + p
                continue
            nxt[value] = nxt.get(value, 0) + p * (1 - success)
            for gain, q in heal.items():
                nxt[value + gain] = nxt.get(value + gain, 0) + p * success * q
        hp = {v: p for v, p in nxt.items() if p}
    return from_probabilities(hp)


__all__ = [
    "ARMOR", "CHECK_RESULTS", "DEFAULT_SETTINGS", "FIRST_AID_HEAL", "HIT_OUTCOMES", "HP_STATES",
    "MELEE_WEAPONS", "MOVES", "NATURAL_RECOVERY", "OUTCOME_LABELS", "PHYSICAL_CHECKS",
    "RANGED_WEAPONS", "RANGE_LABELS", "SHIELDS", "WEAPONS", "Armor", "Character",
    "CheckSettings", "DUEL_DETAILS", "DUEL_RESULTS", "Fighter", "Weapon", "check_odds", "damage_after_armor", "damage_distribution",
    "death_threshold", "duel", "effective_target", "first_aid", "hit_chance", "hit_hp_states",
    "hp_after_hit", "movement", "opposed_odds", "opposed_result", "range_difficulty",
    "success_chance", "turn_order", "weeks_to_recover",
]


# --- defending against a shot, and what an attack costs in HP (source 4.3, 4.7.2, 4.7.3) ----

#: Skills of fast-projectile weapons (firearms): "총기나 에너지 무기처럼 탄속이 빠른 무기는
#: 막거나 피할 수 없습니다". Every other ranged weapon of the table throws a slow projectile.
FIREARM_SKILLS = ("권총", "라이플", "산탄총")

#: How a target may answer a shot: no defence, a shield (general / large), or a dodge the
#: scenario writer allows.
RANGED_RESPONSES = {"none": "방어하지 않음", "shield": "일반 방패로 막기",
                    "large_shield": "대형 방패로 막기", "dodge": "회피 (각본가가 허락할 때)"}


def ranged_defence(weapon: str, response: str) -> tuple[bool, bool]:
    """Whether a shot from ``weapon`` allows the target's defence roll, and whether it is hard.

    Firearms cannot be parried or dodged; a slow projectile can be blocked with a shield (hard,
    normal with a large shield) or dodged at hard difficulty if the scenario writer allows.

    >>> ranged_defence("권총", "shield"), ranged_defence("롱보우", "shield")
    ((False, False), (True, True))
    >>> ranged_defence("롱보우", "large_shield"), ranged_defence("롱보우", "dodge")
    ((True, False), (True, True))
    """
    if not isinstance(weapon, str) or len(weapon) > limits.MAX_NAME_TEXT \
            or weapon.strip() not in RANGED_WEAPONS:
        raise RuleInputError(f"{shown(weapon)} is not a ranged weapon",
                             f"사격 무기 표에 없는 무기입니다 (입력값: {shown(weapon)}).")
    if not isinstance(response, str) or response not in RANGED_RESPONSES:
        raise RuleInputError(f"unknown response {shown(response)}",
                             f"방어 방법은 {', '.join(RANGED_RESPONSES.values())} 가운데 하나입니다.")
    if response == "none" or RANGED_WEAPONS[weapon.strip()].skill in FIREARM_SKILLS:
        return False, False
    return True, response != "large_shield"


def ranged_hit_odds(weapon: str, distance: float, attack_skill: int, defense_skill: int,
                    response: str = "none") -> dict[str, Fraction]:
    """One shot as an opposed check: range decides the attacker's difficulty (hard up to twice
    the range, out of reach beyond), :func:`ranged_defence` the defender's.

    >>> hit_chance(ranged_hit_odds("권총", 60, 50, 60, "dodge"))   # a bullet: no defence roll
    Fraction(1, 4)
    """
    band = range_difficulty(distance, weapon)
    if band == "out_of_range":
        raise RuleInputError(f"{distance} m is beyond twice the range of {weapon}",
                             f"{weapon}의 사정거리의 두 배({2 * RANGED_WEAPONS[weapon].range_m}m)보다 멀어 "
                             "닿지 않습니다.")
    allowed, hard = ranged_defence(weapon, response)
    return opposed_odds(attack_skill, defense_skill if allowed else None,
                        attack_hard=band == "hard", defense_hard=hard)


def hp_loss_per_attack(weapon: str, attack_skill: int, dodge_skill: int, armor: str,
                       db: "Dist | str | None" = "0") -> Dist:
    """HP one melee attack takes from a target who dodges in ``armor``: the armour's penalty
    lowers the dodge, its 방어 점수 lowers the damage. 0 when the attack misses or is dodged;
    a special hit does the weapon's maximum (DB rolled).

    >>> loss = hp_loss_per_attack("숏소드", 60, 60, "평상복")
    >>> loss.probability(0) == 1 - hit_chance(opposed_odds(60, 60))
    True
    """
    if not isinstance(armor, str) or len(armor) > limits.MAX_NAME_TEXT or armor.strip() not in ARMOR:
        raise RuleInputError(f"unknown armor {shown(armor)}",
                             f"방어구 표에 없는 방어구입니다 (입력값: {shown(armor)}).")
    odds = opposed_odds(attack_skill, dodge_skill, defense_penalty=armor)
    normal = damage_distribution(weapon, armor, db, special=False).probabilities()
    special = damage_distribution(weapon, armor, db, special=True).probabilities()
    weights: dict[int, Fraction] = {}
    for dist, p in ((normal, odds["attacker_wins"]), (special, odds["attacker_wins_special"])):
        for v, q in dist.items():
            weights[v] = weights.get(v, Fraction(0)) + p * q
    weights[0] = weights.get(0, Fraction(0)) + 1 - hit_chance(odds)
    return from_probabilities(weights)


# --- a whole duel (issue 30: widgets.fight) ---------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    """One side of a :func:`duel`.

    ``attack``: the weapon skill; ``defence``: the skill rolled to parry or dodge, after any
    penalty (the armour's penalty on a dodge is the reader's to take off), or ``None`` when the
    fighter cannot defend; ``weapon``: a name of :data:`WEAPONS` or a damage expression;
    ``db``: a DB as the damage functions take it (``"0"``, ``"+1D4"`` …); ``armor``: the
    fighter's own armour, in points or by name (it lowers the damage the fighter takes);
    ``hp``: current HP (keyword); ``max_hp``: maximum HP for the death threshold (keyword;
    default ``hp``: the fighter starts unhurt, 가정).

    >>> Fighter(60, 40, "숏소드", hp=12).max_hp
    12
    """

    attack: int
    defence: "int | None"
    weapon: str
    db: "Dist | str | None" = "0"
    armor: "str | int" = 0
    _: KW_ONLY
    hp: int
    max_hp: "int | None" = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "attack", require_int(self.attack, "attack", "공격 기능", 0, MAX_SKILL))
        if self.defence is not None:
            object.__setattr__(self, "defence",
                               require_int(self.defence, "defence", "방어 기능", 0, MAX_SKILL))
        _weapon_expr(self.weapon)
        db_dist(self.db)
        _armor_value(self.armor)
        object.__setattr__(self, "hp", require_int(self.hp, "hp", "HP", 1, MAX_DUEL_HP))
        max_hp = self.hp if self.max_hp is None else \
            require_int(self.max_hp, "max_hp", "최대 HP", self.hp, MAX_HP)
        object.__setattr__(self, "max_hp", max_hp)


#: Most HP of one side of a duel (the widget offers up to 60; the work limit decides the rest).
MAX_DUEL_HP = 200

#: Result keys of :func:`duel` (who won) and its details (who fell how).
DUEL_RESULTS = ("a", "b")
DUEL_DETAILS = {"b_at_death_threshold": "a", "a_at_death_threshold": "b"}


def _blows(attacker: Fighter, defender: Fighter, settings: CheckSettings) -> Chain:
    """The chain of ``attacker``'s attacks on ``defender`` (one attack a round). States
    ``(HP lost, hard)``; results ``down`` and ``at_death_threshold`` (the downing blow takes HP
    to the threshold or below)."""
    normal = damage_distribution(attacker.weapon, defender.armor, attacker.db).probabilities()
    special = damage_distribution(attacker.weapon, defender.armor, attacker.db,
                                  special=True).probabilities()
    threshold = death_threshold(defender.max_hp)
    odds = {hard: opposed_odds(attacker.attack, defender.defence, attack_hard=hard, settings=settings)
            for hard in (False, True)}
    flags = (False, True) if odds[False]["defender_wins_special"] else (False,)
    rows: dict = {}
    for lost in range(defender.hp):
        for hard in flags:
            row: dict = {}

            def add(target, p):
                row[target] = row.get(target, Fraction(0)) + p

            o = odds[hard]
            add((lost, False), o["both_fail"] + o["defender_wins"])
            if o["defender_wins_special"]:
                add((lost, True), o["defender_wins_special"])
            for dist, p in ((normal, o["attacker_wins"]), (special, o["attacker_wins_special"])):
                for damage, q in dist.items():
                    total = lost + damage
                    if total < defender.hp:
                        add((total, False), p * q)
                    else:
                        add("at_death_threshold" if defender.hp - total <= threshold else "down", p * q)
            rows[(lost, hard)] = row
    return Chain(rows, ("down", "at_death_threshold"))


def duel(a: Fighter, b: Fighter, first: str = "a",
         settings: CheckSettings = DEFAULT_SETTINGS) -> FightOdds:
    """Exact odds of a duel fought to the first side down, round by round.

    Each round ``first`` attacks, then the other side if still standing; the target always
    defends (``defence`` ``None``: it cannot). The hit check is :func:`opposed_odds`; a normal
    hit does the weapon's roll plus DB, a special hit the weapon's maximum plus DB rolled
    (:func:`damage_distribution`); the target's armour comes off, never below 0. A defender's
    special win makes the attacker's next attack hard (and only that one). A side at HP 0 or
    less is down and the fight ends. Results ``"a"`` (b fell) and ``"b"`` (a fell), one step a
    round; details ``"b_at_death_threshold"`` (part of ``"a"``) and ``"a_at_death_threshold"``
    (part of ``"b"``): the downing blow takes the loser to its death threshold
    (:func:`death_threshold` of ``max_hp``) or below, the GM's second question when the loser is
    a PC (4.4).

    Readings (가정): both sides only attack (no waiting, moving, fleeing or first aid); the
    attack and the defence are rolled every round with the same skills (no other penalties);
    the hard difficulty of a defender's special applies to the attacker's next attack, the next
    action the duel has; a special hit's DB is rolled (``½DB`` weapons halve it).

    >>> odds = duel(Fighter(60, 50, "숏소드", hp=10), Fighter(50, 50, "숏소드", hp=10))
    >>> odds.keys, odds.steps, odds.rest <= Fraction(1, 10**6)
    (('a', 'b'), 23, True)
    >>> [round(float(x), 4) for x in (odds.chance("a"), odds.chance("a", by=3), odds.mean_steps())]
    [0.6587, 0.294, 4.1723]
    >>> pc = Fighter(60, 50, "숏소드", db="+1D4", hp=12)        # A, a PC
    >>> odds = duel(pc, Fighter(45, 40, "그레이트 소드", armor="가죽 갑옷", hp=14), first="b")
    >>> won, fell_to_threshold = odds.chance("b"), odds.chance("a_at_death_threshold")
    >>> round(float(odds.chance("a")), 4), round(float(fell_to_threshold / won), 4)
    (0.3576, 0.3222)
    """
    require_instance(a, Fighter, "a", "A")
    require_instance(b, Fighter, "b", "B")
    first = require_choice(first, "first", "먼저 공격하는 쪽", DUEL_RESULTS)
    settings = _settings(settings)
    a_hits, b_hits = _blows(a, b, settings), _blows(b, a, settings)
    sides = {"a": (a_hits, "b_at_death_threshold"), "b": (b_hits, "a_at_death_threshold")}
    second = "b" if first == "a" else "a"
    odds = race(sides[first][0], (0, False), sides[second][0], (0, False), keys=(first, second),
                first_details={"at_death_threshold": sides[first][1]},
                second_details={"at_death_threshold": sides[second][1]})
    return FightOdds(DUEL_RESULTS, odds.ends, odds.rest, details=odds.details,
                     detail_of=odds.detail_of)
