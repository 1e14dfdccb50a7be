"""The grid explorer in Jupyter, as on the site: one anywidget (an ES module the front end runs in
JupyterLab, VS Code and Colab alike) showing the site's DOM grid with its tools, path and
parting-shot list, driven by the site's own controller (``widgets/js/grid_explorer.js``, with
``widgets/js/grid_widget.mjs`` as its Jupyter host), while the kernel computes every square with
the Python library (:func:`widgets.views.bfrpg.grid_result`): the same answers as the site's JS
twins, which the tests check against the library.

Why anywidget: the site's explorer is plain DOM driven by one script; anywidget runs such a
script as the widget's front end with no build step and no extension of our own (its own
prebuilt JupyterLab extension comes with the PyPI package and uses the installed ipywidgets), so
the two homes share the controller instead of keeping a second, weaker view in ipywidgets.

Beside the grid, text boxes take the plan as coordinates (size, the combatant, enemies …): they
answer when the reader has finished (Enter or leaving the box); a refused box says so in Korean
and the last grid stays. Clicking squares rewrites the boxes.
"""
from __future__ import annotations

import html
from functools import cache
from pathlib import Path

from ..errors import RuleInputError
from . import format as fmt

JS = Path(__file__).resolve().parent.parent / "js"
#: The text boxes under the grid: name → label (the plan as ``열,행; 열,행``).
BOXES = {"width": "너비", "height": "높이", "me": "전투원 (열,행)", "enemies": "적", "allies": "아군",
         "walls": "벽", "barrier": "장벽", "difficult": "험한 지형"}
#: Extra rules of the Jupyter view's own page (the grid's are views.bfrpg.grid_css).
JUPYTER_CSS = """
.bfw { container-type: inline-size; font-family: sans-serif; }
.bfw-bar { display: flex; flex-wrap: wrap; gap: 0.5em 1em; margin: 0.3em 0; }
.bfw-bar label { display: flex; flex-direction: column; font-size: 0.9em; }
.bfw-bar select { min-height: 2.2em; font-size: 1em; }
.bfw-out .widget-error { color: #b00020; font-weight: bold; }
.bfw-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
"""


def esm() -> str:
    """The front end: the shared controller and its Jupyter host as one ES module.

    >>> "export default" in esm() and "var BfGridExplorer" in esm()
    True
    """
    return ((JS / "grid_explorer.js").read_text(encoding="utf-8") + "\n"
            + (JS / "grid_widget.mjs").read_text(encoding="utf-8"))


@cache
def _model_class(grid_css: str):
    """The anywidget class (made on first use: importing the library needs no anywidget)."""
    import anywidget
    import traitlets

    class GridModel(anywidget.AnyWidget):
        _esm = esm()
        _css = grid_css + JUPYTER_CSS
        data = traitlets.Dict().tag(sync=True)       # texts and menus (GridExplorer.export)
        cells = traitlets.Dict().tag(sync=True)      # the squares, as the site's cells source
        path = traitlets.Dict().tag(sync=True)       # {i, squares, seq}: a square's shown path
        msg = traitlets.Unicode("").tag(sync=True)   # the line under the grid
        tool = traitlets.Unicode("enemy").tag(sync=True)
        rate_key = traitlets.Unicode("scene").tag(sync=True)
        scene = traitlets.Unicode("demo").tag(sync=True)

    return GridModel


class JupyterGrid:
    """One explorer in a notebook: the model the front end shows, the text boxes, and the
    current plan with its library answer (``result``, ``options``)."""

    def __init__(self, explorer, views):
        import ipywidgets as w

        self.views, self.explorer = views, explorer
        data = dict(explorer.export(), uid=explorer.uid, legend=views.legend_html(),
                    titles={"tool": "도구 (칸을 누르면)", "rate": "갑옷과 짐 (이동 속도)",
                            "scene": "예제 평면도"},
                    tools=[[k, v] for k, v in views.TOOLS.items()],
                    rateOptions=[["scene", "예제에 적힌 이동 속도"]]
                    + [[k, lab] for k, (lab, _) in explorer.rates.items()],
                    sceneOptions=[[k, lab] for k, (lab, _, _) in explorer.scenes.items()])
        self.model = _model_class(views.grid_css())(data=data, scene=explorer.scene,
                                                    rate_key=explorer.rate_key)
        self.boxes = {k: w.Text(description=lab, continuous_update=False,
                                style={"description_width": "initial"},
                                layout=(w.Layout(width="12em") if k in ("width", "height")
                                        else w.Layout(width="auto", align_self="stretch")))
                      for k, lab in BOXES.items()}
        self._busy = False
        self.layout = self.result = self.options = None
        self.model.on_msg(self._on_msg)
        self.model.observe(self._on_rate, names="rate_key")
        self.model.observe(self._on_scene, names="scene")
        for b in self.boxes.values():
            b.observe(self._on_box, names="value")
        self.load_scene(explorer.scene)

    # --- what the reader does ------------------------------------------------------------
    def rate(self) -> int:
        return self.explorer.rate_of(self.model.scene, self.model.rate_key)

    def show(self, layout, rate: int | None = None) -> bool:
        """Compute ``layout`` with the library and send it; on a refusal keep the last grid and
        say why (``False``)."""
        views = self.views
        rate = self.rate() if rate is None else rate
        try:
            result = views.grid_result(layout, rate)
        except RuleInputError as err:
            self.model.msg = self._status() + fmt.error(err.korean)
            return False
        self.layout, self.result = layout, result
        self.options = result.move_options
        cells = self.explorer.cell_data(result)
        cells.update(w=layout.width, h=layout.height, rate=result.rate)
        self.model.cells = cells
        self.model.msg = views.status_html(result.rate)
        self._write_boxes()
        return True

    def load_scene(self, key: str) -> None:
        lay = self.explorer.scenes[key][1]
        if self.model.rate_key != "scene":
            self.model.rate_key = "scene"    # its observer shows the old plan at the new rate
        self.show(lay)

    def apply_codes(self, codes: str, width: int, height: int) -> bool:
        """A plan the front end made with a tool (one code per square, see views.CODES)."""
        views = self.views
        try:
            lay = views.Layout(width, height, codes)
            if set(lay.codes) - set(views.CODES) or lay.codes.count("@") != 1:
                raise RuleInputError("bad codes", self.explorer.export()["messages"]["noStart"])
            lay.terrain()
        except (RuleInputError, TypeError):
            self.model.msg = self._status() + fmt.error(
                self.explorer.export()["messages"]["noStart"])
            return False
        return self.show(lay)

    def path_to(self, i: int) -> tuple[int, ...]:
        """The squares (indices) of square ``i``'s path, sent to the front end."""
        t = self.layout.terrain()
        squares = tuple(t.index(s) for s in self.options.path_to(t.square(i))) \
            if 0 <= i < t.width * t.height else ()
        self.model.path = {"i": i, "squares": list(squares), "seq": self.model.path.get("seq", 0) + 1}
        return squares

    # --- plumbing --------------------------------------------------------------------------
    def _status(self) -> str:
        return self.views.status_html(self.result.rate if self.result else self.rate())

    def _on_msg(self, _model, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        if content.get("type") == "codes":
            self.apply_codes(content.get("codes"), content.get("w"), content.get("h"))
        elif content.get("type") == "path" and self.layout is not None:
            self.path_to(int(content.get("i", -1)))

    def _on_rate(self, _change) -> None:
        if self.layout is not None:
            self.show(self.layout)

    def _on_scene(self, change) -> None:
        self.load_scene(change["new"])

    def _write_boxes(self) -> None:
        lay = self.layout
        values = {"width": lay.width, "height": lay.height}
        for key, code in (("me", "@"), ("enemies", "e"), ("allies", "a"), ("walls", "#"),
                          ("barrier", "b"), ("difficult", "d")):
            values[key] = "; ".join(f"{c},{r}" for c, r in sorted(lay.squares(code)))
        self._busy = True
        try:
            for key, value in values.items():
                self.boxes[key].value = str(value)
        finally:
            self._busy = False

    def _on_box(self, _change) -> None:
        if self._busy:
            return
        try:
            lay = self.views.layout_from_text(**{k: b.value for k, b in self.boxes.items()})
        except RuleInputError as err:
            self.model.msg = self._status() + fmt.error(err.korean)   # the last grid stays
            return
        self.show(lay)

    def widget(self):
        import ipywidgets as w
        head = [w.HTML(f"<b>{html.escape(self.explorer.title)}</b>")] if self.explorer.title else []
        note = w.HTML("<p>좌표로 적기 (열,행; 열,행 …): Enter를 누르거나 칸을 떠나면 격자에 반영됩니다.</p>")
        sizes = w.HBox([self.boxes["width"], self.boxes["height"]])
        from .jupyter import live_box
        # the plan is the answer: hidden, with a note saying so, once the kernel is gone
        box = live_box(head + [self.model, note, sizes]
                       + [self.boxes[k] for k in BOXES if k not in ("width", "height")],
                       self.model)
        box.rulebook_grid = self       # for code that drives the view (tests, a GM's notebook)
        return box


def grid_widget(explorer, views):
    """The Jupyter view of a :class:`~widgets.views.bfrpg.GridExplorer` (see the module).
    ``views`` is the module of the grid's parts (:mod:`widgets.views.bfrpg`, which calls this):
    passed down, so that this module imports no chapter's view (no import circle)."""
    return JupyterGrid(explorer, views).widget()
