"""Checks every chapter's view tests share."""
from __future__ import annotations

from widgets.views.live import MAX_STATIC_ENTRIES, LiveWidget

#: What LiveWidget.shown() prints for an error that is not a rule message (a bug in a view).
UNEXPECTED = "입력을 처리할 수 없습니다"


def check_static_table(widget: LiveWidget, rule_messages_allowed: bool = False,
                       bars_total: int = 1) -> dict:
    """Every combination of options has an entry; no entry hides a view bug; plotted
    probabilities sum to ``bars_total`` (the number of distributions plotted side by side). With ``rule_messages_allowed`` an entry may show the library's
    Korean message (e.g. out of range); otherwise no entry may show any error."""
    table = widget.static_table()
    settings = widget.settings()
    assert len(table) == len(settings) <= MAX_STATIC_ENTRIES   # every setting, each its own key
    size = 1
    for c in widget.controls:
        if c.when is None and c.kind != "text":
            size *= len(c.options)
    assert len(settings) >= size            # at least every option of every control shown always
    for key, entry in table.items():
        assert UNEXPECTED not in entry["h"], key
        if not rule_messages_allowed:
            assert "widget-error" not in entry["h"], key
        if "y" in entry:
            assert abs(sum(entry["y"]) - bars_total) < 1e-9, key
    return table


class JupyterView:
    """A widget's Jupyter view driven as a reader would: type text into a number box or a text
    box, pick a menu entry by its key, flip a switch; read the answer and the status line."""

    def __init__(self, widget: LiveWidget):
        self.widget = widget
        self.box = widget.ipywidget()

    def type(self, name: str, text: object) -> "JupyterView":
        parts = self.box.rulebook_inputs[name]
        (parts["box"] if "box" in parts else parts["input"]).value = str(text)
        return self

    def pick(self, name: str, value: object) -> "JupyterView":
        control = next(c for c in self.widget.controls if c.name == name)
        self.box.rulebook_inputs[name]["input"].value = control.key(value)
        return self

    def switch(self, name: str, on: bool) -> "JupyterView":
        self.box.rulebook_inputs[name]["input"].value = bool(on)
        return self

    @property
    def out(self) -> str:
        return self.box.rulebook_out.value

    @property
    def status(self) -> str:
        return self.box.rulebook_status.value

    @property
    def seen(self) -> str:
        """Everything the reader sees: the status line and the answer."""
        return self.status + self.out


class _Typed:
    """One control of a :class:`JupyterView` set by assignment (``.value = 65`` types ``"65"``)."""

    def __init__(self, view: JupyterView, name: str):
        self.view, self.control = view, next(c for c in view.widget.controls if c.name == name)

    @property
    def value(self):
        parts = self.view.box.rulebook_inputs[self.control.name]
        return (parts["box"] if "box" in parts else parts["input"]).value

    @value.setter
    def value(self, value) -> None:
        kind = self.control.kind
        if kind == "toggle":
            self.view.switch(self.control.name, value)
        elif kind == "select":
            self.view.pick(self.control.name, value)
        else:
            self.view.type(self.control.name, value)


class _Seen:
    def __init__(self, view: JupyterView):
        self.view = view

    @property
    def value(self) -> str:
        return self.view.seen


def jupyter_boxes(widget: LiveWidget) -> tuple[dict[str, _Typed], _Seen]:
    """``(controls by name, what the reader sees)`` of a widget's Jupyter view: assigning a
    control's ``.value`` types it as a reader would; ``.value`` of the second is the status line
    and the answer together."""
    view = JupyterView(widget)
    return {c.name: _Typed(view, c.name) for c in widget.controls}, _Seen(view)


def shows_exact(p, markup: str) -> bool:
    """``markup`` shows the exact chance ``p`` with its percent: inline (``5/12 (41.67%)``), or
    the percent with the fraction behind 「정확한 값 보기」 (a long one).

    >>> from fractions import Fraction
    >>> shows_exact(Fraction(5, 12), "<td>5/12 (41.67%)</td>"), shows_exact(Fraction(5, 12), "<td>41.67%</td>")
    (True, False)
    """
    import html
    from widgets.views import format as fmt
    from widgets.views.table import EXACT_SUMMARY
    return (html.escape(fmt.prob(p)) in markup
            or (f"{html.escape(fmt.percent(p))} <details class=\"ex\"><summary>{EXACT_SUMMARY}</summary>"
                f"<span>{fmt.fraction(p)}</span>") in markup)


def opened(markup: str) -> str:
    """``markup`` with each exact fraction folded behind 「정확한 값 보기」 read as the reader has
    it once opened, in the text form: the reading before it then the fraction, as
    ``fraction (reading)`` (:func:`widgets.views.format.prob`); a fold alone, its fraction.

    >>> opened('약 99% · 99.06% <details class="ex"><summary>정확한 값 보기</summary><span>138647/139968</span></details>')
    '약 99% · 138647/139968 (99.06%)'
    """
    import re
    fold = r'<details class="ex"><summary>[^<]*</summary><span>([^<]*)</span></details>'
    markup = re.sub(r"((?:[≈] )?[\d.]+%(?: 미만| 넘게)?|≈ [\d.]+) " + fold, r"\2 (\1)", markup)
    return re.sub(fold, r"\1", markup)


def table_rows(markup: str) -> list[list[str]]:
    """The rows of every table in some html, each as the texts of its cells (tags dropped,
    entities read): what a reader sees in the table, whatever markup draws it. A cell whose
    exact fraction waits behind 「정확한 값 보기」 (``details.ex``) reads as the reader has it
    once opened, the fraction and its reading: ``fraction (reading)``.

    >>> table_rows('<table><tr><th scope="row">성공</th><td class="num">1/2 (50%)</td></tr></table>')
    [['성공', '1/2 (50%)']]
    >>> table_rows('<table><tr><td>1.00% <details class="ex"><summary>정확한 값 보기</summary>'
    ...            '<span>1/100</span></details></td></tr></table>')
    [['1/100 (1.00%)']]
    """
    from html.parser import HTMLParser

    class Rows(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.rows, self.cell, self.exact, self.where = [], None, None, ""

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.cell, self.exact = [], None
            elif tag == "details" and ("class", "ex") in attrs and self.cell is not None:
                self.exact, self.where = [], "details"
            elif tag == "summary" and self.where == "details":
                self.where = "summary"

        def handle_endtag(self, tag):
            if tag == "summary" and self.where == "summary":
                self.where = "details"
            elif tag == "details" and self.where:
                self.where = ""
            elif tag in ("td", "th") and self.cell is not None and self.rows:
                text = "".join(self.cell).strip()
                if self.exact is not None:
                    text = f"{''.join(self.exact).strip()} ({text})"
                self.rows[-1].append(text)
                self.cell = None

        def handle_data(self, data):
            if self.where == "summary":
                return
            if self.where == "details" and self.exact is not None:
                self.exact.append(data)
            elif self.cell is not None:
                self.cell.append(data)

    parser = Rows()
    parser.feed(markup)
    return parser.rows


def random_floor(rng, w: int, h: int, walls: float, enemies: tuple[float, float],
                 difficult: float = 0.15, engaged_start: bool = True):
    """A random floor plan for the grid tests: up to ``walls`` of the squares walls, a share
    of enemies drawn from ``enemies``, a few allies, barriers and difficult squares; the mover
    starts on a free square, half the time next to an enemy (flights and withdrawals happen).
    Returns ``(terrain, start)``."""
    from widgets.grid import Terrain
    cells = [(c, r) for c in range(w) for r in range(h)]
    rng.shuffle(cells)
    start = cells.pop()

    def take(share: float) -> set:
        return {cells.pop() for _ in range(min(len(cells), int(w * h * share)))}

    t = Terrain(w, h, blocked=take(rng.uniform(0, walls)), enemies=take(rng.uniform(*enemies)),
                allies=take(0.05), barrier={s for s in cells if rng.random() < 0.1},
                difficult={s for s in cells if rng.random() < difficult})
    if engaged_start and rng.random() < 0.5 and t.enemies:
        e = min(t.enemies)
        for n in ((e[0] + 1, e[1]), (e[0], e[1] + 1), (e[0] - 1, e[1]), (e[0], e[1] - 1)):
            if t.inside(n) and n not in t.blocked | t.enemies | t.allies:
                start = n
                break
    return t, start
