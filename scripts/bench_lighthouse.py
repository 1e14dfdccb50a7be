"""Lighthouse's mobile performance audit of the built site, served gzip-compressed as hosts send it.

For each page, runs Lighthouse (its default mobile emulation: a mid-range phone's screen and CPU,
simulated slow 4G) against Debian's chromium, a few times, and prints the median of
- the performance score (0–100; the issue's bar is at least 95);
- first contentful paint (FCP, s; the bar is at most 1.8 s);
- largest contentful paint (LCP, s);
- total blocking time (TBT, ms: long tasks of the main thread between FCP and interactive; it
  weighs 30% of the score and grows when the machine is busy with other work);
and the render-blocking files Lighthouse names in the last run (with its estimated saving).

Two sites (``--site OLD --site NEW``) are measured in one session, alternately page by page, so
a machine busy with other work weighs on both alike.

Lighthouse is a bench-only tool: it is installed with the ordinary npm client, at the version
pinned below, into ``.bench-tools/`` (not the repository's node_modules, which holds the engine
and is installed from package-lock.json), unless ``--lighthouse`` names another copy.

    python3 scripts/dev.py bench                       # runs this after the other benches
    python scripts/bench_lighthouse.py                 # every chapter of _build/html, 3 runs each
    python scripts/bench_lighthouse.py --site OLD --site _build/html --page book/pf2e.html
"""
from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from dev import CHROMIUM, SITE, SiteHandler  # noqa: E402

LIGHTHOUSE_VERSION = "12.8.2"
TOOLS = ROOT / ".bench-tools"
#: gzip-compressed as GitHub Pages or nginx compress (level 6); images and fonts are sent as they are
COMPRESS = {".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".txt", ".webmanifest", ".map"}
#: The issue's bars: every page
SCORE_BAR, FCP_BAR = 95, 1.8


class GzipHandler(SiteHandler):
    """The site's files, text compressed when the browser accepts gzip; quiet."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (path.suffix not in COMPRESS or not path.is_file()
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        return io.BytesIO(body)


def serve_gzip(site: Path):
    """``site`` on a free local port in a background thread: (server, base URL)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(GzipHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def lighthouse_command(given: str | None) -> list[str]:
    """The Lighthouse CLI to run: ``given``, or the pinned copy in :data:`TOOLS` (installed with
    npm when missing)."""
    if given:
        return [given]
    cli = TOOLS / "node_modules" / "lighthouse" / "cli" / "index.js"
    installed = TOOLS / "node_modules" / "lighthouse" / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != LIGHTHOUSE_VERSION:
        if not shutil.which("npm"):
            sys.exit("npm is needed to install Lighthouse (apt-get install nodejs npm)")
        TOOLS.mkdir(exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(TOOLS), "--no-audit", "--no-fund",
                        "--loglevel=error", f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True)
    return ["node", str(cli)]


def audit(command: list[str], url: str) -> dict:
    """One Lighthouse mobile performance run of ``url``: score, FCP and LCP (s), render-blocking."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        subprocess.run([*command, url, "--only-categories=performance", "--output=json",
                        f"--output-path={out}", "--quiet",
                        "--chrome-flags=--headless=new --no-sandbox"],
                       check=True, env={**os.environ, "CHROME_PATH": str(CHROMIUM)},
                       timeout=300)
        report = json.loads(out.read_text())
    audits = report["audits"]
    blocking = audits.get("render-blocking-resources", {}).get("details", {}).get("items", [])
    return {"score": round(100 * (report["categories"]["performance"]["score"] or 0)),
            "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
            "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
            "tbt": audits["total-blocking-time"]["numericValue"],
            "blocking": [(item["url"].rsplit("/", 1)[-1].split("?")[0], item.get("wastedMs", 0))
                         for item in blocking]}


def chapters(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.glob("book/*.html"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--site", type=Path, action="append", help="a built site (repeat to compare)")
    parser.add_argument("--page", action="append", help="a page of the site, e.g. book/pf2e.html "
                        "(repeatable; default every chapter)")
    parser.add_argument("--runs", type=int, default=3, help="runs per page and site (median)")
    parser.add_argument("--lighthouse", help="a Lighthouse CLI to use instead of the pinned copy")
    args = parser.parse_args()
    sites = [s.resolve() for s in (args.site or [SITE])]
    pages = args.page or chapters(sites[-1])
    command = lighthouse_command(args.lighthouse)
    served = [serve_gzip(s) for s in sites]
    names = [str(i + 1) for i in range(len(sites))]
    print(f"\nLighthouse {LIGHTHOUSE_VERSION} mobile (simulated slow 4G, mid-range phone), "
          f"served gzip; median of {args.runs} runs")
    for n, s in zip(names, sites):
        print(f"  build {n}: {s}")
    print(f"  {'page':28} {'build':>5} {'score':>5} {'FCP s':>6} {'LCP s':>6} {'TBT ms':>6}   "
          "runs (score/FCP/LCP/TBT)")
    failed = False
    try:
        for page in pages:
            runs: dict[str, list[dict]] = {n: [] for n in names}
            for _ in range(args.runs):
                for n, (_, base) in zip(names, served):
                    runs[n].append(audit(command, f"{base}/{page}"))
            for n in names:
                got = runs[n]
                score = statistics.median(r["score"] for r in got)
                fcp = statistics.median(r["fcp"] for r in got)
                lcp = statistics.median(r["lcp"] for r in got)
                tbt = statistics.median(r["tbt"] for r in got)
                meets = score >= SCORE_BAR and fcp <= FCP_BAR
                failed |= n == names[-1] and not meets
                print(f"  {page:28} {n:>5} {score:5.0f} {fcp:6.2f} {lcp:6.2f} {tbt:6.0f}   "
                      + ", ".join(f"{r['score']}/{r['fcp']:.2f}/{r['lcp']:.2f}/{r['tbt']:.0f}" for r in got)
                      + ("" if meets else f"   (bar: score ≥ {SCORE_BAR}, FCP ≤ {FCP_BAR} s)"))
                if got[-1]["blocking"]:
                    print(f"  {'':28} {'':>5} render-blocking: " + ", ".join(
                        f"{name} {ms:.0f} ms" for name, ms in got[-1]["blocking"]))
    finally:
        for server, _ in served:
            server.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
