"""Issue 29: no answer shows a long exact fraction inline. A fraction longer than
:data:`~widgets.views.table.INLINE_FRACTION_CHARS` waits behind a 「정확한 값 보기」 disclosure
(``<details class="ex">``), its percent read first; short ones stay inline. Checked on what the
reader gets: every widget of every built page, at each of its page table's first answers
(computed by the widget, as the page table is), and the built pages' own text (the notebooks'
stored outputs: worked fights, tables)."""
from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest

from conftest import SITE, page_widgets
from widgets.views.live import rebuild
from widgets.views.table import EXACT_SUMMARY, INLINE_FRACTION_CHARS, prob_cell, readable

#: A disclosure of exact values (its contents are what the reader opens on demand).
FOLD = re.compile(r'<details class="ex"><summary>[^<]*</summary>.*?</details>', re.S)
#: Scripts, styles and the page tables' data (what a reader never reads as such).
HIDDEN = re.compile(r"<(script|style)\b.*?</\1>", re.S)
FRACTION = re.compile(r"(?<![\d/.])\d+/\d+(?![\d/])")


def long_inline(markup: str) -> list[str]:
    """The exact fractions longer than the limit that ``markup`` shows outside a disclosure."""
    shown = html.unescape(re.sub(r"<[^>]+>", " ", FOLD.sub(" ", HIDDEN.sub(" ", markup))))
    return [f for f in FRACTION.findall(shown) if len(f) > INLINE_FRACTION_CHARS]


def test_a_long_fraction_is_folded_and_kept_exact():
    p = Fraction(206038236700242559217, 2302853330424305811456)
    for markup in (prob_cell(p).inner(), readable(p, markup=True)):
        assert long_inline(markup) == [], markup
        folded = FOLD.search(markup).group(0)
        assert EXACT_SUMMARY in folded and f"{p.numerator}/{p.denominator}" in folded
    assert long_inline(f"<p>{p.numerator}/{p.denominator}</p>")          # the check can fail
    short = Fraction(1381, 7776)
    assert "1381/7776" in prob_cell(short).inner() and "<details" not in readable(short, markup=True)


def built_pages() -> list[str]:
    return sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html")
                  if "_static" not in p.relative_to(SITE).parts)


def every_widget(site_url) -> list[dict]:
    """Each widget's origin once (a widget can be on more than one page)."""
    seen, out = set(), []
    for rel in built_pages():
        for data in page_widgets(rel):
            key = repr(sorted(data["origin"].items()))
            if key not in seen:
                seen.add(key)
                out.append(data["origin"])
    return out


def test_no_widget_answer_shows_a_long_fraction_inline(site_url):
    origins = every_widget(site_url)
    assert len(origins) > 40
    found = []
    for origin in origins:
        widget = rebuild(origin)
        for values in widget.first_moves()[0]:
            bad = long_inline(widget.entry(widget.shown(**values))["h"])
            if bad:
                found.append((widget.uid, bad[0]))
                break
    assert found == []


def test_no_built_page_shows_a_long_fraction_inline(site_url):
    found = [(rel, bad[0]) for rel in built_pages()
             if (bad := long_inline((SITE / rel).read_text(encoding="utf-8")))]
    assert found == []
