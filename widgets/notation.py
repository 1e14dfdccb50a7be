"""Dice-bot notation: exact odds of the commands a table types into BCDice, Roll20 or Foundry.

Korean tables roll with dice bots (BCDice on ccfolia and Discord) and virtual tabletops (Roll20,
Foundry) whose notation the players already type. This module reads that notation with one small
hand-written reader (never ``eval``) and answers with exact distributions built on
:mod:`widgets.dice`. The same reader reads the damage expressions of :mod:`widgets.damage` (this
notation plus the DB terms).

What BCDice does is taken from its guide (https://docs.bcdice.org/command, the 汎用コマンド pages)
and its source (https://github.com/bcdice/BCDice, ``lib/bcdice/common_command/*``,
``lib/bcdice/arithmetic/node.rb``, ``lib/bcdice/game_system/Cthulhu7th.rb`` and ``Cthulhu.rb``;
commit 98145305), and checked against BCDice's own test data (``test/data/None.toml`` and others,
in ``tests/data/bcdice_vectors.json``). Roll20's and Foundry's forms follow their dice references
(https://wiki.roll20.net/Dice_Reference, https://foundryvtt.com/article/dice-modifiers/).

Commands (upper or lower case; the text is NFKC-normalised, so full-width ``１ｄ６＋３`` reads as
``1D6+3``; ``−`` and dashes are minus, ``≥``/``≤`` compare; spaces are ignored, except that text
after a space that cannot continue the command is a comment, as BCDice ignores it)::

    command  = ["S"] (roll | pool | "D66"[A|S|D|N] | "CC"[bonus]["<=" n [R|H|E|C]] | "CCB"[n]["<=" n]
               | "C" arithmetic | choice | repeat) [" " comment]
    roll     = sum [compare (arithmetic | "?")]                          BCDice's 加算ダイス
    sum      = mul {("+" | "-") mul};   mul = unary {"*" unary | "/" unary [F|C|U|R] | "÷" n}
    unary    = {"+" | "-"} (dice | number | "(" sum ")")
    dice     = [count] "D" [sides] [KH n | KL n | DH n | DL n | K n | MAX | MIN | modifier]
               count, sides = number | "(" arithmetic ")";  sides % = 100, F = Fate, 66 = D66
    modifier = "!" | "!!" | "!P" | "X" | "XO" | "R" | "RO" | "RR" (with a condition), "CS" condition
    pool     = n "B" s {"+" n "B" s} [compare t]          n "T" ("Y"|"Z") s
               n "R" s {"+" n "R" s} ["[" [compare] t "]"] [compare t] ["@" [compare] t]
               n "U" s {"+" n "U" s} ["[" t "]"] [("+"|"-") arithmetic] [compare t] ["@" t]
    choice   = "CHOICE" [n] ("[" items "]" | "(" items ")" | " " items)
    repeat   = ("X" | "REP" | "REPEAT") n " " command
    compare  = ">=" | ">" | "<=" | "<" | "=" | "==" | "!=" | "<>" (and BCDice's other spellings)

- ``/`` rounds as BCDice's generic dice bot does: down (``3/2`` = 1, ``-3/2`` = −2); ``/2F``
  rounds down, ``/2C`` and ``/2U`` up, ``/2R`` to the nearest (halves away from zero); a
  division by zero gives 1, as in BCDice. The book's own ``÷`` rounds the size up and applies the
  sign afterwards (:func:`divide_up`), as the sources round.
- Keeping and dropping follow BCDice: ``KH0`` keeps nothing (0), ``5D6KH7`` keeps all five.
- ``xD66`` adds x D66 rolls (tens die and units die, not sorted); the command ``D66`` alone
  sorts them with ``A``/``S`` (ascending) or ``D`` (descending).
- A comparison compares the **total** (BCDice's 加算ダイス); Roll20's ``8d6>4``, which counts
  dice, is written ``8d6cs>4`` (Foundry) or ``8B6>4`` (BCDice).
- Roll20's and Foundry's modifiers: ``!`` explodes on the highest face (``!>4`` on 4 or more,
  ``!3`` on 3, Roll20's inclusive ``>``/``<``), ``!!`` compounds (the same total), ``!p``
  penetrates (each extra roll one less); Foundry's ``x``/``xo`` explode again and again / once
  (``x>=5``, ``x>5`` strict); ``r``/``rr`` reroll until the condition fails, ``ro`` once
  (Foundry's own ``r`` rerolls once: write ``ro``); ``cs`` counts the dice meeting its condition.
- A roll that can go on without end is shown outcome by outcome until the rest is at most
  :data:`~widgets.limits.OPEN_REST`, and the rest is one exact number (:class:`~widgets.dice.OpenDist`).

Not supported, and refused with a Korean message that names what was typed: game-system
commands other than CC and CCB (CBR, RES, FAR, K20…), Foundry's and Roll20's other modifiers
(min/max faces, sorting, failures ``cf``/``f``, labels ``[…]``, attributes ``@{…}``, ``#``
comments, several rolls at once), powers, decimals, combining an explosion with keeping or
another modifier, and exploding dice anywhere but in additions and multiplications or
divisions by a positive number.

Every expression is checked against :mod:`widgets.limits` before anything is computed, so an
accepted one answers at once and a refused one at once.

>>> roll_odds("1D100<=45")
{'success': Fraction(9, 20), 'failure': Fraction(11, 20)}
>>> str(parse("4d6dl1")), distribution("4D6KH3").probability(18)
('4D6KH3', Fraction(7, 432))
>>> distribution("1D6/2").probabilities()        # BCDice rounds down
{0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 6)}
>>> parse("2+x")
Traceback (most recent call last):
...
widgets.errors.RuleInputError: cannot read dice expression '2+x': unexpected 'X' at position 3
>>> try:
...     parse("2+x")
... except ValueError as err:
...     print(err.korean)
'2+x'를 주사위 식으로 읽을 수 없습니다: 3번째 글자 'x'가 올 자리가 아닙니다 (주사위(예: 2D6)나 수가 와야 합니다)
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import islice
from math import comb
from typing import Iterable, Iterator, Literal, Mapping, NamedTuple, Union

from . import dice as _dice
from . import limits
from .dice import (Dist, OpenDist, dense_sum_bits, dice_groups_sum, groups_product_bits, keep_highest,
                   keep_lowest)
from .errors import (RuleInputError, particle, require_choice, require_int, require_items, round_up,
                     shown)


# --- the roundings of a divided roll ---------------------------------------------------------
def divide_up(value: int, divisor: int) -> int:
    """The book's ``÷``: a rolled result divided by ``divisor``, rounded up, with its sign applied
    afterwards.

    The text halves the *dice result* (a count, never negative) with the library's one rounding
    rule (:func:`~widgets.errors.round_up`), then the sign applies: half of a −1D4 roll of 3 is
    −2, exactly as half of a +1D4 roll of 3 is +2 (the book's reading, 가정: the source only
    says "rounded up", which for −3/2 alone would give −1).

    >>> [divide_up(v, 2) for v in (1, 2, 3, 6, -3)]
    [1, 1, 2, 3, -2]
    """
    value = require_int(value, "value", "값", -10**9, 10**9)
    divisor = require_int(divisor, "divisor", "나누는 수", 1, limits.MAX_DIVISOR)
    magnitude = round_up(abs(value), divisor)
    return magnitude if value >= 0 else -magnitude


Rounding = Literal["", "F", "C", "U", "R"]

#: BCDice's roundings of ``/``: the letter after the divisor → (English, Korean). A plain ``/``
#: follows the game system; BCDice's generic dice bot (and Cthulhu7th) rounds down.
ROUNDINGS: dict[str, tuple[str, str]] = {
    "": ("down (BCDice's default)", "버림 (BCDice 기본)"), "F": ("down", "버림"),
    "C": ("up", "올림"), "U": ("up", "올림"), "R": ("to the nearest", "반올림"),
}


def bcdice_divide(value: int, divisor: int, rounding: str = "") -> int:
    """BCDice's integer division: ``/`` and ``/F`` round down (towards −∞), ``/C`` and ``/U``
    up (towards +∞), ``/R`` to the nearest with halves away from zero (Ruby's ``Float#round``);
    dividing by zero gives 1 (``DivideBase#calc``).

    >>> [bcdice_divide(v, 2, r) for v, r in ((3, ""), (-3, ""), (3, "C"), (-3, "U"), (5, "R"), (-5, "R"))]
    [1, -2, 2, -1, 3, -3]
    >>> bcdice_divide(4, -3), bcdice_divide(4, -3, "U"), bcdice_divide(1, 0)
    (-2, -1, 1)
    """
    value = require_int(value, "value", "값", -10**12, 10**12)
    divisor = require_int(divisor, "divisor", "나누는 수", -10**12, 10**12)
    rounding = str(require_choice(rounding, "rounding", "반올림 방식", tuple(ROUNDINGS)))
    return _bc_div(value, divisor, rounding)


def _bc_div(a: int, b: int, rounding: str) -> int:
    if b == 0:
        return 1
    if rounding in ("C", "U"):
        return -((-a) // b)
    if rounding == "R":
        r = (2 * abs(a) + abs(b)) // (2 * abs(b))
        return r if (a < 0) == (b < 0) else -r
    return a // b


# --- the parsed expression --------------------------------------------------------------------
@dataclass(frozen=True)
class Dice:
    """``count`` dice with ``sides`` faces; with ``keep``, only the ``keep`` highest (or, with
    ``highest=False``, lowest) of them count (``keep`` 0 keeps none, as BCDice's ``KH0``).

    >>> str(Dice(4, 6, keep=3)), str(Dice(2, 20, keep=1, highest=False)), str(Dice(1, 100))
    ('4D6KH3', '2D20KL1', '1D100')
    """

    count: int
    sides: int
    keep: int | None = None
    highest: bool = True

    def __str__(self) -> str:
        kept = "" if self.keep is None else f"K{'H' if self.highest else 'L'}{self.keep}"
        return f"{self.count}D{self.sides}{kept}"


@dataclass(frozen=True)
class D66Dice:
    """``count`` D66 rolls added up, as BCDice's 加算ダイス reads ``2D66`` (each a tens die and a
    units die, 11 … 66, not sorted).

    >>> str(D66Dice(2)), parse("1D66").dist().probability(16)
    ('2D66', Fraction(1, 36))
    """

    count: int

    def __str__(self) -> str:
        return f"{self.count}D66"


@dataclass(frozen=True)
class FateDice:
    """``count`` Fate dice (Roll20's and Foundry's ``dF``): −1, 0 or +1 each.

    >>> str(FateDice(4)), parse("4dF").dist().probability(4)
    ('4DF', Fraction(1, 81))
    """

    count: int

    def __str__(self) -> str:
        return f"{self.count}DF"


#: The Roll20/Foundry modifiers of :class:`Special`: kind → (Roll20 mark, Foundry mark).
_MARKS = {"explode": ("!", "X"), "compound": ("!!", "!!"), "penetrate": ("!P", "!P"),
          "explode_once": ("XO", "XO"), "reroll": ("R", "RR"), "reroll_once": ("RO", "RO")}


@dataclass(frozen=True)
class Special:
    """``count`` dice with ``sides`` faces and a Roll20/Foundry modifier ``kind`` that acts on
    the ``faces`` its condition names: ``explode`` (``!``, ``x``: roll one more die and add, again
    and again), ``compound`` (``!!``: the same total), ``penetrate`` (``!p``: each extra roll one
    less), ``explode_once`` (``xo``), ``reroll`` (``r``, ``rr``: roll again until the face is
    not named), ``reroll_once`` (``ro``), or none; with ``counted`` (``cs``) the term is the
    number of dice (extra rolls included) showing a counted face.

    >>> str(parse("3d6!").expression), str(parse("4d6x>=5").expression), str(parse("2d20ro1").expression)
    ('3D6!', '4D6X>=5', '2D20RO1')
    """

    count: int
    sides: int
    kind: str = ""
    faces: frozenset = frozenset()
    counted: frozenset | None = None
    foundry: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        out = f"{self.count}D{self.sides}"
        if self.kind:
            roll20, foundry = _MARKS[self.kind]
            uses_foundry = self.foundry or self.kind == "explode_once"
            mark = foundry if uses_foundry else roll20
            default = ({self.sides} if self.kind.startswith(("explode", "compound", "penetrate"))
                       else {1})
            if self.kind in ("reroll", "reroll_once") and not uses_foundry and not _face_range(
                    self.faces, self.sides):
                out += "".join(f"{mark}{f}" for f in sorted(self.faces))
            else:
                rerolls = self.kind in ("reroll", "reroll_once")
                out += mark + ("" if set(self.faces) == default and not rerolls
                               else _condition_text(self.faces, self.sides, uses_foundry))
        if self.counted is not None:
            out += "CS" + _condition_text(self.counted, self.sides, True)
        return out


def _face_range(faces: frozenset, sides: int) -> str:
    """'single', 'top', 'bottom' or '' (another set) for a set of faces."""
    ordered = sorted(faces)
    if len(ordered) == 1:
        return "single"
    if ordered == list(range(ordered[0], sides + 1)):
        return "top"
    if ordered == list(range(1, ordered[-1] + 1)):
        return "bottom"
    return ""


def _condition_text(faces: frozenset, sides: int, foundry: bool) -> str:
    """A condition naming ``faces``: Roll20 writes ``>4`` for 4 or more, Foundry ``>=4``."""
    shape = _face_range(faces, sides)
    low, high = min(faces), max(faces)
    if shape == "single":
        return str(low)
    if shape == "top":
        return f">={low}" if foundry else f">{low}"
    if shape == "bottom":
        return f"<={high}" if foundry else f"<{high}"
    raise RuleInputError("these faces have no condition", "이 눈들은 조건 하나로 쓸 수 없습니다.")


@dataclass(frozen=True)
class Constant:
    """A whole number written in the expression (the sign belongs to the sum)."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Named:
    """A named term such as the damage bonus ``DB`` (only where the caller allows names)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Divided:
    """``part`` divided by ``divisor`` with the book's ``÷``: rounded up (:func:`divide_up`).

    >>> str(Divided(Dice(1, 6), 2)), str(parse("(1d6+1d4)÷2"))
    ('1D6÷2', '(1D6+1D4)÷2')
    """

    part: "Node"
    divisor: int

    def __str__(self) -> str:
        return f"{_operand(self.part, left=True)}÷{self.divisor}"


@dataclass(frozen=True)
class Negate:
    """Minus one operand of ``*`` or ``/`` (BCDice's unary minus binds before them:
    ``-7/2`` is (−7)/2 = −4).

    >>> str(parse("-7/2+1D6").expression), parse("-7/2+1D6").dist().min
    ('-7/2+1D6', -3)
    """

    part: "Node"

    def __str__(self) -> str:
        return f"-{_operand(self.part, left=False)}"


@dataclass(frozen=True)
class Product:
    """``left * right`` or ``left / right`` with BCDice's ``rounding`` (:data:`ROUNDINGS`).

    >>> str(parse("(2D6+1D4)*2").expression), str(parse("1D6/2R").expression)
    ('(2D6+1D4)*2', '1D6/2R')
    """

    left: "Node"
    op: Literal["*", "/"]
    right: "Node"
    rounding: str = ""

    def __str__(self) -> str:
        right = _operand(self.right, left=False)
        if self.op == "/" and not right.startswith("(") and not re.fullmatch(r"-?(\d+|\d+D\d+)", right):
            right = f"({right})"             # 1D6/(1D4CS>=3): a letter after the divisor is a rounding
        return f"{_operand(self.left, left=True)}{self.op}{right}" + (self.rounding if self.op == "/" else "")


def _operand(node: "Node", left: bool) -> str:
    """An operand of ``*``, ``/`` or ``÷`` as text: a sum in brackets, and on the right any
    other product too (``a/(b*c)``)."""
    if isinstance(node, Sum) or (not left and isinstance(node, (Product, Divided))):
        return f"({node})"
    return str(node)


@dataclass(frozen=True)
class Sum:
    """Signed terms added up: ``terms`` holds ``(sign, term)`` pairs, sign +1 or −1.

    >>> expr = parse("2d6 - 1 + 1d4").expression
    >>> expr.terms[1], expr.bounds(), expr.dist().mean()
    ((-1, Constant(value=1)), (2, 15), Fraction(17, 2))
    """

    terms: tuple[tuple[int, "Node"], ...]

    def __str__(self) -> str:
        out = []
        for i, (sign, term) in enumerate(self.terms):
            # a leading minus reads as BCDice's unary minus, which binds before * and /: minus a
            # product or a division is written minus its bracket
            bracket = isinstance(term, Sum) or (i == 0 and sign < 0 and isinstance(term, (Product, Divided)))
            text = f"({term})" if bracket else str(term)
            out.append(("-" if sign < 0 else "+" if i else "") + text)
        return "".join(out) or "0"

    def dist(self, values: "Mapping[str, Sum | Dist] | None" = None) -> "Dist | OpenDist":
        """Exact distribution of the sum; ``values`` gives each named term (a :class:`Sum`, or a
        :class:`~widgets.dice.Dist` of the caller's own). A sum with exploding dice gives an
        :class:`~widgets.dice.OpenDist`."""
        nodes, dists = _split_values(values)
        expression = _substitute(self, nodes) if nodes else self
        if dists:
            # a caller's own distribution may have any shape: the dice library checks each step
            return _evaluate(expression, _COMPUTE, dists)
        if _is_open(expression):
            return _open_total(expression, None)
        return _dist(expression)

    def bounds(self, values: "Mapping[str, Sum] | None" = None) -> tuple[int, int]:
        """Lowest and highest total, known without computing the distribution (the size
        checks run, so a sum too big to compute is refused here too)."""
        nodes, dists = _split_values(values)
        if dists:
            raise RuleInputError("bounds() takes named terms as sums, not distributions",
                                 "범위를 미리 셀 때는 이름 붙은 항을 식으로 주어야 합니다.")
        expression = _substitute(self, nodes) if nodes else self
        if _is_open(expression):
            raise RuleInputError("a roll that can go on without end has no highest total",
                                 "끝없이 이어질 수 있는 굴림에는 가장 큰 합계가 없습니다.")
        shape = _plan(expression)
        return shape.low, shape.high


#: One node of a parsed expression.
Node = Union[Dice, D66Dice, FateDice, Special, Constant, Named, Divided, Negate, Product, Sum]

Operator = Literal[">=", "<=", ">", "<", "=", "!="]
_HOLDS = {">=": lambda v, t: v >= t, "<=": lambda v, t: v <= t, ">": lambda v, t: v > t,
          "<": lambda v, t: v < t, "=": lambda v, t: v == t, "!=": lambda v, t: v != t}


@dataclass(frozen=True)
class Comparison:
    """A comparison with ``target`` (BCDice writes ``!=`` as ``<>``).

    >>> Comparison(">=", 10).holds(12), str(Comparison("<=", 45)), str(Comparison("!=", 7))
    (True, '<=45', '<>7')
    """

    operator: Operator
    target: int

    def holds(self, total: int) -> bool:
        return _HOLDS[self.operator](total, self.target)

    def __str__(self) -> str:
        return f"{'<>' if self.operator == '!=' else self.operator}{self.target}"

    def faces(self, sides: int) -> frozenset:
        """The faces of a die with ``sides`` faces that meet the comparison.

        >>> sorted(Comparison(">", 4).faces(6))
        [5, 6]
        """
        sides = require_int(sides, "sides", "주사위 면 수", 1, limits.MAX_SIDES)
        return frozenset(f for f in range(1, sides + 1) if self.holds(f))


def _odds_of(dist: "Dist | OpenDist", comparison: Comparison) -> dict[str, Fraction]:
    """Exact success/failure odds of a comparison of a total (an open roll is computed past
    the target, so these are exact too)."""
    t, op = comparison.target, comparison.operator
    if op in (">=", ">"):
        success = dist.at_least(t if op == ">=" else t + 1)
    elif op in ("<=", "<"):
        success = dist.at_most(t if op == "<=" else t - 1)
    else:
        equal = dist.probability(t) if isinstance(dist, Dist) or t < dist.cut else Fraction(0)
        success = equal if op == "=" else 1 - equal
    return {"success": success, "failure": 1 - success}


# --- the commands -----------------------------------------------------------------------------
class _Command:
    """What every command answers: its canonical text, its main distribution and, where it has
    a target, success and failure."""

    def odds(self) -> dict[str, Fraction]:
        raise RuleInputError(f"{self} has no target: end it with one, e.g. {self}>=10",
                             f"'{self}'에는 비교가 없습니다: '{self}>=10'처럼 끝에 비교를 붙이세요.")

    def has_odds(self) -> bool:
        return False


@dataclass(frozen=True)
class Roll(_Command):
    """BCDice's 加算ダイス: an expression and an optional comparison of its total (see :func:`parse`);
    ``undecided`` marks BCDice's ``>=?`` (no judgement), ``secret`` its ``S`` (the same odds),
    ``comment`` the text after a space.

    >>> roll = parse("3D6 >= 10")
    >>> str(roll), roll.dist().probability(10), roll.odds()["success"]
    ('3D6>=10', Fraction(1, 8), Fraction(5, 8))
    """

    expression: Sum
    comparison: Comparison | None = None
    undecided: str = ""
    secret: bool = field(default=False, compare=False)
    comment: str = field(default="", compare=False)

    def __str__(self) -> str:
        tail = f"{self.comparison or ''}" if not self.undecided else \
            f"{'<>' if self.undecided == '!=' else self.undecided}?"
        text = str(self.expression)
        if tail and re.search(r"(!|!!|!P|X|XO)$", text):
            # 3D6!>10 would read as exploding on 10 or more: name the face (3D6!6>10)
            last = [n for n in _walk(self.expression) if isinstance(n, Special)][-1]
            text += str(max(last.faces))
        return f"{'S' if self.secret else ''}{text}{tail}"

    def dist(self) -> "Dist | OpenDist":
        """Exact distribution of the total (before any comparison); exploding dice give an
        :class:`~widgets.dice.OpenDist` computed past the target."""
        if _is_open(self.expression):
            return _open_total(self.expression, self.comparison)
        return self.expression.dist()

    def has_odds(self) -> bool:
        return self.comparison is not None

    def odds(self) -> dict[str, Fraction]:
        """Exact success/failure odds of the comparison (summing to exactly 1)."""
        if self.comparison is None:
            return super().odds()
        return _odds_of(self.dist(), self.comparison)

    def roundings(self) -> tuple[str, ...]:
        """The roundings of ``/`` the expression uses (keys of :data:`ROUNDINGS`), and ``"÷"``.

        >>> parse("1D6/2+1D8/3R").roundings()
        ('', 'R')
        """
        found: list[str] = []
        for node in _walk(self.expression):
            key = node.rounding if isinstance(node, Product) and node.op == "/" else \
                "÷" if isinstance(node, Divided) else None
            if key is not None and key not in found:
                found.append(key)
        return tuple(found)

    def replay(self, faces: Iterable[int]) -> int:
        """The total BCDice (or the VTT) shows for these dice, read in the order it rolls them.

        >>> parse("(2D6+1D4)*2").replay([5, 3, 4]), parse("1D6/-3R").replay([5])
        (24, -2)
        """
        return _replayed(self, faces)

    def _run(self, rolls: "_Faces"):
        total = _replay(self.expression, rolls)
        return total




#: Every command :func:`parse` reads.
Command = Union[Roll, "CountRoll", "RerollRoll", "UpperRoll", "D66Roll", "CthulhuRoll", "CthulhuClassicRoll",
                "ChoiceRoll", "RepeatRoll", "CalcRoll"]

#: The commands other than a plain roll live in :mod:`widgets.commands`, imported at the first
#: one read (a sum or a damage expression never needs them); they are also reachable here.
_LATER = frozenset({"CountRoll", "RerollRoll", "UpperRoll", "D66Roll", "CthulhuRoll", "CthulhuClassicRoll",
                    "ChoiceRoll", "RepeatRoll", "CalcRoll", "CTHULHU_LEVELS"})


def _commands():
    from . import commands
    return commands


def __getattr__(name: str):
    if name in _LATER:
        return getattr(_commands(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Faces:
    """The faces a replay reads, one die at a time (checked against the die's sides)."""

    def __init__(self, faces: Iterable[int], zero_is_one: bool = True):
        self.items = iter(require_items(faces, "faces", "주사위 눈", limits.MAX_ROLLED_DICE))
        self.used = 0
        self.zero_is_one = zero_is_one   # BCDice's 加算ダイス: x/0 is 1; its calculations refuse it

    def take(self, sides: int) -> int:
        try:
            value = next(self.items)
        except StopIteration:
            raise RuleInputError(f"more dice are rolled than the {self.used} faces given",
                                 f"주사위 눈이 모자랍니다 ({self.used}개를 받았습니다).") from None
        self.used += 1
        return require_int(value, "face", "주사위 눈", 1, sides)

    def done(self) -> None:
        if next(self.items, None) is not None:
            raise RuleInputError(f"only {self.used} of the faces given were rolled",
                                 f"받은 주사위 눈 가운데 {self.used}개만 굴렸습니다.")


def _replayed(command: "_Command", faces: Iterable[int]):
    """Run a command's replay on the given faces, all of which it must read."""
    rolls = _Faces(faces)
    out = command._run(rolls)  # type: ignore[attr-defined]
    rolls.done()
    return out


# --- the public entry points --------------------------------------------------------------------
def parse(text: str) -> Command:
    """Read a command in dice-bot notation (module docstring), checking it against the size
    limits; bad text raises :class:`~widgets.errors.RuleInputError` whose ``.korean`` points at
    the bad part by its place in ``text``.

    >>> str(parse("d% <= 45")), str(parse("１ｄ２０＋３≥１５")), str(parse("2D6÷2+1"))
    ('1D100<=45', '1D20+3>=15', '2D6÷2+1')
    >>> type(parse("5B6>=4")).__name__, type(parse("CC(1)<=50")).__name__, type(parse("x5 2D6")).__name__
    ('CountRoll', 'CthulhuRoll', 'RepeatRoll')
    >>> parse("CBR(50,20)")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: cannot read dice expression 'CBR(50,20)': 'CBR' at position 1 is a game-system command: this calculator reads BCDice's common commands only
    """
    if isinstance(text, str) and _CHOICE.match(text[:20]) and len(text) <= limits.MAX_CHOICE_TEXT:
        return _parse(text)
    return _parse(_checked_text(text, "주사위 식"))


def parse_expression(text: str, *, names: Iterable[str] = (), noun: str = "주사위 식") -> Sum:
    """Read a sum without a comparison (the reader :mod:`widgets.damage` shares): ``names``
    lists the named terms allowed outside brackets (``("DB",)``), ``noun`` names the kind of
    expression in messages (``"주사위 식"`` or ``"피해 식"``).

    >>> str(parse_expression("1D6÷2 + ½DB", names=("DB",), noun="피해 식"))
    '1D6÷2+DB÷2'
    """
    noun = str(require_choice(noun, "noun", "식의 종류", tuple(_NOUNS)))
    allowed = tuple(sorted(_checked_names(names), key=len, reverse=True))
    return _parse_expression(_checked_text(text, noun), allowed, noun)


def distribution(text: str) -> "Dist | OpenDist":
    """Exact distribution of what a command answers (a comparison, if any, is ignored): the
    total, the number of successes of counting dice, the D100 result of CC.

    >>> distribution("2d6+3").probability(10)
    Fraction(1, 6)
    >>> distribution("5B6>=4").probability(5)
    Fraction(1, 32)
    """
    return parse(text).dist()


def roll_odds(text: str) -> dict[str, Fraction]:
    """Exact ``{"success", "failure"}`` odds of a command with a target.

    >>> roll_odds("2D6+3>=9")
    {'success': Fraction(13, 18), 'failure': Fraction(5, 18)}
    >>> roll_odds("CC<=50")["success"]
    Fraction(1, 2)
    """
    return parse(text).odds()


# --- what the page can show ---------------------------------------------------------------------
#: The rolls the book's examples type, one or two per game: (game, text). Their Korean notes, the
#: grammar and what is not supported are the calculator page's words
#: (:mod:`widgets.views.dice_calc`).
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("trench_crusade", "4D6KH2"), ("bfrpg", "1d20+3>=15"), ("pf2e", "1d20+9>=25"),
    ("underface", "1D8+1D4"), ("underface", "1D6÷2"), ("underface", "1D100<=45"),
    ("hunters_moon", "2D6+3>=9"),
)


# --- reading ------------------------------------------------------------------------------------
_NOUNS = {"주사위 식": "dice expression", "피해 식": "damage expression"}

# Characters NFKC leaves alone that the notation reads as its own signs (½ becomes 1⁄2 under
# NFKC, so the fraction slash is a slash; × is the book's multiplication sign).
_SIGNS = {"−": "-", "–": "-", "—": "-", "‐": "-", "‑": "-", "⁄": "/", "×": "*",
          "≥": ">=", "≧": ">=", "⩾": ">=", "≤": "<=", "≦": "<=", "⩽": "<=", "≠": "!="}

#: Markers of other dice bots' features, read where they may stand: (normalised text, English
#: name, Korean name); every Korean name is in ``widgets.views.dice_calc.UNSUPPORTED_KO``. Longest first.
_ANYWHERE = (("**", "powers", "거듭제곱"), ("^", "powers", "거듭제곱"),
             ("!", "exploding dice away from the dice", "주사위에 붙지 않은 폭발 표시(!)"),
             ("[", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("]", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("{", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("}", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("@", "character attributes", "캐릭터 값 참조"), ("#", "labels or roll tables", "꼬리표·굴림표(#)"),
             (".", "decimals", "소수"), (",", "several rolls at once", "여러 식을 한 번에"),
             (";", "several rolls at once", "여러 식을 한 번에"), ("%", "modulo", "나머지 셈(%)"))
_AFTER_DICE = (("CF", "counting failures die by die", "주사위마다 실패 세기(cf)"),
               ("DF", "deducting failures", "주사위마다 실패 세기(cf)"),
               ("SF", "subtracting failures", "주사위마다 실패 세기(cf)"),
               ("MS", "margin of success", "성공 차이(ms)"),
               ("MIN", "changing faces (min)", "최솟값·최댓값 바꾸기(min2, max5)"),
               ("MAX", "changing faces (max)", "최솟값·최댓값 바꾸기(min2, max5)"),
               ("EVEN", "counting even dice", "짝수·홀수 세기"), ("ODD", "counting odd dice", "짝수·홀수 세기"),
               ("SA", "sorting", "정렬"), ("SD", "sorting", "정렬"), ("S", "sorting", "정렬"),
               ("F", "counting failures (Roll20's f)", "주사위마다 실패 세기(cf)"))
_KNOWN = set("0123456789+-*/÷()<>=!DKHL%UCRFBTXYZ?")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
_GAME = ("game-system command", "게임 전용 명령")


def _normalise(text: str, start: int = 0) -> tuple[str, tuple[int, ...], frozenset[int]]:
    """The text the reader reads (NFKC, upper case, notation signs, no spaces), for each of its
    characters the index of the typed character it came from, and the places that followed a
    space (a space may stand anywhere but inside a number)."""
    chars: list[str] = []
    origin: list[int] = []
    after_space: set[int] = set()
    space = False
    for i in range(start, len(text)):
        for c in unicodedata.normalize("NFKC", text[i]):
            if c.isspace():
                space = True
                continue
            for d in _SIGNS.get(c, c).upper():
                if space:
                    after_space.add(len(chars))
                    space = False
                chars.append(d)
                origin.append(i)
    return "".join(chars), tuple(origin), frozenset(after_space)


def _checked_text(text: object, noun: str) -> str:
    if not isinstance(text, str):
        raise RuleInputError(f"a {_NOUNS[noun]} must be text, got {shown(text)}",
                             f"{particle(noun, '은/는')} 글자로 넣어 주세요 (입력값: {shown(text)}).")
    if len(text) > limits.MAX_EXPRESSION_TEXT:
        cut = text[:limits.MAX_EXPRESSION_TEXT] + "…"
        raise RuleInputError(
            f"cannot read {_NOUNS[noun]} {shown(cut, 90)}: longer than "
            f"{limits.MAX_EXPRESSION_TEXT} characters",
            f"{particle(shown(cut, 60), '을/를')} {particle(noun, '으로/로')} 읽을 수 없습니다: "
            f"{limits.MAX_EXPRESSION_TEXT}자보다 깁니다 (입력: {len(text)}자)")
    return text


def _checked_names(names: object) -> list[str]:
    items = require_items(names, "names", "이름 붙은 항", 4)
    for name in items:
        if not isinstance(name, str) or not re.fullmatch("[A-Z]{2,8}", name):
            raise RuleInputError(f"a name is 2 to 8 capital letters, got {shown(name)}",
                                 f"이름은 대문자 2~8자입니다 (입력값: {shown(name)}).")
    return items


def _cmp_op(run: str) -> str | None:
    """BCDice's reading of a run of ``<>!=`` (``Normalize.comparison_operator``)."""
    if "<=" in run or "=<" in run:
        return "<="
    if ">=" in run or "=>" in run:
        return ">="
    if "<>" in run or "!=" in run or "=!" in run:
        return "!="
    if "<" in run:
        return "<"
    if ">" in run:
        return ">"
    if "=" in run:
        return "="
    return None


#: A die's Roll20/Foundry modifiers, longest first: (token, kind, whether its condition is read the
#: Foundry way (>4 strict, >=4 allowed) rather than Roll20's (>4 is 4 or more), what it is for).
_DIE_MODIFIERS = (("!!", "compound", False, "explode"), ("!P", "penetrate", False, "explode"),
                  ("!", "explode", False, "explode"), ("XO", "explode_once", True, "explode"),
                  ("X", "explode", True, "explode"), ("RO", "reroll_once", False, "reroll"),
                  ("RR", "reroll", True, "reroll"), ("R", "reroll", False, "reroll"))


class _Reader:
    """A cursor over the normalised text; each method reads one piece of the grammar."""

    def __init__(self, source: str, names: tuple[str, ...], noun: str, start: int = 0):
        self.source, self.names, self.noun = source, names, noun
        self.text, self.origin, self.after_space = _normalise(source, start)
        self.pos = 0
        self.atoms = 0
        self.after_dice = False     # did the last term end with dice (where 'cf', 'sa'… would go)
        self.zero_is_one = True     # 加算ダイス: x/0 is 1; BCDice's other calculations refuse it

    # --- looking ---------------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> str:
        i = self.pos + ahead
        return self.text[i] if 0 <= i < len(self.text) else ""

    def at(self, word: str) -> bool:
        return self.text.startswith(word, self.pos)

    def typed(self, start: int, end: int | None = None) -> str:
        """What the reader typed for the normalised characters ``start`` … ``end - 1``."""
        end = start + 1 if end is None else end
        end = max(end, start + 1)
        last = min(end, len(self.origin)) - 1
        return self.source[self.origin[start]:self.origin[last] + 1]

    def place(self, start: int) -> int:
        return self.origin[start] + 1 if start < len(self.origin) else len(self.source) + 1

    # --- refusing --------------------------------------------------------------------------
    def fail(self, english: str, korean: str) -> RuleInputError:
        return RuleInputError(
            f"cannot read {_NOUNS[self.noun]} {shown(self.source, 90)}: {english}",
            f"{particle(repr(self.source), '을/를')} {particle(self.noun, '으로/로')} 읽을 수 없습니다: {korean}")

    def fail_at(self, start: int, end: int, english: str, korean: str) -> RuleInputError:
        if start >= len(self.text):
            return self.fail(f"it ends too early ({english})", f"식이 중간에 끝났습니다. {korean}")
        seg = self.typed(start, end)
        where = f"{self.place(start)}번째 글자" + ("" if len(seg) == 1 else "부터")
        return self.fail(f"{seg!r} at position {self.place(start)}: {english}",
                         f"{where} {seg!r}: {korean}")

    def unsupported(self, markers) -> RuleInputError | None:
        for mark, english, korean in markers:
            if self.at(mark):
                seg = self.typed(self.pos, self.pos + len(mark))
                return self.fail(
                    f"{seg!r} ({english}) at position {self.place(self.pos)} is not supported",
                    f"{self.place(self.pos)}번째 글자의 {particle(f'{seg!r}({korean})', '은/는')} "
                    "지원하지 않습니다")
        return None

    def unexpected(self, expected_en: str, expected_ko: str, markers=()) -> RuleInputError:
        """The refusal for whatever stands at the cursor: the end, a feature of another dice
        bot, a sign in the wrong place, or a character the notation does not use."""
        if not self.peek():
            return self.fail(f"it ends too early ({expected_en})",
                             f"식이 중간에 끝났습니다. {expected_ko}")
        found = self.unsupported(tuple(markers) + _ANYWHERE)
        if found:
            return found
        ch, typed, where = self.peek(), self.typed(self.pos), self.place(self.pos)
        english = f"unexpected {ch!r} at position {where}"
        if ch in _KNOWN:
            return self.fail(english, f"{where}번째 글자 {particle(repr(typed), '이/가')} 올 자리가 "
                                      f"아닙니다 ({expected_ko})")
        hint = (" (식에는 한글을 쓰지 않습니다: 설명은 식 뒤에 한 칸 띄고 쓰세요)"
                if _HANGUL.match(typed) else "")
        return self.fail(english, f"{where}번째 글자 {particle(repr(typed), '을/를')} 읽을 수 없습니다{hint}")

    def value(self, node: Node) -> int:
        """The value of a calculation without dice (:func:`_constant`), refused in the reader's words."""
        try:
            return _constant(node, self.zero_is_one)
        except RuleInputError as err:
            raise self.fail(str(err), err.korean.rstrip(".")) from None

    def count_atom(self, start: int) -> None:
        self.atoms += 1
        if self.atoms > limits.MAX_EXPRESSION_TERMS:
            raise self.fail_at(start, start + 1, f"more than {limits.MAX_EXPRESSION_TERMS} terms",
                               f"항이 {limits.MAX_EXPRESSION_TERMS}개보다 많습니다")

    # --- the end of a command ---------------------------------------------------------------
    def comment(self) -> str:
        """Text after a space that the command cannot continue with: BCDice's comment."""
        if not self.peek():
            return ""
        if self.pos in self.after_space:
            return self.source[self.origin[self.pos]:].strip()
        return None  # type: ignore[return-value]

    def finish(self, what_ko: str, markers=()) -> str:
        note = self.comment()
        if note is not None:
            return note
        if self.peek() == ")":
            raise self.fail_at(self.pos, self.pos + 1, "a ')' without its '('",
                               "여는 괄호 '(' 없이 닫는 괄호가 왔습니다")
        if self.peek() in ("<", ">", "=") and what_ko.startswith("비교 뒤"):
            raise self.fail_at(self.pos, self.pos + 1, "one comparison per roll",
                               "비교는 식 끝에 한 번만 씁니다")
        raise self.unexpected("the end", what_ko, markers)

    # --- the commands ------------------------------------------------------------------------
    def command(self) -> Command:
        if not self.text:
            raise self.fail("it is empty", "비어 있습니다")
        secret = False
        if self.peek() == "S" and (self.peek(1).isdigit() or self.peek(1) in "DC(+-"):
            secret, self.pos = True, 1
        start = self.pos
        if self.at("D66") and (not self.peek(3) or self.peek(3) in "ANSD" and
                               (not self.peek(4) or self.pos + 4 in self.after_space)
                               or self.pos + 3 in self.after_space):
            self.pos += 3
            order = ""
            if self.peek() in ("A", "N", "S", "D") and self.pos not in self.after_space:
                order = self.peek()
                self.pos += 1
            return _commands().D66Roll(order, secret, self.finish("D66 뒤에는 A·S·D·N 하나만 씁니다"))
        self.zero_is_one = False
        if self.at("CCB"):
            return self.cthulhu_classic(secret)
        if self.at("CC"):
            return self.cthulhu(secret)
        if self.peek() == "C" and re.match(r"[+\-(]*\d", self.text[self.pos + 1:]):
            self.pos += 1
            expression = self.sum(0, constant=True)
            return _commands().CalcRoll(expression, self.value(expression), secret,
                            self.finish("계산(C) 뒤에는 설명만 씁니다"))
        if self.at("BCDICEVERSION"):
            raise self.fail_at(start, start + 13, "BCDiceVersion computes nothing",
                               "BCDiceVersion은 셀 확률이 없는 명령입니다")
        self.refuse_game_command(start)
        pool = self.pool(secret)
        if pool is not None:
            return pool
        self.pos, self.zero_is_one = start, True
        expression, comparison, undecided = self.roll(comparison=True)
        note = self.finish("비교 뒤에는 식을 끝내거나, 한 칸 띄고 설명을 씁니다" if comparison or undecided
                           else "'+', '-', '*', '/', 비교(>= 등) 또는 식의 끝",
                           _AFTER_DICE if self.after_dice else ())
        if not any(isinstance(n, (Dice, D66Dice, FateDice, Special)) for n in _walk(expression)):
            raise self.fail("there are no dice (BCDice answers nothing; to calculate, write C(…))",
                            "주사위가 없습니다. BCDice는 주사위 없는 식에 답하지 않습니다 "
                            "(계산만 하려면 C(1+2)처럼 씁니다)")
        return Roll(expression, comparison, undecided, secret, note)

    def refuse_game_command(self, start: int) -> None:
        """A command word BCDice's common commands do not have: refused by name."""
        word = re.match(r"[A-Z]+", self.text[start:])
        if not word:
            return
        name = word.group(0)
        if name[0] == "D" and (len(name) == 1 or name[1] == "F"):
            return                                    # D20, D%, D(6), DF
        if name == "D" or re.match(r"D\d", self.text[start:]):
            return
        end = start + len(name)
        while end < len(self.text) and self.text[end].isdigit() and len(name) == 1:
            end += 1
        typed = self.typed(start, end)
        raise self.fail(f"{typed!r} at position {self.place(start)} is a game-system command: this "
                        "calculator reads BCDice's common commands only",
                        f"이 계산기는 BCDice의 공통 명령만 읽습니다: {self.place(start)}번째 글자의 "
                        f"{particle(repr(typed), '은/는')} 게임 전용 명령입니다 (크툴루 CC·CCB는 읽습니다)")

    def cthulhu(self, secret: bool) -> CthulhuRoll:
        start = self.pos
        self.pos += 2
        bonus = 0
        if self.peek() == "(":
            mark = self.pos
            bonus = self.bracketed()
            where = (mark, self.pos)
        elif self.peek() in ("+", "-") or self.peek().isdigit():
            mark = self.pos
            sign = -1 if self.peek() == "-" else 1
            if self.peek() in ("+", "-"):
                self.pos += 1
            n = self.number()
            if n is None:
                raise self.unexpected("the number of bonus dice", "보너스·페널티 주사위 수가 와야 합니다")
            bonus, where = sign * n, (mark, self.pos)
        if bonus and abs(bonus) > limits.MAX_BONUS_DICE:
            raise self.fail_at(where[0], where[1], f"bonus and penalty dice go from -{limits.MAX_BONUS_DICE} "
                               f"to {limits.MAX_BONUS_DICE}",
                               f"보너스·페널티 주사위는 -{limits.MAX_BONUS_DICE}부터 {limits.MAX_BONUS_DICE}까지입니다 "
                               "(BCDice의 한도)")
        target, difficulty = None, ""
        if self.peek() in ("<", ">", "=", "!"):
            op_start = self.pos
            run = self.cmp_run()
            if run != "<=":
                raise self.fail_at(op_start, self.pos, "BCDice's CC takes <= only",
                                   "BCDice의 CC는 '<=' 비교만 받습니다 (CC<=50)")
            target = self.target_value(op_start)
            if self.peek() in ("R", "H", "E", "C") and self.pos not in self.after_space:
                difficulty = self.peek()
                self.pos += 1
            if target < 0 or target > limits.MAX_TARGET:
                raise self.fail_at(op_start, self.pos, "a target from 0", "목표치는 0 이상입니다")
            if target == 0:
                if difficulty:
                    raise self.fail_at(op_start, self.pos, "a difficulty needs a target",
                                       "난이도(R·H·E·C)는 목표치와 함께 씁니다")
                target = None     # BCDice: CC<=0 has no target
        note = self.finish("CC(보너스)<=목표치 뒤에는 난이도 R·H·E·C나 설명만 씁니다")
        del start
        return _commands().CthulhuRoll(bonus, target, difficulty, secret, note)

    def cthulhu_classic(self, secret: bool) -> CthulhuClassicRoll:
        self.pos += 3
        broken = 0
        if self.peek() == "(":
            broken = self.bracketed()
        elif self.peek().isdigit():
            broken = self.number() or 0
        if broken < 0 or broken > 100:
            raise self.fail("the broken number goes from 0 to 100", "고장 넘버는 0부터 100까지입니다")
        target = None
        if self.peek() in ("<", ">", "=", "!"):
            op_start = self.pos
            run = self.cmp_run()
            if run != "<=":
                raise self.fail_at(op_start, self.pos, "BCDice's CCB takes <= only",
                                   "BCDice의 CCB는 '<=' 비교만 받습니다 (CCB<=50)")
            target = self.target_value(op_start)
            if target <= 0:
                target = None     # BCDice: then it only rolls 1D100
        return _commands().CthulhuClassicRoll(broken, target, secret, self.finish("CCB<=목표치 뒤에는 설명만 씁니다"))

    # --- counting dice (B, R, U, T) ------------------------------------------------------------
    def bracketed(self) -> int:
        """The value of a bracketed calculation of numbers, ``(1+3)``, at its ``(``."""
        self.pos += 1
        inner = self.sum(1, constant=True)
        if self.peek() != ")":
            raise self.unexpected("')'", "닫는 괄호 ')'가 와야 합니다")
        self.pos += 1
        return self.value(inner)

    def pool_term(self) -> int | None:
        """A count or a number of sides in a pool: a number or a bracketed calculation."""
        return self.bracketed() if self.peek() == "(" else self.number()

    def pool(self, secret: bool) -> Command | None:
        start = self.pos
        try:
            count = self.pool_term()
        except RuleInputError:
            self.pos = start
            return None
        letter = self.peek()
        if count is None or letter not in ("B", "R", "U", "T") or self.pos in self.after_space:
            self.pos = start
            return None
        if letter == "T":
            return self.tally(start, count, secret)
        groups = [self.pool_group(start, count, letter)]
        while self.peek() == "+":
            mark = self.pos
            self.pos += 1
            term_start = self.pos
            n = self.pool_term() if self.peek().isdigit() or self.peek() == "(" else None
            if n is not None and self.peek() == letter:
                groups.append(self.pool_group(term_start, n, letter))
                continue
            if n is not None and self.peek() in ("B", "R", "U", "D"):
                raise self.fail_at(self.pos, self.pos + 1, "one kind of dice per pool",
                                   f"{letter} 주사위에는 같은 종류({letter})만 더합니다")
            self.pos = mark
            break
        if len(groups) > limits.MAX_EXPRESSION_TERMS:
            raise self.fail(f"more than {limits.MAX_EXPRESSION_TERMS} groups",
                            f"주사위 묶음이 {limits.MAX_EXPRESSION_TERMS}개보다 많습니다")
        return {"B": self.barabara, "R": self.reroll, "U": self.upper}[letter](tuple(groups), secret)

    def pool_group(self, start: int, count: int, letter: str) -> tuple[int, int]:
        self.pos += 1
        sides_start = self.pos
        sides = self.pool_term()
        if sides is None:
            raise self.unexpected(f"the number of sides after {letter!r}",
                                  f"'{letter}' 뒤에는 면 수가 와야 합니다 (예: 5{letter}6)")
        self.check_count(start, sides_start, count, letter)
        if not 1 <= sides <= limits.MAX_SIDES:
            raise self.fail_at(sides_start - 1, self.pos, f"a die has 1 to {limits.MAX_SIDES} sides",
                               f"주사위 면 수는 1부터 {limits.MAX_SIDES}까지입니다")
        self.count_atom(start)
        return count, sides

    def check_count(self, start: int, end: int, count: int, letter: str) -> None:
        if not 1 <= count <= limits.MAX_TERM_DICE:
            raise self.fail_at(start, end, f"one term rolls 1 to {limits.MAX_TERM_DICE} dice",
                               f"한 항에 굴리는 주사위는 1개부터 {limits.MAX_TERM_DICE}개까지입니다 "
                               f"(BCDice는 {limits.MAX_TERM_DICE}개를 넘거나 0개 이하면 주사위를 굴리지 않습니다)")

    def tally(self, start: int, count: int, secret: bool) -> CountRoll:
        self.pos += 1
        if self.peek() not in ("Y", "Z"):
            raise self.unexpected("Y or Z after T", "'T' 뒤에는 Y나 Z가 옵니다 (예: 8TY6)")
        kind = "T" + self.peek()
        self.pos += 1
        sides_start = self.pos
        sides = self.pool_term()
        if sides is None:
            raise self.unexpected("the number of sides", "면 수가 와야 합니다 (예: 8TY6)")
        self.check_count(start, sides_start, count, "T")
        if not 1 <= sides <= limits.MAX_TALLY_SIDES:
            raise self.fail_at(sides_start, self.pos, f"counting faces takes 1 to {limits.MAX_TALLY_SIDES} sides",
                               f"눈별로 세는 주사위의 면 수는 1부터 {limits.MAX_TALLY_SIDES}까지입니다 (BCDice의 한도)")
        return _commands().CountRoll(kind, ((count, sides),), None, secret, self.finish("집계 주사위 뒤에는 설명만 씁니다"))

    def barabara(self, groups, secret: bool) -> CountRoll:
        comparison = self.pool_comparison()
        return _commands().CountRoll("B", groups, comparison, secret, self.finish(
            "B 주사위 뒤에는 비교(>=4 등)나 설명만 씁니다"))

    def pool_comparison(self) -> Comparison | None:
        if self.peek() not in ("<", ">", "=", "!"):
            return None
        start = self.pos
        op = _cmp_op(self.cmp_run())
        if op is None:
            raise self.fail_at(start, self.pos, "not a comparison", "비교 기호가 아닙니다")
        return Comparison(op, self.target_value(start))  # type: ignore[arg-type]

    def bracket_condition(self, with_operator: bool) -> tuple[str | None, int]:
        """``[>=4]`` (or ``[4]``) after R or U dice."""
        op, value = self.at_condition(with_operator)
        if self.peek() != "]":
            raise self.unexpected("']'", "닫는 괄호 ']'가 와야 합니다")
        self.pos += 1
        return op, value

    def at_condition(self, with_operator: bool) -> tuple[str | None, int]:
        """``@>=4`` (or ``@4``) after R or U dice: the mark, then an optional comparison and a number."""
        start = self.pos
        self.pos += 1
        op = None
        if with_operator and self.peek() in ("<", ">", "=", "!"):
            op = _cmp_op(self.cmp_run())
            if op is None:
                raise self.fail_at(start + 1, self.pos, "not a comparison", "비교 기호가 아닙니다")
        return op, self.constant_sum(start)

    def constant_sum(self, start: int) -> int:
        if not self.peek():
            raise self.unexpected("a number", "수가 와야 합니다")
        return self.value(self.sum(1, constant=True))

    def reroll(self, groups, secret: bool) -> RerollRoll:
        start = self.pos
        bracket = self.bracket_condition(True) if self.peek() == "[" else None
        comparison = self.pool_comparison()
        at = self.at_condition(True) if self.peek() == "@" and bracket is None else None
        again_op, again_value = bracket or at or (None, None)
        op = again_op or (comparison.operator if comparison else None) or ">="
        threshold = again_value if again_value is not None else \
            (comparison.target if comparison else None)
        text = self.typed(0, self.pos)
        if threshold is None:
            raise self.fail("there is no condition to roll again (write 2R6>=5 or 2R6[5])",
                            f"다시 굴릴 조건이 없습니다: 2R6>=5나 2R6[5]처럼 씁니다 (BCDice: 条件が間違っています, {text})")
        again = Comparison(op, threshold)  # type: ignore[arg-type]
        for count, sides in groups:
            if not _reroll_valid(again, sides):
                raise self.fail(
                    f"the condition {again} makes every die of d{sides} roll again (BCDice refuses it)",
                    f"다시 굴릴 조건 {again}이면 {sides}면 주사위가 끝없이 다시 굴립니다: BCDice도 받지 않습니다 "
                    "(2R6>=5나 2R6[5]처럼 씁니다)")
            if len(again.faces(sides)) >= sides:
                raise self.fail(f"every face of d{sides} rolls again: it never ends",
                                f"{sides}면 주사위의 모든 눈이 다시 굴려 끝나지 않습니다")
        roll = _commands().RerollRoll(groups, again, comparison, secret,
                          self.finish("R 주사위 뒤에는 [조건], 비교, @조건이나 설명만 씁니다"))
        del start
        _commands()._check_reroll(roll, self)
        return roll

    def upper(self, groups, secret: bool) -> UpperRoll:
        bracket = self.bracket_condition(False)[1] if self.peek() == "[" else None
        modifier = 0
        if self.peek() in ("+", "-"):
            mod_start = self.pos
            expression = self.sum(1, constant=True)
            modifier = self.value(expression)
            del mod_start
        comparison = self.pool_comparison()
        at = self.at_condition(False)[1] if self.peek() == "@" and bracket is None else None
        threshold = bracket if bracket is not None else at
        if threshold is None or threshold <= 1:
            raise self.fail("the threshold to roll again must be 2 or more (BCDice: "
                            "無限ロールの条件がまちがっています)",
                            "다시 굴릴 기준은 2 이상이어야 합니다: 2U6[4]처럼 씁니다 "
                            "(BCDice: 無限ロールの条件がまちがっています)")
        roll = _commands().UpperRoll(groups, threshold, modifier, comparison, secret,
                         self.finish("U 주사위 뒤에는 [기준], 보정, 비교, @기준이나 설명만 씁니다"))
        _commands()._check_upper(roll, self)
        return roll

    # --- BCDice's 加算ダイス ---------------------------------------------------------------------
    def roll(self, comparison: bool) -> tuple[Sum, Comparison | None, str]:
        if not self.text:
            raise self.fail("it is empty", "비어 있습니다")
        expression = self.sum(0)
        compared, undecided = None, ""
        if self.peek() == "!" and not self.at("!="):
            raise self.unsupported(_ANYWHERE)  # type: ignore[misc]
        if comparison and self.peek() in ("<", ">", "=", "!"):
            start = self.pos
            op = _cmp_op(self.cmp_run())
            if op is None:
                raise self.fail_at(start, self.pos, "not a comparison", "비교 기호가 아닙니다")
            if self.peek() == "?":
                self.pos += 1
                undecided = op
            else:
                compared = Comparison(op, self.target_value(start))  # type: ignore[arg-type]
        return expression, compared, undecided

    def cmp_run(self) -> str:
        start = self.pos
        while self.peek() in ("<", ">", "!", "=") and self.peek():
            self.pos += 1
        return self.text[start:self.pos]

    def target_value(self, op_start: int) -> int:
        start = self.pos
        if not self.peek() or self.pos in self.after_space and not self.peek().isdigit():
            raise self.unexpected("a number to compare with", f"{self.typed(op_start, start)!r} 뒤에 "
                                  "비교할 수가 와야 합니다")
        try:
            expression = self.sum(1, constant=True)
        except RuleInputError as err:
            if self.pos == start:
                raise self.unexpected("a number to compare with",
                                      f"{self.typed(op_start, start)!r} 뒤에 비교할 수가 와야 합니다") from err
            raise
        value = self.value(expression)
        if abs(value) > limits.MAX_TARGET:
            raise self.fail_at(start, self.pos, f"compare with a number up to {limits.MAX_TARGET}",
                               f"비교할 수는 {limits.MAX_TARGET}까지입니다")
        if self.peek() == "%":
            raise self.fail_at(self.pos, self.pos + 1, "compare with the number alone (1D100<=45)",
                               "비교할 수에는 %를 붙이지 않습니다 (1D100<=45처럼 씁니다)")
        return value

    def sum(self, depth: int, constant: bool = False) -> Sum:
        terms: list[tuple[int, Node]] = []
        sign = 1
        while True:
            node = self.mul(depth, constant)
            if isinstance(node, Negate):          # BCDice's expand_negate: a + -b is a - b
                node, sign = node.part, -sign
            if isinstance(node, Sum):             # brackets that divide nothing only group: flatten them
                terms.extend((sign * s, t) for s, t in node.terms)
            else:
                terms.append((sign, node))
            if self.peek() not in ("+", "-"):
                return Sum(tuple(terms))
            sign = -1 if self.peek() == "-" else 1
            self.pos += 1

    def mul(self, depth: int, constant: bool) -> Node:
        left = self.unary(depth, constant)
        while self.peek() in ("*", "/", "÷"):
            op_at = self.pos
            op = self.peek()
            if op == "/" and self.typed(op_at) in ("½", "⁄"):
                after = f" 뒤에는 {self.names[0]}가 와야 합니다." if self.names else ""
                raise self.fail_at(op_at, op_at + 1, "a half is written after the term (1D6÷2)",
                                   f"{self.typed(op_at)!r}{after} 다른 항의 절반은 1D6÷2처럼 뒤에 씁니다")
            self.pos += 1
            if op == "÷":
                left = self.book_divide(left, op_at)
                continue
            if op == "*" and self.peek() == "*":
                self.pos = op_at
                raise self.unsupported(_ANYWHERE)  # type: ignore[misc]
            right = self.unary(depth, constant, divisor=op == "/")
            rounding = ""
            if op == "/" and self.peek() in ("F", "C", "U", "R") and self.pos not in self.after_space:
                rounding = self.peek()
                self.pos += 1
            left = Product(_unwrap(left), op, _unwrap(right), rounding)  # type: ignore[arg-type]
        return left

    def book_divide(self, left: Node, op_at: int) -> Node:
        if isinstance(left, Constant) or (isinstance(left, Negate) and isinstance(left.part, Constant)):
            if self.typed(op_at) == "½":
                after = f" 뒤에는 {self.names[0]}가 와야 합니다." if self.names else ""
                raise self.fail_at(op_at, op_at + 1, "a half is written after the term (1D6÷2)",
                                   f"'½'{after} 다른 항의 절반은 1D6÷2처럼 뒤에 씁니다")
            raise self.fail_at(op_at, op_at + 1, "only dice or a bracketed sum may be divided with ÷ "
                               "(write the number already divided)",
                               "÷는 주사위 항이나 괄호로 묶은 식에만 씁니다 (수는 나눈 값을 직접 쓰세요)")
        start = self.pos
        n = self.number()
        if n is None:
            raise self.unexpected("a divisor after '÷'", "'÷' 뒤에는 나누는 수가 와야 합니다")
        if not 1 <= n <= limits.MAX_DIVISOR:
            raise self.fail_at(start, self.pos, f"'÷' needs a divisor from 1 to {limits.MAX_DIVISOR}",
                               f"나누는 수는 1부터 {limits.MAX_DIVISOR}까지입니다")
        if self.peek() in ("U", "F", "C", "R") and self.pos not in self.after_space:
            raise self.fail_at(self.pos, self.pos + 1, "÷ always rounds up; BCDice's roundings go with /",
                               "÷는 언제나 올림입니다. 버림·반올림은 BCDice처럼 /2F, /2R로 씁니다")
        if isinstance(left, Divided) and isinstance(left.part, Named):
            raise self.fail_at(op_at, op_at + 1, f"halve {left.part.name} only once",
                               f"{left.part.name}는 한 번만 나눌 수 있습니다")
        return Divided(_unwrap(left), n)

    def unary(self, depth: int, constant: bool, divisor: bool = False) -> Node:
        negative = False
        while self.peek() in ("+", "-"):
            negative ^= self.peek() == "-"
            self.pos += 1
        node = self.atom(depth, constant, divisor)
        return Negate(_unwrap(node)) if negative else node

    def atom(self, depth: int, constant: bool, divisor: bool = False) -> Node:
        """A term: dice, a number, a bracket or a name. In the divisor of ``/`` a letter F, C, U
        or R after it is the division's rounding (BCDice), not a pool or a reroll."""
        start = self.pos
        self.after_dice = False
        if self.peek() == "(":
            if depth >= limits.MAX_EXPRESSION_DEPTH:
                raise self.fail_at(start, start + 1, f"brackets nest at most "
                                   f"{limits.MAX_EXPRESSION_DEPTH} deep",
                                   f"괄호는 {limits.MAX_EXPRESSION_DEPTH}겹까지만 쓸 수 있습니다")
            self.pos += 1
            inner = self.sum(depth + 1, constant)
            if self.peek() != ")":
                raise self.unexpected("')' to close the bracket", "닫는 괄호 ')'가 와야 합니다",
                                      _AFTER_DICE if self.after_dice else ())
            self.pos += 1
            self.after_dice = False
            if self.peek() == "D" and not constant and not self.at("DH") and not self.at("DL"):
                return self.dice(start, self.counted(inner, start), divisor=divisor)
            return inner
        named = self.named(depth)
        if named is not None:
            return named
        count = self.number()
        if constant and self.peek() == "D" and count is not None:
            raise self.fail_at(start, self.pos + 1, "no dice here (counts, sides and targets are numbers)",
                               "이 자리에는 주사위를 쓸 수 없습니다 (개수·면 수·목표치에는 수와 계산만 씁니다. "
                               "BCDice도 받지 않습니다)")
        if self.peek() != "D" or constant:
            if count is None:
                if constant and self.peek() == "D":
                    raise self.fail_at(self.pos, self.pos + 1, "no dice here",
                                       "이 자리에는 주사위를 쓸 수 없습니다 (개수·면 수·목표치에는 수와 계산만 씁니다)")
                raise self.unexpected("dice (2D6) or a number", "주사위(예: 2D6)나 수가 와야 합니다")
            if self.peek() in ("B", "R", "U", "T") and not constant and not (
                    divisor and self.peek() in ("U", "R")):
                raise self.fail_at(start, self.pos + 1, f"{self.peek()} dice stand alone",
                                   f"{self.peek()} 주사위는 다른 항과 더하지 않고 그것만 씁니다")
            if count > limits.MAX_CONSTANT:
                raise self.fail_at(start, self.pos, f"constants go up to {limits.MAX_CONSTANT}",
                                   f"정수는 {limits.MAX_CONSTANT}까지 씁니다")
            self.count_atom(start)
            return Constant(count)
        multiple = next((m for m in self.names if self.at(m)), None)
        if multiple and count is not None:
            raise self.fail_at(start, self.pos + len(multiple), f"write a multiple of {multiple} "
                               f"as {multiple}+{multiple}", f"{multiple}의 배수는 {multiple}+{multiple}처럼 쓰세요")
        return self.dice(start, 1 if count is None else count, bare=count is None, divisor=divisor)

    def counted(self, inner: Sum, start: int) -> int:
        if any(isinstance(n, (Dice, D66Dice, FateDice, Special, Named)) for n in _walk(inner)):
            raise self.fail_at(start, self.pos, "the number of dice cannot be rolled",
                               "주사위 개수에는 주사위를 쓸 수 없습니다 (BCDice도 받지 않습니다)")
        return self.value(inner)

    def dice(self, start: int, count: int, bare: bool = False, divisor: bool = False) -> Node:
        self.pos += 1                                   # the D
        sides_start = self.pos
        sides = self.sides(bare, start)
        if not 1 <= count <= limits.MAX_TERM_DICE:
            raise self.fail_at(start, self.pos, f"one term rolls 1 to {limits.MAX_TERM_DICE} dice",
                               f"한 항에 굴리는 주사위는 1개부터 {limits.MAX_TERM_DICE}개까지입니다 "
                               f"(BCDice는 {limits.MAX_TERM_DICE}개를 넘거나 0개 이하면 주사위를 굴리지 않습니다)")
        self.count_atom(start)
        self.after_dice = True
        if sides == "F":
            return FateDice(count)
        if sides == 66 and self.text[sides_start:sides_start + 2] == "66":
            if self.peek() in ("K", "X", "R", "M") or (self.peek() == "!" and not self.at("!=")) \
                    or self.at("DH") or self.at("DL"):
                raise self.fail_at(self.pos, self.pos + 1, "D66 dice are only added up",
                                   "D66 주사위에는 남기기·폭발·다시 굴리기를 쓰지 않습니다")
            return D66Dice(count)
        node = self.keep(Dice(count, sides), start)
        if divisor and self.peek() in ("F", "C", "U", "R"):
            return node                                 # 1D6/1D2R: BCDice's rounding
        if isinstance(node, Dice) and node.keep is None and self.peek() in ("!", "X", "R", "C") \
                and not self.at("!="):
            return self.modifiers(Dice(count, sides), sides_start)
        found = self.unsupported(_AFTER_DICE) if self.peek() and self.pos not in self.after_space \
            and not self.at("DH") and not self.at("DL") else None
        if found and not (self.peek() == "S" and False):
            raise found
        return node

    def sides(self, bare: bool, start: int) -> "int | str":
        mark = self.pos
        if self.peek() == "%":
            self.pos += 1
            return 100
        if self.peek() == "F":
            self.pos += 1
            return "F"
        if self.at("B") and self.names == () and self.noun == "주사위 식":
            raise self.fail_at(mark - 1, mark + 1, "DB is a damage bonus, known only to damage "
                               "expressions: write it as dice (+1D4)",
                               "DB(피해 보너스)는 피해 식에서만 씁니다: 주사위로 적어 주세요 (예: +1D4)")
        if self.peek() == "(":
            sides = self.bracketed()
        else:
            sides = self.number()
            if sides is None:
                # BCDice: a count with no sides is a D6 (2D+1, 3DKH2), if letters do not follow
                if not bare and (not self.peek() or self.peek() in "+-*/)<>=!" or self.at("KH")
                                 or self.at("KL") or self.at("DH") or self.at("DL") or self.at("MAX")
                                 or self.at("MIN") or self.pos in self.after_space):
                    return 6
                raise self.unexpected("the number of sides after 'D'",
                                      "'D' 뒤에는 면 수(예: D6)나 %가 와야 합니다")
        if not 1 <= sides <= limits.MAX_SIDES:
            raise self.fail_at(mark - 1, self.pos, f"a die has 1 to {limits.MAX_SIDES} sides",
                               f"주사위 면 수는 1부터 {limits.MAX_SIDES}까지입니다")
        if bare and sides == 66 and self.text[mark:mark + 2] == "66":
            raise self.fail_at(mark - 1, self.pos, "BCDice reads D66 alone as its D66 command; in a "
                               "sum write 1D66", "D66은 BCDice에서 그것만 쓰는 명령입니다. 식 안에서는 "
                               "1D66으로 씁니다 (예: 1D66+1)")
        return sides

    def keep(self, dice: Dice, start: int) -> Node:
        """An optional KH/KL/DH/DL n, K n (Roll20's keep) or MAX/MIN after the dice (BCDice:
        ``KH0`` keeps none, keeping more than the dice keeps all, dropping all leaves 0)."""
        mark = self.pos
        if self.at("MAX") or self.at("MIN"):
            if self.peek(3).isdigit():
                raise self.unsupported(_AFTER_DICE)  # type: ignore[misc]
            side, drop, n = ("H" if self.at("MAX") else "L"), False, 1
            self.pos += 3
        else:
            if self.peek() == "K":
                self.pos += 1
                side, drop = "H", False
                if self.peek() in ("H", "L"):
                    side = self.peek()
                    self.pos += 1
            elif self.peek() == "D" and self.peek(1) in ("H", "L"):
                side, drop = self.peek(1), True
                self.pos += 2
            elif self.peek() == "D" and (self.peek(1).isdigit() or not self.peek(1)):
                raise self.fail_at(mark, mark + 1, "write dropping the lowest as DL (4D6DL1), or a "
                                   "'+' is missing", "낮은 주사위를 버리려면 DL로 쓰세요 (예: 4D6DL1). "
                                   "아니면 '+'가 빠졌습니다")
            else:
                return dice
            if self.peek() == "(":
                n = self.bracketed()
            else:
                n = self.number()
                n = 1 if n is None else n
        if self.peek() == "K" or (self.peek() == "D" and self.peek(1) in ("H", "L")):
            raise self.fail_at(self.pos, self.pos + 1, "keep or drop once per term",
                               "남기기·버리기는 한 항에 한 번만 씁니다")
        if n < 0:
            raise self.fail_at(mark, self.pos, "keep or drop 0 or more dice",
                               "남기거나 버릴 주사위 수는 0 이상입니다")
        count = dice.count
        kept = max(0, count - n) if drop else min(n, count)
        highest = (side == "H") != drop        # dropping the lowest keeps the highest
        if kept == count:
            return dice
        if kept == 0:
            return Dice(count, dice.sides, 0, True)
        return Dice(count, dice.sides, kept, highest)

    def modifiers(self, dice: Dice, sides_start: int) -> Special:
        """Roll20's and Foundry's ``!``, ``!!``, ``!p``, ``x``, ``xo``, ``r``, ``rr``, ``ro``
        (one of them) and then ``cs``."""
        count, sides = dice.count, dice.sides
        kind, faces, foundry = "", frozenset(), False
        start = self.pos
        for token, token_kind, token_foundry, what in _DIE_MODIFIERS:
            if self.at(token):
                self.pos += len(token)
                kind, foundry = token_kind, token_foundry
                faces = self.condition(sides, foundry, what)
                while token == "R" and self.peek() == "R" and not self.at("RO") and not self.at("RR"):
                    self.pos += 1                      # Roll20's 4d6r1r2: the faces add up
                    faces = faces | self.condition(sides, False, "reroll")
                break
        if kind in ("explode", "compound", "penetrate") and len(faces) >= sides:
            raise self.fail_at(start, self.pos, f"every face of d{sides} explodes: it never ends",
                               f"{sides}면 주사위의 모든 눈이 폭발해 굴림이 끝나지 않습니다 (VTT도 멈추지 않습니다)")
        if kind == "reroll" and len(faces) >= sides:
            raise self.fail_at(start, self.pos, f"every face of d{sides} is rolled again: it never ends",
                               f"{sides}면 주사위의 모든 눈을 다시 굴려 끝나지 않습니다")
        counted = None
        if self.at("CS"):
            if kind in ("penetrate",):
                raise self.fail_at(self.pos, self.pos + 2, "counting successes of penetrating dice",
                                   "관통 폭발(!p)에는 성공 세기(cs)를 쓰지 않습니다")
            mark = self.pos
            self.pos += 2
            if not (self.peek() in ("<", ">", "=") or self.peek().isdigit()):
                raise self.fail_at(mark, self.pos, "cs needs a condition (cs>=5)",
                                   "cs 뒤에는 조건을 씁니다 (예: 4d6cs>=5)")
            counted = self.condition(sides, True, "count")
        if self.peek() in ("!", "X") and not self.at("!=") or (self.peek() == "R" and kind) or \
                self.peek() == "K" or self.at("DH") or self.at("DL"):
            raise self.fail_at(self.pos, self.pos + 1, "one modifier per term (explode, reroll or keep)",
                               "한 항에는 폭발·다시 굴리기·남기기 가운데 하나만 씁니다 (cs는 그 뒤에)")
        found = self.unsupported(_AFTER_DICE) if self.peek() and self.pos not in self.after_space else None
        if found:
            raise found
        return Special(count, sides, kind, faces, counted, foundry)

    def condition(self, sides: int, foundry: bool, what: str) -> frozenset:
        """A Roll20 compare point (``>4`` is 4 or more, ``<2`` 2 or less, ``3`` or ``=3`` is 3;
        nothing: the highest face to explode, 1 to reroll) or a Foundry one (``>=4``, ``>4``
        strict, ``<=2``, ``<2``, ``=3``, ``3``)."""
        start = self.pos
        run = re.match(r"[<>=!]*", self.text[self.pos:]).group(0)
        valid = (">", "<", "=", ">=", "<=") if foundry or what == "count" else (">", "<", "=")
        op = ""
        if run and run not in valid:         # e.g. 2d6!>=7: the roll's own comparison follows
            if what == "count":
                raise self.fail_at(start, start + len(run), "not a condition", "조건의 비교 기호가 아닙니다")
            return frozenset({sides} if what == "explode" else {1})
        if run and not self.text[self.pos + len(run):self.pos + len(run) + 1].isdigit():
            if what == "count":              # cs needs its number
                raise self.fail_at(start, start + len(run), "cs needs a number", "cs 조건에는 눈 수를 씁니다")
            return frozenset({sides} if what == "explode" else {1})   # the roll's comparison: 2d6x<-3
        if run:
            op = run
            self.pos += len(run)
        n_start = self.pos
        n = self.number()
        if n is None:
            if op:
                raise self.unexpected("a face number", "조건의 눈 수가 와야 합니다")
            return frozenset({sides} if what == "explode" else {1})
        if foundry or op in ("", "="):
            test = {"": lambda f: f == n, "=": lambda f: f == n, ">=": lambda f: f >= n,
                    "<=": lambda f: f <= n, ">": lambda f: f > n, "<": lambda f: f < n}[op]
        else:                                        # Roll20: > and < include the number
            test = {">": lambda f: f >= n, "<": lambda f: f <= n}[op]
        faces = frozenset(f for f in range(1, sides + 1) if test(f))
        if not faces:
            if what == "count":
                return faces
            raise self.fail_at(start, self.pos, f"no face of d{sides} meets this condition",
                               f"{sides}면 주사위에는 이 조건에 맞는 눈이 없습니다")
        del n_start
        return faces

    def named(self, depth: int) -> Node | None:
        """A named term (``DB``), also written ``½DB``/``1/2DB`` (that name divided)."""
        if not self.names:
            return None
        start = self.pos
        divisor = 1
        if self.at("1/"):                    # "1/N" before a name: a fraction of it
            self.pos += 2
            n = self.number()
            name = next((m for m in self.names if self.at(m)), None)
            if n is None or name is None:
                self.pos = start
                return None
            divisor = n
        name = next((m for m in self.names if self.at(m)), None)
        if name is None:
            return None
        if depth:
            raise self.fail_at(start, self.pos + len(name), f"{name} goes outside brackets",
                               f"{name}는 괄호 밖에 한 항으로 씁니다")
        self.pos += len(name)
        self.count_atom(start)
        node: Node = Named(name)
        if divisor != 1:
            if not 1 <= divisor <= limits.MAX_DIVISOR:
                raise self.fail_at(start, self.pos, "bad fraction of " + name, f"{name} 분수가 올바르지 않습니다")
            node = Divided(node, divisor)
            if self.peek() in ("/", "÷"):
                raise self.fail_at(self.pos, self.pos + 1, f"halve {name} only once",
                                   f"{name}는 한 번만 나눌 수 있습니다")
        return node

    def number(self) -> int | None:
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
            if self.pos > start and self.pos in self.after_space:   # "2d6 3" is not 2D63
                raise self.fail_at(self.pos, self.pos + 1, "a space inside a number (a '+' missing?)",
                                   "수 가운데에 띄어쓰기가 있습니다 ('+'가 빠졌나요?)")
            self.pos += 1
        if start == self.pos:
            return None
        if self.pos - start > 7:
            raise self.fail_at(start, self.pos, "number too long", "수가 너무 깁니다 (7자리까지)")
        return int(self.text[start:self.pos])


def _unwrap(node: Node) -> Node:
    """A bracketed single positive term is that term ((5)÷2 stays a bracketed sum)."""
    if isinstance(node, Sum) and len(node.terms) == 1 and node.terms[0][0] > 0 and \
            not isinstance(node.terms[0][1], Constant):
        return node.terms[0][1]
    return node


def _walk(node: Node) -> Iterator[Node]:
    yield node
    if isinstance(node, Sum):
        for _, term in node.terms:
            yield from _walk(term)
    elif isinstance(node, (Divided, Negate)):
        yield from _walk(node.part)
    elif isinstance(node, Product):
        yield from _walk(node.left)
        yield from _walk(node.right)


def _constant(node: Node, zero_is_one: bool = True) -> int:
    """The value of a calculation without dice (BCDice's rounding; a division by zero gives 1
    inside a 加算ダイス roll, and is refused in BCDice's other calculations)."""
    return _replay(node, _Faces((), zero_is_one))


def _reroll_valid(again: Comparison, sides: int) -> bool:
    """BCDice's ``RerollCondition#valid?``: the condition must leave a face that does not roll again."""
    t = again.target
    return {"<=": t < sides, "<": t <= sides, ">=": t > 1, ">": t >= 1,
            "!=": 1 <= t <= sides, "=": True}[again.operator]


# --- parsing, with the size checks -----------------------------------------------------------------
_REPEAT = re.compile(r"\s*(S?)(REPEAT|REP|X)(\d+)(\s+)(?=\S)", re.I)
_REPEAT_NO_SPACE = re.compile(r"\s*S?(REPEAT|REP|X)\d+", re.I)
_CHOICE = re.compile(r"\s*(S?)CHOICE", re.I)


@lru_cache(maxsize=512)
def _parse(text: str) -> Command:
    nfkc = unicodedata.normalize("NFKC", text)
    if len(nfkc) == len(text):
        repeat = _REPEAT.match(nfkc)
        if repeat:
            return _parse_repeat(text, repeat)
        if _CHOICE.match(nfkc):
            return _parse_choice(text, nfkc)
    if _REPEAT_NO_SPACE.match(nfkc) and not re.match(r"\s*S?X\d+D", nfkc, re.I):
        raise _Reader(text, (), "주사위 식").fail(
            "the command to repeat goes after a space (x5 2D6)",
            "반복할 명령은 한 칸 띄고 씁니다 (예: x5 2D6)")
    command = _Reader(text, (), "주사위 식").command()
    if isinstance(command, Roll):
        _plan_roll(command)              # refuse what would take too long before computing
    return command


def _parse_repeat(text: str, match: re.Match) -> RepeatRoll:
    times = int(match.group(3))
    reader = _Reader(text, (), "주사위 식")
    if not 1 <= times <= limits.MAX_REPEAT:
        raise reader.fail(f"repeat 1 to {limits.MAX_REPEAT} times",
                          f"반복은 1번부터 {limits.MAX_REPEAT}번까지입니다 (BCDice의 한도)")
    rest = text[match.end():]
    if _REPEAT.match(unicodedata.normalize("NFKC", rest)) or \
            _REPEAT_NO_SPACE.match(unicodedata.normalize("NFKC", rest)):
        raise reader.fail("a repeat cannot repeat a repeat",
                          "반복 명령은 겹쳐 쓸 수 없습니다 (BCDice: Repeatコマンドの重複はできません)")
    if _CHOICE.match(unicodedata.normalize("NFKC", rest)):
        inner: Command = _parse_choice(rest, unicodedata.normalize("NFKC", rest))
    else:
        inner = _Reader(text, (), "주사위 식", start=match.end()).command()
        if isinstance(inner, Roll):
            _plan_roll(inner)
    keyword = match.group(2).lower()
    return _commands().RepeatRoll(times, inner, ("s" if match.group(1) else "") + keyword)


def _parse_choice(text: str, nfkc: str) -> ChoiceRoll:
    """BCDice's ``Choice.parse``: the delimiter follows ``choice`` and its count."""
    reader = _Reader(text, (), "주사위 식")
    m = re.match(r"\s*(S?)CHOICE(\d*)", nfkc, re.I)
    secret, takes = bool(m.group(1)), int(m.group(2) or 1)
    rest = nfkc[m.end():]
    if takes == 0:
        raise reader.fail("choose at least one", "choice0은 명령이 아닙니다: 하나 이상 고릅니다")
    if rest[:1] == "[":
        close = rest.find("]")
        body, brackets = rest[1:close] if close >= 0 else None, "[]"
        items = None if body is None else body.split(",")
    elif rest[:1] == "(":
        close = rest.find(")")
        body, brackets = rest[1:close] if close >= 0 else None, "()"
        items = None if body is None else body.split(",")
    elif rest[:1].isspace():
        items, brackets = rest.split(), " "
    else:
        items, brackets = None, ""
    if items is None:
        raise reader.fail("write the items as choice[A,B,C], choice(A,B,C) or choice A B C",
                          "고를 항목은 choice[A,B,C], choice(A,B,C), choice A B C처럼 씁니다")
    items = [item.strip() for item in items if item.strip()]
    if len(items) == 1:
        items = _choice_range(items[0]) or []      # BCDice: one item that is not a range is nothing
    if len(items) > limits.MAX_CHOICE_ITEMS:
        raise reader.fail(f"at most {limits.MAX_CHOICE_ITEMS} items",
                          f"항목은 {limits.MAX_CHOICE_ITEMS}개까지입니다 (BCDice의 한도)")
    if not items or len(items) < takes:
        raise reader.fail(f"there are fewer items than the {takes} to choose",
                          f"고를 항목이 {takes}개보다 적습니다")
    return _commands().ChoiceRoll(tuple(items), takes, brackets, secret)


def _choice_range(item: str) -> list[str] | None:
    """BCDice's shorthand: a single item ``A-D`` or ``3-7`` stands for the range."""
    m = re.fullmatch(r"(\d+)-(\d+)", item)
    if m and int(m.group(1)) <= int(m.group(2)) and int(m.group(2)) - int(m.group(1)) < 1000:
        return [str(v) for v in range(int(m.group(1)), int(m.group(2)) + 1)]
    m = re.fullmatch(r"([a-z])-([a-z])", item) or re.fullmatch(r"([A-Z])-([A-Z])", item)
    if m and m.group(1) <= m.group(2):
        return [chr(c) for c in range(ord(m.group(1)), ord(m.group(2)) + 1)]
    return None


@lru_cache(maxsize=512)
def _parse_expression(text: str, names: tuple[str, ...], noun: str) -> Sum:
    reader = _Reader(text, names, noun)
    expression, _, _ = reader.roll(comparison=False)
    if reader.peek():
        if reader.peek() == ")":
            raise reader.fail_at(reader.pos, reader.pos + 1, "a ')' without its '('",
                                 "여는 괄호 '(' 없이 닫는 괄호가 왔습니다")
        raise reader.unexpected("'+', '-' or the end", "'+', '-' 또는 식의 끝",
                                _AFTER_DICE if reader.after_dice else ())
    if _is_open(expression):
        raise reader.fail("a damage expression has no exploding dice",
                          "피해 식에는 폭발 주사위를 쓰지 않습니다")
    _plan(_substitute(expression, {n: _ZERO for n in names}))
    return expression


# --- computing ------------------------------------------------------------------------------------
_ZERO = Sum(((1, Constant(0)),))


def _split_values(values) -> tuple[dict[str, Sum], dict[str, Dist]]:
    nodes: dict[str, Sum] = {}
    dists: dict[str, Dist] = {}
    for name, value in (values or {}).items():
        if isinstance(value, Dist):
            dists[name] = value
        elif isinstance(value, Sum):
            nodes[name] = value
        else:
            raise RuleInputError(f"a named term's value is a Sum or a Dist, got {shown(value)}",
                                 f"이름 붙은 항의 값은 식이나 분포여야 합니다 (입력값: {shown(value)}).")
    return nodes, dists


def _substitute(node: Node, values: Mapping[str, Sum]) -> Node:
    """``node`` with each named term replaced by its value (a sum, flattened when added)."""
    if isinstance(node, Named):
        return values.get(node.name, node)
    if isinstance(node, Divided):
        return Divided(_substitute(node.part, values), node.divisor)
    if isinstance(node, Negate):
        return Negate(_substitute(node.part, values))
    if isinstance(node, Product):
        return Product(_substitute(node.left, values), node.op, _substitute(node.right, values),
                       node.rounding)
    if isinstance(node, Sum):
        return Sum(tuple((s, _substitute(t, values)) for s, t in node.terms))
    return node


def _flat(node: Sum, sign: int = 1):
    """The signed terms of a sum, sums inside it (undivided) opened up."""
    for s, term in node.terms:
        if isinstance(term, Sum):
            yield from _flat(term, sign * s)
        else:
            yield sign * s, term


_OPEN_KINDS = ("explode", "compound", "penetrate")


def _is_open(node: Node) -> bool:
    """Does the expression hold a roll that can go on without end?"""
    return any(isinstance(n, Special) and n.kind in _OPEN_KINDS for n in _walk(node))


def _evaluate(node: Node, ops, dists: Mapping[str, Dist]):
    """Evaluate ``node`` with ``ops``: :data:`_COMPUTE` gives the distribution, :class:`_Plan`
    its shape and the work (the same steps, so the plan checks what the computation will do).

    In a sum, all plain dice of one sign make one :func:`~widgets.dice.dice_groups_sum` (a
    recurrence over the totals, never a product of big distributions); other terms are added
    to the constants first, the plain dice last."""
    if isinstance(node, Constant):
        return ops.constant(node.value)
    if isinstance(node, Dice):
        if node.keep is None:
            return ops.dice(((node.count, node.sides),))
        if node.keep == 0:
            return ops.constant(0)
        return ops.keep(node.count, node.keep, node.sides, node.highest)
    if isinstance(node, D66Dice):
        return ops.d66(node.count)
    if isinstance(node, FateDice):
        return ops.fate(node.count)
    if isinstance(node, Special):
        return ops.special(node)
    if isinstance(node, Divided):
        return ops.divide(_evaluate(node.part, ops, dists), node.divisor)
    if isinstance(node, Negate):
        return ops.negate(_evaluate(node.part, ops, dists))
    if isinstance(node, Product):
        return ops.product(_evaluate(node.left, ops, dists), _evaluate(node.right, ops, dists),
                           node.op, node.rounding)
    if isinstance(node, Named):
        if node.name not in dists:
            raise RuleInputError(f"no value given for {node.name}", f"{node.name} 값이 없습니다.")
        return ops.given(dists[node.name])
    plain: dict[int, list[tuple[int, int]]] = {1: [], -1: []}
    constant = 0
    parts: list[tuple[int, Node]] = []
    for sign, term in _flat(node):
        if isinstance(term, Dice) and term.keep is None:
            plain[sign].append((term.count, term.sides))
        elif isinstance(term, Constant):
            constant += sign * term.value
        else:
            parts.append((sign, term))
    total = ops.constant(constant)
    for sign, term in parts:
        part = _evaluate(term, ops, dists)
        total = ops.add(total, part if sign > 0 else ops.negate(part))
    for sign, groups in plain.items():
        if groups:
            part = ops.dice(tuple(groups))
            total = ops.add(total, part if sign > 0 else ops.negate(part))
    return total


def _special_die(node: Special) -> Dist:
    """One die of a Roll20/Foundry term that ends by itself (rerolled, exploding once), or the
    count of its counted faces: exact, small."""
    s, faces = node.sides, node.faces
    if node.kind == "reroll":
        final = {v: 1 for v in range(1, s + 1) if v not in faces}
    elif node.kind == "reroll_once":
        final = {v: (s if v not in faces else 0) + len(faces) for v in range(1, s + 1)}
    elif node.kind == "explode_once":
        if node.counted is not None:
            c = node.counted
            out: dict[int, int] = {}
            for v in range(1, s + 1):
                if v not in faces:
                    out[int(v in c)] = out.get(int(v in c), 0) + s
                else:
                    for u in range(1, s + 1):
                        k = int(v in c) + int(u in c)
                        out[k] = out.get(k, 0) + 1
            return Dist(out)
        out = {}
        for v in range(1, s + 1):
            if v not in faces:
                out[v] = out.get(v, 0) + s
            else:
                for u in range(1, s + 1):
                    out[v + u] = out.get(v + u, 0) + 1
        return Dist(out)
    else:
        final = {v: 1 for v in range(1, s + 1)}
    if node.counted is None:
        return Dist(final)
    hits = sum(w for v, w in final.items() if v in node.counted)
    return Dist({0: sum(final.values()) - hits, 1: hits})


class _Compute:
    """The distributions themselves (every step one call into :mod:`widgets.dice`)."""

    constant = staticmethod(Dist.constant)
    dice = staticmethod(dice_groups_sum)

    @staticmethod
    def keep(count: int, keep: int, sides: int, highest: bool) -> Dist:
        return (keep_highest if highest else keep_lowest)(count, keep, sides)

    @staticmethod
    def d66(count: int) -> Dist:
        units = _dice.dice_sum(count, 6)
        return units.map(lambda v: 10 * v) + units      # the tens dice and the units dice

    @staticmethod
    def fate(count: int) -> Dist:
        return dice_groups_sum(((count, 3),)) + (-2 * count)

    @staticmethod
    def special(node: Special) -> Dist:
        return _special_die(node).repeat_sum(node.count)

    @staticmethod
    def add(a: Dist, b: Dist) -> Dist:
        return a + b

    @staticmethod
    def negate(a: Dist) -> Dist:
        return -a

    @staticmethod
    def divide(dist: Dist, divisor: int) -> Dist:
        return _divided(dist, divisor)

    @staticmethod
    def product(a: Dist, b: Dist, op: str, rounding: str) -> Dist:
        f = (lambda x, y: x * y) if op == "*" else (lambda x, y: _bc_div(x, y, rounding))
        if len(b.outcomes()) == 1:
            c = b.min
            return a.map(lambda v: f(v, c))
        if len(a.outcomes()) == 1:
            c = a.min
            return b.map(lambda v: f(c, v))
        limits.check_pairs(len(a.outcomes()) * len(b.outcomes()))
        out: dict[int, int] = {}
        bw = b.weights
        for v, w in a.weights.items():
            for u, x in bw.items():
                key = f(v, u)
                out[key] = out.get(key, 0) + w * x
        return Dist(out)

    @staticmethod
    def given(dist: Dist) -> Dist:
        return dist


_COMPUTE = _Compute()


def _divided(dist: Dist, divisor: int) -> Dist:
    """``dist`` with every outcome put through :func:`divide_up` (whole numbers, so the
    rounding is ``-(-n // d)``, the whole-number case of ``round_up``; tests check they agree)."""
    def one(v: int) -> int:
        magnitude = -(-abs(v) // divisor)
        return magnitude if v >= 0 else -magnitude
    return dist.map(one)


class _Shape(NamedTuple):
    """What a step's distribution will look like: totals ``low`` … ``high`` and ``bits``, at
    least the bit length of its total weight."""

    low: int
    high: int
    bits: int

    @property
    def width(self) -> int:
        return self.high - self.low + 1


def _product_bounds(a: _Shape, b: _Shape, op: str, rounding: str) -> tuple[int, int]:
    """The lowest and highest value of ``a op b``: at the corners, and for a division also at
    the divisors nearest zero (−1, 1; and 0 gives 1)."""
    xs = {a.low, a.high}
    ys = {b.low, b.high} | {y for y in (-1, 1, 0) if b.low <= y <= b.high}
    if op == "*":
        values = [x * y for x in xs for y in ys]
    else:
        values = [_bc_div(x, y, rounding) for x in xs for y in ys]
    return min(values), max(values)


class _Plan:
    """The same steps on shapes: each checks the limits the computation would, and the work of
    the whole expression adds up against one budget (so twelve big terms cannot each take a
    second)."""

    def __init__(self) -> None:
        self.plain: dict[int, int] = {}
        self.keep_work = 0
        self.product_bits = 0

    def budget(self, bits: int) -> None:
        self.product_bits += bits
        limits.check_expression_work(self.keep_work, self.product_bits)

    def constant(self, value: int) -> _Shape:
        return _Shape(value, value, 1)

    def dice(self, groups) -> _Shape:
        total = 1
        for count, sides in groups:
            self.plain[sides] = self.plain.get(sides, 0) + count
            total *= sides ** count
        limits.check_sum_groups(self.plain.items())   # all plain dice of the expression
        self.budget(groups_product_bits(groups))        # more than four sizes: products
        return _Shape(sum(n for n, _ in groups), sum(n * s for n, s in groups), total.bit_length())

    def keep(self, count: int, keep: int, sides: int, highest: bool) -> _Shape:
        limits.check_keep(count, keep, sides)
        self.keep_work += limits.keep_work(count, keep, sides)
        self.budget(0)
        return _Shape(keep, keep * sides, (sides ** count).bit_length())

    def d66(self, count: int) -> _Shape:
        if count > limits.MAX_D66_DICE:
            raise RuleInputError(f"at most {limits.MAX_D66_DICE} D66 rolls in one term, got {count}",
                                 f"한 항에 더하는 D66은 {limits.MAX_D66_DICE}개까지입니다 (입력: {count}개).")
        limits.check_sum(count, 6)
        bits = (6 ** count).bit_length()
        self.budget(dense_sum_bits(50 * count + 1, 5 * count + 1, bits, bits))
        return _Shape(11 * count, 66 * count, 2 * bits)

    def fate(self, count: int) -> _Shape:
        limits.check_sum(count, 3)
        return _Shape(-count, count, (3 ** count).bit_length())

    def special(self, node: Special) -> _Shape:
        die = _special_die(node)
        n = node.count
        width = n * (die.max - die.min) + 1
        limits.check_sum_size(width, "dice", "주사위")
        bits = n * die.total.bit_length()
        self.budget(2 * n.bit_length() * dense_sum_bits(width, width, bits, bits))
        return _Shape(n * die.min, n * die.max, bits)

    def add(self, a: _Shape, b: _Shape) -> _Shape:
        if a.width == 1 or b.width == 1:      # a single value only shifts the other
            return _Shape(a.low + b.low, a.high + b.high, b.bits if a.width == 1 else a.bits)
        if a.width * b.width > 64:            # Dist + Dist adds tiny ones pairwise, others packed
            limits.check_sum_size(a.width + b.width - 1)
            self.budget(dense_sum_bits(a.width, b.width, a.bits, b.bits))
        return _Shape(a.low + b.low, a.high + b.high, a.bits + b.bits)

    def negate(self, a: _Shape) -> _Shape:
        return _Shape(-a.high, -a.low, a.bits)

    def divide(self, a: _Shape, divisor: int) -> _Shape:
        return _Shape(divide_up(a.low, divisor), divide_up(a.high, divisor), a.bits)

    def product(self, a: _Shape, b: _Shape, op: str, rounding: str) -> _Shape:
        if a.width > 1 and b.width > 1:
            limits.check_pairs(a.width * b.width)
        low, high = _product_bounds(a, b, op, rounding)
        return _Shape(low, high, a.bits + b.bits)

    def given(self, dist: Dist) -> _Shape:   # pragma: no cover - plans never see a Dist
        raise AssertionError("a plan has no distributions")


def _plan(expression: Node) -> _Shape:
    """Check ``expression`` against the limits without computing it; its shape."""
    return _evaluate(expression, _Plan(), {})


@lru_cache(maxsize=64)    # the biggest distributions hold a few MB each
def _dist(expression: Sum) -> Dist:
    _plan(expression)
    return _evaluate(expression, _COMPUTE, {})


def _bounded(node: Node) -> Dist:
    return _dist(node if isinstance(node, Sum) else Sum(((1, node),)))


def _bounded_shape(node: Node) -> _Shape:
    return _plan(node if isinstance(node, Sum) else Sum(((1, node),)))


# --- rolls that can go on without end ------------------------------------------------------------
def _open_spec(node: Special) -> tuple[tuple, int, tuple, int]:
    """(P, m, K, n) of an exploding term (:func:`~widgets.dice.open_series`)."""
    if node.counted is not None:
        P, m, K = _dice.chain_series(node.sides, node.faces, node.counted)
    else:
        P, m, K = _dice.explode_series(node.sides, node.faces, node.kind == "penetrate")
    return P, m, K, node.count


def _dice_count_spec(node: Special) -> tuple[tuple, int, tuple, int]:
    """(P, m, K, n) of the number of dice an exploding term rolls."""
    s, e = node.sides, len(node.faces)
    return ((1, s - e),), s, (((1, e),) if e else ()), node.count


def _open_check(node: Node, top: bool = True) -> None:
    """Where an exploding term may stand: added (not subtracted), or multiplied or divided by a
    positive number; refused anywhere else (its distribution is shown up to where the rest is
    tiny, which needs the outcomes to grow with it)."""
    if not _is_open(node) or isinstance(node, Special):
        return
    if isinstance(node, Sum):
        for sign, term in node.terms:
            if sign < 0 and _is_open(term):
                raise _open_refusal("subtracted")
            _open_check(term, False)
        return
    if isinstance(node, Product):
        opened, other = (node.left, node.right) if _is_open(node.left) else (node.right, node.left)
        if _is_open(other) or (node.op == "/" and opened is node.right):
            raise _open_refusal("multiplied by or divided by dice")
        value = _constant_or_none(other)
        if value is None or value < 0:
            raise _open_refusal("multiplied or divided by a number that is not a positive whole number")
        _open_check(opened, False)
        return
    if isinstance(node, Divided):
        _open_check(node.part, False)
        return
    raise _open_refusal("negated")


def _open_refusal(how: str) -> RuleInputError:
    return RuleInputError(f"exploding dice can only be added, or multiplied or divided by a positive "
                          f"number (here they are {how})",
                          "폭발 주사위(끝없이 이어질 수 있는 굴림)는 더하거나 양수로 곱하고 나누는 데만 씁니다 "
                          "(빼기, 주사위와 곱하기·나누기, 부호 바꾸기에는 쓰지 않습니다)")


def _constant_or_none(node: Node) -> int | None:
    if any(isinstance(n, (Dice, D66Dice, FateDice, Special, Named)) for n in _walk(node)):
        return None
    return _constant(node)


def _open_low(node: Node) -> int:
    """No outcome of ``node`` is below this."""
    if isinstance(node, Special) and node.kind in _OPEN_KINDS:
        P, _, _, n = _open_spec(node)
        return P[0][0] * n
    if not _is_open(node):
        return _bounded_shape(node).low
    if isinstance(node, Sum):
        return sum(_open_low(t) if s > 0 else -_bounded_shape(t).high for s, t in node.terms)
    if isinstance(node, Divided):
        return divide_up(_open_low(node.part), node.divisor)
    opened, value, f = _open_map(node)  # type: ignore[arg-type]
    return f(_open_low(opened))


def _open_map(node: Product):
    """(the exploding operand, the number, the map) of a product or division of an exploding term."""
    if _is_open(node.left):
        opened, value = node.left, _constant(node.right)
    else:
        opened, value = node.right, _constant(node.left)
    if node.op == "*":
        return opened, value, (lambda v, c=value: v * c)
    return opened, value, (lambda v, c=value, r=node.rounding: _bc_div(v, c, r))


def _open_reach(node: Node, rest: Fraction) -> int:
    """A value ``node`` reaches with probability at most its share of ``rest``."""
    if isinstance(node, Special) and node.kind in _OPEN_KINDS:
        return _dice.series_reach(*_open_spec(node), rest)
    if not _is_open(node):
        return _bounded_shape(node).high + 1
    if isinstance(node, Sum):
        return 1 + sum((_open_reach(t, rest) - 1) if s > 0 else -_bounded_shape(t).low
                       for s, t in node.terms)
    if isinstance(node, Divided):
        return divide_up(_open_reach(node.part, rest) - 1, node.divisor) + 1
    opened, value, f = _open_map(node)  # type: ignore[arg-type]
    return f(_open_reach(opened, rest) - 1) + 1


def _open_eval(node: Node, need: int, plan: bool) -> "Dist | OpenDist | _Shape":
    """The distribution of ``node``, exact below ``need``; with ``plan``, only the checks and
    its shape (lowest outcome, highest computed, bits of its total weight), so that the sums of
    an exploding term with other terms are checked before any of them is computed."""
    if isinstance(node, Special) and node.kind in _OPEN_KINDS:
        P, m, K, n = _open_spec(node)
        low = P[0][0] * n
        cut = max(need, low)
        limits.check_open(cut - low, *_dice.series_work(P, m, K, n, cut))
        if plan:
            jumps = _dice._series_shape(P, m, K, n, cut)[2]
            return _Shape(low, cut - 1, int((n + jumps) * m.bit_length()) + 1)
        return _dice.open_series(P, m, K, n, below=cut)
    if not _is_open(node):
        return _bounded_shape(node) if plan else _bounded(node)
    if isinstance(node, Sum):
        lows = [(_open_low(t) if s > 0 else -_bounded_shape(t).high) for s, t in node.terms]
        total_low = sum(lows)
        result = None
        for (sign, term), low in zip(node.terms, lows):
            part = _open_eval(term, need - (total_low - low), plan)
            if plan:
                shape = part if sign > 0 else _Shape(-part.high, -part.low, part.bits)
                if result is not None and result.width > 1 and shape.width > 1:
                    bits = dense_sum_bits(min(result.width, need - result.low + 1),
                                          min(shape.width, need - shape.low + 1), result.bits, shape.bits)
                    limits.check_open(0, 0, bits)
                result = shape if result is None else _Shape(result.low + shape.low, min(
                    result.high + shape.high, need), result.bits + shape.bits)
                continue
            if sign < 0:
                part = -part  # type: ignore[operator]
            result = part if result is None else result + part  # type: ignore[operator]
        return result  # type: ignore[return-value]
    if isinstance(node, Divided):
        f = (lambda v, d=node.divisor: divide_up(v, d))
        opened, mean_of, scale = node.part, None, node.divisor
    else:
        opened, value, f = _open_map(node)  # type: ignore[arg-type]
        if value == 0:                       # times 0 is 0; BCDice's division by 0 is 1
            constant = 0 if node.op == "*" else 1
            return _Shape(constant, constant, 1) if plan else Dist.constant(constant)
        mean_of = value if node.op == "*" else None
        scale = abs(value)
    low = _open_low(opened)
    lo, hi = low, max(low, need) * scale + 2
    while lo < hi:                           # the least v with f(v) ≥ need (f never decreases)
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if f(mid) < need else (lo, mid)
    part = _open_eval(opened, lo, plan)
    if plan:
        return _Shape(f(part.low), max(f(part.low), f(part.high)), part.bits)
    if isinstance(part, Dist):
        return part.map(f)
    mean = None if mean_of is None or part.mean() is None else part.mean() * mean_of
    return part.map_increasing(f, mean)


def _open_primitives(node: Node) -> list[Special]:
    return [n for n in _walk(node) if isinstance(n, Special) and n.kind in _OPEN_KINDS]


def _open_need(expression: Sum, comparison: Comparison | None) -> tuple[int, int | None]:
    primitives = _open_primitives(expression)
    share = limits.OPEN_REST / (2 * len(primitives))
    floor = None if comparison is None else comparison.target + 1
    need = _open_reach(expression, share)
    return (need if floor is None else max(need, floor)), floor


def _check_dice_count(specs: list[tuple], plain_dice: int) -> None:
    """Refuse a roll that could pass BCDice's 10,000 dice with a chance above the rest shown."""
    share = limits.OPEN_REST / (2 * max(1, len(specs)))
    reach = plain_dice + sum(_dice.series_reach(*spec, share) - 1 for spec in specs)
    if reach > limits.MAX_ROLLED_DICE:
        raise RuleInputError(
            f"the roll could roll more than {limits.MAX_ROLLED_DICE} dice (BCDice stops there)",
            f"이 굴림은 주사위를 {limits.MAX_ROLLED_DICE}개 넘게 굴릴 수 있습니다 (BCDice는 거기서 멈춥니다): "
            "받지 않습니다")


def _plan_roll(roll: Roll) -> None:
    """All the checks of a 加算ダイス roll, before anything is computed."""
    if not _is_open(roll.expression):
        _plan(roll.expression)
        return
    _open_check(roll.expression)
    primitives = _open_primitives(roll.expression)
    plain = sum(n.count for n in _walk(roll.expression) if isinstance(n, (Dice, FateDice, Special)))
    _check_dice_count([_dice_count_spec(n) for n in primitives], plain)
    need, _ = _open_need(roll.expression, roll.comparison)
    _open_eval(roll.expression, need, plan=True)


@lru_cache(maxsize=64)
def _open_total(expression: Sum, comparison: Comparison | None) -> "Dist | OpenDist":
    """An expression with exploding dice, shown until the rest is at most
    :data:`~widgets.limits.OPEN_REST` and past the target of a comparison."""
    _open_check(expression)
    need, floor = _open_need(expression, comparison)
    for _ in range(4):
        result = _open_eval(expression, need, plan=False)
        if isinstance(result, Dist):
            return result
        trimmed = result.trimmed(limits.OPEN_REST, keep_below=floor)  # type: ignore[union-attr]
        if trimmed.rest_probability() <= limits.OPEN_REST:
            return trimmed
        need += max(16, (need - trimmed.low) // 2)
        _open_eval(expression, need, plan=True)
    raise RuleInputError("the roll goes on too long to show", "굴림이 너무 길게 이어져 보여 줄 수 없습니다.")




# --- replaying a roll ------------------------------------------------------------------------------
def _replay(node: Node, rolls: _Faces) -> int:
    """The value of ``node`` for the dice in ``rolls``, read in BCDice's order (left to right)."""
    if isinstance(node, Constant):
        return node.value
    if isinstance(node, Dice):
        values = sorted(rolls.take(node.sides) for _ in range(node.count))
        if node.keep is None:
            return sum(values)
        return sum(values[len(values) - node.keep:] if node.highest else values[:node.keep]) \
            if node.keep else 0
    if isinstance(node, D66Dice):
        return sum(10 * rolls.take(6) + rolls.take(6) for _ in range(node.count))
    if isinstance(node, FateDice):
        return sum(rolls.take(3) - 2 for _ in range(node.count))
    if isinstance(node, Special):
        return sum(_replay_special(node, rolls) for _ in range(node.count))
    if isinstance(node, Divided):
        return divide_up(_replay(node.part, rolls), node.divisor)
    if isinstance(node, Negate):
        return -_replay(node.part, rolls)
    if isinstance(node, Product):
        left = _replay(node.left, rolls)
        right = _replay(node.right, rolls)
        if node.op == "/" and right == 0 and not rolls.zero_is_one:
            raise RuleInputError("division by zero", "0으로 나눌 수 없습니다 (BCDice: ゼロ除算)")
        return left * right if node.op == "*" else _bc_div(left, right, node.rounding)
    if isinstance(node, Named):
        raise RuleInputError(f"no value given for {node.name}", f"{node.name} 값이 없습니다.")
    return sum(sign * _replay(term, rolls) for sign, term in node.terms)


def _replay_special(node: Special, rolls: _Faces) -> int:
    """One die of a Roll20/Foundry term: its value, or with ``cs`` how many results count."""
    s, faces, kind = node.sides, node.faces, node.kind
    results = [rolls.take(s)]
    if kind in _OPEN_KINDS:
        while results[-1] in faces:
            results.append(rolls.take(s))
    elif kind == "explode_once" and results[0] in faces:
        results.append(rolls.take(s))
    elif kind == "reroll":
        while results[-1] in faces:
            results[-1] = rolls.take(s)
    elif kind == "reroll_once" and results[0] in faces:
        results[0] = rolls.take(s)
    if node.counted is not None:
        return sum(r in node.counted for r in results)
    if kind == "penetrate":
        return results[0] + sum(r - 1 for r in results[1:])
    return sum(results)


del islice, Iterator
