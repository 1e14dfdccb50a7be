"""Graded answers lead with the GM's number (issue 31): every graded result opens with its
cumulative lines in the reader's words ("어려운 성공 이상", "중상 이상" …) above its tables, and
every "N 이상 · N 이하" table has a "정확히 N" column. Numbers are checked against independent
counts (dice enumerated by brute force, binomial counts) and the figures the GM measured.
"""
from __future__ import annotations

import html
import itertools
import re
from fractions import Fraction
from math import comb

import pytest

from widgets import dice, hunters_moon as hm, pf2e, trench_crusade as tc, underface as uf
from widgets.errors import RuleInputError
from widgets.views import format as fmt
from widgets.views import hunters_moon as hm_views, pf2e as pf_views
from widgets.views import trench_crusade as tc_views, underface as uf_views
from widgets.views.dice_calc import dice_calculator_widget
from widgets.views.table import one_in, readable, rounded_percent

GRADED = re.compile(r'<p class="answer-total answer-graded">(.*?)</p>')


def _split(line: str) -> tuple[str, str]:
    """("어려운 성공 이상", "약 47% · …") from a line: the words end where the reading starts."""
    at = re.search(r" (약 \d|\d+%|[\d.]+% 미만|[\d.]+% 넘게)", line)
    return line[:at.start()], line[at.start() + 1:]


def reading(p: Fraction) -> str:
    """A graded line's reading: the rounded percent and the exact fraction (a certain or
    impossible line: the percent alone)."""
    return rounded_percent(p) if p in (0, 1) else f"{rounded_percent(p)} · {fmt.fraction(p)}"


def lines_of(entry_html: str) -> dict[str, str]:
    found = GRADED.search(entry_html)
    assert found, entry_html[:300]
    table = entry_html.find("<table")
    assert table < 0 or found.start() < table, "the graded lines stand above the tables"
    parts = [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in found.group(1).split("<br>")]
    return dict(_split(p) for p in parts)


# --- the library's sums ------------------------------------------------------------------------

def test_or_better_sums_each_grade_and_the_better_ones():
    odds = tc.success_odds(1, -1)
    sums = dice.or_better(odds, ("critical", "success", "failure"))
    assert list(sums) == ["critical", "success", "failure"]
    assert sums["critical"] == odds["critical"]
    assert sums["success"] == odds["critical"] + odds["success"] == tc.success_or_better(odds)
    assert sums["failure"] == 1


@pytest.mark.parametrize("bad_order", [("critical", "success"), ("critical", "critical", "success", "failure"),
                                       ("critical", "success", "failure", "other")])
def test_or_better_refuses_an_order_that_is_not_the_tables_grades(bad_order):
    with pytest.raises(RuleInputError):
        dice.or_better(tc.success_odds(), bad_order)


# --- Call of Cthulhu 7th in the dice calculator ---------------------------------------------------

def cthulhu_brute(goal: int, bonus: int) -> dict[str, Fraction]:
    """BCDice Cthulhu7th by enumeration: tens dice (bonus: lowest, penalty: highest; 00 with a
    0 units die is 100), the level of the total by its rule."""
    counts: dict[str, int] = {}
    total = 0
    for units in range(10):
        for tens in itertools.product(range(10), repeat=abs(bonus) + 1):
            values = [100 if t == 0 and units == 0 else t * 10 + units for t in tens]
            roll = min(values) if bonus >= 0 else max(values)
            if roll == 1:
                level = "critical"
            elif roll >= (96 if goal < 50 else 100):
                level = "fumble"
            elif roll <= goal // 5:
                level = "extreme"
            elif roll <= goal // 2:
                level = "hard"
            elif roll <= goal:
                level = "regular"
            else:
                level = "failure"
            counts[level] = counts.get(level, 0) + 1
            total += 1
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("goal,bonus", [(55, 1), (55, 0), (30, -1), (80, 2), (45, 0)])
def test_call_of_cthulhu_leads_with_success_hard_and_extreme_or_better(goal, bonus):
    text = f"CC({bonus})<=" + str(goal) if bonus else f"CC<={goal}"
    widget = dice_calculator_widget()
    entry = widget.answer({"expr": text})
    p = cthulhu_brute(goal, bonus)
    want = {"성공 이상": p["critical"] + p["extreme"] + p["hard"] + p["regular"],
            "어려운 성공 이상": p["critical"] + p["extreme"] + p["hard"],
            "대단한 성공 이상": p["critical"] + p["extreme"],
            "대성공": p["critical"]}
    assert lines_of(entry["h"]) == {k: reading(v) for k, v in want.items()}


def test_the_gms_hard_success_or_better_is_read_without_arithmetic():
    entry = dice_calculator_widget().answer({"expr": "CC(1)<=55"})
    assert lines_of(entry["h"])["어려운 성공 이상"] == "약 47% · 93/200"   # the GM's sum by hand


# --- Trench Crusade: injuries "or worse" ------------------------------------------------------------

def kept_sum_counts(net: int, kept: int) -> dict[int, int]:
    """Brute force: roll kept + |net| D6, keep the highest (net > 0) or lowest (net < 0)."""
    counts: dict[int, int] = {}
    for roll in itertools.product(range(1, 7), repeat=kept + abs(net)):
        ordered = sorted(roll, reverse=net >= 0)
        s = sum(ordered[:kept])
        counts[s] = counts.get(s, 0) + 1
    return counts


def test_trench_crusade_injuries_lead_with_minor_and_down_or_worse():
    widget = tc_views.injury_widget()
    brute = {}
    seen = 0
    for values in widget.settings():
        net, bath = values["dice"], values["bloodbath"]
        if (net, bath) not in brute:
            brute[(net, bath)] = kept_sum_counts(net, 3 if bath else 2)
        counts = brute[(net, bath)]
        shift = values["weapon_mod"] - values["armour"] - (tc.TRENCH_SHIELD if values["shield"] else 0)
        n = sum(counts.values())
        at_least = lambda t: Fraction(sum(c for s, c in counts.items() if s + shift >= t), n)  # noqa: E731
        entry = widget.entry(widget.shown(**values))
        assert lines_of(entry["h"]) == {
            "경상 이상": reading(at_least(2)),
            "중상 이상": reading(at_least(7))}, values
        seen += 1
    assert seen > 100


def test_down_or_worse_is_the_gms_113_of_216():
    widget = tc_views.injury_widget()
    entry = widget.answer({"dice": "1", "armour": "2", "shield": "0", "bloodbath": "0", "weapon_mod": "0"})
    assert lines_of(entry["h"])["중상 이상"] == "약 52% · 113/216"


def test_trench_crusade_armour_menus_name_their_numbers():
    for widget in (tc_views.injury_widget(), tc_views.attack_widget()):
        armour = next(c for c in widget.controls if c.name == "armour")
        assert list(armour.option_labels) == ["없음", "표준 갑옷 (−1)", "강화 갑옷 (−2)", "기계 갑옷 (−3)"]


# --- PF2e: a target's save, from the caster's side ----------------------------------------------

def d20_degrees(modifier: int, dc: int) -> dict[str, Fraction]:
    """Brute force over the d20: ±10 steps the degree, a natural 20 / 1 one step up / down."""
    names = ("critical_failure", "failure", "success", "critical_success")
    counts = dict.fromkeys(names, 0)
    for face in range(1, 21):
        total = face + modifier
        degree = 3 if total >= dc + 10 else 2 if total >= dc else 0 if total <= dc - 10 else 1
        degree = min(3, degree + 1) if face == 20 else max(0, degree - 1) if face == 1 else degree
        counts[names[degree]] += 1
    return {k: Fraction(v, 20) for k, v in counts.items()}


def test_pf2e_spell_leads_with_the_targets_failures_or_worse():
    widget = pf_views.spell_widget()
    for values in widget.settings():
        rank, level = values["prof"].split(":")
        dc = pf2e.spell_dc(values["ability"], pf2e.proficiency_bonus(rank, int(level)))
        p = d20_degrees(values["save"], dc)
        entry = widget.entry(widget.shown(**values))
        assert lines_of(entry["h"]) == {
            "대상이 내성에 실패 (대실패 포함)": reading(p["failure"] + p["critical_failure"])}


# --- "정확히 N" ---------------------------------------------------------------------------------

def exact_cells(entry_html: str) -> dict[str, str]:
    """N → the "정확히 N" cell of an answer's "N 이상 · N 이하" table."""
    table = entry_html[entry_html.index('<details class="cumulative">'):]
    head = re.findall(r"<th>(.*?)</th>", table.split("</thead>")[0])
    assert head[:2] == ["N", "정확히 N"] or head[:2] == ["k", "정확히 k개"], head
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("</thead>")[1])
    out = {}
    for row in rows:
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        out[cells[0]] = cells[1]
    return out


def test_four_fudge_dice_totalling_exactly_zero():
    entry = dice_calculator_widget().answer({"expr": "4dF"})
    ways = sum(1 for r in itertools.product((-1, 0, 1), repeat=4) if sum(r) == 0)
    assert exact_cells(entry["h"])["0"] == fmt.prob(Fraction(ways, 81))      # 19/81


def test_exactly_two_successes_of_six_dice():
    entry = dice_calculator_widget().answer({"expr": "6B6>=5"})
    p = Fraction(comb(6, 2) * 2 ** 4, 3 ** 6)
    assert exact_cells(entry["h"])["2개"] == fmt.prob(p)


def test_every_total_table_has_an_exact_column_equal_to_its_bars():
    widget = tc_views.injury_widget()
    entry = widget.answer({c.name: c.key(c.default) for c in widget.controls})
    cells = exact_cells(entry["h"])
    assert {str(x): t for x, t in zip(entry["x"], entry["t"])} == cells


# --- readable numbers ----------------------------------------------------------------------------

@pytest.mark.parametrize("p,words", [
    (Fraction(1381, 7776), "약 18% · 1381/7776 (17.76%)"),
    (Fraction(1, 6), "약 17% · 6번 중 1번꼴 · 1/6 (16.67%)"),
    (Fraction(1, 2), "50% · 1/2 (50.00%)"),
    (Fraction(35, 36), "약 97% · 35/36 (97.22%)"),
    (Fraction(1, 10**7), "0.01% 미만 · 1/10000000"),
    (Fraction(0), "0%"),
    (Fraction(1), "100%"),
])
def test_a_chance_reads_as_a_player_says_it_with_the_exact_fraction_beside_it(p, words):
    assert readable(p) == words


def test_the_rounded_percent_and_the_one_in_n_are_near_the_exact_chance():
    for den in range(2, 40):
        for num in range(1, den):
            p = Fraction(num, den)
            r = rounded_percent(p)
            if r.startswith("약 ") or r[0].isdigit():
                assert abs(int(r.removeprefix("약 ").rstrip("%")) - p * 100) <= Fraction(1, 2)
            said = one_in(p)
            if said:
                n = int(re.fullmatch(r"([\d,]+)번 중 1번꼴", said).group(1).replace(",", ""))
                assert p <= Fraction(1, 5) and abs(Fraction(1, n) - p) <= p / 10
                assert rounded_percent(Fraction(1, n)) == r      # the player's 1/N gives the percent shown
