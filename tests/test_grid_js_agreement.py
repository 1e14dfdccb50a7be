"""The JavaScript cost map and flight search (widgets/js/grid_cost.js) against the Python core,
in headless Debian chromium: same costs, same predecessors, same opponents left, and fast
enough for live dragging."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from widgets.grid import cost_map, flight_map
from widgets.limits import MAX_FLIGHT_WORK
from widget_checks import random_floor

ROOT = Path(__file__).resolve().parent.parent
JS = (ROOT / "widgets" / "js" / "grid_cost.js").read_text(encoding="utf-8")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# Arrays come back as comma-joined text: playwright serialises big number arrays slowly.
RUN = """(cases) => cases.map((c) => {
  const r = GridCost.costMap(c);
  const last = c.width * c.height - 1;
  return {cost: r.cost.join(), pred: r.pred.join(), stateCost: r.stateCost.join(),
          statePred: r.statePred.join(), path: GridCost.pathTo(r, last).join()};
})"""


def joined(values) -> str:
    return ",".join(str(v) for v in values)


@pytest.fixture(scope="module")
def page(browser):
    """A blank page in the session's chromium (conftest) with the JS twin loaded."""
    pg = browser.new_page()
    pg.set_content("<html><body></body></html>")
    pg.add_script_tag(content=JS)
    yield pg
    pg.close()


def random_case(rng: random.Random, w: int, h: int):
    t, start = random_floor(rng, w, h, walls=0.3, enemies=(0, 0.1), difficult=0.2,
                            engaged_start=False)
    doubles, may_leave = rng.random() < 0.5, rng.random() < 0.6
    m = cost_map(t, start, 30, engaged_doubles=doubles, may_leave_engagement=may_leave)
    case = dict(t.to_js(), start=t.index(start), engagedDoubles=doubles,
                mayLeaveEngagement=may_leave)
    return m, case


def test_js_agrees_with_python_on_random_grids(page):
    rng = random.Random(20240601)
    maps, cases = [], []
    for i in range(240):
        low, high = (1, 3) if i < 20 else (4, 30)  # a few degenerate strips first
        m, case = random_case(rng, rng.randint(low, high), rng.randint(low, high))
        maps.append(m)
        cases.append(case)
    results = page.evaluate(RUN, cases)
    for m, r in zip(maps, results):
        t = m.terrain
        assert r["cost"] == joined(m.costs())
        assert r["stateCost"] == joined(m.state_cost)
        assert r["statePred"] == joined(m.state_pred)
        prev = [m.previous(t.square(i)) for i in range(t.width * t.height)]
        assert r["pred"] == joined(-1 if p is None else t.index(p) for p in prev)
        assert r["path"] == joined(t.index(s) for s in m.path_to(t.square(t.width * t.height - 1)))


def test_js_handles_the_largest_grid(page):
    m, case = random_case(random.Random(3), 60, 60)
    r = page.evaluate(RUN, [case])[0]
    assert r["cost"] == joined(m.costs()) and r["statePred"] == joined(m.state_pred)


FLIGHT = """(cases) => cases.map((c) => {
  const r = GridCost.flightMap(c);
  const last = c.width * c.height - 1;
  return {cost: r.cost.join(), best: r.best.join(), foes: r.foes.map((f) => f.join(" ")).join(),
          labelCost: r.labelCost.join(), labelState: r.labelState.join(),
          labelPred: r.labelPred.join(), path: GridCost.flightPath(r, last).join()};
})"""


def flight_case(rng: random.Random, w: int, h: int):
    """A grid crowded with enemies (flights past several of them), often starting engaged."""
    t, start = random_floor(rng, w, h, walls=0.2, enemies=(0.05, 0.25))
    doubles, rate = rng.random() < 0.5, rng.choice([10, 20, 30, 40])
    m = flight_map(t, start, rate, engaged_doubles=doubles)
    case = dict(t.to_js(), start=t.index(start), rate=rate, engagedDoubles=doubles,
                maxWork=MAX_FLIGHT_WORK)
    return m, case


def test_js_flight_map_agrees_with_python(page):
    rng = random.Random(1717)
    pairs = [flight_case(rng, rng.randint(2, 16), rng.randint(2, 16)) for _ in range(120)]
    results = page.evaluate(FLIGHT, [case for _, case in pairs])
    for (m, _), r in zip(pairs, results):
        t = m.terrain
        squares = [t.square(i) for i in range(t.width * t.height)]
        assert r["cost"] == joined(-1 if m.feet(s) is None else m.feet(s) for s in squares)
        assert r["best"] == joined(m.best)
        assert r["foes"] == ",".join(" ".join(str(t.index(e)) for e in m.foes(s)) for s in squares)
        assert r["labelCost"] == joined(m.label_cost)
        assert r["labelState"] == joined(m.label_state)
        assert r["labelPred"] == joined(m.label_pred)
        assert r["path"] == joined(t.index(s) for s in m.path_to(squares[-1]))


def test_js_flight_map_refuses_past_the_label_limit(page):
    m, case = flight_case(random.Random(5), 12, 12)
    case["maxWork"] = 3
    assert page.evaluate("(c) => { try { GridCost.flightMap(c); return 'none'; } "
                         "catch (e) { return e.tooMany ? 'refused' : String(e); } }", case) == "refused"
