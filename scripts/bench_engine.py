"""Time the built site's pages and its in-page engine in headless chromium (run by `dev.py bench`).

Prints, from one run side by side (this machine is shared and noisy, so compare ratios; with
several ``--site`` builds every measurement alternates between them):
- HTML bytes of every page (raw and gzip-compressed as a host sends it);
- page tables: the share of a reader's two-control moves each page answers before any engine
  (``LiveWidget.two_control_moves``; mean over the widgets, and over all moves);
- page load: median of 7 loads (navigation start → load event end, warm cache) of every chapter
  and of a plain page of the same site (the glossary), and their ratio (target ≤ 1.25);
- table answers: a number control moved over values in the page's table (work and next-frame
  time, median and p95; target: within one frame);
- engine boot: worker start → library imported, median of 3 fresh browser profiles (warm HTTP
  cache), and how it started;
- a second chapter: a reader used the engine on one chapter, opens another, taps a number box,
  types a value no table holds and presses Enter: ms from the Enter to the answer shown, with
  the browser's SharedWorker (one engine for the visit) and without it (a worker per page, which
  restores the engine's memory snapshot); target 300 ms;
- off-table answers after boot: 60 changes to values no table holds, time from the change to the
  answer shown (median and p95; target p95 under 50 ms);
- on a 4G-like link (../shared/tools/slow_server.py: 9 Mbit/s shared, 150 ms a response, gzip):
  the engine's bytes as sent (gzip) and, on a phone with a fresh profile, seconds from the first
  keystroke of a value no table holds to its answer shown (cold), then the same in the same
  profile after a reload (warm: HTTP cache and the engine's memory snapshot); targets ≤ 4.5 MB
  and ≤ 6 s cold (issue 32). ``--link-only`` prints only this part; ``--timeline`` adds, for the
  first cold run of each build, where the seconds went: every request of the page, the engine's
  worker and the service worker (start → end, bytes as sent) and the engine's boot steps (wasm
  compiled, Python started, library imported, first answer), from the first keystroke.

    python3 scripts/dev.py bench
    .venv/bin/python scripts/bench_engine.py --site OLD --site _build/html   # two builds
"""
from __future__ import annotations

import argparse
import gzip
import itertools
import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
from bench import _median, _p95, serve_site  # noqa: E402  (the site-timing helpers bench.py uses)
from conftest import CHROMIUM, CHROMIUM_ARGS, SITE, page_widgets  # noqa: E402

CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]
# ../shared/tools/slow_server.py beside the checkout (or beside the folder of worktrees)
SLOW = next((d / "shared" / "tools" / "slow_server.py" for d in (ROOT.parent, ROOT.parent.parent)
             if (d / "shared" / "tools" / "slow_server.py").exists()), ROOT.parent / "shared" / "tools" / "slow_server.py")
# on the slow link: a reader types these values no table holds into this box (cold, then warm)
LINK_CASE = ("pf2e", "pf-strikes", "bonus", ("37", "38"))
PLAIN = "book/glossary.html"
LOADS = 7
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
             device_scale_factor=3)
# (chapter, widget uid, number control, off-table values typed by a reader)
ENGINE_CASES = [("pf2e", "pf-strikes", "bonus", [str(v) for v in range(31, 61)]),
                ("trench_crusade", "tc-success", "dice", [str(v) for v in range(11, 41)])]
# a reader who used the engine on the first chapter opens the second and types into this box
SECOND = ("pf2e", "trench_crusade", "tc-success", "dice", "14")
NO_SHARED = "delete window.SharedWorker;"

TABLE_JS = """
async ([uid, name, values, n]) => {
  await LiveBook.embedAll();
  const slider = Bokeh.documents.map(d => d.get_model_by_name(uid + "-" + name)).find(Boolean);
  const work = [], frame = [];
  for (let i = 0; i < n; i++) {
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = performance.now();
    slider.value = values[i % values.length];
    work.push(performance.now() - t0);
    const painted = await new Promise(r => requestAnimationFrame(r));
    frame.push(painted - t0);
  }
  return [work, frame];
}
"""

ENGINE_JS = """
async ([uid, name, values]) => {
  const times = [];
  for (const v of values) {
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = performance.now();
    const kind = await LiveBook.set(uid, {[name]: v});
    await new Promise(r => requestAnimationFrame(r));
    if (kind !== "live:answer") throw new Error("no answer for " + v);
    times.push(performance.now() - t0);
  }
  return times;
}
"""

# listen for the answer to a typed value, then time from the Enter to it (set before typing)
WATCH_JS = """([uid, name, value]) => {
  const el = document.querySelector(`.live-widget[data-live="${uid}"]`);
  window.__typed = {t0: null, ms: null, source: null};
  el.addEventListener("live:answer", (e) => {
    if (e.detail.values[name] !== value || window.__typed.ms !== null || window.__typed.t0 === null) return;
    requestAnimationFrame(() => { window.__typed.ms = performance.now() - window.__typed.t0;
                                  window.__typed.source = e.detail.source; });
  });
  const box = [...document.querySelectorAll(`.live-widget[data-live="${uid}"] .live-box`)];
  return box.length;
}"""


def page_data(site: Path, chapter: str) -> dict[str, dict]:
    return {d["uid"]: d for d in page_widgets(f"book/{chapter}.html", site)}


def table_values(data: dict, name: str) -> list[float]:
    """Values of one number control whose answers are in the page's table (others at default)."""
    at = data["names"].index(name)
    first = next(iter(data["keys"])).split("|")
    out = []
    for key in data["keys"]:
        parts = key.split("|")
        if all(p == f for i, (p, f) in enumerate(zip(parts, first)) if i != at):
            out.append(float(parts[at]))
    return out


def move_share(site: Path) -> tuple[float, float, int]:
    """Share of the two-control moves the site's tables answer: mean over widgets, over moves."""
    from widgets.views.live import rebuild
    shares, hit, total = [], 0, 0
    for path in sorted(site.glob("book/**/*.html")):
        for data in page_widgets(path.relative_to(site).as_posix(), site):
            if not data.get("origin"):
                continue
            moves = rebuild(data["origin"]).two_control_moves()
            if moves:
                n = sum(k in data["keys"] for k in moves)
                shares.append(n / len(moves))
                hit, total = hit + n, total + len(moves)
    return sum(shares) / len(shares), hit / total, len(shares)


def load_ms(page, url: str) -> float:
    page.goto(url, wait_until="load")
    return page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                         " return n.loadEventEnd - n.startTime; }")


def boot(page, base: str, chapter: str) -> dict:
    page.goto(f"{base}/book/{chapter}.html", wait_until="load")
    page.evaluate("() => LiveBook.startEngine()")
    page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=180_000)
    info = page.evaluate("() => LiveBook.engineInfo ? LiveBook.engineInfo() : null") or {}
    return {"ms": page.evaluate("() => LiveBook.engineBootMs()"),
            "from": (info.get("boot") or {}).get("from", "start"), "shared": bool(info.get("shared"))}


def second_chapter(browser, base: str, site: Path, shared: bool) -> tuple[float, float, str]:
    """A fresh phone profile: the engine is used on the first chapter, then the reader opens the
    second, taps the box, types an off-table value, Enter. (load ms, Enter → answer ms, source)."""
    first, chapter, uid, name, value = SECOND
    context = browser.new_context(**PHONE)
    if not shared:
        context.add_init_script(NO_SHARED)
    try:
        page = context.new_page()
        boot(page, base, first)
        page.wait_for_timeout(1500)                     # a snapshot is being kept
        load = load_ms(page, f"{base}/book/{chapter}.html")
        page.locator(f'[data-live="{uid}"]').scroll_into_view_if_needed()
        page.wait_for_function("(uid) => LiveBook.values(uid) !== null", arg=uid, timeout=60_000)
        page.evaluate(WATCH_JS, [uid, name, value])
        data = page_data(site, chapter)[uid]
        index = [n for n, k in zip(data["names"], data["kinds"]) if k == "number"].index(name)
        box = page.locator(f'[data-live="{uid}"] .live-box input').nth(index)
        box.tap()
        box.press("Control+a")
        box.press_sequentially(value, delay=5)
        page.evaluate("() => { window.__typed.t0 = performance.now(); }")
        box.press("Enter")
        page.wait_for_function("() => window.__typed.ms !== null", timeout=180_000)
        typed = page.evaluate("() => window.__typed")
        return load, typed["ms"], typed["source"]
    finally:
        context.close()


def engine_files(site: Path) -> list[Path]:
    """The files a page's engine downloads: Pyodide's runtime and its lock file, the library
    (the build's zip of it and the standard library it reads, compiled; else its sources and
    the runtime's full standard library), the worker, and where the build packed the wasm and
    the zip with Zstandard, those packed files (``name.zst``) and their unpacker."""
    text = (site / "book" / "pf2e.html").read_text(encoding="utf-8")
    config = json.loads(re.search(r"window\.LiveBookConfig = (\{.*?\});", text).group(1))
    static = site / "_static"
    files = [static / config["pyodide"] / n for n in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                                                       "pyodide-lock.json")]
    if config.get("stdlib"):                        # builds before the zip held the library too
        files.append(static / config["stdlib"])
    elif not config["bundle"].endswith(".zip"):
        files.append(static / config["pyodide"] / "python_stdlib.zip")
    files += [static / config["bundle"], static / config["worker"]]
    if config.get("unzstd"):
        files.append(static / config["unzstd"])
    return [f if f.exists() else f.with_name(f.name + ".zst") for f in files]


def gzip_bytes(path: Path) -> int:
    """Bytes as ../shared/tools/slow_server.py sends the file (gzip level 6, as hosts do; a file
    the build packed, ``.zst``, as it is)."""
    return path.stat().st_size if path.suffix == ".zst" else len(gzip.compress(path.read_bytes(), 6))


TYPED_JS = """([uid, name, text]) => {
  window.__typed = {first: null, done: null, source: null, tap: null};
  const el = document.querySelector(`[data-live="${uid}"]`);
  el.addEventListener("pointerdown", () => { if (window.__typed.tap === null) window.__typed.tap = performance.now(); },
                      {capture: true});
  el.addEventListener("keydown", () => { if (window.__typed.first === null) window.__typed.first = performance.now(); },
                      {capture: true});
  el.addEventListener("live:answer", (e) => {
    if (e.detail.values[name] === text && window.__typed.done === null) {
      window.__typed.done = performance.now();
      window.__typed.source = e.detail.source;
    }
  });
}"""


def typed_answer(page, uid: str, name: str, text: str) -> tuple[float, str]:
    """Seconds from the first keystroke of ``text`` in the box to its answer shown; its source."""
    page.locator(f'[data-live="{uid}"]').scroll_into_view_if_needed()     # widgets embed near the screen
    page.wait_for_function("(uid) => window.LiveBook && LiveBook.values(uid) !== null", arg=uid,
                           timeout=120_000)
    page.evaluate(TYPED_JS, [uid, name, text])
    index = page.evaluate("""([uid, name]) => { const d = JSON.parse(document.querySelector(
        `[data-live="${uid}"] script.live-data`).textContent);
        return d.names.filter((n, i) => d.kinds[i] === "number").indexOf(name); }""", [uid, name])
    box = page.locator(f'[data-live="{uid}"] .live-box input').nth(index)
    box.scroll_into_view_if_needed()
    box.tap()
    box.press("Control+a")
    box.press_sequentially(text, delay=80)
    box.press("Enter")
    page.wait_for_function("() => window.__typed.done !== null", timeout=300_000)
    got = page.evaluate("() => window.__typed")
    return (got["done"] - got["first"]) / 1000, got["source"]


TIMELINE_JS = """async () => {
  const at = (ms) => performance.timeOrigin + ms;
  const t = window.__typed;
  const files = performance.getEntriesByType("resource").map((r) =>
    [r.name, at(r.startTime), at(r.responseEnd), r.encodedBodySize, "page"]);
  const engine = (LiveBook.engineTimeline && await LiveBook.engineTimeline()) || {steps: [], files: []};
  return {first: at(t.first), done: at(t.done), tap: t.tap === null ? null : at(t.tap),
          files: files.concat(engine.files.map((f) => f.concat(["engine"]))), steps: engine.steps};
}"""

SW_TIMELINE_JS = """() => performance.getEntriesByType("resource").map((r) =>
  [r.name, performance.timeOrigin + r.startTime, performance.timeOrigin + r.responseEnd, r.encodedBodySize, "sw"])"""


def print_timeline(page, context) -> None:
    """Where a cold first off-table answer's seconds went, from the first keystroke (0.00 s):
    each request's start → end and bytes as sent, by who asked (the page, the engine's worker,
    the service worker's background copy), and the engine's boot steps."""
    got = page.evaluate(TIMELINE_JS)
    files = got["files"]
    for worker in context.service_workers:
        try:
            files += worker.evaluate(SW_TIMELINE_JS)
        except Exception:   # noqa: BLE001  (a worker that stopped meanwhile: its requests are unknown)
            pass
    t0 = got["first"]
    rows = [(start, f"  {(start - t0) / 1000:6.2f} → {(end - t0) / 1000:6.2f} s  {size / 1e6:5.2f} MB  "
                    f"{who:6} {name.split('/', 3)[-1][:70]}") for name, start, end, size, who in files
            if end >= (got["tap"] or t0) - 5000]
    rows += [(at, f"  {(at - t0) / 1000:6.2f} s   {'':17}engine {name}") for name, at in got["steps"]]
    if got["tap"] is not None:
        rows.append((got["tap"], f"  {(got['tap'] - t0) / 1000:6.2f} s   {'':17}page   tap on the box (engine asked for)"))
    rows.append((t0, f"  {0:6.2f} s   {'':17}page   first keystroke"))
    rows.append((got["done"], f"  {(got['done'] - t0) / 1000:6.2f} s   {'':17}page   answer shown"))
    for _, text in sorted(rows):
        print(text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def slow_link(browser, names, sites, mbps: str, rtt: str, runs: int, timeline: bool = False) -> None:
    print(f"\nThe engine on a 4G-like link ({mbps} Mbit/s, {rtt} ms a response, gzip): bytes as sent, "
          "and seconds from the first keystroke of a value no table holds to its answer (phone)")
    for n, site in zip(names, sites):
        files = engine_files(site)
        total = sum(gzip_bytes(f) for f in files)
        print(f"  build {n}: engine {total / 1e6:5.2f} MB  (" + ", ".join(
            f"{f.name.split('-')[0] if f.parent.name == 'engine' else f.name.removesuffix('.zst')}"
            f"{'.zst' if f.suffix == '.zst' else ''} {gzip_bytes(f) / 1e6:.2f}"
            for f in files) + ")")
    chapter, uid, name, (cold_text, warm_text) = LINK_CASE
    rows = {n: [] for n in names}
    for _ in range(runs):
        for n, site in zip(names, sites):
            port = free_port()
            server = subprocess.Popen([sys.executable, str(SLOW), str(site), "--mbps", mbps, "--rtt", rtt,
                                       "--port", str(port)], stdout=subprocess.PIPE)
            server.stdout.readline()
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.set_default_timeout(120_000)
            try:
                page.goto(f"http://127.0.0.1:{port}/book/{chapter}.html", wait_until="load")
                cold = typed_answer(page, uid, name, cold_text)
                if timeline and not rows[n]:
                    print(f"\n  build {n}, cold, where the {cold[0]:.1f} s went (from the first keystroke):")
                    print_timeline(page, context)
                page.reload(wait_until="load")
                warm = typed_answer(page, uid, name, warm_text)
                rows[n].append((cold, warm))
            finally:
                context.close()
                server.terminate()
                server.wait()
    for n in names:
        cold = [r[0][0] for r in rows[n]]
        warm = [r[1][0] for r in rows[n]]
        print(f"  build {n}: cold median {_median(cold):5.1f} s (runs {', '.join(f'{c:.1f}' for c in cold)}; "
              f"from {rows[n][0][0][1]})   warm median {_median(warm):5.2f} s "
              f"(runs {', '.join(f'{w:.2f}' for w in warm)}; from {rows[n][0][1][1]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--site", type=Path, action="append", help="a built site (repeat to compare)")
    parser.add_argument("--mbps", default="9", help="the slow link's speed")
    parser.add_argument("--rtt", default="150", help="the slow link's ms a response")
    parser.add_argument("--link-runs", type=int, default=3, help="fresh profiles per build on the slow link")
    parser.add_argument("--link-only", action="store_true", help="only the slow link's figures")
    parser.add_argument("--timeline", action="store_true",
                        help="on the slow link, where a cold answer's seconds went (first run of each build)")
    args = parser.parse_args()
    sites = [s.resolve() for s in (args.site or [SITE])]
    names = [f"{i + 1}" for i in range(len(sites))]
    if len(sites) > 1:
        for n, s in zip(names, sites):
            print(f"build {n}: {s}")
    if args.link_only:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            slow_link(browser, names, sites, args.mbps, args.rtt, args.link_runs, args.timeline)
            browser.close()
        return
    served = [serve_site(s) for s in sites]
    bases = [b for _, b in served]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        print("\nHTML KB per page (raw / gzip)" + ("".join(f"   build {n}" for n in names)))
        for path in sorted(sites[-1].glob("book/**/*.html")):
            rel = path.relative_to(sites[-1])
            cells = []
            for s in sites:
                data = (s / rel).read_bytes() if (s / rel).exists() else b""
                cells.append(f"{len(data) / 1000:7.1f} /{len(gzip.compress(data, 6)) / 1000:6.1f}")
            print(f"  {rel.as_posix():34} " + "   ".join(cells))

        print("\nTwo-control moves the page tables answer before any engine (mean per widget, all moves)")
        for n, s in zip(names, sites):
            mean, pooled, count = move_share(s)
            print(f"  build {n}: {mean:6.1%} per widget, {pooled:6.1%} of all moves ({count} widgets)")

        contexts = [browser.new_context() for _ in sites]
        pages = [c.new_page() for c in contexts]
        print(f"\nPage load, median of {LOADS} (ms, warm cache; ratio to the plain page {PLAIN})")
        for page, base in zip(pages, bases):
            for _ in range(2):
                load_ms(page, f"{base}/{PLAIN}")
        for chapter in CHAPTERS:
            for n, page, base in zip(names, pages, bases):
                plain, chap = [], []
                for _ in range(LOADS):   # alternate so both see the same machine load
                    plain.append(load_ms(page, f"{base}/{PLAIN}"))
                    chap.append(load_ms(page, f"{base}/book/{chapter}.html"))
                print(f"  {chapter:18} build {n}  {_median(chap):7.1f}  plain {_median(plain):7.1f}  "
                      f"ratio {_median(chap) / _median(plain):5.2f}")

        print("\nTable answers: a slider moved over values in the page's table (ms, n=120)")
        for chapter, uid, name, _ in ENGINE_CASES:
            for n, page, base, s in zip(names, pages, bases, sites):
                values = table_values(page_data(s, chapter)[uid], name)
                page.goto(f"{base}/book/{chapter}.html", wait_until="load")
                work, frame = page.evaluate(TABLE_JS, [uid, name, values, 120])
                print(f"  {uid + '-' + name:24} build {n}  work median {_median(work):5.2f} "
                      f"p95 {_p95(work):5.2f}   frame median {_median(frame):5.2f} p95 {_p95(frame):5.2f}")
        for c in contexts:
            c.close()

        print("\nEngine boot (worker start → library ready; a fresh profile each run, warm HTTP cache)")
        boots = {n: [] for n in names}
        for _ in range(3):
            for n, base in zip(names, bases):
                context = browser.new_context()
                boots[n].append(boot(context.new_page(), base, "pf2e"))
                context.close()
        for n in names:
            ms = [r["ms"] for r in boots[n]]
            print(f"  build {n}: median {_median(ms):.0f} ms  (runs: {', '.join(f'{m:.0f}' for m in ms)}; "
                  f"started from {boots[n][0]['from']})")

        print("\nA second chapter: the engine used on the first, then Enter → the answer to a value no "
              "table holds (ms; phone profile, fresh each run)")
        for shared in (True, False):
            rows = {n: [] for n in names}
            for _ in range(3):
                for n, base, site in zip(names, bases, sites):
                    rows[n].append(second_chapter(browser, base, site, shared))
            for n in names:
                load = _median([r[0] for r in rows[n]])
                typed = [r[1] for r in rows[n]]
                print(f"  {'SharedWorker' if shared else 'worker per page':16} build {n}: "
                      f"answer median {_median(typed):7.0f} (runs {', '.join(f'{t:.0f}' for t in typed)})"
                      f"   page load median {load:6.0f}   from {rows[n][0][2]}")

        print("\nOff-table answers after boot: change → answer shown (ms)")
        context = browser.new_context()
        page = context.new_page()
        for (chapter, uid, name, values), (n, base) in itertools.product(ENGINE_CASES, zip(names, bases)):
            page.goto(f"{base}/book/{chapter}.html", wait_until="load")
            page.evaluate("() => LiveBook.embedAll().then(() => LiveBook.startEngine())")
            page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=180_000)
            page.evaluate(ENGINE_JS, [uid, name, values[:3]])   # first call imports the chapter's rules
            times = page.evaluate(ENGINE_JS, [uid, name, values * 2])
            print(f"  {uid + '-' + name:24} build {n}  n={len(times)}  median {_median(times):6.1f}  "
                  f"p95 {_p95(times):6.1f}  max {max(times):6.1f}")
        context.close()
        slow_link(browser, names, sites, args.mbps, args.rtt, args.link_runs, args.timeline)
        browser.close()
    for server, _ in served:
        server.shutdown()


if __name__ == "__main__":
    main()
