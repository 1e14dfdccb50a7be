"""Every column on screen (issue 23, items 1, 2 and 10): on a 390×844 touch phone, with every
widget of the page embedded and every 「N 이상 · N 이하」 fold opened, no cell of any table lies
beyond the screen's right edge, on every page of the book: the chapters, the quick references,
the dice calculator, the glossary (widgets/views/table.py chooses each table's phone layout,
book/_ext/book.css and the widget stylesheet draw it). A table may scroll sideways only when it
says so above it (「옆으로 밀어 보기」) and keeps its first column in view; none of the book's
does today. The widgets' answers are checked again after changes that make them larger.

Each quick reference opens, as a GM screen, with its own contents list linking every section,
and its first section is a table to look up."""
from __future__ import annotations

import pytest

from conftest import SITE, OfflinePage
from widgets.views.table import SWIPE_HINT, Table

PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
             has_touch=True)
PAGES = sorted(str(p.relative_to(SITE)) for p in (SITE / "book").rglob("*.html"))
QUICKREFS = [p for p in PAGES if p.startswith("book/quickref/")]
#: Pages with no table at all (the glossary is a list of terms; the API page shows code).
NO_TABLES = {"book/api.html", "book/glossary.html"}

# Every <details> of the page opened, in the light DOM and in Bokeh's shadow roots.
OPEN_FOLDS_JS = """() => {
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) visit(el.shadowRoot);
    for (const d of root.querySelectorAll("details")) d.open = true;
  };
  visit(document);
}"""

# Every shown table cell (light DOM and shadow roots) whose right edge lies beyond the screen's,
# by table: {name: [cells beyond, table width]}, and the number of cells looked at. A table in
# a box that says it scrolls (.table-wrap.swipe, with its visible hint just above and its first
# column sticky) is left out; one that only claims to is counted.
BEYOND_JS = """(uid) => {
  const vw = document.documentElement.clientWidth, out = {};
  let seen = 0;
  const shown = (el) => { const b = el.getBoundingClientRect(); const s = getComputedStyle(el);
                          return b.width > 0 && b.height > 0 && s.visibility !== "hidden" && b.left >= 0 && b.right <= vw + 0.5; };
  const swipes = (table) => {
    const box = table.closest(".table-wrap.swipe");
    if (!box) return false;
    const hint = box.previousElementSibling;
    const first = table.querySelector("tbody tr > :first-child");
    return !!hint && hint.classList.contains("swipe-hint") && shown(hint) &&
           hint.textContent.includes("옆으로 밀어 보기") && !!first && getComputedStyle(first).position === "sticky";
  };
  const inWidget = (el) => {        // through Bokeh's shadow roots up to the widget's box
    for (let n = el; n; n = n.getRootNode().host) if (n.closest(`[data-live="${uid}"]`)) return true;
    return false;
  };
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) visit(el.shadowRoot);
    for (const table of root.querySelectorAll("table")) {
      if (!table.offsetParent || table.closest(".bfg, .bf-grid")) continue;
      if (uid && !inWidget(table)) continue;
      if (swipes(table)) continue;
      let n = 0;
      for (const c of table.querySelectorAll("td, th")) {
        const b = c.getBoundingClientRect();
        if (!b.width) continue;
        seen++;
        if (b.right > vw + 0.5) n++;
      }
      if (n) {
        const name = (table.querySelector("caption") || table.rows[0] || table).textContent.trim().slice(0, 40);
        out[name] = [n, Math.round(table.getBoundingClientRect().width)];
      }
    }
  };
  visit(document);
  return [out, seen];
}"""


@pytest.fixture
def phone(browser, site_url):
    page = OfflinePage(browser, site_url, **PHONE)
    yield page
    assert page.off_site == [], f"requests to other hosts: {page.off_site}"
    assert page.errors == []
    page.close()


def open_everything(phone, path):
    page = phone.open(path)
    page.evaluate("async () => window.LiveBook && await LiveBook.embedAll()")
    page.wait_for_timeout(300)   # layout after the widgets render
    page.evaluate(OPEN_FOLDS_JS)
    page.wait_for_timeout(100)
    return page


@pytest.mark.parametrize("path", PAGES)
def test_every_table_shows_all_its_columns_on_a_phone(phone, path):
    page = open_everything(phone, path)
    beyond, seen = page.evaluate(BEYOND_JS, None)
    assert beyond == {}, f"cells beyond the right edge of a 390 px screen: {beyond}"
    assert seen > 0 or path in NO_TABLES


# (page, widget, [(control model, value), ...]): answers that grow (more columns, larger
# fractions, longer folds) after a reader's changes; each value is in the page's own table.
BIGGER = [
    ("book/pf2e.html", "pf-strikes", [("pf-strikes-bonus", 22), ("pf-strikes-ac", 14),
                                      ("pf-strikes-agile2", True), ("pf-strikes-agile3", True)]),
    ("book/pf2e.html", "pf-spell", [("pf-spell-save", 30)]),
    ("book/trench_crusade.html", "tc-success", [("tc-success-dice", 10)]),
    ("book/trench_crusade.html", "tc-injury", [("tc-injury-dice", 3), ("tc-injury-bloodbath", True)]),
    ("book/trench_crusade.html", "tc-dice", [("tc-dice-net", 6)]),
    ("book/intro.html", "dice-pool", [("dice-pool-count", 5), ("dice-pool-sides", "12")]),
    ("book/underface.html", "uf-damage", [("uf-damage-weapon", "그레이트 액스"), ("uf-damage-db", "+2D6")]),
    ("book/underface.html", "uf-armor", [("uf-armor-armor", "판금 갑옷")]),
    ("book/hunters_moon.html", "hm-plot", [("hm-plot-weapon_power", 10), ("hm-plot-doom_stage", 4)]),
    ("book/bfrpg.html", "bf-simul", [("bf-simul-a", 40), ("bf-simul-b", 40), ("bf-simul-c", 40)]),
]


@pytest.mark.parametrize("path, uid, changes", BIGGER, ids=[b[1] for b in BIGGER])
def test_widget_answers_keep_every_column_on_screen_after_changes(phone, path, uid, changes):
    page = open_everything(phone, path)
    for name, value in changes:
        attribute = "active" if isinstance(value, bool) else "value"
        phone.set_value(name, value, attribute)
    phone.settle(uid)
    page.evaluate(OPEN_FOLDS_JS)
    page.wait_for_timeout(100)
    beyond, seen = page.evaluate(BEYOND_JS, uid)
    assert seen > 0 and beyond == {}, beyond
    from test_phone import TABLES_JS           # and each row still reads as a row or a card
    problems, _ = page.evaluate(TABLES_JS)
    assert problems == []


def test_a_typed_roll_with_huge_fractions_keeps_every_column_on_screen(phone):
    """20D6 is beyond the dice page's table: the in-page engine answers, with fractions of 16
    digits in a fold that steps through its 101 totals."""
    page = open_everything(phone, "book/dice.html")
    assert phone.type_text("dice-calc", "expr", "20D6") == "live:answer"
    page.evaluate(OPEN_FOLDS_JS)
    page.wait_for_timeout(100)
    beyond, seen = page.evaluate(BEYOND_JS, "dice-calc")
    assert seen > 150 and beyond == {}, (seen, beyond)


def test_a_table_that_scrolls_says_so_and_keeps_its_first_column(phone):
    """The one way a table may pass the edge: its box says 「옆으로 밀어 보기」 on a phone and its
    first column stays; the same table without the hint is counted as beyond the edge."""
    page = open_everything(phone, "book/quickref/pf2e.html")
    head = ["구간"] + [f"단위 {n}ft" for n in range(10, 130, 10)]
    rows = [[f"{k}차"] + [f"{n * k}ft" for n in range(10, 130, 10)] for k in range(1, 4)]
    swipe = Table(head, rows, caption="밀어 보는 표", phone="swipe").html()
    plain = Table(head, rows, caption="밀지 않는 표", phone="table").html()
    page.evaluate("""([a, b]) => { const at = document.querySelector(".bd-article");
                                   at.insertAdjacentHTML("beforeend", a + b); }""", [swipe, plain])
    beyond, _ = page.evaluate(BEYOND_JS, None)
    assert list(beyond) == ["밀지 않는 표"]
    hint = page.locator(".swipe-hint")
    assert hint.is_visible() and hint.inner_text() == SWIPE_HINT
    box = page.locator(".table-wrap.swipe")
    box.evaluate("(el) => { el.scrollLeft = 400; }")
    first = box.locator("tbody tr").first.locator("th").first.bounding_box()
    assert 0 <= first["x"] < 40      # still at the left while the rest scrolls under it


@pytest.mark.parametrize("path", QUICKREFS)
def test_a_quick_reference_opens_with_its_own_contents_list(phone, path):
    page = open_everything(phone, path)
    article = page.locator(".bd-article")
    sections = article.locator("section > section > h2").evaluate_all(
        "(hs) => hs.map(h => [h.closest('section').id, h.textContent.replace('#', '').trim()])")
    nav = article.locator("nav.contents")
    assert nav.count() == 1
    links = nav.locator("a").evaluate_all(
        "(as) => as.map(a => [a.getAttribute('href').slice(1), a.textContent.trim()])")
    assert links == sections and len(links) >= 3
    # it comes before the first section, and a thumb can tap each link
    assert nav.bounding_box()["y"] < article.locator("section > section").first.bounding_box()["y"]
    for i in range(nav.locator("a").count()):
        assert nav.locator("a").nth(i).bounding_box()["height"] >= 44
    # the player's side (「내 차례」, issue 29) opens it; the GM's side comes next, and its first
    # section is a table a GM looks a roll up in, not prose
    assert sections[0][1].startswith(("내 차례", "내 턴", "내 라운드"))
    assert article.locator("section > section").nth(1).locator("table").count() >= 1
