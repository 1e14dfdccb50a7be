"""Whole fights (``widgets.fight`` and the four games' calls) against independent oracles.

* brute force: every die of the first round, and of the second, enumerated with the rules read
  here (D100 pairs, d20s, D6 pools, 2D6 checks and every damage die), the rolls of one attack
  grouped by what they do before the next attack is enumerated;
* an independent chain written here: the whole fight as one joint Markov chain, attack by attack,
  stepped with Fractions (no :mod:`widgets.fight`), compared at every listed step;
* a seeded Monte Carlo of 10⁵ fights (numpy), within 4σ at every listed step;
* every listed chance plus the rest sums to exactly 1; refusals come at once, in Korean.
"""
from __future__ import annotations

import itertools
import math
import re
import time
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from widgets import fight, hunters_moon as hm, limits, pf2e, trench_crusade as tc, underface as uf
from widgets.errors import RuleInputError

HANGUL = re.compile("[가-힣]")
SEED = 20261203


# --- helpers ------------------------------------------------------------------------------------
def dice_faces(expression: str) -> list[int]:
    """Every total of a sum like ``"1D6+1"``, ``"2D4-1"`` or ``"+1D4"``, one entry per way the
    dice can fall (read here with a regular expression, not by the library)."""
    expression = expression.replace(" ", "").upper()
    if expression in ("", "0"):
        return [0]
    parts = re.findall(r"([+-]?)(\d+)(?:D(\d+))?", expression)
    assert "".join(f"{s}{n}" + (f"D{d}" if d else "") for s, n, d in parts).lstrip("+") \
        == expression.lstrip("+"), expression
    pools = []
    for sign, count, sides in parts:
        k = -1 if sign == "-" else 1
        if sides:
            pools += [[k * f for f in range(1, int(sides) + 1)]] * int(count)
        else:
            pools.append([k * int(count)])
    return [sum(combo) for combo in itertools.product(*pools)]


def check_sums(odds: fight.FightOdds) -> None:
    total = sum((p for end in odds.ends for p in end.values()), Fraction(0)) + odds.rest
    assert total == 1
    for end, part in zip(odds.ends, odds.details):
        for key, p in part.items():
            assert 0 <= p <= end[odds.detail_of[key]]


def within_4_sigma(count: int, n: int, p: Fraction, where: str) -> None:
    sigma = math.sqrt(float(p) * (1 - float(p)) / n)
    assert abs(count / n - float(p)) <= 4 * sigma + 1e-12, (where, count / n, float(p))


# --- the generic layer -------------------------------------------------------------------------
COIN = fight.Chain({"up": {"up": Fraction(1, 2), "heads": Fraction(1, 2)}}, keys=("heads",))


def test_a_geometric_chain_is_listed_exactly_until_one_in_a_million():
    odds = fight.walk(COIN, "up")
    assert [end["heads"] for end in odds.ends] == [Fraction(1, 2 ** k) for k in range(1, 21)]
    assert odds.rest == Fraction(1, 2 ** 20) and odds.rest <= limits.OPEN_REST < 2 * odds.rest
    check_sums(odds)
    assert odds.mean_steps() == sum(Fraction(k, 2 ** k) for k in range(1, 21)) / (1 - odds.rest)


def test_weights_and_fractions_make_the_same_chain():
    by_weight = fight.Chain({"up": {"up": 2, "heads": 2}}, keys=("heads",))
    assert fight.walk(by_weight, "up") == fight.walk(COIN, "up")


def test_a_race_against_its_closed_form():
    # two coins: first wins at t with (1/4)^(t-1) * 1/2, second with (1/4)^(t-1) * 1/4
    odds = fight.race(COIN, "up", COIN, "up", keys=("x", "y"))
    for t, end in enumerate(odds.ends, start=1):
        assert end == {"x": Fraction(1, 2) / 4 ** (t - 1), "y": Fraction(1, 4) / 4 ** (t - 1)}
    assert odds.rest == Fraction(1, 4 ** odds.steps)
    check_sums(odds)


def test_min_steps_and_chances_past_the_list():
    sure = fight.Chain({"up": {"heads": 1}}, keys=("heads",))
    odds = fight.walk(sure, "up", min_steps=3)
    assert odds.steps == 3 and odds.rest == 0 and odds.chance("heads", by=10) == 1
    open_ended = fight.walk(COIN, "up")
    with pytest.raises(RuleInputError) as err:
        open_ended.chance("heads", by=open_ended.steps + 1)
    assert HANGUL.search(err.value.korean)
    with pytest.raises(RuleInputError):
        open_ended.chance("tails")


@pytest.mark.parametrize("bad", [
    lambda: fight.FightOdds(("x",), [{"x": Fraction(1, 2)}], Fraction(1, 3)),       # sums to 5/6
    lambda: fight.FightOdds(("x",), [{"x": Fraction(3, 2)}], Fraction(-1, 2)),
    lambda: fight.FightOdds(("x",), [{"x": Fraction(1, 2)}], Fraction(1, 2), details=[{"d": Fraction(2, 3)}],
                            detail_of={"d": "x"}),
    lambda: fight.Chain({"up": {"up": Fraction(1, 2)}}, keys=("heads",)),
    lambda: fight.Chain({"up": {"nowhere": 1}}, keys=("heads",)),
    lambda: fight.walk(COIN, "down"),
    lambda: fight.race(COIN, "up", COIN, "up", keys=("x", "x")),
])
def test_bad_chains_and_odds_are_refused_in_korean(bad):
    with pytest.raises(RuleInputError) as err:
        bad()
    assert HANGUL.search(err.value.korean)


def test_a_chain_that_never_ends_is_refused_at_once():
    stuck = fight.Chain({"up": {"up": 1}, "other": {"heads": 1}}, keys=("heads",))
    best = min(_seconds(lambda: fight.walk(stuck, "up")) for _ in range(3))
    assert best < 0.05


def _seconds(call) -> float:
    start = time.perf_counter()
    with pytest.raises(RuleInputError) as err:
        call()
    assert HANGUL.search(err.value.korean)
    return time.perf_counter() - start


# --- Underface: brute force, an independent joint chain, Monte Carlo ----------------------------
def uf_target(skill: int, hard: bool) -> int:
    return -(-skill // 2) if hard else skill


def uf_roll(roll: int, target: int) -> tuple[bool, bool, int]:
    if roll <= target and roll < 96:
        return True, roll <= -(-target // 5), target - roll
    return False, False, 0


def uf_winner(attack: tuple[bool, bool, int], defence: tuple[bool, bool, int]) -> str:
    if attack[0] and (not defence[0] or attack[2] >= defence[2]):
        return "special_hit" if attack[1] else "hit"
    if defence[0]:
        return "special_block" if defence[1] else "block"
    return "miss"


_UF_TALLY: dict = {}


def uf_hit_check(attack: int, defence: "int | None", hard: bool) -> Counter:
    """Every pair of D100s of one hit check, tallied by what it does."""
    key = (attack, defence, hard)
    if key not in _UF_TALLY:
        tally: Counter = Counter()
        a_target = uf_target(attack, hard)
        for a in range(1, 101):
            for d in range(1, 101):
                dside = uf_roll(d, defence) if defence is not None else (False, False, 0)
                tally[uf_winner(uf_roll(a, a_target), dside)] += 1
        _UF_TALLY[key] = tally
    return _UF_TALLY[key]


#: The test's weapons: (the weapon's own dice, whether it adds the DB), from the source's table
#: (숏소드 1D6+1+DB, 단검 1D6−1+DB) or as damage expressions.
UF_WEAPONS = {"숏소드": ("1D6+1", True), "단검": ("1D6-1", True), "1D3": ("1D3", False),
              "2D4+DB": ("2D4", True)}


def uf_damage(weapon: str, db: str, armor: int, special: bool) -> Counter:
    """Every fall of the weapon's dice and the DB's, after armour."""
    weapon_faces = dice_faces(UF_WEAPONS[weapon][0])
    db_faces = dice_faces(db) if UF_WEAPONS[weapon][1] else [0]
    tally: Counter = Counter()
    if special:
        top = max(weapon_faces)
        for extra in db_faces:
            tally[max(0, top + extra - armor)] += len(weapon_faces)
    else:
        for w in weapon_faces:
            for extra in db_faces:
                tally[max(0, w + extra - armor)] += 1
    return tally


def uf_attack(attacker: dict, defender: dict, hard: bool):
    """(weight, damage or None, hard next) for every fall of the dice of one attack."""
    out = []
    for result, n in uf_hit_check(attacker["attack"], defender["defence"], hard).items():
        if result in ("hit", "special_hit"):
            damage = uf_damage(attacker["weapon"], attacker["db"], defender["armor"], result == "special_hit")
            total = sum(damage.values())
            out += [(Fraction(n, 10000) * Fraction(m, total), d, False) for d, m in damage.items()]
        else:
            out.append((Fraction(n, 10000), None, result == "special_block"))
    return out


def uf_brute_rounds(a: dict, b: dict, first: str, rounds: int):
    """Per round: {result or detail: chance}, enumerating every die of each attack in order."""
    sides = {"a": a, "b": b}
    states = {(a["hp"], b["hp"], False, False): Fraction(1)}    # hp_a, hp_b, hard_a, hard_b
    per_round = []
    order = (first, "b" if first == "a" else "a")
    for _ in range(rounds):
        ended: Counter = Counter()
        for attacker in order:
            defender = "b" if attacker == "a" else "a"
            nxt: dict = {}
            for (ha, hb, fa, fb), p in states.items():
                hp = {"a": ha, "b": hb}
                flag = {"a": fa, "b": fb}
                for q, damage, hard_next in uf_attack(sides[attacker], sides[defender], flag[attacker]):
                    new_hp, new_flag = dict(hp), dict(flag)
                    new_flag[attacker] = hard_next
                    if damage is not None:
                        new_hp[defender] -= damage
                    if new_hp[defender] <= 0:
                        ended[attacker] += p * q
                        max_hp = sides[defender]["hp"]
                        if new_hp[defender] <= (-max_hp) // 2:   # −⌈max HP ÷ 2⌉
                            ended[f"{defender}_at_death_threshold"] += p * q
                        continue
                    key = (new_hp["a"], new_hp["b"], new_flag["a"], new_flag["b"])
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
            states = nxt
        per_round.append(ended)
    return per_round


def fighter(spec: dict) -> uf.Fighter:
    return uf.Fighter(spec["attack"], spec["defence"], spec["weapon"], db=spec["db"], armor=spec["armor"],
                      hp=spec["hp"])


UF_CASES = [
    (dict(attack=60, defence=50, weapon="숏소드", db="0", armor=0, hp=4),
     dict(attack=50, defence=80, weapon="단검", db="0", armor=1, hp=5), "a"),
    (dict(attack=75, defence=None, weapon="2D4+DB", db="+1D4", armor=0, hp=6),
     dict(attack=40, defence=90, weapon="1D3", db="-1D4", armor=2, hp=3), "b"),
    (dict(attack=95, defence=95, weapon="숏소드", db="0", armor=0, hp=3),
     dict(attack=95, defence=95, weapon="숏소드", db="0", armor=0, hp=3), "a"),
]


@pytest.mark.parametrize("a, b, first", UF_CASES)
def test_duel_first_two_rounds_against_every_die(a, b, first):
    odds = uf.duel(fighter(a), fighter(b), first=first)
    brute = uf_brute_rounds(a, b, first, 2)
    for k in range(2):
        assert odds.ends[k] == {"a": brute[k]["a"], "b": brute[k]["b"]}
        assert odds.details[k] == {"b_at_death_threshold": brute[k]["b_at_death_threshold"],
                                   "a_at_death_threshold": brute[k]["a_at_death_threshold"]}
    check_sums(odds)


def uf_joint_chain(a: uf.Fighter, b: uf.Fighter, first: str, steps: int):
    """The duel as one Markov chain over (HP a, HP b, hard a, hard b), attack by attack, with
    the library's rules functions (opposed_odds, damage_distribution, death_threshold) only."""
    side = {"a": a, "b": b}
    moves_of = {}
    for attacker, defender in (("a", "b"), ("b", "a")):
        for hard in (False, True):
            o = uf.opposed_odds(side[attacker].attack, side[defender].defence, attack_hard=hard)
            moves = [(o["both_fail"] + o["defender_wins"], 0, False), (o["defender_wins_special"], 0, True)]
            for grade, special in (("attacker_wins", False), ("attacker_wins_special", True)):
                dist = uf.damage_distribution(side[attacker].weapon, side[defender].armor,
                                              side[attacker].db, special=special)
                moves += [(o[grade] * q, d, False) for d, q in dist.probabilities().items()]
            moves_of[(attacker, hard)] = [m for m in moves if m[0]]
    states = {(a.hp, b.hp, False, False): Fraction(1)}
    order = (first, "b" if first == "a" else "a")
    ends, details, rest = [], [], Fraction(1)
    for _ in range(steps):
        end = {"a": Fraction(0), "b": Fraction(0)}
        part = {"b_at_death_threshold": Fraction(0), "a_at_death_threshold": Fraction(0)}
        for attacker in order:
            defender = "b" if attacker == "a" else "a"
            nxt: dict = {}
            for (ha, hb, fa, fb), p in states.items():
                hp, flag = {"a": ha, "b": hb}, {"a": fa, "b": fb}
                for q, damage, hard in moves_of[(attacker, flag[attacker])]:
                    new_hp, new_flag = dict(hp), dict(flag)
                    new_hp[defender] -= damage
                    new_flag[attacker] = hard
                    if new_hp[defender] <= 0:
                        end[attacker] += p * q
                        if new_hp[defender] <= uf.death_threshold(side[defender].max_hp):
                            part[f"{defender}_at_death_threshold"] += p * q
                        continue
                    key = (new_hp["a"], new_hp["b"], new_flag["a"], new_flag["b"])
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
            states = nxt
        ends.append(end)
        details.append(part)
        rest = sum(states.values(), Fraction(0))
    return ends, details, rest


@pytest.mark.parametrize("a, b, first", UF_CASES[:2])
def test_duel_against_an_independent_joint_chain_at_every_step(a, b, first):
    odds = uf.duel(fighter(a), fighter(b), first=first)
    ends, details, rest = uf_joint_chain(fighter(a), fighter(b), first, odds.steps)
    assert odds.ends == ends and odds.details == details and odds.rest == rest


def test_duel_against_monte_carlo():
    a = dict(attack=60, defence=45, weapon="숏소드", db="+1D4", armor=1, hp=11)
    b = dict(attack=55, defence=60, weapon="단검", db="0", armor=0, hp=12)
    odds = uf.duel(fighter(a), fighter(b), first="b")
    rng = np.random.default_rng(SEED)
    n = 100_000
    hp = {"a": np.full(n, a["hp"]), "b": np.full(n, b["hp"])}
    hard = {"a": np.zeros(n, bool), "b": np.zeros(n, bool)}
    live = np.ones(n, bool)
    spec = {"a": a, "b": b}
    won = {"a": [], "b": []}
    for _ in range(odds.steps):
        ended = {"a": np.zeros(n, bool), "b": np.zeros(n, bool)}
        for attacker in ("b", "a"):
            defender = "a" if attacker == "b" else "b"
            s, t = spec[attacker], spec[defender]
            target = np.where(hard[attacker], -(-s["attack"] // 2), s["attack"])
            ra, rd = rng.integers(1, 101, n), rng.integers(1, 101, n)
            a_ok = (ra <= target) & (ra < 96)
            a_sp = a_ok & (ra <= -(-target // 5))
            d_ok = (rd <= t["defence"]) & (rd < 96)
            d_sp = d_ok & (rd <= -(-t["defence"] // 5))
            hit = a_ok & (~d_ok | (target - ra >= t["defence"] - rd))
            blocked_sp = ~hit & d_ok & d_sp
            count, sides, plus = (int(g or 0) for g in
                                  re.fullmatch(r"(\d+)D(\d+)([+-]\d+)?", UF_WEAPONS[s["weapon"]][0]).groups())
            roll = rng.integers(1, sides + 1, (count, n)).sum(axis=0) + plus
            roll = np.where(a_sp, count * sides + plus, roll)
            if s["db"] != "0":
                roll = roll + rng.integers(1, 5, n)
            damage = np.maximum(0, roll - t["armor"])
            acting = live & ~ended["a"] & ~ended["b"]
            hp[defender] = np.where(acting & hit, hp[defender] - damage, hp[defender])
            hard[attacker] = np.where(acting, blocked_sp, hard[attacker])
            ended[attacker] |= acting & (hp[defender] <= 0)
        for key in ("a", "b"):
            won[key].append(int(ended[key].sum()))
        live &= ~ended["a"] & ~ended["b"]
    for key in ("a", "b"):
        for k, (count, p, cum) in enumerate(zip(won[key], (e[key] for e in odds.ends), odds.cumulative(key))):
            within_4_sigma(count, n, p, f"{key} at round {k + 1}")
            within_4_sigma(sum(won[key][:k + 1]), n, cum, f"{key} by round {k + 1}")
    within_4_sigma(int(live.sum()), n, odds.rest, "rest")


# --- Pathfinder 2e --------------------------------------------------------------------------------
def pf_degree(face: int, total: int, ac: int) -> int:
    degree = 3 if total >= ac + 10 else 2 if total >= ac else 0 if total <= ac - 10 else 1
    if face == 20:
        degree = min(3, degree + 1)
    if face == 1:
        degree = max(0, degree - 1)
    return degree


def pf_turn(bonus, ac, damage, strikes, agile, off_guard) -> Counter:
    """HP one turn takes, every d20 and every damage die enumerated (each Strike's dice tallied by
    the HP it takes, then every combination of the Strikes)."""
    ac -= 2 * off_guard
    faces = dice_faces(damage)
    per_strike = []
    for number in range(strikes):
        penalty = (4 if agile else 5) * min(number, 2)
        tally: Counter = Counter()
        for face in range(1, 21):
            degree = pf_degree(face, face + bonus - penalty, ac)
            for roll in faces:
                hit = max(1, roll)
                tally[2 * hit if degree == 3 else hit if degree == 2 else 0] += 1
        per_strike.append(tally)
    turn: Counter = Counter()
    for combo in itertools.product(*(t.items() for t in per_strike)):
        turn[sum(v for v, _ in combo)] += math.prod(n for _, n in combo)
    return turn


PF_CASES = [(10, 20, 12, "1d6+2", 3, False, False), (7, 17, 9, "2d4-3", 2, True, True),
            (20, 15, 30, "1d12+4", 3, True, False)]


@pytest.mark.parametrize("bonus, ac, hp, damage, strikes, agile, off_guard", PF_CASES)
def test_strikes_to_down_first_two_turns_against_every_die(bonus, ac, hp, damage, strikes, agile, off_guard):
    odds = pf2e.strikes_to_down(bonus, ac, hp, damage, strikes, agile, off_guard)
    turn = pf_turn(bonus, ac, damage, strikes, agile, off_guard)
    total = sum(turn.values())
    one = sum(n for v, n in turn.items() if v >= hp)
    two = sum(n * m for (v, n), (w, m) in itertools.product(turn.items(), repeat=2) if v < hp <= v + w)
    assert odds.ends[0] == {"down": Fraction(one, total)}
    assert odds.ends[1] == {"down": Fraction(two, total ** 2)}
    check_sums(odds)


def pf_strike_chain(bonus, ac, hp, damage, strikes, agile, off_guard, steps):
    """Strike by Strike, with strike_odds and the damage roll: HP lost → chance."""
    normal = {max(1, x): Fraction(0) for x in dice_faces(damage)}
    faces = dice_faces(damage)
    for x in faces:
        normal[max(1, x)] += Fraction(1, len(faces))
    states, ends = {0: Fraction(1)}, []
    for _ in range(steps):
        down = Fraction(0)
        for number in range(1, strikes + 1):
            o = pf2e.strike_odds(bonus, ac, attack_number=number, agile=agile, off_guard=off_guard)
            nxt: dict = {}
            for lost, p in states.items():
                moves = [(o["failure"] + o["critical_failure"], 0)]
                moves += [(o["success"] * q, x) for x, q in normal.items()]
                moves += [(o["critical_success"] * q, 2 * x) for x, q in normal.items()]
                for q, x in moves:
                    if lost + x >= hp:
                        down += p * q
                    else:
                        nxt[lost + x] = nxt.get(lost + x, Fraction(0)) + p * q
            states = nxt
        ends.append({"down": down})
    return ends, sum(states.values(), Fraction(0))


@pytest.mark.parametrize("case", PF_CASES[:2])
def test_strikes_to_down_against_an_independent_chain_at_every_step(case):
    odds = pf2e.strikes_to_down(*case)
    assert (odds.ends, odds.rest) == pf_strike_chain(*case, odds.steps)


def test_strikes_to_down_against_monte_carlo():
    bonus, ac, hp, damage = 9, 18, 25, "1d8+3"
    odds = pf2e.strikes_to_down(bonus, ac, hp, damage, agile=True, off_guard=True)
    rng = np.random.default_rng(SEED + 1)
    n = 100_000
    lost = np.zeros(n, int)
    down_at = np.zeros(n, int)
    for turn in range(1, odds.steps + 1):
        for number in range(3):
            face = rng.integers(1, 21, n)
            total = face + bonus - 4 * min(number, 2)
            target = ac - 2
            degree = np.select([total >= target + 10, total >= target, total <= target - 10], [3, 2, 0], 1)
            degree = np.where(face == 20, np.minimum(3, degree + 1), np.where(face == 1, np.maximum(0, degree - 1),
                                                                             degree))
            roll = np.maximum(1, rng.integers(1, 9, n) + 3)
            lost += np.where(degree == 3, 2 * roll, np.where(degree == 2, roll, 0))
        newly = (down_at == 0) & (lost >= hp)
        down_at[newly] = turn
    for k, (end, cum) in enumerate(zip(odds.ends, odds.cumulative("down")), start=1):
        within_4_sigma(int((down_at == k).sum()), n, end["down"], f"turn {k}")
        within_4_sigma(int(((down_at > 0) & (down_at <= k)).sum()), n, cum, f"by turn {k}")


# --- Trench Crusade ----------------------------------------------------------------------------------
def tc_pool(kept: int, extra: int) -> Counter:
    """Every fall of a ±DICE pool: kept + |extra| D6, the highest (extra ≥ 0) or lowest kept."""
    tally: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=kept + abs(extra)):
        ordered = sorted(faces)
        tally[sum(ordered[-kept:] if extra >= 0 else ordered[:kept])] += 1
    return tally


def tc_chart(total: int) -> str:
    return "no_effect" if total <= 1 else "minor" if total <= 6 else "down" if total <= 8 else "out"


def tc_brute_attacks(dice, modifier, injury_dice, armour, tough, blood, attacks):
    """Per attack, the chance of "out" with every die of each attack enumerated; the target's
    state is (down, TOUGH left, blood markers), spent as the book reads each policy."""
    states = {(False, tough, 0): Fraction(1)}
    success = tc_pool(2, dice)
    success_total = sum(success.values())
    per_attack = []
    for _ in range(attacks):
        out, nxt = Fraction(0), {}

        def put(state, p):
            nxt[state] = nxt.get(state, Fraction(0)) + p

        for (down, tough_left, markers), p in states.items():
            for total, n in success.items():
                q = p * Fraction(n, success_total)
                if total + modifier < 7:
                    put((down, tough_left, markers), q)
                    continue
                extra = injury_dice + (total + modifier >= 12) + down
                kept, spent = 2, 0
                if blood == "dice":
                    spent = markers
                    extra += markers
                elif blood == "bloodbath" and markers >= (3 if down else 6):
                    spent, kept = (3 if down else 6), 3
                left = markers - spent
                injury = tc_pool(kept, extra)
                injury_total = sum(injury.values())
                for roll, m in injury.items():
                    r = q * Fraction(m, injury_total)
                    result = tc_chart(roll - armour)
                    if result == "out" and not tough_left:
                        out += r
                        continue
                    if result == "out":
                        result, new_tough = "down", False
                    else:
                        new_tough = tough_left
                    gained = {"no_effect": 0, "minor": 1, "down": 2 if down else 1}[result]
                    state = (down or result == "down", new_tough, 0 if blood == "none" else left + gained)
                    put(state, r)
        states = nxt
        per_attack.append(out)
    return per_attack


TC_CASES = [(0, 0, 0, 0, False, "none"), (1, 1, 0, 2, True, "dice"), (0, 0, 1, 1, True, "bloodbath"),
            (-1, 2, 0, 3, False, "bloodbath")]


@pytest.mark.parametrize("case", TC_CASES)
def test_attacks_to_out_first_two_attacks_against_every_die(case):
    odds = tc.attacks_to_out(*case)
    brute = tc_brute_attacks(*case, 2)
    assert [end["out"] for end in odds.ends[:2]] == brute
    check_sums(odds)


@pytest.mark.parametrize("case", [(0, 0, 0, 2, True, "bloodbath"), (1, 0, 0, 1, True, "dice")])
def test_attacks_to_out_against_an_independent_chain_at_every_step(case):
    odds = tc.attacks_to_out(*case)
    # the brute force above, stepped on with the rules' odds of whole rolls, is the chain here
    assert [end["out"] for end in odds.ends] == tc_chain(*case, odds.steps)


def tc_chain(dice, modifier, injury_dice, armour, tough, blood, steps):
    roll = tc.success_odds(dice, modifier)
    states, per_attack = {(False, tough, 0): Fraction(1)}, []
    for _ in range(steps):
        out, nxt = Fraction(0), {}
        for (down, tough_left, markers), p in states.items():
            nxt[(down, tough_left, markers)] = nxt.get((down, tough_left, markers), Fraction(0)) \
                + p * roll["failure"]
            for grade in ("success", "critical"):
                spent = markers if blood == "dice" else (3 if down else 6) \
                    if blood == "bloodbath" and markers >= (3 if down else 6) else 0
                bath = blood == "bloodbath" and spent > 0
                extra = injury_dice + (grade == "critical") + down + (spent if blood == "dice" else 0)
                for result, q in tc.injury_odds(extra, armour, bloodbath=bath).items():
                    r = p * roll[grade] * q
                    if result == "out_of_action" and not tough_left:
                        out += r
                        continue
                    new_tough = tough_left and result != "out_of_action"
                    kind = "down" if result in ("down", "out_of_action") else result
                    gained = {"no_effect": 0, "minor_hit": 1, "down": 2 if down else 1}[kind]
                    key = (down or kind == "down", new_tough,
                           0 if blood == "none" else markers - spent + gained)
                    nxt[key] = nxt.get(key, Fraction(0)) + r
        states = nxt
        per_attack.append(out)
    return per_attack


def test_attacks_to_out_against_monte_carlo():
    odds = tc.attacks_to_out(dice=1, armour=1, tough=True, blood="dice")
    rng = np.random.default_rng(SEED + 2)
    n = 100_000
    down = np.zeros(n, bool)
    tough = np.ones(n, bool)
    markers = np.zeros(n, int)
    out_at = np.zeros(n, int)

    def pool(kept, extra):
        """kept + |extra| D6 per fight (extra varies by fight), highest or lowest kept."""
        width = kept + int(np.abs(extra).max())
        faces = rng.integers(1, 7, (n, width))
        used = np.arange(width)[None, :] < (kept + np.abs(extra))[:, None]
        high = np.sort(np.where(used, faces, 0), axis=1)[:, -kept:].sum(axis=1)
        low = np.sort(np.where(used, faces, 7), axis=1)[:, :kept].sum(axis=1)
        return np.where(extra >= 0, high, low)

    for attack in range(1, odds.steps + 1):
        live = out_at == 0
        success = pool(2, np.full(n, 1))
        hit = success >= 7
        extra = (success >= 12).astype(int) + down + markers
        injury = pool(2, extra) - 1
        spent_markers = np.where(hit, 0, markers)
        result = np.select([injury <= 1, injury <= 6, injury <= 8], [0, 1, 2], 3)
        out = hit & (result == 3) & ~tough
        to_down = hit & ((result == 2) | ((result == 3) & tough))
        gained = np.where(hit & (result == 1), 1, np.where(to_down, np.where(down, 2, 1), 0))
        tough = np.where(live & hit & (result == 3), False, tough)
        markers = np.where(live, spent_markers + gained, markers)
        down = np.where(live, down | to_down, down)
        out_at[live & out] = attack
    for k, (end, cum) in enumerate(zip(odds.ends, odds.cumulative("out")), start=1):
        within_4_sigma(int((out_at == k).sum()), n, end["out"], f"attack {k}")
        within_4_sigma(int(((out_at > 0) & (out_at <= k)).sum()), n, cum, f"by attack {k}")


# --- Hunter's Moon ---------------------------------------------------------------------------------
def hm_pc_loss(might, power, paragraph, defence, doom, pursuit) -> Counter:
    """Every fall of one PC's 2D6 hit check (and the pursuit D6): life taken → ways."""
    tally: Counter = Counter()
    for d1, d2 in itertools.product(range(1, 7), repeat=2):
        raw = d1 + d2
        extra_dice = range(1, 7) if pursuit else [0]
        hit = raw != 2 and (raw == 12 or raw + might >= defence)
        for extra in extra_dice:
            if not hit:
                tally[0] += 1
                continue
            bonus = 0 if paragraph == 6 else paragraph       # 권외 adds no paragraph (the book's reading)
            damage = power + bonus + doom + (raw + might if raw == 12 else 0) + extra
            tally[damage] += 1
    return tally


def hm_round(pcs, defence, doom, pursuit) -> Counter:
    total: Counter = Counter({0: 1})
    for might, power, paragraph in pcs:
        one = hm_pc_loss(might, power, paragraph, defence, doom, pursuit)
        nxt: Counter = Counter()
        for (a, n), (b, m) in itertools.product(total.items(), one.items()):
            nxt[a + b] += n * m
        total = nxt
    return total


HM_CASES = [([(2, 3, 3), (1, 4, 2)], 9, 20, 0, 2), ([(0, 2, 1)], 8, 6, 1, None),
            ([(3, 5, 6), (1, 2, 5), (2, 4, 2)], 10, 30, 2, 4)]


@pytest.mark.parametrize("pcs, defence, life, doom, pursuit", HM_CASES)
def test_hunt_against_every_die(pcs, defence, life, doom, pursuit):
    odds = hm.hunt(pcs, defence, life, doom, pursuit)
    melee = hm_round(pcs, defence, doom, False)
    total = sum(melee.values())
    lost = {0: Fraction(1)}
    expected = []
    for _ in range(2):
        won, nxt = Fraction(0), {}
        for before, p in lost.items():
            for x, n in melee.items():
                q = p * Fraction(n, total)
                if before + x >= life:
                    won += q
                else:
                    nxt[before + x] = nxt.get(before + x, Fraction(0)) + q
        expected.append(won)
        lost = nxt
    if pursuit is not None:
        check = Counter()
        for d1, d2 in itertools.product(range(1, 7), repeat=2):
            raw = d1 + d2
            check[raw != 2 and (raw == 12 or raw + pursuit >= defence)] += 1
        chase = hm_round(pcs, defence, doom, True)
        chase_total = sum(chase.values())
        won = sum((p * Fraction(check[True], 36) * Fraction(n, chase_total)
                   for before, p in lost.items() for x, n in chase.items() if before + x >= life), Fraction(0))
        expected.append(won)
    assert [end["win"] for end in odds.ends] == expected
    assert odds.fixed_end and odds.rest == 1 - sum(expected)


def test_hunt_against_an_independent_chain_attack_by_attack():
    pcs, defence, life, doom, pursuit = [(2, 3, 3), (1, 4, 2), (0, 1, 1)], 9, 25, 1, 3
    odds = hm.hunt(pcs, defence, life, doom, pursuit)
    states, expected = {0: Fraction(1)}, []
    for number in range(3):
        chase = number == 2
        go_on = hm.pursuit_odds(pursuit, defence) if chase else Fraction(1)
        won, carried = Fraction(0), {lost: p * (1 - go_on) for lost, p in states.items()}
        states = {lost: p * go_on for lost, p in states.items()}
        for might, power, paragraph in pcs:
            loss = hm.body_attack_damage(might, defence, power, paragraph, doom, pursuit=chase).probabilities()
            nxt: dict = {}
            for lost, p in states.items():
                for x, q in loss.items():
                    if lost + x >= life:
                        won += p * q
                    else:
                        nxt[lost + x] = nxt.get(lost + x, Fraction(0)) + p * q
            states = nxt
        for lost, p in carried.items():
            states[lost] = states.get(lost, Fraction(0)) + p
        expected.append({"win": won})
    assert odds.ends == expected and odds.rest == sum(states.values(), Fraction(0))


def test_hunt_against_monte_carlo():
    pcs, defence, life, doom, pursuit = [(2, 3, 3), (1, 4, 2), (3, 2, 5), (0, 5, 1)], 9, 45, 1, 2
    odds = hm.hunt(pcs, defence, life, doom, pursuit)
    rng = np.random.default_rng(SEED + 3)
    n = 100_000
    lost = np.zeros(n, int)
    won_at = np.zeros(n, int)
    for number in range(3):
        chase = number == 2
        if chase:
            raw = rng.integers(1, 7, n) + rng.integers(1, 7, n)
            go = (raw != 2) & ((raw == 12) | (raw + pursuit >= defence))
        else:
            go = np.ones(n, bool)
        for might, power, paragraph in pcs:
            raw = rng.integers(1, 7, n) + rng.integers(1, 7, n)
            hit = (raw != 2) & ((raw == 12) | (raw + might >= defence))
            damage = power + paragraph + doom + np.where(raw == 12, raw + might, 0)
            if chase:
                damage = damage + rng.integers(1, 7, n)
            lost += np.where(go & hit & (won_at == 0), damage, 0)
        won_at[(won_at == 0) & (lost >= life)] = number + 1
    for k, (end, cum) in enumerate(zip(odds.ends, odds.cumulative("win")), start=1):
        within_4_sigma(int((won_at == k).sum()), n, end["win"], f"round {k}")
        within_4_sigma(int(((won_at > 0) & (won_at <= k)).sum()), n, cum, f"by round {k}")
    within_4_sigma(int((won_at == 0).sum()), n, odds.rest, "survives")


# --- bounds: the widgets' upper bounds answer; what is too big is refused at once ------------------
UPPER_BOUNDS = [
    lambda: uf.duel(uf.Fighter(60, 60, "숏소드", hp=60), uf.Fighter(60, 60, "그레이트 소드", db="+1D6", hp=60)),
    lambda: pf2e.strikes_to_down(10, 22, 60, "1d8+4", strikes=3),
    lambda: tc.attacks_to_out(dice=0, armour=2, tough=True, blood="bloodbath"),
    lambda: hm.hunt([(2, 3, 3), (1, 4, 2), (3, 2, 5), (0, 5, 1)], 9, 60, 2, 3),
]


@pytest.mark.parametrize("call", UPPER_BOUNDS)
def test_upper_bounds_answer_exactly(call):
    start = time.perf_counter()
    odds = call()
    odds.ends, odds.details, [odds.cumulative(k) for k in odds.keys]
    assert time.perf_counter() - start < 3.0      # 0.3 s natively; a shared 2-core machine is slower
    check_sums(odds)
    assert odds.fixed_end or odds.rest <= limits.OPEN_REST


TOO_BIG = [
    (lambda: uf.duel(uf.Fighter(60, 50, "1D3", armor=10, hp=20), uf.Fighter(60, 50, "1D3", armor=10, hp=20)), 0.05),
    (lambda: uf.Fighter(60, 50, "숏소드", hp=10**9), 0.05),
    (lambda: pf2e.strikes_to_down(10, 20, 10**7, "1d6"), 0.05),
    (lambda: pf2e.strikes_to_down(10, 20, 60, "1d6", strikes=4), 0.05),
    (lambda: tc.attacks_to_out(armour=5), 0.05),
    (lambda: tc.attacks_to_out(blood="bloodbath!"), 0.05),
    (lambda: hm.hunt([(1, 1, 1)] * 5, 9, 20), 0.05),
    (lambda: hm.hunt([(1, 1, 1)], 9, 10**6), 0.05),
    # a long fight is planned in floats up to the work limit, then refused before the exact run
    (lambda: uf.duel(uf.Fighter(5, 95, "1D3", hp=60), uf.Fighter(5, 95, "1D3", hp=60)), 0.5),
]


@pytest.mark.parametrize("call, limit", TOO_BIG)
def test_too_big_is_refused_at_once_in_korean(call, limit):
    assert min(_seconds(call) for _ in range(3)) < limit
