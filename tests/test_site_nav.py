"""The theme's chrome as a reader meets it: on a phone (390×844, touch) the header's ☰ opens the
chapter list and the page-contents button the page's sections, on every page of the book; on a
desktop ☰ collapses and restores the sidebar; search stays reachable; the chrome (header,
sidebars, footer, their tooltips and screen-reader names) speaks Korean.

pydata-sphinx-theme 0.17 under sphinx-book-theme 1.3 put a second `.primary-toggle` in its own
header and hooked up only that one (pydata-sphinx-theme #2451, sphinx-book-theme #988), so the
buttons a reader sees did nothing; `navbar_persistent: []` (_config.yml) leaves that header out.
One browser context per screen, one page reused across the book's pages.
"""
from __future__ import annotations

import re
from urllib.parse import urljoin, urlparse

import pytest

from conftest import SITE, OfflinePage

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
#: every page of the site but the root's index.html, which only redirects to the first chapter
PAGES = sorted(rel for rel in (p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html"))
               if rel.split("/")[0] not in ("_static", "_sources") and rel != "index.html")
BOOK = sorted(p for p in PAGES if p.startswith("book/"))
CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]
ROOT_DOC = "book/intro.html"           # the book's first page: the sidebar's title links to it


@pytest.fixture(scope="module")
def phone(browser, site_url):
    page = OfflinePage(browser, site_url, **PHONE)
    yield page
    assert page.off_site == [] and page.errors == []
    page.close()


def goto(phone, rel: str):
    page = phone.page
    page.goto(f"{phone.base.geturl()}/{rel}", wait_until="load")
    return page


def is_open(page, dialog_id: str) -> bool:
    return page.evaluate("(id) => document.getElementById(id).open", dialog_id)


# every link of a list is on screen and is what a tap there hits (nothing covers it)
TAPPABLE_JS = """(selector) => Array.from(document.querySelectorAll(selector)).map(a => {
  a.scrollIntoView({block: "center"});
  const r = a.getBoundingClientRect();
  const x = r.left + Math.min(r.width / 2, 24), y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {href: a.href, text: a.textContent.trim(), ok: r.width > 0 && r.height > 0 && r.left >= 0 &&
          r.right <= innerWidth + 1 && !!hit && (hit === a || a.contains(hit))};
})"""


def tap_outside(page, dialog_id: str) -> None:
    """Tap the dimmed page beside an open dialog (how a phone user dismisses it)."""
    box = page.locator(f"#{dialog_id}").bounding_box()
    width = page.viewport_size["width"]
    x = (box["x"] + box["width"] + width) / 2 if box["x"] + box["width"] < width - 20 else box["x"] / 2
    page.touchscreen.tap(x, page.viewport_size["height"] / 2)


def book_links(site_url: str, rel: str) -> set[str]:
    """Pages the sidebar should list: every page of the book but its first (the title's link)."""
    return {urljoin(f"{site_url}/", p) for p in BOOK if p != ROOT_DOC}


@pytest.mark.parametrize("rel", PAGES)
def test_phone_menu_opens_the_chapter_list_and_closes(phone, site_url, rel):
    page = goto(phone, rel)
    assert page.locator(".primary-toggle").count() == 1           # no hidden twin takes the listener
    toggle = page.locator(".bd-header-article .primary-toggle")
    assert toggle.is_visible()
    toggle.tap()
    page.wait_for_function("() => document.getElementById('pst-primary-sidebar-modal').open")
    links = page.evaluate(TAPPABLE_JS, "#pst-primary-sidebar-modal nav.bd-docs-nav a")
    assert {urlparse(link["href"])._replace(fragment="").geturl() for link in links} == book_links(site_url, rel)
    assert all(link["ok"] for link in links), [link["text"] for link in links if not link["ok"]]
    assert all(re.search("[가-힣]", link["text"]) for link in links)
    tap_outside(page, "pst-primary-sidebar-modal")
    page.wait_for_function("() => !document.getElementById('pst-primary-sidebar-modal').open")
    # the list goes back to its place (the theme moves it into the dialog and out again)
    page.wait_for_selector("#pst-primary-sidebar nav.bd-docs-nav", state="attached", timeout=5000)


@pytest.mark.parametrize("rel", PAGES)
def test_phone_contents_button_shows_the_page_sections(phone, rel):
    page = goto(phone, rel)
    sections = page.evaluate("""() => Array.from(document.querySelectorAll("article.bd-article section > h2"))
                                  .map(h => [h.closest("section").id, h.textContent.replace(/#$/, "").trim()])""")
    toggle = page.locator(".bd-header-article .secondary-toggle")
    if not sections:                                  # a page without sections has no contents list
        assert toggle.count() == 0 or not toggle.is_visible()
        return
    assert toggle.is_visible()
    toggle.tap()
    page.wait_for_function("() => document.getElementById('pst-secondary-sidebar-modal').open")
    links = [link for link in page.evaluate(TAPPABLE_JS, "#pst-secondary-sidebar-modal nav.page-toc > ul > li > a")]
    assert [[urlparse(link["href"]).fragment, link["text"]] for link in links] == sections
    assert all(link["ok"] for link in links), [link["text"] for link in links if not link["ok"]]
    tap_outside(page, "pst-secondary-sidebar-modal")
    page.wait_for_function("() => !document.getElementById('pst-secondary-sidebar-modal').open")
    # a tap on a section jumps there and the list gets out of the way
    toggle.tap()
    page.wait_for_function("() => document.getElementById('pst-secondary-sidebar-modal').open")
    target = sections[-1][0]
    page.locator(f'#pst-secondary-sidebar-modal nav.page-toc a[href="#{target}"]').tap()
    page.wait_for_function("() => !document.getElementById('pst-secondary-sidebar-modal').open")
    top, header = page.evaluate("""(id) => [document.getElementById(id).getBoundingClientRect().top,
                                          document.querySelector(".bd-header-article").getBoundingClientRect().bottom]""",
                                target)
    assert header - 1 <= top < page.viewport_size["height"] / 2, (top, header)


def test_phone_search_is_one_tap_away(phone):
    page = goto(phone, "book/pf2e.html")
    page.locator(".bd-header-article .search-button").tap()
    box = page.locator("#pst-search-dialog input[name=q]")
    box.wait_for(state="visible")
    assert box.get_attribute("placeholder") == "책에서 검색…"
    box.fill("방어도")
    with page.expect_navigation(wait_until="load"):
        box.press("Enter")
    assert urlparse(page.url).path.endswith("/search.html") and "q=" in urlparse(page.url).query


def test_desktop_menu_collapses_and_restores_the_sidebar(browser, site_url):
    desk = OfflinePage(browser, site_url, viewport={"width": 1280, "height": 800})
    try:
        page = desk.open("book/pf2e.html")
        sidebar = page.locator("#pst-primary-sidebar")
        article = page.locator("article.bd-article")
        assert sidebar.is_visible()
        left = article.bounding_box()["x"]
        search = page.locator(".bd-header-article .search-button")
        assert not search.is_visible()                   # search lives in the sidebar here
        page.locator(".bd-header-article .primary-toggle").click()
        page.wait_for_function("() => !document.getElementById('pst-primary-sidebar').checkVisibility({visibilityProperty: true})")
        assert not is_open(page, "pst-primary-sidebar-modal")   # no dialog on a wide screen
        # the theme's slide, however long it takes on a loaded machine: the page took the room
        page.wait_for_function("(left) => document.querySelector('article.bd-article')"
                               ".getBoundingClientRect().x < left - 1", arg=left)
        assert search.is_visible()                       # and search moved to the header
        page.locator(".bd-header-article .primary-toggle").click()
        page.wait_for_function("() => document.getElementById('pst-primary-sidebar').checkVisibility({visibilityProperty: true})")
        page.wait_for_function("(left) => Math.abs(document.querySelector('article.bd-article')"
                               ".getBoundingClientRect().x - left) < 2", arg=left)   # slid back
        assert desk.errors == [] and desk.off_site == []
    finally:
        desk.close()


BACK_TO_TOP_JS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const b = box(document.getElementById("pst-back-to-top")), h = box(document.querySelector(".bd-header-article"));
  const items = Array.from(document.querySelectorAll(".bd-header-article .header-article-item")).map(box);
  const inside = b.top >= h.top && b.bottom <= h.bottom && b.left >= h.left && b.right <= h.right;
  const clear = items.every(r => b.right <= r.left || b.left >= r.right || b.bottom <= r.top || b.top >= r.bottom);
  return {shown: b.width > 0, inside, clear};
}"""


@pytest.mark.parametrize("width", [320, 390, 800, 1100])
def test_back_to_top_sits_in_the_header_and_covers_nothing(browser, site_url, width):
    """The theme's "맨 위로" shows when the reader scrolls back up; it sits in the empty middle of
    the article header (which stays on screen), not over the page's text or a chart's legend."""
    view = OfflinePage(browser, site_url, viewport={"width": width, "height": 800}, has_touch=width < 992)
    try:
        page = view.open("book/pf2e.html")
        page.evaluate("() => window.scrollTo(0, 3000)")
        page.wait_for_timeout(200)
        page.evaluate("() => window.scrollTo(0, 2700)")
        page.wait_for_function("() => document.getElementById('pst-back-to-top').getBoundingClientRect().width > 0")
        where = page.evaluate(BACK_TO_TOP_JS)
        assert where == {"shown": True, "inside": True, "clear": True}, where
        page.locator("#pst-back-to-top").click()
        page.wait_for_function("() => window.scrollY === 0")
    finally:
        view.close()


# --- the chrome in Korean ------------------------------------------------------------------------

CHROME = ["#pst-skip-link", "#pst-back-to-top", "#pst-search-dialog", "#pst-header", ".bd-header-article",
          "#pst-primary-sidebar", "#pst-secondary-sidebar", "footer.prev-next-footer", "footer.bd-footer-content",
          "footer.bd-footer"]
#: the book's own words inside the chrome: page and section titles (some carry the games'
#: English names), the book's title
CONTENT = "nav.bd-docs-nav a, nav.page-toc a, .prev-next-title, .navbar-brand"
ATTRS = ["aria-label", "title", "placeholder", "alt", "data-bs-title", "data-bs-original-title"]
#: key names on the search field (Ctrl+K) and the unit of a download size
ALLOWED = {"Ctrl", "MB"}

CHROME_WORDS_JS = """([roots, content, attrs]) => {
  const out = [];
  for (const sel of roots) for (const root of document.querySelectorAll(sel)) {
    for (const el of [root, ...root.querySelectorAll("*")]) {
      if (el.closest(content)) continue;
      for (const a of attrs) { const v = el.getAttribute(a); if (v) out.push([sel, a, v]); }
    }
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const p = n.parentElement;
      if (!n.textContent.trim() || p.closest("script, style, " + content)) continue;
      out.push([sel, "text", n.textContent.trim()]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("rel", ["book/intro.html"] + [f"book/{c}.html" for c in CHAPTERS] +
                         ["book/quickref/pf2e.html", "book/glossary.html", "search.html"])
def test_no_english_chrome_text(phone, rel):
    page = goto(phone, rel)
    page.mouse.wheel(0, 2000)                            # the back-to-top button shows on the way up
    page.mouse.wheel(0, -500)
    # hovering a header button shows its tooltip (Bootstrap copies the title)
    page.locator(".bd-header-article .theme-switch-button").hover()
    words = page.evaluate(CHROME_WORDS_JS, [CHROME, CONTENT, ATTRS])
    assert any(a == "text" and "맨 위로" in v for _, a, v in words)
    assert any(a == "text" and "본문으로 건너뛰기" in v for _, a, v in words)
    assert any("만든 이" in v for _, a, v in words) and not any("으로 전투" in v for _, a, v in words)
    english = [(where, a, v) for where, a, v in words
               if set(re.findall(r"[A-Za-z]{2,}", v)) - ALLOWED]
    assert english == []
