"""The view layer shows what the library computes, on every static entry and in Jupyter."""
from __future__ import annotations

import html
import re

import pytest

from widgets import trench_crusade as tc
from widgets.views import format as fmt
from widgets.views import generic
from widgets.views import trench_crusade as views
from widgets.views.live import LiveWidget, Shown, number
from widget_checks import JupyterView, check_static_table, shows_exact, table_rows

TC_WIDGETS = [views.success_widget, views.plus_minus_widget, views.dice_pool_widget,
              views.activation_widget, views.risky_widget, views.charge_widget,
              views.markers_widget, views.injury_widget, views.fraction_widget,
              views.ranged_widget, views.attack_widget, generic.dice_pool_widget]


@pytest.mark.parametrize("make", TC_WIDGETS)
def test_static_table_covers_every_option_and_has_no_python_errors(make):
    check_static_table(make(), rule_messages_allowed=True)


def test_success_entries_equal_the_library():
    table = views.success_widget().static_table()
    for net in range(-10, 11):
        for mod in range(-5, 6):
            entry = table[f"{net}|{mod}"]
            cells = {c for row in table_rows(entry["h"]) for c in row}   # whatever markup draws them
            for key, p in tc.success_odds(net, mod).items():
                assert fmt.prob(p) in cells
            dist = tc.success_roll(net, mod).probabilities()
            assert entry["x"] == list(dist)
            assert entry["t"] == [fmt.prob(p) for p in dist.values()]


def test_out_of_range_entry_shows_korean_message_without_bars():
    table = views.ranged_widget().static_table()
    entry = table["12|20|0|0"]
    assert "사거리" in entry["h"] and "widget-error" in entry["h"] and "x" not in entry


def test_jupyter_view_accepts_values_beyond_the_static_table():
    view = JupyterView(views.success_widget())
    names = [c.name for c in view.widget.controls]
    view.type(names[0], "40")
    forty = tc.success_odds(40)["critical"]
    assert shows_exact(forty, view.out) and view.status == ""
    view.type(names[0], "999")       # refused in Korean on the status line; the answer stays
    assert "widget-error" in view.status and "±DICE" in view.status and shows_exact(forty, view.out)
    view.type(names[0], "2").type(names[1], "−1")   # the book's own minus sign
    assert fmt.prob(tc.success_odds(2, -1)["success"]) in view.out and view.status == ""


@pytest.mark.parametrize("text", ["1e9", "일곱", "0x10", "1,5", "2.5.1"])
def test_jupyter_number_box_never_reinterprets_text(text):
    view = JupyterView(generic.dice_pool_widget())
    before = view.out
    view.type("count", text)
    assert "숫자만 넣어 주세요" in view.status and view.out == before
    assert view.box.rulebook_inputs["count"]["slider"].value == 3   # the slider did not move


def test_jupyter_view_has_the_sites_controls():
    import ipywidgets as w
    view = JupyterView(views.success_widget())
    for c in view.widget.controls:
        parts = view.box.rulebook_inputs[c.name]
        if c.kind == "number":   # a slider with a box beside it, as on the site
            assert isinstance(parts["box"], w.Text)
            # the knob moves over the control's own options (exact steps, never float sums)
            assert isinstance(parts["slider"], w.SelectionSlider)
            assert tuple(value for _, value in parts["slider"].options) == c.options
    view.box.rulebook_inputs[view.widget.controls[0].name]["slider"].value = 3
    assert view.box.rulebook_inputs[view.widget.controls[0].name]["box"].value == "3"
    assert shows_exact(tc.success_odds(3)["critical"], view.out)


def test_mime_bundle_carries_widget_view_html_and_text():
    bundle = views.success_widget()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert 'data-live="tc-success"' in bundle["text/html"]
    assert "5/12 (41.67%)" in bundle["text/plain"]


def test_control_keys_match_the_javascript_key_format():
    # JS builds String(value) for numbers and "1"/"0" for toggles
    c = number("d", "거리", 1, 3, 2, step=0.5)
    assert [c.key(v) for v in c.options] == ["1", "1.5", "2", "2.5", "3"]
    w = views.charge_widget()
    assert "6|9.5" in w.static_table() and "6|10" in w.static_table()


def test_bad_input_in_compute_becomes_a_message():
    def compute(x):
        return Shown(str(tc.success_odds(dice=x)))
    w = LiveWidget("t-bad", [number("x", "x", 0, 1, 0)], compute)
    assert "widget-error" in w.shown(x="abc").html


def test_percent_formatting_rounds_from_the_exact_value():
    from fractions import Fraction
    assert fmt.percent(Fraction(1, 8)) == "12.50%"
    assert fmt.percent(Fraction(2, 3)) == "66.67%"
    assert fmt.percent(Fraction(1, 10**6)) == "0.01% 미만"
    assert fmt.percent(1 - Fraction(1, 10**6)) == "99.99% 넘게"
    assert fmt.prob(Fraction(5, 12)) == "5/12 (41.67%)"


def test_uids_unique_in_each_notebook():
    import nbformat
    from pathlib import Path
    for path in Path(__file__).resolve().parent.parent.joinpath("book").glob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        uids = []
        for cell in nb.cells:
            for out in cell.get("outputs", []):
                html = out.get("data", {}).get("text/html", "")
                uids += re.findall(r'data-live="([^"]+)"', html)
        assert len(uids) == len(set(uids)), path.name


@pytest.mark.parametrize("make", [views.success_widget, views.ranged_widget, views.injury_widget])
def test_packed_table_unpacks_to_every_entry(make):
    from widgets.views.static_page import pack, unpack
    table = make().static_table()
    packed = pack(table)
    assert len(packed["h"]) < len(table) or len(set(e["h"] for e in table.values())) == len(table)
    assert len(packed["p"]) < sum(e["h"].count("<") for e in table.values())   # pieces are shared
    for key, entry in table.items():
        assert unpack(packed, key) == entry, key


def test_attack_entries_equal_the_library():
    widget = views.attack_widget()
    table = widget.static_table()
    for v in widget.settings():   # the weapon card's own modifiers included
        entry = table[widget.key(v)]
        odds = tc.attack_odds(v["dice"], v["armour"], v["target_down"], v["injury_dice"],
                              v["hit_mod"], v["injury_mod"])
        assert entry["t"] == [fmt.prob(odds[k]) for k in tc.ATTACK_RESULTS]
        for p in odds.values():
            assert shows_exact(p, entry["h"])


def test_weapon_modifiers_are_the_injury_roll_and_success_roll_of_the_library():
    """A weapon's injury modifier adds to the injury total; a hit modifier to the success roll."""
    base = tc.attack_odds(0, 0, False)
    plus = tc.attack_odds(0, 0, False, injury_modifier=1)
    assert plus["miss"] == base["miss"] and plus["out_of_action"] > base["out_of_action"]
    roll = tc.success_odds(0, 1)
    manual = {k: 0 for k in tc.ATTACK_RESULTS}
    manual["miss"] = roll["failure"]
    for kind, extra in (("success", 0), ("critical", 1)):
        for k, p in tc.injury_odds(extra, 0, 1).items():
            manual[k] += roll[kind] * p
    assert tc.attack_odds(0, 0, False, modifier=1, injury_modifier=1) == manual


def test_texts_have_no_unresolved_particles_or_zero_dice():
    for make in TC_WIDGETS:
        for entry in make().static_table().values():
            assert "을(를)" not in entry["h"] and not re.search(r"(?<![\d])0 DICE", entry["h"])


def test_dice_widget_counts_the_dice_the_library_throws():
    table = views.dice_pool_widget().static_table()
    for net in range(-6, 7):
        rolled, kept = tc.roll_size(net, 3)
        assert f"D6 <b>{rolled}개</b>" in table[f"bloodbath|{net}"]["h"]
        dist = tc.injury_roll(net, bloodbath=True)
        assert table[f"bloodbath|{net}"]["x"] == list(dist.probabilities())


def test_fraction_widget_rounds_counts_up_and_keeps_distances():
    table = views.fraction_widget().static_table()
    assert f"<b>{tc.round_up(7, 2)}</b>개" in table["7|2|count"]["h"]
    assert '<b>3.5"</b>' in table["7|2|distance"]["h"]


def test_jupyter_knob_goes_to_the_nearest_step_and_the_box_keeps_the_value():
    """A value between the slider's steps stays typed in the box while the knob goes to the
    nearest step (the lower of two as near): 65 is answered as 65, never rounded to 70."""
    from widgets.views import underface as uf_views
    from widgets import underface as uf
    view = JupyterView(uf_views.hit_widget())
    slider = view.box.rulebook_inputs["attack"]["slider"]
    view.type("attack", "65")
    assert slider.value == 60 and view.box.rulebook_inputs["attack"]["box"].value == "65"
    assert "공격 65" in view.out
    assert shows_exact(uf.opposed_odds(65, 60, defense_penalty="평상복")["attacker_wins"], view.out)
    view.type("attack", "67")
    assert slider.value == 70 and view.box.rulebook_inputs["attack"]["box"].value == "67"
    assert "공격 67" in view.out
    view.type("attack", "150")       # beyond the slider: the knob at its end
    assert slider.value == 80 and view.box.rulebook_inputs["attack"]["box"].value == "150"
    view.type("attack", "999")       # refused: the knob and the answer stay at 150
    assert slider.value == 80 and "공격 150" in view.out and "「공격 기능 (%)」 칸은" in view.status
