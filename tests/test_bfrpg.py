"""Basic Fantasy RPG floor-plan rules: the source's table, worked examples and claims."""
from __future__ import annotations

import itertools
import random

import pytest

import widgets.bfrpg as bfrpg
from widgets.bfrpg import (MOVE_OPTIONS, MOVEMENT_TABLE, SCENES, can_attack_after,
                           can_attack_square, half_move, missile_check, missile_sight,
                           move_options, movement_rate, movement_table, path_cost,
                           rear_attack_bonus, running_rate, scene, scene_options,
                           scene_rear_attackers, simultaneous_move_order, source_disagreements,
                           squares_reachable, table_disagreements)
from widgets.errors import RuleInputError
from widgets.grid import (FACING_STEP, Terrain, grid_distance, least_rear_attackers,
                          neighbours8, rear_arc, walk_feet)

# --- movement table ----------------------------------------------------------------------

RULES_NOTES_RATES = {  # rules-notes.md: light / heavy load
    "none": (40, 30), "magic_leather": (40, 30), "leather": (30, 20), "magic_metal": (30, 20),
    "metal": (20, 10),
}


@pytest.mark.parametrize("armor", RULES_NOTES_RATES)
def test_movement_rate_follows_the_core_rules(armor):
    assert (movement_rate(armor, "light"), movement_rate(armor, "heavy")) == RULES_NOTES_RATES[armor]
    assert running_rate(movement_rate(armor, "light")) == 2 * RULES_NOTES_RATES[armor][0]


def test_movement_rate_korean_names_and_table_rows_agree():
    korean = {"갑옷없음": "none", "마법가죽": "magic_leather", "가죽갑옷": "leather",
              "마법금속": "magic_metal", "금속갑옷": "metal"}
    for ko, en in korean.items():
        assert movement_rate(ko, "가벼운 무게") == movement_rate(en, "light")
        assert movement_rate(ko, "무거운 무게") == movement_rate(en, "heavy")
    for row in MOVEMENT_TABLE:
        first_armor = row.armor.split(" / ")[0].split(" (")[0]
        load = row.load.split(" (")[0]
        assert movement_rate(first_armor, load) == row.rate
    assert [r.rate for r in MOVEMENT_TABLE] == [40, 30, 30, 20, 20, 10]


@pytest.mark.parametrize("armor,load", [("plate", "light"), ("none", "medium"), (None, "light"),
                                        ("none", 3), ("", "")])
def test_movement_rate_refuses_unknown_names(armor, load):
    with pytest.raises(RuleInputError) as err:
        movement_rate(armor, load)
    assert err.value.korean


def test_squares_reachable_by_brute_force():
    for feet in range(0, 161):
        assert squares_reachable(feet) == max(n for n in range(40) if path_cost([(i, 0) for i in range(n + 1)]) <= feet)
        assert squares_reachable(feet, diagonal=True) == max(
            n for n in range(40) if path_cost([(i, i) for i in range(n + 1)]) <= feet)
    with pytest.raises(RuleInputError):
        squares_reachable(-5)


def test_movement_table_square_counts():
    rows = movement_table()
    assert [(r["walk_orth"], r["walk_diag"], r["run_orth"], r["run_diag"]) for r in rows] == [
        (8, 5, 16, 11), (6, 4, 12, 8), (6, 4, 12, 8), (4, 3, 8, 5), (4, 3, 8, 5), (2, 1, 4, 3)]
    for r in rows:
        assert "(" in r["armor"] and "(" in r["load"]  # Korean with English in parentheses


def test_the_only_table_disagreement_is_the_30_ft_run():
    ds = table_disagreements()
    assert [(d.source, d.rules) for d in ds] == [("16", "12"), ("16", "12")]
    assert "무거운 짐" in ds[0].where and "가벼운 짐" in ds[1].where  # the merged "^^" cell
    assert all("run_orth" in d.where for d in ds)


def test_source_claim_about_three_attackers_is_wrong_both_ways():
    ring = neighbours8((1, 1))
    forcing_pairs = {frozenset(p) for p in itertools.combinations(ring, 2)
                     if least_rear_attackers((1, 1), p)[0] >= 1}
    assert forcing_pairs == {frozenset({(0, 0), (2, 2)}), frozenset({(2, 0), (0, 2)})}
    avoidable_triples = {frozenset(p) for p in itertools.combinations(ring, 3)
                         if least_rear_attackers((1, 1), p)[0] == 0}
    assert frozenset({(1, 0), (0, 1), (2, 1)}) in avoidable_triples  # north, west, east
    wheres = [d.where for d in source_disagreements()]
    assert any("뒤에서" in w for w in wheres) and any("달리기" in w for w in wheres)


# --- rules math --------------------------------------------------------------------------

def test_small_rules():
    assert half_move(20) == 10 and half_move(10) == 5 and half_move(30) == 15
    assert bfrpg.PARTING_SHOT_BONUS == 2 and bfrpg.REAR_ATTACK_BONUS == 2
    for facing, (dc, dr) in FACING_STEP.items():
        behind = (5 - dc, 5 - dr)
        assert rear_attack_bonus((5, 5), facing, behind) == 2
        assert rear_attack_bonus((5, 5), facing, (5 + dc, 5 + dr)) == 0
        assert not can_attack_square((5, 5), facing, behind)
        assert sum(can_attack_square((5, 5), facing, n) for n in neighbours8((5, 5))) == 5
    assert [can_attack_after(o) for o in ("walk", "run", "melee_move", "withdraw", "flee_walk",
                                          "flee_run")] == [True, False, True, True, True, False]
    with pytest.raises(RuleInputError):
        can_attack_after("teleport")
    with pytest.raises(RuleInputError):
        half_move(7)


def test_simultaneous_movement():
    assert simultaneous_move_order({"a": 10, "b": 30, "c": 10}) == ["b", "a", "c", "b", "a", "c", "b", "b", "b", "b"]
    assert simultaneous_move_order({}) == []
    with pytest.raises(RuleInputError):
        simultaneous_move_order({"a": -5})


def test_options_of_an_unengaged_walker_follow_the_bands():
    t = Terrain(12, 1)
    o = move_options(t, (0, 0), 20)
    assert [o.option((c, 0)) for c in range(12)] == ["start"] + ["walk"] * 4 + ["run"] * 4 + ["out"] * 3
    assert set(MOVE_OPTIONS) >= set(o.options().values())


# --- the source's worked examples --------------------------------------------------------

def test_every_scene_is_well_formed():
    for key, s in SCENES.items():
        t = s.terrain()
        assert s.key == key and scene(key) is s
        assert t.inside(s.mover.square) and s.mover.square not in t.blocked | t.enemies | t.allies
        assert "(" in s.title and s.source_text and s.note
        if s.path:
            assert s.path[0] == s.mover.square
            assert all(p not in t.blocked and p not in t.enemies for p in s.path)
            path_cost(s.path)  # raises on a non-adjacent step
        for token in s.enemies + s.allies:
            assert t.inside(token.square) and token.square not in t.blocked
    with pytest.raises(RuleInputError):
        scene("nope")


@pytest.mark.parametrize("key", ["tannen_move", "doughbert_move", "mandross_move", "paladin_run"])
def test_movement_examples(key):
    """Tannen 20 ft, Doughbert 30 ft diagonally, Mandross 40 ft mixed: walk and attack;
    the Paladin covers 60 ft running and may not attack."""
    s = SCENES[key]
    o = scene_options(key)
    for m in s.marks:
        assert o.option(m.square) == m.expect
        assert o.feet(m.square) == m.feet
        assert can_attack_after(m.expect) == (m.expect == "walk")
    assert path_cost(s.path) == s.marks[-1].feet == o.feet(s.path[-1])
    assert path_cost(s.path) <= (s.rate if s.marks[-1].expect == "walk" else 2 * s.rate)


def test_tannen_engages_the_ogre():
    s = SCENES["tannen_move"]
    t = s.terrain()
    assert t.is_engaged(s.path[-1]) and not any(t.is_engaged(p) for p in s.path[:-1])


def test_doughbert_melee_example_numbers():
    s = SCENES["doughbert_melee"]
    t = s.terrain()
    o = scene_options("doughbert_melee")
    squares = {m.label: m.square for m in s.marks}
    for m in s.marks:
        assert o.option(m.square) == m.expect, m.label
        if m.feet is not None:
            assert o.feet(m.square) == m.feet, m.label
    # 1, 2 free (missile attack possible); 3, 4, 5 engaged; 6 out of melee again
    assert [t.is_engaged(squares[k]) for k in "123456"] == [False, False, True, True, True, False]
    # moving 3 → 4 while engaged costs 10 ft for one square (half speed)
    assert o.feet(squares["4"]) - o.feet(squares["3"]) == 10
    assert o.feet(squares["5"]) - o.feet(squares["4"]) == 10
    # 4 is still a walk (melee attack allowed), 5 needs a run, 6 means fleeing
    assert can_attack_after(o.option(squares["4"])) and not can_attack_after(o.option(squares["5"]))
    assert o.option(squares["6"]).startswith("flee")
    assert o.stay.feet(squares["6"]) is None  # no way to 6 without leaving the melee


def test_tannen_melee_colours():
    """Green: 10 ft staying engaged; orange: withdraw 10 ft; red: flee (20 ft, more running)."""
    s = SCENES["tannen_melee"]
    t = s.terrain()
    o = scene_options("tannen_melee")
    for m in s.marks:
        assert o.option(m.square) == m.expect
        assert o.plain.feet(m.square) <= m.feet
    opts = o.options()
    for sq, opt in opts.items():
        plain = o.plain.feet(sq)
        if opt == "melee_move":
            assert t.is_engaged(sq) and plain <= half_move(s.rate) and o.feet(sq) <= s.rate
        elif opt == "withdraw":
            assert plain <= half_move(s.rate)
        elif opt == "flee_walk":  # a move that leaves the goblin, at the normal speed
            assert half_move(s.rate) < plain <= o.feet(sq) <= s.rate
            assert o.parting_shots(sq) == (s.enemies[0].square,)
        elif opt == "flee_run":
            assert s.rate < o.feet(sq) <= 2 * s.rate and plain <= o.feet(sq)
            assert o.parting_shots(sq) == (s.enemies[0].square,)
    assert {"melee_move", "withdraw", "flee_walk", "flee_run"} <= set(opts.values())
    # the five squares around the goblin within 10 ft of Tannen, staying engaged
    green = {sq for sq, opt in opts.items() if opt == "melee_move"}
    assert green == {(3, 2), (3, 4), (4, 2), (4, 4), (5, 2), (5, 4)}


def test_missile_example():
    s = SCENES["missile"]
    t = s.terrain()
    for m in s.marks:
        assert missile_sight(t, s.mover.square, m.square) == m.expect, m.label
    shots = [missile_check(t, s.mover.square, g.square, "단궁 (shortbow)") for g in s.enemies]
    assert [c.allowed for c in shots] == [False, True, True]
    assert all(c.distance == grid_distance(s.mover.square, g.square) for c, g in zip(shots, s.enemies))
    far = missile_check(Terrain(60, 1), (0, 0), (59, 0), "투석구 (sling)")
    assert far.distance == 295 and far.modifier is None and not far.allowed
    assert missile_check(Terrain(60, 1), (0, 0), (18, 0), "투석구 (sling)").modifier == -2
    with pytest.raises(RuleInputError):
        missile_check(t, (1, 4), (7, 6), "bazooka")


def test_rear_attack_examples():
    assert scene_rear_attackers("rear_two")[0] == SCENES["rear_two"].extra["least_rear"] == 0
    least, facings, behind = scene_rear_attackers("rear_three")
    assert least == SCENES["rear_three"].extra["least_rear"] == 1 and len(facings) == 4
    assert behind == (SCENES["rear_three"].extra["behind"],)
    goblin = SCENES["rear_three"].mover
    assert rear_arc(goblin.square, goblin.facing)[2] == (3, 3)



# --- several opponents: engagement, withdrawal, flight and parting shots per opponent ------

def _foes_next_to(t: Terrain, square) -> frozenset:
    """The enemies adjacent to ``square`` (8-neighbourhood), written out independently."""
    return frozenset(e for e in t.enemies
                     if max(abs(e[0] - square[0]), abs(e[1] - square[1])) == 1)


def _exhaustive_costs(t: Terrain, start, bound: int, mode: str) -> dict:
    """(square, set of opponents left) → cheapest feet over every walk costing ≤ ``bound``.

    ``mode``: 'stay' (no step may leave an opponent; steps from a square next to an opponent
    cost double), 'free' (a step that stays next to some opponent costs double) or 'plain'.
    Exhaustive closure over (square, number of diagonals so far, opponents left): no parity
    trick, no dominance between sets."""
    best = {(start, 0, frozenset()): 0}
    frontier = dict(best)
    while frontier:
        nxt = {}
        for (a, diags, left), feet in frontier.items():
            here = _foes_next_to(t, a)
            for dc, dr in itertools.product((-1, 0, 1), repeat=2):
                b = (a[0] + dc, a[1] + dr)
                if (dc, dr) == (0, 0) or not t.inside(b) or b in t.blocked or b in t.enemies:
                    continue
                diag = dc != 0 and dr != 0
                if diag and ((a[0] + dc, a[1]) in t.blocked or (a[0], a[1] + dr) in t.blocked):
                    continue
                there = _foes_next_to(t, b)
                dropped = here - there
                if mode == "stay" and dropped:
                    continue
                step = (5 if (diags + 1) % 2 else 10) if diag else 5
                step *= 2 if b in t.difficult else 1
                if (mode == "stay" and here) or (mode == "free" and here & there):
                    step *= 2
                cost = feet + step + (5 if b in t.barrier else 0)
                key = (b, diags + diag, left | dropped)
                if cost <= bound and cost < best.get(key, 10**9) and cost < nxt.get(key, 10**9):
                    nxt[key] = cost
        best.update(nxt)
        frontier = nxt
    out: dict = {}
    for (sq, _, left), feet in best.items():
        out[(sq, left)] = min(out.get((sq, left), 10**9), feet)
    return out


def _expected_options(t: Terrain, start, rate: int) -> dict:
    """Square → (option, feet, opponents with a parting shot), straight from the rules:
    no parting shot beats any (a combatant who starts engaged may run twice as far as a melee
    move, staying engaged); fewer parting shots beat more; then the cheaper move."""
    engaged_start = bool(_foes_next_to(t, start))
    stay = _exhaustive_costs(t, start, 2 * rate, "stay")
    flee = _exhaustive_costs(t, start, 2 * rate, "plain" if engaged_start else "free")
    plain = _exhaustive_costs(t, start, 2 * rate, "plain")
    order = {e: t.index(e) for e in t.enemies}
    out = {}
    for sq in itertools.product(range(t.width), range(t.height)):
        if sq == start:
            out[sq] = ("start", 0, ())
            continue
        if sq in t.blocked or sq in t.enemies:
            out[sq] = ("blocked", None, ())
            continue
        if sq in t.allies:
            out[sq] = ("pass", None, ())
            continue
        kept = stay.get((sq, frozenset()))
        flights = sorted((len(left), feet, tuple(sorted(order[e] for e in left)))
                         for (s, left), feet in flee.items() if s == sq and left)
        if not engaged_start and kept is not None:
            out[sq] = ("walk" if kept <= rate else "run", kept, ())
        elif engaged_start and _foes_next_to(t, sq) and kept is not None and kept <= rate:
            out[sq] = ("melee_move", kept, ())
        elif engaged_start and min((f for (s, _), f in plain.items() if s == sq),
                                   default=10**9) <= rate // 2:
            out[sq] = ("withdraw", min(f for (s, _), f in plain.items() if s == sq), ())
        elif engaged_start and _foes_next_to(t, sq) and kept is not None:
            out[sq] = ("run", kept, ())   # running while staying engaged: nobody is left
        elif flights:
            _, feet, left = flights[0]
            out[sq] = ("flee_walk" if feet <= rate else "flee_run", feet,
                       tuple(t.square(i) for i in left))
        else:
            out[sq] = ("out", None, ())
    return out


def test_leaving_one_goblin_for_another_is_fleeing_the_first():
    """Issue 17: entering one goblin's melee and moving on to a square next only to another
    goblin leaves the first one's melee: a flight that gives the first goblin a parting shot."""
    t = Terrain(9, 2, blocked={(c, 0) for c in range(9)} - {(3, 0), (6, 0)},
                enemies={(3, 0), (6, 0)})
    o = move_options(t, (0, 1), 40)
    assert o.option((4, 1)) == "walk"          # still next to the first goblin
    assert o.option((5, 1)) == "flee_walk"     # left the first goblin's melee
    assert o.parting_shots((5, 1)) == ((3, 0),)
    assert o.feet((5, 1)) == 35                # 5 + 5, two melee steps at 10, then 5
    assert o.parting_shots((8, 1)) == ((3, 0), (6, 0))
    assert o.parting_shots((4, 1)) == () and o.parting_shots((0, 1)) == ()


def test_withdrawing_from_two_goblins_and_fleeing_only_the_one_left():
    # engaged with two goblins; staying next to the second while leaving the first
    t = Terrain(6, 3, enemies={(1, 0), (3, 0)})
    o = move_options(t, (2, 1), 20)
    assert o.engaged_start and o.parting_shots((2, 1)) == ()
    assert o.option((2, 0)) == "melee_move"       # still next to both
    assert o.option((3, 1)) == "withdraw"         # leaves the first at half speed: no shot
    assert o.option((4, 1)) == "withdraw"
    assert o.parting_shots((4, 1)) == ()
    assert o.option((5, 1)) == "flee_walk"
    assert o.parting_shots((5, 1)) == ((1, 0), (3, 0))


def _random_case(rng, w, h):
    cells = [(c, r) for c in range(w) for r in range(h)]
    rng.shuffle(cells)
    start = cells.pop()
    take = lambda p: {cells.pop() for _ in range(min(len(cells), max(0, round(w * h * p))))}  # noqa: E731
    enemies = take(rng.uniform(0.08, 0.3))
    t = Terrain(w, h, blocked=take(rng.uniform(0, 0.2)), enemies=enemies, allies=take(0.05),
                barrier={s for s in cells if rng.random() < 0.1},
                difficult={s for s in cells if rng.random() < 0.1})
    if rng.random() < 0.5 and enemies:  # often start engaged
        e = sorted(enemies)[0]
        for n in neighbours8(e):
            if t.inside(n) and n not in t.blocked | t.enemies | t.allies:
                return t, n
    return t, start


@pytest.mark.parametrize("seed", range(60))
def test_options_and_parting_shots_match_an_exhaustive_search(seed):
    rng = random.Random(17_000 + seed)
    t, start = _random_case(rng, rng.randint(2, 6), rng.randint(2, 5))
    rate = rng.choice([10, 15, 20])
    o = move_options(t, start, rate)
    expected = _expected_options(t, start, rate)
    for sq, (option, feet, shooters) in expected.items():
        assert o.option(sq) == option, (sq, sorted(t.enemies), start, rate)
        assert o.feet(sq) == feet, (sq, option)
        assert o.parting_shots(sq) == shooters, (sq, option)
        path = o.path_to(sq)
        if feet is None:
            assert path == ()
            continue
        # the path shown leaves exactly the opponents named, at the feet shown
        assert path[0] == start and path[-1] == sq
        left = set()
        for a, b in zip(path, path[1:]):
            left |= _foes_next_to(t, a) - _foes_next_to(t, b)
        if option.startswith("flee"):
            assert tuple(sorted(left, key=t.index)) == shooters
        elif option in ("walk", "run", "melee_move"):
            assert not left


def test_worked_melee_rows_give_the_cost_and_the_sources_limit_in_that_unit():
    """Issue 29: the rows speak one unit, the cost taken from the rate (the grid's numbers). A
    melee move's row gives that cost alone; the source's limit, quoted as feet walked (half the
    rate), is shown with its cost (double) beside it, and the move's cost stays within it. The
    flee rows name the goblin whose parting shot it is."""
    from widgets.views import bfrpg as views
    rows = views.scene_examples(("tannen_melee",)).rows
    s = SCENES["tannen_melee"]
    o = scene_options("tannen_melee")
    seen = 0
    for (where, limit, result), m in zip(rows, s.marks):
        if m.expect == "melee_move":
            seen += 1
            assert result.endswith(f", {o.feet(m.square)}피트") and "두 배로 세면" not in result
            assert m.feet * 2 == s.rate and f"걸어서 {m.feet}피트" in limit and f"비용으로 {s.rate}피트" in limit
            assert o.feet(m.square) <= s.rate
        if m.expect.startswith("flee"):
            assert result.endswith("분리 사격: 고블린")
    assert seen == 2


# --- running while staying engaged (issue 25 item 1) ----------------------------------------

def _walks_staying_engaged(t: Terrain, start, bound: int) -> dict:
    """Square → (cheapest feet, a walk there) over *every* walk from ``start`` that never leaves
    an opponent (no step from a square next to an enemy to one that is not), costing ≤ ``bound``:
    a plain depth-first enumeration of the walks (squares may repeat), each step priced from
    the rules: 5 ft, a diagonal 5/10 by the count so far, difficult ×2, a step that stays next
    to an opponent ×2 (melee at half speed), a barrier +5."""
    best: dict = {}

    def walk(path, feet, diagonals):
        a = path[-1]
        if a not in best or feet < best[a][0]:
            best[a] = (feet, tuple(path))
        here = _foes_next_to(t, a)
        for dc, dr in itertools.product((-1, 0, 1), repeat=2):
            b = (a[0] + dc, a[1] + dr)
            if (dc, dr) == (0, 0) or not t.inside(b) or b in t.blocked or b in t.enemies:
                continue
            diagonal = dc != 0 and dr != 0
            if diagonal and ((a[0] + dc, a[1]) in t.blocked or (a[0], a[1] + dr) in t.blocked):
                continue
            there = _foes_next_to(t, b)
            if here - there:
                continue                      # this step would leave an opponent
            step = (10 if diagonals % 2 else 5) if diagonal else 5
            step *= (2 if b in t.difficult else 1) * (2 if here & there else 1)
            step += 5 if b in t.barrier else 0
            if feet + step <= bound:
                path.append(b)
                walk(path, feet + step, diagonals + diagonal)
                path.pop()

    walk([start], 0, 0)
    return best


def test_tannen_runs_beside_the_goblin_with_no_parting_shot():
    """Tannen (20 ft) beside a goblin: (5, 3) on the goblin's far side is reached by
    (3, 3) → (4, 2) → (5, 3), 15 ft walked (30 ft counting melee steps double), never leaving
    the goblin: a run (no attack), not a flight, and nobody gets a parting shot."""
    t = Terrain(9, 7, enemies={(4, 3)})
    o = move_options(t, (3, 3), 20)
    walks = _walks_staying_engaged(t, (3, 3), 40)
    assert walks[(5, 3)][0] == 30                 # the cheapest walk that never leaves it
    issue_path = ((3, 3), (4, 2), (5, 3))
    assert walk_feet(t, issue_path) == 15 and all(_foes_next_to(t, p) == {(4, 3)} for p in issue_path)
    assert o.option((5, 3)) == "run" and o.parting_shots((5, 3)) == ()
    assert o.feet((5, 3)) == 30 and o.walked((5, 3)) == 15
    path = o.path_to((5, 3))
    assert all(_foes_next_to(t, p) == {(4, 3)} for p in path)
    assert not can_attack_after(o.option((5, 3)))
    # the same scene as the source's melee example 1 (its marks are unchanged)
    assert SCENES["tannen_melee"].terrain() == t
    assert scene_options("tannen_melee").option((5, 3)) == "run"


def _engaged_scene(rng):
    from widget_checks import random_floor
    while True:
        t, _ = random_floor(rng, rng.randint(3, 9), rng.randint(3, 9), walls=0.2,
                            enemies=(0.05, 0.2), engaged_start=False)
        free = sorted({n for e in t.enemies for n in neighbours8(e)
                       if t.inside(n) and n not in t.blocked | t.enemies | t.allies})
        if free:
            return t, rng.choice(free), rng.choice([10, 20, 20, 30])


@pytest.mark.parametrize("batch", range(4))
def test_a_square_reached_without_leaving_anyone_is_never_a_flight(batch):
    """Against the enumeration of every walk (400 random scenes starting engaged): a square some
    walk reaches within twice the rate without leaving an opponent is a melee move (within the
    rate), a withdrawal or a run staying engaged, with no parting shot; the run's feet are the
    cheapest such walk's, and its shown path leaves nobody. On the old rule 194 squares of these
    scenes (in 125 of them) were shown as flights."""
    rng = random.Random(2025 + batch)
    for _ in range(100):
        t, start, rate = _engaged_scene(rng)
        o = move_options(t, start, rate)
        walks = _walks_staying_engaged(t, start, 2 * rate)
        for sq in itertools.product(range(t.width), range(t.height)):
            opt = o.option(sq)
            if sq == start or sq in t.allies:
                continue
            if sq not in walks:
                assert opt not in ("melee_move", "run"), (sq, start, rate, sorted(t.enemies))
                continue
            feet, _ = walks[sq]
            assert opt in ("melee_move", "withdraw", "run"), (sq, opt, start, rate, sorted(t.enemies))
            assert o.parting_shots(sq) == ()
            if opt != "withdraw":
                assert o.feet(sq) == feet and (feet <= rate) == (opt == "melee_move")
                path = o.path_to(sq)
                assert all(not _foes_next_to(t, a) - _foes_next_to(t, b) for a, b in zip(path, path[1:]))
