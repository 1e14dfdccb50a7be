"""The built site's renderer of a live widget: Bokeh controls, output and plot.

Each number control is a box (any value) with a slider beside it. The page carries a small table
of first answers (:meth:`~widgets.views.live.LiveWidget.page_table`) and the widget's origin; the
page script ``widgets/js/live.js`` shows a table answer at once and sends any other value to the
in-page engine, which runs this same library. The Bokeh document is embedded only when the widget
scrolls near the viewport, so a long chapter loads like a plain page.
"""
from __future__ import annotations

import hashlib
import html as html_lib
import json

_DIV_CSS = """
.bk-clearfix { min-width: 0; max-width: 100%; width: 100%; }
.table-wrap { max-width: 100%; overflow-x: auto; margin: 0.3em 0; }
table { word-break: keep-all; overflow-wrap: normal; }
table.odds { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.odds th, table.odds td { border-bottom: 1px solid #ddd; padding: 2px 10px; text-align: left; }
caption { text-align: left; font-weight: bold; }
td.num, th.num, table.cum :is(td, th) { white-space: nowrap; }
:host { font-size: 15px; line-height: 1.45; }
tr.mark > * { font-weight: bold; background: #fff3d6; color: #18191D; }
details.cumulative { margin: 0.4em 0; }
details.cumulative > summary { cursor: pointer; min-height: 28px; padding: 4px 0; }
.widget-error { color: #b00020; font-weight: bold; }
.live-wait { color: #555; font-style: italic; }
:host(.live-stale) { opacity: 0.4; transition: opacity 0.15s; }
@media (max-width: 600px) {
  table.odds { font-size: 0.88em; }
  table.odds th, table.odds td { padding: 3px 6px; }
  .table-wrap > table > :is(thead, tbody) > tr > :first-child {
    position: sticky; left: 0; z-index: 1; background: var(--book-w-bg, #fff); }
  details.cumulative > summary { min-height: 44px; line-height: 36px; }
}
/* phone tables */
table.compact .pf i { font-style: normal; }
table.compact.wide .pf { display: inline-flex; flex-direction: column-reverse; font-size: 0.86em; line-height: 1.3; }
table.compact.wide .pf > span { font-size: 1.163em; }
table.compact.wide .pf i { display: none; }
.swipe-hint { display: none; }
@media (max-width: 600px) {
  table.compact .pf { display: inline-flex; flex-direction: column-reverse; font-size: 0.86em; line-height: 1.3; }
  table.compact .pf > span { font-size: 1.163em; }
  table.compact .pf i { display: none; }
  table.cards, table.cards > tbody, table.cards > caption { display: block; }
  table.cards > thead { display: block; position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards > tbody > tr { display: grid; grid-template-columns: repeat(auto-fill, minmax(5.6em, 1fr));
    gap: 0.25em 0.7em; padding: 0.4em 0.2em; border-top: 1px solid var(--pst-color-border, #d0d7de); }
  .table-wrap > table.cards > tbody > tr > * { display: block; position: static; box-shadow: none;
    background: none; border: 0; padding: 0; min-width: 0; max-width: 100%; white-space: normal; overflow-wrap: anywhere; }
  .table-wrap > table.cards > tbody > tr > :first-child, .table-wrap > table.cards > tbody > tr > .f { grid-column: 1 / -1; }
  .table-wrap > table.cards > tbody > tr > :first-child { font-weight: bold; }
  .table-wrap > table.cards > tbody > tr > .w { grid-column: span 2; }
  table.cards > tbody > tr > :empty { display: none; }
  .table-wrap > table.cards > tbody > tr.mark { background: #fff3d6; color: #18191D; }
  table.cards [data-h]::before { content: attr(data-h); display: block; font-size: 0.86em; font-weight: normal;
    color: var(--pst-color-text-muted, #48566b); }
  table.cards tr.mark [data-h]::before { color: #48566b; }
  .swipe-hint { display: block; font-size: 0.88em; margin: 0.3em 0 0 0; color: var(--pst-color-text-muted, #48566b); }
}
/* end phone tables */
"""
#: Let a long control label wrap above its number box instead of running over the slider.
_BOX_CSS = "label { white-space: normal; word-break: keep-all; overflow-wrap: anywhere; }"
#: An answer being recomputed is dimmed (the page script marks it; the status line says why).
_STALE_CSS = ":host(.live-stale) { opacity: 0.4; transition: opacity 0.15s; }"

#: Most bytes of first answers one widget ships; beyond them the engine answers.
PAGE_DATA_BYTES = 32_000
#: (grid budget, slider reach) tried in turn until a widget's table fits PAGE_DATA_BYTES.
_TABLE_SIZES = ((160, None), (60, None), (1, None), (1, 12), (1, 6), (1, 3), (1, 1), (1, 0))

#: The page script's entry points, called by every control and by a tap on a bar (the logic
#: lives in widgets/js/live.js).
_CHANGED = "window.LiveBook && window.LiveBook.changed(uid, cb_obj, attr);"
_PICKED = "window.LiveBook && window.LiveBook.picked(uid, cb_obj.indices);"


def bokeh_layout(widget, table_id: str, filled: bool = True):
    """Bokeh controls, status line, output Div and plot of a widget (models named
    ``{uid}-{control}``, ``{uid}-{control}-box``, ``{uid}-status-line``, ``{uid}-out``,
    ``{uid}-bars``, ``{uid}-bar-plot``, ``{uid}-picked``: the page script finds them by these
    names). With
    ``filled=False`` the output starts empty and the page script fills it from the page's table
    (the default answer is then stored once in the table, not twice)."""
    from bokeh.layouts import column, row
    from bokeh.models import (ColumnDataSource, CustomJS, Div, FixedTicker, HoverTool,
                              InlineStyleSheet, Range1d, Select, Slider, Switch, TapTool,
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
                            width=150, css_classes=["live-box"],
                            stylesheets=[InlineStyleSheet(css=_BOX_CSS)])
            step = (c.options[1] - c.options[0]) if len(c.options) > 1 else 1
            slider = Slider(title="", show_value=False, start=c.options[0], end=c.options[-1],
                            step=step, value=c.default, name=name, sizing_mode="stretch_width",
                            css_classes=["live-slider"], align="end")
            box.js_on_change("value_input", typing)
            box.js_on_change("value", callback)
            slider.js_on_change("value", callback)
            children.append(row(box, slider, sizing_mode="stretch_width", name=f"{name}-row"))
        elif c.kind == "text":
            box = TextInput(title=c.label, value=str(c.default), name=name,
                            sizing_mode="stretch_width", css_classes=["live-text"],
                            stylesheets=[InlineStyleSheet(css=_BOX_CSS)])
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
            children.append(row(switch, Div(text=html_lib.escape(c.label), align="center"),
                                name=f"{name}-row"))
        # a control shown only with some value of another (the page script keeps it so)
        children[-1].visible = c.shown_with(raw_defaults)
    children.append(Div(text="", name=f"{uid}-status-line", sizing_mode="stretch_width",
                        css_classes=["live-status"]))
    children.append(Div(text=first["h"] if filled else "", name=f"{uid}-out", sizing_mode="stretch_width",
                        css_classes=["live-out"], stylesheets=[InlineStyleSheet(css=_DIV_CSS)]))
    if widget.plot and "x" in first:
        source = ColumnDataSource({k: first[k] for k in "xyct"}, name=f"{uid}-bars")
        xr = Range1d(min(first["x"]) - 0.6, max(first["x"]) + 0.6)
        yr = Range1d(0, max(first["y"]) * 1.15 or 1)
        fig = figure(height=240, sizing_mode="stretch_width", x_range=xr, y_range=yr,
                     x_axis_label=widget.x_label, y_axis_label=widget.y_label,
                     toolbar_location=None, tools="", name=f"{uid}-bar-plot",
                     stylesheets=[InlineStyleSheet(css=_STALE_CSS)])
        bars = fig.vbar(x="x", top="y", width=0.8, color="c", source=source,
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
        children.append(fig)
        children.append(Div(text="", name=f"{uid}-picked", sizing_mode="stretch_width",
                            css_classes=["live-picked"]))
        if widget.legend:
            children.append(Div(text=widget.legend_html(), name=f"{uid}-legend"))
    return column(*children, sizing_mode="stretch_width", name=f"{uid}-root")


def page_data(widget) -> dict:
    """What the page script needs besides the Bokeh document: control names and kinds, the
    origin for the engine, and the first-answer table with each distinct text and bar set
    stored once (``h``: texts, ``b``: bar sets, ``keys``: key → [text index, bars index or -1]).

    >>> from widgets.views.generic import dice_pool_widget
    >>> data = page_data(dice_pool_widget())
    >>> data["names"], data["kinds"], data["origin"]["factory"]
    (['count', 'sides', 'keep'], ['number', 'select', 'select'], 'dice_pool_widget')
    """
    for budget, reach in _TABLE_SIZES:
        packed = _packed(widget.page_table(budget, reach))
        if len(_json(packed).encode()) <= PAGE_DATA_BYTES:
            break
    return {"uid": widget.uid, "names": [c.name for c in widget.controls],
            "labels": [c.label for c in widget.controls], "xl": widget.x_label,
            "kinds": [c.kind for c in widget.controls], "origin": widget.origin,
            "when": [[c.when[0], list(c.when[1])] if c.when else None for c in widget.controls],
            **packed}


def static_html(widget) -> str:
    """The widget's html on the built site: a placeholder showing the default answer, the
    Bokeh document and the page data, each in its own ``application/json`` element (plain
    UTF-8: inside Bokeh's JSON every Korean character would cost 7 bytes instead of 3)."""
    data = page_data(widget)
    table_id = f"{widget.uid}-{_digest(data)}"
    first = widget.entry(widget.shown(**widget.defaults()))
    return lazy_html(widget.uid, bokeh_layout(widget, table_id, filled=False), widget.title,
                     placeholder=first["h"], data=data, table_id=table_id)


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
    table_id = table_id or f"{uid}-{_digest(doc)}"
    head = f'<p class="live-title">{html_lib.escape(title)}</p>' if title else ""
    extra = (f'<script type="application/json" class="live-data">{_json(data)}</script>'
             if data is not None else "")
    return (f'<div class="live-widget" id="{uid}" data-live="{uid}" data-table="{table_id}">{head}'
            f'<div class="live-mount"><div class="live-placeholder">{placeholder}</div></div>'
            f'<script type="application/json" class="live-doc">{_json(doc)}</script>{extra}</div>')


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _packed(table: dict[str, dict]) -> dict:
    """A table with each distinct text and each distinct bar set stored once.

    >>> _packed({"a": {"h": "x"}, "b": {"h": "x"}})
    {'h': ['x'], 'b': [], 'keys': {'a': [0, -1], 'b': [0, -1]}}
    """
    texts: dict[str, int] = {}
    bars: dict[str, int] = {}
    bar_list: list[dict] = []
    keys = {}
    for key, entry in table.items():
        hi = texts.setdefault(entry["h"], len(texts))
        bi = -1
        if "x" in entry:
            plot = {k: entry[k] for k in "xyctk" if k in entry}
            sig = json.dumps(plot, sort_keys=True)
            if sig not in bars:
                bars[sig] = len(bar_list)
                bar_list.append(plot)
            bi = bars[sig]
        keys[key] = [hi, bi]
    return {"h": list(texts), "b": bar_list, "keys": keys}


def _digest(data: dict) -> str:
    raw = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:12]
