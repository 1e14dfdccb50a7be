"""The built site's search, used as a reader uses it: type a rule's name into the theme's search
box (390×844 touch screen and desktop) and land on the chapter section that explains it.

The query set (tests/data/search_queries.json: rule names of all five games and the same names
with particles) names the right section by its heading; the anchor comes from the built page.
Also: bookmarked ``search.html?q=…`` addresses, Korean texts, glossary entries after the
sections with their rule links, no search files on a chapter page, offline under a sub-path.
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
import yaml

from conftest import ROOT, SITE, OfflinePage

sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from bench_search import (RESULTS_JS, expected_targets, load_queries, result_target,  # noqa: E402
                          section_anchors, stem)

QUERIES = load_queries()
PHONE = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
DESKTOP = dict(viewport={"width": 1280, "height": 900})
DONE = "() => ['done', 'failed'].includes(document.getElementById('search-results').dataset.state)"
COUNT_TEXT = re.compile(r"^「.+」: \d+곳을 찾았습니다\.$")
PAGE_BOX = ".bd-search-container input[name=q]"      # the search page's own box (the theme's)
pytestmark = pytest.mark.skipif(not (SITE / "pagefind" / "pagefind.js").exists(),
                                reason="the site was built without the search index (no npm at set-up)")


def wait_results(page) -> list[dict]:
    page.wait_for_function(DONE, timeout=20000)
    assert page.evaluate("() => document.getElementById('search-results').dataset.state") == "done"
    return page.evaluate(RESULTS_JS)


def summary(page) -> str:
    return page.locator("#search-results p.search-summary").inner_text().strip()


def type_query(page, box, query: str, touch: bool) -> None:
    """Tap (or click) a search box, replace what it holds with the query, press Enter."""
    box.tap() if touch else box.click()
    box.press("Control+a")
    box.press_sequentially(query, delay=5)
    box.press("Enter")
    page.wait_for_url("**/search.html?q=*")


def open_header_search(page, touch: bool):
    """The theme's search button in the header (the one this screen shows) → its dialog's box."""
    buttons = page.locator("button.search-button__button")
    shown = next(buttons.nth(i) for i in range(buttons.count()) if buttons.nth(i).is_visible())
    shown.tap() if touch else shown.click()
    box = page.locator("#pst-search-dialog input[name=q]")
    box.wait_for(state="visible")
    return box


def check_first(results: list[dict], query: dict) -> str | None:
    """None when the first result is the right section with the query in its snippet."""
    if not results:
        return f"{query['q']}: no results"
    targets = expected_targets(SITE, query)
    first = results[0]
    if result_target(first["href"]) not in targets:
        return f"{query['q']}: first result {first['href']} ({first['title']}), want {sorted(targets)}"
    missing = [w for w in stem(query["q"]) if w not in first["snippet"]]
    if missing:
        return f"{query['q']}: snippet lacks {missing}: {first['snippet']}"
    return None


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_typed_rule_names_land_on_their_section(browser, site_url, device):
    """Queries typed as a reader types them: the first from a chapter's header search button,
    the others into the search page's own box (one page reused)."""
    touch = device == "phone"
    reader = OfflinePage(browser, site_url, **(PHONE if touch else DESKTOP))
    page = reader.open("book/intro.html")
    problems = []
    # the phone types every query; the desktop every other one (all five games, both kinds)
    for i, query in enumerate(QUERIES if touch else QUERIES[::2]):
        box = open_header_search(page, touch) if i == 0 else page.locator(PAGE_BOX)
        type_query(page, box, query["q"], touch)
        results = wait_results(page)
        problems.append(check_first(results, query))
        assert COUNT_TEXT.match(summary(page)), summary(page)
        assert page.input_value(PAGE_BOX) == query["q"]
    assert [p for p in problems if p] == []
    assert reader.errors == [] and reader.off_site == []
    reader.close()


@pytest.mark.parametrize("typed,query", [
    ("사망 임계에", "사망 임계"),               # particle
    ("주문 ＤＣ", "주문 DC"),                    # full-width letters as a Korean keyboard types them
    ("다중+공격+페널티", "다중 공격 페널티"),      # spaces as + in the address
])
def test_bookmarked_address_answers(offline_page, typed, query):
    wanted = next(q for q in QUERIES if q["q"] == query)
    address = "+".join(quote(w) for w in typed.split("+")) if "+" in typed else quote(typed)
    page = offline_page.page
    page.goto(f"{offline_page.base.geturl()}/search.html?q={address}")
    results = wait_results(page)
    assert check_first(results, {**wanted, "q": query}) is None
    shown = typed.replace("+", " ")
    assert page.input_value(PAGE_BOX) == shown
    count = re.fullmatch(rf"「{re.escape(shown)}」: (\d+)곳을 찾았습니다\.", summary(page))
    assert count and int(count.group(1)) >= len(results)
    assert offline_page.errors == []


def test_no_result_and_empty_query_say_so_in_korean(offline_page):
    page = offline_page.page
    base = offline_page.base.geturl()
    page.goto(f"{base}/search.html?q={quote('쀍쀍')}")
    assert wait_results(page) == []
    assert summary(page).startswith("「쀍쀍」에 맞는 곳을 찾지 못했습니다.")
    page.goto(f"{base}/search.html")
    page.wait_for_function(DONE)
    assert summary(page).startswith("찾을 말을 위의 칸에 적고")
    assert page.locator("#search-results").inner_text().count("Search") == 0
    assert offline_page.errors == []


def test_glossary_entries_come_after_sections_with_their_rule_link(offline_page):
    page = offline_page.page
    page.goto(f"{offline_page.base.geturl()}/search.html?q={quote('다중 공격 페널티')}")
    wait_results(page)
    while page.locator("button.book-search-more").count():     # every result, as "더 보기" shows them
        page.locator("button.book-search-more").click()
        page.wait_for_timeout(100)
    kinds = page.locator("#search-results .book-result-title").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert "glossary" in kinds and kinds[0] == "chapter"
    first_glossary = kinds.index("glossary")
    assert set(kinds[first_glossary:]) == {"glossary"}
    entry = page.locator("li.book-result--glossary", has_text="다중 공격 페널티").first
    links = entry.locator(".book-result-rule a").evaluate_all("els => els.map(e => [e.textContent, e.getAttribute('href')])")
    anchor = section_anchors(SITE, "book/pf2e")["다중 공격 페널티"]
    assert links[0] == ["3.4 다중 공격 페널티", f"./book/pf2e.html#{anchor}"]
    assert links[1][1] == "./book/pf2e.html#go=pf-strikes"
    assert entry.locator(".book-result-rule").inner_text().startswith("규칙 보기 → 3.4 다중 공격 페널티 · 계산기 →")


def test_a_word_finds_the_compounds_it_begins(offline_page):
    page = offline_page.page
    page.goto(f"{offline_page.base.geturl()}/search.html?q={quote('유혈')}")
    anchor = section_anchors(SITE, "book/trench_crusade")["유혈낭자"]
    assert ("book/trench_crusade", anchor) in [result_target(r["href"]) for r in wait_results(page)]


def test_tapping_a_result_opens_its_section(browser, site_url):
    reader = OfflinePage(browser, site_url, **PHONE)
    page = reader.page
    page.goto(f"{site_url}/search.html?q={quote('플롯')}")
    wait_results(page)
    first = page.locator("#search-results .book-result-title").first
    anchor = section_anchors(SITE, "book/hunters_moon")["플롯"]
    first.tap()
    page.wait_for_url(f"**/book/hunters_moon.html#{anchor}")
    top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", anchor)
    assert 0 <= top < 844 / 2
    assert reader.errors == [] and reader.off_site == []
    reader.close()


def test_a_chapter_page_downloads_nothing_of_the_search(browser, site_url):
    reader = OfflinePage(browser, site_url, **PHONE)
    seen: list[str] = []
    reader.page.on("request", lambda r: seen.append(r.url))
    reader.page.goto(f"{site_url}/book/pf2e.html", wait_until="networkidle")
    assert [u for u in seen if re.search(r"pagefind|searchindex|search\.js|searchtools|book_search", u)] == []
    reader.close()


def test_search_targets_are_small_same_origin_files():
    """The index is many small files under pagefind/ (what the offline cache must hold)."""
    files = [p for p in (SITE / "pagefind").rglob("*") if p.is_file()]
    assert len(files) > 100 and sum(p.stat().st_size for p in files) < 2_000_000
    assert max(p.stat().st_size for p in files if "fragment" in p.parts) < 20_000
    assert not any(p.name.startswith("pagefind-ui") for p in files)


# --- glossary entries link to their rule's section ----------------------------------------------

def glossary_terms_in_source() -> list[str]:
    text = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    return [line.strip() for block in re.findall(r"```\{glossary\}\n(.*?)```", text, flags=re.S)
            for line in block.splitlines() if line and not line.startswith(" ")]


def test_every_glossary_term_is_declared_once():
    declared = yaml.safe_load((ROOT / "book" / "glossary_sections.yml").read_text(encoding="utf-8"))
    terms = glossary_terms_in_source()
    assert sorted(declared) == sorted(terms)


def _own_html(page_html: str, anchor: str) -> str:
    """A section's own HTML: from its start to its first subsection or its end."""
    start = page_html.index(f'<section id="{anchor}"')
    rest = page_html[start + 10:]
    end = min([i for i in (rest.find("<section "), rest.find("</section>")) if i >= 0])
    return rest[:end]


def test_glossary_links_land_on_sections_that_explain_the_term():
    """Each declared entry links to a section of its page that uses the term (links it to the
    glossary or names it), and to the widgets sitting in that section; null entries link nothing."""
    declared = yaml.safe_load((ROOT / "book" / "glossary_sections.yml").read_text(encoding="utf-8"))
    glossary = (SITE / "book" / "glossary.html").read_text(encoding="utf-8")
    entries = re.findall(r'<dt id="(term-[^"]+)">(.*?)<a class="headerlink".*?</dt>\s*<dd>(.*?)</dd>', glossary, re.S)
    assert len(entries) == len(declared)
    problems = []
    pages: dict[str, str] = {}
    for term_id, raw_term, body in entries:
        term = html.unescape(re.sub(r"<[^>]+>", "", raw_term)).strip()
        rule = re.search(r'<p class="glossary-rule">규칙 보기 → (.*?)</p>', body, re.S)
        if declared[term] is None:
            if rule:
                problems.append(f"{term}: declared null but links {rule.group(1)}")
            continue
        if not rule:
            problems.append(f"{term}: no rule link")
            continue
        links = re.findall(r'<a class="reference internal" href="([^"#]+)(?:#([^"]*))?">(.*?)</a>', rule.group(1))
        page, anchor, label = links[0]
        page_html = pages.setdefault(page, (SITE / "book" / page).read_text(encoding="utf-8"))
        own = _own_html(page_html, anchor) if anchor else page_html.split("<section", 2)[1]
        name = re.sub(r"\s*\([^)]*\)$", "", term)
        if f"glossary.html#{term_id}" not in own and name not in html.unescape(re.sub(r"<[^>]+>", "", own)):
            problems.append(f"{term}: {page}#{anchor} ({label}) neither links nor names the term")
        for widget_page, go, _ in links[1:]:
            uid = go.removeprefix("go=")
            if widget_page != page or f'data-live="{uid}"' not in own:
                problems.append(f"{term}: widget {uid} is not in {page}#{anchor}")
    assert problems == []


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_search_box_text_starts_after_its_icon(browser, site_url, device):
    """The typed query is never drawn under the box's magnifying glass."""
    reader = OfflinePage(browser, site_url, **(PHONE if device == "phone" else DESKTOP))
    try:
        page = reader.page
        page.goto(f"{site_url}/search.html?q=대각선", wait_until="load")
        gap = page.evaluate("""() => {
          const form = document.querySelector('article form.bd-search, .bd-article form.bd-search')
                       || document.querySelector('form.bd-search');
          const i = form.querySelector('i'), drawn = getComputedStyle(i, '::before');
          const right = i.getBoundingClientRect().left + parseFloat(drawn.width) + parseFloat(drawn.marginLeft || 0);
          const box = form.querySelector('input');
          return box.getBoundingClientRect().left + parseFloat(getComputedStyle(box).paddingLeft) - right;
        }""")
        assert gap >= 4
        assert reader.errors == [] and reader.off_site == []
    finally:
        reader.close()
