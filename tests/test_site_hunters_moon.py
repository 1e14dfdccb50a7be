"""The built Hunter's Moon page in headless chromium: offline, every widget live, exact values."""
from __future__ import annotations

from widgets import hunters_moon as hm
from widgets.views import labels
from widgets.views import format as fmt
from widgets.views import hunters_moon as views

PAGE = "book/hunters_moon.html"
UIDS = [make().uid for make in views.ALL_WIDGETS]



def test_page_loads_offline_with_every_widget_rendered(offline_page):
    offline_page.assert_page_live(PAGE, UIDS)


def test_plot_widget_paragraph_and_doom_stage_show_the_library_damage(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="hm-plot"]')
    for plot, power, doom in [(5, 3, 2), (1, 7, 0), (6, 4, 3), (3, 0, 4)]:
        root.locator("select").select_option(label=f"{plot} ({hm.paragraph_label(plot)})")
        offline_page.set_value("hm-plot-weapon_power", power)
        offline_page.set_value("hm-plot-doom_stage", doom)
        shown = offline_page.visible_text("hm-plot")
        assert f"데미지 {hm.pc_damage(power, plot, doom).min}" in shown, (plot, power, doom, shown)
        assert f"→ {hm.paragraph_label(plot)}." in shown


def test_check_and_destroy_widgets_follow_the_library(offline_page):
    page = offline_page.open(PAGE)
    offline_page.set_value("hm-check-modifier", 8)
    offline_page.set_value("hm-check-target", 6)
    shown = offline_page.visible_text("hm-check")
    odds = hm.check_odds(8, 6)
    for key in hm.OUTCOMES:
        assert f"{labels.HM_OUTCOMES[key]}\t{fmt.prob(odds[key])}" in shown
    offline_page.set_value("hm-destroy-might", 3)
    offline_page.set_value("hm-destroy-defence", 10)
    offline_page.set_value("hm-destroy-weapon_power", 2)
    page.locator('[data-live="hm-destroy"] select').select_option(label="6 (권외)")
    offline_page.set_value("hm-destroy-durability", 8)
    odds = hm.destroy_odds(3, 10, 2, 6, 8)
    shown = offline_page.visible_text("hm-destroy")
    assert fmt.prob(odds.destroy) in shown and fmt.prob(odds.hit) in shown


def test_order_widget_walks_the_round(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="hm-order"]')
    selects = root.locator("select")
    selects.nth(0).select_option(label="4 (패러그래프 4)")
    selects.nth(1).select_option(label="1 (패러그래프 1)")
    selects.nth(2).select_option(label="4 (패러그래프 4)")
    selects.nth(3).select_option(label=views.THREAT_LAYOUTS["24"])
    order = hm.round_order([hm.PlottedPC("A", 4), hm.PlottedPC("B", 1), hm.PlottedPC("C", 4)],
                           [hm.PlacedThreat("t", 2), hm.PlacedThreat("t", 4)])
    lines = [f"{x.paragraph_label}: " + (f"PC {x.name}" if isinstance(x, hm.PlottedPC) else "위협 행동")
             for x in order]
    shown = offline_page.visible_text("hm-order")
    assert [ln.strip() for ln in shown.splitlines() if ln.strip()][:len(lines)] == lines
    assert "같은 자리" in shown


def test_pursuit_and_status_widgets(offline_page):
    page = offline_page.open(PAGE)
    offline_page.set_value("hm-pursuit-ability", 4)
    offline_page.set_value("hm-pursuit-body_defence", 11)
    offline_page.set_value("hm-pursuit-weapon_power", 6)
    shown = offline_page.visible_text("hm-pursuit")
    assert fmt.prob(hm.pursuit_odds(4, 11)) in shown
    assert views.dist_text(hm.pc_damage(6, 3, pursuit=True)) in shown

    root = page.locator('[data-live="hm-status-attack"]')
    root.locator(".bk-Switch").nth(2).click()            # threat flying
    s = views.STATUS_ATTACK
    odds = hm.destroy_odds(s["might"], s["defence"], s["weapon_power"], 3, s["durability"],
                           threat_flying=True)
    assert fmt.prob(odds.destroy) in offline_page.visible_text("hm-status-attack")
    root.locator(".bk-Switch").nth(5).click()            # attacker diving → auto-hit
    shown = offline_page.visible_text("hm-status-attack")
    assert "자동명중" in shown

    root = page.locator('[data-live="hm-status-defence"]')
    root.locator(".bk-Switch").nth(0).click()            # PC bound
    d = views.STATUS_DEFENCE
    odds = hm.defence_odds(d["ability"], d["attack_value"], bound=True)
    shown = offline_page.visible_text("hm-status-defence")
    assert fmt.prob(odds["failure"] + odds["fumble"]) in shown
    assert views.dist_text(hm.bound_round_end_loss()) in shown
