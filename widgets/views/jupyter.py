"""The Jupyter renderer of a live widget: ipywidgets controls that call the library.

The same control contract as the built site (:mod:`widgets.views.static_page`): a number is a
slider with a box beside it for any other value, a choice is a menu, an on/off rule a switch, a
text control a box. What a reader types goes through the same parsing and the same answer as on
the site (:meth:`~widgets.views.live.LiveWidget.answer`); nothing typed is reinterpreted.

- The slider moves over the control's own options (a selection slider: the front end sends the
  option's index, never a floating-point sum), so every value it gives is one of the control's
  steps exactly, and the box shows that step's own text (9, never 9.000000000000002).
- A box answers when the reader has finished: Enter, or a short pause after the last keystroke
  (:data:`PAUSE`; leaving the box comes after that pause). Outside a Jupyter kernel (plain
  Python, a test) it answers at once unless :func:`ipywidget` is given a pause. An accepted value moves the knob to the nearest step while
  the box keeps the exact value.
- A refused box keeps its last accepted value: the other controls still answer with it, and the
  status line gives the library's Korean message and names that box and the value in use.
"""
from __future__ import annotations

import asyncio
import html as html_lib
import itertools
import re

from .format import josa
from .static_page import BOKEH_ID

#: Seconds a box waits after the last keystroke before it answers (Enter answers at once).
PAUSE = 0.6


def nearest_option(control, value: float) -> object:
    """The option of a number control (:func:`widgets.views.live.number`) nearest to ``value``
    (the lower of two as near): where a typed value puts the slider's knob while the box keeps
    the exact value. (Here, not in ``live``: this renderer is its one user, and ``live`` imports
    the renderers, never the other way round.)

    >>> from widgets.views.live import number
    >>> c = number("d", "거리", 1, 12, 9, step=0.5)
    >>> nearest_option(c, 9.2), nearest_option(c, 9.000000000000002), nearest_option(c, 40)
    (9, 9, 12)
    >>> nearest_option(number("a", "공격", 40, 80, 60, step=10), 65)   # as near to 60 as to 70
    60
    """
    return min(control.options, key=lambda option: (abs(option - value), option))


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


def _in_kernel() -> bool:
    """Whether this runs in a Jupyter kernel (whose event loop runs a pause's timer)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _later(delay: float, call):
    """``call`` after ``delay`` seconds on the running event loop, or ``None`` where there is
    none (the caller then answers at once)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop.call_later(delay, call)


def refusal_note(label: str, kept: str) -> str:
    """What the status line adds to a refused box's message: which box, and the value the
    answer uses instead (its last accepted one).

    >>> refusal_note("순 ±DICE", "2")
    '「순 ±DICE」 칸은 마지막으로 받아들인 값 2로 계산합니다.'
    """
    return f"「{label}」 칸은 마지막으로 받아들인 값 {josa(kept, '으로/로')} 계산합니다."


class _Answers:
    """The state behind one Jupyter view: each box's last accepted text, the refused boxes and
    their messages, and the answer shown."""

    def __init__(self, widget, inputs, rows, status, out, pause):
        self.widget, self.inputs, self.rows = widget, inputs, rows
        self.status, self.out, self.pause = status, out, pause
        self.accepted = {c.name: c.key(c.default) for c in widget.controls
                         if c.kind in ("number", "text")}
        self.refused: dict[str, str] = {}
        self.timers: dict = {}
        self.syncing = False

    def box(self, c):
        parts = self.inputs[c.name]
        return parts["box"] if c.kind == "number" else parts["input"]

    def raw(self, **typed) -> dict:
        """The controls' raw values, each box at its last accepted text unless given."""
        raw = raw_values(self.widget, self.inputs)
        raw.update(self.accepted)
        raw.update(typed)
        return raw

    # --- events ---------------------------------------------------------------------
    def typed(self, c) -> None:
        """A keystroke in a box: answer after a pause (at once without an event loop)."""
        if self.syncing:
            return
        self.cancel(c)
        timer = _later(self.pause, lambda: self.finish(c)) if self.pause is not None else None
        if timer is None:
            self.finish(c)
        else:
            self.timers[c.name] = timer

    def submitted(self, c, content) -> None:
        """Enter in a box: answer at once."""
        if isinstance(content, dict) and content.get("event") == "submit":
            self.cancel(c)
            self.finish(c)

    def slid(self, c, value) -> None:
        """The knob moved: its option is the value, exactly."""
        if self.syncing:
            return
        self.cancel(c)
        self.set_quietly(self.box(c), c.key(value))
        self.accepted[c.name] = c.key(value)
        self.refused.pop(c.name, None)
        self.refresh()

    def cancel(self, c) -> None:
        """Drop the pending pause-answer of ``c``'s box, if any."""
        timer = self.timers.pop(c.name, None)
        if timer is not None:
            timer.cancel()

    # --- answering ------------------------------------------------------------------
    def finish(self, c) -> None:
        """The reader has finished typing in ``c``'s box: answer with its text, or refuse it
        (the box keeps its last accepted value for every answer until it is corrected)."""
        self.timers.pop(c.name, None)
        text = self.box(c).value
        entry = self.widget.answer(self.raw(**{c.name: text}))
        if "error" in entry:
            self.refused[c.name] = entry["error"]
            self.refresh()
            return
        self.accepted[c.name] = text
        self.refused.pop(c.name, None)
        if c.kind == "number":
            knob = nearest_option(c, c.parse(text))
            slider = self.inputs[c.name]["slider"]
            if slider.value != knob:
                self.set_quietly(slider, knob)
        self.show(entry)

    def refresh(self, _change=None) -> None:
        """Answer the controls as they stand (refused boxes at their last accepted value)."""
        if self.syncing:
            return
        self.show(self.widget.answer(self.raw()))

    def show(self, entry: dict) -> None:
        raw = self.raw()
        for c, row in zip(self.widget.controls, self.rows):   # shown only with another's value
            if c.when is not None:
                row.layout.display = "" if c.shown_with(raw) else "none"
        notes = [f"{message} {refusal_note(c.label, self.accepted[c.name])}"
                 for c in self.widget.controls
                 if (message := self.refused.get(c.name)) and c.shown_with(raw)]
        if "error" in entry:       # the controls as they stand are refused: the answer stays
            notes.append(entry["error"])
        else:
            svg = (bars_svg(entry, self.widget.x_label)
                   if (self.widget.plot and entry.get("x")) else "")
            self.out.value = (FOLD_STYLE + entry["h"] + svg
                              + (self.widget.legend_html() if svg else ""))
        self.status.value = "".join(
            f'<p role="status" class="widget-error" style="color:#b00020;font-weight:bold">⚠ '
            f"{html_lib.escape(note)}</p>" for note in notes)

    def set_quietly(self, control, value) -> None:
        self.syncing = True
        try:
            control.value = value
        finally:
            self.syncing = False


#: The disclosure triangle of an answer's folded tables (``<details>``), which JupyterLab's
#: stylesheet takes from ``<summary>`` (``list-style: none``); scoped to the answers' box.
FOLD_STYLE = ("<style>.rulebook-answer details > summary { display: list-item; cursor: pointer; "
              "list-style: disclosure-closed inside; } .rulebook-answer details[open] > summary "
              "{ list-style-type: disclosure-open; }</style>")


#: What a widget whose kernel is gone (restarted, stopped) says where its answer was: its
#: controls no longer reach the library, so its last answer is hidden rather than left to
#: disagree with what the boxes show. Shown by the book's JupyterLab plugin
#: (lab/extension/static/style.css) once the widgets' front end marks the view disconnected.
STALE_NOTE = ("⚠ 커널이 다시 시작되었거나 멈추어 이 위젯은 더 이상 계산하지 않습니다. "
              "답을 보려면 이 셀을 다시 실행하세요 (Shift+Enter, 또는 Run ▸ Run All Cells).")


def live_box(children: list, answer):
    """A live widget's box of ``children`` (title, controls, status line and ``answer``, the one
    that shows the library's answer), with the note a widget whose kernel is gone shows in
    place of its answer (:data:`STALE_NOTE`, hidden until then) just before ``answer``.

    >>> import ipywidgets as w
    >>> answer = w.HTML("답")
    >>> box = live_box([w.HTML("<b>제목</b>"), answer], answer)
    >>> box._dom_classes, box.children[1]._dom_classes, box.children[1].layout.display
    (('rulebook-live',), ('rulebook-stale',), 'none')
    >>> "다시 실행하세요" in box.children[1].value, box.children[-1]._dom_classes
    (True, ('rulebook-answer',))
    """
    import ipywidgets as w
    note = w.HTML(f'<p role="status" class="widget-error" style="color:#b00020;font-weight:bold">'
                  f"{html_lib.escape(STALE_NOTE)}</p>", layout=w.Layout(display="none"))
    note.add_class("rulebook-stale")
    if "rulebook-answer" not in answer._dom_classes:
        answer.add_class("rulebook-answer")
    at = list(children).index(answer)
    root = w.VBox(list(children[:at]) + [note] + list(children[at:]))
    root.add_class("rulebook-live")
    return root


def ipywidget(widget, pause: float | None = None):
    """An ipywidgets box for a :class:`~widgets.views.live.LiveWidget`.

    >>> from widgets.views.generic import dice_pool_widget
    >>> box = ipywidget(dice_pool_widget())
    >>> "1/216" in box.children[-1].value
    True
    >>> count = box.rulebook_inputs["count"]["box"]
    >>> count.value = "1e9"             # refused in Korean, the last answer stays (no event loop
    >>> box.rulebook_status.value.count("숫자만 넣어 주세요"), "1/216" in box.children[-1].value
    (1, True)
    >>> "「주사위 개수」 칸은 마지막으로 받아들인 값 3으로" in box.rulebook_status.value
    True
    >>> count.value = "４"                          # a full-width 4 is a 4; the knob follows
    >>> box.rulebook_inputs["count"]["slider"].value, box.rulebook_status.value
    (4, '')
    """
    import ipywidgets as w

    inputs: dict[str, dict] = {}
    rows = []
    for c in widget.controls:
        if c.kind == "number":
            # the knob moves over the options themselves: the front end sends an index
            # the knob at the slider's end stands a little past its track: a margin keeps it
            # within the row (no horizontal scrollbar at the maximum)
            slider = w.SelectionSlider(options=[(c.key(o), o) for o in c.options],
                                       value=nearest_option(c, c.default), readout=False,
                                       continuous_update=True, description="",
                                       layout=w.Layout(flex="1 1 auto", min_width="8em",
                                                       margin="0 12px 0 2px"))
            box = w.Text(value=c.key(c.default), description=c.label, continuous_update=True,
                         style={"description_width": "initial"},
                         layout=w.Layout(width="auto", min_width="12em"))
            box.add_class("rulebook-number")   # selected when tapped (lab/extension), as on the site
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
                         layout=w.Layout(width="auto", align_self="stretch"))
            inputs[c.name] = {"input": box}
            rows.append(box)
        else:
            switch = w.Checkbox(value=bool(c.default), description=c.label, indent=False)
            inputs[c.name] = {"input": switch}
            rows.append(switch)
    status = w.HTML("")
    out = w.HTML()
    out.add_class("rulebook-answer")
    # in a kernel, a box answers after PAUSE; elsewhere (a script, a test under another program's
    # event loop) at once, unless a pause is asked for
    if pause is None and _in_kernel():
        pause = PAUSE
    answers = _Answers(widget, inputs, rows, status, out, pause)
    for c in widget.controls:
        parts = inputs[c.name]
        if c.kind in ("number", "text"):
            box = answers.box(c)
            box.observe(lambda _change, c=c: answers.typed(c), names="value")
            box.on_msg(lambda _box, content, _buffers, c=c: answers.submitted(c, content))
            if c.kind == "number":
                parts["slider"].observe(lambda change, c=c: answers.slid(c, change["new"]),
                                        names="value")
        else:
            parts["input"].observe(answers.refresh, names="value")
    answers.refresh()
    head = [w.HTML(f"<b>{html_lib.escape(widget.title)}</b>")] if widget.title else []
    root = live_box(head + rows + [status, out], out)
    # the parts by name, for code that drives the view (tests, a GM's own notebook)
    root.rulebook_inputs, root.rulebook_status, root.rulebook_out = inputs, status, out
    root.rulebook_answers = answers
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
    >>> binned = {"x": [4.5 + 10 * i for i in range(30)], "y": [1 / 30] * 30, "c": ["#0072b2"] * 30,
    ...           "t": ["1/30"] * 30, "n": [f"{10 * i}~{10 * i + 9}" for i in range(30)]}
    >>> svg = bars_svg(binned, "합계"); svg.count("<text") - 1, "<title>10~19: 1/30</title>" in svg
    (10, True)
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
    bins = entry.get("n") or ()          # binned bars: each bar's range ("9400~9499")
    every = max(1, -(-n * 40 // (width - 40)))   # a number under every k-th bar, 40 px apart
    for i, (x, y, colour, label) in enumerate(zip(xs, entry["y"], entry["c"], entry["t"])):
        h = y / top * height
        left = left_of(x)
        what = bins[i] if bins else names.get(x, x)
        parts.append(f'<rect x="{left + slot * 0.1:.1f}" y="{height - h + 4:.1f}" '
                     f'width="{slot * 0.8:.1f}" height="{h:.1f}" fill="{html_lib.escape(colour)}">'
                     f'<title>{html_lib.escape(str(what))}: {html_lib.escape(label)}'
                     f'</title></rect>')
        if not names and i % every == 0:
            tick = bins[i].split("~")[0] if bins else x
            parts.append(f'<text x="{left + slot / 2:.1f}" y="{height + 18}" font-size="10" '
                         f'text-anchor="middle">{html_lib.escape(str(tick))}</text>')
    for x, name in names.items():   # outcomes named under their bars (or their group)
        parts.append(f'<text x="{left_of(x) + slot / 2:.1f}" y="{height + 18}" font-size="10" '
                     f'text-anchor="middle">{html_lib.escape(name)}</text>')
    parts.append(f'<text x="{width / 2:.0f}" y="{height + 33}" font-size="11" '
                 f'text-anchor="middle">{html_lib.escape(x_label)}</text></svg>')
    return "".join(parts)



#: The mime type of a live ipywidget in a notebook's outputs.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: A static copy's Bokeh document (the site embeds it; :func:`widgets.views.static_page.lazy_html`).
_LIVE_DOC = re.compile(r'(<script type="application/json" class="live-doc">)(.*?)(</script>)', re.S)
#: The first id the saved form gives (Bokeh's own counter starts here too).
FIRST_ID = 1000


def renumber_ids(html: str, counter) -> str:
    """``html`` with each Bokeh document's model ids renumbered from ``counter`` in the order
    they first appear in it (every reference to one id follows it). Ids stay unique across a
    notebook: each document takes the next numbers, whatever a kernel's counter gave.

    >>> import itertools
    >>> doc = ('<script type="application/json" class="live-doc">'
    ...        '{"root_id":"p2207","doc":{"roots":[{"id":"p2207","x":{"id":"p2209"}}]}}</script>')
    >>> renumber_ids(doc, itertools.count(1000))[-80:]
    '{"root_id":"p1000","doc":{"roots":[{"id":"p1000","x":{"id":"p1001"}}]}}</script>'
    """
    def document(match):
        new: dict[str, str] = {}

        def one(found):
            if found.group(0) not in new:
                new[found.group(0)] = f'"p{next(counter)}"'
            return new[found.group(0)]
        return match.group(1) + BOKEH_ID.sub(one, match.group(2)) + match.group(3)
    return _LIVE_DOC.sub(document, html)


def _stored_python(path, contents_manager):
    """The Python version the stored notebook at ``path`` names, if there is one."""
    if not path or contents_manager is None:
        return None
    try:
        if not contents_manager.file_exists(path):
            return None
        stored = contents_manager.get(path, content=True, type="notebook")["content"]
        return stored["metadata"]["language_info"]["version"]
    except Exception:       # unreadable or not a notebook: the kernel's version stands
        return None


def pre_save(model: dict, **kwargs) -> None:
    """jupyter_server's pre-save hook for the book (set by ``scripts/dev.py lab``; the stored
    notebooks are saved through it too, ``scripts/execute_notebooks.py``): a notebook saved after
    any number of runs is byte for byte the notebook stored, so reading never changes a file.

    - An output that shows a live widget beside its static copy keeps only the static copy. A
      saved notebook then reopens showing each widget's answer (the static copy the front end
      picks when no live model exists) instead of "Error displaying widget: model not found";
      running the cell again makes the widget live. The notebook keeps no widget state.
    - Execution counts are each code cell's place among the code cells (1, 2, 3 …), not how
      many cells the kernel has run.
    - Bokeh model ids in the static copies are numbered from :data:`FIRST_ID` in the order
      they appear (:func:`renumber_ids`), not by the kernel's counter.
    - No cell keeps the times of its last run (JupyterLab's ``execution`` metadata).
    - Saved over a stored notebook (JupyterLab passes ``path`` and its ``contents_manager``), the
      notebook keeps the stored kernel's Python version (``language_info.version``): a reader's
      Python may differ from the one that stored the book.

    Other outputs are left as they are.

    >>> nb = {"cells": [{"cell_type": "code", "execution_count": 7, "metadata": {},
    ...       "outputs": [{"output_type": "execute_result", "execution_count": 7,
    ...       "data": {WIDGET_VIEW: {"model_id": "x"}, "text/plain": "t",
    ...                "text/html": '<div class="live-widget" id="a" data-live="a">…</div>'}}]}]}
    >>> pre_save({"type": "notebook", "content": nb})
    >>> sorted(nb["cells"][0]["outputs"][0]["data"]), nb["cells"][0]["execution_count"]
    (['text/html', 'text/plain'], 1)
    """
    if model.get("type") != "notebook":
        return
    notebook = model.get("content") or {}
    metadata = notebook.get("metadata", {})
    metadata.pop("widgets", None)
    stored = _stored_python(kwargs.get("path"), kwargs.get("contents_manager"))
    if stored and "version" in metadata.get("language_info", {}):
        metadata["language_info"]["version"] = stored
    ids = itertools.count(FIRST_ID)
    code = [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]
    for place, cell in enumerate(code, 1):
        cell.get("metadata", {}).pop("execution", None)
        if cell.get("execution_count") is not None:
            cell["execution_count"] = place
        for output in cell.get("outputs", []):
            if output.get("execution_count") is not None:
                output["execution_count"] = place
            data = output.get("data", {})
            html = data.get("text/html")
            if html is None:
                continue
            text = "".join(html) if isinstance(html, list) else html
            if WIDGET_VIEW in data and 'class="live-widget"' in text:
                del data[WIDGET_VIEW]
            renumbered = renumber_ids(text, ids)
            if renumbered != text:
                data["text/html"] = renumbered
