"""The built Trench Crusade page in headless chromium: offline, every widget live, exact values."""
from __future__ import annotations

import html
import re

from widgets import trench_crusade as tc
from widgets.views import format as fmt

PAGE = "book/trench_crusade.html"
UIDS = ["tc-dice", "tc-activation", "tc-charge", "tc-risky", "tc-attack", "tc-success",
        "tc-plusminus", "tc-markers", "tc-injury-blood", "tc-injury-blessing", "tc-fraction",
        "tc-injury", "tc-ranged"]



def test_page_loads_offline_with_every_widget_rendered(offline_page):
    offline_page.assert_page_live(PAGE, UIDS)


def test_success_slider_changes_the_exact_odds(offline_page):
    page = offline_page.open(PAGE)
    for net, mod in [(1, 0), (-3, 2), (10, -5), (0, 0)]:
        offline_page.set_value("tc-success-dice", net)
        offline_page.set_value("tc-success-modifier", mod)
        odds = tc.success_odds(net, mod)
        shown = offline_page.opened_text("tc-success")       # long fractions opened, as a reader taps them
        for p in odds.values():
            assert fmt.prob(p) in shown, (net, mod, shown)
        bars = page.evaluate("() => Bokeh.documents.map(d => d.get_model_by_name('tc-success-bars'))"
                             ".find(Boolean).data.t")
        assert list(bars) == [fmt.prob(p) for p in tc.success_roll(net, mod).probabilities().values()]


def test_keyboard_on_the_slider_moves_it_like_a_reader(offline_page):
    page = offline_page.open(PAGE)
    handle = page.locator('[data-live="tc-success"] .noUi-handle').first
    handle.focus()
    handle.press("ArrowRight")   # 0 → +1 DICE
    assert fmt.prob(tc.success_odds(1, 0)["critical"]) in offline_page.visible_text("tc-success")


def test_select_and_switch_on_the_injury_widget(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="tc-injury"]')
    root.locator("select").select_option(label="강화 갑옷 (−2)")
    root.locator(".bk-Switch").nth(1).click()             # bloodbath on
    odds = tc.injury_odds(dice=0, armour=2, bloodbath=True)
    shown = offline_page.visible_text("tc-injury")
    for p in odds.values():
        assert html.unescape(fmt.prob(p)) in shown
    root.locator(".bk-Switch").nth(0).click()             # trench shield: armour 3
    shown = offline_page.visible_text("tc-injury")
    assert fmt.prob(tc.injury_odds(dice=0, armour=3, bloodbath=True)["out_of_action"]) in shown


def test_charge_and_ranged_widgets_follow_the_library(offline_page):
    offline_page.open(PAGE)
    offline_page.set_value("tc-charge-movement", 5)
    offline_page.set_value("tc-charge-distance", 9.5)
    assert fmt.prob(tc.charge_odds(5, 9.5)) in offline_page.visible_text("tc-charge")
    offline_page.set_value("tc-ranged-weapon_range", "12")
    offline_page.set_value("tc-ranged-distance", 20)
    assert "사거리" in offline_page.visible_text("tc-ranged") and "밖" in offline_page.visible_text("tc-ranged")
    offline_page.set_value("tc-ranged-distance", 10)
    net = tc.ranged_dice(10, 12)
    assert fmt.prob(tc.success_odds(net)["success"]) in offline_page.visible_text("tc-ranged")


def test_markers_and_activation_widgets(offline_page):
    offline_page.open(PAGE)
    offline_page.set_value("tc-markers-blood", 3)
    offline_page.set_value("tc-markers-blessing", 1)
    after = tc.markers_to_dice(0, 3, 1)
    assert fmt.prob(tc.success_odds(after)["success"]) in offline_page.visible_text("tc-markers")
    offline_page.set_value("tc-activation-models_a", 3)
    offline_page.set_value("tc-activation-models_b", 5)
    text = offline_page.visible_text("tc-activation")
    assert " → ".join(tc.activation_order(3, 5, "A")) in text
    offline_page.set_value("tc-fraction-numerator", 11)
    offline_page.set_value("tc-fraction-denominator", 4)
    assert re.search(rf"11 ÷ 4 = 11/4 .* {tc.round_up(11, 4)}개", offline_page.visible_text("tc-fraction"))


def test_attack_widget_follows_the_library(offline_page):
    page = offline_page.open(PAGE)
    offline_page.set_value("tc-attack-dice", -1)
    page.locator('[data-live="tc-attack"]').locator("select").select_option(label="표준 갑옷 (−1)")
    shown = offline_page.visible_text("tc-attack")
    for p in tc.attack_odds(-1, 1).values():
        assert fmt.prob(p) in shown
