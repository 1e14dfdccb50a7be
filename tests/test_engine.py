"""The in-page engine's Python side: every widget of the book can be rebuilt from its origin,
answers raw page values exactly as the build-time table does, and refuses bad text in Korean.

The same functions run in the reader's browser (tests/test_site_engine.py compares the two)."""
from __future__ import annotations

import html
import json
import random
import re
import subprocess
import sys
import zlib
from pathlib import Path

import nbformat
import pytest

from widgets.views.engine import answer
from widgets.views.live import LiveWidget, rebuild
from widgets.views.static_page import (PAGE_DATA_GZIP, PAGE_DATA_LEVEL, PAGE_MOVES_SHARE, _json,
                                       page_data, unpack)

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"


def book_widgets() -> list[LiveWidget]:
    """Every live widget the chapters show, rebuilt from the origins stored in their outputs."""
    found = []
    for path in sorted(BOOK.glob("**/*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            for out in cell.get("outputs", []):
                html = out.get("data", {}).get("text/html", "")
                for data in re.findall(r'<script type="application/json" class="live-data">(.*?)</script>',
                                       html, re.S):
                    found.append((path.name, json.loads(data.replace("<\\/", "</"))))
    return found


WIDGETS = book_widgets()


def test_the_book_has_engine_widgets_in_every_chapter():
    chapters = {name for name, _ in WIDGETS}
    assert {"trench_crusade.ipynb", "bfrpg.ipynb", "pf2e.ipynb", "underface.ipynb",
            "hunters_moon.ipynb"} <= chapters
    assert len(WIDGETS) >= 40


@pytest.mark.parametrize("where,data", WIDGETS, ids=[d["uid"] for _, d in WIDGETS])
def test_origin_rebuilds_the_same_widget(where, data):
    assert data["origin"] is not None, f"{where}: {data['uid']} cannot be rebuilt in the page"
    widget = rebuild(data["origin"])
    assert widget.uid == data["uid"]
    # the rebuilt widget ships the same first answers (so engine and table agree)
    assert page_data(widget) == data
    # within the largest byte budget (compressed as a host sends it; a widget's page_room more),
    # or only a reader's first moves (the defaults and every value of one control), which always ship
    table = _json({k: data[k] for k in ("p", "h", "b", "keys")}).encode()
    first = {widget.key(v) for v in widget.first_moves()[0]}
    assert (len(zlib.compress(table, PAGE_DATA_LEVEL)) <= max(PAGE_DATA_GZIP) + widget.page_room
            or set(data["keys"]) == first)
    assert first <= set(data["keys"])


#: The whole-fight calculators (widgets.views.fights): an answer is a whole fight's table by
#: step, so their page tables hold every one-control move (test above) and the engine answers
#: the rest; they are left out of the two-control average the other widgets keep.
WHOLE_FIGHTS = {"uf-duel", "pf-down", "tc-out", "hm-hunt"}


def test_the_pages_answer_most_two_control_moves():
    """Before any engine, a reader's two-control moves (two controls each set to another of its
    values) are answered from the page's table: at least PAGE_MOVES_SHARE of them, on average
    over the book's widgets."""
    shares = []
    for _, data in WIDGETS:
        if data["uid"] in WHOLE_FIGHTS:
            continue
        moves = rebuild(data["origin"]).two_control_moves()
        if moves:
            shares.append(sum(k in data["keys"] for k in moves) / len(moves))
    assert len(shares) >= 40
    assert sum(shares) / len(shares) >= PAGE_MOVES_SHARE, sum(shares) / len(shares)


@pytest.mark.parametrize("where,data", WIDGETS, ids=[d["uid"] for _, d in WIDGETS])
def test_engine_answers_equal_the_table(where, data):
    for key in data["keys"]:
        raw = dict(zip(data["names"], key.split("|")))
        got = json.loads(answer(json.dumps({"origin": data["origin"], "values": raw})))
        want = unpack(data, key)
        if "error" in got:   # a refusal: the table shows the same Korean message as an error
            assert "widget-error" in want["h"] and html.escape(got["error"]) in want["h"], key
        else:
            assert got == want, key


def random_raw(widget: LiveWidget, rng: random.Random) -> dict:
    """Control values as the page sends them, often beyond the slider (any value the reader types)."""
    raw = {}
    for c in widget.controls:
        if c.kind == "toggle":
            raw[c.name] = rng.choice(["0", "1"])
        elif c.kind == "select":
            raw[c.name] = c.key(rng.choice(c.options))
        elif c.kind == "text":   # an example, a variation of it, or junk the library must refuse
            base = rng.choice(c.options)
            raw[c.name] = rng.choice([base, base.lower(), base + "+1", base + "x", "", "((", base * 3])
        else:
            lo, hi = c.options[0], c.options[-1]
            span = max(hi - lo, 4)
            whole = all(isinstance(o, int) for o in c.options)
            value = rng.uniform(lo - span / 2, hi + span / 2)
            raw[c.name] = str(round(value)) if whole or rng.random() < 0.5 else f"{value:.1f}"
    return raw


@pytest.mark.parametrize("where,data", WIDGETS, ids=[d["uid"] for _, d in WIDGETS])
def test_any_value_is_answered_or_refused_in_korean(where, data):
    widget = rebuild(data["origin"])
    rng = random.Random(data["uid"])
    for _ in range(15):
        raw = random_raw(widget, rng)
        got = widget.answer(raw)
        if "error" in got:
            assert re.search("[가-힣]", got["error"]), raw
            assert "입력을 처리할 수 없습니다" not in got["error"], (raw, got)
        else:
            values = {c.name: c.parse(raw[c.name]) for c in widget.controls}
            assert got == widget.entry(widget.compute(**values))
            if "y" in got:
                assert abs(sum(got["y"]) - round(sum(got["y"]))) < 1e-9


@pytest.mark.parametrize("text", ["abc", "1e3", "", " ", "--1", "0x10", "nan", "inf",
                                  "<b>1</b>", "1,5", "１e３", "−−1"])
def test_bad_text_is_refused_with_the_controls_label(text):
    from widgets.views.generic import dice_pool_widget
    got = dice_pool_widget().answer({"count": text, "sides": "6", "keep": "all"})
    assert got["error"].startswith("주사위 개수: 숫자만 넣어 주세요"), got


@pytest.mark.parametrize("typed,value", [("４", 4), ("－２", -2), ("−2", -2), ("\u2013 2", None),
                                         ("２.５", 2.5), ("＋３", 3), (" 3 ", 3)])
def test_typed_numbers_are_read_as_korean_keyboards_and_the_book_write_them(typed, value):
    """NFKC (full-width digits and signs) and the typographic minus the book prints (−5)."""
    from widgets.views.generic import dice_pool_widget
    widget = dice_pool_widget()
    count = next(c for c in widget.controls if c.name == "count")
    if value is None:   # an en dash with a space after it is not a number
        with pytest.raises(ValueError):
            count.parse(typed)
        return
    assert count.parse(typed) == value


def test_bad_requests_never_raise():
    for request in ["", "{", "[]", '{"origin": null, "values": {}}',
                    '{"origin": {"module": "os", "factory": "system", "kwargs": {}}, "values": {}}',
                    '{"origin": {"module": "widgets.views.generic", "factory": "nope", "kwargs": {}},'
                    ' "values": {}}']:
        assert "error" in json.loads(answer(request))


def test_the_engine_imports_no_numpy_bokeh_or_ipywidgets():
    code = ("import sys, json; from widgets.views import engine, trench_crusade, bfrpg, pf2e, "
            "underface, hunters_moon, generic; "
            "print(json.dumps(sorted(m for m in ('numpy', 'bokeh', 'ipywidgets') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
