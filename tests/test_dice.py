"""The dice core against brute-force enumeration of every ordered roll."""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from widgets import dice, limits
from widgets.errors import RuleInputError


def oracle(count: int, sides: int, score) -> dict[int, Fraction]:
    """Enumerate all sides**count ordered rolls and score each one."""
    tally = Counter(score(sorted(roll)) for roll in itertools.product(range(1, sides + 1), repeat=count))
    total = sides**count
    return {v: Fraction(n, total) for v, n in sorted(tally.items())}


CASES = [(n, s) for s in (2, 3, 4, 6, 8) for n in range(0, 6) if s**n <= 40000]


@pytest.mark.parametrize("count,sides", CASES)
def test_sum_matches_enumeration(count, sides):
    assert dice.dice_sum(count, sides).probabilities() == oracle(count, sides, sum)


@pytest.mark.parametrize("count,sides,keep", [(n, s, k) for n, s in CASES for k in (1, 2, 3) if k <= n])
def test_keep_highest_and_lowest_match_enumeration(count, sides, keep):
    assert dice.keep_highest(count, keep, sides).probabilities() == \
        oracle(count, sides, lambda r: sum(r[len(r) - keep:]))
    assert dice.keep_lowest(count, keep, sides).probabilities() == \
        oracle(count, sides, lambda r: sum(r[:keep]))


@pytest.mark.parametrize("extra", range(-4, 5))
def test_roll_and_keep_matches_enumeration(extra):
    count = 2 + abs(extra)
    expected = oracle(count, 6, lambda r: sum(r[-2:]) if extra >= 0 else sum(r[:2]))
    assert dice.roll_and_keep(2, extra, 6).probabilities() == expected


def test_d3_from_d6_maps_pairs_of_faces():
    assert dice.d3_from_d6().probabilities() == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}


@pytest.mark.parametrize("count", [1, 10, 50, 200])
def test_large_pools_sum_to_exactly_one(count):
    for dist in (dice.keep_highest(count, min(2, count), 6), dice.keep_lowest(count, min(2, count), 6),
                 dice.dice_sum(count, 6)):
        assert sum(dist.probabilities().values()) == 1
    assert dice.dice_sum(count, 6).total == 6**count


def test_packed_products_agree_with_the_recurrence():
    # small products multiply packed ints, large ones go through decimal; both must match the
    # recurrence that builds sums of equal dice
    small = dice.dice_sum(5, 6) + dice.dice_sum(4, 6)
    assert small == dice.dice_sum(9, 6)
    big = dice.dice_sum(40, 6) + dice.dice_sum(40, 6)
    assert big.total == 6**80
    assert big.probability(80) == Fraction(1, 6**80)
    assert big == dice.dice_sum(80, 6)
    huge = dice.dice_sum(60, 100) + dice.dice_sum(40, 100)   # decimal path
    assert huge == dice.dice_sum(100, 100)
    mixed = dice.dice_sum(3, 4) + dice.dice_sum(2, 10)
    assert mixed.probabilities() == oracle_mixed([4, 4, 4, 10, 10])


def oracle_mixed(sides):
    tally = Counter(sum(r) for r in itertools.product(*(range(1, s + 1) for s in sides)))
    total = sum(tally.values())
    return {v: Fraction(n, total) for v, n in sorted(tally.items())}


@pytest.mark.parametrize("count,keep,sides", [(200, 10, 6), (100, 30, 6), (50, 5, 20), (150, 40, 8),
                                              (202, 2, 6), (1000, 3, 6)])
def test_big_keep_highest_is_exact(count, keep, sides):
    # independent check: P(all kept dice show the top face) and the total weight
    dist = dice.keep_highest(count, keep, sides)
    assert dist.total == sides**count
    top = sum(comb(count, j) * (sides - 1) ** (count - j) for j in range(keep, count + 1))
    assert dist.probability(keep * sides) == Fraction(top, sides**count)
    assert dist.probability(keep) == Fraction(1, sides**count)


def test_refusals_name_the_limit_and_come_at_once():
    import time
    for call in (lambda: dice.dice_sum(200, 1000), lambda: dice.keep_highest(200, 100, 1000),
                 lambda: dice.keep_highest(200, 10, 100), lambda: dice.dice_sum(1001, 2)):
        start = time.perf_counter()
        with pytest.raises(RuleInputError) as err:
            call()
        assert time.perf_counter() - start < 0.1
        limit_values = (limits.MAX_POOL, limits.MAX_SUM_DICE, limits.MAX_SUM_SIZE, limits.MAX_KEEP_WORK)
        assert any(str(v) in str(err.value) and str(v) in err.value.korean for v in limit_values)


def test_bands_must_partition_outcomes():
    two_d6 = dice.dice_sum(2, 6)
    assert two_d6.bands([("low", None, 6), ("high", 7, None)]) == {
        "low": Fraction(15, 36), "high": Fraction(21, 36)}
    with pytest.raises(ValueError):
        two_d6.bands([("low", None, 6), ("mid", 6, 8), ("high", 9, None)])
    with pytest.raises(ValueError):
        two_d6.bands([("low", None, 5), ("high", 7, None)])


def test_dist_is_immutable_and_exact():
    d = dice.die(6)
    with pytest.raises(AttributeError):
        d.anything = 1
    assert (d - 1).min == 0 and (-d).max == -1
    assert d.mean() == Fraction(7, 2)
    assert d.map(lambda f: f % 2).probabilities() == {0: Fraction(1, 2), 1: Fraction(1, 2)}


@pytest.mark.parametrize("bad", [-1, limits.MAX_POOL + 1, 10**400, 2.5, "3", "３", None, True,
                                 float("nan"), float("inf")])
def test_bad_counts_raise_clear_errors(bad):
    with pytest.raises(ValueError) as err:
        dice.dice_sum(bad, 6)
    assert isinstance(err.value, RuleInputError) and err.value.korean


def test_kept_total_of_actual_rolls():
    assert dice.kept_total([3, 4, 5], 2, highest=True) == 9
    assert dice.kept_total([3, 4, 5], 2, highest=False) == 7


def test_sums_of_many_die_sizes_are_checked_before_computing():
    # more than four sizes are summed in chunks joined by products: small ones are exact, big
    # ones are refused before any chunk is computed (not halfway through)
    few = dice.dice_groups_sum([(1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 7)])
    assert few.probabilities() == oracle_mixed([2, 3, 4, 5, 6, 7, 7])
    groups = [(20, 100), (20, 99), (20, 98), (20, 97), (20, 96)]
    assert 0 < dice.groups_product_bits(groups) <= limits.MAX_PRODUCT_BITS
    mid = dice.dice_groups_sum(groups)
    assert mid.total == 100**20 * 99**20 * 98**20 * 97**20 * 96**20 and (mid.min, mid.max) == (100, 9800)
    by_total = mid.weights
    weights = [by_total[v] for v in range(mid.min, mid.max + 1)]
    assert weights == weights[::-1]                       # a sum of symmetric dice is symmetric
    assert mid.mean() == sum(Fraction(n * (s + 1), 2) for n, s in groups)
    assert dice.groups_product_bits([(100, 100), (99, 99), (1, 1)]) == 0   # one recurrence
    import time
    big = [(40, 100), (40, 99), (40, 98), (40, 97), (40, 96)]   # within the sum limits
    start = time.perf_counter()
    with pytest.raises(RuleInputError) as err:
        dice.dice_groups_sum(big)
    assert time.perf_counter() - start < 0.05 and str(limits.MAX_PRODUCT_BITS) in err.value.korean


def test_dense_sum_bits_bounds_the_packed_product():
    # the bound notation checks before computing must never be below what Dist + Dist packs
    import random
    rng = random.Random(7)
    for _ in range(60):
        a = dice.dice_groups_sum([(rng.randint(1, 30), rng.choice([2, 6, 10, 20, 100]))])
        b = dice.keep_highest(rng.randint(2, 40), rng.randint(1, 2), rng.choice([4, 6, 12]))
        wa, wb = list(a.weights.values()), list(b.weights.values())   # no gaps: every total
        long_, short = (wa, wb) if len(wa) >= len(wb) else (wb, wa)
        slot = ((max(long_) * max(short) * len(short)).bit_length() + 8) // 8   # as _poly_mul
        packed = (len(wa) + len(wb) - 1) * slot * 8
        assert packed <= dice.dense_sum_bits(len(wa), len(wb), a.total.bit_length(), b.total.bit_length())


# --- rolls that can go on without end: OpenDist ---------------------------------------------------
from functools import lru_cache  # noqa: E402


def chain_oracle(sides: int, explode: frozenset, penetrating: bool, cut: int) -> dict[int, Fraction]:
    """P(one exploding die = v) for v < cut by direct recursion over the first roll (written
    apart from the library's generating functions)."""
    p = Fraction(1, sides)

    @lru_cache(maxsize=None)
    def extra(w: int) -> Fraction:        # the rest of the chain after an exploding roll
        if not penetrating:
            return first(w)
        known = Fraction(0)
        for f in range(1, sides + 1):
            if f not in explode:
                known += p if f - 1 == w else 0
            elif f > 1 and w - (f - 1) >= 0:
                known += p * extra(w - (f - 1))
        return known / (1 - (p if 1 in explode else 0))

    @lru_cache(maxsize=None)
    def first(v: int) -> Fraction:
        total = Fraction(0)
        for f in range(1, sides + 1):
            if f not in explode:
                total += p if f == v else 0
            elif v - f >= (0 if penetrating else 1):
                total += p * extra(v - f)
        return total
    return {v: first(v) for v in range(1, cut) if first(v)}


def convolve_below(a: dict, b: dict, cut: int) -> dict:
    out: dict[int, Fraction] = {}
    for v, p in a.items():
        for u, q in b.items():
            if v + u < cut:
                out[v + u] = out.get(v + u, 0) + p * q
    return out


EXPLODING = [(1, 6, None, False, 30), (2, 6, None, False, 40), (3, 4, [3, 4], False, 45),
             (1, 6, [1], False, 25), (2, 8, [8], True, 40), (1, 6, [1, 6], True, 30),
             (1, 2, None, False, 20), (4, 10, [9, 10], False, 80), (1, 20, None, True, 60)]


@pytest.mark.parametrize("count,sides,faces,penetrating,cut", EXPLODING)
def test_exploding_sums_agree_with_a_direct_recursion(count, sides, faces, penetrating, cut):
    explode = frozenset(faces or [sides])
    one = chain_oracle(sides, explode, penetrating, cut)
    expected = {0: Fraction(1)}
    for _ in range(count):
        expected = convolve_below(expected, one, cut)
    got = dice.exploding_sum(count, sides, faces, penetrating, below=cut)
    assert got.probabilities() == {v: p for v, p in sorted(expected.items()) if p}
    assert got.rest_probability() == 1 - sum(expected.values()) and got.cut == cut
    assert got.mean() == Fraction(count) * Fraction(sum(f for f in range(1, sides + 1)), sides) / \
        (1 - Fraction(len(explode), sides)) - (Fraction(count * len(explode), sides - len(explode))
                                                if penetrating else 0)


@pytest.mark.parametrize("count,sides,faces,cut", [(1, 6, None, 40), (3, 6, [5, 6], 60), (2, 10, None, 70)])
def test_exploding_sums_agree_with_icepool(count, sides, faces, cut):
    icepool = pytest.importorskip("icepool")
    explode = sorted(faces or [sides])
    die = icepool.d(sides).explode(explode, depth=cut // min(explode) + 2)
    total = count @ die
    den = total.denominator()
    got = dice.exploding_sum(count, sides, faces, below=cut)
    assert got.probabilities() == {v: Fraction(total.quantity(v), den) for v in range(count, cut)
                                   if total.quantity(v)}


def count_oracle(sides: int, again: frozenset, counted: frozenset, cut: int) -> dict[int, Fraction]:
    """P(k counted faces in one chain) by recursion on the first die (a face that rolls again and
    is not counted leaves k unchanged: solved for)."""
    p = Fraction(1, sides)
    b = len(again - counted)

    @lru_cache(maxsize=None)
    def chain(k: int) -> Fraction:
        known = Fraction(0)
        for f in range(1, sides + 1):
            hit = int(f in counted)
            if f not in again:
                known += p if hit == k else 0
            elif hit and k >= 1:
                known += p * chain(k - 1)
        return known / (1 - b * p)
    return {k: chain(k) for k in range(cut) if chain(k)}


@pytest.mark.parametrize("count,sides,again,counted,cut", [
    (2, 6, [6], [6], 8), (3, 6, [5, 6], [4, 5, 6], 14), (2, 4, [4], [1], 3), (12, 6, [6], [6], 20),
    (2, 10, [1, 2], [9, 10], 5), (1, 6, [2, 3, 4, 5, 6], [2, 3, 4, 5, 6], 40)])
def test_chain_counts_agree_with_a_direct_recursion(count, sides, again, counted, cut):
    one = count_oracle(sides, frozenset(again), frozenset(counted), cut)
    expected = {0: Fraction(1)}
    for _ in range(count):
        expected = convolve_below(expected, one, cut)
    got = dice.chain_count(count, sides, again, counted, below=cut)
    assert got.probabilities() == {v: p for v, p in sorted(expected.items()) if p}
    assert got.rest_probability() == 1 - sum(expected.values())


def test_open_distributions_are_shown_until_the_rest_is_tiny_and_never_silently_cut():
    for d in (dice.exploding_sum(3, 6), dice.exploding_sum(1, 100), dice.chain_count(5, 6, [6], [5, 6]),
              dice.exploding_sum(2, 2, penetrating=True)):
        shown = sum(d.probabilities().values())
        assert shown + d.rest_probability() == 1
        assert 0 < d.rest_probability() <= limits.OPEN_REST
        # one outcome fewer would leave more than the limit
        top = d.max
        assert d.rest_probability() + d.probability(top) > limits.OPEN_REST
        assert d.at_least(d.cut) == d.rest_probability() and d.at_least(d.low) == 1


def test_adding_and_mapping_open_distributions_keep_exact_what_is_known():
    a = dice.exploding_sum(1, 6, below=30)
    b = dice.dice_sum(1, 4)
    s = a + b
    assert s.cut == 31                     # the unknown part of a starts at 30, b adds at least 1
    one = chain_oracle(6, frozenset({6}), False, 40)
    expected = convolve_below(one, {v: Fraction(1, 4) for v in range(1, 5)}, 31)
    assert s.probabilities() == {v: p for v, p in sorted(expected.items()) if p}
    twice = a + dice.exploding_sum(1, 6, below=30)
    assert twice.cut == 31 and twice.probabilities() == {
        v: p for v, p in sorted(convolve_below(one, one, 31).items()) if p}
    half = a.map_increasing(lambda v: v // 2)
    assert half.cut == 15 and half.probability(3) == one[6] + one[7] if 6 in one else one[7]
    with pytest.raises(RuleInputError):
        a.map_increasing(lambda v: -v)


@pytest.mark.parametrize("call", [
    lambda: dice.exploding_sum(1, 6, range(1, 7)), lambda: dice.chain_count(1, 6, range(1, 7), [6]),
    lambda: dice.exploding_sum(201, 6), lambda: dice.exploding_sum(1, 1001),
    lambda: dice.exploding_sum(1, 6, below=10**8), lambda: dice.exploding_sum(1, 6, [7]),
    lambda: dice.open_series(((1, 1),), 2, ((1, 1),), 1, below=10**6)])
def test_endless_or_huge_chains_are_refused_at_once(call):
    import time
    start = time.perf_counter()
    with pytest.raises(RuleInputError) as err:
        call()
    assert time.perf_counter() - start < 0.05
    assert err.value.korean
