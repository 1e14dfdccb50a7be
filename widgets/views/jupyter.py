"""The Jupyter renderer of a live widget: ipywidgets controls that call ``compute``.

Number controls are free-form boxes, so any value the library accepts works here."""
from __future__ import annotations

import html as html_lib

from . import format as fmt


def ipywidget(widget):
    """An ipywidgets box for a :class:`~widgets.views.live.LiveWidget`.

    >>> from widgets.views.generic import dice_pool_widget
    >>> box = ipywidget(dice_pool_widget())
    >>> "1/216" in box.children[-1].value
    True
    """
    import ipywidgets as w

    inputs = []
    for c in widget.controls:
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
        values = {c.name: i.value for c, i in zip(widget.controls, inputs)}
        shown = widget.shown(**values)
        svg = bars_svg(shown.bars, widget.colors, widget.x_label) \
            if (widget.plot and shown.bars) else ""
        out.value = shown.html + svg + (widget.legend_html() if svg else "")

    for i in inputs:
        i.observe(refresh, names="value")
    refresh()
    head = [w.HTML(f"<b>{html_lib.escape(widget.title)}</b>")] if widget.title else []
    return w.VBox(head + inputs + [out])


def bars_svg(bars, colors: dict, x_label: str, width: int = 480, height: int = 180) -> str:
    """A small inline SVG bar chart for the Jupyter view.

    >>> from widgets.dice import die
    >>> from widgets.views.live import Bars, BAND_COLORS
    >>> bars_svg(Bars.from_dist(die(2), lambda v: "neutral"), BAND_COLORS, "눈").count("<rect")
    2
    """
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
