"""The Jupyter renderer of a live widget: ipywidgets controls that call the library.

The same control contract as the built site (:mod:`widgets.views.static_page`): a number is a
slider with a box beside it for any other value, a choice is a menu, an on/off rule a switch, a
text control a box. What a reader types goes through the same parsing and the same answer as on
the site (:meth:`~widgets.views.live.LiveWidget.answer`): a bad value shows the library's Korean
message on the status line and the last good answer stays; nothing typed is reinterpreted.
"""
from __future__ import annotations

import html as html_lib


def raw_values(widget, inputs: dict) -> dict:
    """The raw values of the controls (box text, menu keys, ``"1"``/``"0"``), as the page sends
    them: what :meth:`~widgets.views.live.LiveWidget.answer` takes."""
    raw = {}
    for c in widget.controls:
        parts = inputs[c.name]
        if c.kind == "number":
            raw[c.name] = parts["box"].value
        elif c.kind == "toggle":
            raw[c.name] = "1" if parts["input"].value else "0"
        else:
            raw[c.name] = parts["input"].value
    return raw


def ipywidget(widget):
    """An ipywidgets box for a :class:`~widgets.views.live.LiveWidget`.

    >>> from widgets.views.generic import dice_pool_widget
    >>> box = ipywidget(dice_pool_widget())
    >>> "1/216" in box.children[-1].value
    True
    >>> count = box.rulebook_inputs["count"]["box"]
    >>> count.value = "1e9"                       # refused in Korean, the last answer stays
    >>> box.rulebook_status.value.count("숫자만 넣어 주세요"), "1/216" in box.children[-1].value
    (1, True)
    >>> count.value = "４"                          # a full-width 4 is a 4; the slider follows
    >>> box.rulebook_inputs["count"]["slider"].value, box.rulebook_status.value
    (4, '')
    """
    import ipywidgets as w

    inputs: dict[str, dict] = {}
    rows = []
    syncing = {"on": False}
    for c in widget.controls:
        if c.kind == "number":
            whole = all(isinstance(o, int) for o in c.options)
            step = (c.options[1] - c.options[0]) if len(c.options) > 1 else 1
            slider_cls = w.IntSlider if whole else w.FloatSlider
            slider = slider_cls(value=c.default, min=c.options[0], max=c.options[-1], step=step,
                                readout=False, continuous_update=True,
                                layout=w.Layout(flex="1 1 auto", min_width="8em"))
            slider.description = ""
            box = w.Text(value=c.key(c.default), description=c.label, continuous_update=True,
                         style={"description_width": "initial"},
                         layout=w.Layout(width="auto", min_width="12em"))
            inputs[c.name] = {"box": box, "slider": slider}
            rows.append(w.HBox([box, slider], layout=w.Layout(align_items="center")))
        elif c.kind == "select":
            menu = w.Dropdown(options=list(zip(c.option_labels, (c.key(o) for o in c.options))),
                              value=c.key(c.default), description=c.label,
                              style={"description_width": "initial"}, layout=w.Layout(width="auto"))
            inputs[c.name] = {"input": menu}
            rows.append(menu)
        elif c.kind == "text":
            box = w.Text(value=str(c.default), description=c.label,
                         continuous_update=True, style={"description_width": "initial"},
                         layout=w.Layout(width="100%"))
            inputs[c.name] = {"input": box}
            rows.append(box)
        else:
            switch = w.Checkbox(value=bool(c.default), description=c.label, indent=False)
            inputs[c.name] = {"input": switch}
            rows.append(switch)
    status = w.HTML("")
    out = w.HTML()

    def show(entry: dict) -> None:
        if "error" in entry:
            status.value = (f'<p role="status" class="widget-error" '
                            f'style="color:#b00020;font-weight:bold">⚠ '
                            f'{html_lib.escape(entry["error"])}</p>')
            return
        status.value = ""
        svg = bars_svg(entry, widget.x_label) if (widget.plot and entry.get("x")) else ""
        out.value = entry["h"] + svg + (widget.legend_html() if svg else "")

    def refresh(_change=None) -> None:
        if syncing["on"]:
            return
        raw = raw_values(widget, inputs)
        for c, row in zip(widget.controls, rows):   # controls shown only with another's value
            if c.when is not None:
                row.layout.display = "" if c.shown_with(raw) else "none"
        show(widget.answer(raw))

    def follow_box(c, parts):
        def on_box(change):
            if syncing["on"]:
                return
            slider = parts["slider"]
            try:
                value = c.parse(change["new"])
            except ValueError:
                value = None
            # the slider follows only a value it can show exactly (one of its steps): a typed 65
            # on a slider of tens stays 65 in the box, never rounded to 70
            if value is not None and value in c.options and value != slider.value:
                syncing["on"] = True
                try:
                    slider.value = value
                finally:
                    syncing["on"] = False
            refresh()
        return on_box

    def follow_slider(c, parts):
        def on_slider(change):
            if syncing["on"]:
                return
            syncing["on"] = True
            try:
                parts["box"].value = c.key(change["new"])
            finally:
                syncing["on"] = False
            refresh()
        return on_slider

    for c in widget.controls:
        parts = inputs[c.name]
        if c.kind == "number":
            parts["box"].observe(follow_box(c, parts), names="value")
            parts["slider"].observe(follow_slider(c, parts), names="value")
        else:
            parts["input"].observe(refresh, names="value")
    refresh()
    head = [w.HTML(f"<b>{html_lib.escape(widget.title)}</b>")] if widget.title else []
    root = w.VBox(head + rows + [status, out])
    # the parts by name, for code that drives the view (tests, a GM's own notebook)
    root.rulebook_inputs, root.rulebook_status, root.rulebook_out = inputs, status, out
    return root


def bars_svg(entry: dict, x_label: str, width: int = 480, height: int = 180) -> str:
    """A small inline SVG bar chart of an answer's bars (``x``, ``y``, ``c``, ``t``: positions,
    heights, colours and exact labels, as the page gets them) for the Jupyter view.

    Bars stand at their ``x`` as on the site's plot, one slot per step of ``x`` (the smallest
    gap between two bars: 1 for outcomes, a bin's width for binned bars), so a gap in ``x`` is a
    gap in the chart and a name on the axis (``k``) sits under its bar, or under the middle of
    its group of bars. Bars so sparse that this would draw them thinner than a third of their
    share stand side by side instead.

    >>> entry = {"x": [1, 2], "y": [0.5, 0.5], "c": ["#0072b2"] * 2, "t": ["1/2 (50%)"] * 2}
    >>> bars_svg(entry, "눈").count("<rect")
    2
    >>> grouped = {"x": [1, 2, 4, 5], "y": [0.25] * 4, "c": ["#0072b2"] * 4, "t": ["1/4"] * 4,
    ...            "k": [[1.5, "1격"], [4.5, "2격"]]}
    >>> import re; [float(x) for x in re.findall(r'<rect x="([0-9.]+)"', bars_svg(grouped, "타격"))]
    [38.8, 126.8, 302.8, 390.8]
    """
    xs = entry.get("x") or []
    if not xs:
        return ""
    top = max(entry["y"]) or 1.0
    n = len(xs)
    lo = min(xs)
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b > a]
    unit = min(gaps) if gaps else 1
    slots = (max(xs) - lo) / unit + 1
    by_value = slots <= 3 * n
    slot = (width - 40) / (slots if by_value else n)
    rank = {x: i for i, x in enumerate(xs)}

    def left_of(x):   # where the slot of the value x begins
        return 30 + ((x - lo) / unit if by_value else rank.get(x, 0)) * slot

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 36}" '
             f'role="img" aria-label="{html_lib.escape(x_label)}">']
    names = {x: name for x, name in entry.get("k") or ()}
    for i, (x, y, colour, label) in enumerate(zip(xs, entry["y"], entry["c"], entry["t"])):
        h = y / top * height
        left = left_of(x)
        parts.append(f'<rect x="{left + slot * 0.1:.1f}" y="{height - h + 4:.1f}" '
                     f'width="{slot * 0.8:.1f}" height="{h:.1f}" fill="{html_lib.escape(colour)}">'
                     f'<title>{html_lib.escape(str(names.get(x, x)))}: {html_lib.escape(label)}'
                     f'</title></rect>')
        if not names and (n <= 40 or i % max(1, n // 20) == 0):
            parts.append(f'<text x="{left + slot / 2:.1f}" y="{height + 18}" font-size="10" '
                         f'text-anchor="middle">{x}</text>')
    for x, name in names.items():   # outcomes named under their bars (or their group)
        parts.append(f'<text x="{left_of(x) + slot / 2:.1f}" y="{height + 18}" font-size="10" '
                     f'text-anchor="middle">{html_lib.escape(name)}</text>')
    parts.append(f'<text x="{width / 2:.0f}" y="{height + 33}" font-size="11" '
                 f'text-anchor="middle">{html_lib.escape(x_label)}</text></svg>')
    return "".join(parts)



#: The mime type of a live ipywidget in a notebook's outputs.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def pre_save(model: dict, **kwargs) -> None:
    """jupyter_server's pre-save hook for the book (set by ``scripts/dev.py lab``): an output
    that shows a live widget beside its static copy keeps only the static copy when saved. A
    saved notebook then reopens showing each widget's answer (the static copy the front end
    picks when no live model exists) instead of "Error displaying widget: model not found";
    running the cell again makes the widget live. Other outputs are left as they are.

    >>> nb = {"cells": [{"cell_type": "code", "outputs": [{"output_type": "execute_result",
    ...       "data": {WIDGET_VIEW: {"model_id": "x"}, "text/plain": "t",
    ...                "text/html": '<div class="live-widget" id="a" data-live="a">…</div>'}}]}]}
    >>> pre_save({"type": "notebook", "content": nb})
    >>> sorted(nb["cells"][0]["outputs"][0]["data"])
    ['text/html', 'text/plain']
    """
    if model.get("type") != "notebook":
        return
    for cell in model.get("content", {}).get("cells", []):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data", {})
            if WIDGET_VIEW in data and 'class="live-widget"' in str(data.get("text/html", "")):
                del data[WIDGET_VIEW]
