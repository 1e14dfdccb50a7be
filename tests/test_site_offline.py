"""The built site offline after one visit, and published under a sub-path.

The site is served at http://127.0.0.1:PORT/rulebook/ by a server that logs every request it
answers (scripts/bench.py's LoggedSite: requests made by the service worker and the engine's
worker, which Playwright's page-level routing does not see, are checked too) and answers 404 to
anything outside /rulebook/. What the worker keeps, and when (book/_ext/offline.py, sw.js):
what the open page loaded and every page at the first visit (no engine); the engine once used;
everything when the reader presses the footer's "책 전체를 기기에 저장".
"""
from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from bench import LoggedSite, first_visit
from conftest import SITE, page_widgets
from widgets.views.live import rebuild
from widgets.views.static_page import unpack

PREFIX = "/rulebook/"
BOOT_MS = 60_000
CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]
ENGINE = ("_static/pyodide/", "_static/engine/")


def site_pages(site: Path = SITE) -> list[str]:
    """Every page of the site, relative to its root."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if p.relative_to(site).parts[0] not in ("_static", "_sources"))


def sw_data(site: Path = SITE) -> dict:
    first = (site / "sw.js").read_text(encoding="utf-8").split("\n", 1)[0]
    return json.loads(re.fullmatch(r"const OFFLINE = (\{.*\});", first).group(1))


def sw_files(site: Path = SITE) -> dict[str, dict]:
    return {path: {"digest": d, "size": n, "group": g, "query": q}
            for path, d, n, g, q in sw_data(site)["files"]}


@pytest.fixture(scope="module")
def subpath():
    server = LoggedSite(SITE, PREFIX)
    yield server
    server.close()


class Visit:
    """A browser context on the sub-path site that records page errors, failed requests and
    requests to any other host (with the service worker allowed unless told otherwise)."""

    def __init__(self, browser, base: str, context=None, page=None, **options):
        self.host = urlparse(base).netloc
        self.context = context or browser.new_context(**options)
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.off_site: list[str] = []
        self.context.on("request", self._request)
        self.context.on("requestfailed", self._failed)
        self.context.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} {r.status}"))
        self.page = self.watch(page) if page else self.new_page()

    def new_page(self):
        return self.watch(self.context.new_page())

    def watch(self, page):
        page.set_default_timeout(20000)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return page

    def _failed(self, request):
        # a page left before its icon arrived cancels it (ERR_ABORTED); a missing file is a 404
        # in the response check and in the server's log
        if "ERR_ABORTED" not in str(request.failure):
            self.failed.append(f"{request.url} {request.failure}")

    def _request(self, request):
        url = urlparse(request.url)
        if url.scheme not in ("data", "blob") and url.netloc != self.host:
            self.off_site.append(request.url)

    def close(self):
        self.context.close()


def poll(page, script: str, timeout_s: float = 60) -> None:
    """Wait until an async page script resolves truthy (wait_for_function does not wait for
    a promise's value)."""
    end = time.monotonic() + timeout_s
    while not page.evaluate(script):
        assert time.monotonic() < end, script
        page.wait_for_timeout(200)


def goto(page, base: str, rel: str) -> None:
    page.goto(base + rel, wait_until="load")
    if rel == "index.html":                       # the root page redirects to the first chapter
        page.wait_for_url("**/book/intro.html", wait_until="load")


KEPT_JS = """(groups) => LiveOffline.status().then(s => s && groups.every(g => !s[g] || s[g][0] === s[g][1]))"""


def wait_kept(page, groups: str, timeout_s: float = 90) -> None:
    """Wait until the worker controls the page and keeps every file of the groups ("ap": what
    pages load and the pages; "e": the engine; see sw.js)."""
    page.wait_for_function("() => window.LiveOffline", timeout=20000)
    assert page.evaluate("() => LiveOffline.registration.then(r => r && r.scope)") is not None
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
    poll(page, f"() => ({KEPT_JS})({json.dumps(list(groups))})", timeout_s)


def kept_paths(page, base: str) -> set[str]:
    return set(page.evaluate(
        "(base) => caches.keys().then(n => caches.open(n.find(x => x.startsWith('rulebook-'))))"
        ".then(c => c.keys()).then(k => k.map(r => r.url.slice(base.length)))", base))


#: Names of a widget's own page models (static_page.bokeh_layout): a control with one of these
#: names collides with them, and the page script cannot tell the two models apart.
from widgets.views.live import _PAGE_PARTS as RESERVED  # noqa: E402  (the page's own part names)


def colliding(data: dict) -> bool:
    return any(n in RESERVED for n in data["names"])


def change_each_widget(page, rel: str) -> int:
    """Move every widget of a page to another setting from its table (the table's first key is
    the defaults); check the shown text is that setting's answer. Returns how many answered."""
    answered = 0
    for data in page_widgets(rel):
        keys = list(data["keys"])
        key = keys[1] if len(keys) > 1 else None
        if key is None:
            continue
        raw = dict(zip(data["names"], key.split("|")))
        assert page.evaluate("([uid, v]) => LiveBook.set(uid, v)", [data["uid"], raw]) == "live:answer"
        got = page.evaluate("(n) => Bokeh.documents.map(d => d.get_model_by_name(n)).find(Boolean).text",
                            data["uid"] + "-out")
        assert got == unpack(data, key)["h"], (rel, data["uid"])
        answered += 1
    return answered


def off_table_raw(data: dict) -> tuple[dict, object]:
    """Values with one number beyond its slider (no table holds it), and the widget."""
    widget = rebuild(data["origin"])
    name = data["names"][data["kinds"].index("number")]
    control = next(c for c in widget.controls if c.name == name)
    top = control.options[-1]
    # one step beyond the slider (a distance in 5 ft squares takes 65, never 61)
    step = control.options[-1] - control.options[-2] if len(control.options) > 1 else 1
    value = top + step if all(isinstance(o, int) for o in control.options) else top + 0.5
    defaults = dict(zip(data["names"], next(iter(data["keys"])).split("|")))
    return {**defaults, name: str(value)}, widget


def off_table_answer(page, data: dict) -> None:
    """Type an off-table value (a number beyond the slider) and compare with CPython."""
    raw, widget = off_table_raw(data)
    page.evaluate("() => LiveBook.startEngine()")
    page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=BOOT_MS)
    page.evaluate("([uid, v]) => LiveBook.set(uid, v)", [data["uid"], raw])
    want = widget.answer(raw)
    got = page.evaluate(
        """(uid) => { const g = (n) => Bokeh.documents.map(d => d.get_model_by_name(uid + "-" + n)).find(Boolean);
                      return {h: g("out").text, status: g("status-line").text}; }""", data["uid"])
    assert "error" not in want, (data["uid"], raw, want)
    assert got["status"] == "" and got["h"] == want["h"], (data["uid"], raw, got["status"])


def type_off_table(page, data: dict) -> None:
    """As a reader: tap the widget's first number box, type a value no table holds, Enter; wait
    for the engine's answer and compare with CPython."""
    raw, widget = off_table_raw(data)
    name = data["names"][data["kinds"].index("number")]
    index = [n for n, k in zip(data["names"], data["kinds"]) if k == "number"].index(name)
    page.locator(f'[data-live="{data["uid"]}"]').scroll_into_view_if_needed()   # embeds it
    page.wait_for_function("(uid) => LiveBook.values(uid) !== null", arg=data["uid"], timeout=30000)
    box = page.locator(f'[data-live="{data["uid"]}"] .live-box input').nth(index)
    box.scroll_into_view_if_needed()
    box.tap()
    box.press("Control+a")
    box.press_sequentially(raw[name], delay=5)
    box.press("Enter")
    page.wait_for_function("([uid, name, v]) => LiveBook.values(uid)[name] === v",
                           arg=[data["uid"], name, raw[name]])
    assert page.evaluate("(uid) => LiveBook.settled(uid)", data["uid"]) == "live:answer"
    got = page.evaluate("(uid) => Bokeh.documents.map(d => d.get_model_by_name(uid + '-out')).find(Boolean).text",
                        data["uid"])
    assert got == widget.answer(raw)["h"], (data["uid"], raw)


def offline_every_chapter_answers_off_table(visit, base: str) -> None:
    """Cut the network, then on every chapter type a value no table holds: the engine (kept by
    the offline cache) answers it as CPython does; no page error, no request to another host."""
    visit.context.set_offline(True)
    for chapter in CHAPTERS:
        rel = f"book/{chapter}.html"
        visit.page.goto(base + rel, wait_until="load")
        off_table_answer(visit.page, number_widget(rel))
    assert visit.errors == [] and visit.off_site == []


def number_widget(rel: str) -> dict:
    return next(d for d in page_widgets(rel) if "number" in d["kinds"])


# --- what the worker knows -------------------------------------------------------------------

def test_service_worker_lists_every_file_with_its_digest_and_when_to_keep_it():
    import hashlib
    files = sw_files()
    groups = {g: {p for p, f in files.items() if f["group"] == g} for g in "apeo"}
    assert groups["p"] == set(site_pages())
    assert {"_static/live.js", "_static/share.js", "_static/offline.js",
            "_static/bokeh_loader.js", "_static/book-styles.css", "_static/widget.css"} <= groups["a"]
    # the stylesheets joined into book-styles.css (book/_ext/theme_css.py) are no page's: not kept
    # in the background, so not downloaded twice
    assert "_static/chrome.css" in groups["o"]
    # a page's widget data (book/_ext/page_tables.py) is kept like every file a page loads
    assert any(p.startswith("_static/tables/trench_crusade-") for p in groups["a"])
    # the search index is a group of its own, kept whole once the reader has searched
    groups["s"] = {p for p, f in files.items() if f["group"] == "s"}
    assert len(groups["s"]) > 50 and all(p.startswith("pagefind/") for p in groups["s"])
    assert sum(p.startswith("_static/bokeh-") for p in groups["a"]) == 2
    # the library and the standard library it reads, in one zip (book/_ext/vendor_assets.py)
    # (the wasm and the zip packed with Zstandard, and their unpacker, where the build packed them)
    packed = r"(\.zst)?" if any(f.endswith(".zst") for f in groups["e"]) else ""
    assert any(re.fullmatch(r"_static/engine/python-\w+\.zip" + packed, f) for f in groups["e"])
    assert any(re.fullmatch(r"_static/pyodide/pyodide\.asm\.wasm" + packed, f) for f in groups["e"])
    assert {"_static/pyodide/pyodide.mjs", "_static/pyodide/pyodide-lock.json"} <= groups["e"]
    assert not packed or any(re.fullmatch(r"_static/engine/fzstd-\w+\.mjs", f) for f in groups["e"])
    # not the runtime's full standard library
    assert "_static/pyodide/python_stdlib.zip" not in files
    assert all(p.startswith(ENGINE) for p in groups["e"])
    # Font Awesome is no longer loaded by any page: not kept (a page that fetches it keeps it)
    assert not any("fontawesome" in p for p in files)
    for path, f in files.items():
        assert not path.startswith(("/", "_sources/")) and "://" not in path
        data = (SITE / path).read_bytes()
        assert f["size"] == len(data) and f["digest"] == hashlib.sha256(data).hexdigest()[:12], path
    # the address a page loads a file by, query included (so the worker finds the page's copy)
    html = (SITE / "book" / "pf2e.html").read_text(encoding="utf-8")
    for ref in re.findall(r'<(?:script|link)[^>]*?(?:src|href)="\.\./(_static/[^"?]+)(\?[^"]*)?"', html):
        assert files[ref[0]]["query"] == (ref[1] or ""), ref
    assert re.fullmatch(r"[0-9a-f]{12}", sw_data()["version"])


def test_manifest_is_linked_from_every_page_and_names_the_book_in_korean():
    manifest = json.loads((SITE / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["lang"] == "ko" and re.search("[가-힣]", manifest["name"])
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    for icon in manifest["icons"]:
        assert (SITE / icon["src"]).is_file()
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    for rel in site_pages():
        if rel == "index.html":          # the root page only redirects to the first chapter
            continue
        html = (SITE / rel).read_text(encoding="utf-8")
        href = re.search(r'<link rel="manifest" href="([^"]+)">', html)
        assert href, rel
        assert (SITE / rel).parent.joinpath(href.group(1)).resolve() == (SITE / "manifest.webmanifest").resolve()


def test_every_page_loads_under_a_sub_path_with_no_failed_request(browser, subpath):
    visit = Visit(browser, subpath.url, service_workers="block")
    start = len(subpath.log)
    try:
        page = visit.page
        for rel in site_pages():
            goto(page, subpath.url, rel)
            assert page.title(), rel
        # BokehJS and the engine (module worker, runtime, library) load from relative addresses too
        page.goto(subpath.url + "book/pf2e.html", wait_until="load")
        page.evaluate("() => LiveBook.embedAll()")
        page.evaluate("() => LiveBook.startEngine()")
        page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=BOOT_MS)
        assert visit.errors == [] and visit.failed == [] and visit.off_site == []
        log = subpath.log[start:]
        assert [h for h in log if h.status >= 400] == []
        assert any(h.file.startswith(PREFIX + "_static/pyodide/") for h in log)
        assert any(h.file.startswith(PREFIX + "_static/bokeh-") for h in log)
    finally:
        visit.close()


# --- after one visit ---------------------------------------------------------------------------

def test_offline_after_one_visit_every_page_and_every_table_answer(browser, subpath):
    """One visit to a chapter on a phone, no interaction: the worker keeps every page and what
    pages load, not the engine nor the search index; then, with the network cut, every page
    opens and every widget answers from its table. A reader who searched once online (the
    worker then keeps the whole index) can search offline too."""
    visit, context, page = first_visit(browser, subpath, "book/pf2e.html")
    visit_log = visit.hits
    v = Visit(browser, subpath.url, context=context, page=page)
    try:
        wait_kept(page, "ap")
        kept = kept_paths(page, subpath.url)
        files = sw_files()
        assert kept == {p for p, f in files.items() if f["group"] in "ap"}
        assert not [h for h in visit_log if h.file[len(PREFIX):].startswith(ENGINE)]
        assert not [h for h in visit_log if h.file[len(PREFIX):].startswith("pagefind/")]
        page.goto(subpath.url + "search.html?q=" + "대각선", wait_until="load")
        page.wait_for_selector("#search-results li", timeout=20000)
        wait_kept(page, "s")
        served = len(subpath.log)

        context.set_offline(True)
        for rel in site_pages():
            goto(page, subpath.url, rel)
            assert "연결 없음" not in page.title(), rel
            if rel.startswith("book/") and page_widgets(rel):
                assert change_each_widget(page, rel) >= 1, rel
        page.goto(subpath.url + "search.html?q=" + "주사위", wait_until="load")
        page.wait_for_selector("#search-results li", timeout=20000)
        # nothing reached the server while offline (the browser's own update check of the worker
        # is not covered by Playwright's offline switch; a phone without signal just skips it)
        assert [h.path for h in subpath.log[served:] if h.file != PREFIX + "sw.js"] == []
        assert v.errors == [] and v.off_site == []
        assert [f for f in v.failed if "ERR_INTERNET_DISCONNECTED" not in f] == []
    finally:
        v.close()


def test_the_engine_is_kept_once_used_and_then_answers_offline(browser, subpath):
    """A reader types an off-table value right after opening a chapter (the engine may start
    before the worker controls the page): once answered, the engine is kept without a second
    download, and every chapter's off-table values work with the network cut."""
    v = Visit(browser, subpath.url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start = len(subpath.log)
    try:
        page = v.page
        page.goto(subpath.url + "book/trench_crusade.html", wait_until="load")
        type_off_table(page, number_widget("book/trench_crusade.html"))
        wait_kept(page, "ape")
        engine = [h.file for h in subpath.log[start:] if h.file[len(PREFIX):].startswith(ENGINE)]
        assert engine and len(engine) == len(set(engine)), engine        # each engine file once

        offline_every_chapter_answers_off_table(v, subpath.url)
    finally:
        v.close()


def test_the_footer_button_saves_the_whole_book(browser, subpath):
    """The footer's "책 전체를 기기에 저장": progress, a result message, every file kept; then the
    engine answers offline though it was never used online."""
    v = Visit(browser, subpath.url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = v.page
        page.goto(subpath.url + "book/underface.html", wait_until="load")
        wait_kept(page, "ap")
        box = page.locator(".save-book:not(.save-book--near)")     # the footer's
        button = box.get_by_role("button", name=re.compile("^책 전체를 기기에 저장"))
        button.scroll_into_view_if_needed()
        assert box.is_visible() and "모든 장이 저장되어" in box.locator(".save-book__state").inner_text()
        page.evaluate("""() => { window.__notes = [];
          const el = document.querySelector('.save-book:not(.save-book--near) .save-book__status');
          new MutationObserver(() => window.__notes.push(el.textContent)).observe(el, {childList: true, characterData: true, subtree: true}); }""")
        button.tap()
        status = box.locator(".save-book__status")
        status.filter(has_text="저장했습니다").wait_for(timeout=120000)
        assert status.get_attribute("role") == "status"
        assert "책 전체를 이 기기에 저장했습니다" in status.inner_text()
        notes = page.evaluate("() => window.__notes")
        assert any(re.match(r"저장하는 중… \d+ / \d+", n) for n in notes), notes
        assert kept_paths(page, subpath.url) == set(sw_files())
        poll(page, "() => [...document.querySelectorAll('.save-book__state')].every(e => e.textContent.includes('책 전체가 저장'))")

        v.context.set_offline(True)
        page.goto(subpath.url + "book/hunters_moon.html", wait_until="load")
        off_table_answer(page, number_widget("book/hunters_moon.html"))
        assert v.errors == [] and v.off_site == []
    finally:
        v.close()


def test_save_data_keeps_only_what_the_reader_opened(browser, subpath):
    """With Save-Data the worker downloads nothing in the background: it keeps the open page and
    what the page loaded (from the browser's cache), then what the reader goes on to load (BokehJS
    when a widget is scrolled to); other pages say they were not saved."""
    rel = "book/pf2e.html"
    visit, context, page = first_visit(browser, subpath, rel, save_data=True)
    v = Visit(browser, subpath.url, context=context, page=page)
    try:
        assert visit.part(by_worker=True) == [], [h.path for h in visit.part(by_worker=True)]
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
        loaded = {h.file[len(PREFIX):] for h in visit.hits if h.status == 200} - {"sw.js"}
        poll(page, f"() => caches.keys().then(n => n.length && caches.open(n[0])).then(c => c && c.keys())"
                   f".then(k => k && k.length >= {len(loaded)})")
        assert kept_paths(page, subpath.url) == loaded
        assert not any(p.startswith("_static/bokeh-") for p in loaded)   # no widget was near yet
        assert page.evaluate("() => LiveBook.embedAll()") >= 1      # as scrolling to them does
        assert page.evaluate("() => LiveBook.engineState()") == "off"
        poll(page, "() => caches.keys().then(n => caches.open(n[0])).then(c => c.keys())"
                   ".then(k => k.filter(r => r.url.includes('/_static/bokeh-')).length === 2)")

        context.set_offline(True)
        page.reload(wait_until="load")
        assert change_each_widget(page, rel) >= 1
        page.goto(subpath.url + "book/bfrpg.html", wait_until="load")
        assert page.title() == "연결 없음"
        assert v.errors == [] and v.off_site == []
    finally:
        v.close()


def test_no_control_is_named_like_a_page_model():
    bad = [d["uid"] for rel in site_pages() if rel.startswith("book/") for d in page_widgets(rel)
           if colliding(d)]
    assert bad == []


def test_a_file_not_in_the_list_is_kept_when_first_fetched(browser, tmp_path):
    """A same-origin file the list does not name (e.g. a search index split into chunks that a
    page fetches on demand) is kept as it arrives and answers offline afterwards."""
    site = tmp_path / "site"
    shutil.copytree(SITE, site, ignore=shutil.ignore_patterns("_sources", "*.map", "pyodide"))
    (site / "_chunks").mkdir()
    (site / "_chunks" / "part-1.json").write_text('{"검색": [1, 2]}', encoding="utf-8")
    server = LoggedSite(site, PREFIX)
    v = Visit(browser, server.url)
    try:
        page = v.page
        page.goto(server.url + "book/intro.html", wait_until="load")
        wait_kept(page, "ap")
        fetch = "() => fetch('../_chunks/part-1.json').then(r => r.json())"
        assert page.evaluate(fetch) == {"검색": [1, 2]}
        poll(page, "() => caches.keys().then(n => caches.open(n[0])).then(c => c.match('../_chunks/part-1.json'))"
                   ".then(r => !!r)")
        v.context.set_offline(True)
        assert page.evaluate(fetch) == {"검색": [1, 2]}
        assert len([h for h in server.log if h.file.endswith("part-1.json")]) == 1
    finally:
        v.close()
        server.close()


def test_a_new_build_replaces_the_old_cache(browser, tmp_path):
    """Serve one build, keep it, then a changed build: the new worker copies the unchanged files
    from the old cache (downloading only what changed), keeps them under a new name and deletes
    the old cache once no page of the old build is open; a third build found while a page is open
    is offered by a notice and shown when the reader asks."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
    from offline import write_service_worker

    site = tmp_path / "site"
    shutil.copytree(SITE, site, ignore=shutil.ignore_patterns("_sources", "*.map"))
    server = LoggedSite(site, PREFIX)
    visit = Visit(browser, server.url)
    try:
        old = sw_data(site)["version"]
        visit.page.goto(server.url + "book/intro.html", wait_until="load")
        wait_kept(visit.page, "ap")
        assert visit.page.evaluate("() => caches.keys()") == [f"rulebook-{old}"]
        before = kept_paths(visit.page, server.url)

        intro = site / "book" / "intro.html"
        intro.write_text(intro.read_text(encoding="utf-8").replace("</body>", "<p id='new-build'>새 판</p></body>"),
                         encoding="utf-8")
        new = write_service_worker(site)
        assert new != old
        served = len(server.log)
        visit.page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
        poll(visit.page, "() => navigator.serviceWorker.getRegistration().then(r => !!r.waiting)")
        # the update downloaded the new worker and the one changed page, nothing else
        assert sorted({h.file for h in server.log[served:]}) == [PREFIX + "book/intro.html", PREFIX + "sw.js"]
        visit.page.close()                         # the old build's last page goes
        # watch from a page of the same host outside the book (not a page of either build)
        probe = visit.new_page()
        probe.goto(server.url.replace(PREFIX, "/probe"))
        poll(probe, f"() => caches.keys().then(k => k.join() === 'rulebook-{new}')")
        page = visit.new_page()
        page.goto(server.url + "book/intro.html", wait_until="load")
        assert page.locator("#new-build").count() == 1
        assert page.locator(".live-update").count() == 0
        assert kept_paths(page, server.url) == before

        # a third build while a page is open: the page offers the new one and shows it on request
        intro.write_text(intro.read_text(encoding="utf-8").replace("새 판</p>", "세 번째 판</p>"),
                         encoding="utf-8")
        third = write_service_worker(site)
        page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
        notice = page.locator(".live-update")
        notice.wait_for(state="visible", timeout=60000)
        assert notice.get_attribute("role") == "status" and "새 판" in notice.inner_text()
        assert page.locator("#new-build").inner_text() == "새 판"          # still the open build
        with page.expect_navigation(wait_until="load"):
            notice.get_by_role("button", name="새 판으로 보기").click()
        assert page.locator("#new-build").inner_text() == "세 번째 판"
        assert page.evaluate("() => caches.keys()") == [f"rulebook-{third}"]
        # (the probe page and its icon are outside the book and answered 404 on purpose)
        assert visit.errors == [] and [h for h in server.bad() if h.path.startswith(PREFIX)] == []
    finally:
        visit.close()
        server.close()
