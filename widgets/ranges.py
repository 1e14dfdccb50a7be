"""Range bands: one generic component for every system's "how far is the target?" rule.

A :class:`RangeBands` value is an ordered tuple of :class:`Band` s, each closed above (its
``upper`` distance is still inside it) and open below (just past the previous band's ``upper``);
the first band starts at 0. A distance past the last band is out of range and raises
:class:`~widgets.errors.RuleInputError`. Distances are exact (``int`` / ``Fraction``; floats go
through :func:`~widgets.errors.require_number`) so boundaries such as 120 ft never wobble.

>>> crossbow = RangeBands.increments(120, 2, 6, unit="ft")
>>> crossbow.band(121).modifier
-2
>>> RangeBands.brackets(70, 140, 210).band(70).label
'단거리'
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Mapping, Sequence

from . import limits
from .errors import RuleInputError, particle, require_int, require_items, require_number, shown

#: Largest distance (and range) accepted anywhere; bigger numbers are typos, not targets.
MAX_DISTANCE = 10**6
#: Largest number of bands one table may have (keeps ``increments`` bounded).
MAX_BANDS = limits.MAX_BANDS
#: Largest modifier (to-hit points or DICE) a band may carry.
MAX_MODIFIER = 100


@dataclass(frozen=True)
class Band:
    """One row of a range table: distances in ``(lower, upper]`` (the first band: ``[0, upper]``).

    ``modifier`` is whatever the system adds at this distance (to-hit points, DICE, …);
    ``difficulty`` names a difficulty step instead of (or besides) a number, e.g. '어려움'.
    """

    label: str
    lower: Fraction
    upper: Fraction
    modifier: int
    difficulty: str | None = None


@dataclass(frozen=True)
class RangeBands:
    """An immutable, ordered range table; build it with one of the class-method constructors.

    >>> RangeBands.half_range(24, unit='"').table()[1]['label']
    '장거리'
    """

    bands: tuple[Band, ...]
    unit: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "bands",  # a list would stay mutable; read at most MAX_BANDS + 1
                           tuple(require_items(self.bands, "bands", "사거리 구간", MAX_BANDS)))
        # Refuse tables that would leave gaps or overlaps: band() relies on the ordering.
        if not self.bands or len(self.bands) > MAX_BANDS:
            raise ValueError(f"a range table needs 1 to {MAX_BANDS} bands")
        expected_lower = Fraction(0)
        for b in self.bands:
            if b.lower != expected_lower or not b.upper > b.lower:
                raise ValueError(f"band {b.label!r} does not continue the previous band")
            expected_lower = b.upper

    # --- constructors -------------------------------------------------------------
    @classmethod
    def from_uppers(cls, rows: Sequence[tuple[str, object, int, str | None]],
                    unit: str = "") -> "RangeBands":
        """Build from ``(label, upper, modifier, difficulty)`` rows, nearest band first.

        >>> RangeBands.from_uppers([("가까움", 10, 0, None), ("멂", 30, -1, None)]).band(11).label
        '멂'
        """
        bands: list[Band] = []
        lower = Fraction(0)
        for label, upper, modifier, difficulty in require_items(rows, "rows", "사거리 구간", MAX_BANDS):
            upper_q = _positive(upper, "band upper bound", "구간 상한")
            if upper_q <= lower:
                raise RuleInputError(
                    f"band upper bounds must increase, got {upper} after {lower}",
                    f"사거리 구간의 상한은 점점 커져야 합니다 ({lower} 다음에 {upper}).",
                )
            mod = require_int(modifier, "band modifier", "구간 수정치",
                              -MAX_MODIFIER, MAX_MODIFIER)
            bands.append(Band(str(label), lower, upper_q, mod, difficulty))
            lower = upper_q
        if not 1 <= len(bands) <= MAX_BANDS:
            raise RuleInputError(f"a range table needs 1 to {MAX_BANDS} bands",
                                 f"사거리 표에는 구간이 1개에서 {MAX_BANDS}개까지 있어야 합니다.")
        return cls(tuple(bands), unit)

    @classmethod
    def increments(cls, increment: object, penalty_per_step: object, max_increments: object,
                   unit: str = "") -> "RangeBands":
        """Range increments (PF2e): no penalty within the first increment, then
        ``-penalty_per_step`` more for each further increment, up to ``max_increments``.

        ``penalty_per_step`` is the size of the penalty (2 means −2 per step).

        >>> [row["modifier"] for row in RangeBands.increments(30, 2, 6).table()]
        [0, -2, -4, -6, -8, -10]
        """
        step = _positive(increment, "range increment", "사거리 단위")
        penalty = require_int(penalty_per_step, "penalty per increment", "단위당 페널티",
                              0, MAX_MODIFIER)
        count = require_int(max_increments, "number of increments", "사거리 단위 개수",
                            1, MAX_BANDS)
        if penalty * (count - 1) > MAX_MODIFIER:
            raise RuleInputError(
                f"penalty {penalty} over {count} increments exceeds {MAX_MODIFIER}",
                f"단위당 페널티 {penalty}와 단위 {count}개를 곱한 값이 너무 큽니다.",
            )
        _check_reach(step * count)
        return cls.from_uppers(
            [(f"{k}차 사거리 단위", step * k, -penalty * (k - 1), None)
             for k in range(1, count + 1)], unit)

    @classmethod
    def brackets(cls, short: object, medium: object, long: object,
                 modifiers: Sequence[int] = (1, 0, -2), unit: str = "ft") -> "RangeBands":
        """Short / medium / long brackets (Basic Fantasy RPG: +1 / 0 / −2, nothing past long).

        >>> [row["modifier"] for row in RangeBands.brackets(50, 100, 150).table()]
        [1, 0, -2]
        """
        mods = _three(modifiers)
        return cls.from_uppers([("단거리", short, mods[0], None), ("중거리", medium, mods[1], None),
                                ("장거리", long, mods[2], None)], unit)

    @classmethod
    def multiples(cls, base_range: object, factors: Sequence[int] = (1, 2),
                  difficulties: Sequence[str] = ("보통", "어려움"),
                  unit: str = "m") -> "RangeBands":
        """Bands at whole multiples of one range (Underface: within range normal difficulty,
        up to twice the range hard, beyond that impossible). Modifiers are 0: the system
        changes the *difficulty*, not a number.

        >>> RangeBands.multiples(60).band(120).difficulty
        '어려움'
        """
        base = _positive(base_range, "range", "사정거리")
        if not isinstance(factors, (tuple, list)):
            raise RuleInputError("range multiples must be a list of whole numbers",
                                 "사정거리 배수는 정수 목록으로 주어야 합니다.")
        factors = tuple(require_int(f, "range multiple", "사정거리 배수", 1, MAX_BANDS)
                        for f in require_items(factors, "range multiples", "사정거리 배수", MAX_BANDS))
        difficulties = tuple(difficulties) if isinstance(difficulties, (tuple, list)) \
            and len(difficulties) == len(factors) else ()
        if len(factors) != len(difficulties) or not all(isinstance(d, str) for d in difficulties):
            raise RuleInputError("give one difficulty per range multiple",
                                 "사정거리 배수마다 난이도를 하나씩 주어야 합니다.")
        _check_reach(base * max(factors, default=1))
        labels = ["사정거리 안" if f == 1 else f"사정거리 {f}배까지" for f in factors]
        return cls.from_uppers([(label, base * f, 0, str(d))
                                for label, f, d in zip(labels, factors, difficulties)], unit)

    @classmethod
    def half_range(cls, weapon_range: object, long_modifier: int = -1,
                   unit: str = '"') -> "RangeBands":
        """Half-range split (Trench Crusade): up to half the weapon's range normal, beyond
        half "long range" with ``long_modifier`` (−1 DICE), beyond the full range out of range.
        Half a range stays exact (a 9" weapon is long range past 4.5").

        >>> RangeBands.half_range(24).band(13).modifier
        -1
        """
        full = _positive(weapon_range, "weapon range", "무기 사거리")
        return cls.from_uppers([("단거리", full / 2, 0, None),
                                ("장거리", full, long_modifier, None)], unit)

    # --- reading ------------------------------------------------------------------
    @property
    def max_range(self) -> Fraction:
        """The farthest distance still in range."""
        return self.bands[-1].upper

    def band(self, distance: object) -> Band:
        """The band holding ``distance``; past the last band raises :class:`RuleInputError`.

        >>> RangeBands.brackets(10, 20, 30).band(30).modifier
        -2
        """
        d = require_number(distance, "distance", "거리", 0, MAX_DISTANCE)
        for b in self.bands:
            if d <= b.upper:
                return b
        raise RuleInputError(
            f"target is out of range: {_fmt(d)}{self.unit} is beyond the maximum "
            f"{_fmt(self.max_range)}{self.unit}",
            f"사거리 밖입니다: 거리 {_topic(_fmt(d), self.unit)} 최대 사거리 "
            f"{_fmt(self.max_range)}{self.unit}보다 멉니다.",
        )

    def in_range(self, distance: object) -> bool:
        """``True`` if ``distance`` falls in some band (bad input still raises).

        >>> RangeBands.multiples(20).in_range(41)
        False
        """
        d = require_number(distance, "distance", "거리", 0, MAX_DISTANCE)
        return d <= self.max_range

    def table(self) -> list[dict[str, object]]:
        """Rows for the book's tables: label, from (exclusive, 0 inclusive), to, modifier,
        difficulty and unit.

        >>> RangeBands.brackets(10, 20, 30).table()[0]
        {'label': '단거리', 'from': 0, 'to': 10, 'modifier': 1, 'difficulty': None, 'unit': 'ft'}
        """
        return [{"label": b.label, "from": _plain(b.lower), "to": _plain(b.upper),
                 "modifier": b.modifier, "difficulty": b.difficulty, "unit": self.unit}
                for b in self.bands]


def _positive(value: object, name: str, name_ko: str) -> Fraction:
    number = require_number(value, name, name_ko, 0, MAX_DISTANCE)
    if number == 0:
        raise RuleInputError(f"{name} must be greater than 0",
                             f"{particle(name_ko, '은/는')} 0보다 커야 합니다.")
    return number


def _topic(number: str, unit: str) -> str:
    """``number`` + ``unit`` with 은/는: the units here are read 피트, 미터, 인치 (a vowel), so
    only a bare number picks its particle from its last digit."""
    return number + unit + "는" if unit else particle(number, "은/는")


def _check_reach(farthest: Fraction) -> None:
    if farthest > MAX_DISTANCE:
        raise RuleInputError(f"the table would reach {_fmt(farthest)}, beyond {MAX_DISTANCE}",
                             f"사거리 표가 {particle(MAX_DISTANCE, '을/를')} 넘습니다 ({_fmt(farthest)}).")


def _three(modifiers: Sequence[int]) -> tuple[int, int, int]:
    mods = tuple(modifiers) if isinstance(modifiers, (tuple, list)) and len(modifiers) == 3 else ()
    if len(mods) != 3:
        raise RuleInputError("give exactly three modifiers (short, medium, long)",
                             "수정치는 단거리·중거리·장거리 세 개를 주어야 합니다.")
    return mods  # type: ignore[return-value]  # each is checked in from_uppers


def _plain(q: Fraction) -> int | Fraction:
    """Whole numbers as ``int`` so tables read '120', not 'Fraction(120, 1)'."""
    return int(q) if q.denominator == 1 else q


def _fmt(q: Fraction) -> str:
    return str(_plain(q)) if q.denominator == 1 else f"{float(q):g}"


#: Basic Fantasy RPG missile ranges in feet (short, medium, long), from the core rules
#: (supplementary rule, see rules-notes): +1 / 0 / −2, no attack beyond long range.
BFRPG_MISSILE_RANGES: Mapping[str, tuple[int, int, int]] = MappingProxyType({
    "장궁 (longbow)": (70, 140, 210),
    "단궁 (shortbow)": (50, 100, 150),
    "중쇠뇌 (heavy crossbow)": (80, 160, 240),
    "경쇠뇌 (light crossbow)": (60, 120, 180),
    "투석구 (sling)": (30, 60, 90),
    "단검 (dagger)": (10, 20, 30),
    "손도끼 (hand axe)": (10, 20, 30),
    "창 (spear)": (10, 20, 30),
    "전쟁망치 (warhammer)": (10, 20, 30),
    "기름 (oil)": (10, 30, 50),
    "성수 (holy water)": (10, 30, 50),
})


def bfrpg_missile_bands(weapon: str) -> RangeBands:
    """The BFRPG range table of one weapon in :data:`BFRPG_MISSILE_RANGES`.

    >>> bfrpg_missile_bands("장궁 (longbow)").band(140).label
    '중거리'
    """
    if not isinstance(weapon, str) or weapon not in BFRPG_MISSILE_RANGES:
        raise RuleInputError(f"unknown missile weapon {shown(weapon)}",
                             f"사거리 표에 없는 무기입니다 (입력값: {shown(weapon)}).")
    return RangeBands.brackets(*BFRPG_MISSILE_RANGES[weapon], unit="ft")
