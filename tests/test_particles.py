"""Korean a reader enjoys: no particle split from its word, no sentence over 120 characters.

- The book's Markdown parser reads Korean emphasis (``book/_ext/cjk_emphasis.py``):
  ``**사망 임계(death threshold)**입니다`` is bold with no space, and any text with no CJK
  character beside a delimiter parses exactly as stock CommonMark (every string of up to five
  characters over an alphabet of delimiters, letters, brackets and spaces).
- ``scripts/fix_particles.py`` joins the workaround spaces and writes a form JupyterLab's stock
  parser reads alike.
- Every page of the built site: no Hangul word (or closing bracket, emphasis, link, code) split
  by a space from a lone particle, and in the five chapters no sentence over 120 characters.
  Each failure lists the offending pages and the words.
"""
from __future__ import annotations

import html as htmlmod
import itertools
import json
import re
import sys
from pathlib import Path

import pytest

from conftest import SITE

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
sys.path.insert(0, str(ROOT / "scripts"))

from markdown_it import MarkdownIt  # noqa: E402

import fix_particles  # noqa: E402
from cjk_emphasis import cjk_friendly, is_cjk  # noqa: E402

CHAPTERS = ["trench_crusade", "pf2e", "underface", "hunters_moon", "bfrpg"]
BOOK_FILES = sorted([*(ROOT / "book").glob("*.ipynb"), *(ROOT / "book" / "quickref").glob("*.ipynb"),
                     ROOT / "book" / "glossary.md"])


def _book_md() -> MarkdownIt:
    return MarkdownIt("commonmark").use(cjk_friendly)


# Written out by hand: what a reader must see (bold text, then the particle, no space).
KOREAN_CASES = [
    ("**사망 임계(death threshold)**입니다", "<strong>사망 임계(death threshold)</strong>입니다"),
    ("**스크립트(script)**라고", "<strong>스크립트(script)</strong>라고"),
    ("**안녕(hello)**하세요.", "<strong>안녕(hello)</strong>하세요."),
    ("**`npm publish`**를 실행", "<strong><code>npm publish</code></strong>를 실행"),
    ("**이 [링크](https://example.kr/)**만을", '<strong>이 <a href="https://example.kr/">링크</a></strong>만을'),
    ("**「표식」**을 놓습니다", "<strong>「표식」</strong>을 놓습니다"),
    ("그 값은 **−8**입니다", "그 값은 <strong>−8</strong>입니다"),
    ("**1**이면 한 단계", "<strong>1</strong>이면 한 단계"),
    ("*(facing)*이 있습니다", "<em>(facing)</em>이 있습니다"),
    ("(**보충**)은", "(<strong>보충</strong>)은"),
]


@pytest.mark.parametrize("source, shown", KOREAN_CASES)
def test_korean_emphasis_closes_before_a_particle(source, shown):
    assert _book_md().render(source) == f"<p>{shown}</p>\n"


@pytest.mark.parametrize("source", [case[0] for case in KOREAN_CASES[:6]])
def test_stock_commonmark_does_not(source):
    """The cases above are the ones CommonMark's own rule leaves literal (the cause of the spaces)."""
    assert "**" in MarkdownIt("commonmark").render(source)


def test_nothing_changes_without_cjk():
    """Every string of up to 5 characters over delimiters, letters, punctuation and spaces."""
    alphabet = "*_a ).(`~"
    stock, book = MarkdownIt("commonmark"), _book_md()
    checked = 0
    for n in range(1, 6):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            assert book.render(text) == stock.render(text), text
            checked += 1
    assert checked == sum(len(alphabet) ** n for n in range(1, 6))


def test_cjk_beside_a_delimiter_only():
    """Hangul away from the delimiters changes nothing either: 'a)**b 한' reads as stock."""
    stock, book = MarkdownIt("commonmark"), _book_md()
    for text in ["**a)**b 한", "한 **a)**b", "*x.*y 가나", "__한__글", "한_글_자", "**(a)** 입니다"]:
        assert book.render(text) == stock.render(text), text


def test_is_cjk_counts_hangul_and_not_emoji():
    assert all(is_cjk(c) for c in "가힣각ㄱㅏ「」。")
    assert not any(is_cjk(c) for c in "aZ9(!−·😀🎲")


def test_fix_particles_joins_and_keeps_jupyterlab_reading_alike():
    source = ("- **{term}`약진` (Dash)** 은 위험한 행동입니다.\n"
              "- 그 값이 **사망 임계** 입니다. 방향(facing) 이 있고 `2D6` 을 굴립니다.\n"
              "- **{term}`근접전`** 에 들어가면 **「표식」** 을 놓습니다.\n")
    fixed, notes = fix_particles.fix_text(source)
    assert fixed == ("- **{term}`약진`** (Dash)은 위험한 행동입니다.\n"
                     "- 그 값이 **사망 임계**입니다. 방향(facing)이 있고 `2D6`을 굴립니다.\n"
                     "- {term}`근접전`에 들어가면 「**표식**」을 놓습니다.\n")
    assert len(notes) == 6 and not any("needs a hand" in n for n in notes)
    assert fix_particles.reads_alike(fixed)


def test_fix_particles_leaves_code_cells_alone(tmp_path):
    nb = {"cells": [{"cell_type": "code", "id": "a", "source": ["x = '**가** 는'\n"], "metadata": {},
                     "outputs": [], "execution_count": None},
                    {"cell_type": "markdown", "id": "b", "source": ["**가** 는\n"], "metadata": {}}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    fix_particles.main([str(path)])
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert cells[0]["source"] == ["x = '**가** 는'\n"] and cells[1]["source"] == ["**가**는\n"]


@pytest.mark.parametrize("path", BOOK_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_book_sources_have_no_workaround_space(path):
    """The Markdown of every page: no space before a particle, and JupyterLab reads it alike."""
    notes = fix_particles.fix_file(path, write=False)
    assert not notes, "\n".join(notes)


# ---- the built site ----------------------------------------------------------------------
#: A particle or copula that never stands alone as a word (이/가 may: 「이 규칙」, 「가 항목」,
#: so they count only after a closing bracket, quote or tag, never after a plain word).
_ALWAYS = "은|는|을|를|의|에|에서|에게|으로|로|와|과|입니다|이다|이며|이고|이라는|이면"
_AFTER_MARK = _ALWAYS + "|이|가|도"
SPLIT_WORD = re.compile(rf"[가-힣]\s+({_ALWAYS})(?=[\s.,;:!?)」』]|$)")
SPLIT_MARK = re.compile(rf"[)\]」』]\s+({_AFTER_MARK})(?=[\s.,;:!?)」』]|$)")
SPLIT_TAG = re.compile(rf"</(?:strong|em|b|a|code|span)>\s+({_AFTER_MARK})(?=[\s.,;:!?)」』<]|$)")


def _article(page: str) -> str:
    """The page's article (no sidebars, scripts or widget bodies, no exact values folded behind
    「정확한 값 보기」: numbers, not sentences), tags kept."""
    body = page.split('<article class="bd-article">', 1)[-1].split("</article>", 1)[0]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r'<details class="ex">.*?</details>', " ", body, flags=re.S)
    return re.sub(r'<div class="live-widget".*?</div>\s*</div>', " ", body, flags=re.S)


def _text(fragment: str) -> str:
    return htmlmod.unescape(re.sub(r"<[^>]+>", "", fragment))


def site_pages() -> list[Path]:
    pages = sorted((SITE / "book").rglob("*.html"))
    if not pages:
        pytest.fail(f"no built site at {SITE}: build the book first (scripts/dev.py test does)")
    return pages


def split_particles(page: str) -> list[str]:
    """Every place a particle is split from its word, shown with the words before it.

    >>> split_particles('<article class="bd-article"><p><strong>사망 임계</strong> 입니다. 이 규칙은</p></article>')
    ['사망 임계 입니다']
    """
    body = _article(page)
    found = [re.sub(r"\s+", " ", _text(re.sub(r"^[^<]*>", "", body[max(0, m.start() - 300):m.end()])))
             .strip()[-24:] for m in SPLIT_TAG.finditer(body)]
    for para in re.findall(r"<(p|li|td|th|dd|dt|h[1-6]|caption|figcaption)\b[^>]*>(.*?)</\1>", body, re.S):
        text = _text(para[1])
        found += [text[max(0, m.start() - 12):m.end()].strip()
                  for pattern in (SPLIT_WORD, SPLIT_MARK) for m in pattern.finditer(text)]
    return sorted(set(found))


def long_sentences(page: str, limit: int = 120) -> list[str]:
    """Sentences of the page's prose (paragraphs and list items) longer than ``limit`` characters.

    >>> long_sentences('<article class="bd-article"><p>' + '가' * 121 + '. 짧다.</p></article>')[0][:6]
    '(122) '
    """
    out = []
    for para in re.findall(r"<(p|li)\b[^>]*>(.*?)</\1>", _article(page), re.S):
        if re.search(r"<(p|li|ul|ol)\b", para[1]):
            continue                    # a list item holding paragraphs: they are counted alone
        text = re.sub(r"\s+", " ", _text(para[1])).strip()
        for sentence in re.split(r"(?<=[.!?。])\s+(?=\S)", text):
            if len(sentence) > limit:
                out.append(f"({len(sentence)}) {sentence[:60]}…")
    return out


def test_no_particle_is_split_from_its_word_on_any_page():
    bad = {p.relative_to(SITE).as_posix(): split_particles(p.read_text(encoding="utf-8"))
           for p in site_pages()}
    bad = {page: words for page, words in bad.items() if words}
    assert not bad, "split particles:\n" + "\n".join(
        f"{page} ({len(words)}): " + " | ".join(words[:8]) for page, words in bad.items())


def test_no_sentence_over_120_characters_in_the_chapters():
    pages = {p.stem: p for p in site_pages() if p.parent == SITE / "book"}
    bad = {name: long_sentences(pages[name].read_text(encoding="utf-8")) for name in CHAPTERS
           if name in pages}
    assert set(bad) == set(CHAPTERS), f"chapters not built: {set(CHAPTERS) - set(bad)}"
    bad = {name: found for name, found in bad.items() if found}
    assert not bad, "sentences over 120 characters:\n" + "\n".join(
        f"{name} ({len(found)}): " + " | ".join(found[:5]) for name, found in bad.items())


def test_a_source_mark_is_a_tag_with_its_source_in_a_side_note():
    """〔가정〕 in the introduction: a glossary link drawn as a tag, its footnote a side note
    (book/_ext/source_marks.py, use_sidenotes); a link to the same entry in prose is no tag."""
    page = (SITE / "book" / "intro.html").read_text(encoding="utf-8")
    tag = re.search(r'<span class="xref std std-term source-mark source-mark--assumption">가정</span></a>'
                    r"<label for='(sidenote-role-[^']+)' class='margin-toggle'>", page)
    assert tag, "no 〔가정〕 tag followed by its side note in the introduction"
    note = page.split(f"id='{tag.group(1)}'", 1)[1]
    assert re.search(r'<span class="sidenote[^"]*"><sup>\d+</sup>헌터즈 문의 근거 텍스트는', note)
    assert len(re.findall(r"source-mark--", page)) == 1      # the list's 보충 규칙 / 가정 links are plain
    css = (SITE / "_static" / "book.css").read_text(encoding="utf-8")
    assert ".source-mark--supplement" in css and ".source-mark--assumption" in css


def test_no_side_note_sits_inside_another():
    """Two notes in one list item (the 비행 item of Hunter's Moon's statuses) each stand alone beside
    their numbers: none is put inside another (book/_ext/source_marks.py), and none stays hidden."""
    from html.parser import HTMLParser

    class Notes(HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack: list[bool] = []        # per open span: is it a side note?
            self.nested = 0

        def handle_starttag(self, tag, attrs):
            if tag == "span":
                classes = (dict(attrs).get("class") or "").split()
                note = "sidenote" in classes or "marginnote" in classes
                if note and any(self.stack):
                    self.nested += 1
                self.stack.append(note)

        def handle_endtag(self, tag):
            if tag == "span" and self.stack:
                self.stack.pop()

    found = {}
    for name in CHAPTERS:
        parser = Notes()
        parser.feed((SITE / "book" / f"{name}.html").read_text(encoding="utf-8"))
        if parser.nested:
            found[name] = parser.nested
    assert not found, f"side notes inside side notes: {found}"
    page = (SITE / "book" / "hunters_moon.html").read_text(encoding="utf-8")
    fly = page.split("대공」이 없는 공격으로", 1)[1].split("</li>", 1)[0]
    assert len(re.findall(r'<span class="sidenote"><sup>\d+</sup>', fly)) == 2, "the 비행 item's two notes, shown"
