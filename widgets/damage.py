"""Generic damage and HP mechanics: damage expressions, damage bonus (DB), armour, HP states.

Damage expressions are the dice notation of :mod:`widgets.notation` plus the DB, read by the
same hand-written reader (never ``eval``)::

    1D6+1+DB   2D6+2   1D6÷2+DB   1D6+1+½DB   1D4   1D10+1D4   1D6-1+DB   4D6KH3+DB

``÷N`` after dice, brackets or ``DB`` divides that term and rounds up, as the sources round;
``½DB`` (or ``1/2DB``, ``DB÷2``) is half the DB roll, rounded up. ``/N`` divides as BCDice does
(down; ``/2U`` up, ``/2R`` to the nearest) and ``*`` multiplies (:mod:`widgets.notation`). The
DB itself is a separate distribution chosen by the reader (:data:`DB_OPTIONS`); it stands
outside brackets, once.

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
from .dice import Dist
from .errors import RuleInputError, particle, require_bool, require_int, require_number, shown
from .notation import Constant, Dice, Divided, Named, Node, Sum, parse_expression
from .notation import divide_up as divide_up   # the rounding of a divided roll lives with the notation

# Bounds keep every parse and sum small; they are the library's (widgets.limits).
MAX_TEXT = limits.MAX_EXPRESSION_TEXT     # characters in one expression
MAX_TERMS = limits.MAX_EXPRESSION_TERMS   # terms such as "1D6", "+1", "+DB"
MAX_SIDES = limits.MAX_SIDES
MAX_CONSTANT = limits.MAX_CONSTANT
MAX_DIVISOR = limits.MAX_DIVISOR
MAX_HP = 10_000


@dataclass(frozen=True)
class Term:
    """One signed term: dice (``count``D``sides``), a constant ``value``, the DB, or (kind
    ``"roll"``) any other term of the notation in ``part``: kept dice (``4D6KH3``) or a divided
    bracket (``(1D6+1D4)÷2``)."""

    kind: Literal["dice", "const", "db", "roll"]
    sign: int = 1
    count: int = 0
    sides: int = 0
    value: int = 0
    divisor: int = 1
    part: Node | None = None

    def __str__(self) -> str:
        if self.kind == "const":
            body = str(self.value)
        elif self.kind == "dice":
            body = f"{self.count}D{self.sides}" + (f"÷{self.divisor}" if self.divisor > 1 else "")
        elif self.kind == "db":
            body = {1: "DB", 2: "½DB"}.get(self.divisor, f"DB÷{self.divisor}")
        else:
            body = str(self.part)
        return ("-" if self.sign < 0 else "+") + body

    def _node(self) -> Node:
        if self.kind == "roll":
            return self.part          # type: ignore[return-value]
        node: Node = (Constant(self.value) if self.kind == "const" else
                      Dice(self.count, self.sides) if self.kind == "dice" else Named("DB"))
        return Divided(node, self.divisor) if self.divisor > 1 else node

    def dist(self, db: Dist) -> Dist:
        """Distribution of this term alone (sign included)."""
        return Sum(((self.sign, self._node()),)).dist({"DB": db})


def _term(sign: int, node: Node) -> Term:
    """The :class:`Term` of one signed term of a parsed sum."""
    if isinstance(node, Constant):
        return Term("const", sign, value=node.value)
    inner, divisor = (node.part, node.divisor) if isinstance(node, Divided) else (node, 1)
    if isinstance(inner, Named):
        return Term("db", sign, divisor=divisor)
    if isinstance(inner, Dice) and inner.keep is None:
        return Term("dice", sign, count=inner.count, sides=inner.sides, divisor=divisor)
    return Term("roll", sign, part=node)


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

    def _sum(self, with_db: bool = True) -> Sum:
        return Sum(tuple((t.sign, t._node()) for t in self.terms if with_db or t.kind != "db"))

    def dist(self, db: "Dist | str | None" = None) -> Dist:
        """Exact distribution of the expression with the given DB.

        A DB given as text joins the expression before anything is computed: weapon and DB dice
        together must fit the limits, and all plain dice of one sign, the DB's included, make
        one sum (50D100+50D99+DB with a 30D100 DB is one recurrence over the totals)."""
        return self._sum().dist({"DB": _db_value(db)})

    def weapon_max(self) -> int:
        """Largest value of the non-DB part (the weapon's own maximum damage)."""
        return self._sum(with_db=False).bounds()[1]

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


_NO_DB = ("0", "없음", "", "NONE", "none")
_ZERO = Sum(((1, Constant(0)),))


def _db_value(db: "Dist | str | None") -> "Sum | Dist":
    """The DB as the notation takes it: a parsed sum (text) or the caller's distribution."""
    if db is None:
        return _ZERO
    if isinstance(db, Dist):
        return db
    if isinstance(db, str):
        if len(db) <= MAX_TEXT and "".join(db.split()) in _NO_DB:   # too long: the parser refuses
            return _ZERO
        return parse_damage(db, allow_db=False)._sum()
    raise RuleInputError(f"DB must be a Dist, a dice expression or None, got {shown(db)}",
                         f"DB에는 주사위 식(예: +1D4)을 넣어 주세요 (입력값: {shown(db)}).")


def parse_damage(text: str, allow_db: bool = True) -> DamageExpr:
    """Parse a damage expression into a :class:`DamageExpr` (no ``eval``).

    >>> str(parse_damage("1D6÷2+DB")), str(parse_damage("1D10 + 1D4")), str(parse_damage("1D6/2U*2"))
    ('1D6÷2+DB', '1D10+1D4', '1D6/2U*2')
    >>> parse_damage("1D6+rm -rf")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: cannot read damage expression '1D6+rm -rf': unexpected 'R' at position 5
    """
    if not isinstance(text, str):
        raise RuleInputError(f"a damage expression must be text, got {shown(text)}",
                             f"피해 식은 글자로 넣어 주세요 (입력값: {shown(text)}).")
    allow_db = require_bool(allow_db, "allow_db", "DB 허용 여부")
    expression = parse_expression(text, names=("DB",), noun="피해 식")
    terms = tuple(_term(sign, node) for sign, node in expression.terms)
    if sum(t.kind == "db" for t in terms) > (1 if allow_db else 0):
        raise _bad(text, "DB may appear once (and not at all in a DB itself)",
                   "DB는 한 번만 쓸 수 있습니다 (DB 자체에는 쓸 수 없습니다)")
    return DamageExpr(terms)


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
        if key in _NO_DB:
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


#: The keys of :func:`hp_states` (their Korean words: ``widgets.views.labels.HP_STATES``).
HP_STATES: tuple[str, ...] = ("standing", "unconscious", "at_death_threshold")


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
