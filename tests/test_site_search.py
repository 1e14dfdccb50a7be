"""The built site's search, used as a reader uses it: type a rule's name into the theme's search
box (390×844 touch screen and desktop) and land on the chapter section that explains it.

The query set (tests/data/search_queries.json: rule names of all five games, the same names
with particles, and armour and weapon names readers know) names the right section by its
heading; the anchor comes from the built page. Results come as the reader types, without
Enter (two characters and a pause), in the header's search box of any page and on the search
page. Armour and weapon names (book/search_names.yml) find every table that rules them, the
ones whose name comes from the core rules labelled 보충. Also: bookmarked ``search.html?q=…``
addresses, Korean texts, glossary entries after the sections with their rule links, nothing of
the search on a chapter page until the reader types, offline under a sub-path.
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

import pytest
import yaml

from conftest import ROOT, SITE, OfflinePage

sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from bench_search import (RESULTS_JS, check_names, expected_targets, load_queries,  # noqa: E402
                          result_target, section_anchors, stem)
from book_search import read_names  # noqa: E402
from glossary_rules import split_target  # noqa: E402

QUERIES = load_queries()
PHONE = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
DESKTOP = dict(viewport={"width": 1280, "height": 900})
DONE = "() => ['done', 'failed'].includes(document.getElementById('search-results').dataset.state)"
COUNT_TEXT = re.compile(r"^「.+」: \d+곳을 찾았습니다\.$")
PAGE_BOX = ".bd-search-container input[name=q]"      # the search page's own box (the theme's)
DIALOG_BOX = "#pst-search-dialog input[name=q]"      # the header's search box (in the theme's dialog)
DIALOG_RESULTS = "#pst-search-dialog #search-results"
#: The results box shows the answer to this query (not an earlier one still on screen).
ANSWERED = """([box, q]) => { const o = document.querySelector(box);
  return !!o && o.dataset.state === 'done' && o.dataset.query === q; }"""
#: 「결과 더 보기」 has listed more than ``shown`` results and is gone or idle again.
MORE_SHOWN = """(shown) => { const more = document.querySelector('button.book-search-more');
  return document.querySelectorAll('#search-results .book-result-title').length > shown
    && !(more && more.getAttribute('aria-busy') === 'true'); }"""
pytestmark = pytest.mark.skipif(not (SITE / "pagefind" / "pagefind.js").exists(),
                                reason="the site was built without the search index (no npm at set-up)")


def wait_results(page, query: str | None = None, box: str = "#search-results") -> list[dict]:
    """The results once the box shows them (for ``query``, when given: typing answers each
    query in turn, so an earlier answer may still be on screen)."""
    if query is None:
        page.wait_for_function(DONE, timeout=20000)
        assert page.evaluate("() => document.getElementById('search-results').dataset.state") == "done"
    else:
        page.wait_for_function(ANSWERED, arg=[box, query.strip()], timeout=20000)
    return page.evaluate(RESULTS_JS, box)


def summary(page) -> str:
    return page.locator("#search-results p.search-summary").inner_text().strip()


def type_query(page, box, query: str, touch: bool, delay: int = 5) -> None:
    """Tap (or click) a search box and type the query over what it holds, key by key (no Enter:
    the results come as the reader types)."""
    box.tap() if touch else box.click()
    box.press("Control+a")
    box.press_sequentially(query, delay=delay)


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


def check_query(results: list[dict], query: dict) -> list[str]:
    """What is wrong with a query's results: the first result, and for an armour or weapon name
    the tables that rule it and their 보충 labels."""
    problems = [check_first(results, query)]
    if "also" in query or "core" in query:
        problems.append(check_names(SITE, query, results))
    return [p for p in problems if p]


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_typed_rule_names_land_on_their_section(browser, site_url, device):
    """Queries typed as a reader types them, without Enter: the first into a chapter's header
    search box (its results come under the box; Enter then opens the search page with all of
    them), the others into the search page's own box (one page reused)."""
    touch = device == "phone"
    reader = OfflinePage(browser, site_url, **(PHONE if touch else DESKTOP))
    page = reader.open("book/intro.html")
    problems = []
    # the phone types every query; the desktop every other one (all five games, all kinds)
    for i, query in enumerate(QUERIES if touch else QUERIES[::2]):
        if i == 0:
            box = open_header_search(page, touch)
            type_query(page, box, query["q"], touch)
            problems += check_query(wait_results(page, query["q"], DIALOG_RESULTS), query)
            box.press("Enter")
            page.wait_for_url("**/search.html?q=*")
            results = wait_results(page, query["q"])
        else:
            type_query(page, page.locator(PAGE_BOX), query["q"], touch)
            results = wait_results(page, query["q"])
        problems += check_query(results, query)
        assert COUNT_TEXT.match(summary(page)), summary(page)
        assert page.input_value(PAGE_BOX) == query["q"]
        assert parse_qs(urlparse(page.url).query)["q"] == [query["q"]]      # a copyable address
    assert problems == []
    assert reader.errors == [] and reader.off_site == []
    reader.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_results_come_after_two_characters_and_a_pause_without_enter(browser, site_url, device):
    touch = device == "phone"
    reader = OfflinePage(browser, site_url, **(PHONE if touch else DESKTOP))
    page = reader.page
    page.goto(f"{site_url}/search.html", wait_until="load")
    page.wait_for_function(DONE)
    box = page.locator(PAGE_BOX)
    type_query(page, box, "사", touch, delay=60)            # one character: no search yet
    page.wait_for_timeout(700)
    assert page.evaluate(RESULTS_JS) == [] and page.evaluate("() => BookSearch.stats.ran") == 0
    assert summary(page).startswith("두 글자부터 적는 대로 찾습니다")
    box.press_sequentially("슬", delay=60)                  # two: the results come by themselves
    results = wait_results(page, "사슬")
    assert result_target(results[0]["href"]) == ("book/underface", section_anchors(SITE, "book/underface")["방어구와 방패"])
    assert urlparse(page.url).query == "q=" + quote("사슬")
    # typed at a reader's pace, a query runs after the pause, not once a key (10 keys, 60 ms
    # apart: one or two runs on a quiet machine; on a loaded one a key can come late enough to
    # end a pause, so up to 4 runs pass, which is still far from one a key)
    before = page.evaluate("() => ({...BookSearch.stats})")
    type_query(page, box, "chain mail", touch, delay=60)
    wait_results(page, "chain mail")
    after = page.evaluate("() => ({...BookSearch.stats})")
    asked, ran = after["asked"] - before["asked"], after["ran"] - before["ran"]
    assert asked >= 9 and 1 <= ran <= 4, (before, after)
    # Enter answers at once, one character too; clearing the box clears the results and the address
    type_query(page, box, "창", touch)
    box.press("Enter")
    assert wait_results(page, "창")
    box.fill("")
    page.wait_for_function("() => !document.querySelector('#search-results ul.search')")
    assert urlparse(page.url).query == ""
    assert reader.errors == [] and reader.off_site == []
    reader.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_header_box_answers_on_a_chapter_and_a_result_opens_its_table(browser, site_url, device):
    touch = device == "phone"
    reader = OfflinePage(browser, site_url, **(PHONE if touch else DESKTOP))
    page = reader.page
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    page.goto(f"{site_url}/book/pf2e.html", wait_until="networkidle")
    box = open_header_search(page, touch)
    assert not [u for u in seen if "pagefind" in u]         # nothing of the index before typing
    type_query(page, box, "장궁", touch, delay=60)
    results = wait_results(page, "장궁", DIALOG_RESULTS)
    query = next(q for q in QUERIES if q["q"] == "장궁")
    assert check_query(results, query) == []
    assert [u for u in seen if "pagefind" in u]
    shown = page.locator(f"{DIALOG_RESULTS} .book-result-title")
    assert shown.count() <= 5 and all(shown.nth(i).is_visible() for i in range(shown.count()))
    badge = page.locator(f"{DIALOG_RESULTS} li[data-label='보충'] .book-result-badge").first
    assert badge.inner_text() == "보충" and badge.is_visible()
    core = page.locator(f"{DIALOG_RESULTS} li[data-label='보충'] .book-result-title").first
    target = result_target(core.get_attribute("href"))
    core.tap() if touch else core.click()
    page.wait_for_url(f"**/{target[0]}.html#{target[1]}")
    top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", target[1])
    assert 0 <= top < page.viewport_size["height"] / 2
    # a result on the same page: the box gets out of the way and the section is in view
    box = open_header_search(page, touch)
    type_query(page, box, "장궁", touch, delay=60)
    wait_results(page, "장궁", DIALOG_RESULTS)
    same = page.locator(f'{DIALOG_RESULTS} a.book-result-title[href*="{target[0].split("/")[-1]}.html#{target[1]}"]').first
    same.tap() if touch else same.click()
    page.wait_for_function("() => !document.getElementById('pst-search-dialog').open")
    assert reader.errors == [] and reader.off_site == []
    reader.close()


def test_the_name_data_says_no_number_and_names_its_core_rules():
    """The lines say where the name's table is; its numbers stay in the table (one source)."""
    entries = read_names()
    assert entries and all(not re.search(r"\d", e.says) for e in entries)
    assert all(re.search(r"(핵심|공식) 규칙", e.source) for e in entries if e.source)
    for entry in entries:
        for target in entry.where:
            page, heading = split_target(target)
            assert heading in section_anchors(SITE, page), target


def test_every_known_name_finds_every_table_that_rules_it(browser, site_url):
    """Each name of book/search_names.yml, typed into the search page, lists every section its
    entries name, labelled 보충 exactly where an entry says the name is from the core rules."""
    wanted: dict[str, dict[tuple[str, str], bool]] = {}
    for entry in read_names():
        for target in entry.where:
            page_name, heading = split_target(target)
            where = (page_name, section_anchors(SITE, page_name)[heading])
            for name in entry.names:
                got = wanted.setdefault(name, {})
                got[where] = got.get(where, False) or bool(entry.source)
    reader = OfflinePage(browser, site_url, **DESKTOP)
    page = reader.page
    page.goto(f"{site_url}/search.html", wait_until="load")
    page.wait_for_function(DONE)
    problems = []
    for name, where in wanted.items():
        page.fill(PAGE_BOX, name)
        if len(name) < 2:                     # one character (창, 검) is searched on Enter
            page.press(PAGE_BOX, "Enter")
        results = wait_results(page, name)
        labels = {result_target(r["href"]): r["label"] for r in results}
        problems += [f"{name}: {w} missing" for w in where if w not in labels]
        problems += [f"{name}: {w} labelled {labels[w]!r}" for w, core in where.items()
                     if w in labels and (labels[w] == "보충") != core]
        problems += [f"{name}: {w} labelled 보충" for w, label in labels.items() if label and w not in where]
    assert problems == [], problems
    assert len(wanted) > 60 and reader.errors == [] and reader.off_site == []
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
    assert summary(page).startswith("찾을 말을 위의 칸에 적으세요. 두 글자부터 적는 대로 찾습니다.")
    assert page.locator("#search-results").inner_text().count("Search") == 0
    assert offline_page.errors == []


def test_glossary_entries_come_after_sections_with_their_rule_link(offline_page):
    page = offline_page.page
    page.goto(f"{offline_page.base.geturl()}/search.html?q={quote('다중 공격 페널티')}")
    wait_results(page)
    more = page.locator("button.book-search-more")
    while more.count():                                        # every result, as "더 보기" shows them
        shown = page.locator("#search-results .book-result-title").count()
        more.click()
        # what a reader waits for: the new results listed and the button done (gone, or no longer
        # aria-busy), not a fixed time (a click on the busy button does nothing; one on a button
        # being removed waits for it in vain)
        page.wait_for_function(MORE_SHOWN, arg=shown, timeout=20000)
    kinds = page.locator("#search-results .book-result-title").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert "glossary" in kinds and kinds[0] == "chapter"
    first_glossary = kinds.index("glossary")
    assert set(kinds[first_glossary:]) == {"glossary"}
    entry = page.locator("li.book-result--glossary", has_text="다중 공격 페널티").first
    links = entry.locator(".book-result-rule a").evaluate_all("els => els.map(e => [e.textContent, e.getAttribute('href')])")
    anchor = section_anchors(SITE, "book/pf2e")["다중 공격 페널티"]
    assert links[0] == ["3.6 다중 공격 페널티", f"./book/pf2e.html#{anchor}"]
    assert links[1][1] == "./book/pf2e.html#go=pf-strikes"
    assert entry.locator(".book-result-rule").inner_text().startswith("규칙 보기 → 3.6 다중 공격 페널티 · 계산기 →")


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
    """Only the small script that waits for the reader to type into the header's search box."""
    reader = OfflinePage(browser, site_url, **PHONE)
    seen: list[str] = []
    reader.page.on("request", lambda r: seen.append(r.url))
    reader.page.goto(f"{site_url}/book/pf2e.html", wait_until="networkidle")
    search = [u for u in seen if re.search(r"pagefind|searchindex|search\.js|searchtools|book_search", u)]
    assert [urlparse(u).path for u in search] == ["/_static/book_search_hook.js"]
    assert (SITE / "_static" / "book_search_hook.js").stat().st_size < 3000
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


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_results_with_a_core_rule_label_pass_axe(browser, site_url, mode):
    """The 보충 label and the results under the header's box read in both colour modes."""
    from test_a11y import AXE, axe_serious, themed_page
    if not AXE.exists():
        pytest.fail("axe-core is missing: `python3 scripts/dev.py test` installs it with npm into tests/node/")
    reader = themed_page(browser, site_url, mode)
    try:
        page = reader.page
        page.goto(f"{site_url}/search.html?q={quote('사슬 갑옷')}")
        assert any(r["label"] == "보충" for r in wait_results(page))
        assert axe_serious(page) == []
        page.goto(f"{site_url}/book/underface.html", wait_until="load")
        box = open_header_search(page, False)
        type_query(page, box, "longbow", False, delay=30)
        assert any(r["label"] == "보충" for r in wait_results(page, "longbow", DIALOG_RESULTS))
        assert axe_serious(page) == []
        assert reader.errors == [] and reader.off_site == []
    finally:
        reader.close()
