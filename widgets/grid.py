"""Square-grid movement, sight and facing: the generic layer under the floor-plan chapters.

Squares are 5 ft; a square is ``(col, row)`` with ``col`` growing east and ``row`` growing
south (so "north" is ``row - 1``). Everything here is an immutable value.

Movement cost (the alternating diagonal rule): an orthogonal step costs 5 ft; diagonals
alternate 5 ft, 10 ft, 5 ft, … counted over the *whole* path, so 1, 2, 3, 4 diagonals cost
5, 15, 20, 30 ft. Terrain, decided here and documented once:

* ``blocked`` (walls): never entered; a diagonal step may not cut the corner of a wall (it is
  refused when either of the two squares it passes between is a wall).
* ``barrier`` (table, bench, low wall): entering the square costs a flat +5 ft.
* ``difficult`` (steep stairs, wading): half speed, i.e. the step *into* it costs double.
  A diagonal still advances the 5/10 count and its own 5 or 10 is doubled (10 or 20); the
  barrier +5 is added after doubling (it is a fixed surcharge, not movement).
* ``allies``: passable, but not a square to stop in (band ``'pass'``).
* ``enemies``: never entered; every other square next to one (8-neighbourhood) is *engaged*
  with that opponent (walls between do not matter; the source says nothing of them).
  Engagement is counted per opponent: a step *leaves* an opponent when it goes from a square
  next to it to one that is not. Squeezing diagonally between two enemies is allowed: only
  walls have corners that cannot be cut.
  With ``engaged_doubles`` a step that stays next to some opponent costs double (moving while
  in melee at half speed); it stacks with difficult terrain (×4).

The search is exact over all walks (squares may repeat): with the 5/10 count a detour can
change which later diagonals cost 10, so the state carries that parity.

Line of sight follows "a straight line from some point of the shooter's square to the
target's square that passes no obstacle". Walls are *closed* squares: a line touching a
wall's corner or running along its edge is blocked, so sight needs a line with some
clearance. :func:`sight_line` decides this exactly (whole-number and rational arithmetic,
no sampling) and returns a witness segment. Only walls block sight. Its cost grows with the
walls near the line: one query takes milliseconds, a whole 30×30 view about a second.

>>> t = Terrain(5, 5, blocked={(2, 1)}, enemies={(4, 4)})
>>> m = cost_map(t, (0, 0), rate=20)
>>> m.feet((1, 1)), m.feet((3, 3)), m.band((3, 3))  # the wall forbids cutting its corner
(5, 25, 'run')
>>> m.path_to((2, 2))
((0, 0), (0, 1), (1, 2), (2, 2))
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Iterable, Sequence

from . import limits
from .errors import (RuleInputError, particle, require_bool, require_instance, require_int,
                     require_items, require_number, shown)
from .limits import MAX_FLIGHT_WORK

Square = tuple[int, int]
Point = tuple[Fraction, Fraction]

#: Feet per square.
SQUARE_FEET = 5
#: Largest grid side; keeps a full recompute bounded (60×60 = 3 600 squares).
MAX_SIDE = 60
#: Largest movement rate (ft per round) accepted; anything bigger is a typo.
MAX_RATE = 480
#: Longest path (in squares) the path helpers read (see :data:`widgets.limits.MAX_STEPS`).
MAX_PATH = limits.MAX_STEPS
#: Neighbour order (N, E, S, W, then diagonals), shared with the JavaScript twin.
STEPS: tuple[Square, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
#: The four facings and the step each points along.
FACING_STEP: dict[str, Square] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
FACING_KO: dict[str, str] = {"N": "북", "E": "동", "S": "남", "W": "서"}


def _square(value: object, name: str, name_ko: str) -> Square:
    """A square given as a pair of whole numbers (range is checked by the caller)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise RuleInputError(f"{name} must be a (col, row) pair, got {shown(value)}",
                             f"{particle(name_ko, '은/는')} (열, 행) 두 정수로 주세요 (입력값: {shown(value)}).")
    big = 10**6
    return (require_int(value[0], f"{name} column", f"{name_ko}의 열", -big, big),
            require_int(value[1], f"{name} row", f"{name_ko}의 행", -big, big))


def _terrain(terrain: object) -> "Terrain":
    return require_instance(terrain, Terrain, "terrain", "지형 정보")  # type: ignore[return-value]


def _point(value: object, name: str, name_ko: str) -> tuple[Fraction, Fraction]:
    """An (x, y) point of exact numbers (grid lines are whole numbers)."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise RuleInputError(f"{name} must be an (x, y) pair, got {shown(value)}",
                             f"{particle(name_ko, '은/는')} (x, y) 두 수로 주세요 (입력값: {shown(value)}).")
    return (require_number(value[0], f"{name} x", f"{name_ko}의 x", -10**6, 10**6),
            require_number(value[1], f"{name} y", f"{name_ko}의 y", -10**6, 10**6))


def neighbours8(square: Square) -> tuple[Square, ...]:
    """The 8 squares around ``square`` (in :data:`STEPS` order; may lie off any grid).

    >>> neighbours8((0, 0))[:2]
    ((0, -1), (1, 0))
    """
    c, r = _square(square, "square", "칸")
    return tuple((c + dc, r + dr) for dc, dr in STEPS)


def diagonal_feet(count: int) -> int:
    """Feet for ``count`` diagonal steps in a row under the 5/10 rule.

    >>> [diagonal_feet(n) for n in range(5)]
    [0, 5, 15, 20, 30]
    """
    return _diagonal_feet(require_int(count, "diagonal count", "대각선 칸 수", 0, limits.MAX_STEPS))


def _diagonal_feet(n: int) -> int:
    return SQUARE_FEET * (n + n // 2)


def path_feet(path: Iterable[object]) -> int:
    """Feet for a path of squares on an open floor, each step to one of the 8 neighbours.

    >>> path_feet([(0, 0), (1, 1), (2, 2), (3, 2)])
    20
    """
    squares = [_square(p, f"path square {i}", f"경로의 {i + 1}번째 칸")
               for i, p in enumerate(require_items(path, "path", "경로", MAX_PATH))]
    feet, diagonals = 0, 0
    for i, (a, b) in enumerate(zip(squares, squares[1:])):
        dc, dr = b[0] - a[0], b[1] - a[1]
        if max(abs(dc), abs(dr)) != 1:
            raise RuleInputError(
                f"step {i + 1} from {a} to {b} is not a move to an adjacent square",
                f"{i + 1}번째 이동({a} → {b}): 이웃한 칸으로 가는 한 칸 이동이 아닙니다.")
        if dc and dr:
            diagonals += 1
            feet += SQUARE_FEET if diagonals % 2 else 2 * SQUARE_FEET
        else:
            feet += SQUARE_FEET
    return feet


def walk_feet(terrain: "Terrain", path: Iterable[object]) -> int:
    """Feet a walk of adjacent squares costs on ``terrain`` with no melee doubling: diagonals
    alternating 5/10 over the whole walk, difficult squares double, barriers +5 after that.

    >>> walk_feet(Terrain(4, 1, difficult={(2, 0)}, barrier={(3, 0)}), [(0, 0), (1, 0), (2, 0), (3, 0)])
    25
    """
    _terrain(terrain)
    squares = [_square(p, f"path square {i}", f"경로의 {i + 1}번째 칸")
               for i, p in enumerate(require_items(path, "path", "경로", MAX_PATH))]
    feet, diagonals = 0, 0
    for i, (a, b) in enumerate(zip(squares, squares[1:])):
        dc, dr = b[0] - a[0], b[1] - a[1]
        if max(abs(dc), abs(dr)) != 1 or not terrain.inside(b) or b in terrain.blocked \
                or b in terrain.enemies:
            raise RuleInputError(f"step {i + 1} from {a} to {b} is not a legal move",
                                 f"{i + 1}번째 이동({a} → {b}): 갈 수 있는 한 칸 이동이 아닙니다.")
        step = 5
        if dc and dr:
            diagonals += 1
            step = SQUARE_FEET if diagonals % 2 else 2 * SQUARE_FEET
        feet += step * (2 if b in terrain.difficult else 1) + (5 if b in terrain.barrier else 0)
    return feet


def grid_distance(a: object, b: object) -> int:
    """Feet of the cheapest path between two squares on an open floor.

    >>> grid_distance((0, 0), (3, 5))
    30
    """
    (ac, ar), (bc, br) = _square(a, "a", "첫 칸"), _square(b, "b", "둘째 칸")
    dc, dr = abs(ac - bc), abs(ar - br)
    diag = min(dc, dr)
    return SQUARE_FEET * (max(dc, dr) - diag) + _diagonal_feet(diag)


def straight_squares(feet: object, diagonal: bool = False) -> int:
    """How many squares a straight (orthogonal or diagonal) line covers with ``feet``.

    >>> straight_squares(40), straight_squares(40, diagonal=True), straight_squares(80, True)
    (8, 5, 11)
    """
    f = require_int(feet, "feet", "이동 거리(피트)", 0, 10**6)
    diagonal = require_bool(diagonal, "diagonal", "대각선 여부")
    if not diagonal:
        return f // SQUARE_FEET
    # Every two diagonals cost 15 ft; a leftover 5 ft buys one more.
    pairs, rest = divmod(f, 3 * SQUARE_FEET)
    return 2 * pairs + (1 if rest >= SQUARE_FEET else 0)


@dataclass(frozen=True)
class Terrain:
    """An immutable grid: size plus sets of special squares (see the module text).

    >>> Terrain(3, 3, enemies={(1, 1)}).is_engaged((0, 0))
    True
    """

    width: int
    height: int
    blocked: frozenset[Square] = frozenset()
    barrier: frozenset[Square] = frozenset()
    difficult: frozenset[Square] = frozenset()
    allies: frozenset[Square] = frozenset()
    enemies: frozenset[Square] = frozenset()

    def __post_init__(self) -> None:
        w = require_int(self.width, "grid width", "격자 너비", 1, MAX_SIDE)
        h = require_int(self.height, "grid height", "격자 높이", 1, MAX_SIDE)
        object.__setattr__(self, "width", w)
        object.__setattr__(self, "height", h)
        names = {"blocked": "벽", "barrier": "장벽", "difficult": "험한 지형",
                 "allies": "아군", "enemies": "적"}
        for field, ko in names.items():
            raw = getattr(self, field)
            if isinstance(raw, (str, bytes)) or not isinstance(raw, Iterable):
                raise RuleInputError(f"{field} must be a set of squares",
                                     f"{ko} 칸은 칸들의 집합으로 주세요.")
            squares = frozenset(_square(s, f"{field} square", f"{ko} 칸")
                                for s in require_items(raw, field, f"{ko} 칸", w * h))
            for s in squares:
                if not self.inside(s):
                    raise RuleInputError(f"{field} square {s} is off the {w}×{h} grid",
                                         f"{ko} 칸 {particle(s, '이/가')} {w}×{h} 격자 밖에 있습니다.")
            object.__setattr__(self, field, squares)
        for field in ("barrier", "difficult", "allies", "enemies"):
            if self.blocked & getattr(self, field):
                raise RuleInputError(f"a {field} square is also a wall",
                                     f"{names[field]} 칸이 벽과 겹칩니다.")
        if self.allies & self.enemies:
            raise RuleInputError("a square holds both an ally and an enemy",
                                 "한 칸에 아군과 적이 함께 있습니다.")

    def inside(self, square: Square) -> bool:
        """``True`` if ``square`` lies on the grid.

        >>> Terrain(2, 2).inside((2, 0))
        False
        """
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def index(self, square: Square) -> int:
        """Flat index ``row * width + col`` (the JavaScript twin's square numbering).

        >>> Terrain(4, 3).index((1, 2))
        9
        """
        return square[1] * self.width + square[0]

    def square(self, index: int) -> Square:
        """Inverse of :meth:`index`.

        >>> Terrain(4, 3).square(9)
        (1, 2)
        """
        return index % self.width, index // self.width

    @cached_property
    def engaged(self) -> frozenset[Square]:
        """Open squares next to an enemy (horizontally, vertically or diagonally).

        >>> sorted(Terrain(2, 2, enemies={(0, 0)}).engaged)
        [(0, 1), (1, 0), (1, 1)]
        """
        return frozenset(n for e in self.enemies for n in neighbours8(e)
                         if self.inside(n) and n not in self.blocked and n not in self.enemies)

    @cached_property
    def foe_masks(self) -> dict[Square, int]:
        """Engaged square → bit mask of the opponents next to it (bit ``k``: the ``k``-th enemy
        in :meth:`index` order, as :attr:`foe_order`).

        >>> Terrain(3, 1, enemies={(0, 0), (2, 0)}).foe_masks
        {(1, 0): 3}
        """
        bit = {e: 1 << k for k, e in enumerate(self.foe_order)}
        out: dict[Square, int] = {}
        for e in self.foe_order:
            for n in neighbours8(e):
                if self.inside(n) and n not in self.blocked and n not in self.enemies:
                    out[n] = out.get(n, 0) | bit[e]
        return dict(sorted(out.items(), key=lambda kv: self.index(kv[0])))

    @cached_property
    def foe_order(self) -> tuple[Square, ...]:
        """The enemies in :meth:`index` order (the numbering of :attr:`foe_masks`).

        >>> Terrain(3, 2, enemies={(0, 1), (2, 0)}).foe_order
        ((2, 0), (0, 1))
        """
        return tuple(sorted(self.enemies, key=self.index))

    def foes_next_to(self, square: Square) -> tuple[Square, ...]:
        """The opponents ``square`` is engaged with, in :attr:`foe_order`.

        >>> Terrain(3, 2, enemies={(0, 1), (2, 0)}).foes_next_to((1, 0))
        ((2, 0), (0, 1))
        """
        return self.foes_of(self.foe_masks.get(square, 0))

    def foes_of(self, mask: int) -> tuple[Square, ...]:
        """The opponents of a :attr:`foe_masks` bit mask, in :attr:`foe_order`.

        >>> Terrain(3, 1, enemies={(0, 0), (2, 0)}).foes_of(2)
        ((2, 0),)
        """
        return tuple(e for k, e in enumerate(self.foe_order) if mask >> k & 1)

    def is_engaged(self, square: Square) -> bool:
        """``True`` if ``square`` is next to an enemy (see :attr:`engaged`).

        >>> Terrain(3, 1, enemies={(0, 0)}).is_engaged((2, 0))
        False
        """
        return square in self.engaged

    def to_js(self) -> dict[str, object]:
        """The flat-array input of ``GridCost.costMap`` in ``widgets/js/grid_cost.js``.

        >>> Terrain(3, 2, blocked={(1, 1)}).to_js()["blocked"]
        [4]
        """
        out: dict[str, object] = {"width": self.width, "height": self.height}
        for field in ("blocked", "barrier", "difficult", "allies", "enemies"):
            out[field] = sorted(self.index(s) for s in getattr(self, field))
        return out

    def check_start(self, start: object) -> Square:
        """``start`` as a square where a combatant may stand, or :class:`RuleInputError`.

        >>> Terrain(3, 3).check_start((1, 2))
        (1, 2)
        """
        s = _square(start, "start", "출발 칸")
        if not self.inside(s):
            raise RuleInputError(f"start {s} is off the {self.width}×{self.height} grid",
                                 f"출발 칸 {particle(s, '이/가')} {self.width}×{self.height} 격자 밖에 있습니다.")
        for field, en, ko in (("blocked", "a wall", "벽"), ("enemies", "an enemy", "적"),
                              ("allies", "an ally", "아군")):
            if s in getattr(self, field):
                raise RuleInputError(f"start {s} is on {en}",
                                     f"출발 칸 {s}에 {particle(ko, '이/가')} 있어 설 수 없습니다.")
        return s


def check_rate(rate: object) -> int:
    """A movement rate in ft per round: a whole multiple of 5 from 0 to :data:`MAX_RATE`.

    >>> check_rate(30)
    30
    """
    r = require_int(rate, "movement rate", "이동 속도", 0, MAX_RATE)
    if r % SQUARE_FEET:
        raise RuleInputError(f"movement rate must be a multiple of 5 ft, got {r}",
                             f"이동 속도는 칸 단위인 5피트의 배수여야 합니다 (입력값: {r}).")
    return r


@dataclass(frozen=True)
class CostMap:
    """Cheapest movement from one start square to every square.

    States are ``index * 2 + parity`` where ``parity`` is the number of diagonals taken so
    far, mod 2 (it decides whether the next diagonal costs 5 or 10). ``state_cost`` holds the
    cheapest feet per state (``-1``: unreachable) and ``state_pred`` the previous state on
    that cheapest path (``-1`` at the start). These are exactly the JavaScript twin's arrays.

    >>> m = cost_map(Terrain(3, 1), (0, 0), rate=5)
    >>> m.costs(), m.bands()[(2, 0)]
    ((0, 5, 10), 'run')
    """

    terrain: Terrain
    start: Square
    rate: int
    engaged_doubles: bool
    may_leave_engagement: bool
    state_cost: tuple[int, ...]
    state_pred: tuple[int, ...]

    def best_state(self, square: Square) -> int:
        """The cheaper of the square's two states (parity 0 on a tie), or ``-1``.

        >>> cost_map(Terrain(2, 2), (0, 0), 10).best_state((1, 1))
        7
        """
        if not self.terrain.inside(square):
            return -1
        s = 2 * self.terrain.index(square)
        a, b = self.state_cost[s], self.state_cost[s + 1]
        if a < 0 and b < 0:
            return -1
        return s if b < 0 or (0 <= a <= b) else s + 1

    def feet(self, square: Square) -> int | None:
        """Cheapest feet to ``square``; ``None`` if it cannot be reached (or is off the grid).

        >>> cost_map(Terrain(3, 3), (0, 0), 10).feet((2, 2))
        15
        """
        s = self.best_state(square)
        return None if s < 0 else self.state_cost[s]

    def costs(self) -> tuple[int, ...]:
        """Cheapest feet per square in index order, ``-1`` if unreachable (the JS ``cost``).

        >>> cost_map(Terrain(2, 1, blocked={(1, 0)}), (0, 0), 10).costs()
        (0, -1)
        """
        t = self.terrain
        return tuple(-1 if (f := self.feet(t.square(i))) is None else f
                     for i in range(t.width * t.height))

    def path_to(self, square: Square) -> tuple[Square, ...]:
        """One cheapest path from the start to ``square`` (empty if unreachable).

        >>> cost_map(Terrain(3, 2), (0, 0), 10).path_to((2, 1))
        ((0, 0), (1, 0), (2, 1))
        """
        s = self.best_state(square)
        path: list[Square] = []
        while s >= 0:
            path.append(self.terrain.square(s // 2))
            s = self.state_pred[s]
        return tuple(reversed(path))

    def previous(self, square: Square) -> Square | None:
        """The square before ``square`` on :meth:`path_to` (``None`` at the start or if
        unreachable); the JS ``pred`` array holds the same as a flat index.

        >>> cost_map(Terrain(3, 1), (0, 0), 10).previous((2, 0))
        (1, 0)
        """
        s = self.best_state(square)
        if s < 0 or self.state_pred[s] < 0:
            return None
        return self.terrain.square(self.state_pred[s] // 2)

    def band(self, square: Square) -> str:
        """``'start'``, ``'walk'`` (≤ rate: walk, then attack), ``'run'`` (≤ 2 × rate, no
        attack), ``'out'``, ``'pass'`` (an ally's square) or ``'blocked'`` (wall or enemy).

        >>> cost_map(Terrain(9, 1), (0, 0), 20).band((8, 0))
        'run'
        """
        t = self.terrain
        if square == self.start:
            return "start"
        if square in t.blocked or square in t.enemies:
            return "blocked"
        if square in t.allies:
            return "pass"
        f = self.feet(square)
        if f is None:
            return "out"
        return "walk" if f <= self.rate else "run" if f <= 2 * self.rate else "out"

    def bands(self) -> dict[Square, str]:
        """:meth:`band` of every square on the grid.

        >>> cost_map(Terrain(2, 1), (0, 0), 5).bands()
        {(0, 0): 'start', (1, 0): 'walk'}
        """
        t = self.terrain
        return {(c, r): self.band((c, r)) for r in range(t.height) for c in range(t.width)}


def cost_map(terrain: Terrain, start: object, rate: object, *, engaged_doubles: bool = False,
             may_leave_engagement: bool = True) -> CostMap:
    """Dijkstra over (square, diagonal parity) from ``start``; see :class:`CostMap`.

    ``may_leave_engagement=False`` forbids every step that leaves an opponent (from a square
    next to it to one that is not), even into another opponent's melee: used to tell plain
    moves from moves that flee a melee.

    >>> t = Terrain(4, 1, difficult={(2, 0)}, barrier={(3, 0)})
    >>> cost_map(t, (0, 0), 30).costs()
    (0, 5, 15, 25)
    """
    _terrain(terrain)
    s0 = terrain.check_start(start)
    r = check_rate(rate)
    engaged_doubles = require_bool(engaged_doubles, "engaged_doubles", "교전 중 이동 두 배 비용")
    may_leave_engagement = require_bool(may_leave_engagement, "may_leave_engagement",
                                        "교전에서 벗어나기 허용")
    cost, pred = _search(terrain, terrain.index(s0), engaged_doubles, may_leave_engagement)
    return CostMap(terrain, s0, r, engaged_doubles, may_leave_engagement,
                   tuple(cost), tuple(pred))


def _cost_map_within(terrain: Terrain, start: Square, rate: int, engaged_doubles: bool,
                     may_leave: bool) -> CostMap:
    """:func:`cost_map` searched only as far as 2 × ``rate`` (arguments already checked): every
    state within that costs and leads exactly as in the full search (Dijkstra settles states
    cheapest first, and a pruned step costs more than the bound), the rest is unreachable. What
    :func:`widgets.bfrpg.move_options` needs, at a fraction of the work on a large plan."""
    cost, pred = _search(terrain, terrain.index(start), engaged_doubles, may_leave, 2 * rate)
    return CostMap(terrain, start, rate, engaged_doubles, may_leave, tuple(cost), tuple(pred))


class _Floor:
    """A terrain as flat arrays (walls, enemies, barriers, difficult squares, the opponents next
    to each square as a bit mask), and the steps out of a square with what each costs: the one
    step rule both searches (:func:`cost_map`, :func:`flight_map`) walk by."""

    def __init__(self, t: Terrain, engaged_doubles: bool):
        self.w, self.h, self.engaged_doubles = t.width, t.height, engaged_doubles
        n = t.width * t.height
        self.wall, self.enemy, self.barrier, self.difficult = (bytearray(n) for _ in range(4))
        for flags, squares in ((self.wall, t.blocked), (self.enemy, t.enemies),
                               (self.barrier, t.barrier), (self.difficult, t.difficult)):
            for sq in squares:
                flags[t.index(sq)] = 1
        self.foes = [0] * n  # bit mask of the opponents next to each square
        for sq, mask in t.foe_masks.items():
            self.foes[t.index(sq)] = mask

    def steps(self, i: int, parity: int):
        """``(square, feet, parity after)`` of every step out of square ``i`` (the alternating
        5/10 ft diagonal count's ``parity``): no walls, enemies or cut wall corners; difficult
        ground doubles a step, a barrier adds 5 ft, and with ``engaged_doubles`` a step that
        stays next to an opponent counts double."""
        w, h, wall, foes = self.w, self.h, self.wall, self.foes
        x, y = i % w, i // w
        for dx, dy in STEPS:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h):
                continue
            j = ny * w + nx
            if wall[j] or self.enemy[j]:
                continue
            if dx and dy and (wall[y * w + nx] or wall[ny * w + x]):
                continue  # no cutting a wall's corner
            if dx and dy:
                step, nparity = (10 if parity else 5), parity ^ 1
            else:
                step, nparity = 5, parity
            if self.difficult[j]:
                step *= 2
            if self.engaged_doubles and foes[i] & foes[j]:
                step *= 2  # stays next to an opponent: melee move at half speed
            yield j, step + (5 if self.barrier[j] else 0), nparity


def _search(t: Terrain, start: int, engaged_doubles: bool, may_leave: bool,
            limit: int | None = None) -> tuple[list[int], list[int]]:
    n = t.width * t.height
    floor = _Floor(t, engaged_doubles)
    foes = floor.foes
    dist = [-1] * (2 * n)
    pred = [-1] * (2 * n)
    dist[2 * start] = 0
    heap = [(0, 2 * start)]
    while heap:
        d, s = heapq.heappop(heap)
        if d != dist[s]:
            continue  # stale entry
        i, parity = divmod(s, 2)
        for j, feet, nparity in floor.steps(i, parity):
            if not may_leave and foes[i] & ~foes[j]:
                continue  # the step leaves an opponent
            nd = d + feet
            if limit is not None and nd > limit:
                continue                        # past the bound: never settled
            ns = 2 * j + nparity
            if dist[ns] < 0 or nd < dist[ns]:  # strict: ties keep the first-found path
                dist[ns] = nd
                pred[ns] = s
                heapq.heappush(heap, (nd, ns))
    return dist, pred


# --- moves that leave opponents (parting shots) -------------------------------------------

@dataclass(frozen=True)
class FlightMap:
    """For every square, the best move to it that leaves at least one opponent (see
    :func:`flight_map`): fewest opponents left, then fewest feet, then the opponents first in
    :attr:`Terrain.foe_order`; ``None``/``()`` where no such move costs ≤ 2 × ``rate``.

    ``label_*`` are the search's partial moves (the JavaScript twin's arrays): feet, state
    (``index * 2 + parity``), the previous partial move (``-1`` at the start) and the bit mask
    of the opponents left so far; ``best`` holds each square's chosen one (``-1``: none).

    >>> m = flight_map(Terrain(4, 1, enemies={(0, 0)}), (1, 0), 10)
    >>> m.feet((3, 0)), m.foes((3, 0)), m.path_to((3, 0))
    (10, ((0, 0),), ((1, 0), (2, 0), (3, 0)))
    """

    terrain: Terrain
    start: Square
    rate: int
    engaged_doubles: bool
    best: tuple[int, ...]
    label_cost: tuple[int, ...]
    label_state: tuple[int, ...]
    label_pred: tuple[int, ...]
    label_foes: tuple[int, ...]

    def _label(self, square: Square) -> int:
        return self.best[self.terrain.index(square)] if self.terrain.inside(square) else -1

    def feet(self, square: Square) -> int | None:
        """Feet of the square's best move that leaves an opponent (``None``: none within
        2 × rate).

        >>> m = flight_map(Terrain(6, 1, enemies={(0, 0)}), (1, 0), 5)
        >>> m.feet((1, 0)), m.feet((5, 0))  # out and back again; 20 ft is past 2 × 5
        (10, None)
        """
        k = self._label(square)
        return None if k < 0 else self.label_cost[k]

    def foes(self, square: Square) -> tuple[Square, ...]:
        """The opponents that move leaves (each gets one parting shot), in
        :attr:`Terrain.foe_order`.

        >>> flight_map(Terrain(5, 1, enemies={(0, 0), (4, 0)}), (1, 0), 10).foes((3, 0))
        ((0, 0),)
        """
        k = self._label(square)
        return () if k < 0 else self.terrain.foes_of(self.label_foes[k])

    def path_to(self, square: Square) -> tuple[Square, ...]:
        """The squares of that move, start first (empty when there is none).

        >>> flight_map(Terrain(3, 1, enemies={(0, 0)}), (1, 0), 5).path_to((2, 0))
        ((1, 0), (2, 0))
        """
        k, out = self._label(square), []
        while k >= 0:
            out.append(self.terrain.square(self.label_state[k] // 2))
            k = self.label_pred[k]
        return tuple(reversed(out))


def flight_map(terrain: Terrain, start: object, rate: object, *,
               engaged_doubles: bool = False) -> FlightMap:
    """Moves within 2 × ``rate`` that leave at least one opponent, with the set of opponents
    each leaves: a parting shot is owed once per opponent, however often the move leaves it.

    Exact: a search over partial moves (square, diagonal parity, feet, opponents left so far)
    that drops a partial move only when another at the same square and parity costs no more
    and has left no opponent it has not (so none of its continuations can be better). Step
    costs as in :func:`cost_map` (``engaged_doubles``: a step that stays next to an opponent
    costs double). Partial moves are taken cheapest first (then fewest opponents left, then
    oldest), exactly as the JavaScript twin ``GridCost.flightMap`` does. A search that would
    make and compare more than :data:`~widgets.limits.MAX_FLIGHT_WORK` partial moves is
    refused.

    >>> t = Terrain(9, 2, blocked={(c, 0) for c in range(9)} - {(3, 0), (6, 0)},
    ...             enemies={(3, 0), (6, 0)})
    >>> m = flight_map(t, (0, 1), 40, engaged_doubles=True)
    >>> m.feet((5, 1)), m.foes((5, 1)), m.foes((8, 1))
    (35, ((3, 0),), ((3, 0), (6, 0)))
    """
    _terrain(terrain)
    s0 = terrain.check_start(start)
    r = check_rate(rate)
    engaged_doubles = require_bool(engaged_doubles, "engaged_doubles", "교전 중 이동 두 배 비용")
    t = terrain
    n = t.width * t.height
    bound = 2 * r
    floor = _Floor(t, engaged_doubles)
    foes = floor.foes
    cost: list[int] = []
    state: list[int] = []
    pred: list[int] = []
    left: list[int] = []
    alive: list[bool] = []
    none_left = [-1] * (2 * n)               # per state: the partial move that left no one
    front: list[list[int]] = [[] for _ in range(2 * n)]  # per state: the others kept
    heap: list[tuple[int, int, int]] = []
    work = [0]

    def add(feet: int, st: int, before: int, mask: int) -> None:
        if feet > bound:
            return
        work[0] += 1 + len(front[st])
        if work[0] > MAX_FLIGHT_WORK:
            raise RuleInputError(
                f"too many ways to flee past {len(t.enemies)} opponents: the search for fleeing "
                f"moves may make and compare at most {MAX_FLIGHT_WORK} partial moves",
                f"상대 {len(t.enemies)}명 곁을 지나 도주하는 길이 너무 많아 분리 사격을 셀 수 없습니다 "
                f"(따져 볼 이동이 {MAX_FLIGHT_WORK:,}개를 넘음). 적을 줄이거나 이동 속도를 낮추세요.")
        if mask == 0:
            old = none_left[st]
            if old >= 0 and cost[old] <= feet:
                return
            if old >= 0:
                alive[old] = False
        else:
            kept = front[st]
            for k in kept:
                if cost[k] <= feet and not left[k] & ~mask:
                    return  # as cheap, and left no one this one has not
            still = []
            for k in kept:
                if feet <= cost[k] and not mask & ~left[k]:
                    alive[k] = False
                else:
                    still.append(k)
            front[st] = still
        label = len(cost)
        cost.append(feet)
        state.append(st)
        pred.append(before)
        left.append(mask)
        alive.append(True)
        if mask == 0:
            none_left[st] = label
        else:
            front[st].append(label)
        heapq.heappush(heap, (feet, mask.bit_count(), label))

    add(0, 2 * t.index(s0), -1, 0)
    while heap:
        d, _, label = heapq.heappop(heap)
        if not alive[label]:
            continue
        i, parity = divmod(state[label], 2)
        for j, feet, nparity in floor.steps(i, parity):
            add(d + feet, 2 * j + nparity, label, left[label] | (foes[i] & ~foes[j]))
    best = [-1] * n
    for i in range(n):
        candidates = [k for st in (2 * i, 2 * i + 1) for k in front[st] if alive[k]]
        if candidates:
            best[i] = min(candidates, key=lambda k: (
                left[k].bit_count(), cost[k], [b for b in range(left[k].bit_length()) if left[k] >> b & 1],
                state[k]))
    return FlightMap(t, s0, r, engaged_doubles, tuple(best), tuple(cost), tuple(state),
                     tuple(pred), tuple(left))


# --- facing ------------------------------------------------------------------------------

def _facing(facing: object) -> Square:
    if not isinstance(facing, str) or facing not in FACING_STEP:
        raise RuleInputError(f"facing must be one of N, E, S, W, got {shown(facing)}",
                             f"방향은 N, E, S, W(북·동·남·서) 중 하나입니다 (입력값: {shown(facing)}).")
    return FACING_STEP[facing]


def rear_arc(square: object, facing: object) -> tuple[Square, ...]:
    """The 3 squares behind a one-square combatant: the row (or column) opposite its facing.

    >>> rear_arc((5, 5), "N")
    ((4, 6), (5, 6), (6, 6))
    """
    c, r = _square(square, "square", "칸")
    fc, fr = _facing(facing)
    bc, br = c - fc, r - fr
    if fc == 0:
        return ((bc - 1, br), (bc, br), (bc + 1, br))
    return ((bc, br - 1), (bc, br), (bc, br + 1))


def front_arc(square: object, facing: object) -> tuple[Square, ...]:
    """The 5 front and side squares (the only ones it can attack into).

    >>> front_arc((5, 5), "E")
    ((5, 4), (6, 5), (5, 6), (6, 4), (6, 6))
    """
    rear = set(rear_arc(square, facing))
    return tuple(n for n in neighbours8(_square(square, "square", "칸")) if n not in rear)


def is_behind(defender: object, facing: object, attacker: object) -> bool:
    """``True`` if ``attacker`` stands in one of ``defender``'s 3 rear squares.

    >>> is_behind((5, 5), "N", (4, 6)), is_behind((5, 5), "N", (4, 5))
    (True, False)
    """
    return _square(attacker, "attacker", "공격자") in rear_arc(defender, facing)


def least_rear_attackers(defender: object, attackers: Iterable[object]) -> tuple[int, tuple[str, ...]]:
    """The fewest attackers a defender aware of all of them can leave behind it, and the
    facings that achieve it.

    >>> least_rear_attackers((1, 1), [(0, 1), (2, 1)])
    (0, ('N', 'S'))
    >>> least_rear_attackers((1, 1), [(0, 0), (2, 2)])  # opposite diagonals
    (1, ('N', 'E', 'S', 'W'))
    """
    d = _square(defender, "defender", "방어자")
    foes = [_square(a, "attacker", "공격자") for a in require_items(attackers, "attackers", "공격자 목록", 8)]
    counts = {f: sum(a in rear_arc(d, f) for a in foes) for f in FACING_STEP}
    best = min(counts.values())
    return best, tuple(f for f in FACING_STEP if counts[f] == best)


# --- line of sight -----------------------------------------------------------------------

def _corners(sq: Square) -> tuple[Square, ...]:
    c, r = sq
    return ((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1))


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


def _hull(points: Iterable[Square]) -> list[Square]:
    pts = sorted(set(points))
    lower: list[Square] = []
    upper: list[Square] = []
    for chain, seq in ((lower, pts), (upper, pts[::-1])):
        for p in seq:
            while len(chain) >= 2 and _cross(chain[-1][0] - chain[-2][0], chain[-1][1] - chain[-2][1],
                                             p[0] - chain[-2][0], p[1] - chain[-2][1]) <= 0:
                chain.pop()
            chain.append(p)
    return lower[:-1] + upper[:-1]


def _meets_hull(sq: Square, hull: list[Square]) -> bool:
    """Closed square vs convex polygon, by separating axes (x, y and the hull's edges)."""
    corners = _corners(sq)
    axes = [(1, 0), (0, 1)] + [(hull[k - 1][1] - p[1], p[0] - hull[k - 1][0])
                               for k, p in enumerate(hull)]
    for ax, ay in axes:
        a = [ax * x + ay * y for x, y in corners]
        b = [ax * x + ay * y for x, y in hull]
        if max(a) < min(b) or min(a) > max(b):
            return False
    return True


def _relevant_walls(t: Terrain, a: Square, b: Square) -> list[Square]:
    """Walls touching the convex hull of the two squares: no other wall can meet a segment
    between them."""
    hull = _hull(_corners(a) + _corners(b))
    c0, c1 = min(a[0], b[0]), max(a[0], b[0])
    r0, r1 = min(a[1], b[1]), max(a[1], b[1])
    return [w for w in t.blocked if c0 - 1 <= w[0] <= c1 + 1 and r0 - 1 <= w[1] <= r1 + 1
            and w not in (a, b) and _meets_hull(w, hull)]


def _is_wall_corner(blocked: frozenset[Square], v: Square) -> bool:
    """A grid point where the wall union's outline turns (1 or 3 walls, or 2 diagonal)."""
    c, r = v
    nw, ne, sw, se = ((c - 1, r - 1) in blocked, (c, r - 1) in blocked,
                      (c - 1, r) in blocked, (c, r) in blocked)
    n = nw + ne + sw + se
    return n in (1, 3) or (n == 2 and nw == se)


def _in_hull(p: Square, hull: list[Square]) -> bool:
    signs = {_cross(q[0] - hull[k - 1][0], q[1] - hull[k - 1][1],
                    p[0] - hull[k - 1][0], p[1] - hull[k - 1][1]) for k, q in enumerate(hull)}
    return not (any(x > 0 for x in signs) and any(x < 0 for x in signs))


_ARC_SLACK = 1e-9  # angles between distinct grid directions differ by > 1e-4 rad


def _line_arc(u: Square, sq: Square) -> tuple[float, float] | None:
    """Directions (angle mod π: start, width) of the lines through ``u`` that meet closed
    ``sq``; ``None`` when every line does (``u`` on the square)."""
    if sq[0] <= u[0] <= sq[0] + 1 and sq[1] <= u[1] <= sq[1] + 1:
        return None
    phis = [math.atan2(y - u[1], x - u[0]) for x, y in _corners(sq)]
    rel = [(p - phis[0] + math.pi) % (2 * math.pi) - math.pi for p in phis]  # arc is < π wide
    return (phis[0] + min(rel)) % math.pi, max(rel) - min(rel)


def _in_arc(theta: float, arc: tuple[float, float] | None) -> bool:
    if arc is None:
        return True
    off = (theta - arc[0]) % math.pi
    return off <= arc[1] + _ARC_SLACK or off >= math.pi - _ARC_SLACK


def _half_plane(dx: int, dy: int) -> Square:
    g = math.gcd(dx, dy)
    dx, dy = dx // g, dy // g
    return (dx, dy) if dy > 0 or (dy == 0 and dx > 0) else (-dx, -dy)


def _interval(p0: tuple[int, int], k: int, d: Square, sq: Square) -> tuple[int, int]:
    """Where the line ``(p0 + t·d) / k`` runs inside closed ``sq`` (known to meet it), as
    ``t·|dx·dy|`` — whole numbers, in the line's order (``d`` is never axis-parallel)."""
    scale = (abs(d[1]) if d[0] > 0 else -abs(d[1]), abs(d[0]) if d[1] > 0 else -abs(d[0]))
    lo, hi = None, None
    for axis in (0, 1):
        t1 = (k * sq[axis] - p0[axis]) * scale[axis]
        t2 = (k * (sq[axis] + 1) - p0[axis]) * scale[axis]
        a, b = (t1, t2) if t1 < t2 else (t2, t1)
        lo = a if lo is None or a > lo else lo
        hi = b if hi is None or b < hi else hi
    return lo, hi  # type: ignore[return-value]


def _try_line(u: Square, d: Square, side: int, a: Square, b: Square, walls: list[Square]
              ) -> tuple[Point, Point] | None:
    """Test the line through ``u`` along ``d`` shifted by half a unit of cross product.

    Points p on it satisfy 2·cross(d, p − u) = side; every grid corner gives an odd value
    there, so the line passes through no corner, and no corner lies between it and the
    unshifted line except ``u`` itself: it is a generic line of one cell of lines.
    """
    dx, dy = d
    low, high = min(0, dx) + min(0, -dy), max(0, dx) + max(0, -dy)

    def meets(sq: Square) -> bool:
        # cross(d, corner − u) over the 4 corners spans base + [low, high]
        base = dx * (sq[1] - u[1]) - dy * (sq[0] - u[0])
        return 2 * (base + low) < side < 2 * (base + high)

    if not (meets(a) and meets(b)):
        return None
    k = 2 * (d[0] * d[0] + d[1] * d[1])
    # A point on the shifted line, scaled by k: k·u + side·(−dy, dx).
    p0 = (k * u[0] - side * d[1], k * u[1] + side * d[0])
    ia, ib = _interval(p0, k, d, a), _interval(p0, k, d, b)
    if ia[1] <= ib[0]:
        gap = (ia[1], ib[0])
    elif ib[1] <= ia[0]:
        gap = (ib[1], ia[0])
    else:  # distinct open squares cannot overlap on a line
        return None
    for w in walls:
        if meets(w):
            lo, hi = _interval(p0, k, d, w)
            if lo <= gap[1] and hi >= gap[0]:
                return None
    per_t = abs(d[0] * d[1])  # undo the interval scaling

    def at(scaled_t: Fraction) -> Point:
        t = scaled_t / per_t
        return (Fraction(p0[0]) / k + t * d[0] / k, Fraction(p0[1]) / k + t * d[1] / k)

    return at(Fraction(ia[0] + ia[1], 2)), at(Fraction(ib[0] + ib[1], 2))


def sight_line(terrain: Terrain, shooter: object, target: object) -> tuple[Point, Point] | None:
    """A clear segment from inside the shooter's square to inside the target's square, or
    ``None`` when walls block every such segment.

    Exact method: the lines that meet both squares form cells bounded by "line through a
    corner" events; feasibility is constant on a cell, and every cell borders some corner
    ``u``. So for each corner ``u`` of the two squares and the walls that can matter, and each
    gap between the directions from ``u`` to the other corners, one line on each side of ``u``
    is tested (see ``_try_line``). Only walls block; combatants do not (the source leaves
    shooting past allies to the GM).

    >>> t = Terrain(5, 3, blocked={(2, 0), (2, 1)})
    >>> sight_line(t, (0, 0), (4, 0)) is None, sight_line(t, (0, 2), (4, 1)) is not None
    (True, True)
    >>> centre_line_clear(t, (0, 2), (4, 1))  # only an off-centre line gets past the wall
    False
    """
    _terrain(terrain)
    a = _square(shooter, "shooter", "쏘는 쪽 칸")
    b = _square(target, "target", "표적 칸")
    for sq, en, ko in ((a, "shooter", "쏘는 쪽"), (b, "target", "표적")):
        if not terrain.inside(sq):
            raise RuleInputError(f"{en} square {sq} is off the grid", f"{ko} 칸 {particle(sq, '이/가')} 격자 밖입니다.")
        if sq in terrain.blocked:
            raise RuleInputError(f"{en} square {sq} is a wall", f"{ko} 칸 {particle(sq, '이/가')} 벽입니다.")
    half = Fraction(1, 2)
    centre_a, centre_b = (a[0] + half, a[1] + half), (b[0] + half, b[1] + half)
    if not _centre_line_hits(a, b, terrain.blocked):
        return centre_a, centre_b
    walls = _relevant_walls(terrain, a, b)
    hull = _hull(_corners(a) + _corners(b))
    # Cells change only where a line passes a corner of either square or a true corner of
    # the wall union inside the hull (the segment lives in the hull); others add nothing.
    wall_vertices = {v for w in walls for v in _corners(w)}
    vertices = list(dict.fromkeys(_corners(a) + _corners(b) + tuple(sorted(
        v for v in wall_vertices if _is_wall_corner(terrain.blocked, v) and _in_hull(v, hull)))))
    for u in vertices:  # the two squares' own corners first: most sight lines use them
        arcs = (_line_arc(u, a), _line_arc(u, b))
        dirs = {(1, 0), (0, 1)}
        for v in vertices:
            if v != u:
                d = _half_plane(v[0] - u[0], v[1] - u[1])
                theta = math.atan2(d[1], d[0])
                if all(_in_arc(theta, arc) for arc in arcs):  # lines missing a square can't help
                    dirs.add(d)
        ordered = sorted(dirs, key=lambda d: math.atan2(d[1], d[0]))
        for d1, d2 in zip(ordered, ordered[1:] + [(-ordered[0][0], -ordered[0][1])]):
            d = (d1[0] + d2[0], d1[1] + d2[1])  # strictly between: every gap is < 90°
            for side in (1, -1):
                seg = _try_line(u, d, side, a, b, walls)
                if seg is not None:
                    return seg
    return None


def has_line_of_sight(terrain: Terrain, shooter: object, target: object) -> bool:
    """``True`` if :func:`sight_line` finds a clear segment.

    >>> has_line_of_sight(Terrain(3, 3, blocked={(1, 0), (0, 1)}), (0, 0), (1, 1))
    False
    """
    return sight_line(terrain, shooter, target) is not None


def _seg_meets_box(p: Sequence, q: Sequence, x0: object, y0: object, x1: object, y1: object) -> bool:
    """Closed segment vs closed box by separating axes: x, y and the segment's normal."""
    if min(p[0], q[0]) > x1 or max(p[0], q[0]) < x0 or min(p[1], q[1]) > y1 or max(p[1], q[1]) < y0:
        return False
    ux, uy = q[0] - p[0], q[1] - p[1]
    sides = [ux * (y - p[1]) - uy * (x - p[0]) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    return not (all(v > 0 for v in sides) or all(v < 0 for v in sides))


def _centre_line_hits(a: Square, b: Square, blocked: frozenset[Square]) -> bool:
    # Doubled coordinates keep the centres whole numbers.
    p, q = (2 * a[0] + 1, 2 * a[1] + 1), (2 * b[0] + 1, 2 * b[1] + 1)
    c0, c1 = sorted((a[0], b[0]))
    r0, r1 = sorted((a[1], b[1]))
    return any(_seg_meets_box(p, q, 2 * w[0], 2 * w[1], 2 * w[0] + 2, 2 * w[1] + 2)
               for w in blocked if c0 <= w[0] <= c1 and r0 <= w[1] <= r1)


def segment_meets_square(p: Sequence[object], q: Sequence[object], square: Square) -> bool:
    """``True`` if segment ``pq`` touches the *closed* unit square (corners and edges count).

    >>> segment_meets_square((0, 0), (1, 1), (1, 1)), segment_meets_square((0, 1), (1, 0), (1, 1))
    (True, False)
    """
    pf, qf = _point(p, "p", "선분의 시작점"), _point(q, "q", "선분의 끝점")
    c, r = _square(square, "square", "칸")
    return _seg_meets_box(pf, qf, c, r, c + 1, r + 1)


def centre_line_clear(terrain: Terrain, shooter: object, target: object) -> bool:
    """``True`` if the segment between the two squares' centres touches no wall.

    >>> centre_line_clear(Terrain(3, 3, blocked={(1, 0)}), (0, 0), (2, 2))
    False
    """
    _terrain(terrain)
    a, b = _square(shooter, "shooter", "쏘는 쪽 칸"), _square(target, "target", "표적 칸")
    return not _centre_line_hits(a, b, terrain.blocked)


def visible_squares(terrain: Terrain, shooter: object) -> frozenset[Square]:
    """Every non-wall square the shooter has a line of sight to (the "fog of war" view).

    >>> sorted(visible_squares(Terrain(3, 1, blocked={(1, 0)}), (0, 0)))
    [(0, 0)]
    """
    _terrain(terrain)
    _square(shooter, "shooter", "쏘는 쪽 칸")
    return frozenset((c, r) for r in range(terrain.height) for c in range(terrain.width)
                     if (c, r) not in terrain.blocked
                     and sight_line(terrain, shooter, (c, r)) is not None)
