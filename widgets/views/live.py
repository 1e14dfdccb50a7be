"""One widget, live in three places.

A :class:`LiveWidget` is a list of :class:`Control` s plus a ``compute`` function from control
values to what the reader sees (:class:`Shown`: Korean HTML text and optional probability bars).
All rules math stays in ``compute`` (which calls the library); this module only displays it.

- In Jupyter with a kernel: ipywidgets controls call ``compute`` on every change; number controls
  are free-form boxes, so any value the library accepts works.
- On the static site: every combination of the controls' listed options is computed in Python
  ahead of time into a table; Bokeh controls and a ``CustomJS`` lookup show the stored entry
  (no kernel, no network, no rules math in JavaScript).
- ``_repr_mimebundle_`` carries both (the ipywidget view and ``text/html``); the book's
  ``nb_mime_priority_overrides`` makes the html builder pick the static one.
"""
from __future__ import annotations

import hashlib
import html as html_lib
import itertools
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

from ..errors import RuleInputError
from . import format as fmt

#: Refuse static tables larger than this: the page would get heavy, so split the widget instead.
MAX_STATIC_ENTRIES = 5000

#: Colours of the bands used across the book (colour-blind safe pairs).
BAND_COLORS = {
    "failure": "#d55e00",
    "success": "#009e73",
    "critical": "#e69f00",
    "neutral": "#0072b2",
    "muted": "#999999",
    "down": "#cc79a7",
}


@dataclass(frozen=True)
class Control:
    """One input. ``options`` are the values the static page offers; Jupyter accepts more when
    ``kind`` is ``"number"``."""

    name: str
    label: str
    kind: str  # "number" | "select" | "toggle"
    options: tuple
    default: object
    option_labels: tuple[str, ...] = ()

    def key(self, value: object) -> str:
        """The lookup-key text of a value; must equal what the page's JS builds."""
        if self.kind == "toggle":
            return "1" if value else "0"
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, Fraction):
            value = int(value) if value.denominator == 1 else float(value)
        return str(value)


def number(name: str, label: str, low: float, high: float, default: float,
           step: float = 1) -> Control:
    """A number: a slider on the static page (low…high by step), a free box in Jupyter."""
    count = round((high - low) / step)
    values = tuple(_tidy(low + i * step) for i in range(count + 1))
    return Control(name, label, "number", values, _tidy(default))


def select(name: str, label: str, choices: dict, default: object) -> Control:
    """A choice among values; ``choices`` maps value → Korean label."""
    return Control(name, label, "select", tuple(choices), default,
                   tuple(str(v) for v in choices.values()))


def toggle(name: str, label: str, default: bool = False) -> Control:
    return Control(name, label, "toggle", (False, True), bool(default))


def _tidy(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


@dataclass(frozen=True)
class Bars:
    """A probability bar chart: one bar per outcome, coloured by band."""

    x: tuple[int, ...]
    p: tuple[Fraction, ...]
    band: tuple[str, ...]

    @classmethod
    def from_dist(cls, dist, band_of: Callable[[int], str]) -> "Bars":
        probs = dist.probabilities()
        return cls(tuple(probs), tuple(probs.values()), tuple(band_of(v) for v in probs))


@dataclass(frozen=True)
class Shown:
    """What one setting of the controls shows."""

    html: str
    bars: Bars | None = None


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

    def __post_init__(self):
        if not re.fullmatch(r"[a-z][a-z0-9-]*", self.uid):
            raise ValueError("uid must be lowercase letters, digits and dashes")

    # --- the one computation ---------------------------------------------------------
    def shown(self, **values) -> Shown:
        """Call ``compute``; bad input becomes a Korean message, never a traceback."""
        try:
            return self.compute(**values)
        except RuleInputError as err:
            return Shown(fmt.error(err.korean))
        except (ValueError, TypeError, OverflowError) as err:
            return Shown(fmt.error(f"입력을 처리할 수 없습니다: {err}"))

    def defaults(self) -> dict:
        return {c.name: c.default for c in self.controls}

    def _entry(self, shown: Shown) -> dict:
        entry: dict = {"h": shown.html}
        if shown.bars is not None:
            b = shown.bars
            entry.update(x=list(b.x), y=[float(p) for p in b.p],
                         c=[self.colors[band] for band in b.band],
                         t=[fmt.prob(p) for p in b.p])
        return entry

    def static_table(self) -> dict[str, dict]:
        """Every combination of the controls' options → what the page shows for it."""
        size = 1
        for c in self.controls:
            size *= len(c.options)
        if size > MAX_STATIC_ENTRIES:
            raise ValueError(f"{self.uid}: {size} static entries, more than {MAX_STATIC_ENTRIES}")
        table = {}
        for combo in itertools.product(*(c.options for c in self.controls)):
            values = {c.name: v for c, v in zip(self.controls, combo)}
            key = "|".join(c.key(v) for c, v in zip(self.controls, combo))
            table[key] = self._entry(self.shown(**values))
        return table

    # --- static page (Bokeh + CustomJS) ----------------------------------------------
    def bokeh_layout(self, table_id: str):
        """Bokeh controls, output Div and plot; the CustomJS reads the static table from the
        page element ``live-table-{table_id}`` (see :meth:`static_html`)."""
        from bokeh.layouts import column
        from bokeh.models import (ColumnDataSource, CustomJS, Div, HoverTool, InlineStyleSheet,
                                  Range1d, Select, Slider, Switch)
        from bokeh.plotting import figure

        first = self._entry(self.shown(**self.defaults()))
        models, kinds = [], []
        for c in self.controls:
            name = f"{self.uid}-{c.name}"
            if c.kind == "number":
                step = (c.options[1] - c.options[0]) if len(c.options) > 1 else 1
                models.append(Slider(title=c.label, start=c.options[0], end=c.options[-1],
                                     step=step, value=c.default, name=name,
                                     sizing_mode="stretch_width"))
            elif c.kind == "select":
                models.append(Select(title=c.label, value=c.key(c.default), name=name,
                                     options=[(c.key(v), lab) for v, lab in
                                              zip(c.options, c.option_labels)]))
            else:
                models.append(Switch(active=bool(c.default), name=name))
                models[-1] = _labelled_switch(models[-1], c.label)
            kinds.append(c.kind)
        out = Div(text=first["h"], name=f"{self.uid}-out", sizing_mode="stretch_width",
                  css_classes=["live-out"],
                  stylesheets=[InlineStyleSheet(css=_DIV_CSS)])
        children = list(models) + [out]
        args = dict(controls=[_inner(m) for m in models], kinds=kinds, out=out, tid=table_id)
        if self.plot and "x" in first:
            source = ColumnDataSource({k: first[k] for k in "xyct"}, name=f"{self.uid}-bars")
            xr = Range1d(min(first["x"]) - 0.6, max(first["x"]) + 0.6)
            yr = Range1d(0, max(first["y"]) * 1.15 or 1)
            fig = figure(height=240, sizing_mode="stretch_width", x_range=xr, y_range=yr,
                         x_axis_label=self.x_label, y_axis_label=self.y_label,
                         toolbar_location=None, tools="", name=f"{self.uid}-plot")
            fig.vbar(x="x", top="y", width=0.8, color="c", source=source)
            fig.add_tools(HoverTool(tooltips=[(self.x_label, "@x"), (self.y_label, "@t")]))
            fig.xaxis.minor_tick_line_color = None
            children.append(fig)
            if self.legend:
                children.append(Div(text=self.legend_html(), name=f"{self.uid}-legend"))
            args.update(source=source, xr=xr, yr=yr)
        callback = CustomJS(args=args, code=_LOOKUP_JS)
        for m, c in zip(models, self.controls):
            _inner(m).js_on_change("active" if c.kind == "toggle" else "value", callback)
        return column(*children, sizing_mode="stretch_width", name=f"{self.uid}-root")

    def static_html(self) -> str:
        """Bokeh widget plus its lookup table.

        The table sits in its own ``<script type="application/json">`` element as plain UTF-8:
        inside Bokeh's document JSON every Korean character would cost 7 bytes instead of 3.
        """
        from bokeh.embed import components
        table = self.static_table()
        table_id = f"{self.uid}-{_digest(table)}"
        data = json.dumps(_packed(table), ensure_ascii=False,
                          separators=(",", ":")).replace("</", "<\\/")
        script, div = components(self.bokeh_layout(table_id))
        title = f'<p class="live-title">{html_lib.escape(self.title)}</p>' if self.title else ""
        return (f'<div class="live-widget" data-live="{self.uid}">{title}{div}'
                f'<script type="application/json" id="live-table-{table_id}">{data}</script>'
                f'{script}</div>')

    # --- Jupyter (ipywidgets) ------------------------------------------------------------
    def ipywidget(self):
        import ipywidgets as w

        inputs = []
        for c in self.controls:
            if c.kind == "number":
                cls = w.IntText if all(isinstance(o, int) for o in c.options) else w.FloatText
                inputs.append(cls(value=c.default, description=c.label,
                                  style={"description_width": "initial"}))
            elif c.kind == "select":
                inputs.append(w.Dropdown(options=list(zip(c.option_labels, c.options)),
                                         value=c.default, description=c.label,
                                         style={"description_width": "initial"}))
            else:
                inputs.append(w.Checkbox(value=c.default, description=c.label, indent=False))
        out = w.HTML()

        def refresh(_change=None):
            values = {c.name: i.value for c, i in zip(self.controls, inputs)}
            shown = self.shown(**values)
            svg = bars_svg(shown.bars, self.colors, self.x_label) if (self.plot and shown.bars) else ""
            out.value = shown.html + svg + (self.legend_html() if svg else "")

        for i in inputs:
            i.observe(refresh, names="value")
        refresh()
        head = [w.HTML(f"<b>{html_lib.escape(self.title)}</b>")] if self.title else []
        return w.VBox(head + inputs + [out])

    def legend_html(self) -> str:
        items = "".join(
            f'<span style="display:inline-block;width:0.9em;height:0.9em;margin:0 0.3em 0 0.9em;'
            f'vertical-align:middle;background:{self.colors[band]}"></span>{html_lib.escape(label)}'
            for band, label in self.legend)
        return f'<div class="live-legend" style="font-size:0.85em">{items}</div>'

    def text(self) -> str:
        """Plain-text view of the default setting (the notebook's text/plain)."""
        shown = self.shown(**self.defaults())
        text = re.sub(r"<(br|/tr|/p|/caption|/li|/h\d)>", "\n", shown.html)
        text = re.sub(r"</t[hd]>", "  ", text)
        text = html_lib.unescape(re.sub(r"<[^>]+>", "", text))
        return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())

    def _repr_mimebundle_(self, include=None, exclude=None):
        return dual_bundle(self)


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


def _packed(table: dict[str, dict]) -> dict:
    """The static table with each distinct text and each distinct bar set stored once:
    ``{"h": [html…], "b": [bars…], "k": {key: [html index, bars index or -1]}}``.
    Many control settings share a text or a plot, so this roughly halves the page."""
    texts: dict[str, int] = {}
    bars: dict[str, int] = {}
    bar_list: list[dict] = []
    keys = {}
    for key, entry in table.items():
        hi = texts.setdefault(entry["h"], len(texts))
        bi = -1
        if "x" in entry:
            plot = {k: entry[k] for k in "xyct"}
            sig = json.dumps(plot, sort_keys=True)
            if sig not in bars:
                bars[sig] = len(bar_list)
                bar_list.append(plot)
            bi = bars[sig]
        keys[key] = [hi, bi]
    return {"h": list(texts), "b": bar_list, "k": keys}


def _labelled_switch(switch, label):
    from bokeh.layouts import row
    from bokeh.models import Div
    return row(switch, Div(text=html_lib.escape(label)), name=f"{switch.name}-row")


def _inner(model):
    """The control model inside a labelled row (toggles are wrapped)."""
    return model.children[0] if hasattr(model, "children") else model


def _digest(table: dict) -> str:
    raw = json.dumps(table, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:12]


def bars_svg(bars: Bars, colors: dict, x_label: str, width: int = 480, height: int = 180) -> str:
    """A small inline SVG bar chart for the Jupyter view."""
    if not bars.x:
        return ""
    top = max(float(p) for p in bars.p) or 1.0
    n = len(bars.x)
    slot = (width - 40) / n
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 36}" '
             f'role="img" aria-label="{html_lib.escape(x_label)}">']
    for i, (x, p, band) in enumerate(zip(bars.x, bars.p, bars.band)):
        h = float(p) / top * height
        left = 30 + i * slot
        parts.append(f'<rect x="{left + slot * 0.1:.1f}" y="{height - h + 4:.1f}" '
                     f'width="{slot * 0.8:.1f}" height="{h:.1f}" fill="{colors[band]}">'
                     f'<title>{x}: {html_lib.escape(fmt.prob(p))}</title></rect>')
        if n <= 40 or i % max(1, n // 20) == 0:
            parts.append(f'<text x="{left + slot / 2:.1f}" y="{height + 18}" font-size="10" '
                         f'text-anchor="middle">{x}</text>')
    parts.append(f'<text x="{width / 2:.0f}" y="{height + 33}" font-size="11" '
                 f'text-anchor="middle">{html_lib.escape(x_label)}</text></svg>')
    return "".join(parts)


_DIV_CSS = """
table.odds { border-collapse: collapse; margin: 0.3em 0; font-variant-numeric: tabular-nums; }
table.odds th, table.odds td { border-bottom: 1px solid #ddd; padding: 2px 10px; text-align: left; }
table.odds caption { text-align: left; font-weight: bold; }
.widget-error { color: #b00020; font-weight: bold; }
"""

# Builds the lookup key from the controls exactly as Control.key does, then shows the entry.
_LOOKUP_JS = """
const cache = (window.__liveTables = window.__liveTables || {});
const data = cache[tid] ||
  (cache[tid] = JSON.parse(document.getElementById("live-table-" + tid).textContent));
const key = controls.map((c, i) => kinds[i] === "toggle" ? (c.active ? "1" : "0")
                                                         : String(c.value)).join("|");
const ref = data.k[key];
if (ref === undefined) {
  out.text = '<p class="widget-error" role="alert">⚠ 이 조합은 정적 페이지의 표에 없습니다. Jupyter에서 라이브러리로 계산하세요.</p>';
  return;
}
out.text = data.h[ref[0]];
if (typeof source !== "undefined") {
  if (ref[1] < 0) { source.data = {x: [], y: [], c: [], t: []}; return; }
  const bars = data.b[ref[1]];
  source.data = {x: bars.x, y: bars.y, c: bars.c, t: bars.t};
  xr.start = Math.min(...bars.x) - 0.6;
  xr.end = Math.max(...bars.x) + 0.6;
  yr.end = (Math.max(...bars.y) * 1.15) || 1;
}
"""
