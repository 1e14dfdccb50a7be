"""Hunter's Moon combat rules: every rule checked against brute-force dice enumeration.

Numbers written here come from the seed (004) or rules-notes: raw 12 special, raw 2 fumble,
plot 6 = 권외, pursuit = round 3 with +1D6, recon counterattack 1D6 + level, 포박 −1,
비행 −5, 잠수 achievement 6, doom colour ×2 for threats.
"""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from widgets import hunters_moon as hm
from widgets.dice import Dist
from widgets.errors import RuleInputError

FACES = range(1, 7)
OUTCOMES = ("fumble", "failure", "success", "special")


def grid(*axes, repeat=1) -> list[tuple]:
    """Parameter grid as a list (pytest wants a collection)."""
    return list(itertools.product(*axes, repeat=repeat))


# --- independent brute force -----------------------------------------------------------------
def brute_outcome(a: int, b: int, modifier: int, target: int) -> str:
    raw = a + b
    if raw == 2:
        return "fumble"
    if raw == 12:
        return "special"
    return "success" if raw + modifier >= target else "failure"


def brute_check(modifier: int, target: int) -> dict[str, Fraction]:
    counts = Counter(brute_outcome(a, b, modifier, target) for a in FACES for b in FACES)
    return {k: Fraction(counts[k], 36) for k in OUTCOMES}


def brute_destroy(might, defence, power, paragraph, durability, *, modifier=0, doom=0,
                  pursuit=False, crit_extra=0, flying=False):
    """(hit, critical, destroy) over all 36 (or 216 with the pursuit die) outcomes."""
    hit = crit = destroy = 0
    extra_dice = FACES if pursuit else [0]
    bonus = 0 if paragraph == 6 else paragraph
    for a, b, d in itertools.product(FACES, FACES, extra_dice):
        result = brute_outcome(a, b, might + modifier, defence)
        if result in ("fumble", "failure"):
            continue
        hit += 1
        damage = power + bonus + doom + d
        if result == "special":
            crit += 1
            damage += a + b + might + modifier + crit_extra
        damage = max(0, damage)
        if flying:
            damage = max(0, damage - 5)
        destroy += damage >= durability
    n = 36 * len(extra_dice)
    return Fraction(hit, n), Fraction(crit, n), Fraction(destroy, n)


def dist_of(values) -> Dist:
    return Dist(Counter(values))


# --- the check -------------------------------------------------------------------------------
@pytest.mark.parametrize("modifier,target", grid(
    [-15, -3, -1, 0, 1, 2, 5, 9, 15], [-5, 0, 2, 3, 6, 7, 8, 11, 12, 13, 20]))
def test_check_odds_matches_enumeration(modifier, target):
    odds = hm.check_odds(modifier, target)
    assert odds == brute_check(modifier, target)
    assert sum(odds.values()) == 1
    assert hm.success_chance(odds) == odds["success"] + odds["special"]


@pytest.mark.parametrize("modifier", [-100, -20, 0, 20, 100])
@pytest.mark.parametrize("target", [-200, -50, 0, 50, 200])
def test_raw_12_always_succeeds_raw_2_always_fails(modifier, target):
    odds = hm.check_odds(modifier, target)
    assert odds["special"] == Fraction(1, 36)
    assert odds["fumble"] == Fraction(1, 36)
    assert 0 < hm.success_chance(odds) < 1


# --- damage ----------------------------------------------------------------------------------
@pytest.mark.parametrize("power,paragraph", grid([0, 1, 4, 9], [1, 2, 3, 4, 5]))
def test_pc_damage_is_weapon_plus_paragraph(power, paragraph):
    assert hm.pc_damage(power, paragraph) == Dist.constant(power + paragraph)


@pytest.mark.parametrize("stage", [0, 1, 2, 3])
@pytest.mark.parametrize("achievement", [None, 12, 17])
@pytest.mark.parametrize("extra", [0, 2])
@pytest.mark.parametrize("pursuit", [False, True])
def test_pc_damage_bonuses(stage, achievement, extra, pursuit):
    crit = 0 if achievement is None else achievement + extra
    dice = FACES if pursuit else [0]
    expected = dist_of(3 + 2 + stage + crit + d for d in dice)
    assert hm.pc_damage(3, 2, stage, achievement, pursuit, critical_extra=extra) == expected


def test_pc_damage_out_of_range_uses_the_labelled_setting():
    assert hm.pc_damage(3, hm.OUT_OF_RANGE) == Dist.constant(3 + hm.OUT_OF_RANGE_DAMAGE_BONUS)


@pytest.mark.parametrize("power,doom,pursuit", grid([0, 3, 7], [0, 1, 4], [False, True]))
def test_threat_damage_power_and_double_doom(power, doom, pursuit):
    dice = FACES if pursuit else [0]
    assert hm.threat_damage(power, doom, pursuit) == dist_of(power + 2 * doom + d for d in dice)


# --- destroying a threat ---------------------------------------------------------------------
@pytest.mark.parametrize("might,defence,power,paragraph,durability", [
    (1, 9, 2, 1, 4), (1, 9, 2, 3, 4), (3, 7, 0, 1, 2), (0, 12, 5, 5, 10), (2, 15, 1, 1, 3),
    (4, 6, 3, 6, 3), (-2, 8, 6, 4, 30), (5, 3, 2, 2, 40),
])
@pytest.mark.parametrize("pursuit", [False, True])
@pytest.mark.parametrize("doom,extra", [(0, 0), (2, 3)])
def test_destroy_odds_matches_enumeration(might, defence, power, paragraph, durability,
                                          pursuit, doom, extra):
    odds = hm.destroy_odds(might, defence, power, paragraph, durability,
                           doom_stage=doom, pursuit=pursuit, critical_extra=extra)
    assert (odds.hit, odds.critical, odds.destroy) == brute_destroy(
        might, defence, power, paragraph, durability, doom=doom, pursuit=pursuit, crit_extra=extra)
    assert odds.body_loss == durability
    assert odds.expected_body_loss == odds.destroy * durability


@pytest.mark.parametrize("extreme", [-100, 100])
def test_extreme_but_allowed_inputs_stay_valid(extreme):
    odds = hm.destroy_odds(extreme, -200 if extreme > 0 else 200, 100, 5, 200,
                           modifier=extreme, attacker_bound=True, threat_bound=True)
    assert odds == hm.DestroyOdds(*brute_destroy(extreme, (-200 if extreme > 0 else 200) - 1, 100, 5,
                                                 200, modifier=extreme - 1), 200, odds.destroy * 200)
    assert sum(hm.defence_odds(extreme, -extreme * 2, extreme, threat_bound=True).values()) == 1


def test_only_a_critical_hit_can_destroy_a_tough_threat():
    # weapon + paragraph falls short, but a special adds the achievement value
    odds = hm.destroy_odds(0, 7, 1, 1, 10)
    assert odds.destroy == odds.critical == Fraction(1, 36)


@pytest.mark.parametrize("might,defence", [(0, 7), (2, 9), (4, 12)])
def test_bound_attacker_and_bound_threat(might, defence):
    plain = hm.destroy_odds(might, defence, 2, 3, 4, modifier=-1)
    assert hm.destroy_odds(might, defence, 2, 3, 4, attacker_bound=True) == plain
    lowered = hm.destroy_odds(might, defence - 1, 2, 3, 4)
    assert hm.destroy_odds(might, defence, 2, 3, 4, threat_bound=True) == lowered


@pytest.mark.parametrize("power,paragraph,durability", [(3, 3, 2), (5, 4, 4), (2, 1, 1), (9, 5, 9)])
def test_flying_threat_takes_five_less_unless_anti_air(power, paragraph, durability):
    odds = hm.destroy_odds(2, 8, power, paragraph, durability, threat_flying=True)
    assert odds.destroy == brute_destroy(2, 8, power, paragraph, durability, flying=True)[2]
    unreduced = hm.destroy_odds(2, 8, power, paragraph, durability)
    for kwargs in ({"anti_air": True}, {"attacker_flying": True}):
        assert hm.destroy_odds(2, 8, power, paragraph, durability, threat_flying=True,
                               **kwargs) == unreduced


@pytest.mark.parametrize("might,defence", [(-5, 20), (2, 9), (4, 7)])
@pytest.mark.parametrize("power,durability", [(1, 3), (1, 5), (4, 9), (3, 5)])
@pytest.mark.parametrize("pursuit", [False, True])
def test_diving_attacker_takes_the_better_of_auto_hit_and_rolling(might, defence, power,
                                                                  durability, pursuit):
    """The source says a diving attacker *may* auto-hit: switching diving on never lowers the
    chance to destroy, and an auto-hit (no dice) has no critical."""
    odds = hm.destroy_odds(might, defence, power, 2, durability, attacker_diving=True,
                           pursuit=pursuit)
    rolled = brute_destroy(might, defence, power, 2, durability, pursuit=pursuit)
    extra = FACES if pursuit else [0]
    auto = Fraction(sum(power + 2 + d >= durability for d in extra), len(extra))
    assert odds.destroy == max(auto, rolled[2])
    assert odds.destroy >= hm.destroy_odds(might, defence, power, 2, durability,
                                           pursuit=pursuit).destroy
    if auto >= rolled[2]:
        assert (odds.hit, odds.critical, odds.auto_hit) == (1, 0, True)
    else:
        assert (odds.hit, odds.critical, odds.destroy) == rolled and not odds.auto_hit
    # both diving: back to the ordinary check
    both = hm.destroy_odds(-5, 20, power, 2, durability, attacker_diving=True, threat_diving=True)
    assert both == hm.destroy_odds(-5, 20, power, 2, durability)


# --- defence, recon, pursuit ----------------------------------------------------------------
@pytest.mark.parametrize("ability,attack,modifier", grid([0, 2, 4], [5, 8, 11], [-1, 0, 2]))
def test_defence_odds_matches_enumeration(ability, attack, modifier):
    assert hm.defence_odds(ability, attack, modifier) == brute_check(ability + modifier, attack)
    assert hm.defence_odds(ability, attack, modifier, bound=True) == \
        brute_check(ability + modifier - 1, attack)
    assert hm.defence_odds(ability, attack, modifier, threat_bound=True) == \
        brute_check(ability + modifier, attack - 1)


def test_diving_threat_allows_no_defence():
    odds = hm.defence_odds(10, 2, threat_diving=True)
    assert odds["failure"] == 1 and sum(odds.values()) == 1


@pytest.mark.parametrize("brain,target,bound", grid([0, 2, 5], [5, 7, 10], [False, True]))
def test_recon_odds(brain, target, bound):
    odds = hm.recon_odds(brain, target, bound=bound)
    assert odds == brute_check(brain - bound, target)
    assert odds["fumble"] == Fraction(1, 36)  # the chance the counterattack happens


@pytest.mark.parametrize("level", [0, 1, 3, 7])
def test_recon_counterattack_is_1d6_plus_level(level):
    assert hm.recon_counterattack(level) == dist_of(d + level for d in FACES)


@pytest.mark.parametrize("ability,defence", grid([0, 3, 5], [4, 8, 12, 16]))
@pytest.mark.parametrize("bound,body_bound", grid([False, True], repeat=2))
def test_pursuit_odds(ability, defence, bound, body_bound):
    expected = brute_check(ability - bound, defence - body_bound)
    assert hm.pursuit_odds(ability, defence, bound=bound, body_bound=body_bound) == \
        expected["success"] + expected["special"]


@pytest.mark.parametrize("life,allowed", [(0, False), (1, True), (30, True)])
def test_can_pursue_needs_life_1_or_more(life, allowed):
    assert hm.can_pursue(life) is allowed


def test_pursuit_round_is_round_3():
    assert hm.PURSUIT_ROUND == 3


# --- statuses --------------------------------------------------------------------------------
def test_bound_round_end_loss_is_1d6():
    assert hm.bound_round_end_loss() == dist_of(FACES)


@pytest.mark.parametrize("damage", [0, 3, 5, 6, 12])
def test_flying_damage(damage):
    assert hm.flying_damage(Dist.constant(damage), True) == Dist.constant(max(0, damage - 5))
    assert hm.flying_damage(Dist.constant(damage), False) == Dist.constant(damage)


@pytest.mark.parametrize("attacker,target", grid([False, True], repeat=2))
def test_diving_auto_hit(attacker, target):
    assert hm.diving_auto_hit(attacker, target) is (attacker and not target)


def test_status_data_covers_the_three_statuses():
    assert [s.name_ko for s in hm.STATUSES] == ["포박", "비행", "잠수"]
    assert (hm.BOUND_CHECK_MODIFIER, hm.BOUND_THREAT_VALUE_MODIFIER) == (-1, -1)
    assert (hm.FLYING_DAMAGE_REDUCTION, hm.DIVING_ACHIEVEMENT) == (5, 6)


# --- round order -----------------------------------------------------------------------------
def slot(item) -> tuple[int, int]:
    """Expected sort key: paragraph (권외 = 6 last), PCs (0) before the threat (1)."""
    return (item.paragraph, 1 if isinstance(item, hm.PlacedThreat) else 0)


@pytest.mark.parametrize("plots", grid(range(1, 7), repeat=3))
def test_round_order_paragraphs_then_out_of_range(plots):
    pcs = [hm.PlottedPC(f"PC{i}", p) for i, p in enumerate(plots)]
    threats = [hm.PlacedThreat(f"T{p}", p) for p in (5, 1, 3)]
    order = hm.round_order(pcs, threats)
    assert sorted(order, key=slot) == order  # stable sort keeps the agreed PC order
    assert len(order) == len(pcs) + len(threats)


def test_plot_6_is_out_of_range():
    assert hm.PlottedPC("A", 6).paragraph_label == "권외"
    assert hm.round_order([hm.PlottedPC("A", 6), hm.PlottedPC("B", 5)])[-1].name == "A"


def test_tie_roll_higher_acts_first():
    pcs = [hm.PlottedPC("A", 3, 2), hm.PlottedPC("B", 3, 5), hm.PlottedPC("C", 3, 4)]
    order = hm.round_order(pcs, [hm.PlacedThreat("X", 3)])
    assert [i.name for i in order] == ["B", "C", "A", "X"]


@pytest.mark.parametrize("pcs,threats", [
    ([hm.PlottedPC("A", 2, 3), hm.PlottedPC("B", 2, 3)], []),           # equal tie rolls
    ([hm.PlottedPC("A", 2, 3), hm.PlottedPC("B", 2)], []),              # half rolled
    ([], [hm.PlacedThreat("X", 2), hm.PlacedThreat("Y", 2)]),           # two threats, one paragraph
    (["A"], []),                                                         # not a PlottedPC
    ([hm.PlottedPC(f"P{i}", 1) for i in range(hm.MAX_PCS + 1)], []),    # too many
])
def test_round_order_bad_input(pcs, threats):
    with pytest.raises(RuleInputError) as err:
        hm.round_order(pcs, threats)
    assert err.value.korean


# --- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: hm.check_odds("3", 7),
    lambda: hm.check_odds(1.5, 7),
    lambda: hm.check_odds(True, 7),
    lambda: hm.check_odds(0, 10**6),
    lambda: hm.pc_damage(-1, 1),
    lambda: hm.pc_damage(3, 0),
    lambda: hm.pc_damage(3, 7),
    lambda: hm.pc_damage(3, 1, pursuit="yes"),
    lambda: hm.pc_damage(3, 1, doom_stage=-1),
    lambda: hm.threat_damage(3, doom=True),
    lambda: hm.destroy_odds(1, 8, 2, 1, 0),
    lambda: hm.destroy_odds(1, 8, 2, 1, 3, threat_flying=1),
    lambda: hm.flying_damage(7, True),
    lambda: hm.recon_counterattack(-1),
    lambda: hm.can_pursue(-1),
    lambda: hm.PlottedPC("", 1),
    lambda: hm.PlottedPC("A", 7),
    lambda: hm.PlottedPC("A", 1, tie_roll=0),
    lambda: hm.PlacedThreat("X", 6),
    lambda: hm.paragraph_label(0),
])
def test_bad_input_raises_with_korean_message(call):
    with pytest.raises(RuleInputError) as err:
        call()
    assert isinstance(err.value, ValueError) and err.value.korean and str(err.value)


@pytest.mark.parametrize("ambush", [False, True])
@pytest.mark.parametrize("life_melee,pursued,life_end", [(0, True, 5), (4, False, 4), (4, True, 0),
                                                          (4, True, 2)])
def test_combat_course(ambush, life_melee, pursued, life_end):
    course = hm.combat_course(ambush, life_melee, pursued, life_end, level=3)
    assert course.rounds[0] == ("melee1" if ambush else "recon")
    assert ("pursuit" in course.rounds) == (life_melee > 0 and pursued)
    final = life_end if "pursuit" in course.rounds else life_melee
    assert course.pcs_win == (final == 0)
    assert course.spoils_rolls == (3 if final == 0 else 0)


@pytest.mark.parametrize("might,defence,power,paragraph,doom",
                         grid([0, 2, 5], [7, 9, 12], [1, 4], [1, 3, 6], [0, 2]))
def test_body_attack_damage_matches_enumeration(might, defence, power, paragraph, doom):
    counts: Counter = Counter()
    bonus = 0 if paragraph == 6 else paragraph
    for a, b in itertools.product(FACES, FACES):
        result = brute_outcome(a, b, might, defence)
        if result in ("fumble", "failure"):
            counts[0] += 1
        else:
            counts[power + bonus + doom + (a + b + might if result == "special" else 0)] += 1
    expected = {v: Fraction(n, 36) for v, n in counts.items()}
    assert hm.body_attack_damage(might, defence, power, paragraph, doom).probabilities() == \
        dict(sorted(expected.items()))


def test_body_attack_in_pursuit_adds_a_die():
    loss = hm.body_attack_damage(2, 9, 3, 3, pursuit=True)
    assert loss.probability(0) == hm.check_odds(2, 9)["failure"] + hm.check_odds(2, 9)["fumble"]
    assert sum(loss.probabilities().values()) == 1 and loss.max == 3 + 3 + 6 + 12 + 2


@pytest.mark.parametrize("modifier,target", grid([-3, 0, 2, 6], [5, 9, 13]))
def test_check_outcome_agrees_with_check_odds(modifier, target):
    counts = Counter(hm.check_outcome(a + b, modifier, target) for a, b in itertools.product(FACES, FACES))
    assert {k: Fraction(counts[k], 36) for k in OUTCOMES} == hm.check_odds(modifier, target)


def test_interference_needs_every_condition():
    for same, earlier, areas in itertools.product([False, True], [False, True], range(5)):
        ok, why = hm.can_interfere(same, earlier, areas)
        assert ok == (same and earlier and areas == 4)
        assert (why == "") == ok


def test_combat_ends_the_moment_the_body_falls():
    assert hm.combat_course(False, 0, False, 0, 2, fell_in_first_round=True).rounds == \
        ("recon", "melee1")
    assert hm.combat_course(False, 0, False, 0, 2).rounds == ("recon", "melee1", "melee2")
    # the flag only matters when the body did fall in the melee rounds
    assert hm.combat_course(False, 3, False, 0, 2, fell_in_first_round=True).rounds == \
        ("recon", "melee1", "melee2")


# --- whom a PC may target: the threat card's state when the PC acts (issue 17) ---------------

@pytest.mark.parametrize("pc", range(1, 7))
@pytest.mark.parametrize("threat", range(1, 6))
@pytest.mark.parametrize("placed", [True, False])
def test_threat_state_when_a_pc_acts_follows_the_round_order(pc, threat, placed):
    """Paragraphs 1 → 5 then 권외, a paragraph's PCs before its threat; an unscouted card is
    placed only at its paragraph's monster action; a card that acted is 행동완료. Checked
    against hm.round_order: the threat acted before the PC exactly when it comes first."""
    state = hm.threat_state(pc, threat, placed_before=placed)
    order = [x.name for x in hm.round_order([hm.PlottedPC("PC", pc)], [hm.PlacedThreat("T", threat)])]
    threat_first = order.index("T") < order.index("PC")
    assert state == ("acted" if threat_first else "unacted" if placed else "unplaced")
    assert hm.can_target_threat(state) == (state == "unacted")
    # the worked-round reading: plot 3 acts before the card of paragraph 3 is placed
    if pc == threat == 3 and not placed:
        assert state == "unplaced"


def test_threat_state_refuses_bad_input():
    for bad in [(0, 3, True), (7, 3, True), (2, 6, True), (2, 3, "yes")]:
        with pytest.raises(RuleInputError) as err:
            hm.threat_state(bad[0], bad[1], placed_before=bad[2])
        assert err.value.korean
    with pytest.raises(RuleInputError):
        hm.can_target_threat("sleeping")


# --- the totals a GM asks for first (성공 / 맞을 확률), counted over the 36 rolls ------------------
@pytest.mark.parametrize("modifier,target", grid(range(-3, 9, 2), range(2, 16, 3)))
def test_success_and_failure_chance_count_the_36_rolls(modifier, target):
    outcomes = [brute_outcome(a, b, modifier, target) for a in FACES for b in FACES]
    odds = hm.check_odds(modifier, target)
    assert hm.success_chance(odds) == Fraction(sum(o in ("success", "special") for o in outcomes), 36)
    assert hm.failure_chance(odds) == Fraction(sum(o in ("failure", "fumble") for o in outcomes), 36)
    assert hm.success_chance(odds) + hm.failure_chance(odds) == 1


@pytest.mark.parametrize("bad", [None, {"success": Fraction(1)},
                                 {k: Fraction(1, 2) for k in OUTCOMES}])
def test_failure_chance_refuses_other_tables(bad):
    with pytest.raises(RuleInputError):
        hm.failure_chance(bad)
