"""The total a GM asks for first ("does it hit / succeed?") opens the answer of every widget that
answers that question, before the breakdown, as the library computes it (the library's totals
are checked against brute-force counts of the dice in each game's tests).

Every entry of each widget's full option grid is read: its first paragraph must be the total
line (``p.answer-total``), and its text must be the label and the reading of the library's own
call on the same values: the rounded percent first, the exact fraction and percent beside it.
"""
from __future__ import annotations

import html
import itertools
import re

import pytest

from widgets import hunters_moon as hm, pf2e, trench_crusade as tc, underface as uf
from widgets.views import format as fmt
from widgets.views import hunters_moon as hm_views, pf2e as pf_views
from widgets.views import trench_crusade as tc_views, underface as uf_views
from widget_checks import opened

TOTAL = re.compile(r'<p class="answer-total">(.*?)</p>')


def total_lines(entry_html: str, first: bool = True) -> list[str]:
    """The total line's text, one item per line (``<br>``), tags dropped; it must open the
    answer (``first``), or at least come before the first table (the breakdown)."""
    found = TOTAL.search(entry_html)
    assert found, entry_html[:200]
    if first:
        assert found.start() == 0, entry_html[:200]
    else:
        table = entry_html.find("<table")
        assert table < 0 or found.start() < table, entry_html[:300]
    return [html.unescape(re.sub(r"<[^>]+>", "", opened(part))).strip()
            for part in found.group(1).split("<br>")]


def entries(widget):
    """(values by control name, answer html) for every setting of the widget's option grid."""
    table = widget.static_table()
    for values in widget.settings():
        yield values, table[widget.key(values)]["h"]


# --- Underface: 명중 including 스페셜 --------------------------------------------------------

def test_underface_hit_check_opens_with_the_hit_total():
    widget = uf_views.hit_widget()
    seen = 0
    for v, h in entries(widget):
        defence = v["defence"]
        penalty = defence.split(":", 1)[1] if defence.startswith("dodge:") else 0
        if penalty == uf_views.CUSTOM:
            penalty = v["penalty_points"]
        odds = (uf.opposed_odds(v["attack"], None, attack_hard=v["attack_hard"]) if defence == "none"
                else uf.opposed_odds(v["attack"], v["defense"], attack_hard=v["attack_hard"],
                                     defense_hard=v["defense_hard"], defense_penalty=penalty))
        assert total_lines(h) == [f"명중 (스페셜 포함): {fmt.readable(uf.hit_chance(odds))}"]
        seen += 1
    assert seen > 400


def test_underface_shot_and_settings_open_with_the_hit_total():
    ex = uf_views.RANGE_EXAMPLE
    for v, h in entries(uf_views.range_widget()):
        if uf.range_difficulty(v["distance"], v["weapon"]) == "out_of_range":
            assert "닿지 않음" in h and "answer-total" not in h
            continue
        odds = uf.ranged_hit_odds(v["weapon"], v["distance"], ex["attack"], ex["defense"], v["response"])
        assert total_lines(h) == [f"명중 (스페셜 포함): {fmt.readable(uf.hit_chance(odds))}"]
    for v, h in entries(uf_views.settings_widget()):
        s = uf.CheckSettings(fumble_from=v["fumble_from"], special_divisor=v["special_divisor"],
                             hard=v["hard"], margin=v["margin"])
        odds = uf.opposed_odds(v["attack"], v["defense"], attack_hard=v["attack_hard"], settings=s)
        assert total_lines(h) == [f"공격 {v['attack']} 대 방어 {v['defense']}의 명중 (스페셜 포함): "
                                  f"{fmt.readable(uf.hit_chance(odds))}"]


def test_underface_move_then_the_next_checks_success():
    for v, h in entries(uf_views.movement_widget()):
        kind = uf.movement(v["distance"], v["mov"])
        if kind == "too_far":
            assert "answer-total" not in h
            continue
        odds = uf.check_odds(v["skill"], hard=kind == "run")
        assert total_lines(h, first=False) == [
            f"다음 판정 성공 (스페셜 포함): {fmt.readable(uf.success_chance(odds))}"]


# --- PF2e: 명중 including 대성공, for each Strike -------------------------------------------

def test_pf2e_strikes_open_with_each_strikes_hit_total():
    for v, h in entries(pf_views.strike_widget()):
        agile = (v["agile1"], v["agile2"], v["agile3"])
        hits = [pf2e.success_or_better(pf2e.strike_odds(v["bonus"], v["ac"], attack_number=n, agile=a))
                for n, a in enumerate(agile, start=1)]
        assert total_lines(h) == ["명중 (대성공 포함)"] + [f"{n}격 {fmt.readable(p)}"
                                                       for n, p in enumerate(hits, start=1)]


def test_pf2e_spell_gives_the_targets_save_before_its_degrees():
    for v, h in entries(pf_views.spell_widget()):
        rank, level = v["prof"].split(":")
        dc = pf2e.spell_dc(v["ability"], pf2e.proficiency_bonus(rank, int(level)))
        p = pf2e.success_or_better(pf2e.save_odds(v["save"], dc))
        assert total_lines(h, first=False) == [f"대상이 내성에 성공 (대성공 포함): {fmt.readable(p)}"]


# --- Trench Crusade: 성공 이상 ---------------------------------------------------------------

@pytest.mark.parametrize("make,net_of", [
    (tc_views.success_widget, lambda v: (v["dice"], v["modifier"])),
    (tc_views.plus_minus_widget, lambda v: (tc.net_dice(v["plus"], v["minus"]), 0)),
    (tc_views.ranged_widget, lambda v: (tc.ranged_dice(v["distance"], v["weapon_range"], v["cover"],
                                                       v["elevated"]), 0)),
])
def test_trench_crusade_success_rolls_open_with_success_or_better(make, net_of):
    for v, h in entries(make()):
        if "widget-error" in h:   # beyond the weapon's range: the Korean message, no total
            assert "answer-total" not in h and v["distance"] > v["weapon_range"]
            continue
        p = tc.success_or_better(tc.success_odds(*net_of(v)))
        assert total_lines(h) == [f"성공 이상 (성공·대성공): {fmt.readable(p)}"]


def test_trench_crusade_attack_markers_risky_and_charge_open_with_their_totals():
    for v, h in entries(tc_views.attack_widget()):
        p = tc.success_or_better(tc.success_odds(v["dice"], v["hit_mod"]))
        assert total_lines(h) == [f"명중 (성공 굴림이 성공·대성공): {fmt.readable(p)}"]
    for v, h in entries(tc_views.markers_widget()):
        after = tc.markers_to_dice(v["base"], v["blood"], v["blessing"])
        assert total_lines(h) == ["성공 이상 (성공·대성공)",
                                  f"쓰기 전 {fmt.readable(tc.success_or_better(tc.success_odds(v['base'])))}",
                                  f"쓴 뒤 {fmt.readable(tc.success_or_better(tc.success_odds(after)))}"]
    for v, h in entries(tc_views.risky_widget()):
        p = tc.risky_chain_odds(v["dice"], v["modifier"], tc.RISKY_ROLLS[v["action"]])
        assert total_lines(h) == [f"활성화가 이어질 확률: {fmt.readable(p)}"]
        assert f"활성화가 끝날 확률 {fmt.prob(1 - p)}" in html.unescape(h)
    for v, h in entries(tc_views.charge_widget()):
        p = tc.charge_odds(v["movement"], v["distance"])
        assert total_lines(h) == [f"돌격이 닿을 확률: {fmt.readable(p)}"]


# --- Hunter's Moon: success (special included), hit, destroy, being hit --------------------

def test_hunters_moon_checks_open_with_their_success():
    cases = [
        (hm_views.check_widget, "성공 (스페셜 포함)", lambda v: hm.check_odds(v["modifier"], v["target"])),
        (hm_views.recon_widget, "정찰판정 성공 (스페셜 포함)", lambda v: hm.recon_odds(v["brain"], v["target"])),
        (hm_views.defence_widget, "방어판정 성공 (스페셜 포함)",
         lambda v: hm.defence_odds(v["ability"], v["attack_value"])),
        (hm_views.body_attack_widget, "명중 (스페셜 포함)",
         lambda v: hm.check_odds(v["might"], v["body_defence"])),
    ]
    for make, label, odds_of in cases:
        for v, h in entries(make()):
            assert total_lines(h) == [f"{label}: {fmt.readable(hm.success_chance(odds_of(v)))}"], make
    for v, h in entries(hm_views.interfere_widget()):
        if not hm.can_interfere(v["same"], v["earlier"], v["areas"])[0]:
            assert "방해할 수 없습니다" in h
            continue
        p = hm.success_chance(hm.defence_odds(v["ability"], v["attack_value"]))
        assert total_lines(h) == [f"방해판정 성공 (스페셜 포함): {fmt.readable(p)}"]
    for v, h in entries(hm_views.pursuit_widget()):
        if not hm.can_pursue(v["life"]):
            continue
        p = hm.pursuit_odds(v["ability"], v["body_defence"])
        assert total_lines(h) == [f"추격판정 성공 (스페셜 포함): {fmt.readable(p)}"]


def test_hunters_moon_attack_and_defence_under_statuses():
    for v, h in entries(hm_views.destroy_widget()):
        odds = hm.destroy_odds(v["might"], v["defence"], v["weapon_power"], v["paragraph"], v["durability"])
        assert total_lines(h) == ["공격 한 번", f"명중 (스페셜 포함) {fmt.readable(odds.hit)}",
                                  f"격파 {fmt.readable(odds.destroy)}"]
    s = hm_views.STATUS_DEFENCE
    for v, h in entries(hm_views.status_defence_widget()):
        odds = hm.defence_odds(s["ability"], s["attack_value"], bound=v["pc_bound"],
                               threat_bound=v["threat_bound"], threat_diving=v["threat_diving"])
        assert total_lines(h) == [f"맞을 확률 (방어판정 실패·펌블): {fmt.readable(hm.failure_chance(odds))}"]


def test_the_total_line_is_the_answers_first_line_in_jupyter_too():
    """The Jupyter view shows the same answer: its first line is the total."""
    view = uf_views.hit_widget().ipywidget()
    out = re.sub(r"^(<style>.*?</style>|<div[^>]*>)*", "", view.rulebook_out.value, flags=re.S)  # (its frame)
    assert out.startswith('<p class="answer-total">')
    assert fmt.readable(uf.hit_chance(uf.opposed_odds(60, 60))) in out.split("</p>", 1)[0]
    assert list(itertools.islice(total_lines(out), 1)) == [
        f"명중 (스페셜 포함): {fmt.readable(uf.hit_chance(uf.opposed_odds(60, 60)))}"]
