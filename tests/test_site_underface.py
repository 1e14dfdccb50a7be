"""The built Underface page in headless chromium: offline, every widget live, exact values
equal to the library's after the reader changes the controls."""
from __future__ import annotations

import html

from widgets import underface as uf
from widgets.views import labels
from widgets.views import format as fmt
from widgets.views import underface as views

PAGE = "book/underface.html"
UIDS = [make().uid for make in views.ALL_WIDGETS]




def test_page_loads_offline_with_every_widget_rendered(offline_page):
    page = offline_page.assert_page_live(PAGE, UIDS)
    assert "판금 갑옷" in page.locator("table.uf-table").nth(0).evaluate(
        "() => document.body.innerText")


def test_damage_widget_weapon_armor_and_special(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="uf-damage"]')
    weapons = views._weapon_choices(shields=False, grouped=True)
    armors = views._armor_choices()
    for weapon, db, armor, special in [("그레이트 소드", "+1D4", "진압복", False),
                                       ("그레이트 소드", "+1D4", "진압복", True),
                                       ("권총", "0", "평상복", True),
                                       ("롱보우", "+2D6", "방탄조끼", False)]:
        selects = root.locator("select:visible")
        selects.nth(0).select_option(label=weapons[weapon])
        selects.nth(1).select_option(label=views._db_choices()[db])
        selects.nth(2).select_option(label=armors[armor])
        switch_on = offline_page.page.evaluate(
            "(n) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean).active",
            "uf-damage-special")
        if switch_on != special:
            root.locator(".bk-Switch").nth(0).click()
        dist = uf.damage_distribution(weapon, armor, db, special)
        shown = offline_page.visible_text("uf-damage")
        assert fmt.prob(dist.probability(0)) in shown, (weapon, armor, special, shown)
        assert f"평균 {fmt.approx(dist.mean())}" in shown
        assert offline_page.bar_labels("uf-damage") == [fmt.prob(p) for p in
                                                 dist.probabilities().values()]


def test_hp_widget_weapon_armor_special_and_hp(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="uf-hp"]')
    weapons = views._weapon_choices(shields=False, grouped=True)
    root.locator("select:visible").nth(0).select_option(label=weapons["그레이트 소드"])
    root.locator("select:visible").nth(2).select_option(label=views._armor_choices()["평상복"])
    root.locator(".bk-Switch").nth(0).click()                    # special on
    offline_page.set_value("uf-hp-hp", 6)
    states = uf.hit_hp_states("그레이트 소드", 6, 12, "평상복", "+1D4", True)
    shown = offline_page.visible_text("uf-hp")
    for p in states.values():
        assert fmt.prob(p) in shown
    assert fmt.signed(uf.death_threshold(12)) in shown
    offline_page.set_value("uf-hp-max_hp", 16)
    shown = offline_page.visible_text("uf-hp")
    states = uf.hit_hp_states("그레이트 소드", 6, 16, "평상복", "+1D4", True)
    assert all(fmt.prob(p) in shown for p in states.values())


def test_hit_widget_dodge_in_armor_and_hard(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="uf-hit"]')
    label = views._defence_choices()["dodge:방탄조끼"]
    root.locator("select:visible").select_option(label=label)
    offline_page.set_value("uf-hit-attack", 70)
    shown = offline_page.visible_text("uf-hit")
    odds = uf.opposed_odds(70, 60, defense_penalty="방탄조끼")
    assert all(fmt.prob(p) in shown for p in odds.values())
    assert f"회피 {uf.effective_target(60, penalty='방탄조끼')}" in shown
    root.locator(".bk-Switch").nth(1).click()                     # defence hard
    odds = uf.opposed_odds(70, 60, defense_penalty="방탄조끼", defense_hard=True)
    assert offline_page.bar_labels("uf-hit") == [fmt.prob(p) for p in odds.values()]
    root.locator("select:visible").select_option(label=views._defence_choices()["parry"])
    odds = uf.opposed_odds(70, 60, defense_hard=True)
    assert all(fmt.prob(p) in offline_page.visible_text("uf-hit") for p in odds.values())


def test_turn_order_builder(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="uf-order"]')
    names = [n for n, _ in views.ROSTER]

    def expected(dex, ranged, pc, waiting):
        chars = [uf.Character(n, d, ranged=r, weapon_skill=s, pc=p)
                 for (n, s), d, r, p in zip(views.ROSTER, dex, ranged, pc)]
        return [c.name for c in uf.turn_order(chars, waiting)]

    def shown():
        return [line.replace(" (대기)", "").strip()
                for line in offline_page.visible_text("uf-order").splitlines() if line.strip()]

    assert shown() == expected([14, 12, 12], [False, True, False], [True, True, False], [])
    offline_page.set_value("uf-order-dex_a", 12)                 # all DEX 12: ranged 나래 first
    assert shown() == expected([12, 12, 12], [False, True, False], [True, True, False], [])
    root.locator(".bk-Switch").nth(6).click()                     # 다온 becomes a PC
    assert shown() == expected([12, 12, 12], [False, True, False], [True, True, True], [])
    root.locator(".bk-Switch").nth(4).click()                     # 나래 waits
    root.locator(".bk-Switch").nth(2).click()                     # 가람 waits
    assert shown() == expected([12, 12, 12], [False, True, False], [True, True, True],
                               ["가람", "나래"])
    assert "(대기)" in offline_page.visible_text("uf-order") and names


def test_range_movement_and_recovery_widgets(offline_page):
    page = offline_page.open(PAGE)
    page.locator('[data-live="uf-range"] select').nth(0).select_option(label="라이플 (100m)")
    offline_page.set_value("uf-range-distance", 200)
    shown = offline_page.visible_text("uf-range")
    assert "어려움" in shown
    ex = views.RANGE_EXAMPLE
    odds = uf.ranged_hit_odds("라이플", 200, ex["attack"], ex["defense"], "shield")
    assert fmt.prob(odds["attacker_wins"]) in shown
    offline_page.set_value("uf-range-weapon", "산탄총")
    assert "닿지 않음" in offline_page.visible_text("uf-range")
    offline_page.set_value("uf-move-distance", 20)
    shown = offline_page.visible_text("uf-move")
    assert labels.UF_MOVES[uf.movement(20, 8)] in shown
    assert fmt.prob(uf.check_odds(60, hard=True)["special"]) in shown
    offline_page.set_value("uf-firstaid-attempts", 3)
    offline_page.set_value("uf-firstaid-hp", -5)
    assert fmt.prob(uf.first_aid(-5, 60, 3).at_least(1)) in offline_page.visible_text("uf-firstaid")
    offline_page.set_value("uf-weeks-hp", -10)
    dist = uf.weeks_to_recover(-10)
    assert offline_page.bar_labels("uf-weeks") == [fmt.prob(p) for p in dist.probabilities().values()]
    root = page.locator('[data-live="uf-armor"]')
    root.locator("select:visible").nth(0).select_option(label="판금 갑옷 (방어 점수 6, 신체 판정 −25%)")
    shown = offline_page.visible_text("uf-armor")
    loss = uf.hp_loss_per_attack("숏소드", views.ARMOR_EXAMPLE["attack"], 60, "판금 갑옷")
    assert fmt.approx(loss.mean()) in shown and fmt.prob(loss.probability(0)) in shown


def test_house_rule_weapon_and_armour_on_the_site_and_in_a_shared_link(browser, site_url):
    """「직접 입력」: the boxes appear, the in-page engine answers the house-rule weapon and armour
    exactly as the library, and a copied link opens with the same values and answer."""
    from conftest import OfflinePage
    from widgets import underface as uf
    first = OfflinePage(browser, site_url)
    page = first.open(PAGE)
    root = page.locator('[data-live="uf-damage"]')
    assert root.locator(".live-text input:visible").count() == 0      # hidden until chosen
    root.locator("select:visible").nth(0).select_option(label=views._weapon_choices(
        shields=False, grouped=True, custom=True)[views.CUSTOM])
    assert root.locator(".live-text input:visible").count() == 1
    assert first.type_text("uf-damage", "damage", "２D6+1") == "live:answer"   # full-width 2
    root.locator("select:visible").nth(1).select_option(label=views._DB_MODES["half"])
    root.locator("select:visible").nth(2).select_option(label=views._db_choices()["+1D4"])
    root.locator("select:visible").nth(3).select_option(label=views._armor_choices(custom=True)[views.CUSTOM])
    assert first.type_value("uf-damage", "armor_points", "4") == "live:answer"
    page.evaluate("() => LiveBook.settled('uf-damage')")
    dist = uf.damage_distribution("2D6+1+½DB", 4, "+1D4")
    assert first.bar_labels("uf-damage") == [fmt.prob(p) for p in dist.probabilities().values()]
    assert "2D6+1+½DB" in first.visible_text("uf-damage")
    link = page.evaluate("() => LiveShare.linkFor('uf-damage')")
    assert "uf-damage.damage=" in link and "uf-damage.armor_points=4" in link
    second = OfflinePage(browser, site_url)
    try:
        second.page.goto(link, wait_until="load")
        second.page.evaluate("() => LiveShare.restored")
        second.page.wait_for_function("() => LiveBook.values('uf-damage') !== null")
        second.page.evaluate("() => LiveBook.settled('uf-damage')")
        assert second.bar_labels("uf-damage") == [fmt.prob(p) for p in dist.probabilities().values()]
        assert second.errors == [] and second.off_site == []
    finally:
        second.close()
    assert first.errors == [] and first.off_site == []
    first.close()
