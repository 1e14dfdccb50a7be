"""Square-grid mechanics: costs against independent oracles, terrain rules, sight, facing."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import widgets.grid as grid
from widgets.errors import RuleInputError
from widgets.grid import (Terrain, centre_line_clear, cost_map, diagonal_feet, front_arc,
                          grid_distance, has_line_of_sight, least_rear_attackers, path_feet,
                          rear_arc, segment_meets_square, sight_line, straight_squares,
                          visible_squares)

EIGHT = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


# --- an independent statement of the movement rule, used by the oracles ------------------

def rule_step(t: Terrain, a, b, diagonals_before: int, doubles: bool) -> int | None:
    """Feet of one step a → b given how many diagonals the path took before it (no parity
    trick: the (n+1)-th diagonal costs 5 when n+1 is odd). None if the step is illegal."""
    if not t.inside(b) or b in t.blocked or b in t.enemies:
        return None
    dc, dr = b[0] - a[0], b[1] - a[1]
    diag = dc != 0 and dr != 0
    if diag and ((a[0] + dc, a[1]) in t.blocked or (a[0], a[1] + dr) in t.blocked):
        return None
    base = (5 if (diagonals_before + 1) % 2 == 1 else 10) if diag else 5
    mult = (2 if b in t.difficult else 1) * (2 if doubles and foes(t, a) & foes(t, b) else 1)
    return base * mult + (5 if b in t.barrier else 0)


def foes(t: Terrain, square) -> set:
    """The enemies next to ``square`` (engagement is per opponent)."""
    return {e for e in t.enemies if max(abs(e[0] - square[0]), abs(e[1] - square[1])) == 1}


def leaves(t: Terrain, a, b) -> bool:
    """The step a → b leaves some opponent (even into another one's melee)."""
    return bool(foes(t, a) - foes(t, b))


def walk_cost(t: Terrain, path, doubles=False, may_leave=True) -> int | None:
    feet, diags = 0, 0
    for a, b in zip(path, path[1:]):
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1 or (not may_leave and leaves(t, a, b)):
            return None
        step = rule_step(t, a, b, diags, doubles)
        if step is None:
            return None
        feet += step
        diags += a[0] != b[0] and a[1] != b[1]
    return feet


def unrolled_oracle(t: Terrain, start, doubles=False, may_leave=True) -> dict:
    """Layered DP over (square, number of diagonals so far) up to 2·w·h steps: exact for
    walks, written without the parity reduction."""
    squares = [(c, r) for r in range(t.height) for c in range(t.width)]
    limit = 2 * t.width * t.height + 1
    layer = {(start, 0): 0}
    best = {start: 0}
    for _ in range(limit):
        nxt: dict = {}
        for (a, diags), feet in layer.items():
            for dc, dr in EIGHT:
                b = (a[0] + dc, a[1] + dr)
                if not may_leave and t.inside(b) and leaves(t, a, b):
                    continue
                step = rule_step(t, a, b, diags, doubles)
                if step is None:
                    continue
                key = (b, diags + (dc != 0 and dr != 0))
                if feet + step < nxt.get(key, 10**9):
                    nxt[key] = feet + step
        for (b, _), feet in nxt.items():
            best[b] = min(best.get(b, 10**9), feet)
        layer = nxt
        if not layer:
            break
    return {s: best.get(s) for s in squares}


def walk_enumeration(t: Terrain, start, bound: int, doubles=False, may_leave=True) -> dict:
    """Every walk costing at most ``bound`` feet, by depth-first search."""
    best: dict = {start: 0}

    def go(a, feet, diags):
        for dc, dr in EIGHT:
            b = (a[0] + dc, a[1] + dr)
            if not may_leave and t.inside(b) and leaves(t, a, b):
                continue
            step = rule_step(t, a, b, diags, doubles)
            if step is None or feet + step > bound:
                continue
            best[b] = min(best.get(b, 10**9), feet + step)
            go(b, feet + step, diags + (dc != 0 and dr != 0))

    go(start, 0, 0)
    return best


def random_terrain(rng: random.Random, w: int, h: int, wall=0.15, enemy=0.06, ally=0.06,
                   barrier=0.1, difficult=0.15):
    cells = [(c, r) for c in range(w) for r in range(h)]
    rng.shuffle(cells)
    start = cells.pop()

    def take(p):
        n = int(len(cells) * p)
        out = set(cells[:n])
        del cells[:n]
        return out

    blocked, enemies, allies = take(wall), take(enemy), take(ally)
    open_ = [s for s in itertools.product(range(w), range(h)) if s not in blocked]
    t = Terrain(w, h, blocked=blocked, enemies=enemies, allies=allies,
                barrier={s for s in open_ if rng.random() < barrier},
                difficult={s for s in open_ if rng.random() < difficult})
    return t, start


# --- costs -------------------------------------------------------------------------------

def test_diagonal_alternation_from_the_source():
    assert [diagonal_feet(n) for n in range(1, 5)] == [5, 15, 20, 30]
    assert path_feet([(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]) == 30
    # the count runs over the whole path, orthogonal steps in between do not reset it
    assert path_feet([(0, 0), (1, 1), (2, 1), (3, 2)]) == 20
    assert path_feet([]) == 0 and path_feet([(3, 3)]) == 0


@pytest.mark.parametrize("bad", [[(0, 0), (2, 0)], [(0, 0), (0, 0)], [(0, 0), "a"],
                                 [(0, 0), (1.5, 0)], [(0, 0, 0)]])
def test_path_feet_refuses_non_steps(bad):
    with pytest.raises(RuleInputError) as err:
        path_feet(bad)
    assert err.value.korean


def test_straight_squares_against_brute_force():
    for feet in range(0, 301):
        assert straight_squares(feet) == max(n for n in range(70) if 5 * n <= feet)
        assert straight_squares(feet, True) == max(n for n in range(70) if diagonal_feet(n) <= feet)


def test_grid_distance_is_the_open_floor_cost_map():
    t = Terrain(9, 7)
    for start in [(0, 0), (4, 3), (8, 6)]:
        m = cost_map(t, start, 30)
        for c, r in itertools.product(range(9), range(7)):
            assert m.feet((c, r)) == grid_distance(start, (c, r))


def test_terrain_rules_one_by_one():
    assert cost_map(Terrain(4, 1, difficult={(2, 0)}), (0, 0), 30).costs() == (0, 5, 15, 20)
    everywhere = {(c, r) for c in range(3) for r in range(3)}
    m = cost_map(Terrain(3, 3, difficult=everywhere), (0, 0), 30)
    assert (m.feet((1, 1)), m.feet((2, 2)), m.feet((2, 1))) == (10, 30, 20)  # 5/10 doubled
    assert cost_map(Terrain(2, 1, barrier={(1, 0)}, difficult={(1, 0)}), (0, 0), 5).feet((1, 0)) == 15
    assert cost_map(Terrain(2, 2, blocked={(1, 0)}), (0, 0), 5).feet((1, 1)) == 10  # no corner cut
    allies = cost_map(Terrain(3, 1, allies={(1, 0)}), (0, 0), 10)
    assert allies.feet((2, 0)) == 10 and allies.band((1, 0)) == "pass"
    enemy = cost_map(Terrain(3, 1, enemies={(1, 0)}), (0, 0), 10)
    assert enemy.feet((2, 0)) is None and enemy.band((1, 0)) == "blocked"
    assert enemy.band((2, 0)) == "out"


def test_engagement_doubling_and_leaving():
    t = Terrain(7, 2, enemies={(3, 1)})
    assert t.engaged == {(2, 0), (3, 0), (4, 0), (2, 1), (4, 1)}
    plain = cost_map(t, (0, 0), 30)
    doubled = cost_map(t, (0, 0), 30, engaged_doubles=True)
    stay = cost_map(t, (0, 0), 30, engaged_doubles=True, may_leave_engagement=False)
    assert [plain.feet((c, 0)) for c in range(7)] == [0, 5, 10, 15, 20, 25, 30]
    assert [doubled.feet((c, 0)) for c in range(7)] == [0, 5, 10, 20, 30, 35, 40]
    assert [stay.feet((c, 0)) for c in range(7)] == [0, 5, 10, 20, 30, None, None]


def test_engagement_is_per_opponent():
    """From a square next to one enemy straight to a square next only to another: the step
    leaves the first enemy (refused when leaving is not allowed) and is no melee step."""
    t = Terrain(4, 2, enemies={(0, 0), (3, 0)})
    assert t.foes_next_to((1, 1)) == ((0, 0),) and t.foes_next_to((2, 1)) == ((3, 0),)
    stay = cost_map(t, (1, 1), 30, engaged_doubles=True, may_leave_engagement=False)
    doubled = cost_map(t, (1, 1), 30, engaged_doubles=True)
    assert stay.feet((2, 1)) is None and stay.feet((1, 0)) == 10  # (1, 0): next to both
    assert doubled.feet((2, 1)) == 5 and doubled.feet((1, 0)) == 10


def test_bands_and_start():
    m = cost_map(Terrain(10, 1), (0, 0), 20)
    assert [m.band((c, 0)) for c in range(10)] == ["start"] + ["walk"] * 4 + ["run"] * 4 + ["out"]
    assert m.path_to((0, 0)) == ((0, 0),) and m.previous((0, 0)) is None
    assert m.previous((3, 0)) == (2, 0)
    assert cost_map(Terrain(3, 1), (1, 0), 0).bands() == {(0, 0): "out", (1, 0): "start",
                                                          (2, 0): "out"}


@pytest.mark.parametrize("start", [(5, 5), (-1, 0), (1, 1), (0, 1), (2, 2), "a1", (0,), None])
def test_bad_start_is_refused(start):
    t = Terrain(3, 3, blocked={(1, 1)}, enemies={(0, 1)}, allies={(2, 2)})
    with pytest.raises(RuleInputError) as err:
        cost_map(t, start, 30)
    assert err.value.korean


@pytest.mark.parametrize("rate", [-5, 7, 485, 10**9, "30", True, 2.5, float("nan")])
def test_bad_rate_is_refused(rate):
    with pytest.raises(RuleInputError) as err:
        cost_map(Terrain(3, 3), (0, 0), rate)
    assert err.value.korean


@pytest.mark.parametrize("kwargs", [
    {"width": 0, "height": 3}, {"width": 61, "height": 3}, {"width": True, "height": 3},
    {"width": 3, "height": 3, "blocked": {(3, 0)}},
    {"width": 3, "height": 3, "blocked": {(1, 1)}, "enemies": {(1, 1)}},
    {"width": 3, "height": 3, "allies": {(1, 1)}, "enemies": {(1, 1)}},
    {"width": 3, "height": 3, "blocked": "ab"},
    {"width": 3, "height": 3, "difficult": {(0, 0, 1)}},
])
def test_bad_terrain_is_refused(kwargs):
    with pytest.raises(RuleInputError) as err:
        Terrain(**kwargs)
    assert err.value.korean


def test_cost_map_is_immutable_and_sized():
    t = Terrain(60, 60)
    m = cost_map(t, (0, 0), 480)
    assert m.feet((59, 59)) == grid_distance((0, 0), (59, 59))
    with pytest.raises(AttributeError):
        m.rate = 5  # type: ignore[misc]
    assert isinstance(t.blocked, frozenset)


@pytest.mark.parametrize("seed", range(40))
def test_cost_map_matches_unrolled_oracle(seed):
    rng = random.Random(seed)
    t, start = random_terrain(rng, rng.randint(2, 5), rng.randint(2, 5))
    doubles, may_leave = rng.random() < 0.5, rng.random() < 0.6
    m = cost_map(t, start, 30, engaged_doubles=doubles, may_leave_engagement=may_leave)
    oracle = unrolled_oracle(t, start, doubles, may_leave)
    for sq, feet in oracle.items():
        if sq in t.blocked or sq in t.enemies:
            assert m.feet(sq) is None
        else:
            assert m.feet(sq) == feet, (sq, sorted(t.blocked), start)


@pytest.mark.parametrize("seed", range(25))
def test_cost_map_matches_walk_enumeration(seed):
    rng = random.Random(1000 + seed)
    t, start = random_terrain(rng, rng.randint(2, 4), rng.randint(2, 4))
    doubles, may_leave = rng.random() < 0.5, rng.random() < 0.6
    bound = 30
    m = cost_map(t, start, 30, engaged_doubles=doubles, may_leave_engagement=may_leave)
    brute = walk_enumeration(t, start, bound, doubles, may_leave)
    for c, r in itertools.product(range(t.width), range(t.height)):
        feet = m.feet((c, r))
        expected = brute.get((c, r))
        assert (feet if feet is not None and feet <= bound else None) == expected


@pytest.mark.parametrize("seed", range(30))
def test_paths_are_legal_and_cost_what_they_say(seed):
    rng = random.Random(5000 + seed)
    t, start = random_terrain(rng, rng.randint(3, 14), rng.randint(3, 14))
    doubles, may_leave = rng.random() < 0.5, rng.random() < 0.6
    m = cost_map(t, start, 30, engaged_doubles=doubles, may_leave_engagement=may_leave)
    for c, r in itertools.product(range(t.width), range(t.height)):
        path = m.path_to((c, r))
        if m.feet((c, r)) is None:
            assert path == ()
            continue
        assert path[0] == start and path[-1] == (c, r)
        assert walk_cost(t, list(path), doubles, may_leave) == m.feet((c, r))
        if len(path) > 1:
            assert m.previous((c, r)) == path[-2]


def test_to_js_matches_index():
    t = Terrain(4, 3, blocked={(1, 2)}, allies={(3, 0)})
    js = t.to_js()
    assert js["blocked"] == [9] and js["allies"] == [3] and t.square(9) == (1, 2)


# --- line of sight -----------------------------------------------------------------------

def clear(p, q, walls) -> bool:
    return not any(segment_meets_square(p, q, w) for w in walls)


def strictly_inside(p, sq) -> bool:
    return sq[0] < p[0] < sq[0] + 1 and sq[1] < p[1] < sq[1] + 1


def test_sight_basic_cases():
    pinch = Terrain(3, 3, blocked={(1, 0), (0, 1)})
    assert not has_line_of_sight(pinch, (0, 0), (1, 1))      # sealed diagonal: corner touch
    assert not has_line_of_sight(pinch, (0, 0), (2, 2))
    assert has_line_of_sight(Terrain(3, 3, blocked={(1, 0)}), (0, 0), (1, 1))
    assert has_line_of_sight(Terrain(3, 3, blocked={(1, 1)}), (0, 0), (1, 0))
    assert has_line_of_sight(Terrain(1, 1), (0, 0), (0, 0))
    wall_row = Terrain(5, 3, blocked={(c, 1) for c in range(5)})
    assert not has_line_of_sight(wall_row, (0, 0), (4, 2))   # no seam between touching walls
    corridor = Terrain(8, 3, blocked={(c, 0) for c in range(8)} | {(c, 2) for c in range(8)})
    assert has_line_of_sight(corridor, (0, 1), (7, 1))       # grazing along walls is not needed
    behind = Terrain(5, 3, blocked={(2, 0), (2, 1)})
    assert sight_line(behind, (0, 0), (4, 0)) is None
    assert sight_line(behind, (0, 2), (4, 1)) is not None and not centre_line_clear(behind, (0, 2), (4, 1))


def test_sight_needs_clearance_not_a_grazing_line():
    # The only straight lines from (0,0) to (2,2) around the wall at (1,1) would have to touch
    # its corners; touching blocks.
    assert not has_line_of_sight(Terrain(3, 3, blocked={(1, 1)}), (0, 0), (2, 2))
    # a slit of positive width lets sight through
    assert has_line_of_sight(Terrain(3, 3, blocked={(1, 1)}), (0, 0), (2, 1))


@pytest.mark.parametrize("bad", [((0, 0), (1, 1)), ((5, 0), (0, 0)), ((0, 0), "x")])
def test_sight_refuses_bad_squares(bad):
    with pytest.raises(RuleInputError):
        sight_line(Terrain(3, 3, blocked={(1, 1)}), *bad)


@pytest.mark.parametrize("seed", range(12))
def test_sight_against_sampled_segments(seed):
    """Visible → the witness lies inside both squares and misses every wall; blocked → no
    segment between a 5×5 lattice of interior points in each square is clear."""
    rng = random.Random(seed)
    grid_pts = [Fraction(k, 6) for k in range(1, 6)]
    for _ in range(12):
        n = rng.randint(3, 6)
        walls = {(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(1, n * n // 3))}
        t = Terrain(n, n, blocked=walls)
        free = [s for s in itertools.product(range(n), range(n)) if s not in walls]
        if len(free) < 2:
            continue
        a, b = rng.sample(free, 2)
        seg = sight_line(t, a, b)
        assert (seg is None) == (sight_line(t, b, a) is None)  # symmetric
        if seg is not None:
            p, q = seg
            assert strictly_inside(p, a) and strictly_inside(q, b) and clear(p, q, walls)
        else:
            for px, py, qx, qy in itertools.product(grid_pts, repeat=4):
                assert not clear((a[0] + px, a[1] + py), (b[0] + qx, b[1] + qy), walls)


def test_visible_squares_view():
    t = Terrain(6, 4, blocked={(2, 0), (2, 1), (2, 2)})
    seen = visible_squares(t, (0, 0))
    assert {(0, 0), (1, 0), (0, 3), (1, 3)} <= seen
    assert not {(5, 0), (3, 3), (5, 3)} & seen  # behind the wall: no line has clearance
    assert all(s not in t.blocked for s in seen)


# --- facing ------------------------------------------------------------------------------

def test_arcs_split_the_neighbourhood():
    for facing in "NESW":
        front, rear = set(front_arc((5, 5), facing)), set(rear_arc((5, 5), facing))
        assert len(front) == 5 and len(rear) == 3 and not front & rear
        assert front | rear == set(grid.neighbours8((5, 5)))
        step = grid.FACING_STEP[facing]
        assert (5 + step[0], 5 + step[1]) in front and (5 - step[0], 5 - step[1]) in rear
    with pytest.raises(RuleInputError):
        rear_arc((0, 0), "NE")


def test_least_rear_attackers_by_brute_force():
    ring = grid.neighbours8((1, 1))
    for k in range(0, 4):
        for attackers in itertools.combinations(ring, k):
            counts = [sum(a in rear_arc((1, 1), f) for a in attackers) for f in "NESW"]
            assert least_rear_attackers((1, 1), attackers)[0] == min(counts)



def test_flight_search_is_refused_past_its_work_limit():
    """Many opponents and a very long move make too many sets of parting shots: refused with a
    Korean message, within about a second (the limit bounds the work, not only the memory)."""
    import time
    rng = random.Random(3)
    cells = [(c, r) for c in range(20) for r in range(20)]
    rng.shuffle(cells)
    start, enemies = cells[0], set(cells[1:61])
    t0 = time.perf_counter()
    with pytest.raises(RuleInputError) as err:
        grid.flight_map(Terrain(20, 20, enemies=enemies), start, 480, engaged_doubles=True)
    assert "분리 사격" in err.value.korean and time.perf_counter() - t0 < 5


@pytest.mark.parametrize("seed", range(30))
def test_the_search_bounded_at_twice_the_rate_equals_the_full_one_within_it(seed):
    """move_options searches only as far as 2 × rate: within that bound every state has the
    full search's feet and predecessor (so the same options, feet and paths), beyond it none."""
    from widgets.grid import _cost_map_within
    from widget_checks import random_floor
    rng = random.Random(900 + seed)
    t, start = random_floor(rng, rng.randint(2, 25), rng.randint(2, 25), walls=0.25, enemies=(0, 0.15))
    rate = rng.choice([5, 10, 20, 30, 40])
    for doubles, may_leave in ((True, False), (False, True)):
        full = cost_map(t, start, rate, engaged_doubles=doubles, may_leave_engagement=may_leave)
        part = _cost_map_within(t, start, rate, doubles, may_leave)
        for s, (a, b) in enumerate(zip(full.state_cost, part.state_cost)):
            if 0 <= a <= 2 * rate:
                assert b == a and part.state_pred[s] == full.state_pred[s]
            else:
                assert b == -1
