"""Time a control change on the built static site in headless chromium.

For each widget below, sets a Bokeh control to a new value 120 times (as user input does) and
measures inside the page:
- work: the synchronous time of the change (CustomJS lookup, model updates, BokehJS re-render);
- frame: the time until the next animation frame after the change, i.e. when the browser paints
  the new value. Changes start right after a frame, so about 16.7 ms here means "shown in the very
  next frame"; a value near 33 ms would mean a frame was missed.
Prints median and p95 (ms) of both. Target: work well under 16 ms, frame ≈ one frame.

Grid case (BFRPG movement-cost explorer): loads the 30×30 preset, then makes 120 real mouse
clicks on the squares of its DOM grid (alternately placing and erasing an enemy), each a full
recompute with the JS twins (three cost maps + classification + in-place DOM update). Prints median and p95 of
- recompute: the time inside the page's recompute (``window.__bfGridTimes``);
- click→paint: the browser's own Event Timing entries for each click (pointer event start to the
  next paint after its handlers; the longest entry of the interaction, the same measure as
  Interaction to Next Paint). Chromium only
  reports entries of 16 ms or more, so a click with no entry was painted within one frame; the
  line says how many clicks were reported and their median, and how many took more than 16 ms.
  Event Timing durations are rounded to 8 ms: an entry of 16 ms is a click painted in 12–20 ms
  (about one frame); over 16 ms (24, 32, ...) means at least one frame was missed.

    python3 scripts/dev.py bench
"""
from __future__ import annotations

import functools
import http.server
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CHROMIUM, CHROMIUM_ARGS, SITE, SiteHandler  # noqa: E402

# (page, control model name, values to cycle through): values the page's table holds
# (scripts/bench_engine.py times values beyond it, answered by the in-page engine)
CASES = [
    ("book/trench_crusade.html", "tc-success-dice", list(range(-6, 7))),
    ("book/trench_crusade.html", "tc-injury-bloodbath", [True, False]),
]
CHANGES = 120
# (page, explorer uid, scene preset) for the grid case
GRID_CASES = [("book/bfrpg.html", "bf-grid", "demo"), ("book/bfrpg.html", "bf-grid", "open30")]

MEASURE_JS = """
async ([name, values, n]) => {
  const find = (nm) => Bokeh.documents.map(d => d.get_model_by_name(nm)).find(Boolean);
  const model = find(name);
  const attr = typeof model.active === "boolean" ? "active" : "value";
  const work = [], frame = [];
  for (let i = 0; i < n; i++) {
    const v = values[i % values.length];
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = performance.now();
    model[attr] = v;
    work.push(performance.now() - t0);
    const painted = await new Promise(r => requestAnimationFrame(r));
    frame.push(painted - t0);
  }
  return [work, frame];
}
"""


class _Quiet(SiteHandler):
    def log_message(self, *args):
        pass


def _median(xs):
    return statistics.median(xs)


def _p95(xs):
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


def serve_site():
    """The built site on a free local port, served in a background thread: (server, base URL)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def main() -> None:
    server, base = serve_site()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        print(f"{'control':30} {'work median':>12} {'work p95':>9} {'frame median':>13} "
              f"{'frame p95':>10}  (ms, n={CHANGES})")
        for path, name, values in CASES:
            if not (SITE / path).exists():  # a partial build (private --toc) lacks the page
                print(f"{name:30} skipped: {path} is not in {SITE}")
                continue
            page.goto(f"{base}/{path}")
            page.evaluate("() => LiveBook.embedAll()")
            work, frame = page.evaluate(MEASURE_JS, [name, values, CHANGES])
            print(f"{name:30} {_median(work):12.2f} {_p95(work):9.2f} {_median(frame):13.2f} "
                  f"{_p95(frame):10.2f}")
        for path, uid, scene in GRID_CASES:
            if not (SITE / path).exists():
                print(f"{uid:30} skipped: {path} is not in {SITE}")
                continue
            page.goto(f"{base}/{path}")
            page.evaluate("() => LiveBook.embedAll()")
            recompute, slow = bench_grid(page, uid, scene)
            print(f"{uid + ' ' + scene + ' recompute':30} {_median(recompute):12.2f} "
                  f"{_p95(recompute):9.2f}")
            missed = [d for d in slow if d > 16]
            print(f"{uid + ' ' + scene + ' click→paint':30} {len(slow)} of {CHANGES} clicks reported "
                  f"at 16 ms or more" + (f" (median of those {_median(slow):.1f} ms)" if slow else "")
                  + f"; {len(missed)} over 16 ms (a missed frame)")
        browser.close()
    server.shutdown()


def bench_grid(page, uid: str, scene: str) -> tuple[list[float], list[float]]:
    """Real clicks on the explorer's DOM squares, each followed by a full recompute.

    Returns the in-page recompute times and the click→paint durations over 16 ms."""
    find = "(n) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean)"
    page.wait_for_function("(u) => window.__bfGrid && window.__bfGrid[u]", arg=uid)
    page.evaluate(f"([n, v]) => {{ ({find})(n).value = v; }}", [f"{uid}-scene", scene])
    page.wait_for_timeout(300)  # a CustomJS compiles (asynchronously) on its first call
    w, h = page.evaluate(f"(n) => ({find})(n).tags", f"{uid}-cells")
    codes = page.evaluate(f"(n) => Array.from(({find})(n).data.k)", f"{uid}-cells")
    if len(codes) != w * h or page.locator(f'[data-live="{uid}"] .bfg [data-i]').count() != w * h:
        raise SystemExit(f"scene {scene} not loaded")
    grid = page.locator(f'[data-live="{uid}"] .bfg').first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    first = page.locator(f'[data-live="{uid}"] .bfg [data-i="0"]').bounding_box()
    step = (box["width"] - first["width"]) / (w - 1) if w > 1 else first["width"]
    free = [i for i, ch in enumerate(codes) if ch == "."][:CHANGES]
    page.evaluate("""() => {
      window.__bfGridTimes = [];
      // One click is one interaction (pointerdown, pointerup, click share an interactionId):
      // keep the longest of its entries.
      const worst = (window.__slowById = new Map());
      new PerformanceObserver(list => {
        for (const e of list.getEntries())
          if (e.interactionId && ["pointerdown", "pointerup", "mousedown", "mouseup", "click"].includes(e.name))
            worst.set(e.interactionId, Math.max(worst.get(e.interactionId) || 0, e.duration));
      }).observe({type: "event", durationThreshold: 16, buffered: false});
    }""")
    for n in range(CHANGES):
        i = free[(n // 2) % len(free)]
        tool = "enemy" if n % 2 == 0 else "erase"
        page.evaluate(f"([n, v]) => {{ ({find})(n).value = v; }}", [f"{uid}-tool", tool])
        # let the Select's own re-render paint first: the click is measured, not the tool change
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 20)))")
        page.mouse.click(first["x"] + (i % w) * step + first["width"] / 2,
                         first["y"] + (i // w) * step + first["height"] / 2)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
    times = page.evaluate("() => window.__bfGridTimes")
    page.wait_for_timeout(200)  # let the last entries reach the observer
    slow = page.evaluate("() => Array.from(window.__slowById.values())")
    if len(times) != CHANGES:
        raise SystemExit(f"expected {CHANGES} recomputes, got {len(times)}")
    return times, slow


if __name__ == "__main__":
    main()
