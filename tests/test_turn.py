"""A whole turn, live (widgets/views/turn.py): every step's odds are the library's at that
moment, typed dice re-resolve the rest of the turn, the seed is deterministic, bad typed dice get a
Korean message naming the step, and one answer is fast. The rule functions the turns read (actual
dice → result) are checked against the library's exact odds by enumerating every roll."""
from __future__ import annotations

import itertools
import time
from collections import Counter
from fractions import Fraction

import pytest

from widgets import trench_crusade as tc
from widgets.errors import RuleInputError
from widgets.views import turn as t
from widgets.views.practice import chance
from widget_checks import check_static_table

TC_TEXTS = ["", "1", "2", "- / 2 3", "- / 5 6", "6 / 6 6 / 6 6 5 4", "6 / 6 6 / 1 1 2 1", "6 / 5 6 / 1 1 2",
            "6 / 6 6 / 4 4 2 1 / 1 1 2 2", "6 / 6 5 / 6 6 6 / 6 6 / 6 6"]


def _tc(text="", seed=0):
    return t.tc_turn(t.Dice(text, seed, t.TC_SLOTS))


# --- the library's rule functions against its exact odds -----------------------------------
@pytest.mark.parametrize("net", range(-3, 4))
def test_success_result_of_every_roll_gives_success_odds(net):
    n = 2 + abs(net)
    counts = Counter(tc.success_result(list(r), net) for r in itertools.product(range(1, 7), repeat=n))
    assert {k: Fraction(v, 6 ** n) for k, v in counts.items()} == \
        {k: p for k, p in tc.success_odds(net).items() if p}


@pytest.mark.parametrize("net,armour,bloodbath", [(0, 0, False), (2, 1, False), (-1, 3, False),
                                                  (1, 1, True), (0, 2, True)])
def test_injury_result_of_every_roll_gives_injury_odds(net, armour, bloodbath):
    n = 2 + bloodbath + abs(net)
    rolls = list(itertools.product(range(1, 7), repeat=n))
    counts = Counter(tc.injury_result(list(r), net, armour, bloodbath=bloodbath)[1] for r in rolls)
    # the kept faces, by sorting (independent of the library's kept_total)
    for r in rolls[::37]:
        kept = sorted(r, reverse=net >= 0)[:2 + bloodbath]
        assert tc.injury_result(list(r), net, armour, bloodbath=bloodbath)[0] == sum(kept) - armour
    assert {k: Fraction(v, len(rolls)) for k, v in counts.items()} == \
        {k: p for k, p in tc.injury_odds(net, armour, bloodbath=bloodbath).items() if p}


@pytest.mark.parametrize("movement,distance", [(6, 10), (6, 7), (4, 12), (5, 9.5), (3, 12)])
def test_charge_reaches_of_every_face_gives_charge_odds(movement, distance):
    assert Fraction(sum(tc.charge_reaches(movement, distance, f) for f in range(1, 7)), 6) == \
        tc.charge_odds(movement, distance)


def test_markers_after_injury_follow_the_chart_text():
    for key, label, _, _ in tc.INJURY_CHART:
        plus = {"no_effect": 0, "out_of_action": 0}.get(key)
        if plus is None:   # "유혈 표식 +1" in the chart's own words
            plus = int(label.split("+")[1][0])
        assert tc.markers_after_injury(2, key) == 2 + plus
    assert tc.markers_after_injury(2, "down", down=True) == 2 + int(tc.INJURY_CHART[2][1].rsplit("+", 1)[1][0])
    with pytest.raises(RuleInputError):
        tc.injury_result([1, 2], dice=1)


# --- the Trench Crusade turn -------------------------------------------------------------------
def _step(turn, head):
    return next(s for s in turn.steps if head in s.head)


@pytest.mark.parametrize("text", TC_TEXTS)
@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_tc_each_steps_odds_are_the_librarys(text, seed):
    turn = _tc(text, seed)
    html = turn.html()
    charge = _step(turn, "루카의 돌격")
    assert dict(charge.odds)["닿음"] == tc.charge_odds(t.TC_MOVEMENT, t.TC_CHARGE_DISTANCE)
    hit = _step(turn, "근접 공격")
    injury = _step(turn, "비토의 부상")
    reply = _step(turn, "비토의 반격")
    back = _step(turn, "루카의 부상")
    face = turn.dice.used[0][0]
    assert turn.numbers["reached"] == (t.TC_MOVEMENT + face >= t.TC_CHARGE_DISTANCE - 1)
    if not turn.numbers["reached"]:
        assert hit.skipped and injury.skipped and reply.skipped and back.skipped
        return
    assert [p for _, p in hit.odds] == list(tc.success_odds(0).values())
    faces = turn.dice.used[1]
    expected_hit = "failure" if sum(faces) < 7 else "critical" if sum(faces) == 12 else "success"
    assert turn.numbers["hit"] == expected_hit
    if expected_hit == "failure":
        assert injury.skipped and turn.numbers["injury"] is None
        return
    net = 1 + (expected_hit == "critical")          # one blood marker spent, +1 for a critical
    assert [p for _, p in injury.odds] == list(tc.injury_odds(net, 1).values())
    rolled = sorted(turn.dice.used[2], reverse=True)
    assert len(rolled) == 2 + net and turn.numbers["injury"][0] == sum(rolled[:2]) - 1
    for _, p in injury.odds:
        assert chance(p) in html
    result = turn.numbers["injury"][1]
    if result == "out_of_action":
        assert reply.skipped and back.skipped
        return
    own = -1 if result == "down" else 0
    markers_left = 2 - 1 + (1 if result in ("down", "minor_hit") else 0)
    reply_net = own - min(1, markers_left)
    assert [p for _, p in reply.odds] == list(tc.success_odds(reply_net).values())
    low = sorted(turn.dice.used[3])[:2] if reply_net < 0 else sorted(turn.dice.used[3])[-2:]
    assert turn.numbers["reply"] == ("failure" if sum(low) < 7 else "critical" if sum(low) >= 12 else "success")
    if turn.numbers["reply"] == "failure":
        assert back.skipped
    else:
        assert [p for _, p in back.odds] == list(
            tc.injury_odds(int(turn.numbers["reply"] == "critical"), 1).values())


def test_tc_default_is_the_issue_turn_charge_critical_down_markers_spent():
    turn = _tc()
    assert turn.numbers["order"] == "ABABB"
    assert turn.numbers["reached"] and turn.numbers["hit"] == "critical"
    assert turn.numbers["injury"][1] == "down"
    assert "유혈 표식 1개를 써서" in turn.html() and "−1 DICE를 붙입니다" in turn.html()


def test_tc_typed_dice_re_resolve_the_rest():
    failed = _tc("1")                                      # 6 + 1 < 9: the charge falls short
    assert not failed.numbers["reached"] and failed.numbers["hit"] is None
    assert "일어나지 않음: 돌격이 닿지 않아" in failed.html()
    missed = _tc("- / 2 3")
    assert missed.numbers["hit"] == "failure" and missed.numbers["injury"] is None
    out = _tc("- / - / 6 6 5 4")                           # 12 − 1: out of action, no reply
    assert out.numbers["injury"] == (11, "out_of_action") and out.numbers["reply"] is None
    # a typed roll leaves the other rolls' seeded dice as they were
    assert _tc("- / 6 6", 5).dice.used[0] == _tc("", 5).dice.used[0]


def test_tc_seed_is_deterministic_and_seeds_differ():
    assert _tc("", 3).html() == _tc("", 3).html()
    assert len({_tc("", s).dice.replay_text() for s in range(1, 30)}) > 20
    # the replay text rolls the very same turn again
    for s in range(1, 30):
        turn = _tc("", s)
        assert _tc(turn.dice.replay_text(), 0).numbers == turn.numbers


@pytest.mark.parametrize("typed,words", [
    ("x", "1번째 칸(루카의 돌격)"), ("1 2", "1번째 칸(루카의 돌격)"), ("7", "1번째 칸(루카의 돌격)"),
    ("−1", "1번째 칸(루카의 돌격)"), ("- / 5 6 7", "2번째 칸(루카의 명중)"),
    ("- / 6 6 / 5 4 2", "3번째 칸(비토의 부상)"), ("1/2/3/4/5/6", "칸이 6개"),
    ("- / 3.5 4", "2번째 칸(루카의 명중)")])
def test_tc_bad_typed_dice_give_a_korean_message_naming_the_step(typed, words):
    _refused(t.tc_turn_widget, typed, words)


def _refused(make, typed, words):
    answer = make().answer({"dice": typed, "seed": "0"})
    assert words in answer["error"] and "Traceback" not in answer["error"]


def test_tc_full_width_digits_are_read():
    assert _tc("１ / ６ ６").dice.used[0] == (1,)
    assert _tc("- / ６ ６").numbers["hit"] == "critical"


#: Each walkthrough widget, its slots, its game's word for what it walks through, and words it
#: must not use: Pathfinder's turn is 턴 there (its 차례 is the turn order).
SPANS = [(t.tc_turn_widget, t.TC_SLOTS, t.TC_SPAN, ()), (t.pf_turn_widget, t.PF_SLOTS, t.PF_SPAN, ("차례",)),
         (t.uf_turn_widget, t.UF_SLOTS, t.UF_SPAN, ()), (t.hm_turn_widget, t.HM_SLOTS, t.HM_SPAN, ()),
         (t.bf_turn_widget, t.BF_SLOTS, t.BF_SPAN, ())]


@pytest.mark.parametrize("make, slots, span, foreign", SPANS)
def test_turn_says_its_own_chapter_word(make, slots, span, foreign):
    widget = make()
    shown = widget.compute(dice="", seed=0).html
    assert f"이 {span}" in shown and "다시 만드는 주사위" in shown, shown[:300]
    for word in foreign:
        assert word not in shown, (word, shown[:300])
    error = widget.answer({"dice": " / ".join(["-"] * (len(slots) + 1)), "seed": "0"})["error"]
    assert f"이 {span}의 굴림은 {len(slots)}번" in error, error


# --- the Pathfinder 2e turn ----------------------------------------------------------------------
from widgets import pf2e  # noqa: E402

PF_TEXTS = ["", "1", "19 / 8", "- / - / 1", "- / - / 2 / - / 20", "20 / 8", "20 / 1 / 20 / 8 / 20 / 6",
            "2 / - / 3 / - / 4"]


@pytest.mark.parametrize("n,agile", [(1, False), (2, True), (3, False)])
def test_damage_of_every_roll_gives_hit_damage(n, agile):
    for sides in (6, 8):
        for critical in (False, True):
            rolls = list(itertools.product(range(1, sides + 1), repeat=n))
            counts = Counter(pf2e.damage_of_roll(list(r), sides, 4, critical) for r in rolls)
            assert all(v == (sum(r) + 4) * (1 + critical) for r in rolls[:5]
                       for v in [pf2e.damage_of_roll(list(r), sides, 4, critical)])
            assert {k: Fraction(v, len(rolls)) for k, v in counts.items()} == \
                pf2e.hit_damage(sides, n, 4, critical).probabilities()


@pytest.mark.parametrize("text", PF_TEXTS)
@pytest.mark.parametrize("seed", [0, 1, 3, 8])
def test_pf_each_steps_odds_are_the_librarys(text, seed):
    turn = t.pf_turn(t.Dice(text, seed, t.PF_SLOTS))
    prof = pf2e.proficiency_bonus(t.PF_RANK, t.PF_LEVEL)
    melee, thrown = t.PF_STRENGTH + prof, t.PF_DEXTERITY + prof       # independent of attack_bonus
    hp, threw = t.PF_HP, False
    strikes = [s for s in turn.steps if "타격" in s.head]
    damages = [s for s in turn.steps if s.head.endswith("의 피해")]
    for n, (strike, damage) in enumerate(zip(strikes, damages), start=1):
        far = hp <= 0
        assert ("오크 B" in strike.head) == far
        bonus = (thrown - 2 if far else melee) - 5 * (n - 1)          # 45 ft in 30-ft increments: −2
        assert [p for _, p in strike.odds] == list(pf2e.degree_odds(bonus, t.PF_AC).values())
        face = turn.dice.used[2 * (n - 1)][0]
        total = face + bonus
        degree = 3 if total >= t.PF_AC + 10 else 2 if total >= t.PF_AC else 0 if total <= t.PF_AC - 10 else 1
        degree = min(3, degree + 1) if face == 20 else max(0, degree - 1) if face == 1 else degree
        assert turn.numbers["degrees"][n - 1] == pf2e.DEGREES[3 - degree]
        if degree < 2:
            assert damage.skipped
        else:
            roll = turn.dice.used[2 * n - 1][0]
            dealt = (roll + t.PF_STRENGTH) * (2 if degree == 3 else 1)
            assert turn.numbers["damage"][n - 1] == dealt
            if not far:
                dist = pf2e.hit_damage(8, 1, t.PF_STRENGTH, degree == 3)
                assert dict(damage.odds)["A가 쓰러짐"] == dist.at_least(hp)
                hp -= dealt
        threw = threw or far
    assert len(strikes) + sum(1 for s in turn.steps if "보행" in s.head) == 3


def test_pf_default_has_map_range_penalty_and_a_critical_with_its_damage():
    turn = t.pf_turn(t.Dice("", 0, t.PF_SLOTS))
    html = turn.html()
    assert "다중 공격 페널티 −5" in html and "사거리 페널티 −2" in html
    assert "critical_success" in turn.numbers["degrees"] and "× 2" in html
    assert 'href="#pfs-map"' in html and 'href="#pfs-range"' in html


def test_pf_typed_dice_re_resolve_the_rest():
    # the first Strike crits for 2 × (8 + 4) = 24: the orc falls, the second action is the throw
    turn = t.pf_turn(t.Dice("20 / 8", 0, t.PF_SLOTS))
    assert turn.numbers["targets"] == ["A", "B", None]
    assert turn.numbers["hp"] == 0
    # the second Strike misses: the third is a longsword Strike at −10
    assert t.pf_turn(t.Dice("- / - / 2", 0, t.PF_SLOTS)).numbers["targets"] == ["A", "A", "A"]



# --- on the built site: a reader types dice on a phone ---------------------------------------------
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True)


@pytest.mark.parametrize("chapter,uid,typed,seen", [
    ("trench_crusade", "tc-worked", "２", "일어나지 않음: 돌격이 닿지 않아"),       # off the table: the engine
    ("pf2e", "pf-worked", "20 / 8", "행동 2: 투창으로 오크 B 타격"),
    ("underface", "uf-worked", "７０", "일어나지 않음: 명중하지 않아"),
    ("hunters_moon", "hm-worked", "- / - / 6 6", "격파합니다"),
    ("bfrpg", "bf-worked", "14 / 3", "도우버트가 분리 사격에 쓰러졌습니다")])
def test_on_a_phone_typed_dice_re_resolve_the_turn_like_the_library(browser, site_url, chapter, uid,
                                                                    typed, seen):
    import html as html_lib
    from conftest import OfflinePage
    from test_site_engine import page_widgets, shown, wait_engine
    from widgets.views.live import rebuild

    offline_page = OfflinePage(browser, site_url, **PHONE)
    try:
        page = offline_page.open(f"book/{chapter}.html")
        page.locator(f'[data-live="{uid}"]').scroll_into_view_if_needed()
        data = next(d for d in page_widgets(chapter) if d["uid"] == uid)
        offline_page.type_text(uid, "dice", typed)
        if page.evaluate("() => LiveBook.engineState()") != "off":
            wait_engine(offline_page)
        page.evaluate("(uid) => LiveBook.settled(uid)", uid)
        got = shown(offline_page, uid)
        want = rebuild(data["origin"]).answer({"dice": typed})
        assert got["h"] == want["h"] and got["status"] == ""
        assert seen in html_lib.unescape(got["h"])
        # a bad group: the Korean message names the roll, the last answer stays
        offline_page.type_text(uid, "dice", "9 9 9", paste=True)   # pasted: no shorter text first
        wait_engine(offline_page)
        page.evaluate("(uid) => LiveBook.settled(uid)", uid)
        after = shown(offline_page, uid)
        assert "1번째 칸" in html_lib.unescape(after["status"]) and after["h"] == got["h"]
        assert offline_page.errors == []
    finally:
        offline_page.close()


# --- the Underface round -------------------------------------------------------------------------
from widgets import underface as uf  # noqa: E402

UF_TEXTS = ["", "70", "- / 20", "- / - / 9", "- / - / - / 77", "30 / 40", "5 / 99 / 12 / 100", "96 / 3"]


@pytest.mark.parametrize("skill", [0, 1, 5, 37, 50, 95, 99, 150])
def test_check_result_of_every_roll_gives_check_odds(skill):
    counts = Counter(uf.check_result(r, skill) for r in range(1, 101))
    assert {k: Fraction(v, 100) for k, v in counts.items()} == \
        {k: p for k, p in uf.check_odds(skill).items() if p}


@pytest.mark.parametrize("text", UF_TEXTS)
@pytest.mark.parametrize("seed", [0, 1, 2, 5, 9])
def test_uf_each_steps_odds_are_the_librarys(text, seed):
    turn = t.uf_turn(t.Dice(text, seed, t.UF_SLOTS))
    b, pc = t.UF_BANDIT, t.UF_PC
    hit = next(s for s in turn.steps if "막기" in s.head)
    assert [p for _, p in hit.odds] == list(uf.opposed_odds(b["skill"], pc["skill"]).values())
    a, d = turn.dice.used[0][0], turn.dice.used[1][0]
    assert turn.numbers["outcome"] == uf.opposed_result(a, b["skill"], d, pc["skill"])
    damage = next(s for s in turn.steps if s.head == "피해와 방어구")
    hp = pc["hp"]
    if turn.numbers["outcome"] in uf.HIT_OUTCOMES:
        special = turn.numbers["outcome"] == "attacker_wins_special"
        total = turn.dice.used[2][0]
        raw = uf.damage_distribution(t.UF_WEAPON, 0, t.UF_DB, special=special)
        assert raw.probability(total) > 0
        hp -= max(0, total - uf.ARMOR[t.UF_ARMOR].armor_value)
        assert [p for _, p in damage.odds] == list(uf.hit_hp_states(
            t.UF_WEAPON, pc["hp"], pc["max_hp"], t.UF_ARMOR, t.UF_DB, special=special).values())
    else:
        assert damage.skipped
    assert turn.numbers["hp"] == hp
    end = turn.steps[-1]
    if hp <= -((pc["max_hp"] + 1) // 2):
        odds = uf.check_odds(t.UF_ENDURANCE)
        assert dict(end.odds)["살아남음"] == odds["special"] + odds["success"]
        assert turn.numbers["endurance"] == uf.check_result(turn.dice.used[3][0], t.UF_ENDURANCE)
    else:
        assert end.skipped and turn.numbers["endurance"] is None


def test_uf_default_and_typed_dice_re_resolve():
    turn = t.uf_turn(t.Dice("", 0, t.UF_SLOTS))
    assert turn.numbers["outcome"] == "attacker_wins_special" and turn.numbers["endurance"] == "success"
    assert "가람의 HP는 −7" in turn.html()
    parried = t.uf_turn(t.Dice("- / 20", 0, t.UF_SLOTS))    # 60−8 > 50−20: still the bandit's special
    assert parried.numbers["outcome"] == "attacker_wins_special"
    missed = t.uf_turn(t.Dice("70", 0, t.UF_SLOTS))
    assert missed.numbers["hp"] == t.UF_PC["hp"] and "일어나지 않음: 명중하지 않아" in missed.html()
    dead = t.uf_turn(t.Dice("- / - / - / 77", 0, t.UF_SLOTS))
    assert dead.numbers["endurance"] == "failure" and "가람은 죽습니다" in dead.html()


def test_uf_seeded_damage_is_drawn_with_the_exact_weights():
    raw = uf.damage_distribution(t.UF_WEAPON, 0, t.UF_DB)
    counts = Counter(t.Dice("", s, t.UF_SLOTS).draw(2, raw) for s in range(1, 3001))
    assert set(counts) <= set(raw.outcomes())
    for value, p in raw.probabilities().items():      # within 5 standard errors of its weight
        assert abs(counts[value] / 3000 - p) < 5 * (float(p * (1 - p)) / 3000) ** 0.5 + 1e-9



# --- the Hunter's Moon combat --------------------------------------------------------------------
from widgets import hunters_moon as hm  # noqa: E402

HM_TEXTS = ["", "1 1", "2 2", "- / - / 6 6", "- / - / - / 1 2", "- / - / - / - / - / - / 1 1",
            "6 6 / - / 1 1 / 1 1 / 1 1 / 1 1", "- / - / 6 6 / - / 6 6"]


def _hm_check(faces, modifier, target):
    raw = sum(faces)                              # the chapter's assumed procedure, written out
    return "fumble" if raw == 2 else "special" if raw == 12 else \
        "success" if raw + modifier >= target else "failure"


@pytest.mark.parametrize("text", HM_TEXTS)
@pytest.mark.parametrize("seed", [0, 1, 2, 4, 11])
def test_hm_each_steps_odds_are_the_librarys(text, seed):
    turn = t.hm_turn(t.Dice(text, seed, t.HM_SLOTS))
    pc, body, th = t.HM_PC, t.HM_BODY, t.HM_THREAT
    used = turn.dice.used
    recon = turn.steps[0]
    assert [p for _, p in recon.odds] == list(hm.check_odds(pc["brain"], t.HM_RECON_TARGET).values())
    assert turn.numbers["scouted"] == (_hm_check(used[0], pc["brain"], t.HM_RECON_TARGET) in ("success", "special"))
    for step in turn.steps:
        if "위협의 공격" in step.head and not step.skipped:
            assert [p for _, p in step.odds] == list(hm.check_odds(pc["defence"], th["attack_value"]).values())
        if "PC의 공격" in step.head:
            if "목표로 고릅니다" in step.text:
                d = hm.destroy_odds(pc["might"], th["defence"], pc["power"], 2, th["durability"])
                assert dict(step.odds) == {"명중": d.hit, "격파": d.destroy}
            else:
                hit = hm.check_odds(pc["might"], body["defence"])
                assert dict(step.odds)["명중"] == hit["success"] + hit["special"]
    chase = next(s for s in turn.steps if s.head == "추격판정")
    if chase.skipped:
        assert turn.numbers["life"] == 0 and turn.numbers["won"]
    else:
        assert dict(chase.odds)["추격 성공"] == hm.pursuit_odds(pc["brain"], body["defence"])
        assert turn.numbers["pursued"] == (_hm_check(used[6], pc["brain"], body["defence"]) in ("success", "special"))
    assert turn.numbers["won"] == (turn.numbers["life"] == 0)


def test_hm_default_has_recon_plot_threats_acting_and_pursuit():
    turn = t.hm_turn(t.Dice("", 0, t.HM_SLOTS))
    heads = [s.head for s in turn.steps if not s.skipped]
    assert heads.count("난전 1라운드: 위협의 공격") == 1 and heads.count("난전 2라운드: 위협의 공격") == 1
    # the plot is made in melee round 1 only: the token stays on paragraph 2, before the claw's 3
    assert heads.index("난전 2라운드: PC의 공격") < heads.index("난전 2라운드: 위협의 공격")
    assert heads.count("난전 1라운드: 플롯과 순서") == 1 and "난전 2라운드: 플롯과 순서" not in heads
    second = next(s for s in turn.steps if s.head == "난전 2라운드: 순서")
    assert "1라운드에만" in second.text and "플롯치" not in second.text
    assert turn.numbers["pursued"] and turn.numbers["won"]


def test_hm_typed_dice_re_resolve_the_rest():
    destroyed = t.hm_turn(t.Dice("- / - / 6 6", 0, t.HM_SLOTS))      # a special: 5 + 15 ≥ 6
    assert destroyed.numbers["destroyed"]
    assert all(s.skipped for s in destroyed.steps if "위협의 공격" in s.head)
    fumbled = t.hm_turn(t.Dice("1 1", 0, t.HM_SLOTS))
    assert not fumbled.numbers["scouted"] and "정찰 펌블의 반격" in fumbled.text()
    assert fumbled.dice.used[1][0] in hm.recon_counterattack(t.HM_BODY["level"]).outcomes()
    lost = t.hm_turn(t.Dice("- / - / - / - / - / - / 1 1", 0, t.HM_SLOTS))
    assert lost.numbers["pursued"] is False and not lost.numbers["won"]



# --- the Basic Fantasy round ---------------------------------------------------------------------
from widgets import bfrpg as bf  # noqa: E402
from widgets.grid import Terrain  # noqa: E402

BF_TEXTS = ["", "2", "14 / 3", "- / - / 4", "- / - / - / 6", "- / - / - / - / 20 / 6", "20 / 1 / 20 / 8",
            "1 / - / 1 / - / 1"]


def _bf_hits(face, bonus, ac):
    return face == 20 or (face != 1 and face + bonus >= ac)     # the chapter's rule, written out


@pytest.mark.parametrize("text", BF_TEXTS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 6])
def test_bf_each_steps_odds_are_the_librarys(text, seed):
    turn = t.bf_turn(t.Dice(text, seed, t.BF_SLOTS))
    used = turn.dice.used
    options = bf.move_options(Terrain(t.BF_SIZE, t.BF_SIZE, enemies={t.BF_GOBLIN_A, t.BF_GOBLIN_B}),
                              t.BF_START, t.BF_RATE)
    assert (turn.numbers["option"], turn.numbers["parting"]) == (
        options.option(t.BF_DEST), options.parting_shots(t.BF_DEST)) == ("flee_walk", (t.BF_GOBLIN_A,))
    shot = next(s for s in turn.steps if "분리 사격" == s.head[-5:])
    bonus = t.BF_GOBLIN["bonus"] + bf.PARTING_SHOT_BONUS
    assert dict(shot.odds)["명중"] == Fraction(sum(_bf_hits(f, bonus, t.BF_AC) for f in range(1, 21)), 20)
    hp = t.BF_HP - (used[1][0] if _bf_hits(used[0][0], bonus, t.BF_AC) else 0)
    attack = next(s for s in turn.steps if s.head == "도우버트의 공격")
    goblin = t.BF_GOBLIN["hp"]
    if hp <= 0:
        assert attack.skipped and not turn.numbers["attacked"]
    else:
        assert dict(attack.odds)["명중"] == bf.attack_roll_odds(t.BF_BONUS, t.BF_GOBLIN["ac"])["hit"]
        if _bf_hits(used[2][0], t.BF_BONUS, t.BF_GOBLIN["ac"]):
            goblin -= used[3][0]
            wound = next(s for s in turn.steps if s.head == "도우버트의 피해")
            assert dict(wound.odds)["고블린 B가 쓰러짐"] == Fraction(max(0, 9 - t.BF_GOBLIN["hp"]), 8)
        if goblin > 0 and _bf_hits(used[4][0], t.BF_GOBLIN["bonus"], t.BF_AC):
            hp -= used[5][0]
    assert (turn.numbers["hp"], turn.numbers["goblin_hp"]) == (hp, goblin)


def test_bf_typed_dice_re_resolve_the_rest():
    fell = t.bf_turn(t.Dice("14 / 3", 0, t.BF_SLOTS))         # 14 + 3 ≥ 15, 3 damage: HP 3 → 0
    assert not fell.numbers["attacked"] and "일어나지 않음: 도우버트가 분리 사격에 쓰러졌습니다" in fell.html()
    missed = t.bf_turn(t.Dice("2", 0, t.BF_SLOTS))
    assert missed.numbers["hp"] == t.BF_HP - 0 - 0 or missed.numbers["attacked"]
    killed = t.bf_turn(t.Dice("- / - / - / 6", 0, t.BF_SLOTS))
    assert killed.numbers["goblin_hp"] <= 0 and "고블린 B가 쓰러졌습니다" in killed.html()



# --- every walkthrough: refusals naming the roll, the page table, speed ---------------------------
TURN_WIDGETS = [t.tc_turn_widget, t.pf_turn_widget, t.uf_turn_widget, t.hm_turn_widget, t.bf_turn_widget]


@pytest.mark.parametrize("make,typed,words", [
    (t.pf_turn_widget, "- / 9", "2번째 칸(행동 1의 피해)"), (t.pf_turn_widget, "0", "1번째 칸(행동 1의 d20)"),
    (t.uf_turn_widget, "- / - / 99", "3번째 칸(피해 합계)"), (t.uf_turn_widget, "- / 101", "2번째 칸(가람의 막기 D100)"),
    (t.hm_turn_widget, "7 1", "1번째 칸(정찰판정)"),
    (t.hm_turn_widget, "- / - / - / - / - / - / - / 6 6 / 99", "9번째 칸(추격 데미지 합계)"),
    (t.bf_turn_widget, "21", "1번째 칸(고블린 A의 분리 사격 d20)"), (t.bf_turn_widget, "20 / 7", "2번째 칸(분리 사격 피해 d6)")])
def test_bad_typed_dice_give_a_korean_message_naming_the_roll(make, typed, words):
    _refused(make, typed, words)


@pytest.mark.parametrize("make", TURN_WIDGETS)
def test_widget_table_origin_and_speed(make):
    widget = make()
    check_static_table(widget)
    assert widget.origin["factory"] == make.__name__
    start = time.perf_counter()
    for s in range(40):
        widget.answer({"dice": "", "seed": str(s)})
    assert (time.perf_counter() - start) / 40 < 0.05


@pytest.mark.parametrize("chapter,make", [("trench_crusade", t.tc_turn_widget), ("pf2e", t.pf_turn_widget),
                                          ("underface", t.uf_turn_widget), ("hunters_moon", t.hm_turn_widget),
                                          ("bfrpg", t.bf_turn_widget)])
def test_every_rule_a_step_names_links_a_section_of_its_built_chapter(site_url, chapter, make):
    import re
    from conftest import SITE
    page = (SITE / "book" / f"{chapter}.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'id="([^"]+)"', page))
    widget = make()
    anchors = {a for v in widget.page_settings() for a in re.findall(r'href="#([^"]+)"', widget.shown(**v).html)}
    assert len(anchors) >= 2 and anchors <= ids, sorted(anchors - ids)


def test_in_jupyter_typed_dice_and_the_seed_re_resolve_the_turn():
    from widget_checks import JupyterView
    view = JupyterView(t.tc_turn_widget())
    assert "대성공" in view.out                                   # the book's example dice
    view.type("dice", "１")
    assert "일어나지 않음: 돌격이 닿지 않아" in view.out and view.status == ""
    view.type("dice", "9")
    assert "1번째 칸(루카의 돌격)" in view.status
    view.type("dice", "")
    view.type("seed", "5")
    assert t.tc_turn_widget().shown(dice="", seed=5).html in view.out


def test_hm_example_recon_target_is_the_recon_widgets_first_value():
    """The walk-through's recon target and the recon widget's first value are one number (issue 29)."""
    from widgets import hunters_moon as hm_rules
    assert t.HM_RECON_TARGET == hm_rules.RECON_TARGET_EXAMPLE
    assert f"목표치 {t.HM_RECON_TARGET} 이상" in t.hm_turn(t.Dice("", 0, t.HM_SLOTS)).steps[0].text
