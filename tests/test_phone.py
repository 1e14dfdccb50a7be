"""Phones: at 390×844 the page never scrolls sideways and no box does either, except a table
wider than the screen, which scrolls in its own box with its first column kept in view, and a
block formula longer than the screen, which scrolls in its own box a keyboard reaches; no table
row breaks out of its columns (a table drawn as cards keeps each value under its column's name);
every control is large enough for a thumb; the grid explorer's squares scale so that a 16×12 plan
fits 360 px (book/_ext/book.css, widgets/views/table.py, widgets/views/static_page.py and
widgets/js/a11y.js). That every column of every table is on screen is tests/test_phone_tables.py."""
from __future__ import annotations

import pytest

from conftest import SITE, OfflinePage

PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
             has_touch=True)
#: Pages with a known sideways box, each with its reason (the test fails once it is fixed).
KNOWN: dict[str, str] = {}
PAGES = [pytest.param(p, marks=pytest.mark.xfail(reason=KNOWN[p], strict=True)) if p in KNOWN else p
         for p in sorted(str(p.relative_to(SITE)) for p in (SITE / "book").rglob("*.html"))]

# Every box (light DOM and Bokeh's shadow roots) that is shown and scrolls sideways, and the
# page's own sideways overflow. A table's own scroll box is allowed when the table's first column
# stays in view (position: sticky).
SIDEWAYS_JS = """() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) out.push("page " + document.documentElement.scrollWidth + " > " + vw);
  const tableBox = (el) => {
    const cls = el.classList;
    if (!cls.contains("table-wrap") && !cls.contains("pst-scrollable-table-container")) return false;
    const first = el.querySelector("table tr > :first-child");
    return !!first && getComputedStyle(first).position === "sticky";
  };
  // the grid explorer's plan pans in its own box, and says so above it (tests/test_site_bfrpg.py)
  const panBox = (el) => el.classList.contains("bfg-pan") && !!el.previousElementSibling
    && el.previousElementSibling.classList.contains("bfg-hint") && !el.previousElementSibling.hidden;
  // a block formula longer than the screen scrolls in its own box, which a keyboard reaches:
  // Chromium lays MathML out on one line, without line breaks of its own (widget.css, a11y.js)
  const formulaBox = (el) => el.localName === "math" && el.getAttribute("display") === "block"
    && el.tabIndex === 0;
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (!el.clientWidth || el.scrollWidth <= el.clientWidth + 1) continue;
      const x = getComputedStyle(el).overflowX;
      if ((x === "auto" || x === "scroll") && !tableBox(el) && !panBox(el) && !formulaBox(el))
        out.push(el.tagName + "." + String(el.className).slice(0, 60) + " scrolls " + el.scrollWidth + " > " + el.clientWidth);
    }
  };
  visit(document);
  for (const w of document.querySelectorAll("[data-live]")) {
    const r = w.getBoundingClientRect();
    if (r.right > vw + 0.5) out.push("widget " + w.dataset.live + " ends at " + r.right);
  }
  return out;
}"""


# Every table row (light DOM and Bokeh's shadow roots) that breaks out of its columns: a cell
# not laid out as a table cell (a reflowed row), cells of one row not side by side, a cell whose
# text runs past its box, a number or an exact probability broken across lines (a compact one
# is its percent over its fraction: each on one line, the percent on top), a caption squeezed
# narrower than its table (one letter per line). A table drawn as cards (table.cards) is a card
# a row instead: its title first across the card, every other value inside the card and under
# its column's name. Returns [problems, rows checked].
TABLES_JS = """() => {
  const out = [];
  let rows = 0;
  const lines = (node) => {
    const r = document.createRange();
    r.selectNodeContents(node);
    const tops = new Set(Array.from(r.getClientRects()).filter(b => b.width > 0).map(b => Math.round(b.top)));
    return tops.size;
  };
  const numberBroken = (c) => {
    const pf = c.querySelector(".pf");
    const fold = c.querySelector("details.ex > summary");
    if (!pf && fold) {        // the reading and 「정확한 값 보기」 each on one line (opened, the fold goes
                              // under the reading and its long fraction may wrap)
      const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.textContent.trim() || n.parentElement.closest("details.ex > span")) continue;
        if (lines(n) > 1) return true;
      }
      return false;
    }
    if (!pf) return lines(c) > 1;
    const pct = pf.lastElementChild, frac = pf.firstChild;
    const r = document.createRange();
    r.selectNodeContents(frac);
    const fracTop = Math.min(...Array.from(r.getClientRects()).map(b => b.top));
    return lines(pct) > 1 || lines(frac) > 1 || !(pct.getBoundingClientRect().top < fracTop - 1);
  };
  const card = (table, name, tr) => {
    const cells = Array.from(tr.cells).filter(c => c.textContent.trim());
    const box = tr.getBoundingClientRect();
    const head = table.tHead ? Array.from(table.tHead.rows[0].cells).map(h => h.textContent.trim()) : [];
    cells.forEach((c, i) => {
      const b = c.getBoundingClientRect();
      if (b.left < box.left - 1 || b.right > box.right + 1) out.push(name + ": card value out of its card: " + c.textContent.slice(0, 30));
      if (c.scrollWidth > c.clientWidth + 1) out.push(name + ": text runs out of its card cell: " + c.textContent.slice(0, 30));
      if (i === 0 && Math.abs(b.width - box.width) > 8) out.push(name + ": card title not across the card");
      const col = Array.from(tr.cells).indexOf(c);
      if (i > 0 && head[col] && (c.dataset.h !== head[col] || getComputedStyle(c, "::before").content !== JSON.stringify(head[col])))
        out.push(name + ": card value without its column name: " + c.textContent.slice(0, 30));
      if (c.classList.contains("num") && numberBroken(c)) out.push(name + ": number broken: " + c.textContent);
    });
  };
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) visit(el.shadowRoot);
    for (const table of root.querySelectorAll("table")) {
      if (!table.offsetParent || table.closest(".bfg, .bf-grid")) continue;
      const name = (table.querySelector("caption") || table.rows[0] || table).textContent.trim().slice(0, 40);
      const cards = table.classList.contains("cards") && getComputedStyle(table).display === "block";
      for (const tr of (cards ? table.tBodies[0].rows : table.rows)) {
        rows++;
        if (cards) { card(table, name, tr); continue; }
        const cells = Array.from(tr.cells);
        const top = cells.length ? cells[0].getBoundingClientRect().top : 0;
        for (const c of cells) {
          const d = getComputedStyle(c).display;
          if (d !== "table-cell") { out.push(name + ": cell shown as " + d); break; }
          if (Math.abs(c.getBoundingClientRect().top - top) > 1) { out.push(name + ": cells not side by side"); break; }
          if (c.scrollWidth > c.clientWidth + 1) out.push(name + ": text runs out of its cell: " + c.textContent.slice(0, 30));
          if ((c.classList.contains("num") || c.closest("table.cum")) && numberBroken(c))
            out.push(name + ": number broken: " + c.textContent);
        }
      }
      const cap = table.querySelector("caption");
      if (cap && cap.getBoundingClientRect().width < Math.min(table.getBoundingClientRect().width, 160) - 1)
        out.push(name + ": caption squeezed to " + Math.round(cap.getBoundingClientRect().width) + "px");
    }
  };
  visit(document);
  return [out, rows];
}"""

# Every control a reader taps (light DOM and Bokeh's shadow roots), shown on the page, that is
# smaller than a thumb: boxes, menus and buttons under 44×44 px; switches and slider handles
# under 24 px (with their touch area), WCAG 2.2 target size.
TARGETS_JS = """() => {
  const out = [];
  let seen = 0;
  const size = (el) => { const b = el.getBoundingClientRect(); return [b.width, b.height]; };
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) visit(el.shadowRoot);
      const b = el.getBoundingClientRect();
      if (!b.width || !b.height) continue;
      let min = 0, what = "";
      if (el.matches("input.bk-input, select.bk-input, .live-share-copy")) { min = 44; what = el.tagName; }
      else if (el.matches(".noUi-handle")) { min = 24; what = "slider handle"; }
      else if (el.matches(".bk-body")) { min = 24; what = "switch"; }
      if (!min) continue;
      seen++;
      const [w, h] = size(el);
      if (Math.min(w, h) < min - 0.5) {
        const where = (() => { let n = el; while (n) { const hit = n.closest && n.closest("[data-live]");
                       if (hit) return hit.dataset.live; const r = n.getRootNode(); n = r.host; } return "?"; })();
        out.push(where + " " + what + " " + Math.round(w) + "x" + Math.round(h));
      }
    }
  };
  visit(document);
  return [out, seen];
}"""

GAMES = ("trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon")
#: The pages a GM reads at the table: every chapter and every quick reference.
READER_PAGES = [f"book/{g}.html" for g in GAMES] + [f"book/quickref/{g}.html" for g in GAMES]


@pytest.fixture
def phone_page(browser, site_url):
    page = OfflinePage(browser, site_url, **PHONE)
    yield page
    assert page.off_site == [], f"requests to other hosts: {page.off_site}"
    page.close()


def open_all(phone_page, path):
    page = phone_page.open(path)
    page.wait_for_timeout(400)  # layout after the widgets render
    return page


@pytest.mark.parametrize("path", PAGES)
def test_no_box_scrolls_sideways_at_390px(phone_page, path):
    page = open_all(phone_page, path)
    assert page.evaluate(SIDEWAYS_JS) == []
    assert phone_page.errors == []


@pytest.mark.parametrize("path", READER_PAGES)
def test_no_table_row_breaks_out_of_its_columns_at_390px(phone_page, path):
    page = open_all(phone_page, path)
    problems, rows = page.evaluate(TABLES_JS)
    assert rows > 0 and problems == []


@pytest.mark.parametrize("path", [p for p in READER_PAGES if "quickref" not in p])
def test_every_control_is_thumb_sized_at_390px(phone_page, path):
    page = open_all(phone_page, path)
    problems, seen = page.evaluate(TARGETS_JS)
    assert seen > 0 and problems == []


def test_tapping_a_number_box_selects_its_value(phone_page):
    page = open_all(phone_page, "book/trench_crusade.html")
    box = page.locator('[data-live="tc-success"] .live-box input').first
    box.tap()
    page.wait_for_timeout(100)
    chosen = box.evaluate("(el) => [el.selectionStart, el.selectionEnd, el.value.length]")
    assert chosen[0] == 0 and chosen[1] == chosen[2] > 0
    box.press_sequentially("3")          # typing replaces the value, as a reader expects
    assert box.input_value() == "3"


def test_grid_explorer_squares_fit_a_phone(phone_page):
    """The explorer's box fits the screen; its squares keep a size one can tap and read (at
    least 32 px, issue 23), so a wider plan pans inside the box (sizes, labels and taps:
    tests/test_site_bfrpg.py::test_grid_squares_and_labels_are_big_enough_on_a_phone)."""
    page = open_all(phone_page, "book/bfrpg.html")
    page.wait_for_function("() => window.__bfGrid && window.__bfGrid['bf-grid']")
    grid = page.locator('[data-live="bf-grid"] .bfg').first
    assert grid.locator("[data-i]").count() == 16 * 12  # the demo plan
    pan = page.locator('[data-live="bf-grid"] .bfg-pan').first.bounding_box()
    assert pan["x"] >= 0 and pan["x"] + pan["width"] <= 390
    assert grid.locator('[data-i="0"]').bounding_box()["width"] >= 32
    page.evaluate("""() => { const m = Bokeh.documents.map(d => d.get_model_by_name('bf-grid-scene'))
                                 .find(Boolean); m.value = 'open30'; }""")
    page.wait_for_timeout(400)
    assert page.locator('[data-live="bf-grid"] .bfg [data-i]').count() == 900
    pan = page.locator('[data-live="bf-grid"] .bfg-pan').first.bounding_box()
    assert pan["x"] + pan["width"] <= 390
    assert page.evaluate(SIDEWAYS_JS) == []


def test_one_stylesheet_draws_the_phone_tables_in_the_page_and_in_every_widget(phone_page):
    """The phone layouts of widgets/views/table.py are one block of rules, in book/_ext/widget.css
    alone, which every page links and every widget view adopts (Bokeh's shadow roots do not see
    the page's stylesheets): a widget's answer table and the page's own are drawn by it."""
    import re
    from conftest import ROOT
    block = re.compile(r"/\* phone tables \*/.*?/\* end phone tables \*/", re.S)
    found = {path.name: len(block.findall(path.read_text(encoding="utf-8")))
             for path in (ROOT / "book" / "_ext").glob("*.css")}
    assert {name for name, n in found.items() if n} == {"widget.css"} and found["widget.css"] == 1
    for layout in ("table.compact", "table.cards", ".swipe-hint"):
        assert layout in (ROOT / "book" / "_ext" / "widget.css").read_text(encoding="utf-8")
    page = open_all(phone_page, "book/pf2e.html")
    styles = page.evaluate("""() => {
        const m = Bokeh.documents.map(d => d.get_model_by_name("pf-strikes-out")).find(Boolean);
        const view = Bokeh.index.find_one(m);
        const table = view.shadow_el.querySelector("table");
        return {host: getComputedStyle(view.el).fontSize, adopted: view.shadow_el.adoptedStyleSheets.length,
                display: table ? getComputedStyle(table).display : null}; }""")
    assert styles["host"] == "15px" and styles["adopted"] >= 2, styles
    assert styles["display"] == "block", styles      # the Strikes table as cards on a phone
