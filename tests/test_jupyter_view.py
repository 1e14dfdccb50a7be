"""The Jupyter view (widgets/views/jupyter.py) as a reader drives it, without a browser:

- every number control of the book with a fractional step: each knob position gives the step
  itself, shown as its own text, answered as the library answers that value;
- a box answers when the reader has finished (a pause or Enter), never for part of what is
  being typed; a refused box keeps its last accepted value while the other controls answer.

The same in a real JupyterLab: tests/test_jupyterlab.py."""
from __future__ import annotations

import asyncio
import threading
import re
from fractions import Fraction

import pytest

from test_engine import WIDGETS
from widgets import trench_crusade as tc
from widgets.views import format as fmt
from widgets.views import trench_crusade as tc_views
from widgets.views.jupyter import ipywidget
from widgets.views.live import rebuild


def _fractional_controls():
    found = []
    for _, data in WIDGETS:
        widget = rebuild(data["origin"])
        for c in widget.controls:
            if c.kind == "number" and any(not float(o).is_integer() for o in c.options):
                found.append(pytest.param(widget, c, id=f"{widget.uid}.{c.name}"))
    return found


FRACTIONAL = _fractional_controls()


def test_the_book_has_fractional_step_controls():
    assert any(c.name == "distance" and w.uid == "tc-charge" for w, c in (p.values for p in FRACTIONAL))


@pytest.mark.parametrize("widget,control", FRACTIONAL)
def test_every_knob_position_is_the_step_itself(widget, control):
    box = ipywidget(widget)
    parts = box.rulebook_inputs[control.name]
    first, second = (Fraction(control.key(o)) for o in control.options[:2])
    for i in range(len(control.options)):
        parts["slider"].index = i                 # what the front end sends: an index
        text = parts["box"].value
        assert re.fullmatch(r"-?\d+(\.\d{1,3})?", text), text       # the step's own text
        assert Fraction(text) == first + i * (second - first)
        raw = {c.name: (text if c is control else c.key(c.default)) for c in widget.controls}
        assert widget.answer(raw)["h"] in box.rulebook_out.value       # the library's answer
        assert box.rulebook_status.value == ""


def test_the_charge_default_and_a_typed_ten_answer_like_the_library():
    box = ipywidget(tc_views.charge_widget())
    distance = box.rulebook_inputs["distance"]
    assert distance["box"].value == "9" and distance["slider"].value == 9
    assert f"D6 눈이 {tc.charge_roll_needed(6, 9)} 이상" in box.rulebook_out.value   # 2 이상
    assert fmt.prob(tc.charge_odds(6, 9)) in box.rulebook_out.value               # 5/6
    distance["box"].value = "10"
    assert f"D6 눈이 {tc.charge_roll_needed(6, 10)} 이상" in box.rulebook_out.value
    assert fmt.prob(tc.charge_odds(6, 10)) in box.rulebook_out.value              # 2/3
    assert distance["slider"].value == 10
    distance["box"].value = "9.7"                 # between steps: the knob at the nearest
    assert distance["slider"].value == 9.5 and distance["box"].value == "9.7"


def _run(go):
    """``asyncio.run(go())`` in a thread of its own: the test session's browser driver keeps an
    event loop running in this one."""
    out = {}

    def target():
        out["value"] = asyncio.run(go())
    worker = threading.Thread(target=target)
    worker.start()
    worker.join()
    return out["value"]


def _typing(widget_factory, name, keys, then=None, pause=0.05):
    """Type ``keys`` one by one into a box inside an event loop (as a kernel has), then wait
    past the pause; returns every answer and status the view showed, and the view."""
    async def go():
        box = ipywidget(widget_factory(), pause=pause)
        shown = []
        box.rulebook_out.observe(lambda ch: shown.append(ch["new"]), names="value")
        box.rulebook_status.observe(lambda ch: shown.append(ch["new"]), names="value")
        text = box.rulebook_inputs[name]["box"]
        for i in range(1, len(keys) + 1):
            text.value = keys[:i]
            await asyncio.sleep(0)                 # keystrokes faster than the pause
        if then:
            then(box)
        await asyncio.sleep(pause * 4)
        return shown, box
    return _run(go)


def test_typed_key_by_key_a_refused_value_never_shows_an_answer_for_part_of_it():
    shown, box = _typing(tc_views.success_widget, "dice", "99999999999")
    assert not any("+9" in s for s in shown), [s for s in shown if "+9" in s][:1]
    status = box.rulebook_status.value
    assert "±DICE는 -500부터 500까지" in status
    assert "「순 ±DICE」 칸은 마지막으로 받아들인 값 0으로 계산합니다" in status
    assert box.rulebook_inputs["dice"]["slider"].value == 0


def test_a_pause_answers_the_finished_value_once():
    shown, box = _typing(tc_views.success_widget, "dice", "25")
    answers = [s for s in shown if "DICE" in s and "widget-error" not in s]
    assert len(answers) == 1 and "+25 DICE" in answers[0]       # never the answer for 2
    assert box.rulebook_inputs["dice"]["slider"].value == 10    # the knob at the nearest step


def test_enter_answers_at_once():
    async def go():
        box = ipywidget(tc_views.success_widget(), pause=60)
        text = box.rulebook_inputs["dice"]["box"]
        text.value = "3"
        await asyncio.sleep(0)
        assert "+3 DICE" not in box.rulebook_out.value          # still typing
        text._handle_custom_msg({"event": "submit"}, [])       # the front end's Enter
        return box
    box = _run(go)
    assert "+3 DICE" in box.rulebook_out.value


def test_a_menu_still_answers_while_a_box_is_refused():
    box = ipywidget(tc_views.risky_widget())
    dice = box.rulebook_inputs["dice"]["box"]
    dice.value = "1"
    dice.value = "99999999999"                    # refused: the box keeps 1
    box.rulebook_inputs["action"]["input"].value = "dash_climb"
    odds = tc.risky_chain_odds(1, 0, tc.RISKY_ROLLS["dash_climb"])
    assert fmt.prob(odds) in box.rulebook_out.value
    assert "「순 ±DICE」 칸은 마지막으로 받아들인 값 1로 계산합니다" in box.rulebook_status.value
    dice.value = "2"                              # corrected: the message goes
    assert box.rulebook_status.value == ""
    assert fmt.prob(tc.risky_chain_odds(2, 0, tc.RISKY_ROLLS["dash_climb"])) in box.rulebook_out.value
