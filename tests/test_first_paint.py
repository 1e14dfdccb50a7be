"""The first paint waits for stylesheets only (issue 32): no page of the built site has a script
in its head that blocks rendering (every file is loaded with defer, async or as a module), and
the themes' stylesheets, cut to the classes the site uses (book/_ext/theme_css.py), still style
every class a page carries that the theme's full stylesheet styled. Speed itself is measured by
scripts/bench_lighthouse.py; the pages' look by tests/test_phone.py and tests/test_site_nav.py."""
from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SITE

sys.path.insert(0, str(ROOT / "book" / "_ext"))
import page_tables  # noqa: E402
import theme_css  # noqa: E402
import vendor_assets  # noqa: E402

PAGES = sorted(SITE.rglob("*.html")) if SITE.exists() else []
PAGES = [p for p in PAGES if "_static" not in p.parts]
THEME_CSS = Path(__import__("pydata_sphinx_theme").__file__).parent / "theme" / "pydata_sphinx_theme" \
    / "static" / "styles" / "pydata-sphinx-theme.css"


@pytest.mark.parametrize("module", [page_tables, theme_css, vendor_assets])
def test_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(SITE).as_posix())
def test_no_script_in_the_head_blocks_the_first_paint(page):
    head = page.read_text(encoding="utf-8").split("</head>")[0]
    blocking = [tag for tag in re.findall(r"<script\b[^>]*\bsrc=[^>]*>", head)
                if not re.search(r"\b(defer|async)\b|type=\"module\"", tag)]
    assert blocking == []


def selectors(css: str) -> set[str]:
    """Every selector of ``css``'s rules, in @media/@supports/@layer blocks too."""
    out = set()
    for prelude, body in theme_css._split(css):
        if body is None:
            continue
        if prelude.startswith(("@media", "@supports", "@layer")):
            out |= selectors(body)
        elif not prelude.startswith("@"):
            out |= {s.strip() for s in theme_css._selectors(prelude)}
    return out


def test_the_trimmed_theme_keeps_every_selector_the_pages_can_match():
    """Every selector of the theme's full stylesheet whose classes all stand on some page is
    still in the site's (so what the pages show before any script runs is styled as before)."""
    full = THEME_CSS.read_text(encoding="utf-8")
    trimmed = (SITE / "_static" / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8")
    assert len(trimmed) < len(full) / 2
    carried = set()
    for page in PAGES:
        for value in re.findall(r'class="([^"]*)"', page.read_text(encoding="utf-8")):
            carried.update(value.split())
    wanted = {s for s in selectors(full)
              if set(theme_css._CLASS.findall(theme_css._outside_brackets(s))) <= carried}
    assert len(wanted) > 100
    assert wanted - selectors(trimmed) == set()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(SITE).as_posix())
def test_widget_data_comes_after_the_page(page):
    """A page carries none of its widgets' JSON (it comes in a script of its own that the page
    names and live.js loads after the first paint: book/_ext/page_tables.py), and that script
    holds every widget of the page, in order, with the page table a widget answers from."""
    text = page.read_text(encoding="utf-8")
    head = text.split("</head>")[0]
    assert 'class="live-doc"' not in text and 'class="live-data"' not in text
    widgets = re.findall(r'<div class="live-widget" id="([^"]+)" data-live="\1"', text)
    tables = re.findall(r'<link rel="live-tables" href="([^"]+)">', head)
    assert "_static/tables/" not in head.replace(f'href="{tables[0]}"' if tables else "", "")
    if not widgets:
        assert tables == []
        return
    assert len(tables) == 1
    uids, docs, datas = page_tables.read_tables((page.parent / tables[0]).read_text(encoding="utf-8"))
    assert uids == widgets and len(docs) == len(uids) == len(datas)
    assert all(doc["doc"]["roots"] for doc in docs)
    assert [d["uid"] for d in page_tables.page_widgets(SITE, page.relative_to(SITE).as_posix())] == \
        [u for u, d in zip(uids, datas) if d is not None]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(SITE).as_posix())
def test_a_page_waits_for_three_stylesheets_at_most(page):
    """The stylesheets every page links are joined (book/_ext/theme_css.py), around widget.css,
    which widgets/js/a11y.js finds by name; the joined file holds the theme's rules and the book's,
    in the cascade's order."""
    head = page.read_text(encoding="utf-8").split("</head>")[0]
    links = re.findall(r'<link\b[^>]*rel="stylesheet"[^>]*href="([^"?]+)', head) + \
        re.findall(r'<link\b[^>]*href="([^"?]+)[^"]*"[^>]*rel="stylesheet"', head)
    if not links:
        return
    names = [link.rsplit("/", 1)[-1] for link in links]
    assert names[:3] == ["book-styles.css", "widget.css", "book-styles-2.css"]
    assert len(names) <= 4            # the search page adds its own
    joined = (SITE / "_static" / "book-styles.css").read_text(encoding="utf-8")
    theme = (SITE / "_static" / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8")
    chrome = (SITE / "_static" / "chrome.css").read_text(encoding="utf-8")
    assert joined.index(theme.split("\n", 3)[2].strip()) < joined.index(chrome.strip()[:200])
