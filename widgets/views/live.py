"""One widget, live in three places.

A :class:`LiveWidget` is a list of :class:`Control` s plus a pure ``compute`` function from
control values to what the reader sees (:class:`Shown`: Korean HTML text and optional
probability bars). All rules math stays in ``compute`` (which calls the library); this module
holds only that pure part, so the same object runs in Jupyter, at build time and inside the
reader's browser (where neither Bokeh nor ipywidgets nor numpy exist).

The renderers are separate and thin:

- :mod:`widgets.views.jupyter` — ipywidgets controls call ``compute`` on every change.
- :mod:`widgets.views.static_page` — Bokeh controls (a slider with a number box beside it) on
  the built site: a small table of first answers (:meth:`LiveWidget.page_table`) answers at once,
  any other value goes to the in-page engine (:mod:`widgets.views.engine`), which rebuilds the
  same widget from its :attr:`LiveWidget.origin` and calls the same ``compute``.
- ``_repr_mimebundle_`` carries both; the book's ``nb_mime_priority_overrides`` makes the html
  builder pick the static one.
"""
from __future__ import annotations

import functools
import html as html_lib
import importlib
import inspect
import itertools
import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable, Sequence

from ..errors import RuleInputError
from ..limits import MAX_NUMBER_TEXT
from . import format as fmt
from .table import EXACT_LABEL

#: Refuse full option grids larger than this (tests walk every combination).
MAX_STATIC_ENTRIES = 5000
#: How many first answers one widget ships in its page (the rest come from the engine).
PAGE_TABLE_BUDGET = 160

#: Most bars one plot draws: a distribution of a total with more outcomes is drawn in equal bins
#: (each bin's exact probability; a tapped bin names its range), so every answer stays bounded.
MAX_BARS = 60
#: Most rows of an "N 이상 · N 이하" table: beyond them the rows step through the outcomes.
MAX_CUMULATIVE_ROWS = 60

#: Colours of the bands used across the book (colour-blind safe pairs).
BAND_COLORS = {
    "failure": "#d55e00",
    "success": "#009e73",
    "critical": "#e69f00",
    "neutral": "#0072b2",
    "muted": "#999999",
    "down": "#cc79a7",
}

#: Names the page gives a widget's own parts (``{uid}-out`` …; the others have a dash, which a
#: control name, a Python identifier, cannot have); no control may take them.
_PAGE_PARTS = {"out", "bars", "root", "legend", "picked", "fold"}

_NUMBER_TEXT = re.compile(r"\s*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)\s*")
#: Longest text a text control takes (the library's own parser has its own, smaller limits).
MAX_TEXT_INPUT = 200
#: Minus signs a reader's keyboard or the book's own text may produce (NFKC keeps U+2212).
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-"})


def normalise_typed(text: str) -> str:
    """Typed text as the library reads it: NFKC (full-width digits, letters and signs become
    ASCII, as a Korean keyboard's full-width mode types them) and typographic minus signs (the
    book prints −5) become ``-``. The page script does the same (``widgets/js/live.js``).

    >>> normalise_typed("７"), normalise_typed("－３"), normalise_typed("−5"), normalise_typed("４Ｄ６")
    ('7', '-3', '-5', '4D6')
    """
    return unicodedata.normalize("NFKC", text).translate(_MINUS)


@dataclass(frozen=True)
class Control:
    """One input. ``options`` are the values the page's slider or menu offers; a number
    control takes any value the library accepts (typed into its box), a text control any text
    (its ``options`` are the examples whose answers ship in the page)."""

    name: str
    label: str
    kind: str  # "number" | "select" | "toggle" | "text"
    options: tuple
    default: object
    option_labels: tuple[str, ...] = ()
    #: Shown only while another control has one of some values: ``(its name, its keys)`` (a
    #: house-rule weapon's damage box appears when the weapon menu says 「직접 입력」).
    when: tuple[str, tuple[str, ...]] | None = None

    def only_when(self, other: "Control", *values: object) -> "Control":
        """This control, shown only while ``other`` has one of ``values``.

        >>> menu = select("weapon", "무기", {"sword": "검", "custom": "직접 입력"}, "sword")
        >>> text("damage", "피해 식", "1D8").only_when(menu, "custom").when
        ('weapon', ('custom',))
        """
        return replace(self, when=(other.name, tuple(other.key(v) for v in values)))

    def shown_with(self, raw: dict) -> bool:
        """Whether the control is shown for these raw values of the widget's controls."""
        return self.when is None or str(raw.get(self.when[0])) in self.when[1]

    def key(self, value: object) -> str:
        """The lookup-key text of a value; must equal what the page builds (``widgets/js/live.js``).

        >>> number("n", "개수", 0, 3, 1).key(2.0), toggle("t", "켜기").key(True)
        ('2', '1')
        >>> text("e", "식", "2D6|1").key("2D6|1")   # '|' joins keys: a text's own is escaped
        '2D6%7C1'
        """
        if self.kind == "toggle":
            return "1" if value else "0"
        if self.kind == "text":
            return str(value).replace("%", "%25").replace("|", "%7C")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, Fraction):
            value = int(value) if value.denominator == 1 else float(value)
        return str(value)

    def parse(self, raw: object) -> object:
        """The control's value from what the page (or the Jupyter box) sends: a number's typed
        text becomes an ``int`` or ``float`` (refused in Korean when it is not a plain number:
        ``1e9``, ``0x10`` and ``1,5`` are refused, never read as something else), a text
        control's text is kept as typed (the library parses it), a menu key its option. Typed
        text is normalised first (:func:`normalise_typed`: full-width digits, U+2212 minus).

        >>> c = number("n", "주사위 개수", 0, 3, 1)
        >>> c.parse(" 7 "), c.parse("2.5"), c.parse(4), c.parse("７"), c.parse("−3")
        (7, 2.5, 4, 7, -3)
        >>> c.parse("1e9")
        Traceback (most recent call last):
        ...
        widgets.errors.RuleInputError: 주사위 개수 must be a number, got '1e9'
        """
        if self.kind == "number":
            if isinstance(raw, str):
                if len(raw.strip()) > MAX_NUMBER_TEXT:   # refused unread (before normalising it)
                    raise RuleInputError(
                        f"{self.label}: a number of at most {MAX_NUMBER_TEXT} characters, got {len(raw.strip())}",
                        f"{self.label}: 숫자가 너무 깁니다 ({len(raw.strip())}자, {MAX_NUMBER_TEXT}자까지).")
                typed = normalise_typed(raw)
                if not _NUMBER_TEXT.fullmatch(typed):
                    raise RuleInputError(
                        f"{self.label} must be a number, got {raw!r}",
                        f"{self.label}: 숫자만 넣어 주세요 (입력값: {raw.strip()[:40]!r}).")
                number = Fraction(typed.strip())
                return int(number) if number.denominator == 1 else float(number)
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):
                return int(raw) if float(raw).is_integer() else float(raw)
            raise RuleInputError(f"{self.label} must be a number, got {raw!r}",
                                 f"{self.label}: 숫자만 넣어 주세요.")
        if self.kind == "text":
            if not isinstance(raw, str):
                raise RuleInputError(f"{self.label} must be text, got {type(raw).__name__}",
                                     f"{self.label}: 글자로 넣어 주세요.")
            if len(raw) > MAX_TEXT_INPUT:
                raise RuleInputError(
                    f"{self.label}: at most {MAX_TEXT_INPUT} characters, got {len(raw)}",
                    f"{self.label}: {MAX_TEXT_INPUT}자까지만 넣을 수 있습니다 (입력: {len(raw)}자).")
            return raw
        text = raw if isinstance(raw, str) else self.key(raw)
        for option in self.options:
            if self.key(option) == text:
                return option
        raise RuleInputError(f"{self.label}: no option {raw!r}",
                             f"{self.label}: 고를 수 있는 항목이 아닙니다.")


def number(name: str, label: str, low: float, high: float, default: float,
           step: float = 1) -> Control:
    """A number: a slider over low…high by step plus a box for any other value.

    >>> number("d", "거리", 0, 2, 1, step=0.5).options
    (0, 0.5, 1, 1.5, 2)
    """
    count = round((high - low) / step)
    values = tuple(_tidy(low + i * step) for i in range(count + 1))
    return Control(name, label, "number", values, _tidy(default))


def select(name: str, label: str, choices: dict, default: object) -> Control:
    """A choice among values; ``choices`` maps value → Korean label.

    >>> select("s", "면 수", {4: "D4", 6: "D6"}, 6).option_labels
    ('D4', 'D6')
    """
    return Control(name, label, "select", tuple(choices), default,
                   tuple(str(v) for v in choices.values()))


def toggle(name: str, label: str, default: bool = False) -> Control:
    """An on/off switch.

    >>> toggle("b", "피바다").options
    (False, True)
    """
    return Control(name, label, "toggle", (False, True), bool(default))


def text(name: str, label: str, default: str, examples: Sequence[str] = ()) -> Control:
    """Free text the library parses (never ``eval``): a dice expression, a house-rule weapon's
    damage. ``examples`` (with the default) are the texts whose answers ship in the page; any
    other text is answered by the library in the reader's browser.

    >>> text("expr", "주사위 식", "2D6", ("4D6KH3",)).options
    ('2D6', '4D6KH3')
    """
    options = tuple(dict.fromkeys((default, *examples)))
    return Control(name, label, "text", options, default)


def _tidy(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


@dataclass(frozen=True)
class Bars:
    """A probability bar chart: one bar per outcome, coloured by band. ``ticks`` name the
    positions of the x axis where the bars are outcomes rather than numbers (``(1, "명중")``);
    ``cumulative`` marks a distribution of a total, whose answer also shows "N 이상 / N 이하".

    A distribution with more outcomes than :data:`MAX_BARS` is drawn in equal bins
    (:meth:`from_dist`): ``names`` then name each bar ("101~110"), ``width`` is the bars' width
    on the x axis, ``rows`` the exact "정확히 N · N 이상 · N 이하" rows at the bins' starts and ``note`` a
    line of key numbers (the range, the mean, where the middle 90% lies), all exact."""

    x: tuple[int, ...]
    p: tuple[Fraction, ...]
    band: tuple[str, ...]
    ticks: tuple[tuple[int, str], ...] = ()
    cumulative: bool = False
    names: tuple[str, ...] = ()
    width: float = 0.8
    rows: tuple[tuple[int, Fraction, Fraction, Fraction], ...] = ()
    note: str = ""
    #: Runs of consecutive bars drawn as one group, ``(label, number of bars)`` in order (the
    #: three Strikes of a turn): the site's plot separates the groups at their boundaries, where
    #: its grid lines would otherwise cut a group in two; the ticks name each group's centre.
    groups: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_dist(cls, dist, band_of: Callable[[int], str], cumulative: bool = True) -> "Bars":
        """One bar per outcome of a distribution of a total (damage, a sum, HP); more outcomes
        than :data:`MAX_BARS` are drawn in equal bins, still exact.

        >>> from widgets.dice import die, dice_sum
        >>> Bars.from_dist(die(2), lambda v: "neutral").p
        (Fraction(1, 2), Fraction(1, 2))
        >>> big = Bars.from_dist(dice_sum(200, 100), lambda v: "neutral")
        >>> len(big.x) <= MAX_BARS, big.names[0], big.names[1], big.width, sum(big.p)
        (True, '200~8499', '8500~8599', 100.0, Fraction(1, 1))
        >>> [n for n, _, _, _ in big.rows[:3]], big.rows[-1][0], len(big.rows) <= MAX_CUMULATIVE_ROWS + 3
        ([200, 8500, 8600], 20000, True)
        """
        weights, total = dist.weights, dist.total
        low, high = dist.min, dist.max
        if high - low + 1 <= MAX_BARS:
            probs = dist.probabilities()
            return cls(tuple(probs), tuple(probs.values()), tuple(band_of(v) for v in probs),
                       cumulative=cumulative)
        # equal bins over the outcomes that matter (all but 1/10000 on either side); whatever
        # lies beyond them is one bar at each end, named by its range
        left = _quantile(weights, total, Fraction(1, 10000))
        right = _quantile(weights, total, Fraction(9999, 10000))
        step = _bin_width(right - left + 1, MAX_BARS - 2)
        first = left - left % step
        last = right - right % step + step - 1          # the end of the last equal bin
        starts = list(range(first, last + 1, step))
        edges = ([low] if low < first else []) + starts + ([last + 1] if last < high else [])
        ends = [e - 1 for e in edges[1:]] + [high]
        sums = [0] * len(edges)
        at, below, rows = 0, 0, []
        for v, w in weights.items():
            while v > ends[at]:
                at += 1
            sums[at] += w
        for i, e in enumerate(edges):
            n = max(e, low)
            rows.append((n, Fraction(weights.get(n, 0), total), Fraction(total - below, total),
                         Fraction(below + weights.get(n, 0), total)))
            below += sums[i]
        if rows[-1][0] != high:
            rows.append((high, Fraction(weights[high], total), Fraction(weights[high], total), Fraction(1)))
        xs = tuple(first + (i - (low < first)) * step + (step - 1) / 2 for i in range(len(edges)))
        keep = [i for i, w in enumerate(sums) if w]
        mean = Fraction(sum(v * w for v, w in weights.items()), total)
        note = (f'<p class="live-binned">결과가 {len(weights)}가지라 막대 하나에 {step}개 값씩 묶어 '
                f"보여 줍니다 (양 끝 막대는 나머지 전부). 가장 작은 값 {low}, 가장 큰 값 {high}, "
                f"평균 {fmt.approx(mean, markup=True)}; 결과의 가운데 90%는 "
                f"{_quantile(weights, total, Fraction(1, 20))}~"
                f"{_quantile(weights, total, Fraction(19, 20))}입니다.</p>")
        return cls(tuple(xs[i] for i in keep), tuple(Fraction(sums[i], total) for i in keep),
                   tuple(band_of(max(edges[i], low)) for i in keep), cumulative=cumulative,
                   names=tuple(f"{max(edges[i], low)}~{ends[i]}" if ends[i] > edges[i]
                               else str(edges[i]) for i in keep),
                   width=float(step), rows=tuple(rows), note=note)

    @classmethod
    def outcomes(cls, odds: dict, labels: dict, bands: dict, start: int = 1) -> "Bars":
        """One bar per named outcome, in the order of ``odds``, each labelled on the axis.

        >>> b = Bars.outcomes({"hit": Fraction(1, 3), "miss": Fraction(2, 3)},
        ...                   {"hit": "명중", "miss": "빗나감"}, {"hit": "success", "miss": "muted"})
        >>> b.x, b.ticks
        ((1, 2), ((1, '명중'), (2, '빗나감')))
        """
        xs = tuple(range(start, start + len(odds)))
        return cls(xs, tuple(odds.values()), tuple(bands[k] for k in odds),
                   tuple((x, labels[k]) for x, k in zip(xs, odds)))


def _bin_width(span: int, most: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … that draws ``span`` values in at most ``most``
    bins (one more for a first bin that starts before the lowest value).

    >>> _bin_width(60, 60), _bin_width(61, 60), _bin_width(19801, 60)
    (1, 2, 500)
    """
    width, scale = 1, 1
    while -(-span // width) + (width > 1) > most:
        for m in (2, 5, 10):
            width = m * scale
            if -(-span // width) + 1 <= most:
                return width
        scale *= 10
    return width


def _quantile(weights: dict[int, int], total: int, q: Fraction) -> int:
    """The smallest outcome whose cumulative probability reaches ``q`` (exact integer weights).

    >>> _quantile({1: 1, 2: 1, 3: 2}, 4, Fraction(1, 2))
    2
    """
    need, run = q * total, 0
    for v, w in weights.items():
        run += w
        if run >= need:
            return v
    return next(reversed(weights))


@dataclass(frozen=True)
class Shown:
    """What one setting of the controls shows."""

    html: str
    bars: Bars | None = None


#: The extra page-table room of a widget whose answers outgrew the budget steps (the lead line
#: read as a player says it, a cumulative table with 「정확히 N」): ``LiveWidget.page_room``.
PAGE_ROOM = 1_500


@dataclass
class LiveWidget:
    uid: str
    controls: Sequence[Control]
    compute: Callable[..., Shown]
    title: str = ""
    x_label: str = "결과"
    y_label: str = "확률"
    plot: bool = True
    #: (band, Korean label) pairs explaining the bar colours, shown under the plot.
    legend: Sequence[tuple[str, str]] = ()
    colors: dict = field(default_factory=lambda: dict(BAND_COLORS))
    #: How to build this widget again elsewhere (the in-page engine): the declared factory
    #: that made it and its arguments, set by :func:`widget_factory`; ``None`` otherwise.
    origin: dict | None = None
    #: Bytes (compressed) its page table may take beyond the largest of the page's budget steps
    #: (:data:`widgets.views.static_page.PAGE_DATA_GZIP`): for a widget whose every answer leads
    #: with several graded lines, so that its table answers the two-control moves it answered
    #: before those lines (issue 31), where one more step for every widget would grow the first
    #: visit past its budget.
    page_room: int = 0

    def __post_init__(self):
        if not re.fullmatch(r"[a-z][a-z0-9-]*", self.uid):
            raise ValueError("uid must be lowercase letters, digits and dashes")
        names = [c.name for c in self.controls]
        if len(set(names)) != len(names) or set(names) & _PAGE_PARTS:
            raise ValueError(f"{self.uid}: control names must be unique and not {sorted(_PAGE_PARTS)}")
        for c in self.controls:
            if c.when is not None and c.when[0] not in names[:names.index(c.name)]:
                raise ValueError(f"{self.uid}: {c.name} depends on a control that does not come "
                                 "before it")

    # --- the one computation ---------------------------------------------------------
    def shown(self, **values) -> Shown:
        """Call ``compute``; bad input becomes a Korean message, never a traceback."""
        try:
            return self.compute(**values)
        except RuleInputError as err:
            return Shown(fmt.error(err.korean))
        except (ValueError, TypeError, OverflowError, ArithmeticError) as err:
            return Shown(fmt.error(f"입력을 처리할 수 없습니다: {err}"))

    def answer(self, raw: dict) -> dict:
        """What the page shows for raw control values (typed text, menu keys, switch states):
        an entry like :meth:`entry`, or ``{"error": Korean message}`` for input the library
        refuses (the page keeps its last good answer and shows the message beside it).

        >>> from widgets.views.generic import dice_pool_widget
        >>> w = dice_pool_widget()
        >>> w.answer({"count": "2", "sides": "6", "keep": "all"})["t"][5]
        '1/6 (16.67%)'
        >>> w.answer({"count": "셋", "sides": "6", "keep": "all"})["error"]
        "주사위 개수: 숫자만 넣어 주세요 (입력값: '셋')."
        """
        try:
            values = {c.name: c.parse(raw.get(c.name, c.key(c.default))) for c in self.controls}
            return self.entry(self.compute(**values))
        except RuleInputError as err:
            return {"error": err.korean}
        except (ValueError, TypeError, OverflowError, ArithmeticError) as err:
            return {"error": f"입력을 처리할 수 없습니다: {err}"}

    def defaults(self) -> dict:
        return {c.name: c.default for c in self.controls}

    def entry(self, shown: Shown) -> dict:
        """The page's form of one answer: html plus bar positions, heights, colours and exact
        labels (``x``, ``y``, ``c``, ``t``), the axis's outcome names (``k``) where the bars are
        outcomes; a distribution of a total adds its "N 이상 / N 이하" table to the html."""
        entry: dict = {"h": shown.html}
        if shown.bars is not None:
            b = shown.bars
            if b.rows:
                entry["h"] += b.note + fmt.cumulative_table(
                    (), (), self.x_label, rows=b.rows,
                    note=f"N은 {b.rows[-1][0] - b.rows[-2][0]}씩 건너뜁니다." if len(b.rows) > 1 else "")
            elif b.cumulative and len(b.x) > 1:
                entry["h"] += fmt.cumulative_table(b.x, b.p, self.x_label)
            entry.update(x=list(b.x), y=[float(p) for p in b.p],
                         c=[self.colors[band] for band in b.band],
                         t=[fmt.prob(p) for p in b.p])
            if b.ticks:
                entry["k"] = [[x, label] for x, label in b.ticks]
            if b.names:
                entry["n"] = list(b.names)
                entry["w"] = b.width * 0.8
        return entry


    def key(self, values: dict) -> str:
        """The table key of a setting (control keys joined by ``|``)."""
        return "|".join(c.key(values[c.name]) for c in self.controls)

    def settings(self) -> list[dict]:
        """Every setting a reader can make with the offered options: each combination of the
        controls' options, where a control shown only with another's value (:attr:`Control.when`)
        varies only while it is shown (hidden, it keeps its default), and a text control takes
        its default (any other text is the reader's own).

        >>> from widgets.views.generic import dice_pool_widget
        >>> len(dice_pool_widget().settings())   # 5 counts × 5 sides × 5 ways to keep
        125
        """
        out: list[dict] = [{}]
        for c in self.controls:
            options = (c.default,) if c.kind == "text" else c.options
            grown = []
            for values in out:
                raw = {name: self._control(name).key(v) for name, v in values.items()}
                for option in (options if c.shown_with(raw) else (c.default,)):
                    grown.append({**values, c.name: option})
            out = grown
            if len(out) > MAX_STATIC_ENTRIES:
                raise ValueError(f"{self.uid}: more than {MAX_STATIC_ENTRIES} static entries")
        return out

    def _control(self, name: str) -> Control:
        return next(c for c in self.controls if c.name == name)

    def static_table(self) -> dict[str, dict]:
        """Every setting of :meth:`settings` → what the page shows for it (the full grid the
        tests walk; the page itself ships :meth:`page_table`)."""
        return {self.key(values): self.entry(self.shown(**values)) for values in self.settings()}

    def page_settings(self, budget: int = PAGE_TABLE_BUDGET, reach: int | None = None) -> list[dict]:
        """The settings whose answers ship in the page: every value of one control with the
        others at their defaults (a reader's first moves; numbers only within ``reach`` slider
        steps when given), plus the full grid of values near the defaults, as wide as ``budget``
        allows. Other settings go to the engine.

        >>> from widgets.views.generic import dice_pool_widget
        >>> len(dice_pool_widget().page_settings(budget=1))   # defaults, 4 more counts, 4 sides, 4 keeps
        13
        >>> len(dice_pool_widget().page_settings(budget=1, reach=1))   # counts 2 and 4 only
        11
        """
        defaults = self.defaults()
        settings = {}

        def add(values):
            settings.setdefault(self.key(values), values)

        add(defaults)
        for c in self.controls:
            for option in (c.options if reach is None else _near(c, reach)):
                add({**defaults, c.name: option})
        for radius in itertools.count(1):
            near = [_near(c, radius) for c in self.controls]
            size = 1
            for values in near:
                size *= len(values)
            widest = all(len(v) == len(c.options) for v, c in zip(near, self.controls))
            if size > budget:
                break
            for combo in itertools.product(*near):
                add({c.name: v for c, v in zip(self.controls, combo)})
            if widest:
                break
        return list(settings.values())

    def first_moves(self) -> list[list[dict]]:
        """Settings in the order the page ships their answers, in blocks: the defaults and every
        value of one control (a reader's first move), then, for each pair of controls, every
        combination of their values (a second move; smaller pairs first), then the grid of
        every control's values near the defaults, widening (later moves). A control shown only
        with another's value varies only while it is shown; a text control offers its examples.

        >>> from widgets.views.generic import dice_pool_widget
        >>> blocks = dice_pool_widget().first_moves()
        >>> len(blocks[0]), [len(b) for b in blocks[1:4]]   # 1 + 4 + 4 + 4; then 5 × 5 pairs less 9
        (13, [16, 16, 16])
        """
        defaults = self.defaults()

        def tidy(values: dict) -> dict:
            raw = {}
            for c in self.controls:     # a hidden control keeps its default
                if not c.shown_with(raw):
                    values = {**values, c.name: c.default}
                raw[c.name] = c.key(values[c.name])
            return values

        seen: set[str] = set()

        def block(settings) -> list[dict]:
            out = []
            for values in settings:
                values = tidy(values)
                key = self.key(values)
                if key not in seen:
                    seen.add(key)
                    out.append(values)
            return out

        movable = [c for c in self.controls if len(c.options) > 1]
        blocks = [block([defaults] + [{**defaults, c.name: o} for c in movable for o in c.options])]
        pairs = sorted(itertools.combinations(movable, 2),
                       key=lambda ab: len(ab[0].options) * len(ab[1].options))
        for a, b in pairs:
            blocks.append(block({**defaults, a.name: x, b.name: y}
                                for x in a.options for y in b.options))
        for radius in range(1, max((len(c.options) for c in self.controls), default=1) + 1):
            near = [_near(c, radius) if c.kind != "text" else [c.default] for c in self.controls]
            size = 1
            for values in near:
                size *= len(values)
            if size > MAX_STATIC_ENTRIES:
                break
            blocks.append(block({c.name: v for c, v in zip(self.controls, combo)}
                                for combo in itertools.product(*near)))
            if all(len(v) == len(c.options) for v, c in zip(near, self.controls)):
                break
        return [b for b in blocks if b]

    def two_control_moves(self) -> list[str]:
        """The keys of a reader's two-control moves: from the defaults, two controls (menus,
        switches, sliders; each shown at the defaults) each set to another of its offered values,
        every such pair. The share of them the page's table answers at once is what
        ``scripts/bench.py`` reports and ``tests/test_engine.py`` checks.

        >>> from widgets.views.generic import dice_pool_widget
        >>> len(dice_pool_widget().two_control_moves())   # 4·4 + 4·4 + 4·4
        48
        """
        defaults = self.defaults()
        raw = {c.name: c.key(c.default) for c in self.controls}
        movable = [c for c in self.controls
                   if c.kind != "text" and len(c.options) > 1 and c.shown_with(raw)]
        return [self.key({**defaults, a.name: x, b.name: y})
                for a, b in itertools.combinations(movable, 2)
                for x in a.options if x != a.default for y in b.options if y != b.default]

    def page_table(self, budget: int = PAGE_TABLE_BUDGET, reach: int | None = None) -> dict[str, dict]:
        """Key → answer for :meth:`page_settings`."""
        return {self.key(v): self.entry(self.shown(**v)) for v in self.page_settings(budget, reach)}

    # --- renderers (thin, separate modules) -------------------------------------------
    def bokeh_layout(self, table_id: str = "preview"):
        from .static_page import bokeh_layout
        return bokeh_layout(self, table_id)

    def static_html(self) -> str:
        from .static_page import static_html
        return static_html(self)

    def ipywidget(self):
        from .jupyter import ipywidget
        return ipywidget(self)

    def legend_html(self) -> str:
        items = "".join(
            f'<span class="live-swatch" style="display:inline-block;width:0.9em;height:0.9em;'
            f'margin:0 0.3em 0 0.9em;vertical-align:middle;background:{self.colors[band]}"></span>'
            f'{html_lib.escape(label)}'
            for band, label in self.legend)
        return f'<div class="live-legend" style="font-size:0.85em">{items}</div>'

    def text(self) -> str:
        """Plain-text view of the default setting (the notebook's text/plain)."""
        shown = self.shown(**self.defaults())
        # a folded exact value reads in brackets: 「31.67% (정확한 값 1340023323233/4231664861184)」
        text = re.sub(r'<details class="ex"><summary>.*?</summary>(.*?)</details>',
                      lambda m: f"({EXACT_LABEL} {m.group(1)})", shown.html, flags=re.S)
        text = re.sub(r"<(br|/tr|/p|/caption|/li|/h\d)>", "\n", text)
        text = re.sub(r"</t[hd]>", "  ", text)
        text = html_lib.unescape(re.sub(r"<[^>]+>", "", text))
        return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())

    def _repr_mimebundle_(self, include=None, exclude=None):
        return dual_bundle(self)


def _near(c: Control, radius: int) -> list:
    if c.kind != "number":
        return list(c.options)
    try:
        at = c.options.index(c.default)
    except ValueError:
        return [c.default]
    return list(c.options[max(0, at - radius):at + radius + 1])


#: The declared widget factories: (module, name) → function (see :func:`widget_factory`).
_FACTORIES: dict[tuple[str, str], Callable[..., "LiveWidget"]] = {}


def widget_factory(function: Callable[..., "LiveWidget"]) -> Callable[..., "LiveWidget"]:
    """Declare a module-level function of ``widgets.views`` as a widget factory: the widgets it
    returns carry their :attr:`~LiveWidget.origin` (this function and its arguments, which must
    survive JSON), so the in-page engine can make the same widget again (:func:`rebuild`), and
    only declared factories can be rebuilt.

    >>> from widgets.views.generic import dice_pool_widget
    >>> dice_pool_widget("my-pool").origin
    {'module': 'widgets.views.generic', 'factory': 'dice_pool_widget', 'kwargs': {'uid': 'my-pool'}}
    """
    module, name = function.__module__, function.__name__
    if not module.startswith("widgets.views."):
        raise ValueError("widget factories live in widgets.views modules")
    signature = inspect.signature(function)

    @functools.wraps(function)
    def make(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        made = function(*args, **kwargs)
        arguments = dict(bound.arguments)
        try:
            survives = json.loads(json.dumps(arguments)) == arguments
        except (TypeError, ValueError):
            survives = False
        made.origin = ({"module": module, "factory": name, "kwargs": arguments} if survives
                       else None)
        return made

    _FACTORIES[(module, name)] = make
    return make


def rebuild(origin: dict) -> "LiveWidget":
    """Make a widget again from its :attr:`LiveWidget.origin` (what the in-page engine does);
    only a declared :func:`widget_factory` can be named.

    >>> from widgets.views.generic import dice_pool_widget
    >>> rebuild(dice_pool_widget().origin).uid
    'dice-pool'
    """
    if not isinstance(origin, dict):
        raise ValueError("no origin: the widget was not made by a declared factory")
    module, name = origin["module"], origin["factory"]
    if not isinstance(module, str) or not module.startswith("widgets.views."):
        raise ValueError("widgets are made by widgets.views modules only")
    importlib.import_module(module)
    factory = _FACTORIES.get((module, name))
    if factory is None:
        raise ValueError(f"{module}.{name} is not a declared widget factory")
    return factory(**origin["kwargs"])


def dual_bundle(widget) -> dict:
    """The mime bundle of a live widget: its text, its static page html and, where ipywidgets
    can make one, the Jupyter widget view (the book's html builder prefers the html)."""
    bundle = {"text/plain": widget.text(), "text/html": widget.static_html()}
    try:
        view = widget.ipywidget()._repr_mimebundle_()
    except Exception:  # no ipywidgets front end: the static view still works
        view = None
    key = "application/vnd.jupyter.widget-view+json"
    if view and key in view:
        bundle[key] = view[key]
    return bundle

