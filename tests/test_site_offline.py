"""The built site offline after one visit, and published under a sub-path.

The site is served at http://127.0.0.1:PORT/rulebook/ by a server that logs every request it gets
(so requests made by the service worker and the engine's worker, which Playwright's page-level
routing does not see, are checked too) and answers 404 to anything outside /rulebook/.
"""
from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import SITE, SiteHandler
from widgets.views.live import rebuild

PREFIX = "/rulebook/"
BOOT_MS = 60_000
CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]


def site_pages(site: Path = SITE) -> list[str]:
    """Every page of the site, relative to its root."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if p.relative_to(site).parts[0] not in ("_static", "_sources"))


def sw_data(site: Path = SITE) -> dict:
    first = (site / "sw.js").read_text(encoding="utf-8").split("\n", 1)[0]
    return json.loads(re.fullmatch(r"const OFFLINE = (\{.*\});", first).group(1))


def page_widgets(rel: str, site: Path = SITE) -> list[dict]:
    html = (site / rel).read_text(encoding="utf-8")
    return [json.loads(d.replace("<\\/", "</")) for d in
            re.findall(r'<script type="application/json" class="live-data">(.*?)</script>', html, re.S)]


class SubPathServer:
    """The site under /rulebook/; ``log`` holds (path, status) of every request."""

    def __init__(self, site: Path):
        self.site = site
        self.log: list[tuple[str, int]] = []
        server = self

        class Handler(SiteHandler):
            def __init__(self, *a, **kw):
                super().__init__(*a, directory=str(server.site), **kw)

            def send_head(self):
                if not self.path.startswith(PREFIX):
                    self.send_error(404)
                    return None
                return super().send_head()

            def translate_path(self, path):
                return super().translate_path("/" + path[len(PREFIX):] if path.startswith(PREFIX) else path)

            def log_request(self, code="-", size="-"):
                server.log.append((self.path, int(getattr(code, "value", code))))

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass                     # a page left mid-download: the browser hung up

        self.httpd = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}{PREFIX}"

    def bad(self) -> list[tuple[str, int]]:
        return [(p, s) for p, s in self.log if not p.startswith(PREFIX) or s >= 400]

    def close(self):
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def subpath():
    server = SubPathServer(SITE)
    yield server
    server.close()


class Visit:
    """A browser context on the sub-path site that records page errors, failed requests and
    requests to any other host (with the service worker allowed unless told otherwise)."""

    def __init__(self, browser, base: str, **options):
        self.host = urlparse(base).netloc
        self.context = browser.new_context(**options)
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.off_site: list[str] = []
        self.context.on("request", self._request)
        self.context.on("requestfailed", self._failed)
        self.context.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} {r.status}"))
        self.page = self.new_page()

    def new_page(self):
        page = self.context.new_page()
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


def wait_offline_ready(page) -> str:
    """Wait until the service worker has cached the whole site and controls the page; return
    the cache's name."""
    page.wait_for_function("() => window.LiveOffline", timeout=20000)
    assert page.evaluate("() => LiveOffline.registration.then(r => r && r.scope)") is not None
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
    return page.evaluate("() => caches.keys().then(k => k.filter(n => n.startsWith('rulebook-')))")


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
        assert got == data["h"][data["keys"][key][0]], (rel, data["uid"])
        answered += 1
    return answered


def off_table_answer(page, data: dict) -> None:
    """Type an off-table value (a number beyond the slider) and compare with CPython."""
    widget = rebuild(data["origin"])
    name = data["names"][data["kinds"].index("number")]
    control = next(c for c in widget.controls if c.name == name)
    top = control.options[-1]
    value = top + 1 if all(isinstance(o, int) for o in control.options) else top + 0.5
    defaults = dict(zip(data["names"], next(iter(data["keys"])).split("|")))
    raw = {**defaults, name: str(value)}
    page.evaluate("() => LiveBook.startEngine()")
    page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=BOOT_MS)
    page.evaluate("([uid, v]) => LiveBook.set(uid, v)", [data["uid"], raw])
    want = widget.answer(raw)
    got = page.evaluate(
        """(uid) => { const g = (n) => Bokeh.documents.map(d => d.get_model_by_name(uid + "-" + n)).find(Boolean);
                      return {h: g("out").text, status: g("status-line").text}; }""", data["uid"])
    assert "error" not in want, (data["uid"], raw, want)
    assert got["status"] == "" and got["h"] == want["h"], (data["uid"], raw, got["status"])


def test_service_worker_lists_every_file_of_the_site():
    data = sw_data()
    files = set(data["files"])
    assert set(site_pages()) <= files
    assert {"searchindex.js", "manifest.webmanifest", "_static/live.js", "_static/share.js"} <= files
    assert any(f.startswith("_static/bokeh-") for f in files)
    assert any(re.fullmatch(r"_static/engine/widgets-\w+\.json", f) for f in files)
    assert {"_static/pyodide/pyodide.mjs", "_static/pyodide/pyodide.asm.wasm",
            "_static/pyodide/python_stdlib.zip", "_static/pyodide/pyodide-lock.json"} <= files
    assert all(not f.startswith(("/", "_sources/")) and "://" not in f for f in files)
    assert all((SITE / f).is_file() for f in files)
    assert re.fullmatch(r"[0-9a-f]{12}", data["version"])


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
    try:
        page = visit.page
        for rel in site_pages():
            goto(page, subpath.url, rel)
            assert page.title(), rel
        # the engine (module worker, runtime, library) loads from relative addresses too
        page.goto(subpath.url + "book/pf2e.html", wait_until="load")
        page.evaluate("() => LiveBook.startEngine()")
        page.wait_for_function("() => LiveBook.engineState() === 'ready'", timeout=BOOT_MS)
        assert visit.errors == [] and visit.failed == [] and visit.off_site == []
        assert subpath.bad() == []
        assert any(p.startswith(PREFIX + "_static/pyodide/") for p, _ in subpath.log)
    finally:
        visit.close()


def test_offline_after_one_visit_every_chapter_and_every_widget(browser, subpath):
    version = sw_data()["version"]
    visit = Visit(browser, subpath.url)
    try:
        page = visit.page
        page.goto(subpath.url + "book/intro.html", wait_until="load")
        assert wait_offline_ready(page) == [f"rulebook-{version}"]
        scope = page.evaluate("() => LiveOffline.registration.then(r => r.scope)")
        assert scope == subpath.url
        cached = page.evaluate(f"() => caches.open('rulebook-{version}').then(c => c.keys()).then(k => k.length)")
        assert cached == len(sw_data()["files"])
        served = len(subpath.log)

        visit.context.set_offline(True)
        for rel in site_pages():
            goto(page, subpath.url, rel)
            assert "연결 없음" not in page.title(), rel
            if rel.startswith("book/") and page_widgets(rel):
                assert change_each_widget(page, rel) >= 1, rel
        for chapter in CHAPTERS:
            rel = f"book/{chapter}.html"
            page.goto(subpath.url + rel, wait_until="load")
            data = next(d for d in page_widgets(rel) if "number" in d["kinds"])
            off_table_answer(page, data)
        # the search index is there too
        page.goto(subpath.url + "search.html?q=" + "주사위", wait_until="load")
        page.wait_for_selector("#search-results li", timeout=20000)
        # nothing reached the server while offline (the browser's own update check of the worker
        # is not covered by Playwright's offline switch; a phone without signal just skips it)
        assert [p for p, _ in subpath.log[served:] if p != PREFIX + "sw.js"] == []
        assert visit.errors == [] and visit.off_site == []
        assert [f for f in visit.failed if "ERR_INTERNET_DISCONNECTED" not in f] == []
    finally:
        visit.close()


def test_no_control_is_named_like_a_page_model():
    bad = [d["uid"] for rel in site_pages() if rel.startswith("book/") for d in page_widgets(rel)
           if colliding(d)]
    assert bad == []


def test_a_new_build_replaces_the_old_cache(browser, tmp_path):
    """Serve one build, cache it, then a changed build: the new worker caches the new files
    under a new name and deletes the old cache once no page of the old build is open; a third
    build found while a page is open is offered by a notice and shown when the reader asks."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
    from offline import write_service_worker

    site = tmp_path / "site"
    shutil.copytree(SITE, site, ignore=shutil.ignore_patterns("_sources", "*.map"))
    server = SubPathServer(site)
    visit = Visit(browser, server.url)
    try:
        old = sw_data(site)["version"]
        visit.page.goto(server.url + "book/intro.html", wait_until="load")
        assert wait_offline_ready(visit.page) == [f"rulebook-{old}"]

        intro = site / "book" / "intro.html"
        intro.write_text(intro.read_text(encoding="utf-8").replace("</body>", "<p id='new-build'>새 판</p></body>"),
                         encoding="utf-8")
        new = write_service_worker(site)
        assert new != old
        visit.page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
        poll(visit.page, "() => navigator.serviceWorker.getRegistration().then(r => !!r.waiting)")
        visit.page.close()                         # the old build's last page goes
        # watch from a page of the same host outside the book (not a page of either build)
        probe = visit.new_page()
        probe.goto(server.url.replace(PREFIX, "/probe"))
        poll(probe, f"() => caches.keys().then(k => k.join() === 'rulebook-{new}')")
        page = visit.new_page()
        page.goto(server.url + "book/intro.html", wait_until="load")
        assert page.locator("#new-build").count() == 1
        assert page.locator(".live-update").count() == 0

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
        assert visit.errors == [] and [b for b in server.bad() if b[0].startswith(PREFIX)] == []
    finally:
        visit.close()
        server.close()
