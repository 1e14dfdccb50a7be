"""A GM's questions on a 390×844 phone, timed from the home page to the exact answer (taps and
seconds), over a 4G-like link (../shared/tools/slow_server.py: 9 Mbit/s shared, 150 ms a
response, gzip), with the offline cache on, in one fresh phone profile per build:

1. PF2e: +14 to hit against AC 22, three Strikes (a two-control move on the sliders' steps);
2. then Trench Crusade: +2 DICE with a −1 modifier (another chapter, two controls on steps);
3. then Underface: attack 67 against a defence of 43 (values no slider holds);
4. then a whole fight, back in PF2e: how many turns of three Strikes to down a foe of AC 20 and
   45 HP (「몇 턴이면 쓰러뜨릴까」, two controls, an HP no slider step holds).

Each question starts at the home page: tap ☰, tap the chapter, tap the widget in 「이 장의 계산기」,
tap a box and type, tap the next box and type, Enter; the answer must equal CPython's. Prints,
per build and question, the taps, the seconds from the home page's load to the exact answer, and
where the answer came from (the page's table or the engine).

    .venv/bin/python scripts/bench_gm.py --site OLD --site _build/html
"""
from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from conftest import CHROMIUM, CHROMIUM_ARGS, SITE, page_widgets  # noqa: E402

# ../shared beside the checkout (or beside its worktrees' folder: /work/wt/NAME)
SLOW = next((p for p in (ROOT.parent / "shared" / "tools" / "slow_server.py",
                         ROOT.parent.parent / "shared" / "tools" / "slow_server.py") if p.exists()),
            ROOT.parent / "shared" / "tools" / "slow_server.py")
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=3)
# (chapter, its title in the book's list, widget, [(number control, typed text)], other raw values)
QUESTIONS = [
    ("pf2e", "패스파인더", "pf-strikes", [("bonus", "14"), ("ac", "22")]),
    ("trench_crusade", "트렌치", "tc-success", [("dice", "2"), ("modifier", "-1")]),
    ("underface", "언더페이스", "uf-hit", [("attack", "67"), ("defense", "43")]),
    ("pf2e", "패스파인더", "pf-down", [("ac", "20"), ("hp", "45")]),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ask(page, base: str, chapter: str, title: str, uid: str, typed: list) -> tuple[int, float, str, str]:
    """One question from the home page: (taps, seconds to the exact answer, source, shown html)."""
    taps = 0
    t0 = time.monotonic()
    page.goto(base + "index.html", wait_until="load")
    page.wait_for_url("**/book/intro.html", wait_until="load")
    page.locator("button.primary-toggle:visible, label.primary-toggle:visible").first.tap()
    taps += 1
    # (the book's list: in the sidebar, or in the dialog an older theme build opens)
    link = page.locator(f"#pst-primary-sidebar a[href*='{chapter}.html']:visible, "
                        f"dialog a[href*='{chapter}.html']:visible, .bd-sidebar-primary a[href*='{chapter}.html']:visible").first
    link.wait_for(state="visible")
    link.tap()
    taps += 1
    page.wait_for_url(f"**/book/{chapter}.html*", wait_until="load")
    page.locator(f"nav.calculators a[href='#{uid}']").tap()
    taps += 1
    page.wait_for_function("(uid) => window.LiveBook && LiveBook.values(uid) !== null", arg=uid, timeout=120_000)
    page.evaluate("""([uid, name, text]) => {
        window.__gm = null;
        document.querySelector(`[data-live="${uid}"]`).addEventListener("live:answer", (e) => {
          if (e.detail.values[name] === text) window.__gm = e.detail.source; });
    }""", [uid, typed[-1][0], typed[-1][1]])
    numbers = page.evaluate("""(uid) => { const d = JSON.parse(document.querySelector(`[data-live="${uid}"] script.live-data`).textContent);
                                 return d.names.filter((n, i) => d.kinds[i] === "number"); }""", uid)
    for name, text in typed:
        box = page.locator(f'[data-live="{uid}"] .live-box input').nth(numbers.index(name))
        box.scroll_into_view_if_needed()
        box.tap()
        taps += 1
        box.press("Control+a")
        box.press_sequentially(text, delay=40)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__gm !== null", timeout=300_000)
    seconds = time.monotonic() - t0
    shown = page.evaluate("(uid) => Bokeh.documents.map(d => d.get_model_by_name(uid + '-out')).find(Boolean).text", uid)
    return taps, seconds, page.evaluate("() => window.__gm"), shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--site", type=Path, action="append")
    parser.add_argument("--mbps", default="9")
    parser.add_argument("--rtt", default="150")
    args = parser.parse_args()
    from widgets.views.live import rebuild
    sites = [s.resolve() for s in (args.site or [SITE])]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"A GM's questions on a 390×844 phone over {args.mbps} Mbit/s, {args.rtt} ms a response "
              "(from the home page's load to the exact answer)")
        for n, site in enumerate(sites, start=1):
            port = free_port()
            server = subprocess.Popen([sys.executable, str(SLOW), str(site), "--mbps", args.mbps,
                                       "--rtt", args.rtt, "--port", str(port)], stdout=subprocess.PIPE)
            server.stdout.readline()
            base = f"http://127.0.0.1:{port}/"
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.set_default_timeout(120_000)
            try:
                for chapter, title, uid, typed in QUESTIONS:
                    taps, seconds, source, shown = ask(page, base, chapter, title, uid, typed)
                    data = next(d for d in page_widgets(f"book/{chapter}.html", site) if d["uid"] == uid)
                    widget = rebuild(data["origin"])
                    raw = {c.name: c.key(c.default) for c in widget.controls}
                    raw.update(dict(typed))
                    # (checked against this checkout's library: an older build says its own words)
                    check = ("exact" if shown == widget.answer(raw)["h"] else "NOT THE LIBRARY ANSWER") \
                        if site == SITE.resolve() else "(older build)"
                    print(f"  build {n}  {chapter:15} {uid:11} taps {taps}  {seconds:6.1f} s  from {source:6}"
                          f"  {check}")
            finally:
                context.close()
                server.terminate()
        browser.close()


if __name__ == "__main__":
    main()
