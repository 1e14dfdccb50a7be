"""Range bands: every boundary of every constructor, the BFRPG data table, bad input."""
from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import pytest

from widgets.errors import RuleInputError
from widgets.ranges import (BFRPG_MISSILE_RANGES, Band, RangeBands, bfrpg_missile_bands)

HANGUL = re.compile("[가-힣]")
# Just past a boundary: exact, so 120 + EPS is really beyond 120.
EPS = Fraction(1, 1000)


def assert_out_of_range(bands: RangeBands, distance: object) -> None:
    with pytest.raises(RuleInputError) as err:
        bands.band(distance)
    assert "out of range" in str(err.value)
    assert "사거리 밖입니다" in err.value.korean
    assert bands.in_range(distance) is False


# --- increments (PF2e: −2 per increment beyond the first, six increments) ------------------
@pytest.mark.parametrize("increment", [120, 10, 30, 60, Fraction(15, 2), 7.5])
@pytest.mark.parametrize("k", range(1, 7))
def test_increments_every_boundary(increment, k):
    bands = RangeBands.increments(increment, 2, 6, unit="ft")
    step = Fraction(str(increment))
    at_edge = bands.band(step * k)
    assert at_edge.modifier == -2 * (k - 1)
    assert at_edge.label == f"{k}차 사거리 단위"
    assert bands.band(step * (k - 1) + EPS).modifier == -2 * (k - 1)  # just inside the band
    if k < 6:
        assert bands.band(step * k + EPS).modifier == -2 * k
    else:
        assert_out_of_range(bands, step * 6 + EPS)


@pytest.mark.parametrize("penalty,count", [(2, 6), (1, 3), (0, 1), (5, 4)])
def test_increments_generic_steps(penalty, count):
    rows = RangeBands.increments(10, penalty, count).table()
    assert [r["modifier"] for r in rows] == [-penalty * (k - 1) for k in range(1, count + 1)]
    assert [r["to"] for r in rows] == [10 * k for k in range(1, count + 1)]


def test_zero_distance_is_first_band():
    assert RangeBands.increments(120, 2, 6).band(0).modifier == 0


# --- brackets (Basic Fantasy RPG: +1 / 0 / −2, nothing beyond long) ------------------------
RULES_NOTES_BFRPG = {  # rules-notes.md, "Missile ranges (ft) short/medium/long"
    "longbow": (70, 140, 210), "shortbow": (50, 100, 150), "heavy crossbow": (80, 160, 240),
    "light crossbow": (60, 120, 180), "sling": (30, 60, 90), "dagger": (10, 20, 30),
    "hand axe": (10, 20, 30), "spear": (10, 20, 30), "warhammer": (10, 20, 30),
    "oil": (10, 30, 50), "holy water": (10, 30, 50),
}


def test_bfrpg_table_matches_rules_notes():
    by_english = {re.search(r"\((.+)\)$", name).group(1): r
                  for name, r in BFRPG_MISSILE_RANGES.items()}
    assert by_english == RULES_NOTES_BFRPG
    for name in BFRPG_MISSILE_RANGES:
        assert HANGUL.match(name), name  # Korean name first, English in parentheses
    with pytest.raises(TypeError):
        BFRPG_MISSILE_RANGES["new"] = (1, 2, 3)  # type: ignore[index]


@pytest.mark.parametrize("weapon", list(BFRPG_MISSILE_RANGES))
def test_bfrpg_every_boundary(weapon):
    short, medium, long = BFRPG_MISSILE_RANGES[weapon]
    bands = bfrpg_missile_bands(weapon)
    expected = [(0, 1, "단거리"), (short, 1, "단거리"), (short + EPS, 0, "중거리"),
                (medium, 0, "중거리"), (medium + EPS, -2, "장거리"), (long, -2, "장거리")]
    for distance, modifier, label in expected:
        band = bands.band(distance)
        assert (band.modifier, band.label) == (modifier, label), distance
    assert_out_of_range(bands, long + EPS)


def test_brackets_custom_modifiers():
    bands = RangeBands.brackets(5, 10, 15, modifiers=(2, 1, 0))
    assert [bands.band(d).modifier for d in (5, 10, 15)] == [2, 1, 0]


# --- multiples (Underface: ≤ range normal, ≤ 2× hard, beyond impossible) -------------------
UNDERFACE_RANGES_M = [80, 70, 20, 100, 60, 50, 100, 20]  # seed 000, 사격 무기 table


@pytest.mark.parametrize("rng", sorted(set(UNDERFACE_RANGES_M)))
def test_multiples_every_boundary(rng):
    bands = RangeBands.multiples(rng)
    assert bands.unit == "m"
    for distance, difficulty in [(0, "보통"), (rng, "보통"), (rng + EPS, "어려움"),
                                 (2 * rng, "어려움")]:
        band = bands.band(distance)
        assert band.difficulty == difficulty
        assert band.modifier == 0  # the difficulty changes, not a number
    assert_out_of_range(bands, 2 * rng + EPS)


def test_multiples_custom_factors():
    bands = RangeBands.multiples(10, factors=(1, 2, 4), difficulties=("a", "b", "c"))
    assert [bands.band(d).difficulty for d in (10, 11, 20, 21, 40)] == ["a", "b", "b", "c", "c"]
    assert_out_of_range(bands, 41)


# --- half range (Trench Crusade: beyond half range −1 DICE, beyond range out) --------------
@pytest.mark.parametrize("rng", [24, 18, 12, 9, 36, 7.5])
def test_half_range_every_boundary(rng):
    bands = RangeBands.half_range(rng)
    full = Fraction(str(rng))
    assert bands.band(0).modifier == 0
    assert bands.band(full / 2).modifier == 0
    assert bands.band(full / 2 + EPS).modifier == -1
    assert bands.band(full).modifier == -1
    assert_out_of_range(bands, full + EPS)


def test_half_range_stays_exact_for_odd_ranges():
    bands = RangeBands.half_range(9)
    assert bands.band(4.5).modifier == 0
    assert bands.band(Fraction(9, 2) + EPS).modifier == -1


# --- table rows and immutability ------------------------------------------------------------
@pytest.mark.parametrize("bands", [RangeBands.increments(120, 2, 6), RangeBands.brackets(1, 2, 3),
                                   RangeBands.multiples(7), RangeBands.half_range(9)])
def test_table_rows_are_contiguous(bands):
    rows = bands.table()
    assert len(rows) == len(bands.bands)
    assert rows[0]["from"] == 0
    for before, after in zip(rows, rows[1:]):
        assert after["from"] == before["to"] and after["to"] > after["from"]
    assert rows[-1]["to"] == bands.max_range
    for row, band in zip(rows, bands.bands):
        assert (row["label"], row["modifier"], row["difficulty"]) == \
            (band.label, band.modifier, band.difficulty)


def test_values_are_immutable():
    bands = RangeBands.brackets(1, 2, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        bands.unit = "m"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        bands.bands[0].modifier = 5  # type: ignore[misc]
    rebuilt = RangeBands(list(bands.bands), "ft")  # a list is frozen into a tuple
    assert isinstance(rebuilt.bands, tuple) and rebuilt == RangeBands(bands.bands, "ft")


def test_direct_construction_refuses_gaps():
    with pytest.raises(ValueError):
        RangeBands((Band("a", Fraction(0), Fraction(10), 0),
                    Band("b", Fraction(11), Fraction(20), 0)))
    with pytest.raises(ValueError):
        RangeBands(())


# --- bad input ------------------------------------------------------------------------------
BAD_DISTANCES = [-1, -0.5, Fraction(-1, 3), float("nan"), float("inf"), "100", None, True,
                 [10], 10**7]


@pytest.mark.parametrize("distance", BAD_DISTANCES)
def test_bad_distance(distance):
    bands = RangeBands.increments(120, 2, 6)
    for call in (bands.band, bands.in_range):
        with pytest.raises(RuleInputError) as err:
            call(distance)
        assert HANGUL.search(err.value.korean) and str(err.value)


BAD_LENGTHS = [0, -10, "120", float("nan"), float("inf"), None, False, 10**7]


@pytest.mark.parametrize("value", BAD_LENGTHS)
@pytest.mark.parametrize("make", [
    lambda v: RangeBands.increments(v, 2, 6),
    lambda v: RangeBands.brackets(v, 200, 300),
    lambda v: RangeBands.multiples(v),
    lambda v: RangeBands.half_range(v),
])
def test_bad_range_lengths(make, value):
    with pytest.raises(RuleInputError) as err:
        make(value)
    assert HANGUL.search(err.value.korean)


@pytest.mark.parametrize("make", [
    lambda: RangeBands.increments(10, 2, 0),            # no increments
    lambda: RangeBands.increments(10, 2, 101),          # absurdly many
    lambda: RangeBands.increments(10, -2, 6),           # size of a penalty, not a bonus
    lambda: RangeBands.increments(10, 2.5, 6),
    lambda: RangeBands.increments(10, 50, 6),           # −250 at the end
    lambda: RangeBands.increments(10**6, 2, 6),         # reaches past the distance limit
    lambda: RangeBands.brackets(10, 10, 30),            # not increasing
    lambda: RangeBands.brackets(30, 20, 10),
    lambda: RangeBands.brackets(10, 20, 30, modifiers=(1, 0)),
    lambda: RangeBands.brackets(10, 20, 30, modifiers=(1, 0, "x")),
    lambda: RangeBands.brackets(10, 20, 30, modifiers="+1 0 -2"),
    lambda: RangeBands.multiples(10, factors=(2, 1), difficulties=("a", "b")),
    lambda: RangeBands.multiples(10, factors=(1, 2), difficulties=("a",)),
    lambda: RangeBands.multiples(10, factors=3),
    lambda: RangeBands.multiples(10, factors=(), difficulties=()),
    lambda: RangeBands.half_range(10, long_modifier=True),
    lambda: RangeBands.from_uppers([]),
    lambda: bfrpg_missile_bands("bazooka"),
    lambda: bfrpg_missile_bands(["장궁 (longbow)"]),
])
def test_bad_constructor_arguments(make):
    with pytest.raises(RuleInputError) as err:
        make()
    assert HANGUL.search(err.value.korean) and str(err.value)
