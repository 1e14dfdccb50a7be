"""The page-contents list (「이 페이지의 내용」: ☰ on a phone, the right-hand column on a desktop)
lists every section and subsection that holds a widget, on every page with widgets, as a link
the reader can see and tap at once, not only while that part of the page is on screen
(``show_toc_level: 2`` in _config.yml: the theme's default showed the subsections only then).
"""
from __future__ import annotations

import pytest

from conftest import SITE, OfflinePage

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
DESKTOP = dict(viewport={"width": 1280, "height": 900})
#: Every page of the book with a widget.
PAGES = sorted(p.relative_to(SITE).as_posix() for p in (SITE / "book").rglob("*.html")
               if 'data-live="' in p.read_text(encoding="utf-8"))

#: The sections holding a widget (the innermost section around it), in page order.
HOLDERS_JS = """() => {
  const out = [];
  for (const w of document.querySelectorAll('article.bd-article [data-live]')) {
    const s = w.closest('section');
    if (s && !s.querySelector(':scope > h1') && !out.includes(s.id)) out.push(s.id);
  }
  return out;
}"""
#: The list's links the reader can see and tap (on screen once scrolled to, nothing over them).
LINKS_JS = """(list) => Array.from(document.querySelectorAll(list + ' a.nav-link')).filter(a => {
  a.scrollIntoView({block: 'center'});
  const r = a.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 24), r.top + r.height / 2);
  return r.width > 0 && r.height >= 20 && r.left >= 0 && r.right <= innerWidth + 1 && hit && (hit === a || a.contains(hit));
}).map(a => a.getAttribute('href').slice(1))"""


def test_every_page_with_widgets_is_checked():
    names = {p.split("/")[-1] for p in PAGES}
    assert {"trench_crusade.html", "bfrpg.html", "pf2e.html", "underface.html", "hunters_moon.html"} <= names


@pytest.fixture(scope="module")
def phone(browser, site_url):
    page = OfflinePage(browser, site_url, **PHONE)
    yield page
    assert page.errors == [] and page.off_site == []
    page.close()


@pytest.mark.parametrize("rel", PAGES)
def test_phone_contents_list_holds_every_widget_section(phone, rel):
    page = phone.page
    page.goto(f"{phone.base.geturl()}/{rel}", wait_until="load")
    holders = page.evaluate(HOLDERS_JS)
    assert holders
    page.locator(".bd-header-article .secondary-toggle").tap()
    page.wait_for_function("() => document.getElementById('pst-secondary-sidebar-modal').open")
    shown = page.evaluate(LINKS_JS, "#pst-secondary-sidebar-modal nav.page-toc")
    assert [h for h in holders if h not in shown] == []
    # a subsection's entry takes the reader there and the list gets out of the way
    deepest = next((h for h in reversed(holders)
                    if page.locator(f"#pst-secondary-sidebar-modal nav.page-toc li.toc-h3 > a[href='#{h}']").count()),
                   holders[-1])
    page.locator(f"#pst-secondary-sidebar-modal nav.page-toc a[href='#{deepest}']").tap()
    page.wait_for_function("() => !document.getElementById('pst-secondary-sidebar-modal').open")
    top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", deepest)
    assert 0 <= top < 844 / 2, (deepest, top)


@pytest.mark.parametrize("rel", PAGES)
def test_desktop_contents_column_holds_every_widget_section(browser, site_url, rel):
    reader = OfflinePage(browser, site_url, **DESKTOP)
    page = reader.page
    page.goto(f"{site_url}/{rel}", wait_until="load")
    holders = page.evaluate(HOLDERS_JS)
    shown = page.evaluate(LINKS_JS, "#pst-secondary-sidebar nav.page-toc")
    assert holders and [h for h in holders if h not in shown] == []
    assert reader.errors == [] and reader.off_site == []
    reader.close()
