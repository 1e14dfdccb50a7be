"""Whole fights, exactly: absorbing chains stepped round by round (the generic layer beside
:mod:`widgets.dice`).

A fight is a small state (HP lost so far, a "hard next action" flag, markers …) that one step
(a round, a turn, an attack) moves at random, until it falls into a *result* (the target is
down, side A won …) and stays there. A game builds the step from its own rules module as a
:class:`Chain`: each state's row maps the next state, or a result key, to its exact
probability. :func:`walk` steps one chain; :func:`race` runs two independent chains side by side
(each side's attacks bring the other down, whoever falls first loses). Both return
:class:`FightOdds`: the exact chance of each result at each step, and the rest.

Everything is exact: rows become integer weights over one common denominator, so a step is a
few integer multiply-adds per state, and every listed probability plus ``rest`` sums to exactly
1. An open-ended fight is listed step by step until ``rest`` is at most
:data:`~widgets.limits.OPEN_REST` (one in a million); a fight with a fixed end (a list of
chains) is listed to its end. Nothing is cut silently: a fight whose length cannot be bounded
within :data:`~widgets.limits.MAX_FIGHT_STEPS` steps and the work limits is refused before
the exact run starts (:func:`length` plans it in floats, :func:`~widgets.limits.check_fight`
bounds it), and an exact run that would pass its plan raises
:class:`~widgets.errors.RuleInputError`.

>>> coin = Chain({"up": {"up": Fraction(1, 2), "heads": Fraction(1, 2)}}, keys=("heads",))
>>> odds = walk(coin, "up")
>>> odds.steps, odds.rest, odds.chance("heads", by=2)
(20, Fraction(1, 1048576), Fraction(3, 4))
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Hashable, Mapping, Sequence

from . import limits
from .errors import RuleInputError, require_int, shown


class FightOdds:
    """The exact course of a fight: per step, the chance that it ended then with each result.

    ``ends[k - 1]`` maps each result key to the chance that the fight ended at step ``k`` with
    that result; ``rest`` is the chance that it has not ended after the last listed step (for a
    fight with a fixed end, ``fixed_end`` is true and ``rest`` is the chance that it ended
    with no listed result). ``details`` (optional) lists, per step, the chances of sub-results:
    each detail key names part of one result key (``detail_of``), e.g. "the loser fell to the
    death threshold". The listed chances and ``rest`` sum to exactly 1 (checked here).

    >>> odds = FightOdds(("win",), [{"win": Fraction(1, 2)}, {"win": Fraction(1, 4)}], Fraction(1, 4))
    >>> odds.steps, odds.chance("win"), odds.chance("win", by=1), odds.cumulative("win")
    (2, Fraction(3, 4), Fraction(1, 2), [Fraction(1, 2), Fraction(3, 4)])
    >>> odds.mean_steps("win")   # of the fights that ended with "win" within the listed steps
    Fraction(4, 3)
    """

    __slots__ = ("_keys", "_ends", "_rest", "_fixed", "_details", "_detail_of")

    def __init__(self, keys: Sequence[str], ends: Sequence[Mapping[str, Fraction]], rest: Fraction,
                 *, fixed_end: bool = False, details: "Sequence[Mapping[str, Fraction]] | None" = None,
                 detail_of: "Mapping[str, str] | None" = None):
        keys = tuple(keys)
        ends = [{key: Fraction(end[key]) for key in keys} for end in ends]
        detail_of = dict(detail_of or {})
        details = [{key: Fraction(d[key]) for key in detail_of} for d in details] \
            if details is not None else [dict.fromkeys(detail_of, Fraction(0)) for _ in ends]
        rest = Fraction(rest)
        if not keys or len(details) != len(ends) or any(k not in keys for k in detail_of.values()):
            raise ValueError("FightOdds needs result keys, and details that name them, step by step")
        probabilities = [p for end in ends for p in end.values()] + [rest]
        if any(not 0 <= p <= 1 for p in probabilities) or sum(probabilities) != 1:
            raise ValueError("the listed chances and the rest must sum to exactly 1")
        for end, part in zip(ends, details):
            if any(not 0 <= p <= end[detail_of[key]] for key, p in part.items()):
                raise ValueError("a detail is part of its result, never more")
        object.__setattr__(self, "_keys", keys)
        object.__setattr__(self, "_ends", ends)
        object.__setattr__(self, "_rest", rest)
        object.__setattr__(self, "_fixed", bool(fixed_end))
        object.__setattr__(self, "_details", details)
        object.__setattr__(self, "_detail_of", detail_of)

    def __setattr__(self, name, value):
        raise AttributeError("FightOdds is immutable")

    @property
    def keys(self) -> tuple[str, ...]:
        """The result keys, in the game's order."""
        return self._keys

    @property
    def ends(self) -> list[dict[str, Fraction]]:
        """One dict per step: result key → chance that the fight ended at that step with it."""
        return [dict(end) for end in self._ends]

    @property
    def details(self) -> list[dict[str, Fraction]]:
        """One dict per step: detail key → chance of that sub-result at that step."""
        return [dict(d) for d in self._details]

    @property
    def detail_of(self) -> dict[str, str]:
        """Detail key → the result key it is part of."""
        return dict(self._detail_of)

    @property
    def rest(self) -> Fraction:
        """Chance that the fight has not ended (with a listed result) after the last step."""
        return self._rest

    @property
    def fixed_end(self) -> bool:
        """True when the game's fight has a fixed last step (then ``rest`` never ends later)."""
        return self._fixed

    @property
    def steps(self) -> int:
        """Number of listed steps."""
        return len(self._ends)

    def _series(self, key: str) -> list[Fraction]:
        if isinstance(key, str) and key in self._keys:
            return [end[key] for end in self._ends]
        if isinstance(key, str) and key in self._detail_of:
            return [d[key] for d in self._details]
        names = ", ".join(repr(k) for k in (*self._keys, *self._detail_of))
        raise RuleInputError(f"key must be one of {names}, got {shown(key)}",
                             f"결과는 {names} 가운데 하나여야 합니다 (입력값: {shown(key)}).")

    def _by(self, by: "int | None") -> int:
        """Steps to count: past the last listed step only when nothing can happen there (the
        fight has a fixed end, or nothing is left)."""
        if by is None:
            return self.steps
        known = limits.MAX_FIGHT_STEPS if self._fixed or not self._rest else self.steps
        return min(self.steps, require_int(by, "by", "몇 번째까지", 0, known))

    def chance(self, key: str, by: "int | None" = None) -> Fraction:
        """Chance of ``key`` (a result or a detail) by step ``by`` (default: every listed step;
        a later step only when the fight cannot go on past the listed ones).

        >>> FightOdds(("down",), [{"down": Fraction(1, 3)}], Fraction(2, 3)).chance("down", by=0)
        Fraction(0, 1)
        """
        return sum(self._series(key)[:self._by(by)], Fraction(0))

    def ended(self, by: "int | None" = None) -> Fraction:
        """Chance that the fight ended with any result by step ``by``.

        >>> FightOdds(("a", "b"), [{"a": Fraction(1, 3), "b": Fraction(1, 3)}], Fraction(1, 3)).ended()
        Fraction(2, 3)
        """
        return sum((sum(end.values(), Fraction(0)) for end in self._ends[:self._by(by)]), Fraction(0))

    def cumulative(self, key: str) -> list[Fraction]:
        """Chance of ``key`` by step 1, 2, … (one number per listed step), for a table or a plot.

        >>> FightOdds(("x",), [{"x": Fraction(1, 2)}, {"x": Fraction(1, 4)}], Fraction(1, 4)).cumulative("x")
        [Fraction(1, 2), Fraction(3, 4)]
        """
        out, total = [], Fraction(0)
        for p in self._series(key):
            total += p
            out.append(total)
        return out

    def mean_steps(self, key: "str | None" = None) -> "Fraction | None":
        """Mean step at which the fight ended, over the fights that ended within the listed
        steps (with ``key``, or with any result); ``None`` when none did. When ``rest`` is 0
        this is the exact expected length; otherwise it leaves out the ``rest`` (at most one in
        a million for an open-ended fight).

        >>> FightOdds(("x",), [{"x": Fraction(1, 2)}, {"x": Fraction(1, 2)}], Fraction(0)).mean_steps()
        Fraction(3, 2)
        """
        if key is None:
            series = [sum(end.values(), Fraction(0)) for end in self._ends]
        else:
            series = self._series(key)
        total = sum(series, Fraction(0))
        if not total:
            return None
        return sum((k * p for k, p in enumerate(series, start=1)), Fraction(0)) / total

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FightOdds):
            return NotImplemented
        return (self._keys, self._ends, self._rest, self._fixed, self._details, self._detail_of) == \
            (other._keys, other._ends, other._rest, other._fixed, other._details, other._detail_of)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"FightOdds(keys={self._keys}, steps={self.steps}, rest={self._rest}"
                + (", fixed_end=True" if self._fixed else "") + ")")


class Chain:
    """One step of a fight as an absorbing chain: ``rows`` maps each live state to
    ``{next state or result key: probability}`` (exact: ``Fraction`` or whole numbers, each row
    summing to 1); ``keys`` are the result keys (absorbing). States are any hashable values
    other than the result keys; the order of ``rows`` is the chain's state order.

    Rows become integer weights over one common denominator (:attr:`denominator`), so a step
    multiplies and adds integers only.

    >>> chain = Chain({0: {0: Fraction(1, 2), 1: Fraction(1, 2)}, 1: {1: Fraction(1, 2), "down": Fraction(1, 2)}},
    ...               keys=("down",))
    >>> chain.states, chain.denominator, chain.work
    ((0, 1), 2, 4)
    """

    __slots__ = ("states", "keys", "denominator", "work", "_moves", "_ends", "_index")

    def __init__(self, rows: Mapping[Hashable, Mapping[Hashable, "Fraction | int"]], keys: Sequence[str]):
        keys = tuple(keys)
        if not isinstance(rows, Mapping) or not rows or not keys or len(set(keys)) != len(keys):
            raise ValueError("a chain needs at least one state and distinct result keys")
        states = tuple(rows)
        index = {state: i for i, state in enumerate(states)}
        if any(state in keys for state in states):
            raise ValueError("a state may not be named like a result key")
        key_index = {key: i for i, key in enumerate(keys)}
        fractions = []
        for state in states:
            row = {target: Fraction(p) for target, p in rows[state].items()}
            if any(p < 0 for p in row.values()) or sum(row.values()) != 1:
                raise ValueError(f"the row of state {state!r} must be probabilities summing to 1")
            unknown = [t for t in row if t not in index and t not in key_index]
            if unknown:
                raise ValueError(f"state {state!r} moves to {unknown[0]!r}, neither a state nor a result")
            fractions.append(row)
        denominator = math.lcm(*(p.denominator for row in fractions for p in row.values()))
        moves, ends = [], []
        for row in fractions:
            moves.append(tuple((index[t], p.numerator * (denominator // p.denominator))
                               for t, p in row.items() if p and t in index))
            ends.append(tuple((key_index[t], p.numerator * (denominator // p.denominator))
                              for t, p in row.items() if p and t in key_index))
        self.states, self.keys, self.denominator = states, keys, denominator
        self.work = sum(len(m) + len(e) for m, e in zip(moves, ends))
        self._moves, self._ends, self._index = tuple(moves), tuple(ends), index

    def __setattr__(self, name, value):
        if hasattr(self, "_index"):
            raise AttributeError("Chain is immutable")
        object.__setattr__(self, name, value)

    def start(self, state: Hashable) -> list[int]:
        """The weights of a fight that starts in ``state`` (weight 1 there, over denominator 1).

        >>> Chain({"a": {"win": 1}}, keys=("win",)).start("a")
        [1]
        """
        if state not in self._index:
            raise ValueError(f"{state!r} is not a state of this chain")
        weights = [0] * len(self.states)
        weights[self._index[state]] = 1
        return weights

    def step(self, weights: Sequence[int]) -> tuple[list[int], list[int]]:
        """One step from integer ``weights`` over some denominator ``d``: the live weights and the
        weights absorbed into each result key, both over ``d × denominator``.

        >>> Chain({"a": {"a": Fraction(2, 3), "win": Fraction(1, 3)}}, keys=("win",)).step([1])
        ([2], [1])
        """
        live = [0] * len(self.states)
        ended = [0] * len(self.keys)
        for weight, moves, ends in zip(weights, self._moves, self._ends):
            if weight:
                for target, q in moves:
                    live[target] += weight * q
                for key, q in ends:
                    ended[key] += weight * q
        return live, ended


def _folded(ended: Sequence[Fraction], keys: Sequence[str], main: tuple[str, ...],
            detail_of: Mapping[str, str], main_of: Mapping[str, str]
            ) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """A chain's per-key chances as the result keys and their details."""
    end = dict.fromkeys(main, Fraction(0))
    part = dict.fromkeys(detail_of, Fraction(0))
    for key, p in zip(keys, ended):
        end[main_of.get(key, key)] += p
        if key in detail_of:
            part[key] += p
    return end, part


def walk(chain: "Chain | Sequence[Chain]", start: Hashable, *,
         detail_of: "Mapping[str, str] | None" = None, min_steps: int = 1) -> FightOdds:
    """Step ``chain`` from ``start``: until ``rest`` is at most one in a million (one chain;
    refused at once with :class:`RuleInputError` when :func:`length` finds no end within the
    limits), or once per chain of a list (a fight with a fixed end; all
    chains share one state order). ``detail_of`` maps result keys of the chain that are parts
    of another result (a sub-result) to that result: they are added into it in ``ends`` and
    listed alone in ``details``. ``min_steps``: list at least that many steps of an
    open-ended fight (a game whose question is "by step 3" asks for 3).

    >>> hits = Chain({2: {2: Fraction(1, 2), 1: Fraction(1, 2)}, 1: {1: Fraction(1, 2), "down": Fraction(1, 2)}},
    ...              keys=("down",))
    >>> [end["down"] for end in walk(hits, 2).ends[:3]]
    [Fraction(0, 1), Fraction(1, 4), Fraction(1, 4)]
    >>> walk([hits, hits], 2).rest
    Fraction(3, 4)
    """
    chains = [chain] if isinstance(chain, Chain) else list(chain)
    fixed = not isinstance(chain, Chain)
    if not chains or any(not isinstance(c, Chain) or c.states != chains[0].states
                         or c.keys != chains[0].keys for c in chains):
        raise ValueError("walk needs a Chain, or a list of chains over the same states and results")
    keys = chains[0].keys
    detail_of = dict(detail_of or {})
    main = tuple(k for k in keys if k not in detail_of)
    min_steps = require_int(min_steps, "min_steps", "최소 단계 수", 1, limits.MAX_FIGHT_STEPS)
    max_steps = len(chains) if fixed else max(min_steps, _planned([(chains[0], start)]))
    weights, denominator = chains[0].start(start), 1
    ends, details = [], []
    rest = Fraction(1)
    for number in range(max_steps):
        current = chains[number] if fixed else chains[0]
        weights, ended = current.step(weights)
        denominator *= current.denominator
        end, part = _folded([Fraction(w, denominator) for w in ended], keys, main, detail_of, detail_of)
        ends.append(end)
        details.append(part)
        live = sum(weights)
        rest = Fraction(live, denominator)
        if not fixed and number + 1 >= min_steps and live * limits.OPEN_REST_DENOMINATOR <= denominator:
            break
    else:
        if not fixed:
            raise _too_long(max_steps)
    return FightOdds(main, ends, rest, fixed_end=fixed, details=details, detail_of=detail_of)


def race(first: Chain, first_start: Hashable, second: Chain, second_start: Hashable, *,
         keys: tuple[str, str],
         first_details: "Mapping[str, str] | None" = None,
         second_details: "Mapping[str, str] | None" = None, min_steps: int = 1) -> FightOdds:
    """Two sides that act in turn each step, ``first`` then ``second``, each side's attacks a
    chain of its own that ends when the *other* side is down (any result key of that chain).
    The chains must be independent: what one side rolls never changes the other's chain. The
    fight ends at the first side down: ``keys[0]`` wins at step ``t`` when ``first``'s chain
    ends at ``t`` and ``second``'s has not ended before ``t`` (``first`` acts first within a
    step); ``keys[1]`` wins when ``second``'s chain ends at ``t`` and ``first``'s has not ended
    by ``t``. ``first_details``/``second_details`` name result keys of a side's chain as
    details (sub-results) of that side's win. Steps until ``rest`` is at most one in a million
    (refused at once, as :func:`walk`, when :func:`length` finds no end within the limits).

    >>> coin = Chain({"up": {"up": Fraction(1, 2), "down": Fraction(1, 2)}}, keys=("down",))
    >>> odds = race(coin, "up", coin, "up", keys=("a", "b"))
    >>> odds.ends[0], odds.chance("a") + odds.chance("b") + odds.rest
    ({'a': Fraction(1, 2), 'b': Fraction(1, 4)}, Fraction(1, 1))
    """
    if not isinstance(first, Chain) or not isinstance(second, Chain):
        raise ValueError("race needs two chains")
    if not (isinstance(keys, tuple) and len(keys) == 2 and all(isinstance(k, str) for k in keys)
            and keys[0] != keys[1]):
        raise ValueError("race needs two result keys")
    min_steps = require_int(min_steps, "min_steps", "최소 단계 수", 1, limits.MAX_FIGHT_STEPS)
    max_steps = max(min_steps, _planned([(first, first_start), (second, second_start)]))
    first_details, second_details = dict(first_details or {}), dict(second_details or {})
    detail_of = {**{d: keys[0] for d in first_details.values()},
                 **{d: keys[1] for d in second_details.values()}}
    if len(detail_of) != len(first_details) + len(second_details) or set(detail_of) & set(keys):
        raise ValueError("details need names of their own")
    sides = []
    for chain, start in ((first, first_start), (second, second_start)):
        sides.append([chain, chain.start(start), 1])
    alive = [Fraction(1), Fraction(1)]   # chance that each side's chain has not ended yet
    ends, details = [], []
    for number in range(max_steps):
        ended_now = []
        for side in sides:
            chain, weights, denominator = side
            weights, ended = chain.step(weights)
            denominator *= chain.denominator
            ended_now.append([Fraction(w, denominator) for w in ended])
            side[1], side[2] = weights, denominator
        before = list(alive)
        alive = [Fraction(sum(side[1]), side[2]) for side in sides]
        end = {keys[0]: sum(ended_now[0], Fraction(0)) * before[1],
               keys[1]: sum(ended_now[1], Fraction(0)) * alive[0]}
        part = {}
        for (chain, _, _), chances, names, other in ((sides[0], ended_now[0], first_details, before[1]),
                                                     (sides[1], ended_now[1], second_details, alive[0])):
            for key, p in zip(chain.keys, chances):
                if key in names:
                    part[names[key]] = part.get(names[key], Fraction(0)) + p * other
        ends.append(end)
        details.append({d: part.get(d, Fraction(0)) for d in detail_of})
        rest = alive[0] * alive[1]
        if number + 1 >= min_steps and rest * limits.OPEN_REST_DENOMINATOR <= 1:
            break
    else:
        raise _too_long(max_steps)
    return FightOdds(keys, ends, rest, details=details, detail_of=detail_of)


def _planned(sides: "Sequence[tuple[Chain, Hashable]]") -> int:
    """The steps the exact run may take (the float plan and one more for rounding), refused
    at once past the limits."""
    steps = length(sides)
    limits.check_fight(steps, sum(chain.work for chain, _ in sides),
                       sum(chain.denominator.bit_length() for chain, _ in sides))
    return steps + 1   # type: ignore[operator]   # check_fight refused None


def _too_long(steps: int) -> RuleInputError:
    return RuleInputError(
        f"the fight did not come within one in a million of its end in {steps} steps",
        f"이 싸움은 {steps}단계 안에 끝날 확률이 100만분의 1 이내로 좁혀지지 않아 계산을 멈췄습니다. "
        "명중 확률이나 피해를 높이거나 HP를 줄여 주세요.")


def length(sides: "Sequence[tuple[Chain, Hashable]]") -> "int | None":
    """The steps an open-ended fight needs until what is left is at most one in a million (half
    of it, for rounding): ``sides`` are independent chains with their starts, stepped together,
    and the fight goes on while every one of them does (one chain for :func:`walk`, two for
    :func:`race`). Computed in floats, within :data:`~widgets.limits.MAX_FIGHT_PLAN` moves:
    ``None`` when that is not enough (a fight that may never end, or one too long to list).

    >>> coin = Chain({"up": {"up": Fraction(1, 2), "heads": Fraction(1, 2)}}, keys=("heads",))
    >>> length([(coin, "up")]), length([(coin, "up"), (coin, "up")])
    (21, 11)
    >>> length([(Chain({"up": {"up": 1}, "x": {"heads": 1}}, keys=("heads",)), "up")]) is None
    True
    """
    goal = float(limits.OPEN_REST) / 2
    plans = []
    for chain, start in sides:
        rows = [(tuple((t, q / chain.denominator) for t, q in moves), sum(q for _, q in ends) / chain.denominator)
                for moves, ends in zip(chain._moves, chain._ends)]
        plans.append((rows, [float(w) for w in chain.start(start)]))
    budget = limits.MAX_FIGHT_PLAN
    work = sum(len(chain.states) + chain.work for chain, _ in sides)
    for step in range(1, limits.MAX_FIGHT_STEPS + 1):
        budget -= work
        if budget < 0:
            return None
        rest = 1.0
        for number, (rows, weights) in enumerate(plans):
            live = [0.0] * len(weights)
            for weight, (moves, _) in zip(weights, rows):
                if weight:
                    for target, q in moves:
                        live[target] += weight * q
            plans[number] = (rows, live)
            rest *= sum(live)
        if rest <= goal:
            return step
    return None


__all__ = ["Chain", "FightOdds", "length", "race", "walk"]
