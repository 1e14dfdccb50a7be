"""The built PF2e page in headless chromium: offline, every widget live, exact values."""
from __future__ import annotations

import html

from widgets import pf2e
from widgets.views import format as fmt

PAGE = "book/pf2e.html"
UIDS = ["pf-attack", "pf-bonus", "pf-ac", "pf-strikes", "pf-range", "pf-reach", "pf-spell"]




def test_page_loads_offline_with_every_widget_rendered(offline_page):
    offline_page.assert_page_live(PAGE, UIDS)


def test_range_distance_changes_the_exact_penalty(offline_page):
    offline_page.open(PAGE)
    for inc, dist in [(120, 120), (120, 130), (120, 250), (120, 720), (30, 100), (60, 360)]:
        offline_page.set_value("pf-range-increment", inc)
        offline_page.set_value("pf-range-distance", dist)
        shown = offline_page.visible_text("pf-range")
        assert f"사거리 페널티: {fmt.signed(pf2e.range_penalty(dist, inc))}" in shown, shown
    offline_page.set_value("pf-range-increment", 120)
    offline_page.set_value("pf-range-distance", 730)
    try:
        pf2e.range_penalty(730, 120)
    except pf2e.RuleInputError as err:
        message = err.korean
    assert message in offline_page.visible_text("pf-range")


def test_agile_switch_changes_the_strike_odds(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="pf-strikes"]')
    offline_page.set_value("pf-strikes-bonus", 14)
    offline_page.set_value("pf-strikes-ac", 22)

    def check(agile):
        shown = offline_page.visible_text("pf-strikes")
        expected = []
        for n, a in enumerate(agile, start=1):
            odds = pf2e.strike_odds(14, 22, attack_number=n, agile=a)
            assert fmt.signed(pf2e.multiple_attack_penalty(n, a)) in shown
            for p in odds.values():
                assert fmt.prob(p) in shown, (agile, shown)
            expected += [fmt.prob(odds[k]) for k in pf2e.DEGREES]
        assert offline_page.bar_labels("pf-strikes") == expected

    check((False, False, False))
    root.locator(".bk-Switch").nth(2).click()     # third Strike with the agile shortsword
    check((False, False, True))
    root.locator(".bk-Switch").nth(1).click()     # second too
    check((False, True, True))


def test_attack_ac_bonus_and_spell_widgets(offline_page):
    page = offline_page.open(PAGE)
    root = page.locator('[data-live="pf-attack"]')
    root.locator("select").nth(0).select_option(label="근접 기교 무기 (근력·민첩 중 높은 쪽)")
    offline_page.set_value("pf-attack-strength", 1)
    offline_page.set_value("pf-attack-dexterity", 4)
    root.locator("select").nth(1).select_option(label="전문")
    root.locator("select").nth(2).select_option(label="10레벨")
    total = pf2e.attack_bonus("melee", strength=1, dexterity=4, finesse=True,
                              proficiency=pf2e.proficiency_bonus("expert", 10))
    assert f"d20 {fmt.signed(total)}" in offline_page.visible_text("pf-attack")

    bonus = page.locator('[data-live="pf-bonus"]')
    bonus.locator("select").nth(0).select_option(label="+1과 +2 (조력 + 유리한 지형)")
    bonus.locator("select").nth(3).select_option(label="−5와 −2 (다중 공격 + 사거리)")
    page.evaluate("() => LiveBook.settled('pf-bonus')")
    net = pf2e.stack_modifiers([("circumstance", 1), ("circumstance", 2),
                                ("untyped", -5), ("untyped", -2)])
    assert f"합계: {fmt.signed(net)}" in offline_page.visible_text("pf-bonus")

    offline_page.set_value("pf-ac-dex", 4)
    offline_page.set_value("pf-ac-item", 5)
    page.locator('[data-live="pf-ac"] select').nth(0).select_option(label="+2")
    page.locator('[data-live="pf-ac"] .bk-Switch').click()
    ac = pf2e.armor_class(4, 2, pf2e.proficiency_bonus("trained", 1), item=5, off_guard=True)
    assert f"AC {ac}" in offline_page.visible_text("pf-ac")

    offline_page.set_value("pf-spell-ability", 5)
    offline_page.set_value("pf-spell-save", 12)
    dc = pf2e.spell_dc(5, pf2e.proficiency_bonus("trained", 1))
    shown = offline_page.visible_text("pf-spell")
    assert f"주문 DC {dc}" in shown
    odds = pf2e.save_odds(12, dc)
    assert all(html.unescape(fmt.prob(p)) in shown for p in odds.values())
    assert offline_page.bar_labels("pf-spell") == [fmt.prob(odds[k]) for k in pf2e.DEGREES]


def test_reach_widget_on_the_page(offline_page):
    page = offline_page.open(PAGE)
    offline_page.set_value("pf-reach-distance", 10)
    assert "한 걸음으로 충분합니다" in offline_page.visible_text("pf-reach")
    page.locator('[data-live="pf-reach"] select').nth(0).select_option(label="간격 무기 (간격 10ft)")
    assert "지금 자리에서 타격할 수 있습니다" in offline_page.visible_text("pf-reach")
    page.locator('[data-live="pf-reach"] select').nth(0).select_option(label="근접 무기 (간격 5ft)")
    offline_page.set_value("pf-reach-distance", 25)
    plan = pf2e.approach_options(25, 5, 10)
    assert f"{sum(1 for *_, h in plan['stride'] if h)}개" in offline_page.visible_text("pf-reach")
