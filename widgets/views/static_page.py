"""The built site's renderer of a live widget: Bokeh controls, output and plot.

Each number control is a box (any value) with a slider beside it. The page carries a small table
of first answers (:meth:`~widgets.views.live.LiveWidget.first_moves`) and the widget's origin; the
page script ``widgets/js/live.js`` shows a table answer at once and sends any other value to the
in-page engine, which runs this same library. The Bokeh document is embedded only when the widget
scrolls near the viewport, so a long chapter loads like a plain page.
"""
from __future__ import annotations

import hashlib
import html as html_lib
import json
import re
import zlib
from fractions import Fraction

#: The widgets' parts are styled by book/_ext/widget.css (one sheet, adopted by every widget view
#: by widgets/js/a11y.js), not by a stylesheet in each widget's document.

#: Bytes of first answers one widget ships, gzip-compressed as a host sends the page
#: (``PAGE_DATA_LEVEL``): the first budget, or a larger one when it lets the page answer at least
#: ``PAGE_MOVES_SHARE`` of a reader's two-control moves (:meth:`~widgets.views.live.LiveWidget.
#: two_control_moves`) that the first does not; and at most ``PAGE_DATA_RAW`` bytes as written.
PAGE_DATA_GZIP = (1_600, 2_500, 3_800, 5_500)
PAGE_MOVES_SHARE = 0.75
PAGE_DATA_RAW = 80_000
PAGE_DATA_LEVEL = 6

#: The page script's entry points, called by every control and by a tap on a bar (the logic
#: lives in widgets/js/live.js).
_CHANGED = "window.LiveBook && window.LiveBook.changed(uid, cb_obj, attr);"
_PICKED = "window.LiveBook && window.LiveBook.picked(uid, cb_obj.indices);"
_STEP = "window.LiveBook && window.LiveBook.step(uid, name, direction);"


def bokeh_layout(widget, table_id: str, filled: bool = True):
    """Bokeh controls, status line, output Div and plot of a widget (models named
    ``{uid}-{control}``, ``{uid}-{control}-box``, ``{uid}-status-line``, ``{uid}-out``,
    ``{uid}-bars``, ``{uid}-bar-plot``, ``{uid}-picked``: the page script finds them by these
    names). With
    ``filled=False`` the output and the bars start empty and the page script fills them from the
    page's table (the default answer is then stored once in the table, not twice)."""
    from bokeh.layouts import column, row
    from bokeh.models import (Button, ColumnDataSource, CustomJS, Div, FixedTicker, HoverTool,
                              Range1d, Select, Slider, Switch, TapTool,
                              TextInput)
    from bokeh.plotting import figure

    first = widget.entry(widget.shown(**widget.defaults()))
    uid = widget.uid
    callback = CustomJS(args=dict(uid=uid, attr="value"), code=_CHANGED)
    typing = CustomJS(args=dict(uid=uid, attr="value_input"), code=_CHANGED)
    children = []
    raw_defaults = {c.name: c.key(c.default) for c in widget.controls}
    for c in widget.controls:
        name = f"{uid}-{c.name}"
        if c.kind == "number":
            box = TextInput(title=c.label, value=c.key(c.default), name=f"{name}-box",
                            width=150, css_classes=["live-box"])
            step = (c.options[1] - c.options[0]) if len(c.options) > 1 else 1
            slider = Slider(title="", show_value=False, start=c.options[0], end=c.options[-1],
                            step=step, value=c.default, name=name, sizing_mode="stretch_width",
                            css_classes=["live-slider"], align="end")
            box.js_on_change("value_input", typing)
            box.js_on_change("value", callback)
            slider.js_on_change("value", callback)
            parts = [box]
            if c.options[0] < 0:   # a phone's number keypad may have no minus sign: −/+ steps
                box.width = 92
                for end, label, direction in (("down", "−", -1), ("up", "+", 1)):
                    stepper = Button(label=label, name=f"{name}-{end}", width=44, align="end",
                                     css_classes=["live-step"])
                    stepper.js_on_click(CustomJS(args=dict(uid=uid, name=c.name, direction=direction),
                                                 code=_STEP))
                    parts.append(stepper)
            children.append(row(*parts, slider, sizing_mode="stretch_width", name=f"{name}-row"))
        elif c.kind == "text":
            box = TextInput(title=c.label, value=str(c.default), name=name,
                            sizing_mode="stretch_width", css_classes=["live-text"])
            box.js_on_change("value_input", typing)
            box.js_on_change("value", callback)
            children.append(box)
        elif c.kind == "select":
            model = Select(title=c.label, value=c.key(c.default), name=name,
                           options=[(c.key(v), lab) for v, lab in zip(c.options, c.option_labels)])
            model.js_on_change("value", callback)
            children.append(model)
        else:
            switch = Switch(active=bool(c.default), name=name, align="center")
            switch.js_on_change("active", CustomJS(args=dict(uid=uid, attr="active"), code=_CHANGED))
            # the label toggles the switch too (widgets/js/live.js): the whole row is the target
            label = Div(text=html_lib.escape(c.label), align="center", name=f"{name}-label",
                        css_classes=["live-switch-label"], sizing_mode="stretch_width")
            children.append(row(switch, label, name=f"{name}-row", sizing_mode="stretch_width"))
        # a control shown only with some value of another (the page script keeps it so)
        children[-1].visible = c.shown_with(raw_defaults)
    children.append(Div(text="", name=f"{uid}-status-line", sizing_mode="stretch_width",
                        css_classes=["live-status"]))
    children.append(Div(text=first["h"] if filled else "", name=f"{uid}-out", sizing_mode="stretch_width",
                        css_classes=["live-out"]))
    if widget.plot and "x" in first:
        width = first.get("w", 0.8)
        # filled=False: the bars too come from the page's table (stored once, not twice)
        source = ColumnDataSource({**{k: first[k] if filled else [] for k in "xyct"},
                                   "w": [width] * len(first["x"]) if filled else []},
                                  name=f"{uid}-bars")
        xr = Range1d(min(first["x"]) - width * 0.75, max(first["x"]) + width * 0.75)
        yr = Range1d(0, max(first["y"]) * 1.15 or 1)
        fig = figure(height=240, sizing_mode="stretch_width", x_range=xr, y_range=yr,
                     x_axis_label=widget.x_label, y_axis_label=widget.y_label,
                     toolbar_location=None, tools="", name=f"{uid}-bar-plot")
        bars = fig.vbar(x="x", top="y", width="w", color="c", source=source,
                        nonselection_fill_alpha=0.45, nonselection_line_alpha=0.45)
        fig.add_tools(HoverTool(tooltips=[(widget.x_label, "@x"), (widget.y_label, "@t")],
                                renderers=[bars]))
        # a tap (a phone has no hover) shows the bar's exact value on the line under the plot
        fig.add_tools(TapTool(renderers=[bars]))
        source.selected.js_on_change("indices", CustomJS(args=dict(uid=uid), code=_PICKED))
        fig.xaxis.minor_tick_line_color = None
        if "k" in first:   # the bars are outcomes: name them on the axis
            fig.xaxis.ticker = FixedTicker(ticks=[x for x, _ in first["k"]])
            fig.xaxis.major_label_overrides = {x: label for x, label in first["k"]}
        groups = group_boundaries(widget.shown(**widget.defaults()).bars)
        if groups is not None:   # bars in groups (a turn's Strikes): grid lines between groups,
            fig.xgrid.ticker = FixedTicker(ticks=groups)   # never through one at its label
        children.append(fig)
        children.append(Div(text="", name=f"{uid}-picked", sizing_mode="stretch_width",
                            css_classes=["live-picked"]))
        if widget.legend:
            children.append(Div(text=widget.legend_html(), name=f"{uid}-legend"))
    return column(*children, sizing_mode="stretch_width", name=f"{uid}-root")


def group_boundaries(bars) -> list[float] | None:
    """Where the plot separates the groups of :attr:`~widgets.views.live.Bars.groups`: halfway
    between a group's last bar and the next group's first; ``None`` for bars without groups.

    >>> from widgets.views.pf2e import grouped_bars
    >>> from widgets import pf2e
    >>> group_boundaries(grouped_bars([(f"{n}격", pf2e.strike_odds(10, 18, attack_number=n))
    ...                                for n in (1, 2, 3)]))
    [5.0, 10.0]
    """
    if bars is None or not bars.groups:
        return None
    edges, end = [], 0
    for _, count in bars.groups[:-1]:
        end += count
        edges.append((bars.x[end - 1] + bars.x[end]) / 2)
    return edges


def page_data(widget, gzip_budgets: tuple[int, ...] = PAGE_DATA_GZIP,
              raw_budget: int = PAGE_DATA_RAW) -> dict:
    """What the page script needs besides the Bokeh document: control names and kinds, the
    origin for the engine, and the table of first answers, packed (:func:`pack`). The table
    holds the blocks of :meth:`~widgets.views.live.LiveWidget.first_moves` in turn (the defaults
    and one-control moves always; then pairs of controls, then the grid near the defaults) while
    the packed table stays within a budget of bytes compressed (the first of ``gzip_budgets``,
    or the first larger one that answers :data:`PAGE_MOVES_SHARE` of the two-control moves; a
    widget's ``page_room`` adds one step above the largest) and
    ``raw_budget`` written; a block that does not fit whole ships its part nearest the defaults.

    >>> from widgets.views.generic import dice_pool_widget
    >>> data = page_data(dice_pool_widget())
    >>> data["names"], data["kinds"], data["origin"]["factory"]
    (['count', 'sides', 'keep'], ['number', 'select', 'select'], 'dice_pool_widget')
    >>> unpack(data, "3|6|high2")["t"][-1]
    '2/27 (7.41%)'
    """
    blocks = widget.first_moves()
    known: dict[str, dict] = {}

    def answers(settings) -> dict[str, dict]:
        out = {}
        for values in settings:
            key = widget.key(values)
            if key not in known:
                known[key] = widget.entry(widget.shown(**values))
            out[key] = known[key]
        return out

    def table(gzip_budget: int) -> dict[str, dict]:
        def fits(candidate: dict) -> bool:
            text = _json(pack(candidate)).encode()
            return len(text) <= raw_budget and len(zlib.compress(text, PAGE_DATA_LEVEL)) <= gzip_budget

        entries = answers(blocks[0])             # a reader's first moves: always shipped
        for settings in blocks[1:]:
            more = answers(settings)
            if fits({**entries, **more}):
                entries.update(more)
                continue
            # the part of the block nearest the defaults, as much as fits (halving)
            order = sorted(more, key=lambda k: _distance(widget, k))
            size = len(order) // 2
            while size and not fits({**entries, **{k: more[k] for k in order[:size]}}):
                size //= 2
            entries.update({k: more[k] for k in order[:size]})
            break
        return entries

    if getattr(widget, "page_room", 0):      # its answers outgrew the steps: the room above them
        gzip_budgets = (gzip_budgets[-1] + widget.page_room,)
    moves = widget.two_control_moves()
    entries = table(gzip_budgets[0])
    for budget in gzip_budgets[1:]:
        if not moves or sum(k in entries for k in moves) >= PAGE_MOVES_SHARE * len(moves):
            break
        wider = table(budget)
        if sum(k in wider for k in moves) >= PAGE_MOVES_SHARE * len(moves):
            entries = wider
            break
    return {"uid": widget.uid, "names": [c.name for c in widget.controls],
            "labels": [c.label for c in widget.controls], "xl": widget.x_label,
            "kinds": [c.kind for c in widget.controls], "origin": widget.origin,
            "when": [[c.when[0], list(c.when[1])] if c.when else None for c in widget.controls],
            **pack(entries)}


def _distance(widget, key: str) -> int:
    """How many slider steps (or menu changes) a setting lies from the defaults."""
    out = 0
    for c, text in zip(widget.controls, key.split("|")):
        keys = [c.key(o) for o in c.options]
        here = keys.index(text) if text in keys else 0
        there = keys.index(c.key(c.default)) if c.key(c.default) in keys else 0
        out += abs(here - there) if c.kind == "number" else int(here != there)
    return out


def static_html(widget) -> str:
    """The widget's html on the built site: a placeholder showing the default answer, the
    Bokeh document and the page data, each in its own ``application/json`` element (plain
    UTF-8: inside Bokeh's JSON every Korean character would cost 7 bytes instead of 3)."""
    data = page_data(widget)
    table_id = f"{widget.uid}-{_digest(data)}"
    first = widget.entry(widget.shown(**widget.defaults()))
    return lazy_html(widget.uid, bokeh_layout(widget, table_id, filled=False), widget.title,
                     placeholder=first["h"], data=data, table_id=table_id)


#: What the static copy of a widget says in Jupyter before its cell runs (the site hides it: it
#: is marked for Jupyter only, and there the copy is the page's live widget).
COPY_NOTE = ("정적 사본: 기본값의 답만 보입니다. 셀을 실행하면(Run ▸ Run All Cells) "
             "값을 바꿀 수 있는 위젯이 됩니다.")

#: A Bokeh model id in a document: Bokeh numbers its models with one counter per process, so
#: the same layout made again (a cell run again) gets new ids.
BOKEH_ID = re.compile(r'"p\d{4,}"')


def lazy_html(uid: str, layout, title: str = "", placeholder: str = "", data: dict | None = None,
              table_id: str | None = None) -> str:
    """A Bokeh layout that the page script embeds only when it scrolls near the viewport, so a
    long chapter loads like a plain page; ``placeholder`` html shows until then. ``data`` (page
    data of a live widget) lets the page script answer its controls.

    >>> from bokeh.models import Div
    >>> html = lazy_html("demo", Div(text="hi"), "제목", placeholder="<p>잠시만요</p>")
    >>> 'data-live="demo"' in html and 'class="live-doc"' in html and "live-data" not in html
    True
    """
    from bokeh.embed import json_item
    doc = json_item(layout)
    # named by what it draws, not by the model ids this process's counter gave it (so running
    # the cell again names it the same)
    table_id = table_id or f"{uid}-{_digest(BOKEH_ID.sub('', _json(doc)))}"
    head = f'<p class="live-title">{html_lib.escape(title)}</p>' if title else ""
    head += f'<p class="only-jupyter live-copy" hidden>{html_lib.escape(COPY_NOTE)}</p>'
    extra = (f'<script type="application/json" class="live-data">{_json(data)}</script>'
             if data is not None else "")
    return (f'<div class="live-widget" id="{uid}" data-live="{uid}" data-table="{table_id}">{head}'
            f'<div class="live-mount"><div class="live-placeholder">{placeholder}</div></div>'
            f'<script type="application/json" class="live-doc">{_json(doc)}</script>{extra}</div>')


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


#: Where an answer's html is cut into the pieces that answers share: each run of tags is a piece,
#: with the short texts between its tags (a compact probability's " (" and ")").
_PIECES = re.compile(r"(<[^>]+>(?:[^<0-9]{0,2}<[^>]+>)*)")


def _ids(numbers) -> str:
    """Piece numbers as the page stores them: base 36, joined by dots (``[1, 40] -> "1.14"``)."""
    out = []
    for n in numbers:
        digits = ""
        while True:
            n, r = divmod(n, 36)
            digits = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + digits
            if not n:
                break
        out.append(digits)
    return ".".join(out)


def pack(table: dict[str, dict]) -> dict:
    """A table of answers with everything answers share stored once: the html is cut into
    pieces at its tags (``p``: each distinct piece once), each answer is its pieces' numbers
    (``h``), each bar set its x positions (``[first, count]`` when they run 1 by 1), the pieces
    of its exact labels, colours and bar names, its axis names and bar width (``b``: ``[x, t,
    c, k, n, w]``); ``keys`` maps a setting's key to ``"answer"`` or ``"answer.bars"`` (base 36).
    A bar's height is read from its exact label (the page script does the same). :func:`unpack`
    and ``widgets/js/live.js`` read it back.

    >>> packed = pack({"a": {"h": "<p>1/6</p>"}, "b": {"h": "<p>5/6</p>"}})
    >>> packed["p"], packed["h"], packed["keys"]
    (['<p>', '1/6', '</p>', '5/6'], ['0.1.2', '0.3.2'], {'a': '0', 'b': '1'})
    >>> pack({"a": {"h": "<td><span> <i>(</i>5%<i>)</i></span></td>"}})["p"]   # short texts go with their tags
    ['<td><span> <i>(</i>', '5%', '<i>)</i></span></td>']
    """
    pieces: dict[str, int] = {}
    answers: dict[str, int] = {}
    bars: dict[str, int] = {}
    bar_list: list[list] = []
    keys = {}

    def ids(parts) -> str:
        return _ids(pieces.setdefault(part, len(pieces)) for part in parts if part)

    for key, entry in table.items():
        hi = answers.setdefault(ids(_PIECES.split(entry["h"])), len(answers))
        ref = _ids([hi])
        if "x" in entry:
            x = entry["x"]
            if all(isinstance(v, int) for v in x) and x == list(range(x[0], x[0] + len(x))):
                x = [x[0], len(x)]
            else:
                x = [x]
            plot = [x, ids(entry["t"]), ids(entry["c"]), entry.get("k", 0),
                    ids(entry["n"]) if "n" in entry else 0, entry.get("w", 0.8)]
            while plot[-1] in (0, 0.8) and len(plot) > 3:
                plot.pop()
            sig = json.dumps(plot, ensure_ascii=False)
            if sig not in bars:
                bars[sig] = len(bar_list)
                bar_list.append(plot)
            ref += "." + _ids([bars[sig]])
        keys[key] = ref
    return {"p": list(pieces), "h": list(answers), "b": bar_list, "keys": keys}


def unpack(data: dict, key: str) -> dict | None:
    """The answer a packed table (:func:`pack`) holds for a setting's key, as the page script
    reads it: ``h`` and, for a plot, ``x y c t`` (``k n w`` where given); ``None`` when the key
    is not in the table. Heights come from the exact labels, as floats.

    >>> packed = pack({"a": {"h": "<b>1/2</b>", "x": [3, 4], "y": [0.5, 0.5], "c": ["#000"] * 2,
    ...                      "t": ["1/2 (50.00%)"] * 2}})
    >>> unpack(packed, "a")
    {'h': '<b>1/2</b>', 'x': [3, 4], 'y': [0.5, 0.5], 'c': ['#000', '#000'], 't': ['1/2 (50.00%)', '1/2 (50.00%)']}
    """
    ref = data["keys"].get(key)
    if ref is None:
        return None
    pieces = data["p"]

    def read(text) -> list[str]:
        return [pieces[int(i, 36)] for i in text.split(".")] if text else []

    parts = ref.split(".")
    entry: dict = {"h": "".join(read(data["h"][int(parts[0], 36)]))}
    if len(parts) > 1:
        plot = data["b"][int(parts[1], 36)]
        x, t, c = plot[:3]
        k, n, w = plot[3:] + [0, 0, 0.8][len(plot) - 3:]   # left off: no axis names, names, width
        xs = list(range(x[0], x[0] + x[1])) if len(x) == 2 else x[0]
        labels = read(t)
        entry.update(x=xs, y=[label_height(lab) for lab in labels], c=read(c), t=labels)
        if k:
            entry["k"] = k
        if n:
            entry["n"] = read(n)
        if w != 0.8:
            entry["w"] = w
    return entry


def label_height(label: str) -> float:
    """A bar's height read from its exact label ``"5/12 (41.67%)"`` (what the page draws).

    >>> label_height("5/12 (41.67%)"), label_height("1 (100%)"), label_height("0 (0%)")
    (0.4166666666666667, 1.0, 0.0)
    """
    exact = label.split(" ", 1)[0]
    numerator, _, denominator = exact.partition("/")
    return float(Fraction(int(numerator), int(denominator or 1)))


def _digest(data) -> str:
    raw = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:12]
