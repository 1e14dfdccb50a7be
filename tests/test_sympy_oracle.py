"""A third, independent oracle: generating functions expanded by sympy.

The library's dice (``widgets.dice``) use packed-integer convolution and a dynamic programme over
faces; the brute-force tests enumerate every roll. Here the same distributions come out of
polynomial algebra instead:

- a sum of n dice with s sides is the coefficient list of ((x + … + x^s)/s)^n;
- keeping the highest (or lowest) k of n dice: the exponential generating function
  ∏_v Σ_c z_v^c t^c / c!  (v = 1…s) gives, as n!·[t^n], how many rolls show each face v
  exactly c_v times; each such count vector has one kept total (the k largest or smallest faces).

Nothing here calls the library's algorithms except to compare with them.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from widgets import dice
from widgets import hunters_moon as hm
from widgets import trench_crusade as tc
from widgets.views import odds_math

x, t = sp.symbols("x t")


def as_fractions(poly_expr) -> dict[int, Fraction]:
    poly = sp.Poly(sp.expand(poly_expr), x)
    return {int(m[0]): Fraction(int(c.p), int(c.q)) for m, c in zip(poly.monoms(), poly.coeffs())
            if c != 0}


def sum_gf(count: int, sides: int) -> dict[int, Fraction]:
    return as_fractions((sp.Add(*(x**k for k in range(1, sides + 1))) / sides) ** count)


def _truncate(poly: sp.Poly, degree: int) -> sp.Poly:
    """The terms of ``poly`` whose power of t (its first generator) is at most ``degree``."""
    return sp.Poly.from_dict({m: c for m, c in poly.terms() if m[0] <= degree}, *poly.gens)


def kept_gf(count: int, keep: int, sides: int, highest: bool = True) -> dict[int, Fraction]:
    """Distribution of the kept total from the face-count exponential generating function."""
    z = sp.symbols(f"z1:{sides + 1}")
    # multiply the factors one face at a time, dropping powers of t above ``count``
    egf = sp.Poly(1, t, *z)
    for v in range(sides):
        factor = sp.Poly(sp.Add(*(z[v] ** c * t**c / sp.factorial(c) for c in range(count + 1))),
                         t, *z)
        egf = _truncate(egf * factor, count)
    coefficient = sp.expand(egf.as_expr()).coeff(t, count) * sp.factorial(count)
    weights: dict[int, Fraction] = {}
    for term in sp.Add.make_args(coefficient):
        rolls, monomial = term.as_coeff_Mul()
        powers = monomial.as_powers_dict()
        faces = []
        for v in range(sides):
            faces += [v + 1] * int(powers.get(z[v], 0))
        assert len(faces) == count
        faces.sort(reverse=highest)
        total = sum(faces[:keep])
        weights[total] = weights.get(total, Fraction(0)) + Fraction(int(rolls))
    scale = sides ** count
    assert sum(weights.values()) == scale
    return {k: w / scale for k, w in sorted(weights.items())}


@pytest.mark.parametrize("count,sides", [(1, 6), (2, 6), (3, 6), (4, 6), (2, 20), (3, 8),
                                         (5, 4), (1, 100), (6, 10), (10, 6)])
def test_dice_sum_equals_the_generating_function(count, sides):
    assert dice.dice_sum(count, sides).probabilities() == sum_gf(count, sides)


@pytest.mark.parametrize("count,keep,sides", [(3, 2, 6), (4, 2, 6), (5, 2, 6), (4, 3, 6),
                                              (5, 3, 6), (3, 1, 10), (4, 2, 8), (6, 2, 6),
                                              (2, 2, 6), (5, 1, 4)])
def test_keep_highest_equals_the_generating_function(count, keep, sides):
    assert dice.keep_highest(count, keep, sides).probabilities() == kept_gf(count, keep, sides)


@pytest.mark.parametrize("count,keep,sides", [(3, 2, 6), (4, 2, 6), (5, 3, 6), (3, 1, 8)])
def test_keep_lowest_equals_the_generating_function(count, keep, sides):
    assert dice.keep_lowest(count, keep, sides).probabilities() == \
        kept_gf(count, keep, sides, highest=False)


@pytest.mark.parametrize("net", range(-3, 4))
def test_trench_crusade_success_roll_equals_the_generating_function(net):
    expected = kept_gf(2 + abs(net), 2, 6, highest=net >= 0)
    assert tc.success_roll(net).probabilities() == expected


@pytest.mark.parametrize("modifier,target", [(0, 7), (2, 9), (8, 6), (-3, 12)])
def test_hunters_moon_check_equals_the_generating_function(modifier, target):
    raw = sum_gf(2, 6)
    got = dict.fromkeys(hm.OUTCOMES, Fraction(0))
    for total, p in raw.items():
        got[hm.check_outcome(total, modifier, target)] += p
    assert got == hm.check_odds(modifier, target)


@pytest.mark.parametrize("make", odds_math.ALL_WIDGETS)
def test_appendix_shows_the_generating_function_agreeing_with_the_book(make):
    """Every setting of every appendix widget: the sympy column equals the library column."""
    widget = make()
    table = widget.static_table()
    assert table
    for key, entry in table.items():
        assert "<math" in entry["h"] and "✓ 같음" in entry["h"] and "✗" not in entry["h"], key
        assert abs(sum(entry["y"]) - 1) < 1e-12, key


def test_appendix_helpers_expand_exactly():
    assert odds_math.coefficients(odds_math.die_gf(6) ** 2) == sum_gf(2, 6)
    assert odds_math.coefficients(x**-2 * odds_math.die_gf(4)) == {-1: Fraction(1, 4), 0: Fraction(1, 4),
                                                                   1: Fraction(1, 4), 2: Fraction(1, 4)}


@pytest.mark.parametrize("make", odds_math.ALL_WIDGETS)
def test_appendix_page_ships_every_answer(make):
    """sympy does not run in the reader's browser: menus only, and every answer in the page."""
    from widgets.views.static_page import page_data
    widget = make()
    assert all(c.kind in ("select", "toggle") for c in widget.controls)
    assert len(page_data(widget)["keys"]) == len(widget.static_table())
