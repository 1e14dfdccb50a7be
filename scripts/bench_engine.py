"""Time the built site's pages and its in-page engine in headless chromium (run by `dev.py bench`).

Prints, from one run side by side (this machine is shared and noisy, so compare ratios):
- HTML bytes of every page;
- page load: median of 7 loads (navigation start → load event end, warm cache) of every chapter
  and of a plain page of the same site (the glossary), and their ratio (target ≤ 1.25);
- table answers: a number control moved over values in the page's table (work and next-frame
  time, median and p95; target: within one frame);
- engine boot: worker start → library imported, median of 3 fresh pages (warm cache);
- off-table answers after boot: 60 changes to values no table holds, time from the change to the
  answer shown (median and p95; target p95 under 50 ms).

    python3 scripts/dev.py bench
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
from bench import _median, _p95, serve_site  # noqa: E402  (the site-timing helpers bench.py uses)
from conftest import CHROMIUM, CHROMIUM_ARGS, SITE  # noqa: E402

CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]
PLAIN = "book/glossary.html"
LOADS = 7
# (chapter, widget uid, number control, off-table values typed by a reader)
ENGINE_CASES = [("pf2e", "pf-strikes", "bonus", [str(v) for v in range(31, 61)]),
                ("trench_crusade", "tc-success", "dice", [str(v) for v in range(11, 41)])]

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


def page_data(chapter: str) -> dict[str, dict]:
    html = (SITE / "book" / f"{chapter}.html").read_text(encoding="utf-8")
    datas = [json.loads(d.replace("<\\/", "</")) for d in
             re.findall(r'<script type="application/json" class="live-data">(.*?)</script>', html, re.S)]
    return {d["uid"]: d for d in datas}


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


def load_ms(page, url: str) -> float:
    page.goto(url, wait_until="load")
    return page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                         " return n.loadEventEnd - n.startTime; }")


def main() -> None:
    server, base = serve_site()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context()
        page = context.new_page()

        print("HTML bytes per page")
        for path in sorted(SITE.glob("book/**/*.html")):
            print(f"  {path.relative_to(SITE).as_posix():34} {path.stat().st_size / 1000:8.1f} KB")

        print(f"\nPage load, median of {LOADS} (ms, warm cache; ratio to the plain page {PLAIN})")
        for _ in range(2):
            load_ms(page, f"{base}/{PLAIN}")
        for chapter in CHAPTERS:
            plain, chap = [], []
            for _ in range(LOADS):   # alternate so both see the same machine load
                plain.append(load_ms(page, f"{base}/{PLAIN}"))
                chap.append(load_ms(page, f"{base}/book/{chapter}.html"))
            print(f"  {chapter:18} {_median(chap):7.1f}  plain {_median(plain):7.1f}  "
                  f"ratio {_median(chap) / _median(plain):5.2f}")

        print("\nTable answers: a slider moved over values in the page's table (ms, n=120)")
        for chapter, uid, name, _ in ENGINE_CASES:
            values = table_values(page_data(chapter)[uid], name)
            page.goto(f"{base}/book/{chapter}.html", wait_until="load")
            work, frame = page.evaluate(TABLE_JS, [uid, name, values, 120])
            print(f"  {uid + '-' + name:24} work median {_median(work):5.2f} p95 {_p95(work):5.2f}"
                  f"   frame median {_median(frame):5.2f} p95 {_p95(frame):5.2f}")

        print("\nEngine boot (worker start → library ready; fresh page, warm cache)")
        boots = []
        for _ in range(3):
            page.goto(f"{base}/book/pf2e.html", wait_until="load")
            page.evaluate("() => LiveBook.startEngine()")
            page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=120_000)
            boots.append(page.evaluate("() => LiveBook.engineBootMs()"))
        print(f"  median {_median(boots):.0f} ms  (runs: {', '.join(f'{b:.0f}' for b in boots)})")

        print("\nOff-table answers after boot: change → answer shown (ms)")
        for chapter, uid, name, values in ENGINE_CASES:
            page.goto(f"{base}/book/{chapter}.html", wait_until="load")
            page.evaluate("() => LiveBook.embedAll().then(() => LiveBook.startEngine())")
            page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=120_000)
            page.evaluate(ENGINE_JS, [uid, name, values[:3]])   # first call imports the chapter's rules
            times = page.evaluate(ENGINE_JS, [uid, name, values * 2])
            print(f"  {uid + '-' + name:24} n={len(times)}  median {_median(times):6.1f}  "
                  f"p95 {_p95(times):6.1f}  max {max(times):6.1f}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
