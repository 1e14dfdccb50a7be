"""Exact dice distributions: the generic mechanics layer every chapter builds on.

A :class:`Dist` is an immutable map from integer outcomes to integer weights; probabilities
are exact :class:`fractions.Fraction` values and always sum to exactly 1.

Pure Python and fast: sums of dice come from a recurrence over the totals (one pass, a few
terms per total), other sums multiply two packed big integers (each weight in a fixed-width slot of
one integer, so one multiplication convolves the lists; the largest go through ``decimal``,
whose multiplication is sub-quadratic), and keep-highest/lowest sums follow the order
statistics of the pool instead of enumerating rolls. Every call is bounded by
:mod:`widgets.limits`; pure distributions that repeat are cached.

>>> two_d6 = dice_sum(2, 6)
>>> two_d6.probability(7)
Fraction(1, 6)
>>> keep_highest(3, 2, 6).at_least(12)
Fraction(2, 27)
>>> d3_from_d6().probabilities()
{1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import islice
import math
from math import comb, gcd
from typing import Callable, Iterable, Mapping

from . import limits
from .errors import (RuleInputError, require_bool, require_int, require_items, require_number, require_odds,
                     shown)

#: Largest number of dice one roll may hold (see :mod:`widgets.limits`).
MAX_DICE = limits.MAX_POOL
#: Largest number of faces on one die.
MAX_SIDES = limits.MAX_SIDES


def _reduced(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` with one gcd instead of two (big weights make the
    gcd the cost of reading a distribution); the same value as the public constructor."""
    g = gcd(numerator, denominator)
    return _COPRIME(numerator // g, denominator // g)


def _coprime_constructor():
    # CPython 3.12+ has Fraction._from_coprime_ints; 3.11 has the _normalize flag. Both skip
    # the second gcd; anything else falls back to the public constructor.
    if hasattr(Fraction, "_from_coprime_ints"):
        return Fraction._from_coprime_ints
    try:
        if Fraction(2, 4, _normalize=False).numerator == 2:   # type: ignore[call-arg]
            return lambda n, d: Fraction(n, d, _normalize=False)   # type: ignore[call-arg]
    except TypeError:
        pass
    return Fraction


_COPRIME = _coprime_constructor()

_SMALL_PRIMES = tuple(p for p in range(2, 1001) if all(p % q for q in range(2, int(p ** 0.5) + 1)))


def _factors(total: int) -> "tuple | None":
    """The factorisation of a big total weight into primes up to 1000, with the powers
    p^(2^i) of each (to find how often p divides a weight in a few divisions), or None when it
    has a larger prime factor. Every total here is a product of die sizes, so this is the rule."""
    if total.bit_length() < 256:
        return None                      # small: one gcd is as fast
    out = []
    rest = total
    for p in _SMALL_PRIMES:
        if rest % p:
            continue
        if p == 2:
            e = (rest & -rest).bit_length() - 1
            rest >>= e
            out.append((2, e, ()))
        else:
            powers = [p]
            while 2 ** len(powers) <= rest.bit_length():
                powers.append(powers[-1] * powers[-1])
            e = 0
            for i in reversed(range(len(powers))):
                q, r = divmod(rest, powers[i])
                while r == 0:
                    rest, e = q, e + (1 << i)
                    q, r = divmod(rest, powers[i])
            out.append((p, e, tuple(powers)))
        if rest == 1:
            break
    return tuple(out) if rest == 1 else None


def _known_factors(dist) -> "tuple | None":
    """The factorisation of a distribution's total, found once and kept on it."""
    try:
        return object.__getattribute__(dist, "_known")
    except AttributeError:
        factors = _factors(dist._total)
        object.__setattr__(dist, "_known", factors)
        return factors


def _reduced_by(numerator: int, denominator: int, factors) -> Fraction:
    """``Fraction(numerator, denominator)`` for a denominator whose prime factors are known:
    finding how often each divides the numerator takes a few divisions, far less than a gcd
    of two huge numbers; the same value as the public constructor."""
    if factors is None or numerator == 0:
        return _reduced(numerator, denominator)
    divisor = 1
    for p, e, powers in factors:
        if p == 2:
            k = min(e, (numerator & -numerator).bit_length() - 1)
            numerator >>= k
            divisor <<= k
            continue
        if e == 0 or numerator % p:
            continue
        k, i = 0, 0                      # gallop up through p, p^2, p^4 … then back down
        while i < len(powers) and k + (1 << i) <= e:
            q, r = divmod(numerator, powers[i])
            if r:
                break
            numerator, k, divisor, i = q, k + (1 << i), divisor * powers[i], i + 1
        for j in reversed(range(i)):
            if k + (1 << j) <= e:
                q, r = divmod(numerator, powers[j])
                if r == 0:
                    numerator, k, divisor = q, k + (1 << j), divisor * powers[j]
    return _COPRIME(numerator, denominator // divisor)


def _power_reader(base: int) -> Callable[[int, int], Fraction]:
    """``(n, k) ↦ Fraction(n, base ** k)``, for the chances of a process whose every step
    multiplies the denominator by ``base`` (a whole fight, :mod:`widgets.fight`): the prime
    factors of ``base`` are found once, so ``base ** k`` is never factored, and each fraction is
    reduced by a few divisions (a numerator is seldom divisible by a high power of a prime).

    >>> over = _power_reader(36)
    >>> over(6 ** 5, 3), over(7, 0)
    (Fraction(1, 6), Fraction(7, 1))
    """
    primes, rest = [], base
    for p in _SMALL_PRIMES:
        if rest % p == 0:
            e = 0
            while rest % p == 0:
                rest, e = rest // p, e + 1
            primes.append((p, e, [p]))
    if rest != 1:                         # a prime factor above 1000: one gcd per fraction
        return lambda numerator, k: _reduced(numerator, base ** k)

    def read(numerator: int, k: int) -> Fraction:
        factors = []
        for p, e, powers in primes:
            while 2 ** len(powers) <= e * k:
                powers.append(powers[-1] * powers[-1])
            factors.append((p, e * k, tuple(powers)))
        return _reduced_by(numerator, base ** k, tuple(factors))
    return read


class Dist:
    """An exact discrete distribution over integers (immutable).

    >>> (die(6) + 1).probabilities()[7]
    Fraction(1, 6)
    """

    __slots__ = ("_weights", "_total", "_known")

    def __init__(self, weights: Mapping[int, int]):
        cleaned = {int(v): int(w) for v, w in weights.items() if w}
        if not cleaned:
            raise ValueError("a distribution needs at least one outcome with weight > 0")
        if any(w < 0 for w in cleaned.values()):
            raise ValueError("weights must not be negative")
        object.__setattr__(self, "_weights", dict(sorted(cleaned.items())))
        object.__setattr__(self, "_total", sum(cleaned.values()))

    @classmethod
    def _dense(cls, low: int, weights: list[int]) -> "Dist":
        """Trusted fast path: weights of ``low, low + 1, …`` (non-negative, not all zero)."""
        out = object.__new__(cls)
        object.__setattr__(out, "_weights", {low + i: w for i, w in enumerate(weights) if w})
        object.__setattr__(out, "_total", sum(weights))
        return out

    def __setattr__(self, name, value):
        raise AttributeError("Dist is immutable")

    # --- construction -------------------------------------------------------------
    @classmethod
    def constant(cls, value: int) -> "Dist":
        return cls({value: 1})

    # --- reading ------------------------------------------------------------------
    @property
    def weights(self) -> dict[int, int]:
        """Outcome → integer weight (a copy)."""
        return dict(self._weights)

    @property
    def total(self) -> int:
        """Sum of the weights: the common denominator before reduction."""
        return self._total

    def outcomes(self) -> list[int]:
        return list(self._weights)

    def _total_factors(self):
        return _known_factors(self)

    def probability(self, value: int) -> Fraction:
        return _reduced(self._weights.get(value, 0), self._total)

    def probabilities(self) -> dict[int, Fraction]:
        total = self._total
        factors = self._total_factors() if len(self._weights) > 8 else None
        return {v: _reduced_by(w, total, factors) for v, w in self._weights.items()}

    def at_least(self, threshold: int) -> Fraction:
        return _reduced_by(sum(w for v, w in self._weights.items() if v >= threshold), self._total,
                           self._total_factors())

    def at_most(self, threshold: int) -> Fraction:
        return _reduced_by(sum(w for v, w in self._weights.items() if v <= threshold), self._total,
                           self._total_factors())

    def between(self, low: int | None, high: int | None) -> Fraction:
        """P(low ≤ X ≤ high); ``None`` leaves that side open."""
        return _reduced_by(
            sum(w for v, w in self._weights.items()
                if (low is None or v >= low) and (high is None or v <= high)),
            self._total, self._total_factors(),
        )

    def bands(self, bands: Iterable[tuple[str, int | None, int | None]]) -> dict[str, Fraction]:
        """Probabilities of labelled closed ranges ``(label, low, high)`` (``None`` = open).

        The ranges must cover every outcome exactly once, so the result sums to 1.

        >>> dice_sum(2, 6).bands([("fail", None, 6), ("pass", 7, None)])
        {'fail': Fraction(5, 12), 'pass': Fraction(7, 12)}
        """
        bands = require_items(bands, "bands", "구간", limits.MAX_BANDS)
        for v in self._weights:
            hits = [label for label, lo, hi in bands
                    if (lo is None or v >= lo) and (hi is None or v <= hi)]
            if len(hits) != 1:
                raise ValueError(f"outcome {v} falls in {len(hits)} bands, expected exactly 1")
        return {label: self.between(lo, hi) for label, lo, hi in bands}

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self._weights.items()), self._total)

    @property
    def min(self) -> int:
        return next(iter(self._weights))

    @property
    def max(self) -> int:
        return next(reversed(self._weights))

    # --- combining ----------------------------------------------------------------
    def map(self, function: Callable[[int], int]) -> "Dist":
        """Distribution of ``function(X)``."""
        out: dict[int, int] = {}
        for v, w in self._weights.items():
            key = int(function(v))
            out[key] = out.get(key, 0) + w
        return Dist(out)

    def __add__(self, other: "Dist | int") -> "Dist":
        if isinstance(other, Dist):
            return _convolve(self, other)
        if isinstance(other, int) and not isinstance(other, bool):
            out = object.__new__(Dist)
            object.__setattr__(out, "_weights", {v + other: w for v, w in self._weights.items()})
            object.__setattr__(out, "_total", self._total)
            return out
        return NotImplemented

    __radd__ = __add__

    def __neg__(self) -> "Dist":
        return Dist({-v: w for v, w in self._weights.items()})

    def __sub__(self, other: "Dist | int") -> "Dist":
        if isinstance(other, (Dist, int)) and not isinstance(other, bool):
            return self + (-other)
        return NotImplemented

    def repeat_sum(self, times: int) -> "Dist":
        """Sum of ``times`` independent copies (binary powering, each step one packed product).

        >>> die(6).repeat_sum(3) == dice_sum(3, 6)
        True
        """
        times = require_int(times, "times", "횟수", 0, limits.MAX_POOL)
        span = self.max - self.min
        limits.check_sum_size(times * (span + 1), "times", "횟수")
        result, power = Dist.constant(0), self
        while times:
            if times & 1:
                result = result + power
            times >>= 1
            if times:
                power = power + power
        return result

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._weights.keys() == other._weights.keys() and \
            all(w * other._total == other._weights[v] * self._total
                for v, w in self._weights.items())

    def __hash__(self) -> int:
        return hash(tuple(self.probabilities().items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{v}: {p}" for v, p in self.probabilities().items())
        return f"Dist({{{inner}}})"


# --- exact polynomial products -----------------------------------------------------------------
# Products whose packed size stays below this many bits multiply as Python ints; larger ones go
# through ``decimal`` (libmpdec multiplies huge numbers in about n log n, CPython ints in n^1.58).
_DECIMAL_FROM_BITS = 400_000


def _pack(coeffs: list[int], width: int) -> int:
    """One int holding each coefficient in its own ``width``-byte slot (lowest first)."""
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in coeffs), "little")


def _unpack(number: int, width: int, count: int) -> list[int]:
    raw = number.to_bytes(width * count, "little")
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, width * count, width)]


def _mul_decimal(a: list[int], b: list[int], digits: int) -> list[int]:
    import decimal   # imported when first needed: most calls never get here

    count = len(a) + len(b) - 1

    def packed(coeffs: list[int]) -> decimal.Decimal:
        return decimal.Decimal("".join(str(c).zfill(digits) for c in reversed(coeffs)))

    ctx = decimal.Context(prec=count * digits + 2, Emax=decimal.MAX_EMAX,
                          traps=[decimal.Inexact, decimal.Rounded, decimal.Overflow])
    text = str(ctx.multiply(packed(a), packed(b))).zfill(count * digits)
    end = len(text)
    return [int(text[end - (i + 1) * digits:end - i * digits]) for i in range(count)]


def _slot_bytes(bound_bits: int) -> int:
    """Bytes of one packed slot holding numbers below ``2**bound_bits`` (one spare byte)."""
    return (bound_bits + 8) // 8


def dense_sum_bits(count_a: int, count_b: int, weight_bits_a: int, weight_bits_b: int) -> int:
    """At least the size in bits of the packed product with which ``Dist + Dist`` adds two
    distributions of ``count_a`` and ``count_b`` consecutive totals whose weights are below
    ``2**weight_bits_a`` and ``2**weight_bits_b`` (what :func:`~widgets.limits.check_product`
    bounds): an expression can be checked before any distribution of it is computed.

    >>> dense_sum_bits(11, 11, 6, 6)     # 2D6 + 2D6: 21 totals, 3-byte slots
    504
    """
    count_a = require_int(count_a, "count_a", "결과 수", 1, 10**9)
    count_b = require_int(count_b, "count_b", "결과 수", 1, 10**9)
    bits_a = require_int(weight_bits_a, "weight_bits_a", "가중치 비트 수", 0, 10**9)
    bits_b = require_int(weight_bits_b, "weight_bits_b", "가중치 비트 수", 0, 10**9)
    # a product coefficient is below max(a)·max(b)·len(shorter): its bits at most the sum
    bound_bits = bits_a + bits_b + min(count_a, count_b).bit_length()
    return (count_a + count_b - 1) * _slot_bytes(bound_bits) * 8


def _poly_mul(a: list[int], b: list[int], checked: bool = True) -> list[int]:
    """Exact product of two lists of non-negative integer coefficients (lowest degree first);
    ``checked=False`` skips the product limit for callers whose own limit bounds the size."""
    if len(a) < len(b):
        a, b = b, a
    if len(b) == 1:
        return [x * b[0] for x in a]
    bound = max(a) * max(b) * len(b)   # no product coefficient can reach this
    count = len(a) + len(b) - 1
    width = _slot_bytes(bound.bit_length())
    if checked:
        limits.check_product(count * width * 8)
    # decimal's fast multiplication pays off when both factors are big; a short factor (4D6KH3
    # added to 100D100) multiplies faster as a plain integer
    if len(b) * width * 8 >= _DECIMAL_FROM_BITS // 4 and count * width * 8 >= _DECIMAL_FROM_BITS \
            and bound.bit_length() < 12_000:
        return _mul_decimal(a, b, len(str(bound)))
    return _unpack(_pack(a, width) * _pack(b, width), width, count)


def _convolve(a: Dist, b: Dist) -> Dist:
    """Distribution of the sum of two independent variables (one packed product)."""
    if len(b._weights) == 1 or len(a._weights) == 1:   # a constant only shifts the other
        single, other = (a, b) if len(a._weights) == 1 else (b, a)
        return other + single.min
    if len(a._weights) * len(b._weights) <= 64 or \
            (a.max - a.min + 1) * (b.max - b.min + 1) > 64 * len(a._weights) * len(b._weights):
        # tiny or sparse: pairwise is cheaper than a dense product
        limits.check_pairs(len(a._weights) * len(b._weights))
        out: dict[int, int] = {}
        for v, w in a._weights.items():
            for u, x in b._weights.items():
                out[v + u] = out.get(v + u, 0) + w * x
        return Dist(out)
    limits.check_sum_size((a.max - a.min) + (b.max - b.min) + 1, "outcomes", "결과 수")
    dense_a = [a._weights.get(v, 0) for v in range(a.min, a.max + 1)]
    dense_b = [b._weights.get(v, 0) for v in range(b.min, b.max + 1)]
    return Dist._dense(a.min + b.min, _poly_mul(dense_a, dense_b))


# --- single dice and sums of equal dice ----------------------------------------------------------
def die(sides: int) -> Dist:
    """One fair die numbered 1..sides.

    >>> die(4).probabilities()[4]
    Fraction(1, 4)
    """
    return _die(require_int(sides, "sides", "주사위 면 수", 1, limits.MAX_SIDES))


@lru_cache(maxsize=64)
def _die(sides: int) -> Dist:
    return Dist._dense(1, [1] * sides)


def d3_face(face: int) -> int:
    """Read a D6 face as a D3: 1–2 → 1, 3–4 → 2, 5–6 → 3 (the one place this rule lives).

    >>> [d3_face(f) for f in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    return (require_int(face, "face", "주사위 눈", 1, 6) + 1) // 2


def d3_from_d6() -> Dist:
    """A D3 read off a D6 (:func:`d3_face`).

    >>> d3_from_d6().probability(2)
    Fraction(1, 3)
    """
    return die(6).map(d3_face)


def _poly(terms: dict[int, int], other: dict[int, int]) -> dict[int, int]:
    """Product of two sparse polynomials {exponent: coefficient}."""
    out: dict[int, int] = {}
    for i, a in terms.items():
        for j, b in other.items():
            out[i + j] = out.get(i + j, 0) + a * b
    return {e: c for e, c in out.items() if c}


@lru_cache(maxsize=256)
def _mixed_weights(groups: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Weights of the totals of several groups ``(count, sides)`` of dice (lowest total first).

    P = Π f_i**n_i with f_i = (1 − x**s_i)/(1 − x) satisfies Q·P' = R·P for the sparse
    polynomials Q = (1 − x)·Π(1 − x**s_i) and R = Q·Σ n_i·f_i'/f_i, so each weight follows from a
    few earlier ones (exact division by k + 1); P is a palindrome, so half is computed.
    """
    groups = tuple((n, s) for n, s in groups if n and s > 1)
    if not groups:
        return (1,)
    top = sum(n * (s - 1) for n, s in groups)
    q = {0: 1, 1: -1}
    for _, s in groups:
        q = _poly(q, {0: 1, s: -1})
    r: dict[int, int] = {}
    for i, (n, s) in enumerate(groups):
        # n·(f'/f)·Q = n·[Π_j (1 − x**s_j) − s·x**(s−1)·(1 − x)·Π_{j≠i} (1 − x**s_j)]
        rest = {0: 1}
        for j, (_, s_j) in enumerate(groups):
            if j != i:
                rest = _poly(rest, {0: 1, s_j: -1})
        part = _poly(_poly(rest, {0: 1, s: -1}), {0: n})
        part2 = _poly(_poly(rest, {s - 1: -n * s, s: n * s}), {0: 1})
        for e, c in list(part.items()) + list(part2.items()):
            r[e] = r.get(e, 0) + c
    r_terms = sorted((e, c) for e, c in r.items() if c)
    q_terms = sorted((e, c) for e, c in q.items() if c and e)
    c = [0] * (top + 1)
    c[0] = 1
    for k in range(top // 2):
        v = 0
        for e, coeff in r_terms:
            if e > k:
                break
            v += coeff * c[k - e]
        for e, coeff in q_terms:
            if e > k + 1:
                break
            v -= coeff * (k + 1 - e) * c[k + 1 - e]
        c[k + 1] = v // (k + 1)
    for k in range(top // 2 + 1, top + 1):
        c[k] = c[top - k]
    return tuple(c)


def dice_sum(count: int, sides: int) -> Dist:
    """Sum of ``count`` dice with ``sides`` faces (``0`` dice sums to 0).

    >>> dice_sum(3, 6).at_least(18), dice_sum(0, 6).probabilities()
    (Fraction(1, 216), {0: Fraction(1, 1)})
    """
    count = require_int(count, "count", "주사위 개수", 0, limits.MAX_SUM_DICE)
    sides = require_int(sides, "sides", "주사위 면 수", 1, limits.MAX_SIDES)
    limits.check_sum(count, sides)
    return _dice_sum(count, sides)


@lru_cache(maxsize=256)
def _dice_sum(count: int, sides: int) -> Dist:
    return Dist._dense(count, list(_mixed_weights(((count, sides),))))


#: Distinct die sizes one recurrence takes at once (its sparse polynomials have about
#: 2**(groups + 1) terms); more are summed in chunks and the chunks convolved.
_GROUPS_PER_RECURRENCE = 4


def _group_chunks(groups: Iterable[tuple[int, int]]) -> tuple[int, list[tuple[tuple[int, int], ...]]]:
    """Checked groups as (number of one-sided dice, chunks of at most
    :data:`_GROUPS_PER_RECURRENCE` ``(count, sides)`` groups, one recurrence each)."""
    checked: dict[int, int] = {}
    for item in require_items(groups, "groups", "주사위 묶음", limits.MAX_EXPRESSION_TERMS * 2):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise RuleInputError(f"a group of dice is a (count, sides) pair, got {shown(item)}",
                                 f"주사위 묶음은 (개수, 면 수) 쌍입니다 (입력값: {shown(item)}).")
        count = require_int(item[0], "count", "주사위 개수", 0, limits.MAX_SUM_DICE)
        sides = require_int(item[1], "sides", "주사위 면 수", 1, limits.MAX_SIDES)
        checked[sides] = checked.get(sides, 0) + count
    limits.check_sum_groups(checked.items())
    ones = checked.pop(1, 0)
    key = tuple(sorted((n, s) for s, n in checked.items() if n))
    return ones, [key[i:i + _GROUPS_PER_RECURRENCE] for i in range(0, len(key), _GROUPS_PER_RECURRENCE)]


def _chunks_product_bits(chunks: list[tuple[tuple[int, int], ...]]) -> int:
    """Bits of the products joining the chunks' sums, in order (each running total's weights are
    below the product of the totals, so their bit lengths add)."""
    width, bits, total = 1, 0, 0
    for chunk in chunks:
        chunk_width = sum(n * (s - 1) for n, s in chunk) + 1
        chunk_bits = math.prod(s ** n for n, s in chunk).bit_length()
        if width > 1:
            total += dense_sum_bits(width, chunk_width, bits, chunk_bits)
        width, bits = width + chunk_width - 1, bits + chunk_bits
    return total


def groups_product_bits(groups: Iterable[tuple[int, int]]) -> int:
    """At least the bits of the packed products with which :func:`dice_groups_sum` joins its
    recurrences (one per four die sizes; 0 for up to four sizes): what it checks against
    :data:`~widgets.limits.MAX_PRODUCT_BITS` before computing anything.

    >>> groups_product_bits([(100, 100), (99, 99)]), groups_product_bits([(1, s) for s in range(2, 8)])
    (0, 528)
    """
    return _chunks_product_bits(_group_chunks(groups)[1])


def dice_groups_sum(groups: Iterable[tuple[int, int]]) -> Dist:
    """Sum of groups of dice ``(count, sides)``, e.g. ``[(1, 10), (1, 4)]`` for 1D10+1D4:
    one recurrence over the totals, no products of big distributions.

    >>> dice_groups_sum([(1, 10), (1, 4)]).probability(14)
    Fraction(1, 40)
    """
    ones, chunks = _group_chunks(groups)
    # more than four sizes take one product per further chunk: checked before any is computed
    limits.check_product(_chunks_product_bits(chunks))
    weights, low = [1], ones
    for chunk in chunks:
        weights = _poly_mul(weights, list(_mixed_weights(chunk)), checked=False)
        low += sum(n for n, _ in chunk)
    return Dist._dense(low, weights)


# --- keeping the highest or lowest dice -----------------------------------------------------------
def keep_highest(count: int, keep: int, sides: int) -> Dist:
    """Sum of the ``keep`` highest of ``count`` dice with ``sides`` faces.

    Order statistics, not rolls: for each face ``t`` of the lowest kept die and each number ``a``
    (< ``keep``) of dice above it, the ``a`` dice above ``t`` are a sum of ``a`` dice on the
    faces ``t+1 … sides`` and every other kept die shows ``t``; the rest show ``t`` or less.
    Horner's rule in ``a`` turns each face into ``keep`` steps of a few shifted additions of
    packed integers.

    >>> keep_highest(2, 1, 6).probability(6)   # 1 − (5/6)²
    Fraction(11, 36)
    """
    count = require_int(count, "count", "주사위 개수", 0, limits.MAX_POOL)
    keep = require_int(keep, "keep", "남길 주사위 수", 0, count)
    sides = require_int(sides, "sides", "주사위 면 수", 1, limits.MAX_SIDES)
    limits.check_keep(count, keep, sides)
    return _keep_highest(count, keep, sides)


@lru_cache(maxsize=256)
def _keep_highest(n: int, k: int, s: int) -> Dist:
    if k == 0:
        return Dist.constant(0)
    if k == n or s == 1:
        return Dist._dense(k, list(_mixed_weights(((k, s),)))) if k == n else Dist.constant(k)
    width = ((s**n).bit_length() + 8) // 8      # every partial weight is at most s**n
    size = k * (s - 1) + 1                      # kept totals k … k·s
    shift = 8 * width
    total = 0
    for t in range(1, s + 1):
        m = s - t                               # faces above t
        low = t - 1
        # g[a]: ways to choose which a dice lie above t and to place the other n − a dice so that
        # at least k − a of them show t and the rest show less
        g = []
        for a in range(min(k, n) if m else 1):
            r, need = n - a, k - a
            below = sum(comb(r, b) * low ** (r - b) for b in range(need))
            g.append(comb(n, a) * (t ** r - below))
        # Σ_a g[a]·(x·(1 + x + … + x^(m−1)))^a by Horner's rule; x^a shifts a dice above t by a
        acc = g[-1]
        for a in range(len(g) - 2, -1, -1):
            acc = (_times_ones(acc, m, shift) << shift) + g[a]
        total += acc << (shift * (k * t - k))
    return Dist._dense(k, _unpack(total, width, size))


def _times_ones(acc: int, m: int, shift: int) -> int:
    """``acc`` (packed, ``shift``-bit slots) times 1 + x + … + x^(m−1) by doubling: about
    2·log2(m) shifted additions instead of a multiplication by a wide packed number."""
    result, length = acc, 1
    for bit in bin(m)[3:]:
        result += result << (length * shift)
        length *= 2
        if bit == "1":
            result = acc + (result << shift)
            length += 1
    return result


def keep_lowest(count: int, keep: int, sides: int) -> Dist:
    """Sum of the ``keep`` lowest of ``count`` dice (mirror image of :func:`keep_highest`).

    >>> keep_lowest(2, 1, 6).probability(1)
    Fraction(11, 36)
    """
    highest = keep_highest(count, keep, sides)
    # face f ↔ sides + 1 − f turns the highest k into the lowest k
    mirror = keep * (sides + 1)
    return Dist._dense(mirror - highest.max,
                       [highest._weights.get(v, 0) for v in range(highest.max, highest.min - 1, -1)])


def roll_and_keep(kept: int, extra: int, sides: int = 6) -> Dist:
    """Roll ``kept + |extra|`` dice and keep ``kept``: the highest if ``extra > 0``, the lowest
    if ``extra < 0``, a plain sum if 0 (the ±DICE pattern).

    >>> roll_and_keep(2, 1) == keep_highest(3, 2, 6), roll_and_keep(2, 0) == dice_sum(2, 6)
    (True, True)
    """
    kept = require_int(kept, "kept", "남길 주사위 수", 0, limits.MAX_POOL)
    span = limits.MAX_POOL - kept
    extra = require_int(extra, "extra", "추가 주사위 수", -span, span)
    if extra > 0:
        return keep_highest(kept + extra, kept, sides)
    if extra < 0:
        return keep_lowest(kept - extra, kept, sides)
    return dice_sum(kept, sides)


def kept_total(rolls: Iterable[int], kept: int, highest: bool) -> int:
    """Total of the ``kept`` highest (or lowest) of some actual rolled values.

    >>> kept_total([3, 4, 5], 2, highest=True), kept_total([3, 4, 5], 2, highest=False)
    (9, 7)
    """
    if isinstance(rolls, (str, bytes)) or not isinstance(rolls, Iterable):
        rolls = [rolls]
    values = sorted(require_int(r, "roll", "주사위 눈", -10**6, 10**6)
                    for r in list(islice(rolls, limits.MAX_POOL + 1)))
    if len(values) > limits.MAX_POOL:
        limits.refuse_pool(len(values))
    kept = require_int(kept, "kept", "남길 주사위 수", 0, len(values))
    chosen = values[len(values) - kept:] if require_bool(highest, "highest", "높은 쪽 여부") \
        else values[:kept]
    return sum(chosen)


#: Most grades a graded result has (:func:`or_better`).
MAX_GRADES = 64


def or_better(odds: Mapping[str, Fraction], order: Iterable[str]) -> dict[str, Fraction]:
    """Each grade of a graded result "or better": ``odds`` is an exact odds table (what one of
    the library's ``…_odds`` functions returns) and ``order`` its keys from the best grade down;
    the answer maps each grade, in that order, to the chance of it or any better grade (the
    GM's "a hard success or better", "Down or worse"). The last is always 1.

    >>> or_better({"failure": Fraction(7, 12), "success": Fraction(1, 3), "critical": Fraction(1, 12)},
    ...           ("critical", "success", "failure"))
    {'critical': Fraction(1, 12), 'success': Fraction(5, 12), 'failure': Fraction(1, 1)}
    >>> or_better({"hit": Fraction(1, 2), "miss": Fraction(1, 2)}, ("hit",))
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: odds must be an exact odds table of 'hit', got {'hit': Fraction(1, 2), 'miss': Fractio…
    """
    order = tuple(require_items(order, "order", "등급 순서", MAX_GRADES))
    if not all(isinstance(key, str) for key in order):
        raise RuleInputError(f"order must name grades as text, got {shown(order)}",
                             f"등급 순서는 등급 이름(글자)으로 적어야 합니다 (입력값: {shown(order)}).")
    if len(set(order)) != len(order):
        raise RuleInputError(f"order must name each grade once, got {shown(order)}",
                             f"등급 순서에는 각 등급이 한 번씩만 있어야 합니다 (입력값: {shown(order)}).")
    table = require_odds(odds, order, "odds", "확률표")
    running, out = Fraction(0), {}
    for key in order:
        running += table[key]
        out[key] = running
    return out


# --- rolls that can go on without end ----------------------------------------------------------
class OpenDist:
    """The exact distribution of a roll that can go on without end (exploding dice, rerolls that
    add dice): the exact weight of every outcome below :attr:`cut`, and one exact weight, the
    :attr:`rest`, for all the outcomes at or above it together. Nothing is cut off silently: the
    shown weights and the rest add up to :attr:`total`.

    >>> d6x = exploding_sum(1, 6, below=13)     # 1D6 where a 6 rolls again and adds
    >>> d6x.probability(7), d6x.rest_probability(), d6x.cut
    (Fraction(1, 36), Fraction(1, 36), 13)
    >>> d6x.at_least(7), d6x.mean()           # the mean is known exactly: 3.5 / (1 − 1/6)
    (Fraction(1, 6), Fraction(21, 5))
    """

    __slots__ = ("_weights", "_total", "_cut", "_mean", "_known")

    def __init__(self, weights: Mapping[int, int], total: int, cut: int,
                 mean: "Fraction | None" = None):
        cut = require_int(cut, "cut", "경계", -10**9, 10**9)
        if isinstance(total, bool) or not isinstance(total, int) or total < 1 or \
                total.bit_length() > limits.MAX_PRODUCT_BITS:
            raise RuleInputError(f"total must be a whole number from 1, got {shown(total)}",
                                 f"전체 가중치는 1 이상의 정수여야 합니다 (입력값: {shown(total)}).")
        if isinstance(weights, Mapping):
            if len(weights) > limits.MAX_OPEN_REACH:
                raise RuleInputError(f"weights must hold at most {limits.MAX_OPEN_REACH} outcomes, got "
                                     f"{shown(weights)}", f"가중치는 결과 {limits.MAX_OPEN_REACH}가지까지입니다 "
                                     f"(입력값: {shown(weights)}).")
            weights = list(weights.items())
        items = require_items(weights, "weights", "가중치", limits.MAX_OPEN_REACH)
        cleaned = {}
        for v, w in items:
            v = require_int(v, "outcome", "결과", -10**9, cut - 1)
            if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w <= total:
                raise RuleInputError(f"a weight must be a whole number from 0 to the total, got {shown(w)}",
                                     f"가중치는 0부터 전체 가중치까지의 정수여야 합니다 (입력값: {shown(w)}).")
            if w:
                cleaned[v] = w
        if sum(cleaned.values()) > total:
            raise RuleInputError("the shown weights exceed the total",
                                 "보이는 결과의 가중치 합이 전체보다 큽니다.")
        self._set(dict(sorted(cleaned.items())), total, cut, mean)

    def _set(self, weights: dict, total: int, cut: int, mean) -> None:
        object.__setattr__(self, "_weights", weights)
        object.__setattr__(self, "_total", total)
        object.__setattr__(self, "_cut", cut)
        object.__setattr__(self, "_mean", None if mean is None else Fraction(mean))

    @classmethod
    def _trusted(cls, weights: dict, total: int, cut: int, mean=None) -> "OpenDist":
        out = object.__new__(cls)
        out._set(weights, total, cut, mean)
        return out

    def __setattr__(self, name, value):
        raise AttributeError("OpenDist is immutable")

    # --- reading ------------------------------------------------------------------
    @property
    def cut(self) -> int:
        """Every outcome below this is shown exactly; the rest lie at or above it."""
        return self._cut

    @property
    def total(self) -> int:
        return self._total

    @property
    def rest(self) -> int:
        """The weight of all outcomes at or above :attr:`cut` together."""
        return self._total - sum(self._weights.values())

    @property
    def low(self) -> int:
        """No outcome is below this (the lowest shown one, or the cut when none is shown)."""
        return next(iter(self._weights), self._cut)

    def outcomes(self) -> list[int]:
        return list(self._weights)

    def probability(self, value: int) -> Fraction:
        value = require_int(value, "value", "값", -10**9, self._cut - 1)
        return _reduced(self._weights.get(value, 0), self._total)

    def probabilities(self) -> dict[int, Fraction]:
        """The shown outcomes' exact probabilities (with :meth:`rest_probability`, they sum to 1)."""
        total = self._total
        factors = self._total_factors() if len(self._weights) > 8 else None
        return {v: _reduced_by(w, total, factors) for v, w in self._weights.items()}

    def _total_factors(self):
        return _known_factors(self)

    def rest_probability(self) -> Fraction:
        """P(outcome ≥ :attr:`cut`), exactly."""
        return _reduced(self.rest, self._total)

    def at_least(self, threshold: int) -> Fraction:
        """P(X ≥ threshold) for a threshold up to :attr:`cut` (exact: the rest is included)."""
        threshold = require_int(threshold, "threshold", "기준", -10**9, self._cut)
        return _reduced_by(sum(w for v, w in self._weights.items() if v >= threshold) + self.rest,
                           self._total, self._total_factors())

    def at_most(self, threshold: int) -> Fraction:
        """P(X ≤ threshold) for a threshold below :attr:`cut`."""
        threshold = require_int(threshold, "threshold", "기준", -10**9, self._cut - 1)
        return _reduced_by(sum(w for v, w in self._weights.items() if v <= threshold), self._total,
                           self._total_factors())

    def mean(self) -> "Fraction | None":
        """The exact mean where it is known (sums of exploding dice and of chains), else None."""
        return self._mean

    def closed(self) -> "Dist | None":
        """The same distribution as a :class:`Dist` when nothing lies at or above the cut.

        >>> chain_count(2, 6, continue_on=[6], counted=[1]).closed().outcomes()   # ones among 2R6
        [0, 1, 2]
        """
        return Dist._dense(self.low, [self._weights.get(v, 0) for v in range(self.low, self.max + 1)]) \
            if self.rest == 0 and self._weights else None

    @property
    def max(self) -> int:
        """The highest shown outcome (below the cut)."""
        return next(reversed(self._weights), self._cut - 1)

    # --- combining ----------------------------------------------------------------
    def __add__(self, other: "OpenDist | Dist | int") -> "OpenDist":
        """The sum with an independent roll: exact below the lowest value the unknown part of
        either can reach."""
        if isinstance(other, int) and not isinstance(other, bool):
            return OpenDist._trusted({v + other: w for v, w in self._weights.items()}, self._total,
                                     self._cut + other, None if self._mean is None else self._mean + other)
        if isinstance(other, Dist):
            cut, other_low, other_total = self._cut + other.min, other.min, other.total
            other_weights, other_mean = other._weights, other.mean()
        elif isinstance(other, OpenDist):
            cut = min(self._cut + other.low, other._cut + self.low)
            other_low, other_total, other_weights, other_mean = other.low, other._total, other._weights, other._mean
        else:
            return NotImplemented
        mean = None if self._mean is None or other_mean is None else self._mean + other_mean
        low = self.low + other_low
        if not self._weights or not other_weights or low >= cut:
            return OpenDist._trusted({}, self._total * other_total, cut, mean)
        a = [self._weights.get(v, 0) for v in range(self.low, min(self.max, cut - other_low - 1) + 1)]
        top = max(other_weights)
        b = [other_weights.get(v, 0) for v in range(other_low, min(top, cut - self.low - 1) + 1)]
        product = _poly_mul(a, b)[:cut - low]
        return OpenDist._trusted({low + i: w for i, w in enumerate(product) if w},
                                 self._total * other_total, cut, mean)

    __radd__ = __add__

    def map_increasing(self, function: Callable[[int], int], mean: "Fraction | None" = None) -> "OpenDist":
        """The distribution of ``function(X)`` for a function that never decreases (a division by
        a positive number, whatever its rounding): exact below ``function(cut)``.

        >>> exploding_sum(1, 6, below=13).map_increasing(lambda v: v // 2).probability(2)   # 4 or 5
        Fraction(1, 3)
        """
        if not callable(function):
            raise RuleInputError(f"function must be callable, got {shown(function)}",
                                 f"함수를 넣어 주세요 (입력값: {shown(function)}).")
        cut = int(function(self._cut))
        out: dict[int, int] = {}
        previous = None
        for v, w in self._weights.items():
            u = int(function(v))
            if previous is not None and u < previous:
                raise RuleInputError("the function decreases", "값이 줄어드는 함수에는 쓸 수 없습니다.")
            previous = u
            if u < cut:
                out[u] = out.get(u, 0) + w
        return OpenDist._trusted(out, self._total, cut, mean)

    def trimmed(self, rest: Fraction, keep_below: "int | None" = None) -> "OpenDist":
        """The same roll shown only up to where the rest is at most ``rest``: the lowest cut
        (not below ``keep_below``) whose rest is that small.

        >>> d = exploding_sum(2, 6, below=60)
        >>> d.trimmed(Fraction(1, 1000)).cut, d.trimmed(Fraction(1, 1000)).rest_probability() <= Fraction(1, 1000)
        (33, True)
        """
        limit = require_number(rest, "rest", "나머지", 0, 1)
        floor_cut = self.low if keep_below is None else \
            require_int(keep_below, "keep_below", "남길 경계", -10**9, self._cut)
        tail, cut = self.rest, self._cut
        num, den = limit.numerator, limit.denominator
        allowed = num * self._total
        for v in reversed(self._weights):
            if v < floor_cut or (tail + self._weights[v]) * den > allowed:
                break
            tail += self._weights[v]
            cut = v
        cut = max(min(cut, self._cut), floor_cut)
        return OpenDist._trusted({v: w for v, w in self._weights.items() if v < cut}, self._total,
                                 cut, self._mean)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OpenDist):
            return NotImplemented
        return self._cut == other._cut and self.probabilities() == other.probabilities() and \
            self.rest_probability() == other.rest_probability()

    def __hash__(self) -> int:
        return hash((self._cut, tuple(self.probabilities().items())))

    def __repr__(self) -> str:
        inner = ", ".join(f"{v}: {p}" for v, p in self.probabilities().items())
        return f"OpenDist({{{inner}}}, {self._cut} 이상: {self.rest_probability()})"


# A chain of rolls as a generating function: one copy is P(x) / (m - K(x)), where K(x) holds the
# faces that roll again (their values as powers of x, K(0) = 0) and P(x) the faces that end the
# chain (P(1) + K(1) = m). n copies: P^n · (m - K)^-n, and (m - K)^-n follows from
# (m - K)·B' = n·K'·B: one short recurrence per coefficient, in integers over m^(n + J).
Series = tuple  # ((degree, weight), ...) sorted by degree


def _checked_series(P: object, m: object, K: object, n: object) -> tuple[Series, int, Series, int]:
    """(P, m, K, n) of a chain (see :func:`open_series`), checked: small whole numbers, degrees
    in order, K without a constant term, P(1) + K(1) = m (the chain's probabilities add up)."""
    if type(P) is tuple and type(K) is tuple and type(m) is int and type(n) is int:
        try:
            return _checked_series_cached(P, m, K, n)
        except TypeError:                    # not hashable: checked below
            pass
    return _check_series(P, m, K, n)


@lru_cache(maxsize=256)
def _checked_series_cached(P: Series, m: int, K: Series, n: int) -> tuple[Series, int, Series, int]:
    return _check_series(P, m, K, n)


def _check_series(P: object, m: object, K: object, n: object) -> tuple[Series, int, Series, int]:
    m = require_int(m, "m", "주사위 면 수", 1, limits.MAX_SIDES ** 2)
    n = require_int(n, "n", "주사위 개수", 0, limits.MAX_ROLLED_DICE)
    polys = []
    for poly, name, low in ((P, "P", 0), (K, "K", 1)):
        items = require_items(poly, name, "생성함수", limits.MAX_SIDES)
        out = []
        for item in items:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise RuleInputError(f"{name} holds (degree, weight) pairs, got {shown(item)}",
                                     f"생성함수는 (차수, 가중치) 쌍입니다 (입력값: {shown(item)}).")
            out.append((require_int(item[0], "degree", "차수", low, 10 * limits.MAX_SIDES),
                        require_int(item[1], "weight", "가중치", 1, m)))
        if [d for d, _ in out] != sorted({d for d, _ in out}):
            raise RuleInputError(f"{name}'s degrees must rise", "생성함수의 차수는 커지는 순서여야 합니다.")
        polys.append(tuple(out))
    P, K = polys
    if not P or sum(c for _, c in P) + sum(c for _, c in K) != m:
        raise RuleInputError("P(1) + K(1) must be m (and P not empty)",
                             "생성함수의 가중치 합이 면 수와 같아야 합니다 (끝나는 눈이 있어야 합니다).")
    return P, m, K, n


def _series_power(poly: Series, n: int, length: int) -> list[int]:
    """Coefficients 0 … length−1 of (poly / x^low)^n: a block of ones is a dice sum (its
    recurrence), two terms a binomial, anything else binary powering of packed products."""
    low = poly[0][0]
    degrees = [d - low for d, _ in poly]
    coeffs = [0] * (degrees[-1] + 1)
    for d, c in zip(degrees, (c for _, c in poly)):
        coeffs[d] = c
    if n == 0:
        return [1][:length]
    if all(c == 1 for c in coeffs):
        return list(_mixed_weights(((n, len(coeffs)),)))[:length]
    if len(poly) == 2 and degrees[1] == 1:
        d, c = coeffs[0], coeffs[1]
        return [comb(n, k) * c ** k * d ** (n - k) for k in range(min(n, length - 1) + 1)]
    result, power = [1], coeffs[:length]
    while n:
        if n & 1:
            result = _poly_mul(result, power, checked=False)[:length]
        n >>= 1
        if n:
            power = _poly_mul(power, power, checked=False)[:length]
    return result


def _series_shape(P: Series, m: int, K: Series, n: int, cut: int) -> tuple[int, int, int]:
    """(lowest outcome, number of coefficients computed, J: most rolls again among them)."""
    low = P[0][0] * n
    length = max(0, cut - low)
    jumps = (length - 1) // K[0][0] if K and length else 0
    return low, length, jumps


def series_work(P: Series, m: int, K: Series, n: int, cut: int) -> tuple[int, int]:
    """(work of the recurrence and of reading the result: coefficients × their bits, bits of the
    packed product) of :func:`_series` to ``cut``: what :func:`~widgets.limits.check_open` bounds
    before anything is computed.

    >>> series_work(((1, 1), (2, 1), (3, 1), (4, 1), (5, 1)), 6, ((6, 1),), 2, 40)
    (1482, 1472)
    """
    P, m, K, n = _checked_series(P, m, K, n)
    cut = require_int(cut, "cut", "계산할 경계", -10**6, 10**6)
    low, length, jumps = _series_shape(P, m, K, n, cut)
    if not length:
        return 0, 0
    if length > limits.MAX_OPEN_REACH:
        return length * max(1, len(K)), limits.MAX_PRODUCT_BITS + 1   # refused, nothing computed
    p_width = min(length, n * (P[-1][0] - P[0][0]) + 1)
    p_bits = int(n * math.log2(sum(c for _, c in P))) + 2
    b_width = length if K else 1
    # every coefficient of (m − K)^−n is at most the sum of them all, (m − K(1))^−n
    b_bits = int((n + jumps) * math.log2(m) - n * math.log2(m - sum(c for _, c in K))) + 2
    total_bits = int((n + jumps) * math.log2(m)) + 1
    work = length * (max(1, len(K)) * b_bits + total_bits)
    if p_width == 1 or b_width == 1:
        return work, 0
    return work, dense_sum_bits(p_width, b_width, p_bits, b_bits)


@lru_cache(maxsize=128)
def _series(P: Series, m: int, K: Series, n: int, cut: int) -> OpenDist:
    """n independent chains P/(m − K): exact below ``cut``."""
    low, length, jumps = _series_shape(P, m, K, n, cut)
    mean = _series_mean(P, m, K, n)
    if length == 0:
        return OpenDist._trusted({}, 1, cut, mean)
    a = _series_power(P, n, length)
    total = m ** (n + jumps)
    if not K:
        b = [1]
    else:
        b = [0] * length
        b[0] = m ** jumps
        terms = [(d, c) for d, c in K if d < length]
        for t in range(1, length):
            acc = 0
            for d, c in terms:
                if d > t:
                    break
                acc += c * b[t - d] * (t - d + n * d)
            b[t] = acc // (m * t)
    weights = _poly_mul(a, b, checked=False)[:length]
    return OpenDist._trusted({low + i: w for i, w in enumerate(weights) if w}, total, cut, mean)


def _series_mean(P: Series, m: int, K: Series, n: int) -> Fraction:
    """The exact mean of n chains: n·(P'(1) + K'(1)) / (m − K(1))."""
    q = m - sum(c for _, c in K)
    return Fraction(n * (sum(d * c for d, c in P) + sum(d * c for d, c in K)), q)


def series_reach(P: Series, m: int, K: Series, n: int, rest: Fraction) -> int:
    """A value the sum of n chains P/(m − K) reaches with probability at most ``rest`` (a
    Chernoff bound in floating point, used only to decide how far to compute: every shown
    probability is then exact, and the rest is checked exactly).

    >>> series_reach(((1, 1), (2, 1), (3, 1), (4, 1), (5, 1)), 6, ((6, 1),), 1, Fraction(1, 10**6)) > 40
    True
    """
    P, m, K, n = _checked_series(P, m, K, n)
    eps = float(require_number(rest, "rest", "나머지", Fraction(1, 10**30), 1))
    return _reach(P, m, K, n, eps)


def _runs(poly: Series) -> tuple[tuple[int, int, float], ...]:
    """A polynomial as runs of consecutive degrees with one weight: (first degree, length, log
    weight); a die's faces are one or two runs, so the bound below costs a few exponentials."""
    runs: list[list] = []
    for d, c in poly:
        if runs and runs[-1][0] + runs[-1][1] == d and runs[-1][2] == c:
            runs[-1][1] += 1
        else:
            runs.append([d, 1, c])
    return tuple((d, length, math.log(c)) for d, length, c in runs)


def _log_sum(runs: tuple, t: float) -> float:
    """log Σ weight·e^(degree·t) over the runs (t > 0), without overflow."""
    logs = []
    for d, length, log_c in runs:
        # Σ_{j<length} e^((d+j)t) = e^(dt)·(e^(length·t) − 1)/(e^t − 1)
        logs.append(log_c + d * t + (math.log(math.expm1(length * t) / math.expm1(t))
                                     if length * t < 700 else (length - 1) * t - math.log1p(-math.exp(-t))))
    top = max(logs)
    return top + math.log(math.fsum(math.exp(v - top) for v in logs))


@lru_cache(maxsize=256)
def _reach(P: Series, m: int, K: Series, n: int, eps: float) -> int:
    if not K:
        return n * P[-1][0] + 1
    p_runs, k_runs = _runs(P), _runs(K)
    log_m = math.log(m)
    hi = 1.0
    while _log_sum(k_runs, hi) < log_m:
        hi *= 2
    lo = 0.0
    for _ in range(48):                      # the largest t with K(e^t) < m
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _log_sum(k_runs, mid) < log_m else (lo, mid)

    def bound(t: float) -> float:
        room = m - math.exp(_log_sum(k_runs, t))
        if room <= 0 or t <= 0:
            return math.inf
        return (n * (_log_sum(p_runs, t) - math.log(room)) - math.log(eps)) / t

    best = min(bound(lo * i / 32) for i in range(1, 32))
    a, b = 0.0, lo                           # then a golden-section search near the best
    for _ in range(40):
        c, d = b - (b - a) * 0.618, a + (b - a) * 0.618
        if bound(c) < bound(d):
            b = d
        else:
            a = c
    best = min(best, bound((a + b) / 2))
    return int(math.ceil(best)) + 1 if math.isfinite(best) else 10**9


def _faces(faces: object, sides: int, name: str, name_ko: str) -> frozenset[int]:
    items = require_items(faces, name, name_ko, limits.MAX_SIDES)
    return frozenset(require_int(f, name, name_ko, 1, sides) for f in items)


def exploding_sum(count: int, sides: int, explode_on: "Iterable[int] | None" = None,
                  penetrating: bool = False, below: "int | None" = None) -> OpenDist:
    """Sum of ``count`` dice with ``sides`` faces where every face in ``explode_on`` (default:
    the highest) rolls one more die and adds it, again and again (Roll20's ``!``, Foundry's
    ``x``, BCDice's U dice); ``penetrating`` counts each extra roll one less (Roll20's ``!p``).
    Exact below ``below`` (default: far enough that the rest is at most
    :data:`~widgets.limits.OPEN_REST`).

    >>> d = exploding_sum(1, 6)
    >>> d.probability(6), d.probability(12), d.rest_probability() <= Fraction(1, 10**6)
    (Fraction(0, 1), Fraction(0, 1), True)
    >>> exploding_sum(1, 6).probability(13)     # 6, 6, then a 1
    Fraction(1, 216)
    """
    count = require_int(count, "count", "주사위 개수", 1, limits.MAX_TERM_DICE)
    sides = require_int(sides, "sides", "주사위 면 수", 2, limits.MAX_SIDES)
    faces = frozenset((sides,)) if explode_on is None else _faces(explode_on, sides, "explode_on", "폭발하는 눈")
    penetrating = require_bool(penetrating, "penetrating", "관통 여부")
    P, m, K = explode_series(sides, faces, penetrating)
    return open_series(P, m, K, count, below)


def explode_series(sides: int, faces: frozenset, penetrating: bool = False) -> tuple[Series, int, Series]:
    """(P, m, K) of one exploding die (see :func:`open_series`); refuses faces that would make
    every roll explode (it would never end).

    >>> explode_series(6, frozenset({6}))
    (((1, 1), (2, 1), (3, 1), (4, 1), (5, 1)), 6, ((6, 1),))
    """
    sides = require_int(sides, "sides", "주사위 면 수", 1, limits.MAX_SIDES)
    faces = _faces(faces, sides, "faces", "폭발하는 눈")
    penetrating = require_bool(penetrating, "penetrating", "관통 여부")
    if len(faces) >= sides:
        raise RuleInputError(f"every face of a d{sides} explodes: the roll would never end",
                             f"{sides}면 주사위의 모든 눈이 폭발해 굴림이 끝나지 않습니다.")
    P = tuple((v, 1) for v in range(1, sides + 1) if v not in faces)
    if not penetrating:
        return P, sides, tuple((v, 1) for v in sorted(faces))
    again = [v - 1 for v in sorted(faces)]        # an extra roll counts one less
    zero = again.count(0)                         # a penetrating 1 adds nothing and rolls again
    return P, sides - zero, tuple((d, 1) for d in again if d)


def chain_series(sides: int, continue_on: frozenset, counted: frozenset) -> tuple[Series, int, Series]:
    """(P, m, K) of the number of counted faces in one chain where each face in ``continue_on``
    rolls one more die (BCDice's R dice; the powers of x count the counted faces).

    >>> chain_series(6, frozenset({6}), frozenset({5, 6}))
    (((0, 4), (1, 1)), 6, ((1, 1),))
    """
    sides = require_int(sides, "sides", "주사위 면 수", 1, limits.MAX_SIDES)
    continue_on = _faces(continue_on, sides, "continue_on", "다시 굴리는 눈")
    counted = _faces(counted, sides, "counted", "세는 눈")
    if len(continue_on) >= sides:
        raise RuleInputError(f"every face of a d{sides} rolls again: the roll would never end",
                             f"{sides}면 주사위의 모든 눈이 다시 굴려 굴림이 끝나지 않습니다.")
    a = len(continue_on & counted)                # roll again and counted
    b = len(continue_on - counted)                # roll again, not counted
    c = len(counted - continue_on)
    d = sides - a - b - c
    P = tuple((deg, w) for deg, w in ((0, d), (1, c)) if w)
    return P, sides - b, (((1, a),) if a else ())


def chain_count(count: int, sides: int, continue_on: Iterable[int], counted: Iterable[int],
                below: "int | None" = None) -> OpenDist:
    """BCDice's R dice: ``count`` dice with ``sides`` faces, where each die showing a face in
    ``continue_on`` adds one more die, until none does; the number of all rolled dice showing a
    face in ``counted``. Exact below ``below`` (default: until the rest is at most
    :data:`~widgets.limits.OPEN_REST`).

    >>> sixes = chain_count(2, 6, continue_on=[6], counted=[6])    # 2R6[6]>=6: successes
    >>> sixes.probability(0), sixes.probability(1)
    (Fraction(25, 36), Fraction(25, 108))
    """
    count = require_int(count, "count", "주사위 개수", 1, limits.MAX_TERM_DICE)
    sides = require_int(sides, "sides", "주사위 면 수", 1, limits.MAX_SIDES)
    again = _faces(continue_on, sides, "continue_on", "다시 굴리는 눈")
    hits = _faces(counted, sides, "counted", "세는 눈")
    P, m, K = chain_series(sides, again, hits)
    if not P:      # every counted face rolls again and nothing else ends the chain: never ends
        raise RuleInputError("the chain never ends", "굴림이 끝나지 않습니다.")
    return open_series(P, m, K, count, below)


def open_series(P: Series, m: int, K: Series, n: int, below: "int | None" = None) -> OpenDist:
    """n independent chains P/(m − K) (see :func:`explode_series`), exact below ``below`` or,
    by default, trimmed to where the rest is at most :data:`~widgets.limits.OPEN_REST`; the
    size of the work is checked first (:func:`~widgets.limits.check_open`).

    >>> open_series(((1, 1),), 2, ((1, 1),), 1).probability(3)      # a coin: tails, tails, heads
    Fraction(1, 8)
    """
    P, m, K, n = _checked_series(P, m, K, n)
    trim = below is None
    cut = series_reach(P, m, K, n, limits.OPEN_REST) if trim else \
        require_int(below, "below", "계산할 경계", -10**6, 10**6)
    limits.check_open(cut - P[0][0] * n, 0, 0)
    limits.check_open(cut - P[0][0] * n, *series_work(P, m, K, n, cut))
    result = _series(P, m, K, n, cut)
    return result.trimmed(limits.OPEN_REST) if trim else result
