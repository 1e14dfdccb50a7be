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
from .errors import RuleInputError, require_bool, require_int, require_items, shown

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


class Dist:
    """An exact discrete distribution over integers (immutable).

    >>> (die(6) + 1).probabilities()[7]
    Fraction(1, 6)
    """

    __slots__ = ("_weights", "_total")

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

    def probability(self, value: int) -> Fraction:
        return _reduced(self._weights.get(value, 0), self._total)

    def probabilities(self) -> dict[int, Fraction]:
        total = self._total
        return {v: _reduced(w, total) for v, w in self._weights.items()}

    def at_least(self, threshold: int) -> Fraction:
        return Fraction(sum(w for v, w in self._weights.items() if v >= threshold), self._total)

    def at_most(self, threshold: int) -> Fraction:
        return Fraction(sum(w for v, w in self._weights.items() if v <= threshold), self._total)

    def between(self, low: int | None, high: int | None) -> Fraction:
        """P(low ≤ X ≤ high); ``None`` leaves that side open."""
        return Fraction(
            sum(w for v, w in self._weights.items()
                if (low is None or v >= low) and (high is None or v <= high)),
            self._total,
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
    if count * width * 8 >= _DECIMAL_FROM_BITS and bound.bit_length() < 12_000:
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
