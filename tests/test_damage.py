"""Tests for widgets.damage: every distribution is checked against brute-force enumeration."""
from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from fractions import Fraction

import pytest

import widgets.damage as damage
from widgets.damage import (DB_OPTIONS, after_armor, damage_dist, db_dist, divide_up,
                            from_probabilities, hp_after, hp_states, parse_damage,
                            special_damage_dist)
from widgets.dice import Dist
from widgets.errors import RuleInputError

HANGUL = re.compile("[가-힣]")


def up(x: int, n: int = 2) -> int:
    """Round half up away from zero, written independently of divide_up."""
    return math.ceil(x / n) if x >= 0 else -math.ceil(-x / n)


def enumerate_dist(sides: list[int], fn) -> dict[int, Fraction]:
    """Brute force: every combination of faces, equally likely."""
    counts = Counter(fn(*faces) for faces in itertools.product(*(range(1, s + 1) for s in sides)))
    total = sum(counts.values())
    return {v: Fraction(n, total) for v, n in counts.items()}


# (expression, DB, weapon dice, weapon part, DB dice, DB part): total = weapon + DB part
CASES = [
    ("1D6+1+DB", "+1D4", [6], lambda a: a + 1, [4], lambda b: b),
    ("2D6+2", None, [6, 6], lambda a, b: a + b + 2, [], lambda: 0),
    ("1D6÷2+DB", "-1D6", [6], lambda a: up(a), [6], lambda b: -b),
    ("1D6+1+½DB", "+2D6", [6], lambda a: a + 1, [6, 6], lambda b, c: up(b + c)),
    ("1D6+½DB", "-1D4", [6], lambda a: a, [4], lambda b: -up(b)),
    ("1D4", "+1D6", [4], lambda a: a, [], lambda: 0),
    ("1D10+1D4", None, [10, 4], lambda a, b: a + b, [], lambda: 0),
    ("1D6-1+DB", "+1D6", [6], lambda a: a - 1, [6], lambda b: b),
    ("1d6/2+db", "+1D4", [6], lambda a: a // 2, [4], lambda b: b),    # BCDice's / rounds down
    ("1d6/2u+db", "+1D4", [6], lambda a: up(a), [4], lambda b: b),
    ("1D6*2-1+DB", "-1D4", [6], lambda a: 2 * a - 1, [4], lambda b: -b),
    ("(1D6+1D4)/2R+DB", "+1D4", [6, 4], lambda a, b: math.floor((a + b) / 2 + 0.5), [4], lambda c: c),
    ("1D6+2+1/2DB", "+1D6", [6], lambda a: a + 2, [6], lambda b: up(b)),
    ("D6 + 2D4 - 1", None, [6, 4, 4], lambda a, b, c: a + b + c - 1, [], lambda: 0),
    ("2D6÷2+DB÷2", "+1D4", [6, 6], lambda a, b: up(a + b), [4], lambda c: up(c)),
    ("1D10+2+DB", DB_OPTIONS["+2D6"].dist, [10], lambda a: a + 2, [6, 6], lambda b, c: b + c),
]


def brute_total(case):
    _, _, w_sides, w_fn, db_sides, db_fn = case
    nw = len(w_sides)
    return enumerate_dist(w_sides + db_sides,
                          lambda *f: w_fn(*f[:nw]) + db_fn(*f[nw:]))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_damage_dist_matches_enumeration(case):
    dist = damage_dist(case[0], db=case[1])
    assert dist.probabilities() == brute_total(case)
    assert sum(dist.probabilities().values()) == 1


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_special_is_weapon_maximum_plus_normal_db(case):
    _, db, w_sides, w_fn, db_sides, db_fn = case
    weapon_max = max(w_fn(*f) for f in itertools.product(*(range(1, s + 1) for s in w_sides)))
    expected = enumerate_dist(db_sides, lambda *f: weapon_max + db_fn(*f))
    assert special_damage_dist(case[0], db=db).probabilities() == expected


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("armor", [0, 1, 2, 5, 6, 30])
def test_after_armor_matches_enumeration(case, armor):
    raw = brute_total(case)
    expected: dict[int, Fraction] = {}
    for v, p in raw.items():
        expected[max(0, v - armor)] = expected.get(max(0, v - armor), 0) + p
    got = after_armor(damage_dist(case[0], db=case[1]), armor).probabilities()
    assert got == expected
    assert min(got) >= 0  # 피해의 수치 하한은 0


def test_source_worked_example_hp_12_armor_2_damage_6():
    # source 4.4: HP 12, armour 2, 6 damage → 4 gets through, HP 8
    assert after_armor(6, 2).probabilities() == {4: 1}
    assert hp_after(after_armor(6, 2), 12).probabilities() == {8: 1}


@pytest.mark.parametrize("a,b", [("1D6÷2+DB", "1d6÷2+db"), ("1D6+1+½DB", "1d6+1+1/2DB"),
                                 ("1D6/2U+DB", "1d6/2u+db"), ("1D6*2", "1D6×2"),
                                 ("1D6+1+½DB", "1D6+1+DB÷2"), ("1D6−1+DB", "1D6-1+DB"),
                                 ("1D6", "D6"), ("1D6", "1D"), ("2D6 + 2", "2D6+2"),
                                 ("1D6+1", "１Ｄ６＋１")])   # typed text is NFKC-normalised
def test_equivalent_spellings(a, b):
    assert parse_damage(a) == parse_damage(b)
    assert str(parse_damage(a)) == str(parse_damage(b))


@pytest.mark.parametrize("text", ["1D6+1+DB", "2D6+2", "1D6÷2+DB", "1D6+1+½DB", "1D4", "1D10+1D4",
                                  "1D6-1+DB", "-1D4"])
def test_str_round_trips(text):
    assert str(parse_damage(text)) == text
    assert parse_damage(str(parse_damage(text))) == parse_damage(text)


BAD = ["", "   ", "1D6+", "+", "D", "1DX", "1D0", "1D1001", "201D6", "1D6÷0", "1D6÷", "1D6÷2U",
       "2DB", "½", "½D6", "1D6+DB+DB", "1D6+-", "1D6x2", "1D6!", "1D6**2", "__import__('os')", "1e3",
       "1001", "99999D6", "1D6" + "+1" * 12, "1D6+" + "1" * 90, "DB½", "1D6(2)",
       "200D100+1D6", "½DB÷2"]


@pytest.mark.parametrize("text", BAD)
def test_bad_expressions_raise_korean_errors(text):
    with pytest.raises(RuleInputError) as err:
        parse_damage(text)
    assert HANGUL.search(err.value.korean)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("value", [None, 5, 1.5, ["1D6"], b"1D6"])
def test_non_text_expression_raises(value):
    with pytest.raises(RuleInputError) as err:
        parse_damage(value)
    assert HANGUL.search(err.value.korean)


@pytest.mark.parametrize("db", ["+1D6", "2D6"])
def test_db_itself_cannot_contain_db(db):
    with pytest.raises(RuleInputError):
        db_dist(db + "+DB")


@pytest.mark.parametrize("key,sides,sign", [("-1D4", [4], -1), ("-1D6", [6], -1), ("+1D4", [4], 1),
                                            ("+1D6", [6], 1), ("+2D6", [6, 6], 1)])
def test_db_options_from_rules_notes(key, sides, sign):
    option = DB_OPTIONS[key]
    assert option.dist.probabilities() == enumerate_dist(sides, lambda *f: sign * sum(f))
    assert db_dist(key) == option.dist
    assert option.label


def test_db_none_option_and_labels():
    assert DB_OPTIONS["0"].dist.probabilities() == {0: 1}
    assert HANGUL.search(DB_OPTIONS["0"].label)
    for spelled in (None, "0", "없음"):
        assert db_dist(spelled).probabilities() == {0: 1}


@pytest.mark.parametrize("bad_db", [3, 1.5, ["+1D4"], "+1D4+x"])
def test_bad_db_raises(bad_db):
    with pytest.raises(RuleInputError):
        damage_dist("1D6+DB", db=bad_db)


@pytest.mark.parametrize("value", range(-13, 14))
@pytest.mark.parametrize("divisor", [1, 2, 3, 5])
def test_divide_up(value, divisor):
    assert divide_up(value, divisor) == up(value, divisor)


@pytest.mark.parametrize("expr,db", [("1D6+1+DB", "+1D4"), ("2D6+2", None), ("1D10+2+DB", "-1D6")])
@pytest.mark.parametrize("hp,threshold", [(12, -6), (5, -3), (1, 0), (0, -6), (-4, -6), (20, -10)])
@pytest.mark.parametrize("armor", [0, 2])
def test_hp_states_match_enumeration(expr, db, hp, threshold, armor):
    loss = after_armor(damage_dist(expr, db=db), armor)
    expected = Counter()
    for v, p in loss.probabilities().items():
        left = hp - v
        state = ("standing" if left >= 1 else
                 "at_death_threshold" if left <= threshold else "unconscious")
        expected[state] += p
    got = hp_states(loss, hp, threshold)
    assert set(got) == set(damage.HP_STATES)
    assert sum(got.values()) == 1
    assert all(got[k] == expected[k] for k in got)


@pytest.mark.parametrize("args", [(Dist.constant(1), 5, 1), (Dist.constant(1), "5", -2),
                                  ("1D6", 5, -2), (Dist.constant(1), 10**6, -2)])
def test_hp_states_bad_input(args):
    with pytest.raises(RuleInputError):
        hp_states(*args)


def test_after_armor_bad_input():
    for armor in (-1, 1.5, "2", None):
        with pytest.raises(RuleInputError):
            after_armor(Dist.constant(3), armor)


def test_from_probabilities_round_trip_and_errors():
    probs = damage_dist("1D6÷2+DB", db="+1D4").probabilities()
    assert from_probabilities(probs).probabilities() == probs
    with pytest.raises(RuleInputError):
        from_probabilities({1: Fraction(1, 2)})
    with pytest.raises(RuleInputError):
        from_probabilities({1: Fraction(3, 2), 2: Fraction(-1, 2)})


def test_largest_allowed_expression_is_still_exact_and_quick():
    dist = damage_dist("50D6+50D4")
    assert sum(dist.probabilities().values()) == 1
    assert (dist.min, dist.max) == (100, 500)
    import time
    start = time.perf_counter()
    big = damage_dist("100D100+99D99+1D1")   # dice × sides 20,000: the limit
    assert time.perf_counter() - start < 2
    assert big.total == 100**100 * 99**99 and (big.min, big.max) == (200, 19802)
