"""The dice bots' commands other than a plain roll: counting, rerolling and upper dice, D66, Call of
Cthulhu (7th and 6th edition), choice, repeat and calculation (see :mod:`widgets.notation`, whose
reader builds them).

:func:`widgets.notation.parse` imports this module at the first such command it reads, so a plain
sum or a damage expression (every rules module's import) never pays for it; its names are also
reachable as ``notation.CountRoll`` and so on.

>>> type(parse("5B6>=4")) is CountRoll, parse("CC<=50").level(1)
(True, 'critical')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Iterable

from . import dice as _dice
from . import limits
from .dice import Dist, OpenDist
from .errors import RuleInputError, require_int
from .notation import (Command, Comparison, Sum, _check_dice_count, _Command, _Faces, _odds_of, _Reader,
                       _replayed, parse)   # parse: the examples below read their commands with it

@dataclass(frozen=True)
class CountRoll(_Command):
    """BCDice's バラバラダイス ``5B6>=4`` (``kind`` "B": the number of dice meeting the target)
    and 集計ダイス ``8TY6`` (``kind`` "TY"/"TZ"): ``groups`` of ``(count, sides)``.

    >>> r = parse("3B6>=5")
    >>> r.dist().probability(3), r.faces()[6].probability(0)
    (Fraction(1, 27), Fraction(125, 216))
    """

    kind: str
    groups: tuple[tuple[int, int], ...]
    comparison: Comparison | None = None
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        if self.kind != "B":
            count, sides = self.groups[0]
            return f"{'S' if self.secret else ''}{count}T{self.kind[1]}{sides}"
        dice = "+".join(f"{n}B{s}" for n, s in self.groups)
        return f"{'S' if self.secret else ''}{dice}{self.comparison or ''}"

    def dist(self) -> Dist:
        """The number of dice meeting the target (a sum of binomials)."""
        if self.comparison is None:
            raise RuleInputError(f"{self} has no target: each face's count is faces()",
                                 f"'{self}'에는 목표치가 없습니다: 눈마다 나온 개수를 봅니다.")
        total = Dist.constant(0)
        for count, sides in self.groups:
            hits = len(self.comparison.faces(sides))
            total = total + _binomial(count, hits, sides)
        return total

    def faces(self) -> dict[int, Dist]:
        """For each face, the number of dice showing it."""
        top = max(s for _, s in self.groups)
        out = {}
        for face in range(1, top + 1):
            total = Dist.constant(0)
            for count, sides in self.groups:
                if face <= sides:
                    total = total + _binomial(count, 1, sides)
            out[face] = total
        return out

    def has_odds(self) -> bool:
        return False

    def replay(self, faces: Iterable[int]) -> "int | tuple[int, ...]":
        """The success count BCDice shows for these dice (or, without a target, the dice).

        >>> parse("2b6+4b10>3").replay([3, 4, 9, 7, 1, 5]), parse("3B6").replay([5, 2, 4])
        (4, (5, 2, 4))
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        values = tuple(rolls.take(s) for n, s in self.groups for _ in range(n))
        if self.kind == "B" and self.comparison is not None:
            return sum(self.comparison.holds(v) for v in values)
        return values


@dataclass(frozen=True)
class RerollRoll(_Command):
    """BCDice's 個数振り足しダイス ``2R6[>3]>=5``: each die meeting ``again`` adds a die, until none
    does; the number of all rolled dice meeting ``comparison`` (without one, the number of
    dice rolled).

    >>> r = parse("2R6[6]>=6")
    >>> r.dist().probability(0), str(r)
    (Fraction(25, 36), '2R6[6]>=6')
    """

    groups: tuple[tuple[int, int], ...]
    again: Comparison
    comparison: Comparison | None = None
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        dice = "+".join(f"{n}R{s}" for n, s in self.groups)
        same = self.comparison is not None and self.again.operator == self.comparison.operator
        again = str(self.again.target) if same else str(self.again)
        return f"{'S' if self.secret else ''}{dice}[{again}]{self.comparison or ''}"

    def dist(self) -> OpenDist:
        """The number of successes (or of dice rolled): exact, with the rest as one number."""
        return _reroll_dist(self)

    def replay(self, faces: Iterable[int]) -> int:
        """BCDice's 成功数 for these dice, read in its order (every group, then the added dice).

        >>> parse("2R4+2R6[<>4]>=4").replay([4, 2, 3, 5, 4, 4, 4])
        5
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        queue = list(self.groups)
        values: list[int] = []
        while queue:
            count, sides = queue.pop(0)
            group = [rolls.take(sides) for _ in range(count)]
            values += group
            again = sum(self.again.holds(v) for v in group)
            if again:
                queue.append((again, sides))
        if self.comparison is None:
            return 0       # BCDice: without a target, 成功数0 (dist() counts the dice instead)
        return sum(self.comparison.holds(v) for v in values)


@dataclass(frozen=True)
class UpperRoll(_Command):
    """BCDice's 上方無限ロール ``2U6[4]+2>=10``: each die rolls again and adds while it shows
    ``threshold`` or more; with a ``comparison``, the number of dice whose sum (plus the
    ``modifier``) meets it; without, the highest and the total (the modifier added once).

    >>> r = parse("1U6[6]>=7")
    >>> r.dist().probability(1), parse("2U6[6]").dist().probability(2)
    (Fraction(1, 6), Fraction(1, 36))
    """

    groups: tuple[tuple[int, int], ...]
    threshold: int
    modifier: int = 0
    comparison: Comparison | None = None
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        dice = "+".join(f"{n}U{s}" for n, s in self.groups)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{'S' if self.secret else ''}{dice}[{self.threshold}]{mod}{self.comparison or ''}"

    def dist(self) -> "Dist | OpenDist":
        """With a target, the number of dice groups meeting it (exact); without, the total."""
        return _upper_dist(self)

    def highest(self) -> OpenDist:
        """The highest die group (its sum plus the modifier), as BCDice shows without a target."""
        return _upper_highest(self)

    def replay(self, faces: Iterable[int]) -> "int | tuple[int, int]":
        """BCDice's 成功数, or (最大, 合計) without a target.

        >>> parse("2U4+1U6[4]>=6").replay([4, 1, 4, 4, 4, 3, 3]), parse("2U4[4]+10").replay([3, 4, 4, 2])
        (1, (20, 23))
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        sums = []
        for count, sides in self.groups:
            for _ in range(count):
                total = 0
                while True:
                    v = rolls.take(sides)
                    total += v
                    if v < self.threshold:
                        break
                sums.append(total)
        if self.comparison is None:
            return max(s + self.modifier for s in sums), sum(sums) + self.modifier
        return sum(self.comparison.holds(s + self.modifier) for s in sums)


@dataclass(frozen=True)
class D66Roll(_Command):
    """BCDice's D66 command: two D6 read as tens and units, sorted ascending (``A``, ``S``) or
    descending (``D``), or not (``N``, and the generic dice bot's default).

    >>> parse("D66A").dist().probability(16), len(parse("D66").dist().outcomes())
    (Fraction(1, 18), 36)
    """

    order: str = ""
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{'S' if self.secret else ''}D66{self.order}"

    def dist(self) -> Dist:
        return _d66(self.order)

    def replay(self, faces: Iterable[int]) -> int:
        """The D66 BCDice shows for these two D6.

        >>> parse("D66D").replay([2, 5])
        52
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        a, b = rolls.take(6), rolls.take(6)
        if self.order in ("A", "S"):
            a, b = min(a, b), max(a, b)
        elif self.order == "D":
            a, b = max(a, b), min(a, b)
        return 10 * a + b


#: Success levels of BCDice's Cthulhu7th (``ResultLevel``), best first.
CTHULHU_LEVELS = ("critical", "extreme", "hard", "regular", "success", "failure", "fumble")
#: Success levels of BCDice's Cthulhu (6th edition, ``CompareResult``), best first.
CTHULHU6_LEVELS = ("critical_special", "critical", "special", "success", "failure", "fumble",
                   "broken", "fumble_broken")


class _LevelledRoll(_Command):
    """A D100 read in success levels (``_LEVELS``, best first; ``_SUCCESSES`` count as success)."""

    _LEVELS: tuple[str, ...] = ()
    _SUCCESSES: frozenset = frozenset()

    def levels(self) -> dict[str, Fraction]:
        """Exact chance of each level that can happen (summing to 1)."""
        out: dict[str, Fraction] = {}
        for total, p in self.dist().probabilities().items():
            key = self.level(total)
            out[key] = out.get(key, Fraction(0)) + p
        return {k: out[k] for k in self._LEVELS if k in out}

    def has_odds(self) -> bool:
        return self.target is not None

    def odds(self) -> dict[str, Fraction]:
        """Success (the levels BCDice counts as success) against failure (the rest)."""
        if self.target is None:
            return super().odds()
        success = sum((p for k, p in self.levels().items() if k in self._SUCCESSES), Fraction(0))
        return {"success": success, "failure": 1 - success}


@dataclass(frozen=True)
class CthulhuRoll(_LevelledRoll):
    """BCDice's Cthulhu7th ``CC(bonus)<=target`` (a ``difficulty`` letter R/H/E/C after the
    target asks only success or failure at that level): D100 with bonus (+) or penalty (−)
    dice, read as ``ResultLevel`` does:

    - 01 is a critical; with a target below 50, 96–100 fumble, otherwise only 100;
    - extreme success at a fifth of the target or less, hard at a half (rounded down), regular
      at the target or less, else failure.

    >>> levels = parse("CC<=50").levels()
    >>> levels["critical"], levels["extreme"], levels["fumble"]
    (Fraction(1, 100), Fraction(9, 100), Fraction(1, 100))
    >>> parse("CC(1)<=50").dist().probability(1)    # two tens dice, one units die: the lower
    Fraction(19, 1000)
    """

    _LEVELS = CTHULHU_LEVELS
    _SUCCESSES = frozenset(CTHULHU_LEVELS) - {"failure", "fumble"}
    bonus: int = 0
    target: int | None = None
    difficulty: str = ""
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        bonus = f"({self.bonus})" if self.bonus else ""
        target = "" if self.target is None else f"<={self.target}{self.difficulty}"
        return f"{'S' if self.secret else ''}CC{bonus}{target}"

    @property
    def goal(self) -> int | None:
        """The number the roll is compared with (the target halved for H, a fifth for E, 0 for C)."""
        if self.target is None:
            return None
        return {"": self.target, "R": self.target, "H": self.target // 2, "E": self.target // 5,
                "C": 0}[self.difficulty]

    def dist(self) -> Dist:
        """The D100 result after bonus or penalty dice (1 … 100)."""
        return _cthulhu_d100(self.bonus)

    def level(self, total: int) -> str:
        """The level BCDice gives a total (``ResultLevel.from_values`` / ``with_difficulty_level``).

        >>> [parse("CC<=40").level(t) for t in (1, 8, 20, 40, 41, 96)]
        ['critical', 'extreme', 'hard', 'regular', 'failure', 'fumble']
        """
        total = require_int(total, "total", "굴린 값", 1, 100)
        goal = self.goal
        if goal is None:
            raise RuleInputError("CC without a target has no level", "목표치 없는 CC에는 성공 단계가 없습니다.")
        fumble = 96 if goal < 50 else 100
        if total == 1:
            return "critical"
        if total >= fumble:
            return "fumble"
        if self.difficulty:
            return "success" if total <= goal else "failure"
        if total <= goal // 5:
            return "extreme"
        if total <= goal // 2:
            return "hard"
        return "regular" if total <= goal else "failure"

    def replay(self, faces: Iterable[int]) -> "int | tuple[int, str]":
        """The result BCDice shows for these D10s (the tens dice first, then the units die).

        >>> parse("CC(-1)<=93").replay([9, 7, 2])
        (92, 'regular')
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        if self.bonus == 0 and self.target is None:
            return rolls.take(100)                      # BCDice rolls a plain D100 then
        tens = [rolls.take(10) % 10 * 10 for _ in range(abs(self.bonus) + 1)]
        ones = rolls.take(10) % 10
        values = [t + ones or 100 for t in tens]
        total = min(values) if self.bonus >= 0 else max(values)
        return total if self.target is None else (total, self.level(total))


@dataclass(frozen=True)
class CthulhuClassicRoll(_LevelledRoll):
    """BCDice's Cthulhu (6th edition) ``CCB<=target`` (its 5% rule; ``broken`` is its 故障ナンバー):
    success at the target or less unless 100; a critical at 5 or less, a special at a fifth of
    the target or less (at least 1); a failure of 96 or more is a fumble; with a broken number,
    a result at it or above is 故障 instead of a success.

    >>> levels = parse("CCB<=50").levels()
    >>> levels["critical_special"], levels["special"], levels["fumble"]
    (Fraction(1, 20), Fraction(1, 20), Fraction(1, 20))
    """

    _LEVELS = CTHULHU6_LEVELS
    _SUCCESSES = frozenset(CTHULHU6_LEVELS[:4])      # critical/special, critical, special, success
    broken: int = 0
    target: int | None = None
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        broken = str(self.broken) if self.broken else ""
        target = "" if self.target is None else f"<={self.target}"
        return f"{'S' if self.secret else ''}CCB{broken}{target}"

    def dist(self) -> Dist:
        return _dice.die(100)

    def level(self, total: int) -> str:
        """``Cthulhu#compare`` with the 5% rule (critical 5, fumble 96, special 20%).

        >>> [parse("CCB<=50").level(t) for t in (3, 7, 30, 51, 97)]
        ['critical_special', 'special', 'success', 'failure', 'fumble']
        """
        total = require_int(total, "total", "굴린 값", 1, 100)
        target = self.target
        if target is None:
            raise RuleInputError("CCB without a target has no level", "목표치 없는 CCB에는 성공 단계가 없습니다.")
        special = min(100, max(1, target * 20 // 100))
        success = total <= target and total < 100
        critical = success and total <= 5
        is_special = success and total <= special
        fumble = not success and total >= 96
        if self.broken > 0 and total >= self.broken:
            return "fumble_broken" if fumble else "broken"
        if critical:
            return "critical_special" if is_special else "critical"
        if is_special:
            return "special"
        if success:
            return "success"
        return "fumble" if fumble else "failure"

    def replay(self, faces: Iterable[int]) -> "int | tuple[int, str]":
        """The result BCDice shows for this D100.

        >>> parse("CCB<=50").replay([4])
        (4, 'critical_special')
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        total = rolls.take(100)
        return total if self.target is None else (total, self.level(total))


@dataclass(frozen=True)
class ChoiceRoll(_Command):
    """BCDice's ``choice[A,B,C]`` (also ``choice(A,B,C)`` and ``choice A B C``): ``takes``
    different items, each item equally likely, in the order they are picked.

    >>> r = parse("choice2[공격,방어,도주]")
    >>> r.items, r.chances()["방어"], r.outcome_count()
    (('공격', '방어', '도주'), Fraction(2, 3), 6)
    """

    items: tuple[str, ...]
    takes: int = 1
    brackets: str = "[]"
    secret: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        takes = "" if self.takes == 1 else str(self.takes)
        if self.brackets == " ":
            return f"{'S' if self.secret else ''}choice{takes} {' '.join(self.items)}"
        return f"{'S' if self.secret else ''}choice{takes}{self.brackets[0]}{','.join(self.items)}{self.brackets[1]}"

    def chances(self) -> dict[str, Fraction]:
        """Each item's chance of being among those picked."""
        return {item: Fraction(self.takes, len(self.items)) for item in self.items}

    def outcome_count(self) -> int:
        """How many different results there are (ordered picks), each equally likely."""
        n, k = len(self.items), self.takes
        return comb(n, k) * _factorial(k)

    def replay(self, faces: Iterable[int]) -> tuple[str, ...]:
        """The items BCDice picks for these dice (one die of the remaining items' number each).

        >>> parse("choice[A,B,C]").replay([2])
        ('B',)
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        left = list(self.items)
        picked = []
        for _ in range(self.takes):
            picked.append(left.pop(rolls.take(len(left)) - 1))
        return tuple(picked)


def _factorial(k: int) -> int:
    out = 1
    for i in range(2, k + 1):
        out *= i
    return out


@dataclass(frozen=True)
class RepeatRoll(_Command):
    """BCDice's ``x5 2D6`` (also ``rep5``, ``repeat5``): ``command`` rolled ``times`` times.
    Where the command has a target, :meth:`dist` is how many of the rolls meet it.

    >>> r = parse("x3 2D6>=7")
    >>> r.dist().probability(3), r.command.odds()["success"] ** 3
    (Fraction(343, 1728), Fraction(343, 1728))
    """

    times: int
    command: "Command"
    keyword: str = "x"

    def __str__(self) -> str:
        return f"{self.keyword}{self.times} {self.command}"

    def dist(self) -> "Dist | OpenDist":
        if not self.command.has_odds():
            return self.command.dist()
        p = self.command.odds()["success"]
        return _binomial_fraction(self.times, p)

    def has_odds(self) -> bool:
        return False

    def replay(self, faces: Iterable[int]) -> tuple:
        """Each roll's result in turn (each takes the faces it needs, in order).

        >>> parse("x2 1D6").replay([3, 5])
        (3, 5)
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        return tuple(self.command._run(rolls) for _ in range(self.times))


@dataclass(frozen=True)
class CalcRoll(_Command):
    """BCDice's calculation ``C(10-4*3/2+2)``: no dice, one number.

    >>> parse("C(10-4*3/2+2)").value
    6
    """

    expression: Sum
    value: int
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{'S' if self.secret else ''}C({self.expression})"

    def dist(self) -> Dist:
        return Dist.constant(self.value)

    def replay(self, faces: Iterable[int]) -> int:
        """The number BCDice shows (no dice are rolled).

        >>> parse("C(7/2)").replay([])
        3
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        return self.value

# --- counting dice -----------------------------------------------------------------------------------
def _binomial(count: int, hits: int, sides: int) -> Dist:
    """How many of ``count`` dice show one of ``hits`` faces out of ``sides``."""
    if hits == 0:
        return Dist.constant(0)
    if hits == sides:
        return Dist.constant(count)
    misses = sides - hits
    up, down = [1], [1]                  # hits^k and misses^k, one multiplication each
    for _ in range(count):
        up.append(up[-1] * hits)
        down.append(down[-1] * misses)
    return Dist._dense(0, [comb(count, k) * up[k] * down[count - k] for k in range(count + 1)])


def _binomial_fraction(count: int, p: Fraction) -> Dist:
    return _binomial(count, p.numerator, p.denominator)


def _pool_sum(specs: list[tuple], offset: int = 0) -> "Dist | OpenDist":
    """The sum of several groups of chains (each ``(P, m, K, n)``), shown until the rest is tiny."""
    share = limits.OPEN_REST / (2 * len(specs))
    reaches = [_dice.series_reach(*spec, share) for spec in specs]
    lows = [spec[0][0][0] * spec[3] for spec in specs]
    need = 1 + sum(r - 1 for r in reaches)
    for _ in range(4):
        total = None
        for spec, low in zip(specs, lows):
            part = _dice.open_series(*spec, below=need - (sum(lows) - low))
            total = part if total is None else total + part
        trimmed = total.trimmed(limits.OPEN_REST) + offset
        if trimmed.rest_probability() <= limits.OPEN_REST:
            closed = trimmed.closed()
            return closed if closed is not None and trimmed.rest == 0 else trimmed
        need += max(16, need // 2)
    raise RuleInputError("the roll goes on too long to show", "굴림이 너무 길게 이어져 보여 줄 수 없습니다.")


def _reroll_specs(roll: RerollRoll) -> list[tuple]:
    specs = []
    for count, sides in roll.groups:
        again = roll.again.faces(sides)
        counted = roll.comparison.faces(sides) if roll.comparison is not None else \
            frozenset(range(1, sides + 1))
        P, m, K = _dice.chain_series(sides, again, counted)
        specs.append((P, m, K, count))
    return specs


def _check_reroll(roll: RerollRoll, reader: _Reader) -> None:
    specs = _reroll_specs(roll)
    dice_specs = [(((1, s - len(roll.again.faces(s))),), s,
                   ((1, len(roll.again.faces(s))),) if roll.again.faces(s) else (), n)
                  for n, s in roll.groups]
    _check_dice_count(dice_specs, 0)
    share = limits.OPEN_REST / (2 * len(specs))
    need = 1 + sum(_dice.series_reach(*spec, share) - 1 for spec in specs)
    for spec in specs:
        limits.check_open(need, *_dice.series_work(*spec, need))
    del reader


@lru_cache(maxsize=64)
def _reroll_dist(roll: RerollRoll) -> "Dist | OpenDist":
    return _pool_sum(_reroll_specs(roll))


def _upper_specs(roll: UpperRoll) -> list[tuple]:
    specs = []
    for count, sides in roll.groups:
        faces = frozenset(range(roll.threshold, sides + 1))
        if faces:
            P, m, K = _dice.explode_series(sides, faces)
        else:
            P, m, K = tuple((v, 1) for v in range(1, sides + 1)), sides, ()
        specs.append((P, m, K, count))
    return specs


def _check_upper(roll: UpperRoll, reader: _Reader) -> None:
    specs = _upper_specs(roll)
    dice_specs = []
    for (P, m, K, n), (_, sides) in zip(specs, roll.groups):
        e = max(0, sides - roll.threshold + 1)
        dice_specs.append((((1, sides - e),), sides, ((1, e),) if e else (), n))
    _check_dice_count(dice_specs, 0)
    share = limits.OPEN_REST / (2 * sum(n for *_, n in specs))
    for P, m, K, n in specs:
        reach = _dice.series_reach(P, m, K, 1, share)
        if roll.comparison is not None:
            reach = max(reach, roll.comparison.target - roll.modifier + 1)
        limits.check_open(reach, *_dice.series_work(P, m, K, 1, reach))
        if roll.comparison is None:
            total = 1 + sum(_dice.series_reach(*s, share) - 1 for s in specs)
            limits.check_open(total, *_dice.series_work(P, m, K, n, total))
    if roll.comparison is None:                  # the highest: P(max ≤ v) for every v below the cut
        cut = max(_dice.series_reach(P, m, K, 1, share) for P, m, K, _ in specs)
        weight_bits = sum(n * (1 + _dice._series_shape(P, m, K, 1, cut)[2]) * m.bit_length()
                          for P, m, K, n in specs)
        limits.check_open(cut, cut * weight_bits, 0)
    del reader


@lru_cache(maxsize=64)
def _upper_dist(roll: UpperRoll) -> "Dist | OpenDist":
    specs = _upper_specs(roll)
    if roll.comparison is None:
        return _pool_sum(specs, roll.modifier)
    total = Dist.constant(0)
    for P, m, K, n in specs:
        one = _dice.open_series(P, m, K, 1, below=max(roll.comparison.target - roll.modifier + 1,
                                                      P[0][0] + 1))
        p = _odds_of(one + roll.modifier, roll.comparison)["success"]
        total = total + _binomial_fraction(n, p)
    return total


@lru_cache(maxsize=64)
def _upper_highest(roll: UpperRoll) -> OpenDist:
    """The highest group: P(max ≤ v) is the product of the groups' P(V ≤ v)."""
    specs = _upper_specs(roll)
    dice = sum(n for *_, n in specs)
    share = limits.OPEN_REST / (2 * dice)
    cut = max(_dice.series_reach(P, m, K, 1, share) for P, m, K, _ in specs)
    ones = [(_dice.open_series(P, m, K, 1, below=cut), n) for P, m, K, n in specs]
    total = 1
    for one, n in ones:
        total *= one.total ** n
    cdfs = []                                   # each group's P(V ≤ v) for v < cut, as weights
    for one, n in ones:
        running, cdf = 0, []
        for v in range(cut):
            running += one._weights.get(v, 0)
            cdf.append(running)
        cdfs.append((cdf, n))
    weights, previous = {}, 0
    for v in range(1, cut):
        below = 1
        for cdf, n in cdfs:
            below *= cdf[v] ** n
        if below != previous:
            weights[v + roll.modifier] = below - previous
        previous = below
    return OpenDist._trusted(weights, total, cut + roll.modifier).trimmed(limits.OPEN_REST)


# --- D66 and D100 -----------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _d66(order: str) -> Dist:
    out: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            x, y = (min(a, b), max(a, b)) if order in ("A", "S") else \
                (max(a, b), min(a, b)) if order == "D" else (a, b)
            out[10 * x + y] = out.get(10 * x + y, 0) + 1
    return Dist(out)


@lru_cache(maxsize=64)
def _cthulhu_d100(bonus: int) -> Dist:
    """D100 read from ``|bonus| + 1`` tens dice and one units die (BCDice's ``roll_with_bonus``:
    00 with 0 is 100; the lowest result with bonus dice, the highest with penalty dice)."""
    n = abs(bonus) + 1
    out: dict[int, int] = {}
    for ones in range(10):
        values = sorted(10 * t + ones or 100 for t in range(10))
        if bonus < 0:
            values.reverse()
        for rank, value in enumerate(values):      # the best of n tens dice has this rank
            out[value] = out.get(value, 0) + (10 - rank) ** n - (9 - rank) ** n
    return Dist(out)
