"""Dice-bot notation: exact odds of the rolls a table types into BCDice, Roll20 or Foundry.

Korean tables roll with dice bots (BCDice on ccfolia and Discord) and virtual tabletops (Roll20,
Foundry) whose notation the players already type: ``2D6+3``, ``1D100<=45``, ``4D6KH3``,
``3D6>=10``. This module reads that notation with one small hand-written reader (never
``eval``) and answers with exact distributions built on :mod:`widgets.dice`. The same reader
reads the damage expressions of :mod:`widgets.damage` (this notation plus the DB terms).

Grammar (upper or lower case; spaces are ignored; the text is NFKC-normalised first, so
full-width ``１ｄ６＋３`` reads as ``1D6+3``; ``−`` (U+2212), ``–`` and ``—`` are minus, ``÷``
and ``/`` divide, ``≥``/``≧`` and ``≤``/``≦`` compare)::

    roll       = sum [comparison]
    sum        = [sign] term {sign term}                sign = "+" | "-"
    term       = dice [divide] | "(" sum ")" [divide] | whole number
    dice       = [count] "D" (sides | "%") [keep]       D6 = 1D6, D% = 1D100
    keep       = ("KH" | "KL" | "DH" | "DL" | "K") [n]  n defaults to 1; K alone is KH
    divide     = ("/" | "÷") n ["U"]                    divide, then round up
    comparison = (">=" | "<=" | ">" | "<" | "=") [sign] whole number

- ``KH n``/``KL n`` keep the n highest/lowest dice (BCDice writes ``4D6KH3``), ``DH n``/``DL n``
  drop them (``4D6DL1`` is ``4D6KH3``); the canonical form (``str``) always writes KH/KL.
- Division rounds up, as Underface writes ``1D6÷2`` (:func:`divide_up`: the size is rounded up,
  then the sign applies, so ``-(1D6÷2)`` and ``(-1D6)÷2`` agree). BCDice's own ``/`` rounds
  down (it rounds up only with ``/2U``); here ``/2`` and ``/2U`` both round up. Division applies
  to a dice term or a bracketed sum, once per term; a plain number is written already divided.
- Brackets matter only for division (``(1D6+1D4)÷2``); at most
  :data:`~widgets.limits.MAX_EXPRESSION_DEPTH` deep.
- One comparison may end the roll; it compares the **total** with a whole number, as BCDice
  does, and turns the answer into success/failure odds (Roll20's ``3d6>4`` counts dice instead;
  that is not this).

Not supported, and refused with a Korean message that names what was typed
(``widgets.views.dice_calc.UNSUPPORTED_KO`` says it for the page): exploding dice (``!``, Foundry's ``x``),
rerolls (``r``, ``ro``), counting successes die by die (BCDice's ``B`` dice, Foundry's ``cs``),
BCDice's ``R`` and ``U`` dice, ``D66`` and game commands (``CC``…), multiplication (``*``,
``×``), powers, "not equal" (``<>``, ``!=``), decimals, several rolls at once, comments.

Every expression is checked against :mod:`widgets.limits` before anything is computed (text
length, terms, brackets, dice, sides, the work of keeping dice and of adding distributions),
so an accepted one answers within about a second and a refused one at once.

>>> roll_odds("1D100<=45")
{'success': Fraction(9, 20), 'failure': Fraction(11, 20)}
>>> str(parse("4d6dl1")), distribution("4D6KH3").probability(18)
('4D6KH3', Fraction(7, 432))
>>> parse("2+x")
Traceback (most recent call last):
...
widgets.errors.RuleInputError: cannot read dice expression '2+x': unexpected 'X' at position 3
>>> try:
...     parse("2+x")
... except ValueError as err:
...     print(err.korean)
'2+x'를 주사위 식으로 읽을 수 없습니다: 3번째 글자 'x'를 읽을 수 없습니다
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Literal, Mapping, NamedTuple, Union

from . import limits
from .dice import Dist, dense_sum_bits, dice_groups_sum, groups_product_bits, keep_highest, keep_lowest
from .errors import (RuleInputError, particle, require_choice, require_int, require_items, round_up,
                     shown)


# --- the rounding of a divided roll --------------------------------------------------------
def divide_up(value: int, divisor: int) -> int:
    """A rolled result divided by ``divisor``, rounded up, with its sign applied afterwards.

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


def _divided(dist: Dist, divisor: int) -> Dist:
    """``dist`` with every outcome put through :func:`divide_up` (whole numbers, so the
    rounding is ``-(-n // d)``, the whole-number case of ``round_up``; tests check they agree)."""
    def one(v: int) -> int:
        magnitude = -(-abs(v) // divisor)
        return magnitude if v >= 0 else -magnitude
    return dist.map(one)


# --- the parsed expression ----------------------------------------------------------------
@dataclass(frozen=True)
class Dice:
    """``count`` dice with ``sides`` faces; with ``keep``, only the ``keep`` highest (or, with
    ``highest=False``, lowest) of them count.

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
    """``part`` divided by ``divisor`` and rounded up (:func:`divide_up`).

    >>> str(Divided(Dice(1, 6), 2)), str(parse("(1d6+1d4)/2"))
    ('1D6÷2', '(1D6+1D4)÷2')
    """

    part: "Node"
    divisor: int

    def __str__(self) -> str:
        inner = f"({self.part})" if isinstance(self.part, (Sum, Divided)) else str(self.part)
        return f"{inner}÷{self.divisor}"


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
            text = f"({term})" if isinstance(term, Sum) else str(term)
            out.append(("-" if sign < 0 else "+" if i else "") + text)
        return "".join(out) or "0"

    def dist(self, values: "Mapping[str, Sum | Dist] | None" = None) -> Dist:
        """Exact distribution of the sum; ``values`` gives each named term (a :class:`Sum`, or a
        :class:`~widgets.dice.Dist` of the caller's own)."""
        nodes, dists = _split_values(values)
        expression = _substitute(self, nodes) if nodes else self
        if dists:
            # a caller's own distribution may have any shape: the dice library checks each step
            return _evaluate(expression, _COMPUTE, dists)
        return _dist(expression)

    def bounds(self, values: "Mapping[str, Sum] | None" = None) -> tuple[int, int]:
        """Lowest and highest total, known without computing the distribution (the size
        checks run, so a sum too big to compute is refused here too)."""
        nodes, dists = _split_values(values)
        if dists:
            raise RuleInputError("bounds() takes named terms as sums, not distributions",
                                 "범위를 미리 셀 때는 이름 붙은 항을 식으로 주어야 합니다.")
        shape = _plan(_substitute(self, nodes) if nodes else self)
        return shape.low, shape.high


#: One node of a parsed expression.
Node = Union[Dice, Constant, Named, Divided, Sum]

Operator = Literal[">=", "<=", ">", "<", "="]


@dataclass(frozen=True)
class Comparison:
    """The comparison that ends a roll: the total against ``target``.

    >>> Comparison(">=", 10).holds(12), str(Comparison("<=", 45))
    (True, '<=45')
    """

    operator: Operator
    target: int

    def holds(self, total: int) -> bool:
        t = self.target
        return {">=": total >= t, "<=": total <= t, ">": total > t, "<": total < t,
                "=": total == t}[self.operator]

    def __str__(self) -> str:
        return f"{self.operator}{self.target}"


@dataclass(frozen=True)
class Roll:
    """A parsed roll: an expression and an optional comparison (see :func:`parse`).

    >>> roll = parse("3D6 >= 10")
    >>> str(roll), roll.dist().probability(10), roll.odds()["success"]
    ('3D6>=10', Fraction(1, 8), Fraction(5, 8))
    """

    expression: Sum
    comparison: Comparison | None = None

    def __str__(self) -> str:
        return f"{self.expression}{self.comparison or ''}"

    def dist(self) -> Dist:
        """Exact distribution of the total (before any comparison)."""
        return self.expression.dist()

    def odds(self) -> dict[str, Fraction]:
        """Exact success/failure odds of the comparison (summing to exactly 1)."""
        if self.comparison is None:
            raise RuleInputError(f"{self} has no comparison: end it with one, e.g. {self}>=10",
                                 f"'{self}'에는 비교가 없습니다: '{self}>=10'처럼 끝에 비교를 붙이세요.")
        dist, t = self.dist(), self.comparison.target
        success = {">=": lambda: dist.at_least(t), "<=": lambda: dist.at_most(t),
                   ">": lambda: dist.at_least(t + 1), "<": lambda: dist.at_most(t - 1),
                   "=": lambda: dist.probability(t)}[self.comparison.operator]()
        return {"success": success, "failure": 1 - success}


# --- the public entry points --------------------------------------------------------------
def parse(text: str) -> Roll:
    """Read a roll in dice-bot notation (module docstring) into a :class:`Roll`, checking it
    against the size limits; bad text raises :class:`~widgets.errors.RuleInputError` whose
    ``.korean`` points at the bad part by its place in ``text``.

    >>> str(parse("d% <= 45")), str(parse("１ｄ２０＋３≥１５")), str(parse("2D6÷2+1"))
    ('1D100<=45', '1D20+3>=15', '2D6÷2+1')
    >>> parse("1d6!")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: cannot read dice expression '1d6!': '!' (exploding dice) at position 4 is not supported
    """
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


def distribution(text: str) -> Dist:
    """Exact distribution of the total of a roll (a comparison, if any, is ignored).

    >>> distribution("2d6+3").probability(10)
    Fraction(1, 6)
    """
    return parse(text).dist()


def roll_odds(text: str) -> dict[str, Fraction]:
    """Exact ``{"success", "failure"}`` odds of a roll that ends in a comparison.

    >>> roll_odds("2D6+3>=9")
    {'success': Fraction(13, 18), 'failure': Fraction(5, 18)}
    """
    return parse(text).odds()


# --- what the page can show ---------------------------------------------------------------
#: The rolls the book's examples type, one or two per game: (game, text). Their Korean notes, the
#: grammar and what is not supported are the calculator page's words
#: (:mod:`widgets.views.dice_calc`).
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("trench_crusade", "4D6KH2"), ("bfrpg", "1d20+3>=15"), ("pf2e", "1d20+9>=25"),
    ("underface", "1D8+1D4"), ("underface", "1D6÷2"), ("underface", "1D100<=45"),
    ("hunters_moon", "2D6+3>=9"),
)


# --- reading -------------------------------------------------------------------------------
_NOUNS = {"주사위 식": "dice expression", "피해 식": "damage expression"}

# Characters NFKC leaves alone that the notation reads as its own signs (½ becomes 1⁄2 under
# NFKC, so the fraction slash is a slash).
_SIGNS = {"−": "-", "–": "-", "—": "-", "‐": "-", "‑": "-", "⁄": "/",
          "≥": ">=", "≧": ">=", "⩾": ">=", "≤": "<=", "≦": "<=", "⩽": "<="}

#: Markers of other dice bots' features, read where they may stand: (normalised text, English
#: name, Korean name); every Korean name is in ``widgets.views.dice_calc.UNSUPPORTED_KO``. Longest first.
_ANYWHERE = (("!=", "not equal", "같지 않음 비교"), ("<>", "not equal", "같지 않음 비교"),
             ("!", "exploding dice", "폭발 주사위"), ("*", "multiplication", "곱하기"),
             ("×", "multiplication", "곱하기"), ("^", "powers", "거듭제곱"),
             ("[", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("]", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("{", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("}", "grouped rolls or labels", "묶음 굴림이나 꼬리표"),
             ("@", "character attributes", "캐릭터 값 참조"), ("#", "repeated rolls", "반복 굴림"),
             (".", "decimals", "소수"), (",", "several rolls at once", "여러 식을 한 번에"),
             (";", "several rolls at once", "여러 식을 한 번에"))
_AFTER_DICE = (("RO", "rerolls", "다시 굴리기"), ("R", "rerolls", "다시 굴리기"),
               ("X", "exploding dice (or multiplication)", "폭발 주사위"),
               ("CS", "counting successes die by die", "주사위마다 성공 세기"),
               ("CF", "counting failures die by die", "주사위마다 성공 세기"),
               ("MIN", "changing faces", "최솟값·최댓값 바꾸기"),
               ("MAX", "changing faces", "최솟값·최댓값 바꾸기"),
               ("MI", "changing faces", "최솟값·최댓값 바꾸기"),
               ("MA", "changing faces", "최솟값·최댓값 바꾸기"),
               ("SA", "sorting", "정렬"), ("SD", "sorting", "정렬"))
_AFTER_COUNT = (("B", "BCDice's B dice, counting successes die by die", "주사위마다 성공 세기"),
                ("R", "BCDice's R dice, rerolling", "다시 굴리기"),
                ("U", "BCDice's U dice", "BCDice의 U 주사위"))
_AT_START = (("CHOICE", "a game command (CHOICE…)", "게임 전용 명령"),
             ("CC", "a game command (CC…)", "게임 전용 명령"),
             ("C(", "a game command (C(…))", "게임 전용 명령"))
_SECRET = (("S", "a secret roll (S…)", "비밀 굴림"),)
_KNOWN = set("0123456789+-/÷()<>=DKHL%U")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")


def _normalise(text: str) -> tuple[str, tuple[int, ...], frozenset[int]]:
    """The text the reader reads (NFKC, upper case, notation signs, no spaces), for each of its
    characters the index of the typed character it came from, and the places that followed a
    space (a space may stand anywhere but inside a number)."""
    chars: list[str] = []
    origin: list[int] = []
    after_space: set[int] = set()
    space = False
    for i, typed in enumerate(text):
        for c in unicodedata.normalize("NFKC", typed):
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


class _Reader:
    """A cursor over the normalised text; each method reads one piece of the grammar."""

    def __init__(self, source: str, names: tuple[str, ...], noun: str):
        self.source, self.names, self.noun = source, names, noun
        self.text, self.origin, self.after_space = _normalise(source)
        self.pos = 0
        self.atoms = 0
        self.after_dice = False     # did the last term end with dice (where 'r', 'x'… would go)

    # --- looking ---------------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> str:
        i = self.pos + ahead
        return self.text[i] if i < len(self.text) else ""

    def at(self, word: str) -> bool:
        return self.text.startswith(word, self.pos)

    def typed(self, start: int, end: int | None = None) -> str:
        """What the reader typed for the normalised characters ``start`` … ``end - 1``."""
        end = start + 1 if end is None else end
        return self.source[self.origin[start]:self.origin[end - 1] + 1]

    def place(self, start: int) -> int:
        return self.origin[start] + 1

    # --- refusing --------------------------------------------------------------------------
    def fail(self, english: str, korean: str) -> RuleInputError:
        return RuleInputError(
            f"cannot read {_NOUNS[self.noun]} {shown(self.source, 90)}: {english}",
            f"{particle(repr(self.source), '을/를')} {particle(self.noun, '으로/로')} 읽을 수 없습니다: {korean}")

    def fail_at(self, start: int, end: int, english: str, korean: str) -> RuleInputError:
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
        hint = (" (식에는 한글을 쓰지 않습니다: 설명은 빼고, 한/영 전환을 확인해 주세요)"
                if _HANGUL.match(typed) else "")
        return self.fail(english, f"{where}번째 글자 {particle(repr(typed), '을/를')} 읽을 수 없습니다{hint}")

    # --- the grammar -----------------------------------------------------------------------
    def roll(self, comparison: bool) -> tuple[Sum, Comparison | None]:
        if not self.text:
            raise self.fail("it is empty", "비어 있습니다")
        found = self.unsupported(_AT_START) or (
            self.unsupported(_SECRET) if self.peek(1).isdigit() or self.peek(1) == "D" else None)
        if found:
            raise found
        expression = self.sum(0)
        compared = None
        if comparison and self.peek() in ("<", ">", "=") and not self.at("<>"):
            compared = self.comparison()
        if self.peek():
            what = ("'+', '-', 비교(>= 등) 또는 식의 끝" if comparison else "'+', '-' 또는 식의 끝")
            if self.peek() == ")":
                raise self.fail_at(self.pos, self.pos + 1, "a ')' without its '('",
                                   "여는 괄호 '(' 없이 닫는 괄호가 왔습니다")
            raise self.unexpected("'+', '-' or the end", what, _AFTER_DICE if self.after_dice else ())
        return expression, compared

    def sum(self, depth: int) -> Sum:
        terms: list[tuple[int, Node]] = []
        sign = 1
        if self.peek() in ("+", "-"):
            sign = -1 if self.peek() == "-" else 1
            self.pos += 1
        while True:
            node = self.term(depth)
            if isinstance(node, Sum):   # brackets that divide nothing only group: flatten them
                terms.extend((sign * s, t) for s, t in node.terms)
            else:
                terms.append((sign, node))
            if self.peek() not in ("+", "-"):
                return Sum(tuple(terms))
            sign = -1 if self.peek() == "-" else 1
            self.pos += 1

    def term(self, depth: int) -> Node:
        start = self.pos
        self.after_dice = False
        if self.peek() == "(":
            if depth >= limits.MAX_EXPRESSION_DEPTH:
                raise self.fail_at(start, start + 1, f"brackets nest at most "
                                   f"{limits.MAX_EXPRESSION_DEPTH} deep",
                                   f"괄호는 {limits.MAX_EXPRESSION_DEPTH}겹까지만 쓸 수 있습니다")
            self.pos += 1
            inner = self.sum(depth + 1)
            if self.peek() != ")":
                raise self.unexpected("')' to close the bracket", "닫는 괄호 ')'가 와야 합니다",
                                      _AFTER_DICE if self.after_dice else ())
            self.pos += 1
            self.after_dice = False
            single = len(inner.terms) == 1 and inner.terms[0][0] > 0 and \
                not isinstance(inner.terms[0][1], Constant)     # (5)÷2 stays a bracketed sum
            node: Node = inner.terms[0][1] if single else inner
        else:
            node = self.named(depth) or self.dice_or_number()
        if self.peek() in ("/", "÷"):
            if isinstance(node, Constant):
                if self.typed(self.pos) == "½":
                    after = f" 뒤에는 {self.names[0]}가 와야 합니다." if self.names else ""
                    raise self.fail_at(self.pos, self.pos + 1, "a half is written after the term "
                                       "(1D6÷2)", f"'½'{after} 다른 항의 절반은 1D6÷2처럼 뒤에 씁니다")
                raise self.fail_at(self.pos, self.pos + 1, "only dice or a bracketed sum may be "
                                   "divided (write the number already divided)",
                                   "나누기는 주사위 항이나 괄호로 묶은 식에만 씁니다 (수는 나눈 값을 직접 쓰세요)")
            node = Divided(node, self.divisor())
            if self.peek() in ("/", "÷"):
                raise self.fail_at(self.pos, self.pos + 1, "one term is divided once",
                                   "한 항은 한 번만 나눌 수 있습니다")
        return node

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

    def count_atom(self, start: int) -> None:
        self.atoms += 1
        if self.atoms > limits.MAX_EXPRESSION_TERMS:
            raise self.fail_at(start, start + 1, f"more than {limits.MAX_EXPRESSION_TERMS} terms",
                               f"항이 {limits.MAX_EXPRESSION_TERMS}개보다 많습니다")

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

    def dice_or_number(self) -> Node:
        start = self.pos
        count = self.number()
        if self.peek() != "D":
            if count is None:
                raise self.unexpected("dice (2D6) or a number", "주사위(예: 2D6)나 수가 와야 합니다")
            found = self.unsupported(_AFTER_COUNT)
            if found:
                raise found
            if count > limits.MAX_CONSTANT:
                raise self.fail_at(start, self.pos, f"constants go up to {limits.MAX_CONSTANT}",
                                   f"정수는 {limits.MAX_CONSTANT}까지 씁니다")
            self.count_atom(start)
            return Constant(count)
        multiple = next((m for m in self.names if self.at(m)), None)
        if multiple and count is not None:
            raise self.fail_at(start, self.pos + len(multiple), f"write a multiple of {multiple} "
                               f"as {multiple}+{multiple}", f"{multiple}의 배수는 {multiple}+{multiple}처럼 쓰세요")
        self.pos += 1
        sides = self.sides(count is None)
        if count is not None and not 1 <= count <= limits.MAX_POOL:
            raise self.fail_at(start, self.pos, f"one term rolls 1 to {limits.MAX_POOL} dice",
                               f"한 항에 굴리는 주사위는 1개부터 {limits.MAX_POOL}개까지입니다")
        count = 1 if count is None else count
        self.count_atom(start)
        dice = self.keep(Dice(count, sides), start)
        found = self.unsupported(_AFTER_DICE)
        if found:
            raise found
        self.after_dice = True
        return dice

    def sides(self, bare: bool) -> int:
        start = self.pos
        if self.peek() == "%":
            self.pos += 1
            return 100
        if self.peek() == "F":
            raise self.fail_at(start, start + 1, "Fate dice (dF) are not supported",
                               "페이트 주사위(dF)는 지원하지 않습니다")
        if self.at("B") and not self.names:
            raise self.fail_at(start - 1, start + 1, "DB is a damage bonus, known only to damage "
                               "expressions: write it as dice (+1D4)",
                               "DB(피해 보너스)는 피해 식에서만 씁니다: 주사위로 적어 주세요 (예: +1D4)")
        sides = self.number()
        if sides is None:
            raise self.unexpected("the number of sides after 'D'",
                                  "'D' 뒤에는 면 수(예: D6)나 %가 와야 합니다")
        if not 1 <= sides <= limits.MAX_SIDES:
            raise self.fail_at(start - 1, self.pos, f"a die has 1 to {limits.MAX_SIDES} sides",
                               f"주사위 면 수는 1부터 {limits.MAX_SIDES}까지입니다")
        if bare and sides == 66 and self.noun == "주사위 식":
            raise self.fail_at(start - 1, self.pos, "D66 (tens and units die) is not supported; "
                               "a 66-sided die is 1D66",
                               "D66(두 주사위를 십의 자리·일의 자리로 읽는 굴림)은 지원하지 않습니다. "
                               "66면 주사위 하나라면 1D66으로 쓰세요")
        return sides

    def keep(self, dice: Dice, start: int) -> Dice:
        """An optional KH/KL/DH/DL n (K alone is KH) after the dice."""
        mark = self.pos
        if self.peek() == "K":
            self.pos += 1
            side, drop = "H", False
            if self.peek() in ("H", "L"):
                side = self.peek()
                self.pos += 1
        elif self.peek() == "D" and self.peek(1) in ("H", "L"):
            side, drop = self.peek(1), True
            self.pos += 2
        elif self.peek() == "D" and self.peek(1).isdigit():
            raise self.fail_at(mark, mark + 1, "write dropping the lowest as DL (4D6DL1), or a "
                               "'+' is missing", "낮은 주사위를 버리려면 DL로 쓰세요 (예: 4D6DL1). "
                               "아니면 '+'가 빠졌습니다")
        else:
            return dice
        n = self.number()
        n = 1 if n is None else n
        if drop and not 0 <= n < dice.count:
            raise self.fail_at(mark, self.pos, f"drop 0 to {dice.count - 1} of {dice.count} dice",
                               f"주사위 {dice.count}개 중 버릴 수 있는 것은 0개부터 {dice.count - 1}개까지입니다")
        if not drop and not 1 <= n <= dice.count:
            raise self.fail_at(mark, self.pos, f"keep 1 to {dice.count} of {dice.count} dice",
                               f"주사위 {dice.count}개 중 남길 수 있는 것은 1개부터 {dice.count}개까지입니다")
        if self.peek() == "K" or (self.peek() == "D" and self.peek(1) in ("H", "L")):
            raise self.fail_at(self.pos, self.pos + 1, "keep or drop once per term",
                               "남기기·버리기는 한 항에 한 번만 씁니다")
        kept = dice.count - n if drop else n
        highest = (side == "H") != drop        # dropping the lowest keeps the highest
        if kept == dice.count:
            return dice
        return Dice(dice.count, dice.sides, kept, highest)

    def divisor(self) -> int:
        sign = self.typed(self.pos)
        self.pos += 1
        start = self.pos
        n = self.number()
        if n is None:
            raise self.unexpected(f"a divisor after {sign!r}", f"{sign!r} 뒤에는 나누는 수가 와야 합니다")
        if not 1 <= n <= limits.MAX_DIVISOR:
            raise self.fail_at(start, self.pos, f"'÷' needs a divisor from 1 to "
                               f"{limits.MAX_DIVISOR}",
                               f"나누는 수는 1부터 {limits.MAX_DIVISOR}까지입니다")
        if self.peek() == "U":      # BCDice's explicit "round up": what division does here anyway
            self.pos += 1
        elif self.peek() == "R":
            raise self.fail_at(self.pos, self.pos + 1, "rounding to nearest (R) is not supported: "
                               "division rounds up", "반올림(R)은 지원하지 않습니다: 나누기는 언제나 올림입니다")
        return n

    def comparison(self) -> Comparison:
        start = self.pos
        for op in (">=", "<=", "=>", "=<", "==", ">", "<", "="):
            if self.at(op):
                break
        self.pos += len(op)
        typed = self.typed(start, self.pos)
        if op in ("=>", "=<"):
            raise self.fail_at(start, self.pos, f"write {op[::-1]}", f"{op[::-1]}로 써 주세요")
        operator = "=" if op == "==" else op
        target_start = self.pos
        sign = 1
        if self.peek() in ("+", "-"):
            sign = -1 if self.peek() == "-" else 1
            self.pos += 1
        n = self.number()
        if n is None:
            raise self.unexpected(f"a number to compare with after {typed!r}",
                                  f"{typed!r} 뒤에 비교할 수가 와야 합니다")
        if n > limits.MAX_TARGET:
            raise self.fail_at(target_start, self.pos,
                               f"compare with a number up to {limits.MAX_TARGET}",
                               f"비교할 수는 {limits.MAX_TARGET}까지입니다")
        if self.peek() in ("<", ">", "="):
            raise self.fail_at(self.pos, self.pos + 1, "one comparison per roll",
                               "비교는 식 끝에 한 번만 씁니다")
        if self.peek() == "%":
            raise self.fail_at(self.pos, self.pos + 1, "compare with the number alone (1D100<=45)",
                               "비교할 수에는 %를 붙이지 않습니다 (1D100<=45처럼 씁니다)")
        if self.peek():
            raise self.fail_at(self.pos, self.pos + 1, "the comparison ends the roll, against one "
                               "whole number", "비교는 식의 끝에 쓰고, 정수 하나와 비교합니다")
        return Comparison(operator, sign * n)   # type: ignore[arg-type]


@lru_cache(maxsize=512)
def _parse(text: str) -> Roll:
    reader = _Reader(text, (), "주사위 식")
    expression, comparison = reader.roll(comparison=True)
    _plan(expression)                  # refuse what would take too long before computing
    return Roll(expression, comparison)


@lru_cache(maxsize=512)
def _parse_expression(text: str, names: tuple[str, ...], noun: str) -> Sum:
    expression, _ = _Reader(text, names, noun).roll(comparison=False)
    _plan(_substitute(expression, {n: _ZERO for n in names}))
    return expression


# --- computing -----------------------------------------------------------------------------
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


def _evaluate(node: Node, ops, dists: Mapping[str, Dist]):
    """Evaluate ``node`` with ``ops``: :data:`_COMPUTE` gives the distribution, :class:`_Plan`
    its shape and the work (the same steps, so the plan checks what the computation will do).

    In a sum, all plain dice of one sign make one :func:`~widgets.dice.dice_groups_sum` (a
    recurrence over the totals, never a product of big distributions); kept or divided terms
    are added to the constants first, the plain dice last."""
    if isinstance(node, Constant):
        return ops.constant(node.value)
    if isinstance(node, Dice):
        if node.keep is None:
            return ops.dice(((node.count, node.sides),))
        return ops.keep(node.count, node.keep, node.sides, node.highest)
    if isinstance(node, Divided):
        return ops.divide(_evaluate(node.part, ops, dists), node.divisor)
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


class _Compute:
    """The distributions themselves (every step one call into :mod:`widgets.dice`)."""

    constant = staticmethod(Dist.constant)
    dice = staticmethod(dice_groups_sum)

    @staticmethod
    def keep(count: int, keep: int, sides: int, highest: bool) -> Dist:
        return (keep_highest if highest else keep_lowest)(count, keep, sides)

    @staticmethod
    def add(a: Dist, b: Dist) -> Dist:
        return a + b

    @staticmethod
    def negate(a: Dist) -> Dist:
        return -a

    divide = staticmethod(_divided)

    @staticmethod
    def given(dist: Dist) -> Dist:
        return dist


_COMPUTE = _Compute()


class _Shape(NamedTuple):
    """What a step's distribution will look like: consecutive totals ``low`` … ``high`` (every
    distribution here has no gaps) and ``bits``, at least the bit length of its total weight."""

    low: int
    high: int
    bits: int

    @property
    def width(self) -> int:
        return self.high - self.low + 1


class _Plan:
    """The same steps on shapes: each checks the limits the computation would, and the work of
    the whole expression adds up against one budget (so twelve big terms cannot each take a
    second)."""

    def __init__(self) -> None:
        self.plain: dict[int, int] = {}
        self.keep_work = 0
        self.product_bits = 0

    def constant(self, value: int) -> _Shape:
        return _Shape(value, value, 1)

    def dice(self, groups) -> _Shape:
        total = 1
        for count, sides in groups:
            self.plain[sides] = self.plain.get(sides, 0) + count
            total *= sides ** count
        limits.check_sum_groups(self.plain.items())   # all plain dice of the expression
        self.product_bits += groups_product_bits(groups)   # more than four sizes: products
        limits.check_expression_work(self.keep_work, self.product_bits)
        return _Shape(sum(n for n, _ in groups), sum(n * s for n, s in groups), total.bit_length())

    def keep(self, count: int, keep: int, sides: int, highest: bool) -> _Shape:
        limits.check_keep(count, keep, sides)
        self.keep_work += limits.keep_work(count, keep, sides)
        limits.check_expression_work(self.keep_work, self.product_bits)
        return _Shape(keep, keep * sides, (sides ** count).bit_length())

    def add(self, a: _Shape, b: _Shape) -> _Shape:
        if a.width == 1 or b.width == 1:      # a single value only shifts the other
            return _Shape(a.low + b.low, a.high + b.high, b.bits if a.width == 1 else a.bits)
        if a.width * b.width > 64:            # Dist + Dist adds tiny ones pairwise, others packed
            limits.check_sum_size(a.width + b.width - 1)
            self.product_bits += dense_sum_bits(a.width, b.width, a.bits, b.bits)
            limits.check_expression_work(self.keep_work, self.product_bits)
        return _Shape(a.low + b.low, a.high + b.high, a.bits + b.bits)

    def negate(self, a: _Shape) -> _Shape:
        return _Shape(-a.high, -a.low, a.bits)

    def divide(self, a: _Shape, divisor: int) -> _Shape:
        return _Shape(divide_up(a.low, divisor), divide_up(a.high, divisor), a.bits)

    def given(self, dist: Dist) -> _Shape:   # pragma: no cover - plans never see a Dist
        raise AssertionError("a plan has no distributions")


def _plan(expression: Node) -> _Shape:
    """Check ``expression`` against the limits without computing it; its shape."""
    return _evaluate(expression, _Plan(), {})


@lru_cache(maxsize=64)    # the biggest distributions hold a few MB each
def _dist(expression: Sum) -> Dist:
    _plan(expression)
    return _evaluate(expression, _COMPUTE, {})
