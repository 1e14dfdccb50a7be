"""Measure the built site's search on the query set in tests/data/search_queries.json.

For each query, opens ``search.html?q=…`` in a fresh browser context (cold cache, 390×844 touch
screen) on the built site, waits until the search has finished, and prints:
- rank: the position of the right section (page and anchor) among the results (1 = first;
  "page" = only the page's top was linked, never its section; "-" = not in the results);
- first: the first result's link and title;
- snippet: whether the first result's snippet contains the query (particles stripped), and its start;
- bytes: what the phone downloaded for the search beyond the page's own files (the index, its
  chunks, and anything fetched to make snippets), raw and gzip-compressed, and how many files;
- names: for armour and weapon names (``also`` / ``core`` in the query set), whether every
  section that rules the name is among the first results and exactly the core-rule ones are
  labelled 보충;
- typed: the query typed into the search page's box as a reader types (one key every 90 ms, no
  Enter): milliseconds from the last key to its results, and how many searches ran for the
  keys (the pause before searching keeps it to about one);
  and, last, what a second search downloads after a first one in the same browser.

    .venv/bin/python scripts/bench_search.py [--json FILE] [--site DIR]

Works with whichever search the site was built with (the results list is
``#search-results ul.search li``, a link and a ``p.context`` snippet, in both).
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
QUERIES = ROOT / "tests" / "data" / "search_queries.json"

#: files counted as the search's own: the index and its chunks, the search scripts, and pages
#: fetched to make snippets (not search.html itself, nor the theme and BokehJS every page loads)
SEARCH_FILE = re.compile(r"search|pagefind|\.html$")

DONE_JS = """() => {
  const out = document.getElementById('search-results');
  if (!out) return false;
  if (out.dataset.state) return out.dataset.state === 'done';          // the book's search
  const s = out.querySelector('p.search-summary');                     // Sphinx's
  return !!(s && s.textContent.trim() && !/\\.\\.\\.$/.test(s.textContent));
}"""

RESULTS_JS = """(box) => Array.from(document.querySelectorAll((box || '#search-results') + ' ul.search > li')).map(li => {
  const a = li.querySelector('a');
  const c = li.querySelector('.context');
  return {href: a ? a.getAttribute('href') : '', title: a ? a.textContent.trim() : '',
          snippet: c ? c.textContent.replace(/\\s+/g, ' ').trim() : '', label: li.dataset.label || ''};
})"""
#: How many of the first results a name's sections must all be among.
NAME_RESULTS = 8


def load_queries() -> list[dict]:
    return json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]


def _norm_title(text: str) -> str:
    """A heading as the query set names it: bracketed parts and the ¶ mark left out."""
    text = re.sub(r"\s*\([^)]*\)", "", text.replace("¶", "").replace("#", ""))
    return re.sub(r"\s+", " ", text).strip()


def section_anchors(site: Path, page: str) -> dict[str, str]:
    """Normalised heading text → section id, for one built page."""
    html = (site / f"{page}.html").read_text(encoding="utf-8")
    html = html.split('<main', 1)[-1]
    out: dict[str, str] = {}
    # a MyST label before a heading ("(tcs-turn)=") stands as an empty <span id> between them
    for m in re.finditer(r'<section id="([^"]+)"[^>]*>\s*(?:<span id="[^"]*"></span>\s*)*'
                         r'<h[1-6][^>]*>(.*?)</h[1-6]>', html, re.S):
        text = re.sub(r"<[^>]+>", "", m.group(2))
        text = re.sub(r"^[\d.]+\s*", "", _norm_title(text))       # section numbers
        out.setdefault(text, m.group(1))
    return out


def expected_targets(site: Path, query: dict) -> set[tuple[str, str]]:
    """(page, anchor) pairs that count as the right section for a query."""
    pairs = [(query["page"], query["section"]), *[tuple(x) for x in query.get("any", [])]]
    out = set()
    for page, section in pairs:
        anchors = section_anchors(site, page)
        if section not in anchors:
            raise KeyError(f"{page}: no section headed {section!r} (have {sorted(anchors)})")
        out.add((page, anchors[section]))
    return out


def listed_targets(site: Path, query: dict) -> dict[tuple[str, str], bool]:
    """(page, anchor) → labelled 보충, for the sections a name query lists (``also``, ``core``)."""
    out = {}
    for group, core in (("also", False), ("core", True)):
        for page, section in query.get(group, []):
            anchors = section_anchors(site, page)
            if section not in anchors:
                raise KeyError(f"{page}: no section headed {section!r} (have {sorted(anchors)})")
            out[(page, anchors[section])] = core
    return out


def check_names(site: Path, query: dict, results: list[dict]) -> str | None:
    """None when every section a name query lists is among the first results with the right
    label, and no other result is labelled 보충."""
    listed = listed_targets(site, query)
    first = {result_target(r["href"]): r["label"] for r in results[:NAME_RESULTS]}
    problems = [f"{p}#{a} not in the first {NAME_RESULTS}" for (p, a) in listed if (p, a) not in first]
    problems += [f"{p}#{a} labelled {first[(p, a)]!r}" for (p, a), core in listed.items()
                 if (p, a) in first and (first[(p, a)] == "보충") != core]
    problems += [f"{r['href']} labelled 보충" for r in results
                 if r["label"] and result_target(r["href"]) not in listed]
    return f"{query['q']}: {'; '.join(problems)}" if problems else None


def result_target(href: str) -> tuple[str, str]:
    """(page without .html, anchor) of a result link relative to search.html."""
    url = urlparse(href)
    return re.sub(r"\.html$", "", unquote(url.path).lstrip("./")), unquote(url.fragment)


def rank(results: list[dict], targets: set[tuple[str, str]]) -> str:
    pages = {p for p, _ in targets}
    page_rank = None
    for i, r in enumerate(results, 1):
        target = result_target(r["href"])
        if target in targets:
            return str(i)
        if target[0] in pages and not target[1] and page_rank is None:
            page_rank = i
    return f"page@{page_rank}" if page_rank else "-"


def stem(query: str) -> list[str]:
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    from korean_search import strip_particle
    return [strip_particle(w) for w in query.split()]


def new_context(browser, mobile: bool = True):
    opts = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True) if mobile \
        else dict(viewport={"width": 1280, "height": 900})
    return browser.new_context(service_workers="block", **opts)


def run_query(browser, base: str, q: str, mobile: bool = True, context=None) -> dict:
    """One search in a fresh context (cold cache), or in ``context`` (what is cached stays)."""
    own = context is None
    context = new_context(browser, mobile) if own else context
    page = context.new_page()
    fetched: list[tuple[str, int, int]] = []

    seen = context.__dict__.setdefault("_bench_seen", set())

    def on_finished(request):
        # Chromium reports a body size < 0 for an answer revalidated from its cache (304) and 0
        # for a worker's script; a file counts once per browser, as it travels over the network
        try:
            resp = request.response()
            body = resp.body() if resp else b""
            sent = request.sizes()["responseBodySize"]
        except Exception:  # redirects and aborted requests have no body
            return
        if sent < 0 or (sent == 0 and request.url in seen):
            return
        seen.add(request.url)
        fetched.append((request.url, len(body), len(gzip.compress(body, 6))))

    page.on("requestfinished", on_finished)
    page.goto(f"{base}/search.html?q={q}")
    page.wait_for_function(DONE_JS, timeout=30000)
    page.wait_for_load_state("networkidle")
    results = page.evaluate(RESULTS_JS)
    page.close()
    if own:
        context.close()
    search_files = [f for f in fetched if SEARCH_FILE.search(urlparse(f[0]).path)
                    and not urlparse(f[0]).path.endswith("/search.html")]
    return {"results": results, "files": [f[0].replace(base, "") for f in search_files],
            "raw": sum(f[1] for f in search_files), "gz": sum(f[2] for f in search_files),
            "all_raw": sum(f[1] for f in fetched)}


TYPED_DONE_JS = """(q) => { const out = document.getElementById('search-results');
  return out.dataset.state === 'done' && out.dataset.query === q; }"""


def typed_query(browser, base: str, q: str, mobile: bool = True, delay: int = 90) -> dict:
    """A query typed into the search page's box, key by key, without Enter: ms from the last
    key to its results, searches that ran, and the results."""
    import time
    context = new_context(browser, mobile)
    page = context.new_page()
    page.goto(f"{base}/search.html")
    page.wait_for_function("() => document.getElementById('search-results').dataset.state === 'done'")
    box = page.locator(".bd-search-container input[name=q]")
    box.tap() if mobile else box.click()
    box.press_sequentially(q, delay=delay)
    start = time.perf_counter()
    page.wait_for_function(TYPED_DONE_JS, arg=q, timeout=30000)
    ms = (time.perf_counter() - start) * 1000
    stats = page.evaluate("() => ({...BookSearch.stats})")
    results = page.evaluate(RESULTS_JS)
    context.close()
    return {"ms": ms, "ran": stats["ran"], "asked": stats["asked"], "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--json", help="also write every query's results to this file")
    parser.add_argument("--site", help="built site to measure (default: _build/html)")
    parser.add_argument("--desktop", action="store_true", help="desktop viewport instead of a phone")
    args = parser.parse_args()
    import conftest
    if args.site:
        conftest.SITE = Path(args.site).resolve()
    import bench
    bench.SITE = conftest.SITE
    site = conftest.SITE
    server, base = bench.serve_site()
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.CHROMIUM_ARGS)
        for query in load_queries():
            got = run_query(browser, base, query["q"], mobile=not args.desktop)
            targets = expected_targets(site, query)
            first = got["results"][0] if got["results"] else {"href": "", "title": "", "snippet": ""}
            words = stem(query["q"])
            snippet_ok = all(w in first["snippet"] for w in words)
            names = (check_names(site, query, got["results"]) or "ok"
                     if "also" in query or "core" in query else "")
            typed = typed_query(browser, base, query["q"], mobile=not args.desktop)
            rows.append({"q": query["q"], "rank": rank(got["results"], targets),
                         "first": first, "snippet_ok": snippet_ok, "count": len(got["results"]),
                         "raw": got["raw"], "gz": got["gz"], "files": got["files"],
                         "all_raw": got["all_raw"], "names": names,
                         "typed_ms": typed["ms"], "typed_ran": typed["ran"],
                         "typed_same": typed["results"] == got["results"]})
        # a second search on the same phone: what it downloads once the first has loaded the engine
        context = new_context(browser, mobile=not args.desktop)
        run_query(browser, base, "유혈 표식", context=context)
        second = run_query(browser, base, "플롯", context=context)
        context.close()
        browser.close()
    server.shutdown()
    print(f"{'query':16} {'rank':>7} {'n':>3} {'snip':>4} {'KB raw':>7} {'KB gz':>6} {'files':>5} "
          f"{'typed ms':>8} {'ran':>3} {'names':>5}  first result")
    for r in rows:
        print(f"{r['q']:16} {r['rank']:>7} {r['count']:3} {'yes' if r['snippet_ok'] else 'no':>4} "
              f"{r['raw'] / 1024:7.1f} {r['gz'] / 1024:6.1f} {len(r['files']):5} "
              f"{r['typed_ms']:8.0f} {r['typed_ran']:3} {r['names'][:5]:>5}  "
              f"{r['first']['href'][:60]}  「{r['first']['snippet'][:50]}」")
        if r["names"] not in ("", "ok"):
            print(f"    {r['names']}")
    firsts = sum(r["rank"] == "1" for r in rows)
    snips = sum(r["snippet_ok"] for r in rows)
    raws = sorted(r["raw"] for r in rows)
    gzs = sorted(r["gz"] for r in rows)
    print(f"\nright section first: {firsts}/{len(rows)}; snippet has the query: {snips}/{len(rows)}; "
          f"bytes per search: median {raws[len(raws) // 2] / 1024:.1f} KB raw "
          f"({gzs[len(gzs) // 2] / 1024:.1f} KB gzip), max {raws[-1] / 1024:.1f} KB raw")
    print(f"a second search on the same page visit (플롯 after 유혈 표식): {second['raw'] / 1024:.1f} KB raw, "
          f"{len(second['files'])} files")
    named = [r for r in rows if r["names"]]
    typed_ms = sorted(r["typed_ms"] for r in rows)
    print(f"names: {sum(r['names'] == 'ok' for r in named)}/{len(named)} find every table that rules them, "
          f"labelled as they should be")
    print(f"typed without Enter: results {typed_ms[len(typed_ms) // 2]:.0f} ms after the last key (median), "
          f"max {typed_ms[-1]:.0f} ms; searches run per typed query: max {max(r['typed_ran'] for r in rows)}; "
          f"same results as the address: {sum(r['typed_same'] for r in rows)}/{len(rows)}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
