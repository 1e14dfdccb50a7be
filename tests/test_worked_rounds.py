"""Worked rounds (one per chapter): every number they show is the library's, for every value
the reader can pick; each chapter embeds its worked round in a ## section."""
from __future__ import annotations

import html
import re
import json
from fractions import Fraction
from pathlib import Path

import pytest

from widgets import bfrpg as bf
from widgets import hunters_moon as hm
from widgets import pf2e
from widgets import trench_crusade as tc
from widgets import underface as uf
from widgets.grid import grid_distance
from widgets.ranges import bfrpg_missile_bands
from widgets.views import format as fmt
from widgets.views import turn
from widgets.views import worked as w
from widget_checks import check_static_table

BOOK = Path(__file__).resolve().parent.parent / "book"
# Every chapter's worked round grew into whole turns (tests/test_turn.py);
# their one-shot rounds stay in the library, checked below.
WIDGETS = {"trench_crusade": turn.tc_turn_widget, "bfrpg": turn.bf_turn_widget, "pf2e": turn.pf_turn_widget,
           "underface": turn.uf_turn_widget, "hunters_moon": turn.hm_turn_widget}


@pytest.mark.parametrize("chapter", sorted(WIDGETS))
def test_chapter_ends_with_a_worked_round_section_holding_its_widget(chapter):
    nb = json.loads((BOOK / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    cells = nb["cells"]
    # a heading may carry its MyST label on the line before it: "(uf-sec-walk)=\n## …"
    heads = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
             and re.sub(r"^\([\w-]+\)=\s*\n", "", "".join(c["source"]).lstrip()).startswith("## ")
             and "(예시)" in "".join(c["source"])]
    assert len(heads) == 1
    after = cells[heads[0] + 1:]
    code = [c for c in after if c["cell_type"] == "code"]
    assert code and WIDGETS[chapter].__name__ in "".join(code[0]["source"])
    assert "remove-input" in code[0]["metadata"]["tags"]
    assert any("text/html" in o.get("data", {}) for o in code[0]["outputs"])


@pytest.mark.parametrize("make", list(WIDGETS.values()) + [w.tc_round_widget, w.pf_round_widget, w.uf_round_widget,
                                                 w.hm_round_widget, w.bf_round_widget])
def test_static_table_covers_every_option(make):
    check_static_table(make(), rule_messages_allowed=True)


def _shown(text: str, value) -> None:
    assert html.escape(str(value)) in text, value


@pytest.mark.parametrize("distance", range(1, 25))
def test_tc_round_numbers_are_the_library(distance):
    r = w.tc_round(distance)
    net = tc.ranged_dice(distance, 24, cover=True)
    assert r.numbers["net"] == net
    assert r.numbers["odds"] == tc.success_odds(net)
    assert sum(r.numbers["attack"].values()) == 1
    assert r.numbers["attack"] == tc.attack_odds(dice=net, armour=tc.ARMOUR[w.TC_TARGET_ARMOUR])
    faces = sorted(w.TC_SUCCESS_FACES[:2 + abs(net)])
    assert r.numbers["kept"] == sum(faces[-2:] if net > 0 else faces[:2])
    text = r.html()
    for p in tc.success_odds(net).values():
        _shown(text, fmt.prob(p))


@pytest.mark.parametrize("diagonal", range(0, 9))
def test_bf_round_numbers_are_the_library(diagonal):
    r = w.bf_round(diagonal)
    moved = bf.path_cost([(i, i) for i in range(diagonal + 1)])
    assert r.numbers["moved"] == moved
    if moved > w.BF_RATE:
        assert "odds" not in r.numbers and "쏠 수 없습니다" in r.html()
        return
    left = w.BF_GOBLIN_DIAGONAL - diagonal
    distance = grid_distance((0, 0), (left, left))
    band = bfrpg_missile_bands(w.BF_WEAPON).band(distance)
    assert (r.numbers["distance"], r.numbers["modifier"]) == (distance, band.modifier)
    odds = r.numbers["odds"]
    # independent oracle: the d20 faces from max(2, AC − bonus) to 20 hit
    need = max(2, min(20, w.BF_GOBLIN_AC - (w.BF_BONUS + band.modifier)))
    assert odds["hit"] == Fraction(21 - need, 20) and sum(odds.values()) == 1
    assert r.numbers["hit"] == (w.BF_EXAMPLE_FACE >= need)
    _shown(r.html(), fmt.prob(odds["hit"]))


def degree_oracle(face: int, modifier: int, dc: int) -> str:
    """Degrees of success written out again from the rule (independent of the library)."""
    total = face + modifier
    step = 3 if total >= dc + 10 else 2 if total >= dc else 0 if total <= dc - 10 else 1
    step = min(3, step + 1) if face == 20 else max(0, step - 1) if face == 1 else step
    return ["critical_failure", "failure", "success", "critical_success"][step]


@pytest.mark.parametrize("face", range(1, 21))
def test_roll_degree_matches_the_rule(face):
    for modifier in range(-15, 16, 3):
        for dc in range(5, 40, 4):
            assert pf2e.roll_degree(face, modifier, dc) == degree_oracle(face, modifier, dc)


@pytest.mark.parametrize("ac", range(10, 27))
def test_pf_round_numbers_are_the_library(ac):
    r = w.pf_round(ac)
    bonus = w.PF_STRENGTH + pf2e.proficiency_bonus(w.PF_RANK, w.PF_LEVEL)
    assert r.numbers["bonus"] == bonus
    assert r.numbers["penalties"] == [0, pf2e.multiple_attack_penalty(2)]
    assert r.numbers["rolled"] == [degree_oracle(face, bonus + pen, ac)
                                   for face, pen in zip(w.PF_EXAMPLE_FACES, r.numbers["penalties"])]
    for n, odds in enumerate(r.numbers["strikes"], start=1):
        assert odds == pf2e.degree_odds(bonus + pf2e.multiple_attack_penalty(n), ac)
        assert sum(odds.values()) == 1
        for p in odds.values():
            _shown(r.html(), fmt.prob(p))


@pytest.mark.parametrize("skill", range(20, 91, 10))
def test_uf_round_numbers_are_the_library(skill):
    r = w.uf_round(skill)
    assert r.numbers["odds"] == uf.opposed_odds(skill, w.UF_DODGE, defense_penalty=w.UF_ARMOR)
    assert sum(r.numbers["odds"].values()) == 1
    assert r.numbers["after"] == uf.hit_hp_states(w.UF_WEAPON, w.UF_HP, w.UF_MAX_HP, w.UF_ARMOR, w.UF_DB)
    assert r.numbers["dodge_target"] == w.UF_DODGE - uf.ARMOR[w.UF_ARMOR].penalty
    assert r.numbers["rolled"] == uf.opposed_result(w.UF_ATTACK_ROLL, skill, w.UF_DODGE_ROLL,
                                                    r.numbers["dodge_target"])
    assert r.numbers["hp_left"] == w.UF_HP - max(0, w.UF_DAMAGE_TOTAL - uf.ARMOR[w.UF_ARMOR].armor_value)
    _shown(r.html(), uf.OUTCOME_LABELS[r.numbers["rolled"]])
    for p in r.numbers["odds"].values():
        _shown(r.html(), fmt.prob(p))


@pytest.mark.parametrize("skill", range(20, 91, 10))
def test_uf_round_says_the_armour_step_and_the_maximum_hp(skill):
    """Issue 25: the special damage it states (3~6) is after armour, so the step says the 방어 점수
    comes off; the death threshold of its 「맞은 뒤」 line depends on 다온's maximum HP, so the
    round states it, and both numbers are the library's."""
    r = w.uf_round(skill)
    steps = dict(r.steps)
    armour = uf.ARMOR[w.UF_ARMOR].armor_value
    weapon_max = uf.damage_distribution(w.UF_WEAPON, 0, "0", special=True).min
    special = uf.damage_distribution(w.UF_WEAPON, w.UF_ARMOR, w.UF_DB, special=True)
    assert special == uf.damage_distribution(w.UF_WEAPON, 0, w.UF_DB, special=True).map(
        lambda d: max(0, d - armour))
    assert (f"최대 피해 {weapon_max}에 DB를 굴려 더하고 방어 점수 {armour}를 빼므로 HP 감소는 "
            f"{special.min}~{special.max}") in steps["피해:"]
    threshold = fmt.signed(uf.death_threshold(w.UF_MAX_HP))
    assert f"최대 HP가 {w.UF_MAX_HP}" in steps["의도 선언:"] and f"사망 임계가 {threshold}" in steps["의도 선언:"]
    assert f"HP {w.UF_HP}/{w.UF_MAX_HP}, 사망 임계 {threshold}" in steps["맞은 뒤:"]


@pytest.mark.parametrize("scouted", [True, False])
@pytest.mark.parametrize("plot", range(1, 7))
def test_hm_round_numbers_are_the_library(plot, scouted):
    """Issue 17: the PC may target only a 미행동 threat card (or the body). With plot 4–6 the
    threat of paragraph 3 acts first and is 행동완료, so the PC attacks the body and the steps
    tell the threat's attack first; an unscouted card is placed only at paragraph 3's monster
    action, so at plots 1–3 the PC cannot target it either; the damage sum shows its bonus."""
    r = w.hm_round(plot, scouted)
    t = w.HM_THREAT
    text = r.text()
    bonus = hm.OUT_OF_RANGE_DAMAGE_BONUS if plot == hm.OUT_OF_RANGE else plot
    assert r.numbers["damage"] == w.HM_POWER + bonus
    assert f"무기 위력 {w.HM_POWER} + 자리 보너스 {bonus}" in text and f"= {w.HM_POWER + bonus}" in text
    state = hm.threat_state(plot, t["paragraph"], placed_before=scouted)
    assert r.numbers["state"] == state
    threat_first = plot > t["paragraph"]
    assert r.numbers["order"] == (("threat", "pc") if threat_first else ("pc", "threat"))
    heads = [h for h, _ in r.steps]
    assert (heads.index("위협의 공격:") < heads.index("PC의 공격:")) == threat_first
    result = r.steps[-1][1]
    if "방어판정" in result:  # the result tells the rolls in the order the round processes them
        assert (result.index("방어판정") < result.index("명중판정")) == threat_first
    else:                     # the PC destroyed the threat before it could act
        assert r.numbers["destroyed"] and not threat_first
    assert ("정찰판정에 성공" in text) == scouted
    raw = sum(w.HM_HIT_DICE)
    if state == "unacted":  # plots 1–3 with the card revealed in recon: the PC may attack it
        assert r.numbers["target"] == "threat"
        assert r.numbers["destroy"] == hm.destroy_odds(w.HM_MIGHT, t["defence"], w.HM_POWER, plot,
                                                         t["durability"])
        _shown(r.html(), fmt.prob(r.numbers["destroy"].destroy))
        assert r.numbers["hit"] == hm.check_result(*w.HM_HIT_DICE, w.HM_MIGHT, t["defence"])
        assert r.numbers["destroyed"] == (raw + w.HM_MIGHT >= t["defence"]
                                          and w.HM_POWER + bonus >= t["durability"])
    else:                   # the card is not there yet, or has acted: only the body
        assert r.numbers["target"] == "body" and "destroy" not in r.numbers
        assert "격파 확률" not in text and not r.numbers["destroyed"]
        loss = hm.body_attack_damage(w.HM_MIGHT, w.HM_BODY_DEFENCE, w.HM_POWER, plot)
        assert r.numbers["body_loss"] == loss
        _shown(r.html(), fmt.prob(1 - loss.probability(0)))
        assert r.numbers["hit"] == hm.check_result(*w.HM_HIT_DICE, w.HM_MIGHT, w.HM_BODY_DEFENCE)
        assert ("아직 놓이지 않아" if state == "unplaced" else "이미 행동완료라") in text
    if not scouted:         # the card is placed at its paragraph's monster action
        threat_step = dict(r.steps)["위협의 공격:"]
        assert threat_step.startswith("카드가 아직 없으므로 「발톱」을 미행동으로 놓고")
    assert r.numbers["guard"] == hm.check_result(*w.HM_DEFENCE_DICE, w.HM_PC_DEFENCE, t["attack_value"])
    _shown(r.html(), fmt.prob(r.numbers["defence"]["failure"] + r.numbers["defence"]["fumble"]))


@pytest.mark.parametrize("make", list(WIDGETS.values()) + [w.tc_round_widget, w.pf_round_widget, w.uf_round_widget,
                                                 w.hm_round_widget, w.bf_round_widget])
@pytest.mark.parametrize("bad", ["x", "", 10**9, -10**6])
def test_bad_input_gives_a_korean_message(make, bad):
    widget = make()
    name = next(c.name for c in widget.controls if c.kind == "number")   # a turn's seed
    text = widget.shown(**{name: bad}).html
    assert "widget-error" in text and re.search("[가-힣]", text)
    assert "Traceback" not in text and "입력을 처리할 수 없습니다" not in text


@pytest.mark.parametrize("attack, defence", [(50, 35), (90, 20), (15, 80), (0, 60)])
def test_opposed_result_over_every_roll_pair_is_opposed_odds(attack, defence):
    counts: dict[str, int] = {}
    for a in range(1, 101):
        for d in range(1, 101):
            key = uf.opposed_result(a, attack, d, defence)
            counts[key] = counts.get(key, 0) + 1
    odds = uf.opposed_odds(attack, defence)
    assert {k: Fraction(n, 10000) for k, n in counts.items()} == {k: p for k, p in odds.items() if p}


@pytest.mark.parametrize("modifier, target", [(0, 7), (3, 9), (-5, 4), (20, 3), (-20, 9)])
def test_check_result_over_every_roll_is_check_odds(modifier, target):
    counts: dict[str, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            key = hm.check_result(a, b, modifier, target)
            counts[key] = counts.get(key, 0) + 1
    assert {k: Fraction(n, 36) for k, n in counts.items()} == \
        {k: p for k, p in hm.check_odds(modifier, target).items() if p}
