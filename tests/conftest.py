"""Shared fixtures: the built site served on localhost and a headless Debian chromium that
records (and blocks) every request to another host."""
from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
# BOOK_SITE points the browser tests at another build (e.g. one made with a private --toc).
SITE = Path(os.environ.get("BOOK_SITE", ROOT / "_build" / "html"))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


sys.path.insert(0, str(ROOT / "scripts"))
from dev import SiteHandler  # noqa: E402  (the same file types as `dev.py serve`)
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import page_tables  # noqa: E402  (a built page's widget data, moved out of the page)


def page_widgets(rel: str, site: Path = SITE) -> list[dict]:
    """The page tables (``live-data``) of the built page ``rel``, in page order."""
    return page_tables.page_widgets(site, rel)


class _QuietHandler(SiteHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def site_url():
    if not (SITE / "index.html").exists():
        subprocess.run([str(Path(sys.executable).parent / "jupyter-book"), "build", ".", "-W", "-n",
                        "--keep-going"], cwd=ROOT, check=True)
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is missing: run `python3 scripts/dev.py test`, which installs it")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class OfflinePage:
    """A page whose requests to any host but the local server are aborted and recorded."""

    def __init__(self, browser, base_url, **context_options):
        self.base = urlparse(base_url)
        # The site's service worker would answer requests before page.route sees them (Playwright
        # docs), so pages under test run without it unless a test asks (tests/test_site_offline.py).
        context_options.setdefault("service_workers", "block")
        self.context = browser.new_context(**context_options)  # e.g. viewport, color_scheme
        self.page = self.context.new_page()
        self.page.set_default_timeout(10000)
        self.off_site: list[str] = []
        self.errors: list[str] = []
        self.stacks: list[str] = []   # where each page error came from, for the failure message
        self.page.route("**/*", self._route)
        self.page.on("pageerror", lambda exc: (self.errors.append(str(exc)), self.stacks.append(exc.stack or "")))

    def _route(self, route):
        url = urlparse(route.request.url)
        if url.scheme in ("data", "blob") or (url.hostname, url.port) == (self.base.hostname, self.base.port):
            route.continue_()
        else:
            self.off_site.append(route.request.url)
            route.abort()

    def open(self, path: str):
        self.page.goto(f"{self.base.geturl()}/{path}", wait_until="load")
        # widgets embed when scrolled near; tests want them all at once
        self.page.evaluate("() => window.LiveBook && LiveBook.embedAll()")
        self.page.wait_for_function("() => !document.querySelector('[data-live]') || "
                                    "(window.Bokeh && Bokeh.documents.length > 0)")
        return self.page

    def type_value(self, uid: str, control: str, text: str) -> str:
        """Type text into a number box as a reader would (select all, type, Enter); wait until
        the widget shows its answer (from the table or the engine); return ``"live:answer"``,
        or ``"live:error"`` when the input is refused (the Korean message is in the status)."""
        box = self.page.locator(f'[data-live="{uid}"] .live-box input').nth(self.number_index(uid, control))
        box.click()
        box.press("Control+a")
        box.press_sequentially(text, delay=5)
        box.press("Enter")
        return self.answer_to(uid, control, text)

    def answer_to(self, uid: str, control: str, text: str) -> str:
        """Wait until the widget has taken ``text`` as the control's value (the page's change
        events may come a moment after the keys) and shows the answer to it."""
        self.page.wait_for_function("([uid, c, t]) => { const v = LiveBook.values(uid); "
                                    "return v !== null && v[c] === t; }", arg=[uid, control, text])
        return self.page.evaluate("(uid) => LiveBook.settled(uid)", uid)

    def type_text(self, uid: str, control: str, text: str, paste: bool = False) -> str:
        """Type into a text control's box as a reader would (or paste it in one go); wait for
        the answer (as :meth:`type_value`)."""
        index = self.page.evaluate(
            """([uid, control]) => {
                 const d = JSON.parse(document.querySelector(`[data-live="${uid}"] script.live-data`).textContent);
                 return d.names.filter((n, i) => d.kinds[i] === "text").indexOf(control);
               }""", [uid, control])
        box = self.page.locator(f'[data-live="{uid}"] .live-text input').nth(index)
        box.click()
        box.press("Control+a")
        if paste:
            box.fill(text)
        else:
            box.press_sequentially(text, delay=5)
        box.press("Enter")
        return self.answer_to(uid, control, text)

    def number_index(self, uid: str, control: str) -> int:
        """Position of a number control among the widget's number boxes."""
        return self.page.evaluate(
            """([uid, control]) => {
                 const el = document.querySelector(`[data-live="${uid}"] script.live-data`);
                 const d = JSON.parse(el.textContent);
                 return d.names.filter((n, i) => d.kinds[i] === "number").indexOf(control);
               }""", [uid, control])

    def status_text(self, uid: str) -> str:
        return self.text_of(f"{uid}-status-line")

    def set_value(self, name: str, value, attribute: str = "value"):
        """Set a Bokeh control as user input would (fires its CustomJS); for a live widget's
        control, wait until the widget shows its answer (from the table at once, or from the
        in-page engine for values beyond the table)."""
        self.page.evaluate(
            """([name, value, attr]) => {
                 for (const doc of Bokeh.documents) {
                   const m = doc.get_model_by_name(name);
                   if (m) { m[attr] = value; return; }
                 }
                 throw new Error("no model " + name);
               }""", [name, value, attribute])
        self.settle(name)

    def settle(self, name: str) -> None:
        """Wait until the live widget owning a model (a control, ``-out``, ``-bars``, or the uid
        itself) shows the answer to its latest change, and the browser has painted it."""
        self.page.evaluate(
            """async (name) => {
                 if (!window.LiveBook) return;
                 for (const el of document.querySelectorAll(".live-widget[data-live]")) {
                   const uid = el.dataset.live, data = el.querySelector("script.live-data");
                   if (!data || !(name === uid || name.startsWith(uid + "-"))) continue;
                   const rest = name.slice(uid.length + 1).replace(/-box$/, "");
                   const names = JSON.parse(data.textContent).names;
                   if (name === uid || names.includes(rest) ||
                       ["out", "bars", "status-line", "bar-plot"].includes(rest)) {
                     await LiveBook.settled(uid);
                     await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
                     return;
                   }
                 }
               }""", name)

    def text_of(self, name: str) -> str:
        self.settle(name)
        return self.page.evaluate(
            """(name) => {
                 for (const doc of Bokeh.documents) {
                   const m = doc.get_model_by_name(name);
                   if (m) return m.text;
                 }
                 throw new Error("no model " + name);
               }""", name)

    def visible_text(self, uid: str) -> str:
        """Text the reader sees in a widget's output (Playwright CSS pierces Bokeh's shadow DOM)."""
        self.settle(uid)
        return self.page.locator(f'[data-live="{uid}"] .live-out .bk-clearfix').inner_text()

    def opened_text(self, uid: str) -> str:
        """The text of a widget's output once the reader has tapped every 「정확한 값 보기」 in it
        (each long exact fraction folded behind one), each opened fraction read with the
        percent before it as ``fraction (percent)`` (:func:`widget_checks.opened`), as
        :func:`widgets.views.format.prob` writes a short one."""
        import html
        import re

        from widget_checks import opened
        self.settle(uid)
        out = self.page.locator(f'[data-live="{uid}"] .live-out .bk-clearfix')
        # one tap at a time (a layout the screen does not show is skipped): the list of closed
        # ones changes with each tap
        closed = out.locator("details.ex:not([open]) > summary").locator("visible=true")
        for _ in range(500):
            if closed.count() == 0:
                break
            closed.first.click()
        assert closed.count() == 0
        markup = re.sub(r"<br\s*/?>|</(p|tr|li|div|h\d)>", "\n", opened(out.inner_html()))
        return html.unescape(re.sub(r"<[^>]+>", " ", markup))

    def bar_labels(self, uid: str) -> list[str]:
        """Hover labels (exact probabilities) of a widget's plotted bars."""
        self.settle(uid)
        return self.page.evaluate(
            "(name) => Bokeh.documents.map(d => d.get_model_by_name(name)).find(Boolean).data.t",
            f"{uid}-bars")

    def assert_page_live(self, path: str, uids: list[str], code_hidden: bool = True):
        """Open a page and check every widget rendered from local files, no code cell is shown
        (except on pages that document code) and no script failed (sphinx-thebe's duplicate
        declaration is harmless)."""
        page = self.open(path)
        for uid in uids:
            assert page.locator(f'[data-live="{uid}"] .bk-Column').count() >= 1, uid
            assert self.text_of(f"{uid}-out"), uid
        if code_hidden:
            assert page.locator("div.cell_input").count() == 0
        assert self.errors == []
        return page

    def close(self):
        self.context.close()


@pytest.fixture
def offline_page(browser, site_url):
    page = OfflinePage(browser, site_url)
    yield page
    assert page.off_site == [], f"requests to other hosts: {page.off_site}"
    page.close()
