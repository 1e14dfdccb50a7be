"""Exact dice distributions: the generic mechanics layer every chapter builds on.

A :class:`Dist` is an immutable map from integer outcomes to integer weights; probabilities
are exact :class:`fractions.Fraction` values and always sum to exactly 1.

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
from math import comb
from typing import Callable, Iterable, Mapping

import numpy as np

from .errors import require_int

#: Largest number of dice any function here will roll; keeps every call bounded.
MAX_DICE = 200
#: Largest number of faces on one die.
MAX_SIDES = 1000

# int64 convolution is exact while no partial sum can pass this bound.
_INT64_SAFE = 2**62


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
        return Fraction(self._weights.get(value, 0), self._total)

    def probabilities(self) -> dict[int, Fraction]:
        return {v: Fraction(w, self._total) for v, w in self._weights.items()}

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
        bands = list(bands)
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
            return Dist({v + other: w for v, w in self._weights.items()})
        return NotImplemented

    __radd__ = __add__

    def __neg__(self) -> "Dist":
        return Dist({-v: w for v, w in self._weights.items()})

    def __sub__(self, other: "Dist | int") -> "Dist":
        if isinstance(other, (Dist, int)) and not isinstance(other, bool):
            return self + (-other)
        return NotImplemented

    def repeat_sum(self, times: int) -> "Dist":
        """Sum of ``times`` independent copies (binary powering, so it stays fast)."""
        times = require_int(times, "times", "횟수", 0, MAX_DICE)
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
        return self.probabilities() == other.probabilities()

    def __hash__(self) -> int:
        return hash(tuple(self.probabilities().items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{v}: {p}" for v, p in self.probabilities().items())
        return f"Dist({{{inner}}})"


def _convolve(a: Dist, b: Dist) -> Dist:
    """Distribution of the sum of two independent variables.

    numpy does the work when int64 cannot overflow; otherwise exact Python integers.
    """
    wa, wb = a._weights, b._weights
    lo = a.min + b.min
    va = np.zeros(a.max - a.min + 1, dtype=object)
    vb = np.zeros(b.max - b.min + 1, dtype=object)
    for v, w in wa.items():
        va[v - a.min] = w
    for v, w in wb.items():
        vb[v - b.min] = w
    if max(wa.values()) * max(wb.values()) * min(len(va), len(vb)) < _INT64_SAFE:
        out = np.convolve(va.astype(np.int64), vb.astype(np.int64))
        return Dist({lo + i: int(w) for i, w in enumerate(out) if w})
    out_py = [0] * (len(va) + len(vb) - 1)
    for i, x in enumerate(va):
        if x:
            for j, y in enumerate(vb):
                if y:
                    out_py[i + j] += x * y
    return Dist({lo + i: w for i, w in enumerate(out_py) if w})


def die(sides: int) -> Dist:
    """One fair die numbered 1..sides.

    >>> die(4).probabilities()[4]
    Fraction(1, 4)
    """
    sides = require_int(sides, "sides", "주사위 면 수", 1, MAX_SIDES)
    return Dist({v: 1 for v in range(1, sides + 1)})


def d3_from_d6() -> Dist:
    """A D3 read off a D6: 1–2 → 1, 3–4 → 2, 5–6 → 3.

    >>> d3_from_d6().probability(2)
    Fraction(1, 3)
    """
    return die(6).map(lambda face: (face + 1) // 2)


def dice_sum(count: int, sides: int) -> Dist:
    """Sum of ``count`` dice with ``sides`` faces (``0`` dice sums to 0).

    >>> dice_sum(3, 6).at_least(18), dice_sum(0, 6).probabilities()
    (Fraction(1, 216), {0: Fraction(1, 1)})
    """
    count = require_int(count, "count", "주사위 개수", 0, MAX_DICE)
    return die(sides).repeat_sum(count)


def keep_highest(count: int, keep: int, sides: int) -> Dist:
    """Sum of the ``keep`` highest of ``count`` dice with ``sides`` faces.

    Counts every ordered roll exactly, face by face from the top, so 50 dice cost no more
    than a handful: once ``keep`` dice are placed, the rest can only show lower faces.

    >>> keep_highest(2, 1, 6).probability(6)   # 1 − (5/6)²
    Fraction(11, 36)
    """
    count = require_int(count, "count", "주사위 개수", 0, MAX_DICE)
    keep = require_int(keep, "keep", "남길 주사위 수", 0, count)
    sides = require_int(sides, "sides", "주사위 면 수", 1, MAX_SIDES)
    # state: (dice placed so far, sum kept so far) -> number of ordered ways
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    finished: dict[int, int] = {}
    for face in range(sides, 0, -1):
        nxt: dict[tuple[int, int], int] = {}
        for (placed, kept_sum), ways in states.items():
            free = count - placed
            choices = [free] if face == 1 else range(free + 1)
            for j in choices:
                new_placed = placed + j
                new_sum = kept_sum + min(j, keep - placed) * face
                new_ways = ways * comb(free, j)
                if new_placed >= keep:
                    # the remaining dice take any lower face and never count
                    rest = count - new_placed
                    tail = (face - 1) ** rest
                    if tail:
                        finished[new_sum] = finished.get(new_sum, 0) + new_ways * tail
                else:
                    key = (new_placed, new_sum)
                    nxt[key] = nxt.get(key, 0) + new_ways
        states = nxt
    return Dist(finished)


def keep_lowest(count: int, keep: int, sides: int) -> Dist:
    """Sum of the ``keep`` lowest of ``count`` dice (mirror image of :func:`keep_highest`).

    >>> keep_lowest(2, 1, 6).probability(1)
    Fraction(11, 36)
    """
    highest = keep_highest(count, keep, sides)
    # face f ↔ sides + 1 − f turns the highest k into the lowest k
    return highest.map(lambda total: keep * (sides + 1) - total)


def roll_and_keep(kept: int, extra: int, sides: int = 6) -> Dist:
    """Roll ``kept + |extra|`` dice and keep ``kept``: the highest if ``extra > 0``, the lowest
    if ``extra < 0``, a plain sum if 0 (the ±DICE pattern).

    >>> roll_and_keep(2, 1) == keep_highest(3, 2, 6), roll_and_keep(2, 0) == dice_sum(2, 6)
    (True, True)
    """
    kept = require_int(kept, "kept", "남길 주사위 수", 0, MAX_DICE)
    extra = require_int(extra, "extra", "추가 주사위 수", -(MAX_DICE - kept), MAX_DICE - kept)
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
    values = sorted(int(r) for r in rolls)
    kept = require_int(kept, "kept", "남길 주사위 수", 0, len(values))
    chosen = values[len(values) - kept:] if highest else values[:kept]
    return sum(chosen)
