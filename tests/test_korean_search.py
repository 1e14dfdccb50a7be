"""Korean search: particles stripped the same way in Python (index) and JS (query)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
from korean_search import SearchKorean, strip_particle  # noqa: E402


@pytest.mark.parametrize("word,stem", [("명중굴림에", "명중굴림"), ("주사위를", "주사위"),
                                       ("표식에서는", "표식"), ("거리", "거리"), ("나이", "나이"),
                                       ("d6를", "d6를"), ("유혈낭자", "유혈낭자")])
def test_strip_particle(word, stem):
    assert strip_particle(word) == stem


def test_split_adds_two_syllable_pieces():
    words = SearchKorean({}).split("명중굴림에 보정")
    assert {"명중굴림에", "보정", "명중", "중굴", "굴림"} <= set(words)


def test_js_stemmer_matches_python(browser):
    page = browser.new_page()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(content=SearchKorean.js_stemmer_code)
    words = ["명중굴림에", "주사위를", "표식에서는", "거리", "나이", "유혈낭자", "부상굴림으로는"]
    got = page.evaluate("(ws) => { const s = new Stemmer(); return ws.map(w => s.stemWord(w)); }", words)
    assert got == [strip_particle(w) for w in words]
    page.close()


def test_search_page_finds_two_syllable_word(offline_page):
    page = offline_page.page
    page.goto(f"{offline_page.base.geturl()}/search.html?q=%EB%82%AD%EC%9E%90")  # 낭자, only inside 유혈낭자
    page.wait_for_selector("#search-results ul.search li", timeout=10000)
    links = page.locator("#search-results ul.search li a").evaluate_all("els => els.map(e => e.href)")
    assert any("trench_crusade" in href for href in links)
