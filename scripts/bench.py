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

First visit (run first): for each chapter, a fresh phone browser (390×844, touch, service
workers on) opens the chapter and is left alone until the network has been quiet for a few
seconds; a server that logs every request it answers (the page's, the offline cache's and the
engine's) gives
- bytes as a plain server sends them (raw) and gzip-compressed (what a compressing server such
  as GitHub Pages would send, level 6), for the page itself and for the offline cache's
  background requests (referrer ``sw.js``), with the number of files;
- duplicates: a file (address without its query) fetched more than once;
- whether any file of the in-page engine (``_static/pyodide/``, ``_static/engine/``) was fetched;
- first off-table answer: the reader taps a number box, types a value no table holds and
  presses Enter; time until the answer is shown (engine download and boot included).
Budget: at most 2.5 MB raw for the page, no duplicate, no engine file.

    python3 scripts/dev.py bench                 # everything
    python3 scripts/dev.py bench --first-visit   # first visits only
    python3 scripts/dev.py bench --site DIR      # another build
    python3 scripts/dev.py bench --first-visit --site OLD --site _build/html   # two side by side
"""
from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

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
CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]   # first visits
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


def serve_site(site: Path = SITE):
    """The built site on a free local port, served in a background thread: (server, base URL)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@dataclass(frozen=True)
class Hit:
    """One request the logging server answered."""
    path: str            # as requested, with its query, e.g. /rulebook/_static/live.js?v=1
    status: int
    bytes: int           # body bytes sent (a plain server sends files uncompressed)
    gzip: int            # the same body gzip-compressed (level 6): what a compressing server sends
    by_worker: bool      # asked by the service worker (its referrer is sw.js)
    save_data: bool      # the request carried ``Save-Data: on``

    @property
    def file(self) -> str:
        return urlparse(self.path).path


class LoggedSite:
    """A built site served under ``prefix`` on a free local port by a server that logs every
    request it answers (``log``: list of :class:`Hit`), including those of the service worker
    and of Web Workers, which page-level request events do not all see. Anything outside the
    prefix is answered 404."""

    def __init__(self, site: Path = SITE, prefix: str = "/"):
        self.site, self.prefix = Path(site), prefix
        self.log: list[Hit] = []
        self._gz: dict[str, int] = {}
        owner = self

        class Handler(_Quiet):
            def __init__(self, *a, **kw):
                super().__init__(*a, directory=str(owner.site), **kw)

            def send_response(self, code, message=None):
                self._status = int(code)
                super().send_response(code, message)

            def translate_path(self, path):
                return super().translate_path("/" + path[len(owner.prefix):])

            def do_GET(self):
                self._status = 0
                if not self.path.startswith(owner.prefix):
                    self.send_error(404)
                    f = None
                else:
                    f = self.send_head()
                size = 0
                if f is not None:
                    try:
                        size = os.fstat(f.fileno()).st_size
                        self.copyfile(f, self.wfile)
                    finally:
                        f.close()
                local = self.translate_path(urlparse(self.path).path) if size else ""
                owner.log.append(Hit(
                    self.path, self._status, size, owner._gzip(local) if size else 0,
                    (self.headers.get("Referer") or "").split("?")[0].endswith("/sw.js"),
                    self.headers.get("Save-Data", "").lower() == "on"))

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass                     # a page left mid-download: the browser hung up

        self.httpd = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}{prefix}"

    def _gzip(self, local: str) -> int:
        if local not in self._gz:
            self._gz[local] = len(gzip.compress(Path(unquote(local)).read_bytes(), 6))
        return self._gz[local]

    def bad(self) -> list[Hit]:
        return [h for h in self.log if h.status >= 400]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


ENGINE_DIRS = ("_static/pyodide/", "_static/engine/")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


@dataclass
class FirstVisit:
    """What one first visit fetched (see the module's docstring)."""
    hits: list[Hit]
    prefix: str
    errors: list[str]    # the page's uncaught errors

    def part(self, by_worker: bool | None = None) -> list[Hit]:
        return [h for h in self.hits if by_worker is None or h.by_worker == by_worker]

    def raw(self, by_worker: bool | None = None) -> int:
        return sum(h.bytes for h in self.part(by_worker))

    def gzip(self, by_worker: bool | None = None) -> int:
        return sum(h.gzip for h in self.part(by_worker))

    def duplicates(self) -> list[str]:
        seen: dict[str, int] = {}
        for h in self.hits:
            seen[h.file] = seen.get(h.file, 0) + 1
        return sorted(f for f, n in seen.items() if n > 1)

    def engine(self) -> list[str]:
        return sorted({h.file for h in self.hits if h.file[len(self.prefix):].startswith(ENGINE_DIRS)})


def wait_quiet(site: LoggedSite, page, quiet_s: float = 3.0, limit_s: float = 180.0) -> None:
    """Wait until the page has loaded and the server has had no request for ``quiet_s``."""
    page.wait_for_load_state("load")
    end = time.monotonic() + limit_s
    count, since = len(site.log), time.monotonic()
    while time.monotonic() < end:
        page.wait_for_timeout(250)
        if len(site.log) != count:
            count, since = len(site.log), time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return
    raise TimeoutError("the network never went quiet")


def first_visit(browser, site: LoggedSite, rel: str, *, save_data: bool = False, quiet_s: float = 3.0,
                context_options: dict | None = None):
    """Open ``rel`` in a fresh phone context and leave it alone until the network is quiet.
    Returns (FirstVisit, context, page); the caller closes the context."""
    options = {**PHONE, **(context_options or {})}
    if save_data:
        options["extra_http_headers"] = {"Save-Data": "on"}
    context = browser.new_context(**options)
    if save_data:
        context.add_init_script("Object.defineProperty(navigator, 'connection', "
                                "{value: {saveData: true, effectiveType: '4g'}, configurable: true});")
    start = len(site.log)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(site.url + rel, wait_until="load")
    wait_quiet(site, page, quiet_s)
    if not save_data:
        # a busy machine can pause the offline cache's work longer than quiet_s: wait until it
        # says it holds every page and what pages load (builds whose cache cannot say: skip)
        end = time.monotonic() + 120
        while not page.evaluate(SAVED_JS) and time.monotonic() < end:
            page.wait_for_timeout(250)
        wait_quiet(site, page, quiet_s)
    return FirstVisit(site.log[start:], site.prefix, errors), context, page


SAVED_JS = """() => !window.LiveOffline || !LiveOffline.status ||
  LiveOffline.status().then(s => !s || ["a", "p"].every(g => !s[g] || s[g][0] === s[g][1]))"""

OFF_TABLE_JS = """
() => {
  // the first widget with a number box (index among its boxes, control name)
  for (const el of document.querySelectorAll(".live-widget[data-live]")) {
    const data = el.querySelector("script.live-data");
    if (!data) continue;
    const d = JSON.parse(data.textContent);
    const i = d.kinds.indexOf("number");
    if (i < 0) continue;
    return {uid: d.uid, name: d.names[i], index: d.names.filter((n, j) => d.kinds[j] === "number").indexOf(d.names[i])};
  }
  return null;
}
"""

# a value beyond the slider that the widget's table does not hold (its key as live.js builds it)
OFF_VALUE_JS = """
([uid, name]) => {
  const el = document.querySelector(`.live-widget[data-live="${uid}"] script.live-data`);
  const d = JSON.parse(el.textContent), vals = LiveBook.values(uid);
  const slider = Bokeh.documents.map(doc => doc.get_model_by_name(uid + "-" + name)).find(Boolean);
  for (let v = Math.floor(slider.end) + 1; v < slider.end + 1000; v++) {
    const key = d.names.map((n, i) => d.kinds[i] === "number" ? String(Number(n === name ? v : vals[n]))
                                                             : String(vals[n])).join("|");
    if (!(key in d.keys)) return String(v);
  }
  return null;
}
"""


def off_table_answer_ms(page) -> tuple[float, str]:
    """A reader taps the first number box, types a value no table holds, presses Enter: ms from
    the tap until the answer is shown, and where the answer came from ("engine" expected)."""
    target = page.evaluate(OFF_TABLE_JS)
    if target is None:
        return float("nan"), "no number box"
    uid, name = target["uid"], target["name"]
    page.locator(f'[data-live="{uid}"]').scroll_into_view_if_needed()   # scrolling there embeds it
    page.wait_for_function("(uid) => LiveBook.values(uid) !== null", arg=uid, timeout=60000)
    value = page.evaluate(OFF_VALUE_JS, [uid, name])
    # (each keystroke may answer a shorter value from the table first: wait for the typed one)
    page.evaluate("""([uid, name, value]) => {
                     const el = document.querySelector(`.live-widget[data-live="${uid}"]`);
                     window.__answerSource = null;
                     const seen = (source) => (e) => {
                       if (e.detail.values && e.detail.values[name] === value) window.__answerSource = source || e.detail.source;
                     };
                     el.addEventListener("live:answer", seen(null));
                     el.addEventListener("live:error", seen("error")); }""", [uid, name, value])
    box = page.locator(f'[data-live="{uid}"] .live-box input').nth(target["index"])
    box.scroll_into_view_if_needed()
    t0 = time.monotonic()
    box.tap()
    box.press("Control+a")
    box.press_sequentially(value, delay=5)
    box.press("Enter")
    page.wait_for_function("() => window.__answerSource !== null", timeout=120000)
    ms = (time.monotonic() - t0) * 1000
    return ms, page.evaluate("() => window.__answerSource")


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f}"


def bench_first_visits(browser, site_dirs: list[Path]) -> None:
    """The first-visit table; with several builds, each chapter is measured on each build in
    turn, so the figures share the machine's conditions (it is shared and noisy)."""
    sites = [LoggedSite(d) for d in site_dirs]
    print("first visit on a phone (no interaction; MB as a plain server sends / gzip); "
          "page: what the page fetched, cache: what the offline cache fetched in the background")
    for i, d in enumerate(site_dirs):
        print(f"  build {i + 1}: {d}")
    print(f"{'chapter':16} {'build':>5} {'page MB':>8} {'gzip':>6} {'files':>5} {'cache MB':>9} {'gzip':>6} "
          f"{'files':>5} {'total MB':>9} {'gzip':>6} {'dup':>4} {'engine':>6} {'off-table ms':>13}")
    try:
        for chapter in CHAPTERS:
            rel = f"book/{chapter}.html"
            for i, site in enumerate(sites):
                if not (site.site / rel).exists():
                    print(f"{chapter:16} {i + 1:>5} skipped: not in this build")
                    continue
                visit, context, page = first_visit(browser, site, rel)
                try:
                    ms, source = off_table_answer_ms(page)
                finally:
                    context.close()
                note = "" if source == "engine" else f" ({source})"
                print(f"{chapter:16} {i + 1:>5} {_mb(visit.raw(False)):>8} {_mb(visit.gzip(False)):>6} "
                      f"{len(visit.part(False)):>5} {_mb(visit.raw(True)):>9} {_mb(visit.gzip(True)):>6} "
                      f"{len(visit.part(True)):>5} {_mb(visit.raw()):>9} {_mb(visit.gzip()):>6} "
                      f"{len(visit.duplicates()):>4} {'yes' if visit.engine() else 'no':>6} {ms:13.0f}{note}")
    finally:
        for site in sites:
            site.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", type=Path, action="append",
                        help="a built site to measure (default _build/html); give it twice to compare "
                             "two builds' first visits side by side")
    parser.add_argument("--first-visit", action="store_true", help="only the first-visit figures")
    args = parser.parse_args()
    sites = args.site or [SITE]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        bench_first_visits(browser, sites)
        browser.close()
    if args.first_visit:
        return
    bench_controls(sites[-1])


def bench_controls(site_dir: Path) -> None:
    server, base = serve_site(site_dir)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        print(f"{'control':30} {'work median':>12} {'work p95':>9} {'frame median':>13} "
              f"{'frame p95':>10}  (ms, n={CHANGES})")
        for path, name, values in CASES:
            if not (site_dir / path).exists():  # a partial build (private --toc) lacks the page
                print(f"{name:30} skipped: {path} is not in {site_dir}")
                continue
            page.goto(f"{base}/{path}")
            page.evaluate("() => LiveBook.embedAll()")
            work, frame = page.evaluate(MEASURE_JS, [name, values, CHANGES])
            print(f"{name:30} {_median(work):12.2f} {_p95(work):9.2f} {_median(frame):13.2f} "
                  f"{_p95(frame):10.2f}")
        for path, uid, scene in GRID_CASES:
            if not (site_dir / path).exists():
                print(f"{uid:30} skipped: {path} is not in {site_dir}")
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
