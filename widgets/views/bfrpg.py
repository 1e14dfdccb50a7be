"""Live widgets of the Basic Fantasy RPG floor-plan chapter (display only; the rules are in
``widgets.bfrpg`` / ``widgets.grid`` and their JavaScript twins ``widgets/js/grid_cost.js`` and
``widgets/js/bfrpg_options.js``).

The grid explorer (:class:`GridExplorer`) is the one widget that does not fit a lookup table:
its static page recomputes every square in the browser with the JS twins (checked against the
Python library in the tests), driven by ``widgets/js/grid_explorer.js``; in Jupyter the same
view is computed by the Python library.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations, product
from typing import Mapping

from .. import bfrpg as bf
from ..errors import RuleInputError, particle
from ..grid import (FACING_KO, Square, Terrain, diagonal_feet, front_arc, least_rear_attackers,
                    rear_arc, visible_squares)
from ..limits import MAX_FLIGHT_WORK
from ..ranges import BFRPG_MISSILE_RANGES, bfrpg_missile_bands
from . import format as fmt
from . import labels
from .live import (BAND_COLORS, LiveWidget, Shown, dual_bundle, normalise_typed, number, select,
                   toggle, widget_factory)
from .static_page import lazy_html
from .table import Table, number_cell
from .trench_crusade import WorkedExamples

# --- shared display data -----------------------------------------------------------------

#: Fill colour per movement option (Okabe–Ito, as the rest of the book). The source's melee
#: figure uses green / orange / red for melee move / withdrawal / fleeing; so do we.
OPTION_COLORS: Mapping[str, str] = {
    "start": BAND_COLORS["neutral"],
    "walk": BAND_COLORS["success"],
    "melee_move": "#7fd1b9",
    "withdraw": BAND_COLORS["critical"],
    "run": "#f0e442",
    "flee_walk": BAND_COLORS["failure"],
    "flee_run": "#f4a582",
    "out": "#f2f2f2",
    "pass": "#56b4e9",
    "blocked": "#444444",  # walls; enemies get their own colour below
}
ENEMY_COLOR = BAND_COLORS["down"]
TERRAIN_EDGE = {"b": "#7f3f00", "d": "#5e3c99"}  # border of barrier / difficult squares
#: Border style per terrain: colour is never the only mark (solid: barrier, dashed: difficult).
TERRAIN_STYLE = {"b": "solid", "d": "dashed"}
PLAIN_EDGE = "#bbbbbb"
#: A mark after the feet of a square, so that the option is not told by colour alone
#: (fleeing squares also end in "!", see :func:`cell_label`).
OPTION_MARKS: Mapping[str, str] = {"run": "»", "flee_run": "»", "melee_move": "•", "withdraw": "◂"}


def _luminance(color: str) -> float:
    rgb = [int(color.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours.

    >>> round(contrast("#000000", "#ffffff"), 1)
    21.0
    """
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (at least 4.5:1 for every fill here).

    >>> text_on("#444444"), text_on("#f0e442")
    ('#ffffff', '#000000')
    """
    return max(("#000000", "#ffffff"), key=lambda t: contrast(t, fill))

#: One character per square in a scene's layout string.
CODES = {".": "빈 칸", "#": "벽 (wall)", "b": "장벽 (barrier, +5피트)",
         "d": "험한 지형 (difficult, 2배)", "a": "아군 (ally)", "e": "적 (enemy)",
         "@": "이동하는 전투원"}
#: Tools of the static explorer (value → Korean label), with the code each one paints.
TOOLS = {"me": "전투원 옮기기", "enemy": "적 놓기", "ally": "아군 놓기", "wall": "벽 놓기",
         "barrier": "장벽 놓기 (+5피트)", "difficult": "험한 지형 놓기 (2배)", "erase": "지우기",
         "path": "경로 보기"}
TOOL_CODE = {"me": "@", "enemy": "e", "ally": "a", "wall": "#", "barrier": "b",
             "difficult": "d", "erase": "."}

_ARMOR_KO = {"none": "갑옷 없음", "magic_leather": "마법 가죽", "leather": "가죽 갑옷",
             "magic_metal": "마법 금속", "metal": "금속 갑옷 (판금·사슬)"}
_LOAD_KO = {"light": "가벼운 짐", "heavy": "무거운 짐"}


def rate_choices() -> dict[str, tuple[str, int]]:
    """Armour + load keys → (Korean label, rate from :func:`bf.movement_rate`)."""
    out = {}
    for armor, load in product(("none", "leather", "metal"), ("light", "heavy")):
        rate = bf.movement_rate(armor, load)
        out[f"{armor}|{load}"] = (f"{_ARMOR_KO[armor]}, {_LOAD_KO[load]}: {rate}피트", rate)
    return out


# --- layouts (scenes as strings) ---------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """A floor plan as one code character per square (row by row, see :data:`CODES`)."""

    width: int
    height: int
    codes: str

    def __post_init__(self):
        if len(self.codes) != self.width * self.height:
            raise RuleInputError("layout size mismatch", "평면도의 칸 수가 크기와 맞지 않습니다.")

    @classmethod
    def from_terrain(cls, t: Terrain, start: Square | None) -> "Layout":
        cells = []
        for r in range(t.height):
            for c in range(t.width):
                s = (c, r)
                cells.append("@" if s == start else "#" if s in t.blocked else "e" if s in t.enemies
                             else "a" if s in t.allies else "b" if s in t.barrier
                             else "d" if s in t.difficult else ".")
        return cls(t.width, t.height, "".join(cells))

    def squares(self, code: str) -> set[Square]:
        return {(i % self.width, i // self.width) for i, ch in enumerate(self.codes) if ch == code}

    def terrain(self) -> Terrain:
        return Terrain(self.width, self.height, blocked=self.squares("#"), barrier=self.squares("b"),
                       difficult=self.squares("d"), allies=self.squares("a"),
                       enemies=self.squares("e"))

    def start(self) -> Square:
        found = sorted(self.squares("@"))
        if not found:
            raise RuleInputError("no combatant on the grid", "평면도에 이동할 전투원이 없습니다.")
        return found[0]


def _demo_layout() -> Layout:
    t = Terrain(16, 12, blocked={(7, r) for r in range(2, 8)} | {(8, 7), (9, 7)},
                barrier={(3, 3), (4, 3)}, difficult={(c, r) for c in (11, 12) for r in (8, 9, 10)},
                allies={(4, 6)}, enemies={(10, 4)})
    return Layout.from_terrain(t, (2, 6))


def _open30_layout() -> Layout:
    t = Terrain(30, 30, blocked={(15, r) for r in range(4, 24)} | {(c, 24) for c in range(8, 16)},
                barrier={(c, 10) for c in range(3, 9)},
                difficult={(c, r) for c in range(20, 26) for r in range(18, 24)},
                allies={(6, 14)}, enemies={(18, 12), (22, 5)})
    return Layout.from_terrain(t, (4, 15))


def _two_goblins_layout() -> Layout:
    """A corridor past two goblins: walking on from the first goblin's side to the second's
    leaves the first one's melee (a flight, its parting shot), then the second's."""
    t = Terrain(9, 2, blocked={(c, 0) for c in range(9)} - {(3, 0), (6, 0)},
                enemies={(3, 0), (6, 0)})
    return Layout.from_terrain(t, (0, 1))


#: Scenes of the explorer: (Korean label, layout, rate). From SCENES plus practice floors.
EXPLORER_SCENE_KEYS = ("tannen_move", "doughbert_move", "mandross_move", "paladin_run",
                       "tannen_melee", "doughbert_melee", "missile")


def explorer_scenes() -> dict[str, tuple[str, Layout, int]]:
    """The explorer's floor plans by key: (the menu's Korean label, layout, rate)."""
    out = {"demo": ("연습용 평면 16×12", _demo_layout(), 30)}
    for key in EXPLORER_SCENE_KEYS:
        s = bf.SCENES[key]
        out[key] = (fmt.korean_only(s.title), Layout.from_terrain(s.terrain(), s.mover.square), s.rate)
    out["two_goblins"] = ("두 고블린 곁을 지나는 복도 (연습용)", _two_goblins_layout(), 40)
    out["open30"] = ("큰 평면 30×30", _open30_layout(), 40)
    return out


# --- the explorer's per-square result (Python side) --------------------------------------

@dataclass(frozen=True)
class GridResult:
    """Per square (index order): option, feet (−1: none), the enemies (square indices) whose
    parting shot the move takes, fill colour, label."""

    layout: Layout
    rate: int
    options: tuple[str, ...]
    feet: tuple[int, ...]
    shots: tuple[tuple[int, ...], ...]
    #: The library's answer these come from (paths: ``move_options.path_to``).
    move_options: bf.MoveOptions | None = field(default=None, compare=False, repr=False)

    # computed once per result (a 60×60 plan has 3,600 squares)
    @cached_property
    def colors(self) -> list[str]:
        return [ENEMY_COLOR if ch == "e" else OPTION_COLORS[o]
                for ch, o in zip(self.layout.codes, self.options)]

    @cached_property
    def enemy_numbers(self) -> dict[int, int]:
        """Square index → the enemy's number on the grid (1, 2, … in square order)."""
        return {i: n for n, i in enumerate((i for i, ch in enumerate(self.layout.codes) if ch == "e"), 1)}

    @cached_property
    def labels(self) -> list[str]:
        num = self.enemy_numbers
        return [cell_label(ch, o, f, num.get(i, 0))
                for i, (ch, o, f) in enumerate(zip(self.layout.codes, self.options, self.feet))]

    def describe(self, i: int) -> str:
        """What the page says of square ``i`` (the cursor's label; with the path tool, the
        line under the grid): same text as the page's JS ``describe``."""
        w, ch, opt, feet = self.layout.width, self.layout.codes[i], self.options[i], self.feet[i]
        num = self.enemy_numbers
        what = (f"{SQUARE_NAMES['e']}{num[i]}" if ch == "e" else SQUARE_NAMES["@"] if ch == "@"
                else labels.BF_MOVE_OPTIONS[opt])
        parts = [f"열 {i % w}, 행 {i // w}", what]
        if feet >= 0 and ch != "@":
            parts.append(f"{feet}피트")
        if ch in ("b", "d"):
            parts.append(SQUARE_NAMES[ch])
        if self.shots[i]:
            parts.append(GRID_MESSAGES["shots"].replace(
                "{who}", ", ".join(f"{SQUARE_NAMES['e']}{num[e]}" for e in self.shots[i])))
        return ", ".join(parts)


def cell_label(code: str, option: str, feet: int, enemy: int = 0) -> str:
    """What a square shows (same rule as the page's JS ``label``): enemies by their number."""
    if code == "@":
        return "나"
    if code == "e":
        return f"적{enemy}" if enemy else "적"
    if code == "a":
        return "아군"
    if feet < 0:
        return ""
    return f"{feet}!" if option in bf.FLIGHT_OPTIONS else str(feet)


def grid_result(layout: Layout, rate: int) -> GridResult:
    """Every square's movement option, feet and parting shots, by :func:`bf.move_options`."""
    t = layout.terrain()
    opts = bf.move_options(t, layout.start(), rate)
    options, feet, shots = [], [], []
    for i in range(t.width * t.height):
        sq = t.square(i)
        options.append(opts.option(sq))
        f = opts.feet(sq)
        feet.append(-1 if f is None else f)
        shots.append(tuple(t.index(e) for e in opts.parting_shots(sq)))
    return GridResult(layout, opts.rate, tuple(options), tuple(feet), tuple(shots), opts)


def legend_html() -> str:
    """The explorer's key: each option's colour with its words and its mark."""
    items = [("start", "출발 칸 (나)"), ("walk", "걸은 뒤 공격 가능"),
             ("melee_move", "근접 이동 (근접전 유지, 공격 가능)"),
             ("withdraw", "전투 철수 (공격 가능)"),
             ("run", "달리기 (공격 불가; 근접전을 떠나지 않으면 분리 사격 없음)"),
             ("flee_walk", "도주, 걸어서: 분리 사격"),
             ("flee_run", "도주, 달려서: 분리 사격, 공격 불가"), ("out", "닿지 않음"),
             ("pass", "아군 (지나가기만)"), ("blocked", "벽")]

    def swatch(fill: str, mark: str, text: str) -> str:
        return (f'<span style="display:inline-block;margin:1px 8px 1px 0"><span aria-hidden="true" '
                f'style="display:inline-block;min-width:1.3em;height:1.3em;line-height:1.3em;'
                f'text-align:center;background:{fill};color:{text_on(fill)};border:1px solid #888;'
                f'vertical-align:middle">{html.escape(mark)}</span> {html.escape(text)}'
                + (f" (표시 {html.escape(mark)})" if mark else "") + "</span>")
    marks = {k: ("!" if k == "flee_walk" else "!»" if k == "flee_run" else OPTION_MARKS.get(k, ""))
             for k, _ in items}
    spans = "".join(swatch(OPTION_COLORS[k], marks[k], t) for k, t in items)
    spans += swatch(ENEMY_COLOR, "적1", "적 (번호로 구별)")
    spans += ("실선 굵은 테두리: 장벽(+5피트), 점선 굵은 테두리: 험한 지형(2배)")
    return f'<div class="bf-legend" style="font-size:0.85em">{spans}</div>'


def grid_table_html(result: GridResult) -> str:
    """The grid as an HTML table coloured by option, with feet (the Jupyter / text view)."""
    lay = result.layout
    rows = []
    for r in range(lay.height):
        cells = []
        for c in range(lay.width):
            i = r * lay.width + c
            ch, opt = lay.codes[i], result.options[i]
            color = result.colors[i]
            edge = (f"border:3px {TERRAIN_STYLE[ch]} {TERRAIN_EDGE[ch]};" if ch in TERRAIN_EDGE
                    else "border:1px solid #ccc;")
            title = html.escape(result.describe(i))
            text = result.labels[i] + (OPTION_MARKS.get(opt, "") if result.feet[i] >= 0 else "")
            cells.append(f'<td title="{title}" style="background:{color};color:{text_on(color)};'
                         f'width:2.6em;height:2em;text-align:center;{edge}'
                         f'padding:0">{html.escape(text)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<table class="bf-grid" style="border-collapse:collapse;font-size:0.8em">' + "".join(rows)
            + "</table>")


def grid_text(result: GridResult) -> str:
    """Plain text: one line per row, each square its label (or its layout code)."""
    lines = []
    for r in range(result.layout.height):
        cells = []
        for c in range(result.layout.width):
            i = r * result.layout.width + c
            ch = result.layout.codes[i]
            cells.append(f"{(result.labels[i] or ch):>4}")
        lines.append("".join(cells))
    return "\n".join(lines)


# --- text parser for the Jupyter boxes ---------------------------------------------------

_PAIR = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")


def parse_squares(text: object, what: str = "칸") -> list[Square]:
    """``"3,4; 5,6"`` → ``[(3, 4), (5, 6)]`` (col,row pairs separated by ``;``), no eval.
    An optional ``"적:"``-style prefix is ignored.

    >>> parse_squares("적: 3,4; 5, 6")
    [(3, 4), (5, 6)]
    >>> parse_squares("３,４")      # full-width digits, as a Korean keyboard types them
    [(3, 4)]
    """
    if not isinstance(text, str):
        raise RuleInputError("squares must be text",
                             f"{particle(what, '은/는')} '열,행; 열,행' 글로 주세요.")
    if len(text) > MAX_SQUARES_TEXT:   # refused unread
        raise RuleInputError(f"{what}: at most {MAX_SQUARES_TEXT} characters",
                             f"{what}: {MAX_SQUARES_TEXT}자까지만 적을 수 있습니다 (입력: {len(text)}자).")
    text = normalise_typed(text)
    body = text.split(":", 1)[1] if ":" in text else text
    out = []
    for part in body.split(";"):
        if not part.strip():
            continue
        m = _PAIR.fullmatch(part)
        if not m:
            raise RuleInputError(f"cannot read square {part!r}",
                                 f"{what}의 {particle(repr(part.strip()[:20]), '을/를')} 읽을 수 없습니다. "
                                 "'열,행' 꼴로 적고 칸끼리는 ';'로 나누세요 (예: 3,4; 5,6).")
        out.append((int(m.group(1)), int(m.group(2))))
    return out


#: Longest text of squares the Jupyter boxes take (a 30×30 floor written out is about 6,000).
MAX_SQUARES_TEXT = 8000
#: The grid's size boxes in Jupyter: any whole number typed, checked as the page's number boxes.
_SIZE_BOXES = {"width": number("width", "너비", 2, 60, 16), "height": number("height", "높이", 2, 60, 12)}


def layout_from_text(width: object, height: object, me: str, enemies: str = "", allies: str = "",
                     walls: str = "", barrier: str = "", difficult: str = "") -> Layout:
    """A layout from the Jupyter text boxes; the library checks every square. A size typed as
    text goes through the same reading as a widget's number box (``１６`` is 16; ``1e9`` is
    refused, never read as something else).

    >>> layout_from_text("8", "6", "1,1").width
    8
    """
    width = _SIZE_BOXES["width"].parse(width) if isinstance(width, str) else width
    height = _SIZE_BOXES["height"].parse(height) if isinstance(height, str) else height
    start = parse_squares(me, "전투원 칸")
    if len(start) != 1:
        raise RuleInputError("give exactly one combatant square",
                             "이동하는 전투원의 칸을 정확히 하나 주세요 (예: 2,3).")
    t = Terrain(width, height, blocked=parse_squares(walls, "벽 칸"),
                barrier=parse_squares(barrier, "장벽 칸"),
                difficult=parse_squares(difficult, "험한 지형 칸"),
                allies=parse_squares(allies, "아군 칸"), enemies=parse_squares(enemies, "적 칸"))
    s = t.check_start(start[0])
    return Layout.from_terrain(t, s)


# --- the grid explorer -------------------------------------------------------------------

class GridExplorer:
    """Movement-cost explorer: click squares (or move the keyboard cursor and press Enter) to
    place combatants and terrain, see every square's cost and option. Static page: a DOM grid
    in a Bokeh Div, updated in place by the page controller ``widgets/js/grid_explorer.js``
    (which calls the JS twins; its texts, e.g. the status line per rate, come from
    :meth:`export`); Jupyter: the same controller and grid in an anywidget, every square
    computed by the Python library (:mod:`widgets.views.grid_widget`)."""

    CELL_PX = 40
    #: Smallest square (px) and label (px): a plan that would need less pans instead (issue 23).
    MIN_CELL_PX = 34
    MIN_LABEL_PX = 12
    MAX_FRAME = 604  # px across, 1px grid lines included (fits the page's column)

    def __init__(self, uid: str = "bf-grid", scene: str = "demo", rate: str = "scene",
                 title: str = "격자 이동 비용 탐색기"):
        if not re.fullmatch(r"[a-z][a-z0-9-]*", uid):
            raise ValueError("uid must be lowercase letters, digits and dashes")
        self.uid, self.title = uid, title
        self.scenes = explorer_scenes()
        if scene not in self.scenes:
            raise RuleInputError(f"unknown scene {scene!r}", f"없는 예제입니다 (입력값: {scene!r}).")
        self.scene, self.rate_key = scene, rate
        self.rates = rate_choices()

    # data shared by both views
    def rate_of(self, scene: str, rate_key: str) -> int:
        return self.scenes[scene][2] if rate_key == "scene" else self.rates[rate_key][1]

    def result(self, scene: str | None = None, rate_key: str | None = None) -> GridResult:
        scene = scene or self.scene
        return grid_result(self.scenes[scene][1], self.rate_of(scene, rate_key or self.rate_key))

    def cell_data(self, result: GridResult) -> dict[str, list]:
        """The page's per-square data (also what the tests read back from the page)."""
        lay = result.layout
        return {"k": list(lay.codes), "opt": list(result.options), "feet": list(result.feet),
                "shots": [" ".join(map(str, s)) for s in result.shots], "label": result.labels,
                "cls": [cell_class(ch, o) for ch, o in zip(lay.codes, result.options)]}

    def export(self) -> dict:
        """Plain data for the page: scenes (layout strings, rates), tools, cell sizes."""
        rates = {rate for _, _, rate in self.scenes.values()} | {r for _, r in self.rates.values()}
        return {"scenes": {k: {"w": lay.width, "h": lay.height, "codes": lay.codes, "rate": rate}
                           for k, (_, lay, rate) in self.scenes.items()},
                "rates": {k: r for k, (_, r) in self.rates.items()},
                "codes": TOOL_CODE,
                # the status line per movement rate, from the library (no arithmetic on the page)
                "status": {str(r): status_html(r) for r in sorted(rates)},
                "optionsKo": dict(labels.BF_MOVE_OPTIONS),
                "names": SQUARE_NAMES,
                "messages": GRID_MESSAGES,
                "maxWork": MAX_FLIGHT_WORK,
                "openTag": grid_open_tag(self.uid, "{w}", "{h}"),
                "frame": grid_frame_html("{grid}")}

    def grid_html(self, result: GridResult) -> str:
        """The DOM grid (same markup as the page's JS ``gridHtml``): one element per square,
        one delegated click / hover handler on the container calling the page controller."""
        lay = result.layout
        data = self.cell_data(result)
        w = lay.width
        cells = [f'<div class="{c}" role="gridcell" data-i="{i}">{html.escape(t)}</div>'
                 for i, (c, t) in enumerate(zip(data["cls"], data["label"]))]
        return grid_open_tag(self.uid, w, lay.height) + "".join(
            '<div class="r" role="row">' + "".join(cells[r * w:(r + 1) * w]) + "</div>"
            for r in range(lay.height)) + "</div>"

    # --- static page ---------------------------------------------------------------------
    def bokeh_layout(self):
        from bokeh.document import Document
        from bokeh.layouts import column, row
        from bokeh.models import ColumnDataSource, CustomJS, Div, InlineStyleSheet, Select

        u = self.uid
        res = self.result()
        lay = res.layout
        # Not rendered: the current squares (read by the tests) and the shown path.
        cells = ColumnDataSource(self.cell_data(res), name=f"{u}-cells", tags=[lay.width, lay.height])
        path = ColumnDataSource({"x": [], "y": []}, name=f"{u}-path")
        grid = Div(text=grid_frame_html(self.grid_html(res)), name=f"{u}-grid", disable_math=True,
                   sizing_mode="stretch_width", stylesheets=[InlineStyleSheet(css=grid_css())])
        # the selects wrap onto lines of their own on a phone; the armour menu is as wide as its
        # longest label (「금속 갑옷 (판금·사슬), 무거운 짐: 10피트」), never cut on a 390 px phone
        tool = Select(title="도구 (칸을 누르면)", value="enemy", name=f"{u}-tool", width=175,
                      options=list(TOOLS.items()))
        rate = Select(title="갑옷과 짐 (이동 속도)", value=self.rate_key, name=f"{u}-rate", width=320,
                      options=[("scene", "예제에 적힌 이동 속도")]
                      + [(k, lab) for k, (lab, _) in self.rates.items()])
        scene = Select(title="예제 평면도", value=self.scene, name=f"{u}-scene", width=280,
                       options=[(k, lab) for k, (lab, _, _) in self.scenes.items()])
        msg = Div(text=status_html(res.rate), name=f"{u}-out", sizing_mode="stretch_width",
                  css_classes=["live-out"])
        legend = Div(text=legend_html(), sizing_mode="stretch_width", name=f"{u}-legend")
        args = dict(uid=u, cells=cells, path=path, grid=grid, tool=tool, rate=rate, scene=scene,
                    msg=msg, data=self.export())
        root = column(row(tool, rate, scene, sizing_mode="stretch_width", styles={"flex-wrap": "wrap"}),
                      legend, grid, msg, name=f"{u}-root", sizing_mode="stretch_width")
        doc = Document()  # document_ready needs an explicit document in standalone embedding
        doc.add_root(root)
        # The controller is widgets/js/grid_explorer.js; each callback only calls it.
        doc.js_on_event("document_ready", CustomJS(args=args, code=_ATTACH_JS + ";"))
        rate.js_on_change("value", CustomJS(args=args, code=_ATTACH_JS + ".changeRate();"))
        scene.js_on_change("value", CustomJS(args=args, code=_ATTACH_JS + ".loadScene();"))
        tool.js_on_change("value", CustomJS(args=args, code=_ATTACH_JS + ".showPath(-1);"))
        return root

    def static_html(self) -> str:
        # embedded when scrolled near, like every live widget; until then (and in a notebook
        # opened without running it, in JupyterLab or on GitHub) the plan shows as a coloured
        # table that needs no stylesheet
        res = self.result()
        return lazy_html(self.uid, self.bokeh_layout(), self.title,
                         placeholder=status_html(res.rate) + grid_table_html(res) + legend_html())

    # --- Jupyter -------------------------------------------------------------------------
    def ipywidget(self):
        """The explorer as on the site, its squares computed by the kernel
        (:mod:`widgets.views.grid_widget`)."""
        import sys

        from .grid_widget import grid_widget
        return grid_widget(self, sys.modules[__name__])   # the grid's parts, passed down

    def text(self) -> str:
        res = self.result()
        return f"{self.title}: 이동 속도 {res.rate}피트\n" + grid_text(res)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return dual_bundle(self)


def cell_class(code: str, option: str) -> str:
    """CSS classes of a square on the page (same rule as the page's JS ``cellClass``):
    fill by option, enemy colour, thick border for barrier / difficult terrain."""
    return f"c o-{option}" + {"e": " k-e", "b": " k-b", "d": " k-d"}.get(code, "")


def status_html(rate: int) -> str:
    """The explorer's status line for a movement rate (walk, run and half move from the library),
    in the one unit the chapter uses: the cost taken from the movement rate, a step that stays
    engaged counted double.

    >>> status_html(20)[:40]
    '<p>이동 속도 20피트: 걷기 20피트까지, 달리기 40피트까지. 칸의'
    """
    half = bf.half_move(rate)
    return (f"<p>이동 속도 {rate}피트: 걷기 {rate}피트까지, 달리기 {bf.running_rate(rate)}피트까지. "
            f"칸의 숫자는 이동 속도에서 빠지는 비용이고, 근접전을 유지하는 걸음은 두 배(가로·세로 한 칸 "
            f"{bf.melee_step_cost()}피트)로 셉니다. 그래서 근접 이동({OPTION_MARKS['melee_move']})도 {rate}피트까지, "
            f"전투 철수({OPTION_MARKS['withdraw']})는 {half}피트까지입니다.</p>")


#: What the explorer calls each layout code in its messages and cursor descriptions.
SQUARE_NAMES = {"#": "벽", "e": "적", "a": "아군", "b": "장벽 (+5피트)", "d": "험한 지형 (2배)",
                "@": "출발 칸 (나)", ".": "빈 칸"}
#: The explorer's Korean messages ({col}, {row}, {what}, {who} are filled in on the page).
GRID_MESSAGES = {
    "noStart": "평면도에 이동할 전투원이 없습니다. 도구에서 「전투원 옮기기」를 고르고 칸을 누르세요.",
    "occupied": "({col}, {row}) 칸은 {what} 칸이라 전투원을 놓을 수 없습니다. 빈 칸을 누르세요.",
    "mover": "전투원이 선 칸입니다. 먼저 전투원을 다른 칸으로 옮기세요.",
    "failed": "계산할 수 없는 배치입니다: ",
    "tooMany": ("적이 너무 많아 도주 경로와 분리 사격을 다 셀 수 없습니다. 적을 줄이거나 이동 속도를 "
                "낮추세요."),
    "shots": f"분리 사격(명중 {fmt.signed(bf.PARTING_SHOT_BONUS)})을 하는 상대: {{who}}",
}
GRID_HELP = ("격자: 화살표 키로 칸을 옮기고 Enter나 Space로 고른 도구를 씁니다. "
             "경로 보기 도구에서는 고른 칸까지 가장 싼 경로와, 도주라면 분리 사격을 하는 적을 알려 줍니다.")

_ATTACH_JS = "BfGridExplorer.attach(uid, {cells, path, grid, tool, rate, scene, msg, data})"


def grid_open_tag(uid: str, width: int | str, height: int | str) -> str:
    """The grid container: a keyboard grid (one tab stop; see widgets/js/grid_explorer.js) of
    rows of ``width`` squares. Square size comes from CSS (:func:`grid_css`): at most
    ``CELL_PX``, and small enough that the grid fits its widget (a 16-wide plan fits a phone)."""
    return (f'<div class="bfg" data-uid="{uid}" data-w="{width}" data-h="{height}" role="grid" '
            f'tabindex="0" aria-label="{html.escape(GRID_HELP)}" style="--w:{width}">')


#: The hint over a grid wider than its box (shown by widgets/js/grid_explorer.js only then).
PAN_HINT = "↔ 옆으로 밀어 보기: 격자가 화면보다 넓어, 좌우로 밀면 나머지 칸이 나옵니다."


def grid_frame_html(grid: str) -> str:
    """The grid in its frame: a box that pans sideways when the grid is wider than the page
    (its squares keep their size, :func:`grid_css`), with a hint above it that the page shows
    only then. The page's JS builds the same from ``export()["frame"]``.

    >>> grid_frame_html("<div>g</div>").split("</p>")[1]
    '<div class="bfg-pan"><div>g</div></div>'
    """
    return f'<p class="bfg-hint" hidden>{html.escape(PAN_HINT)}</p><div class="bfg-pan">{grid}</div>'


def grid_css() -> str:
    """Stylesheet of the DOM grid (inside the grid Div's shadow root; in Jupyter, the page's).

    >>> "max(34px, min(40px" in grid_css() and "overflow-x: auto" in grid_css()
    True
    """
    ex = GridExplorer
    # Square size: as large as fits (at most CELL_PX, the whole grid at most MAX_FRAME, within
    # the widget's width: 100cqw, the .live-widget container, see book.css), but never below
    # MIN_CELL_PX: a plan wider than that pans in its box (.bfg-pan) instead of shrinking, so
    # a square stays big enough to tap and its label to read on a phone. 1px grid lines.
    fit = (f"min({ex.CELL_PX}px, calc({ex.MAX_FRAME - 1}px / var(--w) - 1px), "
           "calc((100cqw - 16px) / var(--w) - 1px))")
    px = f"max({ex.MIN_CELL_PX}px, {fit})"
    font = f"max({ex.MIN_LABEL_PX}px, min(14px, calc(var(--px) * 0.4)))"
    # A CSS grid whose tracks take the square size, worked out once on the grid (not once per
    # square: a 60×60 plan lays out several times faster); the rows (role="row") add no box.
    # The 1px gaps show the grey background: grid lines without a border per square.
    rules = [".bk-clearfix { max-width: 100%; }",   # the Bokeh Div's own box: no wider than the Div
             ".bfg-pan { max-width: 100%; overflow-x: auto; overflow-y: hidden; "
             "-webkit-overflow-scrolling: touch; overscroll-behavior-x: contain; }",
             ".bfg-hint { margin: 0.2em 0; font-size: 0.9em; color: #333333; }",
             ".bfg-hint[hidden] { display: none; }",
             f".bfg {{ --px: {px}; display: inline-grid; grid-template-columns: repeat(var(--w), var(--px)); "
             "grid-auto-rows: var(--px); gap: 1px; "
             "padding: 1px; background: " + PLAIN_EDGE + f"; font-size: {font}; "
             "user-select: none; cursor: pointer; font-family: sans-serif; }",
             ".bfg:focus { outline: none; }",
             ".bfg:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }",
             ".bfg .r { display: contents; }",
             ".bfg .c { box-sizing: border-box; display: flex; align-items: center; "
             "justify-content: center; white-space: nowrap; overflow: hidden; color: #000000; }"]
    rules += [f".bfg .o-{k} {{ background: {v}; color: {text_on(v)}; }}"
              for k, v in OPTION_COLORS.items()]
    rules += [f".bfg .k-e {{ background: {ENEMY_COLOR}; color: {text_on(ENEMY_COLOR)}; }}"]
    rules += [f'.bfg .o-{k}:not(:empty)::after {{ content: "{m}"; font-size: 0.8em; }}'
              for k, m in OPTION_MARKS.items()]
    rules += [f".bfg .k-{k} {{ border: 3px {TERRAIN_STYLE[k]} {v}; }}"
              for k, v in TERRAIN_EDGE.items()]
    rules += [".bfg .c.p { box-shadow: inset 0 0 0 3px #000000; font-weight: bold; }",
              # the keyboard cursor: a thick ring of two colours, seen on every fill
              ".bfg:focus .c.cur { outline: 3px solid #000000; outline-offset: -3px; "
              "box-shadow: inset 0 0 0 5px #ffffff; position: relative; z-index: 1; }"]
    return "\n".join(rules)


def grid_explorer(uid: str = "bf-grid", scene: str = "demo") -> GridExplorer:
    """The movement-cost explorer (see :class:`GridExplorer`)."""
    return GridExplorer(uid, scene)


# --- display objects: tables and worked examples -----------------------------------------

class MovementTable(Table):
    """The movement-rate table generated from :func:`bf.movement_table`, with the source's
    printed counts where they differ."""

    COLS = ("walk_orth", "walk_diag", "run_orth", "run_diag")

    def __init__(self):
        self.movement = bf.movement_table()
        self.cols = self.COLS
        # armour and load in one heading: on a phone each row is a card titled by both
        super().__init__(
            ["갑옷 · 짐", "이동 속도", "달리기", "걷기 가로/세로", "걷기 대각선", "달리기 가로/세로",
             "달리기 대각선"],
            [[f"{fmt.korean_only(r['armor'])} · {fmt.korean_only(r['load'])}",
              number_cell(f"{r['rate']}피트"), number_cell(f"{r['run_rate']}피트"),
              *(number_cell(self._cell(r, c)) for c in self.COLS)] for r in self.movement],
            caption="라운드당 이동 (칸 수는 곧은 줄 기준)", kind="odds bf-movement")

    @staticmethod
    def _cell(row, col) -> str:
        mine, theirs = row[col], row["source_" + col]
        return f"{mine}칸" if mine == theirs else f"{mine}칸 (원문 {theirs}칸)"

    def text(self) -> str:
        return "\n".join(f"{fmt.korean_only(r['armor'])} | {fmt.korean_only(r['load'])} | {r['rate']}피트 | 달리기 {r['run_rate']}피트 | "
                         + " | ".join(self._cell(r, c) for c in self.cols) for r in self.movement)


class Disagreements(Table):
    """The source's numbers and claims that its rules contradict (from the library)."""

    def __init__(self):
        self.items = bf.source_disagreements()
        k = fmt.korean_only
        super().__init__(["어디", "원문", "규칙대로 계산", "설명"],
                         [[k(d.where), k(d.source), k(d.rules), k(d.note_ko)] for d in self.items],
                         row_heads=False, strong_columns=(2,))

    def text(self) -> str:
        k = fmt.korean_only
        return "\n".join(f"{k(d.where)}: {k(d.source)} → {k(d.rules)}" for d in self.items)


class RearClaim:
    """The paragraph after the attacks-from-behind example: what the 3-rear-square rule gives
    for the source's "three attackers" (every number and facing from the library)."""

    DIAGONAL_PAIR = ((0, 0), (2, 2))            # north-west and south-east of the defender
    THREE_SIDES = ((1, 0), (2, 1), (0, 1))      # north, east and west

    def __init__(self):
        me = (1, 1)
        self.pair_least = least_rear_attackers(me, self.DIAGONAL_PAIR)[0]
        self.three_least, self.three_facings = least_rear_attackers(me, self.THREE_SIDES)
        triples = list(combinations(_RING, 3))
        self.placements = len(triples)
        self.forced = sum(least_rear_attackers(me, t)[0] > 0 for t in triples)

    def text(self) -> str:
        names = dict(zip(_RING, _RING_KO))
        first, second = (names[sq] for sq in self.DIAGONAL_PAIR)
        pair = f"{fmt.josa(first, '과/와')} {second}"
        sides = "·".join(names[sq] for sq in self.THREE_SIDES)
        facings = "이나 ".join(FACING_KO[f] + "쪽" for f in self.three_facings)
        escape = (f"방어자는 {facings}을 보아 아무도 뒤에 두지 않을 수 있습니다" if self.three_least == 0 else
                  f"방어자가 어느 쪽을 보아도 {self.three_least}명이 뒤에 남습니다")
        return (f"그러나 뒤쪽 세 칸 규칙대로 세어 보면 원문의 「셋 이상」은 어림값입니다. 대각선으로 마주 선 두 명"
                f"(예: {pair})만으로도 어느 쪽을 보든 {self.pair_least}명이 뒤에 남고, 세 명이라도 "
                f"{sides}에 섰다면 {escape}. 공격자 셋이 방어자 둘레 여덟 칸에 설 수 있는 {self.placements}가지 배치 "
                f"가운데 방향을 어떻게 바꿔도 뒤를 잡히는 배치는 {self.forced}가지입니다 (아래의 불일치 표).")

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(self.text())}</p>"

    def __repr__(self) -> str:
        return self.text()


def rear_claim() -> RearClaim:
    """The computed paragraph after the attacks-from-behind example (see :class:`RearClaim`)."""
    return RearClaim()


_SIGHT_KO = {"clear": "시야 확보 (정상 발사)", "partial": "부분 엄폐 (GM 재량, 가정)",
             "none": "시야 없음 (발사 불가)"}


def _scene_rows(key: str) -> list[tuple[str, str, str]]:
    s = bf.scene(key)
    rows = []
    if key == "missile":
        t = s.terrain()
        for m in s.marks:
            chk = bf.missile_check(t, s.mover.square, m.square, "단궁 (shortbow)")
            rng = f"{chk.range_label} ({fmt.signed(chk.modifier)})" if chk.range_label else "사거리 밖"
            rows.append((fmt.korean_only(f"{s.title}: {m.label} {m.square}"), f"단궁, {chk.distance}피트",
                         f"{_SIGHT_KO[chk.sight]}, {rng}"))
        return rows
    opts = bf.scene_options(key)
    for m in s.marks:
        rows.append((fmt.korean_only(f"{s.title}: {m.label} {m.square}"),
                     f"이동 속도 {s.rate}피트" + (f", 원문이 이 칸에 적은 값 {m.feet}피트" if m.feet is not None and m.exact
                                             else f", 원문의 {source_limit_text(m)}" if m.feet is not None else ""),
                     f"{labels.BF_MOVE_OPTIONS[opts.option(m.square)]}, " + move_feet_text(opts, m.square)
                     + shooters_text(s, opts.parting_shots(m.square))))
    return rows


def move_feet_text(opts: bf.MoveOptions, square: Square) -> str:
    """The feet a move to ``square`` costs, in the chapter's one unit (taken from the movement
    rate; a step that stays engaged counts double), as the grid shows it.

    >>> move_feet_text(bf.scene_options("tannen_melee"), (5, 2))
    '20피트'
    """
    feet = opts.feet(square)
    return "비용 없음" if feet is None else f"{feet}피트"


def source_limit_text(m: bf.Mark) -> str:
    """The limit the source quotes for a colour of squares, in the chapter's unit: a move that
    stays engaged is quoted as feet walked (half the rate), so its cost (double) is put beside it.

    >>> source_limit_text(bf.SCENES["tannen_melee"].marks[0])
    '한도: 걸어서 10피트(이동 속도의 절반), 비용으로 20피트'
    >>> source_limit_text(bf.SCENES["tannen_melee"].marks[2])
    '한도 10피트'
    """
    if m.expect == "melee_move":
        return f"한도: 걸어서 {m.feet}피트(이동 속도의 절반), 비용으로 {bf.melee_step_cost(m.feet)}피트"
    return f"한도 {m.feet}피트"


def engaged_runs(opts: bf.MoveOptions) -> list[Square]:
    """The squares reached by running while staying engaged (the option ``run`` on a square next
    to an opponent), in index order: no attack, and no parting shot."""
    t = opts.terrain
    return [t.square(i) for i in range(t.width * t.height)
            if opts.option(t.square(i)) == "run" and t.is_engaged(t.square(i))]


def shooters_text(s: bf.Scene, shooters: tuple[Square, ...]) -> str:
    """'; 분리 사격: 고블린' for the scene's enemies on those squares ('' for none)."""
    names = {e.square: fmt.korean_only(e.name) for e in s.enemies}
    if not shooters:
        return ""
    return "; 분리 사격: " + ", ".join(names.get(sq, f"{sq}의 적") for sq in shooters)


def scene_examples(keys: tuple[str, ...]) -> WorkedExamples:
    """The source's worked examples (reconstructed scenes), computed by the library."""
    rows = []
    for k in keys:
        if k in ("rear_two", "rear_three"):
            least, facings, behind = bf.scene_rear_attackers(k)
            s = bf.scene(k)
            rows.append((fmt.korean_only(s.title), f"고블린 방향 {FACING_KO[s.mover.facing]}, 공격자 {len(s.enemies)}명",
                         f"뒤에 선 공격자: {', '.join(fmt.korean_only(b) for b in behind) or '없음'}; 방향을 바꿔도 최소 {least}명"))
        else:
            rows.extend(_scene_rows(k))
    return WorkedExamples(rows)


def simultaneous_example() -> WorkedExamples:
    movers = {"탄넨": 20, "도우버트": 30, "맨드로스": 40}
    order = bf.simultaneous_move_order(movers)
    return WorkedExamples([("같은 주도권, 5피트씩 번갈아", ", ".join(f"{k} {v}피트" for k, v in movers.items()),
                            " → ".join(order))])


# --- LiveWidgets -------------------------------------------------------------------------

def _mini_grid(width: int, height: int, cells: dict[Square, tuple[str, str]]) -> str:
    """A small HTML grid: ``cells`` maps square → (colour, text)."""
    rows = []
    for r in range(height):
        tds = []
        for c in range(width):
            color, text = cells.get((c, r), ("#ffffff", ""))
            tds.append(f'<td bgcolor="{color}" width="36" height="26" align="center" '
                       f'style="color:{text_on(color)}">{html.escape(text)}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    return '<table border="1" cellspacing="0" style="font-size:0.8em">' + "".join(rows) + "</table>"


@widget_factory
def diagonal_widget(uid: str = "bf-diagonal") -> LiveWidget:
    """Feet of a path of orthogonal and diagonal steps, and what that leaves for each rate."""
    def compute(diag, orth, rate):
        feet = bf.steps_cost(diag, orth)   # the counts as typed: refused before any work
        if feet <= rate:
            verdict = "걸어서 닿고 공격할 수 있습니다"
        elif feet <= bf.running_rate(rate):
            verdict = "달려야 닿고, 이번 라운드에는 공격할 수 없습니다"
        else:
            verdict = "이번 라운드에는 닿지 않습니다"
        return Shown(f"<p>대각선 {diag}칸 ({diagonal_feet(diag)}피트) + 가로/세로 {orth}칸 "
                     f"({5 * orth}피트) = <b>{feet}피트</b>.</p><p>이동 속도 {rate}피트라면 "
                     f"{verdict}.</p>")
    return LiveWidget(uid, [number("diag", "대각선 칸 수", 0, 12, 4),
                            number("orth", "가로/세로 칸 수", 0, 12, 0),
                            select("rate", "이동 속도", {r: f"{r}피트" for r in (10, 20, 30, 40)}, 30)],
                      compute, title="대각선 비용 계산기", plot=False)


@widget_factory
def movement_rate_widget(uid: str = "bf-rate") -> LiveWidget:
    """Armour and load → the squares a combatant can walk to (and still attack) or run to, drawn
    on a quarter of the plan, with the straight counts of the movement table."""
    def compute(armor, load):
        rate = bf.movement_rate(armor, load)
        run = bf.running_rate(rate)
        size = bf.squares_reachable(run) + 1
        start = (0, size - 1)
        opts = bf.move_options(Terrain(size, size), start, rate)
        cells = {}
        for r in range(size):
            for c in range(size):
                option = opts.option((c, r))
                if option in ("walk", "run", "start"):
                    cells[(c, r)] = (OPTION_COLORS[option], "")
        cells[start] = (OPTION_COLORS["start"], "")
        row = next(r for r in bf.movement_table() if r["rate"] == rate)
        note = ""
        if row["run_orth"] != row["source_run_orth"]:
            note = (f"<p>원문의 표는 이 줄에서 가로/세로로 {row['source_run_orth']}칸을 달린다고 적었지만, "
                    f"{run}피트는 {row['run_orth']}칸입니다 (이 책은 규칙대로 {row['run_orth']}칸).</p>")
        text = (f"<p>이동 속도 <b>{rate}피트</b>: 가로/세로 {bf.squares_reachable(rate)}칸, 대각선 "
                f"{bf.squares_reachable(rate, True)}칸까지 걸은 뒤 공격할 수 있습니다. 달리면 <b>{run}피트</b>"
                f"(가로/세로 {bf.squares_reachable(run)}칸, 대각선 {bf.squares_reachable(run, True)}칸)까지 "
                f"가지만 그 라운드에는 공격하지 못합니다. 근접전을 유지하며 걸으면 한 칸에 "
                f"{bf.melee_step_cost()}피트가 들어 가로/세로 {bf.squares_reachable(bf.half_move(rate))}칸까지 갑니다.</p>"
                + note + _area_grid(size, cells) + legend_html_for(("start", "walk", "run")))
        return Shown(text)
    return LiveWidget(uid, [select("armor", "갑옷", _ARMOR_KO, "leather"),
                            select("load", "짐", _LOAD_KO, "light")],
                      compute, title="갑옷과 짐에 따라 닿는 칸 (왼쪽 아래 모서리에서 출발)", plot=False)


def _area_grid(size: int, cells: dict[Square, tuple[str, str]]) -> str:
    """A compact colour-only grid (no text) that fits a phone: 14 px squares."""
    rows = "".join(
        "<tr>" + "".join(f'<td style="background:{cells.get((c, r), ("#ffffff", ""))[0]};'
                         'width:12px;height:12px;padding:0;border:1px solid #ddd"></td>'
                         for c in range(size)) + "</tr>"
        for r in range(size))
    return f'<table style="border-collapse:collapse;margin:0.3em 0">{rows}</table>'


def legend_html_for(options) -> str:
    """Colour swatches for some move options (labels from the library)."""
    names = {"start": "출발", "walk": fmt.korean_only(labels.BF_MOVE_OPTIONS["walk"]),
             "run": fmt.korean_only(labels.BF_MOVE_OPTIONS["run"])}
    return "<p>" + " ".join(
        f'<span style="display:inline-block;width:0.9em;height:0.9em;background:{OPTION_COLORS[o]};'
        f'vertical-align:middle;margin:0 0.3em 0 0.6em"></span>{html.escape(names[o])}'
        for o in options) + "</p>"


@widget_factory
def missile_range_widget(uid: str = "bf-range") -> LiveWidget:
    """Supplementary core rule: range brackets of missile weapons."""
    def compute(weapon, distance):
        bands = bfrpg_missile_bands(weapon)
        short, medium, long_ = BFRPG_MISSILE_RANGES[weapon]
        head = f"<p>{html.escape(fmt.korean_only(weapon))}: 단거리 {short}, 중거리 {medium}, 장거리 {long_}피트까지.</p>"
        if not bands.in_range(distance):
            return Shown(head + fmt.error(f"{distance}피트는 사거리 밖이라 발사할 수 없습니다."))
        band = bands.band(distance)
        return Shown(head + f"<p>{distance}피트 ({distance // 5}칸): <b>{html.escape(band.label)}</b>, "
                     f"명중 굴림 {fmt.signed(band.modifier)}</p>")
    return LiveWidget(uid, [select("weapon", "무기", {k: fmt.korean_only(k) for k in BFRPG_MISSILE_RANGES}, "단궁 (shortbow)"),
                            number("distance", "표적까지 거리 (피트)", 5, 250, 35, step=5)],
                      compute, title="미사일 사거리 (보충 규칙)", plot=False)


#: Shooter squares offered by the line-of-sight widget (missile scene).
SIGHT_SHOOTERS = ((1, 4), (1, 1), (3, 6), (6, 5), (8, 0))


@widget_factory
def sight_widget(uid: str = "bf-sight") -> LiveWidget:
    """Which squares a shooter sees past the walls of the missile scene (precomputed)."""
    s = bf.scene("missile")
    t = s.terrain()

    def compute(shooter):
        sq = tuple(int(v) for v in shooter.split(","))
        seen = visible_squares(t, sq)
        cells = {}
        for r in range(t.height):
            for c in range(t.width):
                p = (c, r)
                if p in t.blocked:
                    cells[p] = ("#444444", "")
                elif p == sq:
                    cells[p] = (OPTION_COLORS["start"], "팔")
                elif p in seen:
                    cells[p] = ("#cfe8ff", "")
                else:
                    cells[p] = ("#222222", "")
        lines = []
        for i, g in enumerate(s.enemies):
            sight = bf.missile_sight(t, sq, g.square)
            col = cells[g.square][0]
            cells[g.square] = (ENEMY_COLOR if col != "#222222" else "#5a2a45", f"G{i + 1}")
            lines.append(f"<li>{html.escape(fmt.korean_only(g.name))} {g.square}: {_SIGHT_KO[sight]}</li>")
        return Shown(f"<p>팔라딘 {sq}에서 보이는 칸은 밝게, 보이지 않는 칸은 검게 칠했습니다.</p>"
                     + _mini_grid(t.width, t.height, cells) + f"<ul>{''.join(lines)}</ul>")
    choices = {f"{c},{r}": f"({c}, {r})" + (" 예제 위치" if (c, r) == s.mover.square else "")
               for c, r in SIGHT_SHOOTERS}
    return LiveWidget(uid, [select("shooter", "쏘는 팔라딘의 칸 (열, 행)", choices, "1,4")],
                      compute, title="시야 (전장 안개)", plot=False)


@widget_factory
def facing_widget(uid: str = "bf-facing") -> LiveWidget:
    """Facing: the 5 front/side squares a combatant may attack and the 3 rear ones."""
    me = (1, 1)
    names = {(0, -1): "북", (1, -1): "북동", (1, 0): "동", (1, 1): "남동", (0, 1): "남",
             (-1, 1): "남서", (-1, 0): "서", (-1, -1): "북서"}
    targets = {f"{dc},{dr}": n for (dc, dr), n in names.items()}

    def compute(facing, target):
        dc, dr = (int(v) for v in target.split(","))
        tsq = (me[0] + dc, me[1] + dr)
        front, rear = set(front_arc(me, facing)), set(rear_arc(me, facing))
        arrow = {"N": "▲", "E": "▶", "S": "▼", "W": "◀"}[facing]
        cells = {me: (OPTION_COLORS["start"], arrow)}
        for sq in front:
            cells[sq] = (BAND_COLORS["success"], "앞·옆")
        for sq in rear:
            cells[sq] = (BAND_COLORS["failure"], "뒤")
        cells[tsq] = (cells[tsq][0], cells[tsq][1] + " ◎")
        can = bf.can_attack_square(me, facing, tsq)
        bonus = bf.rear_attack_bonus(me, facing, tsq)
        return Shown(_mini_grid(3, 3, cells)
                     + f"<p>{FACING_KO[facing]}쪽을 보는 전투원은 {names[(dc, dr)]}쪽(◎) 상대를 "
                     f"{'공격할 수 있습니다' if can else '공격할 수 없습니다 (뒤쪽 3칸)'}. 그 상대가 "
                     f"이 전투원을 치면 {'뒤에서 공격이므로 명중 ' + fmt.signed(bonus) if bonus else '보너스가 없습니다'}.</p>")
    return LiveWidget(uid, [select("facing", "바라보는 방향", {k: v for k, v in FACING_KO.items()}, "N"),
                            select("target", "상대의 위치", targets, "1,1")],
                      compute, title="방향과 공격 가능한 칸", plot=False)


_RING = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1))
_RING_KO = ("북서", "북", "북동", "동", "남동", "남", "남서", "서")


@widget_factory
def rear_widget(uid: str = "bf-rear") -> LiveWidget:
    """Attackers around a defender: who can be behind it, whatever it does (3-attacker rule)."""
    me = (1, 1)

    def compute(**on):
        attackers = [sq for i, sq in enumerate(_RING) if on[f"a{i}"]]
        least, facings = least_rear_attackers(me, attackers)
        cells = {me: (OPTION_COLORS["start"], "방어")}
        for sq in attackers:
            cells[sq] = (ENEMY_COLOR, "공격")
        per = Table(["방향", "뒤에 선 공격자"],
                    [[FACING_KO[f], number_cell(f"{sum(a in rear_arc(me, f) for a in attackers)}명")]
                     for f in ("N", "E", "S", "W")])
        best = ", ".join(FACING_KO[f] for f in facings)
        verdict = ("방어자는 방향을 바꿔 뒤에 아무도 두지 않을 수 있습니다." if least == 0 else
                   f"어느 쪽을 보아도 적어도 {least}명이 뒤에 남아 뒤에서 공격(명중 "
                   f"{fmt.signed(bf.REAR_ATTACK_BONUS)})을 할 수 있습니다.")
        return Shown(_mini_grid(3, 3, cells) + f"<p>공격자 {len(attackers)}명. {verdict} 가장 좋은 "
                     f"방향: {best}.</p>" + per.html())
    defaults = {1, 6}  # 북, 남서
    return LiveWidget(uid, [toggle(f"a{i}", f"{name}쪽에 공격자", i in defaults)
                            for i, name in enumerate(_RING_KO)],
                      compute, title="뒤에서 공격: 공격자 배치", plot=False)


@widget_factory
def simultaneous_widget(uid: str = "bf-simul") -> LiveWidget:
    """Simultaneous movement: 5 ft turns, fastest first."""
    def compute(a, b, c):
        rates = {"탄넨": a, "도우버트": b, "맨드로스": c}
        order = bf.simultaneous_move_order(rates)
        if not order:
            return Shown("<p>아무도 움직이지 않습니다.</p>")
        # one row per round of turns: each mover's feet so far after its 5 ft
        walked = dict.fromkeys(rates, 0)
        rows, current = [], {}
        for name in order:
            if name in current:
                rows.append(current)
                current = {}
            walked[name] += 5
            current[name] = walked[name]
        rows.append(current)
        names = sorted(rates, key=lambda n: order.index(n) if n in order else len(order))
        table = Table(["차례", *(f"{n} ({rates[n]}피트)" for n in names)],
                      [[f"{i}번째 차례", *(number_cell(f"{row[n]}피트") if n in row else "멈춤"
                                        for n in names)] for i, row in enumerate(rows, start=1)])
        return Shown(f"<p>이동 속도가 높은 {html.escape(names[0])}부터 5피트씩 번갈아 움직입니다. "
                     f"이동 거리를 다 쓴 사람은 멈추고, 나머지가 계속 번갈아 갑니다. 모두 {len(order)}걸음.</p>"
                     + table.html())
    return LiveWidget(uid, [number("a", "탄넨의 이동 (피트)", 0, 40, 20, step=10),
                            number("b", "도우버트의 이동 (피트)", 0, 40, 30, step=10),
                            number("c", "맨드로스의 이동 (피트)", 0, 40, 40, step=10)],
                      compute, title="동시 이동 순서", plot=False)


@widget_factory
def melee_widget(uid: str = "bf-melee") -> LiveWidget:
    """The melee examples' squares: option and feet per marked square, for a chosen rate."""
    keys = {"tannen_melee": fmt.korean_only(bf.SCENES["tannen_melee"].title),
            "doughbert_melee": fmt.korean_only(bf.SCENES["doughbert_melee"].title)}

    def compute(key, rate):
        s = bf.scene(key)
        r = s.rate if rate == 0 else rate
        opts = bf.move_options(s.terrain(), s.mover.square, r)
        lay = Layout.from_terrain(s.terrain(), s.mover.square)
        res = grid_result(lay, r)
        def cost(m) -> str:
            return "" if opts.feet(m.square) is None else move_feet_text(opts, m.square)
        rows = [[f"{fmt.korean_only(m.label)} {m.square}",
                 labels.BF_MOVE_OPTIONS[opts.option(m.square)] + shooters_text(s, opts.parting_shots(m.square)),
                 cost(m), "" if m.feet is None else f"{m.feet}피트" if m.exact else source_limit_text(m)]
                for m in s.marks]
        runs = engaged_runs(opts)
        run_note = ""
        if runs:
            first = runs[0]
            run_note = (f"<p>근접전을 떠나지 않고 달려서({OPTION_MARKS['run']}) 닿는 칸은 {len(runs)}곳입니다. "
                        f"{'그 칸' if len(runs) == 1 else '예를 들어'} {first}까지는 {move_feet_text(opts, first)}입니다. "
                        "그 라운드에 공격할 수 "
                        "없을 뿐, 아무 상대도 떠나지 않았으므로 분리 사격은 없습니다.</p>")
        return Shown(status_html(r) + "<p>격자의 숫자와 표의 비용은 모두 이동 속도에서 빠지는 피트입니다. "
                     "원문이 걷는 거리로 적은 한도만 비용으로 바꿔 곁에 두었습니다.</p>"
                     + grid_table_html(res) + run_note
                     + Table(["칸", "이동 방식", "이동 비용 (피트)", "원문"], rows,
                             row_heads=False).html())
    return LiveWidget(uid, [select("key", "예제", keys, "tannen_melee"),
                            select("rate", "이동 속도", {0: "예제 값", 10: "10피트", 20: "20피트",
                                                         30: "30피트", 40: "40피트"}, 0)],
                      compute, title="근접 예제의 칸별 이동 방식", plot=False)
