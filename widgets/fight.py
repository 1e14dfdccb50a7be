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
from .dice import _power_reader as power_reader   # the fractions of a fight read as a Dist reads its own
from .errors import RuleInputError, particle, require_int, shown


def _bad(english: str, korean: str) -> RuleInputError:
    return RuleInputError(english, korean)


class FightOdds:
    """The exact course of a fight: per step, the chance that it ended then with each result.

    ``ends[k - 1]`` maps each result key to the chance that the fight ended at step ``k`` with
    that result; ``rest`` is the chance that it has not ended after the last listed step (for a
    fight with a fixed end, ``fixed_end`` is true and ``rest`` is the chance that it ended
    with no listed result). ``details`` (optional) lists, per step, the chances of sub-results:
    each detail key names part of one result key (``detail_of``), e.g. "the loser fell to the
    death threshold". The listed chances and ``rest`` sum to exactly 1 (checked here). Inside,
    every chance is a whole number over one common denominator, so sums and means are integer
    sums and each :class:`~fractions.Fraction` is made once, when read.

    >>> odds = FightOdds(("win",), [{"win": Fraction(1, 2)}, {"win": Fraction(1, 4)}], Fraction(1, 4))
    >>> odds.steps, odds.chance("win"), odds.chance("win", by=1), odds.cumulative("win")
    (2, Fraction(3, 4), Fraction(1, 2), [Fraction(1, 2), Fraction(3, 4)])
    >>> odds.mean_steps("win")   # of the fights that ended with "win" within the listed steps
    Fraction(4, 3)
    """

    __slots__ = ("_keys", "_detail_of", "_fixed", "_bases", "_num", "_rest", "_read", "_cache")

    def __init__(self, keys: Sequence[str], ends: Sequence[Mapping[str, Fraction]], rest: Fraction,
                 *, fixed_end: bool = False, details: "Sequence[Mapping[str, Fraction]] | None" = None,
                 detail_of: "Mapping[str, str] | None" = None):
        keys, detail_of = tuple(keys), dict(detail_of or {})
        details = [dict(d) for d in details] if details is not None else [{} for _ in ends]
        if len(details) != len(ends):
            raise _bad("FightOdds needs one dict of details per step", "세부 결과는 단계마다 하나씩 주어야 합니다.")
        series = {key: [Fraction(end[key]) for end in ends] for key in keys}
        series.update({key: [Fraction(d.get(key, 0)) for d in details] for key in detail_of})
        rest = Fraction(rest)
        den = math.lcm(rest.denominator, *(p.denominator for ps in series.values() for p in ps))
        bases = [den] + [1] * (len(ends) - 1) if ends else []
        self._set(keys, detail_of, fixed_end, bases,
                  {key: [p.numerator * (den // p.denominator) for p in ps] for key, ps in series.items()},
                  rest.numerator * (den // rest.denominator) if ends else rest)

    @classmethod
    def _weights(cls, keys: tuple[str, ...], detail_of: Mapping[str, str], fixed_end: bool,
                 bases: Sequence[int], numerators: Mapping[str, list[int]], rest: int) -> "FightOdds":
        """From whole numbers (what :func:`walk` and :func:`race` make): those of step ``k`` over
        ``bases[0] × … × bases[k - 1]``, ``rest`` over the product of all ``bases``."""
        out = object.__new__(cls)
        out._set(keys, dict(detail_of), fixed_end, list(bases), dict(numerators), rest)
        return out

    def _set(self, keys, detail_of, fixed_end, bases, numerators, rest) -> None:
        if (not keys or len(set(keys)) != len(keys) or set(numerators) != {*keys, *detail_of}
                or any(len(ns) != len(bases) for ns in numerators.values())
                or any(main not in keys for main in detail_of.values())
                or any(not isinstance(b, int) or b < 1 for b in bases)):
            raise _bad("FightOdds needs distinct result keys, and per step one chance of each result "
                       "and each detail of a result", "결과 이름은 서로 달라야 하고, 단계마다 모든 결과의 확률이 있어야 합니다.")
        total = 0
        for k, base in enumerate(bases):
            total = total * base + sum(numerators[key][k] for key in keys)
        if rest < 0 or any(n < 0 for ns in numerators.values() for n in ns) \
                or total + rest != math.prod(bases):
            raise _bad("the listed chances and the rest must sum to exactly 1",
                       "나열한 확률과 나머지의 합이 정확히 1이어야 합니다.")
        if any(part > whole for key, main in detail_of.items()
               for part, whole in zip(numerators[key], numerators[main])):
            raise _bad("a detail is part of its result, never more", "세부 결과의 확률은 그 결과의 확률보다 클 수 없습니다.")
        if bases and all(base == bases[0] for base in bases):   # never factor base ** k
            read = power_reader(bases[0])
        else:                                                   # a short list, or made by hand
            dens = [1]
            for base in bases:
                dens.append(dens[-1] * base)
            read = lambda n, k: Fraction(n, dens[k])   # noqa: E731
        for name, value in (("_keys", keys), ("_detail_of", detail_of), ("_fixed", bool(fixed_end)),
                            ("_bases", tuple(bases)), ("_num", numerators), ("_rest", rest),
                            ("_read", read), ("_cache", {})):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("FightOdds is immutable")

    @property
    def keys(self) -> tuple[str, ...]:
        """The result keys, in the game's order."""
        return self._keys

    def _table(self, names: Sequence[str]) -> list[dict[str, Fraction]]:
        key = tuple(names)
        if key not in self._cache:
            self._cache[key] = [{name: self._read(self._num[name][k], k + 1) for name in names}
                                for k in range(self.steps)]
        return [dict(row) for row in self._cache[key]]

    @property
    def ends(self) -> list[dict[str, Fraction]]:
        """One dict per step: result key → chance that the fight ended at that step with it."""
        return self._table(self._keys)

    @property
    def details(self) -> list[dict[str, Fraction]]:
        """One dict per step: detail key → chance of that sub-result at that step."""
        return self._table(tuple(self._detail_of))

    @property
    def detail_of(self) -> dict[str, str]:
        """Detail key → the result key it is part of."""
        return dict(self._detail_of)

    @property
    def rest(self) -> Fraction:
        """Chance that the fight has not ended (with a listed result) after the last step."""
        return self._read(self._rest, self.steps)

    @property
    def fixed_end(self) -> bool:
        """True when the game's fight has a fixed last step (then ``rest`` never ends later)."""
        return self._fixed

    @property
    def steps(self) -> int:
        """Number of listed steps."""
        return len(self._bases)

    def _series(self, key: str) -> list[int]:
        if isinstance(key, str) and key in self._num:
            return self._num[key]
        names = ", ".join(repr(k) for k in self._num)
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
        steps = self._by(by)
        return self._read(self._sum(self._series(key), steps), steps)

    def ended(self, by: "int | None" = None) -> Fraction:
        """Chance that the fight ended with any result by step ``by``.

        >>> FightOdds(("a", "b"), [{"a": Fraction(1, 3), "b": Fraction(1, 3)}], Fraction(1, 3)).ended()
        Fraction(2, 3)
        """
        steps = self._by(by)
        return self._read(sum(self._sum(self._num[key], steps) for key in self._keys), steps)

    def cumulative(self, key: str) -> list[Fraction]:
        """Chance of ``key`` by step 1, 2, … (one number per listed step), for a table or a plot.

        >>> FightOdds(("x",), [{"x": Fraction(1, 2)}, {"x": Fraction(1, 4)}], Fraction(1, 4)).cumulative("x")
        [Fraction(1, 2), Fraction(3, 4)]
        """
        out, total = [], 0
        for k, (n, base) in enumerate(zip(self._series(key), self._bases), start=1):
            total = total * base + n
            out.append(self._read(total, k))
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
            series = [sum(ns) for ns in zip(*(self._num[k] for k in self._keys))]
        else:
            series = self._series(key)
        total = self._sum(series, self.steps)
        if not total:
            return None
        return Fraction(self._sum([k * n for k, n in enumerate(series, start=1)], self.steps), total)

    def _sum(self, series: Sequence[int], steps: int) -> int:
        """The sum of the first ``steps`` chances of ``series``, over the denominator of step
        ``steps``."""
        total = 0
        for n, base in zip(series[:steps], self._bases):
            total = total * base + n
        return total

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FightOdds):
            return NotImplemented
        return (self._keys, self._detail_of, self._fixed, self.steps) == \
            (other._keys, other._detail_of, other._fixed, other.steps) and \
            self.rest == other.rest and self._table(sorted(self._num)) == other._table(sorted(other._num))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"FightOdds(keys={self._keys}, steps={self.steps}, rest={self.rest}"
                + (", fixed_end=True" if self._fixed else "") + ")")


class Chain:
    """One step of a fight as an absorbing chain: ``rows`` maps each live state to
    ``{next state or result key: probability}``, exact: ``Fraction`` values summing to 1, or
    whole-number weights (``int``), read relative to their row's total; ``keys`` are the result
    keys (absorbing). States are any hashable values other than the result keys; the order of
    ``rows`` is the chain's state order.

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
            raise _bad("a chain needs at least one state and distinct result keys",
                       "싸움의 사슬에는 상태가 하나 이상, 서로 다른 결과 이름이 있어야 합니다.")
        states = tuple(rows)
        index = {state: i for i, state in enumerate(states)}
        if any(state in keys for state in states):
            raise _bad("a state may not be named like a result key", "상태 이름이 결과 이름과 같을 수 없습니다.")
        key_index = {key: i for i, key in enumerate(keys)}
        weighted = []                  # per row: (whole-number weights, their total)
        for state in states:
            row = dict(rows[state])
            unknown = [t for t in row if t not in index and t not in key_index]
            if unknown:
                raise _bad(f"state {shown(state)} moves to {shown(unknown[0])}, neither a state nor a result",
                           f"상태 {shown(state)}에서 가는 곳 {particle(shown(unknown[0]), '은/는')} 상태도 결과도 아닙니다.")
            if all(type(w) is int for w in row.values()):   # whole-number weights: relative
                total = sum(row.values())
                good = total > 0 and all(w >= 0 for w in row.values())
            else:
                fractions = {t: Fraction(p) for t, p in row.items()}
                total = math.lcm(*(p.denominator for p in fractions.values()))
                row = {t: p.numerator * (total // p.denominator) for t, p in fractions.items()}
                good = all(w >= 0 for w in row.values()) and sum(row.values()) == total
            if not good:
                raise _bad(f"the row of state {shown(state)} must be probabilities summing to 1, or "
                           "whole-number weights", f"상태 {shown(state)}의 확률은 합이 1인 분수나 정수 가중치여야 합니다.")
            weighted.append((row, total))
        denominator = math.lcm(*(total for _, total in weighted))
        moves, ends = [], []
        for row, total in weighted:
            scale = denominator // total
            moves.append(tuple((index[t], w * scale) for t, w in row.items() if w and t in index))
            ends.append(tuple((key_index[t], w * scale) for t, w in row.items() if w and t in key_index))
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
            raise _bad(f"{shown(state)} is not a state of this chain",
                       f"{particle(shown(state), '은/는')} 이 사슬의 상태가 아닙니다.")
        weights = [0] * len(self.states)
        weights[self._index[state]] = 1
        return weights

    def _can_end(self, state: Hashable) -> bool:
        """Whether some result can be reached from ``state`` at all."""
        seen, todo = set(), [self.start(state).index(1)]
        while todo:
            i = todo.pop()
            if self._ends[i]:
                return True
            for target, _ in self._moves[i]:
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return False

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


def walk(chain: "Chain | Sequence[Chain]", start: Hashable, *,
         detail_of: "Mapping[str, str] | None" = None, min_steps: int = 1) -> FightOdds:
    """Step ``chain`` from ``start``: until ``rest`` is at most one in a million (one chain;
    refused at once with :class:`RuleInputError` when :func:`length` finds no end within the
    limits), or once per chain of a list (a fight with a fixed end; all chains share one state
    order). ``detail_of`` maps result keys of the chain that are parts
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
        raise _bad("walk needs a Chain, or a list of chains over the same states and results",
                   "Chain 하나, 또는 상태와 결과가 같은 Chain의 목록을 주어야 합니다.")
    keys = chains[0].keys
    detail_of = dict(detail_of or {})
    if any(d not in keys or m not in keys or m in detail_of for d, m in detail_of.items()):
        raise _bad("details must be result keys of the chain, each part of another",
                   "세부 결과는 사슬의 결과 이름이고, 다른 결과의 일부여야 합니다.")
    main = tuple(k for k in keys if k not in detail_of)
    min_steps = require_int(min_steps, "min_steps", "최소 단계 수", 1, limits.MAX_FIGHT_STEPS)
    max_steps = len(chains) if fixed else max(min_steps, _planned([(chains[0], start)]))
    weights, denominator = chains[0].start(start), 1
    per_step, bases = [], []
    for number in range(max_steps):
        current = chains[number] if fixed else chains[0]
        weights, ended = current.step(weights)
        denominator *= current.denominator
        bases.append(current.denominator)
        row = dict.fromkeys(main, 0)
        for key, w in zip(keys, ended):
            row[detail_of.get(key, key)] += w
        row.update({d: ended[keys.index(d)] for d in detail_of})
        per_step.append(row)
        live = sum(weights)
        if not fixed and number + 1 >= min_steps and live * limits.OPEN_REST_DENOMINATOR <= denominator:
            break
    else:
        if not fixed:
            raise _too_long(max_steps)
    return FightOdds._weights(main, detail_of, fixed, bases,
                              {name: [row[name] for row in per_step] for name in (*main, *detail_of)},
                              sum(weights))


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
        raise _bad("race needs two chains", "두 쪽의 Chain을 주어야 합니다.")
    if not (isinstance(keys, tuple) and len(keys) == 2 and all(isinstance(k, str) for k in keys)
            and keys[0] != keys[1]):
        raise _bad("race needs two result keys", "결과 이름 두 개를 튜플로 주어야 합니다.")
    first_details, second_details = dict(first_details or {}), dict(second_details or {})
    detail_of = {**{d: keys[0] for d in first_details.values()},
                 **{d: keys[1] for d in second_details.values()}}
    if len(detail_of) != len(first_details) + len(second_details) or set(detail_of) & set(keys) \
            or not set(first_details) <= set(first.keys) or not set(second_details) <= set(second.keys):
        raise _bad("details need names of their own, for result keys of their chain",
                   "세부 결과에는 저마다의 이름이 있어야 하고, 그 쪽 사슬의 결과여야 합니다.")
    min_steps = require_int(min_steps, "min_steps", "최소 단계 수", 1, limits.MAX_FIGHT_STEPS)
    max_steps = max(min_steps, _planned([(first, first_start), (second, second_start)]))
    d1, d2 = first.denominator, second.denominator
    w1, w2 = first.start(first_start), second.start(second_start)
    live1 = live2 = denominator = 1
    per_step = []
    for number in range(max_steps):
        w1, ended1 = first.step(w1)
        w2, ended2 = second.step(w2)
        before2 = live2 * d2            # second's live weight before this step, over d2 ** (t)
        live1, live2 = sum(w1), sum(w2)
        denominator *= d1 * d2
        row = {keys[0]: sum(ended1) * before2, keys[1]: sum(ended2) * live1}
        for chain_keys, ended, names, other in ((first.keys, ended1, first_details, before2),
                                                (second.keys, ended2, second_details, live1)):
            for key, w in zip(chain_keys, ended):
                if key in names:
                    row[names[key]] = row.get(names[key], 0) + w * other
        row.update({d: row.get(d, 0) for d in detail_of})
        per_step.append(row)
        if number + 1 >= min_steps and live1 * live2 * limits.OPEN_REST_DENOMINATOR <= denominator:
            break
    else:
        raise _too_long(max_steps)
    return FightOdds._weights(keys, detail_of, False, [d1 * d2] * len(per_step),
                              {name: [row[name] for row in per_step] for name in (*keys, *detail_of)},
                              live1 * live2)


def _cost(sides: "Sequence[tuple[Chain, Hashable]]") -> tuple[int, int, int]:
    """(moves, bits of one step's denominator, results) of chains run together, as
    :func:`~widgets.limits.fight_work` takes them."""
    return (sum(chain.work for chain, _ in sides),
            sum(chain.denominator.bit_length() for chain, _ in sides),
            sum(len(chain.keys) for chain, _ in sides) + len(sides) - 1)


def _planned(sides: "Sequence[tuple[Chain, Hashable]]") -> int:
    """The steps the exact run may take (the float plan and one more for rounding), refused
    at once past the limits."""
    steps = length(sides)
    limits.check_fight(steps, *_cost(sides))
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
    :func:`race`). Computed in floats, within :data:`~widgets.limits.MAX_FIGHT_PLAN` moves and
    only as far as the exact run would stay within :data:`~widgets.limits.MAX_FIGHT_WORK`:
    ``None`` when that is not enough (a fight that may never end, or one too long to list).

    >>> coin = Chain({"up": {"up": Fraction(1, 2), "heads": Fraction(1, 2)}}, keys=("heads",))
    >>> length([(coin, "up")]), length([(coin, "up"), (coin, "up")])
    (21, 11)
    >>> length([(Chain({"up": {"up": 1}, "x": {"heads": 1}}, keys=("heads",)), "up")]) is None
    True
    """
    if not any(chain._can_end(start) for chain, start in sides):
        return None                        # no result can ever be reached: refused at once
    goal = float(limits.OPEN_REST) / 2
    plans = []
    for chain, start in sides:
        rows = [tuple((t, q / chain.denominator) for t, q in moves) for moves in chain._moves]
        plans.append((rows, [float(w) for w in chain.start(start)]))
    budget = limits.MAX_FIGHT_PLAN
    work = sum(len(chain.states) + chain.work for chain, _ in sides)
    cost = _cost(sides)
    for step in range(1, limits.MAX_FIGHT_STEPS + 1):
        budget -= work
        if budget < 0 or limits.fight_work(step, *cost) > limits.MAX_FIGHT_WORK:
            return None                    # the exact run would pass its limits: stop planning
        rest = 1.0
        for number, (rows, weights) in enumerate(plans):
            live = [0.0] * len(weights)
            for weight, moves in zip(weights, rows):
                if weight > 1e-250:        # far smaller changes no plan (and subnormal floats crawl)
                    for target, q in moves:
                        live[target] += weight * q
            plans[number] = (rows, live)
            rest *= sum(live)
        if rest <= goal:
            return step
    return None


__all__ = ["Chain", "FightOdds", "length", "race", "walk"]
