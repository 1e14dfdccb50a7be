"""Time a control change on the built static site in headless chromium.

For each widget below, sets a Bokeh control to a new value 120 times (as user input does) and
measures inside the page:
- work: the synchronous time of the change (CustomJS lookup, model updates, BokehJS re-render);
- frame: the time until the next animation frame after the change, i.e. when the browser paints
  the new value. Changes start right after a frame, so about 16.7 ms here means "shown in the very
  next frame"; a value near 33 ms would mean a frame was missed.
Prints median and p95 (ms) of both. Target: work well under 16 ms, frame ≈ one frame.

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
from conftest import CHROMIUM, CHROMIUM_ARGS, SITE  # noqa: E402

# (page, control model name, values to cycle through)
CASES = [
    ("book/trench_crusade.html", "tc-success-dice", list(range(-10, 11))),
    ("book/trench_crusade.html", "tc-ranged-distance", list(range(1, 37))),
    ("book/trench_crusade.html", "tc-injury-bloodbath", [True, False]),
]
CHANGES = 120

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


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _median(xs):
    return statistics.median(xs)


def _p95(xs):
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


def main() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        print(f"{'control':30} {'work median':>12} {'work p95':>9} {'frame median':>13} "
              f"{'frame p95':>10}  (ms, n={CHANGES})")
        for path, name, values in CASES:
            page.goto(f"{base}/{path}")
            page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
            work, frame = page.evaluate(MEASURE_JS, [name, values, CHANGES])
            print(f"{name:30} {_median(work):12.2f} {_p95(work):9.2f} {_median(frame):13.2f} "
                  f"{_p95(frame):10.2f}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
