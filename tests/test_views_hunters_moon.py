"""Hunter's Moon views show exactly what ``widgets.hunters_moon`` computes (static and Jupyter)."""
from __future__ import annotations

import html
import itertools

import pytest

from widgets import hunters_moon as hm
from widgets.views import labels
from widgets.dice import dice_sum
from widgets.views.live import BAND_COLORS
from widgets.views import format as fmt
from widgets.views import hunters_moon as views
from widget_checks import check_static_table, jupyter_boxes, table_rows

PLOTS = (*hm.PARAGRAPHS, hm.OUT_OF_RANGE)


def esc(text: str) -> str:
    return html.escape(text)


@pytest.mark.parametrize("make", views.ALL_WIDGETS)
def test_static_table_covers_every_option_without_errors(make):
    check_static_table(make(), rule_messages_allowed=False)


def test_uids_are_unique():
    uids = [make().uid for make in views.ALL_WIDGETS]
    assert len(set(uids)) == len(uids)


def test_check_entries_equal_the_library():
    table = views.check_widget().static_table()
    for mod, target in itertools.product(range(-2, 9), range(5, 15)):
        entry = table[f"{mod}|{target}"]
        odds = hm.check_odds(mod, target)
        rows = table_rows(entry["h"])
        for key in hm.OUTCOMES:
            assert [labels.HM_OUTCOMES[key], fmt.prob(odds[key])] in rows
        assert esc(fmt.prob(hm.success_chance(odds))) in entry["h"]
        two = dice_sum(2, 6).probabilities()
        assert entry["x"] == list(two) and entry["t"] == [fmt.prob(p) for p in two.values()]
        colours = {k: BAND_COLORS[b] for k, b in views._OUTCOME_BAND.items()}
        assert entry["c"] == [colours[hm.check_outcome(raw, mod, target)] for raw in two]


def test_plot_entries_equal_the_library():
    table = views.plot_widget().static_table()
    threats = [hm.PlacedThreat(f"T{p}", p) for p in hm.PARAGRAPHS]
    for plot, power, doom in itertools.product(PLOTS, range(0, 11), range(0, 5)):
        entry = table[f"{plot}|{power}|{doom}"]["h"]
        assert f"데미지 {hm.pc_damage(power, plot, doom).min}</b>" in entry
        rows = table_rows(entry)
        for p in PLOTS:  # every row: threats before/after and damage
            order = [type(x).__name__ for x in hm.round_order([hm.PlottedPC("X", p)], threats)]
            at = order.index("PlottedPC")
            row = [str(p), hm.paragraph_label(p), str(at), str(len(order) - at - 1),
                   str(hm.pc_damage(power, p, doom).min)]
            assert row in rows, (plot, power, doom, p)
        marked = [r for r in entry.split("<tr")[1:] if r.startswith(' class="mark"')]
        assert len(marked) == 1 and f">{plot}<" in marked[0]      # the reader's plot value


def test_order_entries_equal_the_library():
    table = views.order_widget().static_table()
    for a, b, c in itertools.product(PLOTS, repeat=3):
        for layout in views.THREAT_LAYOUTS:
            entry = table[f"{a}|{b}|{c}|{layout}"]["h"]
            order = hm.round_order([hm.PlottedPC("A", a), hm.PlottedPC("B", b), hm.PlottedPC("C", c)],
                                   [hm.PlacedThreat("t", int(p)) for p in layout])
            expected = "".join(
                f"<li>{x.paragraph_label}: "
                + (f"PC {x.name}" if isinstance(x, hm.PlottedPC) else "위협 행동") + "</li>"
                for x in order)
            assert f"<ol>{expected}</ol>" in entry
            assert ("같은 자리" in entry) == (len({a, b, c}) < 3)


def test_destroy_entries_equal_the_library():
    widget = views.destroy_widget()
    table = widget.static_table()
    for combo in itertools.product(*(c.options for c in widget.controls)):
        might, defence, power, paragraph, durability = combo
        odds = hm.destroy_odds(might, defence, power, paragraph, durability)
        entry = table["|".join(map(str, combo))]["h"]
        for p in (odds.hit, odds.critical, odds.destroy):
            assert esc(fmt.prob(p)) in entry
        assert f"−{odds.body_loss}" in entry and fmt.fraction(odds.expected_body_loss) in entry


def test_defence_interfere_and_recon_entries():
    table = views.defence_widget().static_table()
    for ability, attack, power, doom in itertools.product(range(0, 5), range(6, 12), (2, 4, 6, 8),
                                                          range(0, 3)):
        entry = table[f"{ability}|{attack}|{power}|{doom}"]
        odds = hm.defence_odds(ability, attack)
        assert entry["t"] == [fmt.prob(odds[k]) for k in hm.OUTCOMES]
        assert f"데미지 <b>{hm.threat_damage(power, doom).min}</b>" in entry["h"]
    widget = views.interfere_widget()
    table = widget.static_table()
    for combo in itertools.product(*(c.options for c in widget.controls)):
        same, earlier, areas, ability, attack = combo
        entry = table["|".join(c.key(v) for c, v in zip(widget.controls, combo))]["h"]
        ok, why = hm.can_interfere(same, earlier, areas)
        if ok:
            assert esc(fmt.prob(hm.success_chance(hm.defence_odds(ability, attack)))) in entry
        else:
            assert "방해할 수 없습니다" in entry and why in entry
    table = views.recon_widget().static_table()
    for brain, target, level in itertools.product(range(0, 5), range(6, 12), range(1, 6)):
        entry = table[f"{brain}|{target}|{level}"]
        odds = hm.recon_odds(brain, target)
        assert esc(fmt.prob(odds["fumble"])) in entry["h"]
        assert esc(fmt.prob(hm.success_chance(odds))) in entry["h"]
        dist = hm.recon_counterattack(level).probabilities()
        assert entry["x"] == list(dist) and entry["t"] == [fmt.prob(p) for p in dist.values()]


def test_pursuit_entries_equal_the_library():
    table = views.pursuit_widget().static_table()
    for ability, defence, power, paragraph in itertools.product(range(1, 5), range(8, 12),
                                                                (2, 4, 6), PLOTS):
        entry = table[f"1|{ability}|{defence}|{power}|{paragraph}"]
        assert esc(fmt.prob(hm.pursuit_odds(ability, defence))) in entry["h"]
        dist = hm.pc_damage(power, paragraph, pursuit=True)
        assert views.dist_text(dist) in entry["h"]
        assert entry["t"] == [fmt.prob(p) for p in dist.probabilities().values()]
        assert "추격할 일이 없습니다" in table[f"0|{ability}|{defence}|{power}|{paragraph}"]["h"]


def test_status_entries_equal_the_library():
    s = views.STATUS_ATTACK
    table = views.status_attack_widget().static_table()
    names = ["attacker_bound", "threat_bound", "threat_flying", "anti_air", "attacker_flying",
             "attacker_diving", "threat_diving"]
    for paragraph in PLOTS:
        for flags in itertools.product((False, True), repeat=7):
            kw = dict(zip(names, flags))
            odds = hm.destroy_odds(s["might"], s["defence"], s["weapon_power"], paragraph,
                                   s["durability"], **kw)
            key = "|".join([str(paragraph)] + ["1" if f else "0" for f in flags])
            base = hm.destroy_odds(s['might'], s['defence'], s['weapon_power'], paragraph,
                                   s['durability']).destroy
            row = (["격파", fmt.prob(base), fmt.prob(odds.destroy)]
                   if any(flags) else ["격파", fmt.prob(base)])
            assert row in table_rows(table[key]["h"]), key
            assert ("자동명중" in table[key]["h"]) == hm.diving_auto_hit(kw["attacker_diving"],
                                                                      kw["threat_diving"])
            assert ("자동명중을 고름" in table[key]["h"]) == odds.auto_hit
    d = views.STATUS_DEFENCE
    table = views.status_defence_widget().static_table()
    for power in (4, 6, 8, 10):
        for pcb, thb, thd, pcf, aa, thf in itertools.product((False, True), repeat=6):
            odds = hm.defence_odds(d["ability"], d["attack_value"], bound=pcb, threat_bound=thb,
                                   threat_diving=thd)
            dmg = hm.flying_damage(hm.threat_damage(power), pcf, aa, thf)
            key = "|".join([str(power)] + ["1" if f else "0" for f in (pcb, thb, thd, pcf, aa, thf)])
            entry = table[key]["h"]
            hit = odds["failure"] + odds["fumble"]
            # a certain or impossible chance reads as its percent alone (table.readable)
            assert (esc(fmt.prob(hit)) if hit not in (0, 1) else f": {int(hit * 100)}%</b>") in entry
            assert f"데미지 <b>{dmg.min}</b>" in entry
            assert (views.dist_text(hm.bound_round_end_loss()) in entry) == pcb


def test_end_entries_follow_the_rules():
    widget = views.end_widget()
    table = widget.static_table()
    names = {"recon": "정찰 라운드", "melee1": "난전 1라운드", "melee2": "난전 2라운드",
             "pursuit": "추격 라운드"}
    for ambush, fell, pursue, life_end, level in itertools.product(
            *(c.options for c in widget.controls)):
        entry = table["|".join(c.key(v) for c, v in zip(
            widget.controls, (ambush, fell, pursue, life_end, level)))]["h"]
        course = hm.combat_course(ambush, 0 if fell != "none" else 1, pursue, life_end, level,
                                  fell_in_first_round=fell == "melee1")
        progress = entry.split("</p>")[0]
        assert [k for k, name in names.items() if name in progress] == list(course.rounds)
        assert ("PC 승리" in entry) == course.pcs_win
        if course.pcs_win:
            assert f"{level}번" in entry
    # the body falling in the first melee round ends combat there: no second round
    assert "난전 2라운드" not in table["0|melee1|0|0|3"]["h"].split("</p>")[0]


def test_worked_examples_and_status_table_come_from_the_library():
    text = repr(views.damage_examples())
    assert str(hm.pc_damage(3, 2, 1, critical_achievement=15).min) in text
    assert "B → A → 위협2" in repr(views.tie_examples())
    table = views.StatusTable()._repr_html_()
    for status in hm.STATUSES:
        assert esc(status.rule_ko) in table


def test_jupyter_view_bad_input_gives_korean_message_without_traceback():
    (plot_box, power_box, doom_box), out = _controls(views.plot_widget())
    power_box.value = 999
    assert "widget-error" in out.value and "무기 위력" in out.value
    assert "Traceback" not in out.value
    power_box.value = 4
    doom_box.value = -1
    assert "widget-error" in out.value and "파멸의 색" in out.value
    doom_box.value = 7                      # beyond the static range: still the library's value
    plot_box.value = 5
    assert f"데미지 {hm.pc_damage(4, 5, 7).min}</b>" in out.value

    controls, out = _controls(views.destroy_widget())
    durability_box = controls[4]
    durability_box.value = 0
    assert "widget-error" in out.value and "내구도" in out.value and "Traceback" not in out.value
    durability_box.value = 20
    assert esc(fmt.prob(hm.destroy_odds(2, 9, 3, 3, 20).destroy)) in out.value

    controls, out = _controls(views.check_widget())
    controls[1].value = 999
    assert "widget-error" in out.value and "목표치" in out.value


def _controls(widget):
    boxes, seen = jupyter_boxes(widget)
    return [boxes[c.name] for c in widget.controls], seen


def test_mime_bundle_carries_widget_view_html_and_text():
    bundle = views.plot_widget()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert 'data-live="hm-plot"' in bundle["text/html"]
    assert f"데미지 {hm.pc_damage(3, 3).min}" in bundle["text/plain"]


def test_body_attack_entries_equal_the_library():
    widget = views.body_attack_widget()
    table = widget.static_table()
    for combo in itertools.product(*(c.options for c in widget.controls)):
        entry = table["|".join(map(str, combo))]
        loss = hm.body_attack_damage(*combo)
        assert entry["x"] == list(loss.probabilities())
        assert entry["t"] == [fmt.prob(p) for p in loss.probabilities().values()]
        assert esc(fmt.prob(loss.probability(0))) in entry["h"]


def test_destroy_widget_gives_the_critical_chance_per_attack_and_among_hits():
    """Issue 29: 1/36 is the chance per attack; among hits it is 1/21 (【무용】 2 against 9):
    counted here over the 36 rolls of 2D6, a special being 12 on the dice."""
    from fractions import Fraction
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    hits = [r for r in rolls if sum(r) == 12 or (sum(r) != 2 and sum(r) + 2 >= 9)]
    specials = [r for r in hits if sum(r) == 12]
    per_attack, among = Fraction(len(specials), 36), Fraction(len(specials), len(hits))
    assert among == Fraction(1, 21)
    text = html.unescape(views.destroy_widget().shown(might=2, defence=9, weapon_power=3,
                                                       paragraph=3, durability=6).html)
    assert f"공격 한 번에 {fmt.prob(per_attack)}, 명중한 공격 가운데로는 {fmt.prob(among)}" in text
