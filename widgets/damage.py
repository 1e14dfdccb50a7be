"""Generic damage and HP mechanics: damage expressions, damage bonus (DB), armour, HP states.

Damage expressions are the usual tabletop notation, read by a small hand-written parser
(never ``eval``)::

    1D6+1+DB   2D6+2   1D6÷2+DB   1D6+1+½DB   1D4   1D10+1D4   1D6-1+DB

``÷N`` (or ``/N``) after dice or ``DB`` divides that term and rounds up; ``½DB`` (or
``1/2DB``, ``DB÷2``) is half the DB roll, rounded up. The DB itself is a separate
distribution chosen by the reader (:data:`DB_OPTIONS`).

>>> damage_dist("1D6÷2+DB", db="+1D4").probability(7)
Fraction(1, 12)
>>> after_armor(damage_dist("1D6+1"), 5).probabilities()[0]
Fraction(2, 3)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Literal, Mapping

from . import limits
from .dice import Dist, dice_groups_sum, dice_sum
from .errors import (RuleInputError, particle, require_bool, require_int, require_number, round_up,
                     shown)

# Bounds keep every parse and sum small; the dice limits are the library's (widgets.limits).
MAX_TEXT = limits.MAX_EXPRESSION_TEXT     # characters in one expression
MAX_TERMS = limits.MAX_EXPRESSION_TERMS   # terms such as "1D6", "+1", "+DB"
MAX_SIDES = limits.MAX_SIDES
MAX_CONSTANT = 1000
MAX_DIVISOR = 100
MAX_HP = 10_000


def divide_up(value: int, divisor: int) -> int:
    """A rolled result divided by ``divisor``, rounded up, with its sign applied afterwards.

    The text halves the *dice result* (a count, never negative) with the library's one rounding
    rule (:func:`~widgets.errors.round_up`), then the sign applies: half of a −1D4 roll of 3 is
    −2, exactly as half of a +1D4 roll of 3 is +2.

    >>> [divide_up(v, 2) for v in (1, 2, 3, 6, -3)]
    [1, 1, 2, 3, -2]
    """
    value = require_int(value, "value", "값", -10**9, 10**9)
    divisor = require_int(divisor, "divisor", "나누는 수", 1, MAX_DIVISOR)
    magnitude = round_up(abs(value), divisor)
    return magnitude if value >= 0 else -magnitude


@dataclass(frozen=True)
class Term:
    """One signed term: dice (``count``D``sides``), a constant ``value``, or the DB."""

    kind: Literal["dice", "const", "db"]
    sign: int = 1
    count: int = 0
    sides: int = 0
    value: int = 0
    divisor: int = 1

    def __str__(self) -> str:
        if self.kind == "const":
            body = str(self.value)
        elif self.kind == "dice":
            body = f"{self.count}D{self.sides}" + (f"÷{self.divisor}" if self.divisor > 1 else "")
        else:
            body = {1: "DB", 2: "½DB"}.get(self.divisor, f"DB÷{self.divisor}")
        return ("-" if self.sign < 0 else "+") + body

    def dist(self, db: Dist) -> Dist:
        """Distribution of this term alone (sign included)."""
        if self.kind == "const":
            base = Dist.constant(self.value)
        elif self.kind == "dice":
            base = dice_sum(self.count, self.sides)
        else:
            base = db
        if self.divisor > 1:
            base = base.map(lambda v: divide_up(v, self.divisor))
        return base if self.sign > 0 else -base


@dataclass(frozen=True)
class DamageExpr:
    """A parsed damage expression (see :func:`parse_damage`).

    >>> expr = parse_damage("1d6 + 1 + 1/2db")
    >>> str(expr), expr.uses_db
    ('1D6+1+½DB', True)
    """

    terms: tuple[Term, ...]

    @property
    def uses_db(self) -> bool:
        return any(t.kind == "db" for t in self.terms)

    def __str__(self) -> str:
        text = "".join(str(t) for t in self.terms)
        return text[1:] if text.startswith("+") else text

    def dist(self, db: "Dist | str | None" = None) -> Dist:
        """Exact distribution of the expression with the given DB."""
        db_terms: tuple[Term, ...] | None = None
        if self.uses_db and isinstance(db, str):
            # weapon and DB dice together must fit the limits: refuse before rolling either
            db_terms = _db_expression(db).terms
            _check_size(str(self) + " (DB " + db + ")", self.terms + db_terms)
        # all plain dice of one sign, the DB's included, make one sum (50D100+50D99+DB with a
        # 30D100 DB is one recurrence over the totals), not a product of big distributions
        plain: dict[int, list[tuple[int, int]]] = {1: [], -1: []}
        total = Dist.constant(0)
        for term in self.terms:
            if term.kind == "dice" and term.divisor == 1:
                plain[term.sign].append((term.count, term.sides))
            elif term.kind == "db" and term.divisor == 1 and db_terms is not None:
                for part in db_terms:
                    if part.kind == "dice" and part.divisor == 1:
                        plain[term.sign * part.sign].append((part.count, part.sides))
                    else:
                        total = total + (part.dist(Dist.constant(0)) if term.sign > 0
                                         else -part.dist(Dist.constant(0)))
            else:
                total = total + term.dist(db_dist(db))
        for sign, groups in plain.items():
            if groups:
                part_sum = dice_groups_sum(groups)
                total = total + (part_sum if sign > 0 else -part_sum)
        return total

    def weapon_max(self) -> int:
        """Largest value of the non-DB part (the weapon's own maximum damage)."""
        return sum(t.dist(Dist.constant(0)).max for t in self.terms if t.kind != "db")

    def special_dist(self, db: "Dist | str | None" = None) -> Dist:
        """Weapon part at its maximum, DB terms rolled normally (a ``½DB`` stays halved)."""
        db_d = db_dist(db)
        total = Dist.constant(self.weapon_max())
        for term in self.terms:
            if term.kind == "db":
                total = total + term.dist(db_d)
        return total


def _bad(text: str, why_en: str, why_ko: str) -> RuleInputError:
    return RuleInputError(f"cannot read damage expression {shown(text, 90)}: {why_en}",
                          f"{particle(repr(text), '을/를')} 피해 식으로 읽을 수 없습니다: {why_ko}")


class _Reader:
    """Cursor over the normalised text; every method consumes and returns one piece."""

    def __init__(self, source: str, text: str):
        self.source, self.text, self.pos = source, text, 0

    def peek(self, ahead: int = 0) -> str:
        i = self.pos + ahead
        return self.text[i] if i < len(self.text) else ""

    def unexpected(self) -> RuleInputError:
        if not self.peek():
            return _bad(self.source, "it ends too early", "식이 중간에 끝났습니다")
        return _bad(self.source, f"unexpected {self.peek()!r} at position {self.pos + 1}",
                    f"{self.pos + 1}번째 글자 {particle(repr(self.peek()), '이/가')} 올 자리가 아닙니다")

    def number(self) -> int | None:
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
            self.pos += 1
        if start == self.pos:
            return None
        if self.pos - start > 4:
            raise _bad(self.source, "number too long", "숫자가 너무 큽니다")
        return int(self.text[start:self.pos])

    def divisor(self) -> int:
        """An optional ``÷N`` / ``/N`` suffix; 1 when absent."""
        if self.peek() not in ("÷", "/"):
            return 1
        self.pos += 1
        n = self.number()
        if n is None or not 1 <= n <= MAX_DIVISOR:
            raise _bad(self.source, f"'÷' needs a divisor from 1 to {MAX_DIVISOR}",
                       f"'÷' 뒤에는 1부터 {MAX_DIVISOR}까지의 나누는 수가 와야 합니다")
        return n

    def term(self, sign: int) -> Term:
        if self.peek() == "½":
            self.pos += 1
            return self.db(sign, 2)
        if self.text.startswith("DB", self.pos):
            return self.db(sign, 1)
        n = self.number()
        if n == 1 and self.peek() == "/":  # "1/N" is a fraction of the DB, nothing else
            save = self.pos
            self.pos += 1
            m = self.number()
            if m is not None and self.text.startswith("DB", self.pos):
                return self.db(sign, m)
            self.pos = save
        if self.peek() == "D" and self.peek(1) != "B":
            self.pos += 1
            sides = self.number()
            count = 1 if n is None else n  # "D6" means "1D6"
            if sides is None or not 1 <= sides <= MAX_SIDES:
                raise _bad(self.source, f"a die needs 1 to {MAX_SIDES} sides",
                           f"주사위 면 수는 1부터 {MAX_SIDES}까지입니다")
            if not 1 <= count <= limits.MAX_SUM_DICE:
                raise _bad(self.source, f"one term rolls 1 to {limits.MAX_SUM_DICE} dice",
                           f"한 항의 주사위 개수는 1부터 {limits.MAX_SUM_DICE}개까지입니다")
            return Term("dice", sign, count=count, sides=sides, divisor=self.divisor())
        if n is None:
            raise self.unexpected()
        if self.peek() == "D":
            raise _bad(self.source, "write a multiple of DB as DB+DB", "DB의 배수는 DB+DB처럼 쓰세요")
        if n > MAX_CONSTANT:
            raise _bad(self.source, f"constants go up to {MAX_CONSTANT}",
                       f"상수는 {MAX_CONSTANT}까지입니다")
        return Term("const", sign, value=n)

    def db(self, sign: int, divisor: int) -> Term:
        if not self.text.startswith("DB", self.pos):
            raise _bad(self.source, "'½' or '1/N' must be followed by DB",
                       "'½'나 '1/N' 뒤에는 DB가 와야 합니다")
        if not 1 <= divisor <= MAX_DIVISOR:
            raise _bad(self.source, "bad DB fraction", "DB 분수가 올바르지 않습니다")
        self.pos += 2
        extra = self.divisor()  # "DB÷2" is another way to write ½DB
        if divisor > 1 and extra > 1:
            raise _bad(self.source, "halve the DB only once", "DB는 한 번만 나눌 수 있습니다")
        return Term("db", sign, divisor=max(divisor, extra))


def _check_size(text: str, terms: "tuple[Term, ...] | list[Term]") -> None:
    """All the dice of an expression (and its DB) count towards one sum's limits."""
    size = sum(t.count * t.sides for t in terms)
    count = sum(t.count for t in terms)
    if size > limits.MAX_SUM_SIZE or count > limits.MAX_SUM_DICE:
        raise _bad(text, f"{count} dice with dice × sides {size}; at most {limits.MAX_SUM_DICE} "
                   f"dice and {limits.MAX_SUM_SIZE} (so that every answer comes within a second)",
                   f"주사위 {count}개, 주사위 개수 × 면 수 {size}: 주사위는 {limits.MAX_SUM_DICE}개, "
                   f"개수 × 면 수는 {limits.MAX_SUM_SIZE}까지만 계산합니다 (모든 답이 1초 안에 나오도록 정한 한도)")


def _db_expression(db: str) -> DamageExpr:
    key = "".join(db.split()) if len(db) <= MAX_TEXT else db   # too long: parse_damage refuses it
    if key in ("0", "없음", "", "NONE", "none"):
        return DamageExpr(())
    return parse_damage(db, allow_db=False)


_NORMALISE = str.maketrans({"−": "-", "–": "-", "—": "-", "＋": "+", "ｄ": "D", "Ｄ": "D"})


def parse_damage(text: str, allow_db: bool = True) -> DamageExpr:
    """Parse a damage expression into a :class:`DamageExpr` (no ``eval``).

    >>> str(parse_damage("1D6/2+DB")), str(parse_damage("1D10 + 1D4"))
    ('1D6÷2+DB', '1D10+1D4')
    >>> parse_damage("1D6+rm -rf")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: cannot read damage expression '1D6+rm -rf': unexpected 'R' at position 5
    """
    if not isinstance(text, str):
        raise RuleInputError(f"a damage expression must be text, got {shown(text)}",
                             f"피해 식은 글자로 넣어 주세요 (입력값: {shown(text)}).")
    if len(text) > MAX_TEXT:
        raise _bad(text[:MAX_TEXT] + "…", f"longer than {MAX_TEXT} characters",
                   f"{MAX_TEXT}자보다 깁니다")
    body = "".join(text.split()).translate(_NORMALISE).upper()
    if not body:
        raise _bad(text, "it is empty", "비어 있습니다")
    reader = _Reader(text, body)
    terms: list[Term] = []
    sign = 1
    if reader.peek() in "+-":
        sign = -1 if reader.peek() == "-" else 1
        reader.pos += 1
    while True:
        terms.append(reader.term(sign))
        if len(terms) > MAX_TERMS:
            raise _bad(text, f"more than {MAX_TERMS} terms", f"항이 {MAX_TERMS}개보다 많습니다")
        if reader.peek() == "":
            break
        if reader.peek() not in "+-":
            raise reader.unexpected()
        sign = -1 if reader.peek() == "-" else 1
        reader.pos += 1
    _check_size(text, terms)
    n_db = sum(t.kind == "db" for t in terms)
    if n_db > (1 if require_bool(allow_db, "allow_db", "DB 허용 여부") else 0):
        raise _bad(text, "DB may appear once (and not at all in a DB itself)",
                   "DB는 한 번만 쓸 수 있습니다 (DB 자체에는 쓸 수 없습니다)")
    return DamageExpr(tuple(terms))


def db_dist(db: "Dist | str | None" = None) -> Dist:
    """The DB as a distribution: ``None``/``"0"``/``"없음"`` is no DB, a key of
    :data:`DB_OPTIONS` or any dice expression without DB (``"+1D6"``, ``"-1D4"``), or a Dist.

    >>> db_dist("-1D4").probabilities()[-4]
    Fraction(1, 4)
    """
    if db is None:
        return Dist.constant(0)
    if isinstance(db, Dist):
        return db
    if isinstance(db, str):
        key = "".join(db.split()) if len(db) <= MAX_TEXT else db   # too long: parse_damage refuses it
        if key in ("0", "없음", "", "NONE", "none"):
            return Dist.constant(0)
        if key in DB_OPTIONS:
            return DB_OPTIONS[key].dist
        return parse_damage(db, allow_db=False).dist()
    raise RuleInputError(f"DB must be a Dist, a dice expression or None, got {shown(db)}",
                         f"DB에는 주사위 식(예: +1D4)을 넣어 주세요 (입력값: {shown(db)}).")


@dataclass(frozen=True)
class DbOption:
    """One choice of damage bonus: key, Korean label, distribution."""

    key: str
    label: str
    dist: Dist


def _db_option(key: str, label: str) -> DbOption:
    return DbOption(key, label, Dist.constant(0) if key == "0" else parse_damage(key, False).dist(Dist.constant(0)))


#: The DB choices offered to the reader (no DB table is known; see rules-notes).
DB_OPTIONS: dict[str, DbOption] = {o.key: o for o in (
    _db_option("-1D6", "−1D6"),
    _db_option("-1D4", "−1D4"),
    _db_option("0", "없음 (0)"),
    _db_option("+1D4", "+1D4"),
    _db_option("+1D6", "+1D6"),
    _db_option("+2D6", "+2D6"),
)}


def damage_dist(expression: "str | DamageExpr", db: "Dist | str | None" = None) -> Dist:
    """Exact distribution of a damage expression (before armour).

    >>> damage_dist("2D6+2").mean()
    Fraction(9, 1)
    """
    expr = expression if isinstance(expression, DamageExpr) else parse_damage(expression)
    return expr.dist(db)


def special_damage_dist(expression: "str | DamageExpr", db: "Dist | str | None" = None) -> Dist:
    """Damage of a special hit: the weapon's maximum damage plus a normal DB roll.

    >>> special_damage_dist("1D6+1+DB", db="+1D4").outcomes()
    [8, 9, 10, 11]
    """
    expr = expression if isinstance(expression, DamageExpr) else parse_damage(expression)
    return expr.special_dist(db)


def _dist_arg(dist: object) -> Dist:
    if isinstance(dist, Dist):
        return dist
    if isinstance(dist, int) and not isinstance(dist, bool):
        return Dist.constant(dist)
    raise RuleInputError(f"expected a Dist or a whole number, got {shown(dist)}",
                         f"분포나 정수를 넣어 주세요 (입력값: {shown(dist)}).")


def after_armor(dist: "Dist | int", armor: int) -> Dist:
    """Damage left after armour: ``max(0, damage − armor)`` (damage is never negative).

    >>> after_armor(6, 2).probabilities()
    {4: Fraction(1, 1)}
    """
    armor = require_int(armor, "armor", "방어 점수", 0, MAX_CONSTANT)
    return _dist_arg(dist).map(lambda d: max(0, d - armor))


def hp_after(loss: "Dist | int", current_hp: int) -> Dist:
    """HP after losing ``loss`` (HP may go below zero).

    >>> hp_after(4, 12).probabilities()
    {8: Fraction(1, 1)}
    """
    current_hp = require_int(current_hp, "current_hp", "현재 HP", -MAX_HP, MAX_HP)
    return _dist_arg(loss).map(lambda d: current_hp - d)


#: Korean labels of the :func:`hp_states` keys.
HP_STATE_LABELS: dict[str, str] = {
    "standing": "버팀 (HP 1 이상)",
    "unconscious": "기절 (HP 0 이하)",
    "at_death_threshold": "사망 임계 이하",
}


def hp_states(loss: "Dist | int", current_hp: int, death_threshold: int) -> dict[str, Fraction]:
    """Odds of each state after the hit, exclusive and summing to 1.

    ``standing``: HP ≥ 1; ``unconscious``: threshold < HP ≤ 0; ``at_death_threshold``:
    HP ≤ threshold (also unconscious, counted only here).

    >>> hp_states(Dist({3: 1, 8: 1, 12: 1}), 6, -3)
    {'standing': Fraction(1, 3), 'unconscious': Fraction(1, 3), 'at_death_threshold': Fraction(1, 3)}
    """
    death_threshold = require_int(death_threshold, "death_threshold", "사망 임계", -MAX_HP, 0)
    return hp_after(loss, current_hp).bands([
        ("standing", 1, None),
        ("unconscious", death_threshold + 1, 0),
        ("at_death_threshold", None, death_threshold),
    ])


def from_probabilities(probabilities: Mapping[int, Fraction]) -> Dist:
    """Build a :class:`Dist` from exact probabilities summing to 1 (common denominator).

    >>> from_probabilities({0: Fraction(1, 3), 1: Fraction(2, 3)}).probability(1)
    Fraction(2, 3)
    """
    if not isinstance(probabilities, Mapping) or not probabilities or len(probabilities) > limits.MAX_SUM_SIZE:
        raise RuleInputError(f"probabilities must be a non-empty mapping outcome → probability, "
                             f"got {shown(probabilities)}",
                             f"확률은 {{결과: 확률}} 형태로 주어야 합니다 (입력값: {shown(probabilities)}).")
    probs = {require_int(k, "outcome", "결과", -10**9, 10**9):
             require_number(p, "probability", "확률", 0, 1) for k, p in probabilities.items()}
    if sum(probs.values()) != 1 or any(p < 0 for p in probs.values()):
        raise RuleInputError("probabilities must be non-negative and sum to 1",
                             "확률은 0 이상이고 합이 1이어야 합니다.")
    denominator = lcm(*(p.denominator for p in probs.values()))
    return Dist({k: p.numerator * (denominator // p.denominator) for k, p in probs.items()})
