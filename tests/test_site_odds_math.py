"""The built appendix page on generating functions: offline, formulas drawn by the browser
itself (MathML, no math script), the sympy column equal to the book's values."""
from __future__ import annotations

from widgets import trench_crusade as tc
from widgets.views import format as fmt

PAGE = "book/odds_math.html"
UIDS = ["om-tc", "om-bf", "om-pf", "om-uf", "om-hm"]


def test_page_is_offline_and_draws_its_formulas(offline_page):
    offline_page.assert_page_live(PAGE, UIDS)
    page = offline_page.page
    scripts = page.evaluate("() => [...document.scripts].map(s => s.src).filter(Boolean)")
    assert not [s for s in scripts if "mathjax" in s.lower() or "katex" in s.lower()]
    sizes = page.evaluate("""() => {
        const out = [];
        const walk = root => {
          for (const m of root.querySelectorAll('math')) {
            const r = m.getBoundingClientRect(); out.push([r.width, r.height]);
          }
          for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
        };
        walk(document);
        return out;
      }""")
    assert len(sizes) >= 5 and all(w > 20 and h > 10 for w, h in sizes), sizes


def test_modifier_moves_the_generating_function(offline_page):
    offline_page.open(PAGE)
    offline_page.set_value("om-tc-modifier", "2")
    shown = offline_page.visible_text("om-tc")
    for p in tc.success_odds(0, 2).values():
        assert fmt.prob(p) in shown
    assert "✗" not in shown and "✓" in shown
