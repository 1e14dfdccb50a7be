"""Basic Fantasy RPG on a floor plan: the source supplement "평면도를 이용한 전투" (Combat
with Floor Plans) as data and small rule functions, on top of :mod:`widgets.grid`.

Rules from the source: walk up to the movement rate and attack, or run up to twice the rate
and not attack; diagonals alternate 5/10 ft; entering a square next to a foe engages it; an
engaged combatant may move half its rate staying engaged (the Doughbert example charges such
steps double: 10 ft a square; running that way goes twice as far, with no attack and no parting
shot, as Doughbert does to square 5), or withdraw at half rate, or flee and take a parting shot;
the 3 squares behind a combatant are its rear; a parting shot and an attack from behind get
+2 (the source states both, citing the core rules). Engagement, withdrawal, flight and parting
shots are counted per opponent. The movement-rate table by armour and load is the source's own
(its rates are the core rules'). Rules from the core rules (supplementary, see rules-notes):
missile ranges (:mod:`widgets.ranges`), cover, the attack roll.

The source's figures are not in the text, so the preset scenes place the combatants where
the text's numbers come out (each scene says so in ``note``).

>>> movement_rate("leather", "light"), path_cost([(0, 0), (1, 1), (2, 2)])
(30, 15)
>>> [scene_options("doughbert_melee").feet(m.square) for m in SCENES["doughbert_melee"].marks][:5]
[5, 10, 15, 25, 35]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from types import MappingProxyType
from typing import Iterable, Mapping

from . import limits
from .datafiles import read_json
from .errors import RuleInputError, require_bool, require_int, shown
from .grid import _cost_map_within
from .grid import _square as _as_square  # the shared (col, row) argument check
from .grid import (SQUARE_FEET, CostMap, FlightMap, Square, Terrain, centre_line_clear, check_rate,
                   cost_map, diagonal_feet, flight_map, front_arc, grid_distance,
                   has_line_of_sight, is_behind, least_rear_attackers, neighbours8, path_feet,
                   straight_squares, walk_feet)
from .ranges import BFRPG_MISSILE_RANGES, bfrpg_missile_bands

#: To-hit bonus of the parting shot at a fleeing combatant (stated by the source, after the core
#: rules' defensive movement).
PARTING_SHOT_BONUS = 2
#: To-hit bonus of an attack from one of the defender's 3 rear squares (stated by the source,
#: after the core rules).
REAR_ATTACK_BONUS = 2
#: To-hit penalty for shooting at a foe engaged in melee within 5 ft (core rules).
INTO_MELEE_PENALTY = -5
#: Cover and concealment (core rules): (share of the target hidden in %, to-hit penalty), from
#: the least to the most hidden the core rules list; hard cover multiplies the penalty.
COVER_PENALTY_RANGE: tuple[tuple[int, int], tuple[int, int]] = ((25, -1), (90, -4))
HARD_COVER_FACTOR = 2


# --- movement table ----------------------------------------------------------------------

@dataclass(frozen=True)
class MovementRow:
    """One row of the source's movement table; ``source_squares`` are its printed counts
    (walk orthogonal, walk diagonal, run orthogonal, run diagonal)."""

    armor: str
    load: str
    rate: int
    source_squares: tuple[int, int, int, int]


_NONE = "갑옷 없음 / 마법 가죽 (no armour / magic leather)"
_LEATHER = "가죽 갑옷 / 마법 금속 (leather / magic metal)"
_METAL = "금속 갑옷 (metal armour)"
_LIGHT, _HEAVY = "가벼운 짐 (light load)", "무거운 짐 (heavy load)"

#: The source's table, row by row (rates as in the core rules; counts as printed).
MOVEMENT_TABLE: tuple[MovementRow, ...] = (
    MovementRow(_NONE, _LIGHT, 40, (8, 5, 16, 11)),
    MovementRow(_NONE, _HEAVY, 30, (6, 4, 16, 8)),
    MovementRow(_LEATHER, _LIGHT, 30, (6, 4, 16, 8)),  # "^^": same cells as the row above
    MovementRow(_LEATHER, _HEAVY, 20, (4, 3, 8, 5)),
    MovementRow(_METAL, _LIGHT, 20, (4, 3, 8, 5)),
    MovementRow(_METAL, _HEAVY, 10, (2, 1, 4, 3)),
)

# Keys without spaces, "_" or "-": "magic leather", "magic_leather" and "갑옷 없음" all match.
_ARMOR_ROW = {"none": 0, "magicleather": 0, "leather": 1, "magicmetal": 1, "metal": 2,
              "갑옷없음": 0, "마법가죽": 0, "가죽갑옷": 1, "마법금속": 1, "금속갑옷": 2}
_LOAD_COL = {"light": 0, "heavy": 1, "가벼운짐": 0, "무거운짐": 1, "가벼운무게": 0, "무거운무게": 1,
             "가벼운": 0, "무거운": 1}


def _key(text: object) -> str | None:
    if not isinstance(text, str) or len(text) > limits.MAX_NAME_TEXT:   # refused unread
        return None
    return "".join(ch for ch in text.lower() if ch not in " _-\t")
_COLUMNS = ("walk_orth", "walk_diag", "run_orth", "run_diag")
_COLUMNS_KO = {"walk_orth": "걷기 가로/세로", "walk_diag": "걷기 대각선",
               "run_orth": "달리기 가로/세로", "run_diag": "달리기 대각선"}


def movement_rate(armor: object, load: object) -> int:
    """Feet per round by armour and load (the source's table): none or magic leather 40/30,
    leather or magic metal 30/20, metal 20/10 (light/heavy load). Korean names work too.

    >>> movement_rate("none", "heavy"), movement_rate("magic leather", "light")
    (30, 40)
    >>> movement_rate("금속 갑옷", "가벼운 짐"), movement_rate("금속갑옷", "가벼운 무게")
    (20, 20)
    """
    a, lo = _key(armor), _key(load)
    if a not in _ARMOR_ROW:
        raise RuleInputError(
            f"unknown armour {shown(armor)}: use none, magic_leather, leather, magic_metal or metal",
            f"알 수 없는 갑옷입니다 (입력값: {shown(armor)}). 갑옷 없음·마법 가죽·가죽 갑옷·마법 금속·"
            "금속 갑옷 중 하나를 고르세요.")
    if lo not in _LOAD_COL:
        raise RuleInputError(f"unknown load {shown(load)}: use light or heavy",
                             f"알 수 없는 짐입니다 (입력값: {shown(load)}). 가벼운 짐 또는 "
                             "무거운 짐을 고르세요.")
    return MOVEMENT_TABLE[2 * _ARMOR_ROW[a] + _LOAD_COL[lo]].rate   # rows: armour × (light, heavy)


def running_rate(rate: object) -> int:
    """Running covers up to twice the movement rate (and forbids attacking that round).

    >>> running_rate(30)
    60
    """
    return 2 * check_rate(rate)


def path_cost(path: Iterable[object]) -> int:
    """Feet a path of adjacent squares costs on an open floor (5 ft a square, diagonals
    alternating 5/10 over the whole path).

    >>> path_cost([(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])
    30
    """
    return path_feet(path)


def steps_cost(diagonals: object, orthogonals: object = 0) -> int:
    """Feet of ``diagonals`` diagonal and ``orthogonals`` orthogonal steps on an open floor, from
    the two counts alone (only the diagonals alternate 5/10, so the order of the steps does not
    matter): the same as :func:`path_cost` of such a path, at once for any count up to
    :data:`~widgets.limits.MAX_STEPS`.

    >>> steps_cost(4), steps_cost(3, 2), path_cost([(0, 0), (1, 1), (2, 2), (3, 3), (4, 3), (5, 3)])
    (30, 30, 30)
    """
    feet = diagonal_feet(diagonals)
    return feet + SQUARE_FEET * require_int(orthogonals, "orthogonal steps", "가로/세로 칸 수",
                                            0, limits.MAX_STEPS)


def squares_reachable(feet: object, diagonal: bool = False) -> int:
    """How many squares a straight orthogonal (or diagonal) line covers with ``feet``.

    >>> squares_reachable(30), squares_reachable(30, diagonal=True)
    (6, 4)
    """
    return straight_squares(feet, diagonal=require_bool(diagonal, "diagonal", "대각선 여부"))


def movement_table() -> list[dict[str, object]]:
    """The movement table for the book: labels, rate, run rate, the square counts computed
    from the rules, and the source's printed counts beside them.

    >>> row = movement_table()[1]
    >>> row["rate"], row["run_orth"], row["source_run_orth"]
    (30, 12, 16)
    """
    rows = []
    for r in MOVEMENT_TABLE:
        computed = (squares_reachable(r.rate), squares_reachable(r.rate, True),
                    squares_reachable(2 * r.rate), squares_reachable(2 * r.rate, True))
        row: dict[str, object] = {"armor": r.armor, "load": r.load, "rate": r.rate,
                                  "run_rate": 2 * r.rate}
        for name, mine, theirs in zip(_COLUMNS, computed, r.source_squares):
            row[name], row["source_" + name] = mine, theirs
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Disagreement:
    """A place where the source's own numbers or claims do not follow from its rules."""

    where: str
    source: str
    rules: str
    note_ko: str
    note_en: str


def table_disagreements() -> tuple[Disagreement, ...]:
    """Cells of the source's movement table that the diagonal rule does not reproduce.

    >>> [(d.source, d.rules) for d in table_disagreements()]  # one merged cell, two rows
    [('16', '12'), ('16', '12')]
    """
    out = []
    for row in movement_table():
        for name in _COLUMNS:
            if row[name] != row["source_" + name]:
                out.append(Disagreement(
                    f"{row['armor']}, {row['load']}: {_COLUMNS_KO[name]} ({name})",
                    str(row["source_" + name]), str(row[name]),
                    f"달리기 {row['run_rate']}피트는 {row[name]}칸인데 표에는 "
                    f"{row['source_' + name]}칸으로 적혀 있습니다.",
                    f"{row['run_rate']} ft of running covers {row[name]} squares, the table "
                    f"prints {row['source_' + name]}."))
    return tuple(out)


def source_disagreements() -> tuple[Disagreement, ...]:
    """Every known disagreement: the table's cells plus claims the rules contradict.

    >>> len(source_disagreements())
    4
    """
    ring = neighbours8((1, 1))
    two = least_rear_attackers((1, 1), [(0, 0), (2, 2)])[0]
    triples = list(combinations(ring, 3))
    forced = sum(least_rear_attackers((1, 1), t)[0] > 0 for t in triples)
    return table_disagreements() + (
        Disagreement(
            "뒤에서 공격하기 (attacks from behind)",
            "공격자가 셋보다 적으면 방어자는 항상 뒤에 상대가 없게 방향을 바꿀 수 있다",
            f"대각선으로 마주 선 두 공격자는 어느 방향이든 {two}명이 뒤에 남고, 세 공격자의 "
            f"배치 {len(triples)}가지 중 {forced}가지만 뒤를 잡는다",
            "후방 3칸 규칙대로라면 방어자의 대각선 양쪽(예: 북동과 남서)에 선 두 명만으로도 "
            "뒤에서 공격할 수 있고, 세 명이라도 (예: 북·서·동) 방향을 바꿔 피할 수 있습니다.",
            f"With 3 rear squares, two attackers on opposite diagonals always leave one behind the "
            f"defender, and only {forced} of the {len(triples)} placements of three attackers "
            "force a rear attack (north, west and east can be avoided)."),
        Disagreement(
            "이동: 달리기 (movement: running)",
            "달릴 경우 해당 라운드 동안 공격을 받을 수 없다 (cannot be attacked)",
            "달린 전투원은 그 라운드에 공격할 수 없다 (may not attack)",
            "번역문의 '공격을 받을 수 없습니다'는 이동 예제(팔라딘)와 도주 규칙과 어긋납니다. "
            "이 책은 '공격할 수 없다'로 계산합니다.",
            "The translation says a runner cannot be attacked; its examples (the Paladin) and "
            "the parting-shot rule need 'cannot attack', which this book uses."),
    )


# --- melee, withdrawal, fleeing ----------------------------------------------------------

def half_move(rate: object) -> int:
    """Feet of a melee move or a fighting withdrawal: half the movement rate (rounded down;
    squares cost multiples of 5, so this reaches the same squares as doubling every step).

    >>> half_move(20), half_move(30)
    (10, 15)
    """
    return check_rate(rate) // 2


def melee_step_cost(feet: object = SQUARE_FEET) -> int:
    """What ``feet`` walked while staying engaged cost of the movement rate: double (melee
    example 2 counts half speed as 10 ft a square), so a move of the whole rate goes half as far.

    >>> melee_step_cost(), melee_step_cost(10)
    (10, 20)
    """
    return 2 * check_rate(feet)


#: Movement options for one destination square (their Korean words are the views':
#: ``widgets.views.labels.BF_MOVE_OPTIONS``).
MOVE_OPTIONS: tuple[str, ...] = ("start", "walk", "run", "melee_move", "withdraw", "flee_walk",
                                 "flee_run", "out", "pass", "blocked")
_CAN_ATTACK = frozenset({"start", "walk", "melee_move", "withdraw", "flee_walk"})
#: The options that leave an opponent: only these take parting shots (one per opponent left).
FLIGHT_OPTIONS: frozenset[str] = frozenset({"flee_walk", "flee_run"})


def can_attack_after(option: object) -> bool:
    """``True`` if a combatant may still attack after this movement option.

    >>> can_attack_after("withdraw"), can_attack_after("run")
    (True, False)
    """
    if not isinstance(option, str) or option not in MOVE_OPTIONS:
        raise RuleInputError(f"unknown movement option {shown(option)}",
                             f"알 수 없는 이동 방식입니다 (입력값: {shown(option)}).")
    return option in _CAN_ATTACK


@dataclass(frozen=True)
class MoveOptions:
    """What a combatant at ``start`` can do to reach each square this round.

    Engagement, withdrawal, flight and parting shots are counted per opponent: a step that
    goes from a square next to an opponent to one that is not *leaves* that opponent, even when
    it enters another opponent's melee. Three searches decide it, each as far as 2 × rate (no
    option looks further; beyond, their feet are ``None``): ``stay`` (no step may leave an
    opponent; steps in melee cost double), ``plain`` (no doubling) and ``flight`` (moves that
    leave at least one opponent, each with the set of opponents it leaves: see
    :func:`~widgets.grid.flight_map`).

    * Not engaged at the start: ``walk`` / ``run`` if ``stay`` ≤ rate / 2 × rate; otherwise
      ``flee_walk`` / ``flee_run`` by the ``flight`` move (melee steps double on the way, as
      in the Doughbert example); else ``out``.
    * Engaged at the start: ``melee_move`` for engaged squares with ``stay`` ≤ rate (half
      the rate at double cost); else ``withdraw`` if ``plain`` ≤ half the rate (no parting
      shot); else ``run`` for engaged squares with ``stay`` ≤ 2 × rate (running while staying
      engaged, as Doughbert does to square 5 of the source's melee example 2: no attack, and
      no parting shot, since no opponent is left); else ``flee_walk`` / ``flee_run`` by the
      ``flight`` move at the normal walk or run speed (no doubling); else ``out``.

    A move that leaves no opponent always beats one that leaves some: only leaving an opponent
    gives a parting shot. Of the moves that leave opponents the one chosen leaves the fewest,
    then costs the fewest feet; each opponent it leaves gets one parting shot
    (:meth:`parting_shots`).

    >>> o = move_options(Terrain(7, 1, enemies={(3, 0)}), (2, 0), 20)
    >>> [o.option((c, 0)) for c in range(7)]
    ['withdraw', 'withdraw', 'start', 'blocked', 'out', 'out', 'out']
    >>> o = move_options(Terrain(7, 7, enemies={(4, 3)}), (3, 3), 20)   # Tannen beside a goblin
    >>> o.option((5, 3)), o.feet((5, 3)), o.path_to((5, 3)), o.parting_shots((5, 3))
    ('run', 30, ((3, 3), (4, 2), (5, 3)), ())
    """

    terrain: Terrain
    start: Square
    rate: int
    stay: CostMap
    plain: CostMap
    flight: FlightMap

    @property
    def engaged_start(self) -> bool:
        """``True`` if the combatant starts in melee."""
        return self.terrain.is_engaged(self.start)

    def option(self, square: Square) -> str:
        """The option (one of :data:`MOVE_OPTIONS`) that reaches ``square``.

        >>> scene_options("doughbert_melee").option((1, 1))
        'run'
        """
        t = self.terrain
        if isinstance(square, tuple) and len(square) == 2 and all(type(v) is int for v in square) \
                and t.inside(square):
            return self._all[t.index(square)]
        return self._classify(square)

    @cached_property
    def _all(self) -> tuple[str, ...]:
        """:meth:`option` of every square in index order, worked out once."""
        t = self.terrain
        return tuple(self._classify(t.square(i)) for i in range(t.width * t.height))

    def _classify(self, square: Square) -> str:
        band = self.stay.band(square)
        if band in ("start", "pass", "blocked"):
            return band
        r, stay = self.rate, self.stay.feet(square)
        if not self.engaged_start:
            if stay is not None and stay <= 2 * r:
                return "walk" if stay <= r else "run"
        else:
            kept = self.terrain.is_engaged(square) and stay is not None
            if kept and stay <= r:
                return "melee_move"
            plain = self.plain.feet(square)
            if plain is not None and plain <= r // 2:
                return "withdraw"
            if kept and stay <= 2 * r:
                return "run"     # running while staying engaged: no attack, no parting shot
        flee = self.flight.feet(square)
        if flee is None:
            return "out"
        return "flee_walk" if flee <= r else "flee_run"

    def parting_shots(self, square: Square) -> tuple[Square, ...]:
        """The opponents whose parting shot a move to ``square`` takes (in the terrain's
        square order; empty unless the option is a flight).

        >>> t = Terrain(9, 2, blocked={(c, 0) for c in range(9)} - {(3, 0), (6, 0)},
        ...             enemies={(3, 0), (6, 0)})
        >>> move_options(t, (0, 1), 40).parting_shots((5, 1))
        ((3, 0),)
        """
        if self.option(square) not in FLIGHT_OPTIONS:
            return ()
        return self.flight.foes(square)

    def _map(self, option: str) -> CostMap | FlightMap:
        if option in ("walk", "run", "melee_move", "start"):
            return self.stay
        if option == "withdraw":
            return self.plain
        return self.flight

    def feet(self, square: Square) -> int | None:
        """Feet spent on the search that decided :meth:`option` (melee steps counted
        double where the option does), or ``None`` for ``out``/``pass``/``blocked``.

        >>> scene_options("tannen_melee").feet((3, 2))  # one melee step: 5 ft at double cost
        10
        """
        opt = self.option(square)
        if opt in ("out", "pass", "blocked"):
            return None
        return self._map(opt).feet(square)

    def walked(self, square: Square) -> int | None:
        """Feet actually walked on :meth:`path_to` (melee steps counted once: a melee move of
        10 ft is 20 ft of :meth:`feet`), or ``None`` where :meth:`feet` is.

        >>> o = scene_options("tannen_melee")
        >>> o.feet((5, 2)), o.walked((5, 2))
        (20, 10)
        """
        path = self.path_to(square)
        return walk_feet(self.terrain, path) if path else None

    def path_to(self, square: Square) -> tuple[Square, ...]:
        """A cheapest path for :meth:`option` (empty when out of reach).

        >>> scene_options("doughbert_melee").path_to((2, 1))[-2:]
        ((3, 1), (2, 1))
        """
        opt = self.option(square)
        if opt in ("out", "pass", "blocked"):
            return ()
        return self._map(opt).path_to(square)

    def options(self) -> dict[Square, str]:
        """:meth:`option` for every square of the grid.

        >>> sorted(set(move_options(Terrain(3, 3), (1, 1), 10).options().values()))
        ['start', 'walk']
        """
        t = self.terrain
        return {(c, r): self.option((c, r)) for r in range(t.height) for c in range(t.width)}


def move_options(terrain: Terrain, start: object, rate: object) -> MoveOptions:
    """Classify every square for a combatant at ``start`` moving ``rate`` ft a round.

    >>> move_options(Terrain(12, 1), (0, 0), 30).option((11, 0))
    'run'
    """
    r = check_rate(rate)
    if not isinstance(terrain, Terrain):
        cost_map(terrain, start, r)     # refused there, in the same words
    s0 = terrain.check_start(start)
    # no option looks past 2 × rate, so the searches stop there (the same answers within it)
    stay = _cost_map_within(terrain, s0, r, True, False)
    plain = _cost_map_within(terrain, s0, r, False, True)
    flight = flight_map(terrain, s0, r, engaged_doubles=not terrain.is_engaged(s0))
    return MoveOptions(terrain, s0, r, stay, plain, flight)


# --- facing and attacks from behind ------------------------------------------------------

def can_attack_square(attacker: object, facing: object, target: object) -> bool:
    """A melee attack goes into one of the 5 front/side squares, never the 3 rear ones.

    >>> can_attack_square((1, 1), "N", (2, 1)), can_attack_square((1, 1), "N", (1, 2))
    (True, False)
    """
    return _as_square(target, "target", "표적 칸") in front_arc(attacker, facing)


def rear_attack_bonus(defender: object, facing: object, attacker: object) -> int:
    """+2 to hit when ``attacker`` stands in one of the defender's 3 rear squares, else 0.

    >>> rear_attack_bonus((1, 1), "E", (0, 2)), rear_attack_bonus((1, 1), "E", (2, 2))
    (2, 0)
    """
    return REAR_ATTACK_BONUS if is_behind(defender, facing, attacker) else 0


def simultaneous_move_order(rates: Mapping[str, object]) -> list[str]:
    """Who moves each 5 ft when several act on the same initiative (the source's alternative):
    in turns of 5 ft, fastest first (ties keep the given order), until all have stopped.

    >>> simultaneous_move_order({"도우버트": 10, "탄넨": 20})
    ['탄넨', '도우버트', '탄넨', '도우버트', '탄넨', '탄넨']
    """
    if not isinstance(rates, Mapping) or len(rates) > 50:
        raise RuleInputError("give up to 50 movers as {name: rate}",
                             "이동하는 전투원을 {이름: 이동 속도}로 50명까지 주세요.")
    left = {name: check_rate(r) for name, r in rates.items()}
    order = sorted(left, key=lambda name: -left[name])  # sorted() is stable for ties
    steps: list[str] = []
    while any(left.values()):
        for name in order:
            if left[name] >= 5:
                steps.append(name)
                left[name] -= 5
    return steps


# --- missiles ----------------------------------------------------------------------------

@dataclass(frozen=True)
class MissileCheck:
    """Whether a missile attack may go ahead: range by the grid distance (an assumption:
    the source does not say how to measure range, so the movement rule is used), sight
    (``'clear'``: the centre-to-centre line is free; ``'partial'``: only an off-centre line
    is, i.e. cover at the GM's discretion; ``'none'``: no line)."""

    distance: int
    range_label: str | None
    modifier: int | None
    sight: str

    @property
    def allowed(self) -> bool:
        """In range and with some line of sight (partial cover is left to the GM)."""
        return self.modifier is not None and self.sight != "none"


def missile_sight(terrain: Terrain, shooter: object, target: object) -> str:
    """``'clear'``, ``'partial'`` or ``'none'`` (see :class:`MissileCheck`).

    >>> t = SCENES["missile"].terrain()
    >>> [missile_sight(t, (1, 4), g.square) for g in SCENES["missile"].enemies]
    ['none', 'clear', 'partial']
    """
    if not has_line_of_sight(terrain, shooter, target):
        return "none"
    return "clear" if centre_line_clear(terrain, shooter, target) else "partial"


def missile_check(terrain: Terrain, shooter: object, target: object, weapon: str) -> MissileCheck:
    """Range band, modifier and sight for ``weapon`` (a key of ``BFRPG_MISSILE_RANGES``).

    >>> c = missile_check(SCENES["missile"].terrain(), (1, 4), (7, 6), "단궁 (shortbow)")
    >>> c.distance, c.range_label, c.modifier, c.sight, c.allowed
    (35, '단거리', 1, 'clear', True)
    """
    bands = bfrpg_missile_bands(weapon)
    distance = grid_distance(shooter, target)
    sight = missile_sight(terrain, shooter, target)
    if not bands.in_range(distance):
        return MissileCheck(distance, None, None, sight)
    band = bands.band(distance)
    return MissileCheck(distance, band.label, band.modifier, sight)


#: Attack roll (core rules, supplementary): d20 + bonus ≥ AC hits; a natural 1 always misses and
#: a natural 20 always hits.
ATTACK_DIE = 20


def attack_roll_hits(face: object, bonus: object, ac: object) -> bool:
    """Whether one attack roll hits: the d20 ``face`` plus ``bonus`` reaches ``ac``; a natural 1
    always misses and a natural 20 always hits.

    >>> attack_roll_hits(13, 1, 14), attack_roll_hits(20, -10, 14), attack_roll_hits(1, 30, 14)
    (True, True, False)
    """
    face = require_int(face, "face", "d20 눈", 1, ATTACK_DIE)
    bonus = require_int(bonus, "bonus", "명중 보너스", -100, 100)
    ac = require_int(ac, "ac", "AC", -100, 200)
    return face == ATTACK_DIE or (face != 1 and face + bonus >= ac)


def attack_roll_odds(bonus: object, ac: object) -> dict[str, Fraction]:
    """Exact odds that d20 + ``bonus`` (every to-hit modifier added up) reaches ``ac``.

    >>> attack_roll_odds(1, 14)
    {'hit': Fraction(2, 5), 'miss': Fraction(3, 5)}
    >>> attack_roll_odds(30, 14)["miss"], attack_roll_odds(-30, 14)["hit"]   # natural 1 and 20
    (Fraction(1, 20), Fraction(1, 20))
    """
    hits = sum(attack_roll_hits(face, bonus, ac) for face in range(1, ATTACK_DIE + 1))
    return {"hit": Fraction(hits, ATTACK_DIE), "miss": Fraction(ATTACK_DIE - hits, ATTACK_DIE)}


# --- the source's worked examples as scenes ----------------------------------------------

@dataclass(frozen=True)
class Token:
    """A combatant on a scene: Korean name with English in parentheses."""

    name: str
    square: Square
    facing: str | None = None


@dataclass(frozen=True)
class Mark:
    """A square the source talks about. ``expect`` is a movement option (or, in the missile
    scene, a sight value); ``feet`` is the source's number: the exact cost when ``exact``,
    otherwise the limit it quotes for that colour of squares (``None``: no number given)."""

    label: str
    square: Square
    expect: str
    feet: int | None = None
    exact: bool = True


@dataclass(frozen=True)
class Scene:
    """A preset floor plan for one of the source's examples (plain data for the book)."""

    key: str
    title: str
    source_text: str
    note: str
    width: int
    height: int
    mover: Token
    rate: int
    walls: frozenset[Square] = frozenset()
    enemies: tuple[Token, ...] = ()
    allies: tuple[Token, ...] = ()
    path: tuple[Square, ...] = ()
    marks: tuple[Mark, ...] = ()
    extra: Mapping[str, object] = field(default_factory=dict)

    def terrain(self) -> Terrain:
        """The scene as a :class:`~widgets.grid.Terrain` (the mover is not an obstacle).

        >>> SCENES["doughbert_melee"].terrain().enemies
        frozenset({(2, 2)})
        """
        return Terrain(self.width, self.height, blocked=self.walls,
                       enemies={e.square for e in self.enemies},
                       allies={a.square for a in self.allies})


def _token(data: Mapping) -> Token:
    return Token(data["name"], tuple(data["square"]), data["facing"])  # type: ignore[arg-type]


def _scene(data: Mapping) -> Scene:
    return Scene(data["key"], data["title"], data["source_text"], data["note"], data["width"],
                 data["height"], _token(data["mover"]), data["rate"],
                 walls=frozenset(tuple(w) for w in data["walls"]),  # type: ignore[misc]
                 enemies=tuple(_token(t) for t in data["enemies"]),
                 allies=tuple(_token(t) for t in data["allies"]),
                 path=tuple(tuple(p) for p in data["path"]),  # type: ignore[misc]
                 marks=tuple(Mark(m["label"], tuple(m["square"]), m["expect"], m["feet"],  # type: ignore[arg-type]
                                  m["exact"]) for m in data["marks"]),
                 extra=dict(data["extra"]))


#: The source's worked examples, from ``widgets/data/bfrpg_scenes.json`` (read once).
SCENES: Mapping[str, Scene] = MappingProxyType(
    {data["key"]: _scene(data) for data in read_json("bfrpg_scenes.json")})  # type: ignore[union-attr]


def scene(key: object) -> Scene:
    """One preset scene by key (see :data:`SCENES`).

    >>> scene("doughbert_melee").rate
    30
    """
    if not isinstance(key, str) or key not in SCENES:
        raise RuleInputError(f"unknown scene {shown(key)}; known: {', '.join(SCENES)}",
                             f"없는 예제입니다 (입력값: {shown(key)}).")
    return SCENES[key]


def scene_options(key: object) -> MoveOptions:
    """:func:`move_options` for a scene's mover.

    >>> scene_options("tannen_melee").option((0, 3))
    'flee_walk'
    """
    s = scene(key)
    return move_options(s.terrain(), s.mover.square, s.rate)


def scene_rear_attackers(key: object) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """For a rear-attack scene: the fewest attackers the defender can leave behind, the
    facings that do it, and who is behind at the defender's drawn facing.

    >>> scene_rear_attackers("rear_three")
    (1, ('N', 'E', 'S', 'W'), ('도우버트 (Doughbert)',))
    """
    s = scene(key)
    least, facings = least_rear_attackers(s.mover.square, [e.square for e in s.enemies])
    behind = tuple(e.name for e in s.enemies if is_behind(s.mover.square, s.mover.facing, e.square))
    return least, facings, behind


__all__ = [
    "PARTING_SHOT_BONUS", "REAR_ATTACK_BONUS", "INTO_MELEE_PENALTY", "COVER_PENALTY_RANGE",
    "HARD_COVER_FACTOR", "MOVEMENT_TABLE", "MOVE_OPTIONS", "FLIGHT_OPTIONS", "MovementRow",
    "SCENES", "BFRPG_MISSILE_RANGES", "Disagreement", "MoveOptions", "MissileCheck", "Mark",
    "Scene", "Token", "movement_rate", "running_rate", "path_cost", "steps_cost", "squares_reachable",
    "movement_table", "table_disagreements", "source_disagreements", "half_move", "melee_step_cost",
    "can_attack_after", "move_options", "can_attack_square", "rear_attack_bonus",
    "simultaneous_move_order", "missile_sight", "missile_check", "attack_roll_hits", "attack_roll_odds",
    "ATTACK_DIE",
    "scene", "scene_options",
    "scene_rear_attackers",
]
