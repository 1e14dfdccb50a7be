"""The built site as a GM reads it on a 390×844 touch phone and on a desktop: a widget whose
question is "does it hit / succeed?" opens its answer with that total (exact fraction and
percent) above the breakdown, and keeps it first after the reader changes a value; the PF2e
Strikes chart keeps each Strike's four bars under that Strike's own label.
"""
from __future__ import annotations

import pytest

from widgets import hunters_moon as hm, pf2e, trench_crusade as tc, underface as uf
from widgets.views import format as fmt

from conftest import OfflinePage

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
DESKTOP = dict(viewport={"width": 1280, "height": 900})

#: The first lines a reader sees in a widget's answer, and whether its first one is in view.
FIRST_LINES_JS = """(out) => {
  const first = out.querySelector(':scope > *');
  const r = first.getBoundingClientRect();
  return {lines: out.innerText.split('\\n').map(s => s.trim()).filter(Boolean).slice(0, 5),
          total: first.matches('p.answer-total'), left: r.left, right: r.right, bold: getComputedStyle(first.querySelector('b')).fontWeight};
}"""


@pytest.fixture(params=["phone", "desktop"])
def reader(request, browser, site_url):
    page = OfflinePage(browser, site_url, **(PHONE if request.param == "phone" else DESKTOP))
    page.touch = request.param == "phone"
    yield page
    assert page.errors == [] and page.off_site == []
    page.close()


def first_lines(reader, uid: str) -> list[str]:
    reader.settle(uid)
    out = reader.page.locator(f'[data-live="{uid}"] .live-out .bk-clearfix')   # (inside Bokeh's shadow DOM)
    out.scroll_into_view_if_needed()
    got = out.evaluate(FIRST_LINES_JS)
    width = reader.page.viewport_size["width"]
    assert got["total"], got["lines"]                       # the total line opens the answer
    assert 0 <= got["left"] and got["right"] <= width, got   # on screen, not beside it
    assert int(got["bold"]) >= 600
    return got["lines"]


def test_underface_hit_total_first(reader):
    reader.open("book/underface.html")
    assert first_lines(reader, "uf-hit")[0] == f"명중 (스페셜 포함): {fmt.readable(uf.hit_chance(uf.opposed_odds(60, 60)))}"
    reader.type_value("uf-hit", "attack", "75")
    reader.type_value("uf-hit", "defense", "45")
    odds = uf.opposed_odds(75, 45)
    lines = first_lines(reader, "uf-hit")
    assert lines[0] == f"명중 (스페셜 포함): {fmt.readable(uf.hit_chance(odds))}"
    assert any(fmt.prob(odds["attacker_wins_special"]) in line for line in lines[1:] + [reader.visible_text("uf-hit")])
    shot = uf.hit_chance(uf.ranged_hit_odds("롱보우", 125, 60, 60, "shield"))
    assert first_lines(reader, "uf-range")[0] == f"명중 (스페셜 포함): {fmt.readable(shot)}"


def test_pf2e_hit_total_first_for_each_strike(reader):
    reader.open("book/pf2e.html")
    reader.type_value("pf-strikes", "bonus", "13")
    reader.type_value("pf-strikes", "ac", "21")
    want = ["명중 (대성공 포함)"] + [
        f"{n}격 {fmt.readable(pf2e.success_or_better(pf2e.strike_odds(13, 21, attack_number=n)))}" for n in (1, 2, 3)]
    assert first_lines(reader, "pf-strikes")[:4] == want
    switch = reader.page.locator('[data-live="pf-strikes"] .bk-Switch').nth(1)   # 2nd Strike agile
    switch.tap() if reader.touch else switch.click()
    reader.settle("pf-strikes")
    second = pf2e.success_or_better(pf2e.strike_odds(13, 21, attack_number=2, agile=True))
    assert first_lines(reader, "pf-strikes")[2] == f"2격 {fmt.readable(second)}"


def test_trench_crusade_success_or_better_first(reader):
    reader.open("book/trench_crusade.html")
    reader.type_value("tc-success", "dice", "2")
    reader.type_value("tc-success", "modifier", "-1")
    p = tc.success_or_better(tc.success_odds(2, -1))
    assert first_lines(reader, "tc-success")[0] == f"성공 이상 (성공·대성공): {fmt.readable(p)}"
    hit = tc.success_or_better(tc.success_odds(0, 0))
    assert first_lines(reader, "tc-attack")[0] == f"명중 (성공 굴림이 성공·대성공): {fmt.readable(hit)}"


def test_hunters_moon_totals_first(reader):
    reader.open("book/hunters_moon.html")
    reader.type_value("hm-check", "modifier", "3")
    reader.type_value("hm-check", "target", "11")
    assert first_lines(reader, "hm-check")[0] == f"성공 (스페셜 포함): {fmt.readable(hm.success_chance(hm.check_odds(3, 11)))}"
    odds = hm.destroy_odds(2, 9, 3, 3, 6)
    assert first_lines(reader, "hm-destroy")[:3] == [
        "공격 한 번", f"명중 (스페셜 포함) {fmt.readable(odds.hit)}", f"격파 {fmt.readable(odds.destroy)}"]
    lands = hm.failure_chance(hm.defence_odds(2, 9))
    assert first_lines(reader, "hm-status-defence")[0] == f"맞을 확률 (방어판정 실패·펌블): {fmt.readable(lands)}"


#: The Strikes plot as drawn: each bar's x, the axis's named ticks, the grid lines' positions.
PLOT_JS = """() => {
  const doc = Bokeh.documents.find(d => d.get_model_by_name('pf-strikes-bar-plot'));
  const plot = doc.get_model_by_name('pf-strikes-bar-plot');
  const bars = doc.get_model_by_name('pf-strikes-bars');
  const axis = plot.below[0];
  const grid = plot.center.find(r => r.dimension === 0);
  const names = {};
  for (const [k, v] of (axis.major_label_overrides instanceof Map ? axis.major_label_overrides : Object.entries(axis.major_label_overrides))) names[k] = v;
  return {x: Array.from(bars.data.x), t: Array.from(bars.data.t), ticks: Array.from(axis.ticker.ticks),
          names, grid: Array.from(grid.ticker.ticks)};
}"""


def test_pf2e_chart_groups_each_strikes_bars_under_its_label(reader):
    reader.open("book/pf2e.html")
    for step in ("first", "agile"):
        if step == "agile":                                        # 3rd Strike with an agile weapon
            switch = reader.page.locator('[data-live="pf-strikes"] .bk-Switch').nth(2)
            switch.tap() if reader.touch else switch.click()
        reader.settle("pf-strikes")
        got = reader.page.evaluate(PLOT_JS)
        groups = [got["x"][4 * n:4 * n + 4] for n in range(3)]
        assert [got["names"][str(t) if str(t) in got["names"] else str(float(t))] for t in got["ticks"]] == ["1격", "2격", "3격"]
        for tick, xs in zip(got["ticks"], groups):
            assert min(xs) < tick < max(xs)                       # the label under its own four bars
        for line in got["grid"]:                                   # grid lines only between groups
            assert not any(min(xs) - 0.4 < line < max(xs) + 0.4 for xs in groups), (line, groups)
        assert len(got["grid"]) == 2
        agile = (False, False, step == "agile")
        want = [fmt.prob(pf2e.strike_odds(10, 18, attack_number=n, agile=a)[k])
                for n, a in enumerate(agile, start=1) for k in pf2e.DEGREES]
        assert got["t"] == want
