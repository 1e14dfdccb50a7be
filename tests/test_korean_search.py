"""Korean search: particles stripped the same way in Python (index, glossary terms) and in the
page scripts (Sphinx's stemmer for the fallback search; the book's search page)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from book_search import term_key  # noqa: E402
from korean_search import PARTICLES, SearchKorean, strip_particle  # noqa: E402

PAGE_JS = ROOT / "widgets" / "js" / "search" / "book_search.js"
WORDS = ["명중굴림에", "주사위를", "표식에서는", "거리", "나이", "유혈낭자", "부상굴림으로는", "표식을",
         "페널티를", "대각선으로", "임계에", "플롯은", "응급처치로", "사격은", "d6를", "DC", "ＤＣ의"]


@pytest.mark.parametrize("word,stem", [("명중굴림에", "명중굴림"), ("주사위를", "주사위"),
                                       ("표식에서는", "표식"), ("거리", "거리"), ("나이", "나이"),
                                       ("d6를", "d6를"), ("유혈낭자", "유혈낭자"), ("표식을", "표식")])
def test_strip_particle(word, stem):
    assert strip_particle(word) == stem


def test_split_adds_two_syllable_pieces():
    words = SearchKorean({}).split("명중굴림에 보정")
    assert {"명중굴림에", "보정", "명중", "중굴", "굴림"} <= set(words)


@pytest.mark.parametrize("text,key", [("다중 공격 페널티를", "다중공격페널티"), ("스페셜 (언더페이스)", "스페셜"),
                                      ("±DICE", "±dice"), ("주문 ＤＣ", "주문dc"), ("  유혈   표식이 ", "유혈표식")])
def test_term_key(text, key):
    assert term_key(text) == key


@pytest.fixture(scope="module")
def script_page(browser):
    page = browser.new_page()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(content=SearchKorean.js_stemmer_code)
    page.add_script_tag(path=str(PAGE_JS))        # no #search-results here: it only defines BookSearch
    yield page
    page.close()


def test_sphinx_stemmer_matches_python(script_page):
    got = script_page.evaluate("(ws) => { const s = new Stemmer(); return ws.map(w => s.stemWord(w)); }", WORDS)
    assert got == [strip_particle(w) for w in WORDS]


def test_page_script_strips_particles_like_python(script_page):
    got = script_page.evaluate("([ws, ps]) => ws.map(w => BookSearch.stripParticle(w, ps))", [WORDS, list(PARTICLES)])
    assert got == [strip_particle(w) for w in WORDS]


def test_page_script_term_keys_match_python(script_page):
    texts = ["다중 공격 페널티를", "스페셜 (헌터즈 문)", "±DICE", "주문 ＤＣ를", "대각선 이동", "  유혈   표식이 ",
             "사거리 구간 (베이식 판타지)", "½DB", "D20"]
    got = script_page.evaluate("([ts, ps]) => ts.map(t => BookSearch.termKey(t, ps))", [texts, list(PARTICLES)])
    assert got == [term_key(t) for t in texts]


def test_named_terms_prefers_the_same_term_then_beginnings(script_page):
    terms = [{"k": k} for k in ("돌격", "돌격화기", "대각선이동", "추격라운드", "추격판정")]
    named = lambda key: script_page.evaluate("([k, t]) => BookSearch.namedTerms(k, t)", [key, terms])  # noqa: E731
    assert named("돌격") == ["돌격"]                  # the term itself, not every term starting so
    assert named("대각선") == ["대각선이동"]
    assert named("추격") == ["추격라운드", "추격판정"]
    assert named("격") == [] and named("") == []


def test_snippet_leaves_out_the_heading_it_starts_with(script_page):
    got = script_page.evaluate("""() => {
        const nodes = [document.createTextNode("3.4 다중 공격 페널티. 한 턴에 "), document.createElement("mark"),
                       document.createTextNode(" 뒤")];
        nodes[1].textContent = "공격을";
        const kept = BookSearch.withoutTitle(nodes, "3.4 다중 공격 페널티");
        const other = BookSearch.withoutTitle([document.createTextNode("다른 글. 그대로")], "3.4 다중 공격 페널티");
        const m = document.createElement("mark"); m.textContent = "유혈낭자";
        const only = [document.createTextNode("1.6.1 "), m, document.createTextNode(". 표식을 한꺼번에")];
        const onlyKept = BookSearch.withoutTitle(only, "1.6.1 유혈낭자");
        return [kept.map(n => n.textContent).join(""), kept[1].nodeName, other[0].textContent,
                onlyKept.map(n => n.textContent).join("")];
    }""")
    # the heading is left out, except where it holds the snippet's only match
    assert got == ["한 턴에 공격을 뒤", "MARK", "다른 글. 그대로", "1.6.1 유혈낭자. 표식을 한꺼번에"]


def test_highlights_show_the_words_asked_for_not_fragments(script_page):
    """Pagefind marks a word it matched by a piece of it (a particle: 도 in 충격(쉘쇼크)도); a
    snippet keeps only the marks that hold a word of the query (issue 31)."""
    excerpt = ("충격(<mark>쉘쇼크)도</mark> 받지 않고 <mark>돌격</mark>할 때 "
               "<mark>페널티(penalty)도</mark> 없이 <mark>돌격을</mark>")
    got = script_page.evaluate("""([e, marks]) => BookSearch.excerptNodes(e, marks)
        .filter(n => n.nodeName === "MARK").map(n => n.textContent)""", [excerpt, ["돌격"]])
    assert got == ["돌격", "돌격을"]
    text = script_page.evaluate("([e, marks]) => BookSearch.excerptNodes(e, marks).map(n => n.textContent).join('')",
                                [excerpt, ["돌격"]])
    assert text == "충격(쉘쇼크)도 받지 않고 돌격할 때 페널티(penalty)도 없이 돌격을"
    # the query's words as the reader typed them, any case
    assert script_page.evaluate("([e, marks]) => BookSearch.excerptNodes(e, marks).filter(n => n.nodeName === 'MARK').length",
                                ["<mark>Charge</mark> 또는 <mark>차지</mark>", ["charge"]]) == 1
