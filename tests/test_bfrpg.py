"""Basic Fantasy RPG floor-plan rules: the source's table, worked examples and claims."""
from __future__ import annotations

import itertools

import pytest

import widgets.bfrpg as bfrpg
from widgets.bfrpg import (MOVEMENT_TABLE, OPTIONS_KO, SCENES, can_attack_after,
                           can_attack_square, half_move, missile_check, missile_sight,
                           move_options, movement_rate, movement_table, path_cost,
                           rear_attack_bonus, running_rate, scene, scene_options,
                           scene_rear_attackers, simultaneous_move_order, source_disagreements,
                           squares_reachable, table_disagreements)
from widgets.errors import RuleInputError
from widgets.grid import (FACING_STEP, Terrain, grid_distance, least_rear_attackers,
                          neighbours8, rear_arc)

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
    assert "무거운 무게" in ds[0].where and "가벼운 무게" in ds[1].where  # the merged "^^" cell
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
    assert set(OPTIONS_KO) >= set(o.options().values())


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
        elif opt == "flee_walk":
            assert half_move(s.rate) < plain <= s.rate
        elif opt == "flee_run":
            assert s.rate < plain <= 2 * s.rate
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

