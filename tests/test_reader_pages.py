"""The reader's pages: the glossary (용어집), the chapters' links to it, the quick references
(빠른 참조) and their tables, which must be the library's numbers."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from widgets import bfrpg as bf
from widgets.views import labels
from widgets import hunters_moon as hm
from widgets import pf2e
from widgets import trench_crusade as tc
from widgets import underface as uf
from widgets.ranges import BFRPG_MISSILE_RANGES
from widgets.views import format as fmt
from widgets.views import quickref as q

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
CHAPTERS = ["trench_crusade", "bfrpg", "pf2e", "underface", "hunters_moon"]
TERM_ROLE = re.compile(r"\{term\}`([^`<]*?)(?:\s*<([^>]*)>)?`")


def glossary_entries() -> dict[str, str]:
    """Term → its definition line, from every ``{glossary}`` block of book/glossary.md."""
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    entries: dict[str, str] = {}
    for block in re.findall(r"```\{glossary\}\n(.*?)```", text, flags=re.S):
        term = None
        for line in block.splitlines():
            if line and not line.startswith(" "):
                term = line.strip()
                assert term not in entries, f"duplicate glossary term {term!r}"
                entries[term] = ""
            elif line.strip() and term:
                entries[term] += line.strip()
    return entries


def markdown_of(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [ch["file"] for part in toc["parts"] for ch in part["chapters"]]


def test_glossary_has_80_unique_terms_with_english_originals():
    entries = glossary_entries()
    assert len(entries) >= 80
    assert len({t.casefold() for t in entries}) == len(entries)
    for term, definition in entries.items():
        english = re.match(r"\*([^*]+)\*", definition)
        assert english and re.search(r"[A-Za-z]", english.group(1)), term
        assert " — " in definition and len(definition.split(" — ", 1)[1]) > 5, term


def test_glossary_names_the_source_translations_words():
    entries = glossary_entries()
    translated = {t: d for t, d in entries.items() if "번역본:" in d}
    assert len(translated) >= 20
    for term, word in [("±DICE", "양수값 주사위"), ("한 걸음", "전투보"), ("붙잡기", "격투"),
                       ("플레이어 (언더페이스)", "연기자"), ("위험한 행동", "위험한 행위")]:
        assert word in translated[term]
    assert "대항 판정" in entries and "각본가" in entries


def test_glossary_is_in_the_toc():
    assert "book/glossary" in toc_files()


#: The sections every chapter gains for a newcomer (issue 29): they restate, they cite no source.
NEWCOMER_SECTIONS = ("한눈에 보기", "직접 해 보기", "정리")
#: Sections of the book's own calculators (a whole fight, issue 30): no source section behind them.
BOOK_CALCULATOR_SECTIONS = ("결투 전체: 누가 먼저 쓰러질까",)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_links_its_terms_to_the_glossary(chapter):
    names = {t.casefold() for t in glossary_entries()}
    text = markdown_of(BOOK / f"{chapter}.ipynb")
    roles = TERM_ROLE.findall(text)
    assert len(roles) >= 20, chapter
    assert f"(<quickref/{chapter}.ipynb>)" in text       # the chapter links its quick reference
    unknown = [(shown, target) for shown, target in roles
               if (target or shown).strip().casefold() not in names]
    assert unknown == []
    # every ## section links at least one term
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        assert TERM_ROLE.search(section), section.splitlines()[0]


def test_intro_links_every_chapter_quick_reference_and_the_glossary():
    text = markdown_of(BOOK / "intro.ipynb")
    for chapter in CHAPTERS:
        assert f"(<{chapter}.ipynb>)" in text and f"(<quickref/{chapter}.ipynb>)" in text
    assert "(<glossary.md>)" in text and "{term}`보충 규칙`" in text and "{term}`가정`" in text


# --- quick references --------------------------------------------------------------------

@pytest.mark.parametrize("chapter", CHAPTERS)
def test_quick_reference_page_exists_is_in_the_toc_and_hard_codes_no_numbers(chapter):
    path = BOOK / "quickref" / f"{chapter}.ipynb"
    assert f"book/quickref/{chapter}" in toc_files()
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = [("".join(c["source"]), c) for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) >= 3
    for src, cell in code:
        assert not re.search(r"(?<![A-Za-z_])\d", src), src   # numbers come from the library
        assert set(cell["metadata"]["tags"]) & {"remove-input", "remove-cell"}
        if "remove-input" in cell["metadata"]["tags"]:
            assert cell["outputs"], src               # stored output (nbval compares it)


def test_tc_success_odds_are_the_library():
    table = q.tc_success_odds((-2, 0, 3))
    for row, net in zip(table.rows, (-2, 0, 3)):
        odds = tc.success_odds(net)
        thrown, kept = tc.roll_size(net)
        assert row[0].text.startswith(f"{fmt.signed(net)} DICE") and (net == 0 or f"{thrown}D6" in row[0].text)
        assert row[1:] == [fmt.prob(odds[k]) for k in ("failure", "success", "critical")]
        assert sum(odds.values()) == 1


def test_tc_injury_odds_are_the_library():
    group = q.tc_injury_odds((0, 1))
    assert len(group.tables) == len(tc.ARMOUR)
    for table, armour in zip(group.tables, tc.ARMOUR.values()):
        for i, key in enumerate(key for key, _, _, _ in tc.INJURY_CHART):      # a row a result
            assert table.rows[i][1:] == [fmt.prob(tc.injury_odds(net, armour)[key]) for net in (0, 1)]
        for col in range(1, 3):                                                 # a column a roll
            assert sum(Fraction(c.split()[0]) for c in (r[col] for r in table.rows)) == 1


def test_tc_dice_sources_match_what_the_library_applies():
    rows = {(r[0], r[1]): r for r in q.tc_dice_sources().rows}
    # the ranged modifiers the odds use are the ones the table shows
    assert tc.ranged_dice(1, 24, cover=True) - tc.ranged_dice(1, 24) == tc.DICE_SOURCES["cover"][2]
    assert tc.ranged_dice(1, 24, elevated=True) - tc.ranged_dice(1, 24) == tc.DICE_SOURCES["elevated"][2]
    assert tc.ranged_dice(20, 24) - tc.ranged_dice(12, 24) == tc.DICE_SOURCES["long_range"][2]
    for what, roll, dice, _basis in tc.DICE_SOURCES.values():
        assert rows[what, roll][2] == f"{fmt.signed(dice)} DICE"


def test_bf_to_hit_and_ranges_are_the_library():
    cells = {r[0]: r[1] for r in q.bf_to_hit().rows}
    assert cells["뒤에서 공격하기 (상대의 뒤쪽 칸에서)"] == fmt.signed(bf.REAR_ATTACK_BONUS)
    assert cells["도주하는 상대에게 분리 사격 (떠난 상대마다 한 번)"] == fmt.signed(bf.PARTING_SHOT_BONUS)
    assert cells["5피트 안에서 근접전 중인 상대에게 미사일"] == fmt.signed(bf.INTO_MELEE_PENALTY)
    longbow = BFRPG_MISSILE_RANGES["장궁 (longbow)"]
    assert q.bf_missile_ranges().rows[0][1:] == [str(v) for v in longbow]
    for n, row in enumerate(q.bf_diagonals(6).rows, start=1):
        assert row[2] == f"{bf.path_cost([(i, i) for i in range(n + 1)])}피트"


def test_pf_tables_are_the_library():
    for row in q.pf_degrees((2, 10, 15, 20)).rows:
        odds = pf2e.degree_odds(0, int(row[0]))
        assert row[1:] == [fmt.percent(odds[k]) for k in pf2e.DEGREES]
        assert sum(odds.values()) == 1
    assert [r[1:] for r in q.pf_map().rows] == [
        [fmt.signed(pf2e.multiple_attack_penalty(n, a)) for a in (False, True)] for n in (1, 2, 3, 4)]
    for i, row in enumerate(q.pf_ranges((120,)).rows, start=1):
        assert row[1] == fmt.signed(pf2e.range_penalty(120 * i, 120)) and row[2] == str(120 * i)


def test_uf_and_hm_tables_are_the_library():
    table = q.uf_hit_odds((40, 70))
    for row, attack in zip(table.rows, (40, 70)):
        for cell, defence in zip(row[1:], (40, 70)):
            odds = uf.opposed_odds(attack, defence)
            assert cell == fmt.prob(odds["attacker_wins"] + odds["attacker_wins_special"])
    assert q.uf_death_thresholds((11,)).rows == [["11", fmt.signed(uf.death_threshold(11))]]
    for row in q.hm_checks((2, 7, 13)).rows:
        odds = hm.check_odds(0, int(row[0]))
        assert row[1] == fmt.prob(odds["success"] + odds["special"])
        assert row[2] == fmt.prob(odds["failure"] + odds["fumble"])


def test_link_script_links_first_use_per_section_only():
    import sys
    import nbformat
    sys.path.insert(0, str(ROOT / "scripts"))
    import link_glossary as lg
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "## 가\n\n유혈 표식을 쓰고, 또 유혈 표식을 씁니다. 중상이면 `중상` 그대로.\n\n### 나\n\n"
        "유혈 표식은 이미 링크했습니다. 가정집의 식탁.\n\n## 다\n\n**유혈 표식**을 씁니다.")])
    assert lg.link_notebook(nb, "trench_crusade") == 1     # one line changed
    text = nb.cells[0].source
    assert text.count("{term}`유혈 표식`") == 1           # first use in section 가 only
    assert "{term}`중상`" in text and "`중상` 그대로" in text   # code spans untouched
    assert "{term}`가정" not in text                       # 가정집 is not 가정
    assert "**유혈 표식**을" in text                       # would break the bold: left alone
    assert lg.link_notebook(nb, "trench_crusade") == 0     # idempotent


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_term_link_sits_inside_a_longer_term(chapter):
    import sys
    sys.path.insert(0, str(ROOT / "scripts"))
    import link_glossary as lg
    forms = [f for f, _ in lg.surface_forms(chapter)]
    for path in (BOOK / f"{chapter}.ipynb", BOOK / "quickref" / f"{chapter}.ipynb"):
        text = markdown_of(path)
        plain = TERM_ROLE.sub(lambda m: m.group(1), text)
        for m in TERM_ROLE.finditer(text):
            shown = m.group(1)
            before = TERM_ROLE.sub(lambda k: k.group(1), text[:m.start()])
            after = TERM_ROLE.sub(lambda k: k.group(1), text[m.end():])
            nested = [f for f in forms if len(f) > len(shown) and shown in f
                      and before.endswith(f[:f.index(shown)]) and after.startswith(f[f.index(shown) + len(shown):])]
            assert not nested, (path.name, shown, nested)
        assert plain  # the page has prose


# --- issue 17: labels that must say what the source says, the book's readings, the source's
# --- own words, wording, and the shared reader tools -------------------------------------

PAGES = [BOOK / f"{c}.ipynb" for c in CHAPTERS] + [BOOK / "quickref" / f"{c}.ipynb" for c in CHAPTERS]


def reader_texts(path: Path) -> list[str]:
    """What a reader reads on a page: markdown, and the stored text/html and text/plain outputs
    (the glossary: its text)."""
    if path.suffix == ".md":
        return [path.read_text(encoding="utf-8")]
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for c in nb["cells"]:
        if c["cell_type"] == "markdown":
            out.append("".join(c["source"]))
        for o in c.get("outputs", []):
            for mime in ("text/html", "text/plain"):
                if mime in o.get("data", {}):
                    out.append("".join(o["data"][mime]))
    return out


def paragraph_with(text: str, phrase: str) -> str:
    """The markdown paragraph (blank-line separated) holding ``phrase``."""
    hits = [p for p in re.split(r"\n\s*\n", text) if phrase in p]
    assert len(hits) == 1, (phrase, len(hits))
    return hits[0]


def test_the_plus_twos_the_source_states_are_not_labelled_supplementary():
    """Issue 17, item 4: the parting shot's +2 and the attack from behind's +2 are in the source
    (citing the core rules): not 보충 규칙 in the chapter, the quick reference or the glossary."""
    text = markdown_of(BOOK / "bfrpg.ipynb")
    supplementary = paragraph_with(text, "**보충 규칙**으로 표시했습니다")
    assert "+2" not in supplementary.split("**보충 규칙**으로 표시했습니다")[0]
    assert "+2는 원문이 핵심 규칙을 들어 직접 적은 값" in supplementary
    for phrase in ("**분리 사격**(parting shot)", "보통 전투에서 상대의 뒤에서 치면"):
        line = next(ln for ln in text.splitlines() if phrase in ln or "+2" in ln and phrase[:6] in ln)
        assert "보충 규칙" not in line and "원문이" in line, line
    rows = {r[0]: r[2] for r in q.bf_to_hit().rows}
    assert rows["뒤에서 공격하기 (상대의 뒤쪽 칸에서)"].startswith("원문")
    assert rows["도주하는 상대에게 분리 사격 (떠난 상대마다 한 번)"].startswith("원문")
    assert "보충 규칙" not in glossary_entries()["뒤에서 공격하기"]


def test_the_critical_hit_of_a_special_is_the_sources():
    """Item 5 (issue 17), corrected by issue 25: that a special always succeeds is the book's
    assumption (no official rule states it; a dice bot is not one); that a special hit check is a
    critical hit is the source's."""
    entry = glossary_entries()["스페셜 (헌터즈 문)"]
    assert "언제나 성공합니다(가정" in entry and "크리티컬 히트입니다(원문)" in entry
    assert "보충 규칙" not in entry


#: Item 6 and 7: the book's readings (가정) and supplementary rules (보충 규칙) that the pages
#: showed unlabelled: (page, a phrase of the passage, the label its paragraph must carry).
LABELLED = [
    ("bfrpg", "걸어서 도주한 전투원은 걷기처럼", "가정"),
    ("bfrpg", "번갈아 세는 횟수를 경로 전체에 걸쳐", "가정"),
    ("bfrpg", "칸이 붙어 있는지로만", "가정"),
    ("trench_crusade", "주인이 쓴다고 보았습니다", "가정"),
    ("underface", "'화살이나 저속 투사체'로 보았습니다", "가정"),
    ("underface", "−3의 절반을 −2로", "가정"),
    ("hunters_moon", "{term}`격파` 확률이 더 높은 쪽을 고른다고", "가정"),
    ("hunters_moon", "1D6을 PC마다 따로 굴린다고", "가정"),
    ("hunters_moon", "다시 굴린다고 봅니다", "가정"),
    ("hunters_moon", "판정은 2D6 + 【두뇌】를", "가정"),
    ("hunters_moon", "추격판정 = 2D6 + 【두뇌】 또는 【기술】 ≥ 본체 【방어치】로 보는 것은 명중판정과 같은 가정 모델", "가정"),
    # issue 25: readings the fourth close reading found unlabelled
    ("underface", "모든 기준이 같을 때도 위젯은 명단의 순서를", "가정"),
    ("bfrpg", "근접전, 철수, 도주, 분리 사격을 상대 하나하나에 대해", "가정"),
    ("bfrpg", "벽만 시야를 막고", "가정"),
    ("bfrpg", "대각선 걸음은 5/10 번갈아 세는 그 걸음의 값을 두 배", "가정"),
    ("hunters_moon", "위협 카드가 비행 중일 때도 같은 효과", "가정"),
    ("hunters_moon", "판정은 2D6에 능력치와 수정을 더한 합계(달성치)가 목표치 이상이면 성공", "가정"),
    ("pf2e", "간격 안의 칸을 떠날 때라는\n조건은 플레이어 코어의 기회 공격", "보충 규칙"),
]


def sentence_with(text: str, phrase: str) -> tuple[str, str, str]:
    """(the sentence holding ``phrase``, its paragraph, the paragraph before it)."""
    paragraphs = re.split(r"\n\s*\n", text)
    i = next(k for k, p in enumerate(paragraphs) if phrase in p)
    here = paragraphs[i]
    start = here.index(phrase)
    ends = [m.end() for m in re.finditer(r"(?<=[다요)])\.(?=\s|$)", here)]
    sentence = here[max([e for e in ends if e <= start], default=0):
                    min([e for e in ends if e >= start + len(phrase)], default=len(here))]
    return sentence, here, paragraphs[i - 1] if i else ""


def labelled(text: str, phrase: str, label: str) -> bool:
    """The label stands in the passage's own sentence, or opens its paragraph (**가정**: …), or
    heads the list the passage is in (**가정** (…):)."""
    sentence, here, before = sentence_with(text, phrase)
    opens = re.match(r"\s*(>\s*)?\*\*(\{term\}`)?" + label, here) is not None
    heading = before if here.lstrip().startswith("- ") else ""
    return label in sentence or opens or (label in heading and heading.rstrip().endswith(":"))


@pytest.mark.parametrize("chapter, phrase, label", LABELLED)
def test_the_books_readings_and_supplementary_rules_are_labelled(chapter, phrase, label):
    assert labelled(markdown_of(BOOK / f"{chapter}.ipynb"), phrase, label)


def test_quick_references_and_widgets_label_the_readings_too():
    """Items 6–9 where a table or a widget title shows them."""
    from widgets.views import hunters_moon as hv
    from widgets.views import pf2e as pv
    flee = {r[0]: r[1] for r in q.bf_melee_options().rows}[labels.BF_MOVE_OPTIONS["flee_walk"]]
    assert flee == "예 (가정)" and "가정" in q.bf_melee_options().note
    basis = {k: v[3] for k, v in tc.DICE_SOURCES.items()}
    assert "가정" in basis["blessing_action"] and "가정" in basis["blessing_injury"]
    assert "−3의 절반은 −2, 가정" in glossary_entries()["½DB"]
    rows = {r[0]: r for r in q.pf_modifiers().rows + q.pf_map().rows}
    assert "무방비 (AC, 보충 규칙)" in rows and "네 번째 이후 (보충 규칙)" in rows
    assert "세 번째" in rows and "세 번째 이후" not in rows
    assert "보충 규칙" in pv.strike_reach_widget().title
    for make in (hv.recon_widget, hv.pursuit_widget, hv.interfere_widget):
        assert "가정 모델" in make().title, make.__name__


def test_hunters_moon_quick_reference_says_the_whole_rule():
    """Item 8: interference needs a card placed in recon or an earlier round; 잠수 lets a diving
    PC auto-hit a target that is not diving (a choice), and a diving monster's target makes no
    defence check; 비행's floor at 0 is the book's reading."""
    text = markdown_of(BOOK / "quickref" / "hunters_moon.ipynb")
    assert "카드가 정찰 라운드나 앞선 난전 라운드에 놓였을 때만 방해할 수 있고" in text
    rows = {r[0]: r for r in q.hm_damage().rows}
    diving = rows["잠수 중인 PC가 잠수 중이 아닌 목표를 공격"]
    assert "명중시킬 수 있음" in diving[1]
    assert rows["잠수 중인 괴물·위협의 공격"][1] == "목표 PC는 방어판정을 할 수 없음"
    assert rows["비행 중인 목표"][2].endswith("(가정)")


def test_the_glossary_promises_only_what_the_widgets_offer():
    """Item 9: the 가정 entry no longer promises that every assumption can be changed beside
    its widget; it names what can be, and the Underface check settings are offered as controls
    in a widget whose odds are the library's for the settings chosen."""
    from widgets import underface as uf
    from widgets.views import underface as uv
    entry = glossary_entries()["가정"]
    assert "값을 바꿔 볼 수 있게 했습니다" not in entry and "「판정 설정 바꿔 보기」" in entry
    assert "views.settings_widget()" in "".join(
        "".join(c["source"]) for c in json.loads((BOOK / "underface.ipynb").read_text(encoding="utf-8"))["cells"])
    w = uv.settings_widget()
    assert {c.name for c in w.controls} >= {"fumble_from", "special_divisor", "hard", "margin"}
    assert "가정" in w.title
    html_out = w.shown(attack=60, defense=40, fumble_from=100, special_divisor=10, hard="penalty",
                       margin="roll", attack_hard=True).html
    settings = uf.CheckSettings(fumble_from=100, special_divisor=10, hard="penalty", margin="roll")
    for p in uf.opposed_odds(60, 40, attack_hard=True, settings=settings).values():
        assert fmt.prob(p) in html_out
    for p in uf.check_odds(60, hard=True, settings=settings).values():
        assert fmt.prob(p) in html_out
    assert f"목표치 {uf.effective_target(60, hard=True, settings=settings)}" in html_out
    bad = w.shown(attack=60, defense=40, fumble_from=96, special_divisor=0, hard="divide",
                  margin="roll", attack_hard=False).html
    assert "widget-error" in bad and re.search("[가-힣]", bad)


def _normal(word: str) -> str:
    return re.sub(r"[\s【】]", "", word)


def translated_terms() -> list[tuple[str, str, list[str]]]:
    """(chapter, glossary term, the source translation's words) for every game-section entry
    whose translation word is more than a spelling variant of the book's term."""
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    chapter_of = {"트렌치": "trench_crusade", "베이식": "bfrpg", "패스파인더": "pf2e",
                  "언더페이스": "underface", "헌터즈": "hunters_moon"}
    out = []
    entries = glossary_entries()
    for section in sections:
        chapter = next((c for k, c in chapter_of.items() if section.startswith(k)), None)
        if not chapter:
            continue
        for block in re.findall(r"```\{glossary\}\n(.*?)```", section, flags=re.S):
            for term in (ln.strip() for ln in block.splitlines() if ln and not ln.startswith(" ")):
                m = re.search(r"번역본: ([^—]+?) —", entries[term])
                if not m:
                    continue
                words = [w.strip() for w in m.group(1).split("/")]
                base = _normal(re.sub(r"\s*\(.*\)$", "", term))
                trivial = [w for w in words if _normal(w) == base or (  # spelling or a suffix
                    _normal(w).startswith(base) and _normal(w)[len(base):] in ("상태", "실시", "들", "(토큰)"))
                    or _normal(w) == "작은" + base]
                if not trivial:
                    out.append((chapter, term, words))
    return out


def test_the_translation_terms_are_the_ones_the_issue_names():
    found = {(c, t) for c, t, _ in translated_terms()}
    for pair in [("trench_crusade", "±DICE"), ("trench_crusade", "위험한 행동"), ("trench_crusade", "이동력"),
                 ("pf2e", "한 걸음"), ("pf2e", "붙잡기"), ("bfrpg", "험한 지형")]:
        assert pair in found


@pytest.mark.parametrize("chapter, term, words", translated_terms())
def test_the_source_translations_term_stands_beside_the_books_at_first_use(chapter, term, words):
    """Item 10: where the book's word differs from the source translation's, the chapter gives
    the translation's word beside it the first time it links the term. Issue 29: out of the
    sentence, in a side note on the term (``{term}`활성화`[^tc-activation]`` with
    ``[^tc-activation]: 요약본의 말로는 「조작」.``), or in the sentence's own words; never as a
    bracketed 「번역본: …」, which the glossary alone keeps."""
    text = markdown_of(BOOK / f"{chapter}.ipynb")
    notes = dict(re.findall(r"^\[\^([^\]]+)\]:\s*(.+)$", text, flags=re.M))
    for paragraph in re.split(r"\n\s*\n", text):
        roles = [shown.strip() for shown, target in TERM_ROLE.findall(paragraph)
                 if (target or shown).strip() == term]
        if roles:
            plain = TERM_ROLE.sub(lambda m: m.group(1), paragraph)
            if any(shown in words for shown in roles):  # the link shows the translation's word
                return
            beside = plain + " ".join(notes.get(label, "") for label in re.findall(r"\[\^([^\]]+)\]", paragraph))
            assert any(w in beside for w in words), (term, plain[:200])
            return
    pytest.fail(f"{term} is never linked in {chapter}")


def test_underface_uses_the_sources_name_for_the_crossbow():
    """Item 10: the Underface source calls it 라이트 크로스보우 (specialty 석궁), never 쇠뇌."""
    for path in (BOOK / "underface.ipynb", BOOK / "quickref" / "underface.ipynb"):
        assert not any("쇠뇌" in t for t in reader_texts(path)), path.name


#: Item 11: wording the close reading found, and the words the book settled on instead.
WORDING = [
    ("underface", "명중 판정 (opposed check)"), ("underface", "설정(settings)"),
    ("underface", "알아차려야 할 수 있습니다"), ("underface", "다온이 피해서 피해가 없습니다"),
    ("hunters_moon", "정찰 라운드` 때 또는 그 이전"), ("hunters_moon", "첫 라운드에 한 번만 합니다"),
    ("hunters_moon", "그만\n   하겠다고"), ("hunters_moon", "그만 하겠다고"),
    ("bfrpg", "(원문 16)칸"), ("bfrpg", "12 (원문 16)"), ("bfrpg", "물속(difficult terrain)"),
    ("bfrpg", "가벼운 무게"), ("bfrpg", "무거운 무게"), ("bfrpg", "갑옷없음"), ("bfrpg", "금속갑옷"),
    ("bfrpg", "가죽갑옷"), ("bfrpg", "마법 금속 갑옷"),
    ("trench_crusade", "성공 굴림 1번"),
    # issue 25: words a reader should not meet, and the fourth close reading's wording
    ("bfrpg", "라이브러리"), ("pf2e", "라이브러리"), ("trench_crusade", "라이브러리"),
    ("underface", "라이브러리"), ("trench_crusade", "계산 모듈"), ("hunters_moon", "목록 순서"),
    ("hunters_moon", "P1·P2"), ("hunters_moon", "신들의 총애"),
    ("bfrpg", "팔라딘`**(Paladin, 30피트)은 달아납니다"), ("bfrpg", "팔라딘: 30피트: 걷기"),
    ("bfrpg", "넓다는 것이 분명합니다"), ("bfrpg", "전술적인 판단도 늘어납니다"),
    ("trench_crusade", "근거리 공격`을 한 번 합니다"),
    # issue 29: the book's terms (the source translation's words stay in the glossary only)
    ("trench_crusade", "조작"), ("trench_crusade", "단병접전"), ("trench_crusade", "근거리 공격"),
    ("trench_crusade", "근거리 무기"), ("pf2e", "명중굴림"), ("bfrpg", "명중굴림"),
    ("trench_crusade", "번역본:"), ("pf2e", "번역본:"), ("bfrpg", "번역본:"), ("underface", "번역본:"),
    ("hunters_moon", "번역본:"), ("bfrpg", "분리 사격 +2를 받음"), ("underface", "이 방어구가 평상복보다"),
    ("hunters_moon", "명중 가운데 크리티컬 히트(스페셜) 1/36"),
    ("underface", "보통 실패"), ("underface", "버팀"), ("underface", "기절 (HP 0 이하)"),
    ("underface", "`가 캐릭터가 이번 턴에"), ("underface", "전투에 끼어"),
    ("underface", "(parry, dodge)"),
]


@pytest.mark.parametrize("chapter, wrong", WORDING)
def test_the_wording_fixes_hold_on_the_chapter_and_its_quick_reference(chapter, wrong):
    """A side note (a footnote's text) may name the source translation's word at a term's first
    link (issue 29: 「요약본의 말로는 「조작」입니다」); the text itself never uses it."""
    for path in (BOOK / f"{chapter}.ipynb", BOOK / "quickref" / f"{chapter}.ipynb"):
        texts = [re.sub(r"^\[\^[^\]]+\]:.*$", "", t, flags=re.M) for t in reader_texts(path)]
        assert not any(wrong in t for t in texts), (path.name, wrong)


def test_wording_of_the_glossary_and_the_library_texts():
    from widgets.views import underface as uv
    from widgets.views import worked as w
    entries = glossary_entries()
    assert "고정 값" in entries["최대 피해"] and "총기·석궁은 더하지 않음" in entries["피해 (언더페이스)"]
    assert "+½DB, 또는 DB 없음" in markdown_of(BOOK / "quickref" / "underface.ipynb")
    own = [r for r in uv.worked_examples().rows if "이 책의 예" in r[0]]
    assert [r[0] for r in own] == ["방어 점수 5, 피해 1 (이 책의 예: 하한 0)"]
    assert "다온이 공격을 피해 HP가 줄지 않습니다" in [w.uf_round(s).text() for s in range(20, 100, 10)
                                               if w.uf_round(s).numbers["rolled"] == "defender_wins"][0]
    assert not any("베이직" in t for t in reader_texts(BOOK / "api.ipynb"))


#: Particles after a dice count, as the library reads it (errors.particle / format.josa): 2D6을.
DICE_PARTICLE = re.compile(r"((?:\(2\+n\)|\d+)?D\d+)(으로|을|를|이|가|은|는|과|와|로)")
_PAIR = {"을": "을/를", "를": "을/를", "이": "이/가", "가": "이/가", "은": "은/는", "는": "은/는",
         "과": "과/와", "와": "과/와", "으로": "으로/로", "로": "으로/로"}


@pytest.mark.parametrize("path", PAGES + [BOOK / "glossary.md"], ids=lambda p: p.stem)
def test_particles_after_dice_follow_the_librarys_reading(path):
    """Item 11: one reading everywhere — hand-written prose and every stored output write what
    format.josa gives (2D6을, 4D6을, 3D6으로), as the widgets do."""
    wrong = [m.group(0) for t in reader_texts(path) for m in DICE_PARTICLE.finditer(t)
             if fmt.josa(m.group(1), _PAIR[m.group(2)]) != m.group(0)]
    assert wrong == []
    assert fmt.josa("2D6", "을/를") == "2D6을" and fmt.josa("4D6", "을/를") == "4D6을"


# --- the shared reader tools cover every reader page (item 12) ---------------------------

TOOLS = Path("/work/shared/tools")


def run_tool(name: str, *args: str):
    import subprocess
    import sys
    return subprocess.run([sys.executable, str(TOOLS / name), *args], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


@pytest.mark.skipif(not TOOLS.is_dir(), reason="the shared reader tools are not on this machine")
@pytest.mark.parametrize("tool", ["reader_words.py", "seed_overlap.py"])
def test_the_reader_tools_find_nothing_on_the_chapters_quick_references_and_glossary(tool, tmp_path):
    """Both tools pass on the whole book, on the quick references alone and on the glossary
    alone; and they do read those pages (a planted word in a copy is found)."""
    for target in ("book", "book/quickref"):
        done = run_tool(tool, str(ROOT / target))
        assert done.returncode == 0, done.stdout[-2000:]
    glossary_dir = tmp_path / "glossary"
    glossary_dir.mkdir()
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    (glossary_dir / "glossary.md").write_text(text, encoding="utf-8")
    done = run_tool(tool, str(glossary_dir))
    assert done.returncode == 0, done.stdout[-2000:]
    # the tools really read a quick reference and the glossary: plant what each looks for
    planted = tmp_path / "planted"
    (planted / "quickref").mkdir(parents=True)
    seed = next(Path("/work/shared/seeds").glob("003_*.txt")).read_text(encoding="utf-8")
    line = max((ln for ln in seed.splitlines() if "|" not in ln), key=len)
    word = "자바스크립트" if tool == "reader_words.py" else line
    nb = json.loads((BOOK / "quickref" / "bfrpg.ipynb").read_text(encoding="utf-8"))
    nb["cells"][0]["source"] = ["".join(nb["cells"][0]["source"]) + "\n\n" + word]
    (planted / "quickref" / "bfrpg.ipynb").write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    (planted / "glossary.md").write_text(text + "\n" + word + "\n", encoding="utf-8")
    done = run_tool(tool, str(planted))
    assert done.returncode == 1
    assert "bfrpg.ipynb" in done.stdout and "glossary.md" in done.stdout


# --- issue 25: the fourth close reading ----------------------------------------------------

SEEDS = Path("/work/shared/seeds")
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the source texts are not on this machine")


def seed_text(game_file_prefix: str) -> str:
    return next(SEEDS.glob(f"{game_file_prefix}_*.txt")).read_text(encoding="utf-8")


def glossary_section(game: str) -> str:
    """The glossary's text for one game (its ``## 게임`` section)."""
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    return next(s for s in re.split(r"^## ", text, flags=re.M) if s.startswith(game))


#: Sentences that say what one square of a move while engaged costs.
ENGAGED_COST = re.compile(r"근접(?:전을 유지하(?:는 이동|며 움직이는)|\s*이동)[^.]{0,80}?(?:한 칸|칸당)")


def test_ten_feet_a_square_while_engaged_is_cited_as_the_sources():
    """Item 2: melee example 2 states it (half speed, 10 ft a square), so every sentence that
    gives the cost of a square while engaged cites that example and is not labelled 가정 — in
    §2.2.3, §2.4 and the glossary's 「근접 이동」 (the doubled diagonal is the book's own)."""
    text = markdown_of(BOOK / "bfrpg.ipynb")
    plain = TERM_ROLE.sub(lambda m: m.group(1), text)
    hits = [m.group(0) for m in ENGAGED_COST.finditer(plain)]
    assert len(hits) >= 2, hits
    for hit in hits:
        sentence, _, _ = sentence_with(plain, hit)
        if "대각선" not in sentence:
            assert not labelled(plain, hit, "가정"), sentence
    for section in ("### 지형, 아군, 근접전", "## 근접 전투"):
        part = plain.split(section, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
        cited = [sentence_with(part, m.group(0))[0] for m in ENGAGED_COST.finditer(part)]
        assert any("10피트" in c and "원문 근접 예제 2" in c for c in cited), (section, cited)
    entry = glossary_entries()["근접 이동"]
    first = entry.split(" — ", 1)[1].split("(원문 근접 예제 2")[0]
    assert "10피트" in first and "가정" not in first
    assert "원문 근접 예제 2가 정한 값" in entry


@needs_seeds
def test_underface_says_truly_how_its_section_numbers_relate_to_the_sources():
    """Item 3: the book numbers its sections in its own order (4.4 is the source's 4.5 …); the
    intro must not claim the numbers are the source's, every heading's (원문 …) names a section
    the source has, and the intro's examples of the mapping are the headings' own."""
    text = markdown_of(BOOK / "underface.ipynb")
    intro = text.split("\n## ", 1)[0]
    assert not re.search(r"절 번호\s*(?:\([^)]*\))?\s*는\s*원문의 절 번호", intro), intro[:300]
    seed_sections = set(re.findall(r"^(\d+(?:\.\d+)*) ", seed_text("000"), flags=re.M))
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    book = {f"4.{n}": h for n, h in enumerate(headings, start=1)}
    mismatched = []
    for number, heading in book.items():
        cited = re.search(r"\(원문 ([^)]*)\)", heading)
        if cited is None:   # the book's own worked example or calculator, or a newcomer's page
            assert ("(예시)" in heading or heading in NEWCOMER_SECTIONS
                    or heading in BOOK_CALCULATOR_SECTIONS), heading
            continue
        numbers = re.findall(r"\d+(?:\.\d+)+", cited.group(1))
        assert numbers and set(numbers) <= seed_sections, heading
        if number not in numbers:
            mismatched.append((number, numbers))
    assert mismatched                                    # 4.4 ↔ 4.5, 4.5 ↔ 4.4, 4.7 ↔ 4.7.1 …
    for number, source in re.findall(r"(4\.\d)\s*「[^」]+」\S*\s*원문 (4\.\d(?:\.\d)?)", intro):
        assert f"원문 {source}" in book[number], (number, source)
    assert "원문에 없는 이 책의 예시" in intro


def rendered_text(markdown: str) -> str:
    """What a CommonMark renderer shows of ``markdown`` (code spans and MyST roles dropped)."""
    from markdown_it import MarkdownIt
    html_out = MarkdownIt("commonmark").render(markdown)
    html_out = re.sub(r"<code>.*?</code>", "", html_out, flags=re.S)
    return re.sub(r"<[^>]+>", "", html_out)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_emphasis_is_left_unclosed(path):
    """Item 4: ``**{term}`가정`**인`` never closes (a closing ** after a backtick needs a space or
    punctuation after it): the page showed the asterisks. No markdown cell renders a literal **."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            shown = rendered_text("".join(cell["source"]))
            assert "**" not in shown, shown[max(0, shown.find("**") - 60):shown.find("**") + 20]


def test_the_death_threshold_itself_counts():
    """Item 4: the source says 이하 (at or below the threshold); no page says 아래."""
    for path in PAGES + [BOOK / "glossary.md"]:
        for t in reader_texts(path):
            plain = TERM_ROLE.sub(lambda m: m.group(1), t).replace("**", "")
            assert "사망 임계 아래" not in plain, path.name
    assert "사망 임계 이하" in glossary_entries()["인내 판정"]


@needs_seeds
def test_hunters_moon_calls_its_check_procedure_an_assumption_and_cites_what_the_source_has():
    """Item 5: the check procedure (2D6 ≥ target, 12 special, 2 fumble) is the book's 가정 —
    a dice bot for another game is no official rule — on the chapter, its quick reference, the
    glossary and the widget titles; the chapter cites only names the source text has."""
    from widgets.views import hunters_moon as hv
    text = markdown_of(BOOK / "hunters_moon.ipynb")
    plain = TERM_ROLE.sub(lambda m: m.group(1), text)
    assert "BCDice가 헌터즈 문 판정을 처리하는 방식" not in plain and "BCDice의 처리 방식" not in plain
    # the one mention of 보충 규칙 says the procedure is not one
    uses = [m.start() for m in re.finditer("보충 규칙", plain)]
    assert len(uses) == 1 and plain[uses[0]:uses[0] + 12].startswith("보충 규칙이 아닙니다"), uses
    assert "### 판정 (가정)" in plain
    assert not any("보충" in t for t in reader_texts(BOOK / "quickref" / "hunters_moon.ipynb"))
    assert "보충 규칙" not in glossary_section("헌터즈")
    titles = [make().title for make in hv.ALL_WIDGETS]
    assert not any("보충" in title for title in titles) and "가정" in hv.check_widget().title
    seed = seed_text("004")
    cited = re.findall(r"원문 ['‘]([^'’]+)['’]", plain)
    assert all(name in seed for name in cited), cited
    assert "원문 '괴물 측 행동'" not in plain and "원문 '상태' 항" not in plain
    for name in ("위협 행동", "포박상태"):                 # what the cited passages really say
        assert name in seed and name in plain


@needs_seeds
def test_the_epigraph_is_quoted_as_the_source_words_it():
    """Quotation marks hold the source's own words."""
    text = markdown_of(BOOK / "hunters_moon.ipynb")
    quoted = re.search(r'> \*"([^"]+)"', text).group(1)
    assert quoted in seed_text("004")


def test_the_other_readings_are_labelled_where_they_stand():
    """The unlabelled readings of the issue: the glossary's DB, 기본 확률, 축복 표식, per-opponent
    engagement and flight, the fourth attack's −10; the worked round's destroyed threat; the flying
    threat in the Hunter's Moon widgets; Underface's fumble default against the source's words."""
    from widgets.views import hunters_moon as hv
    from widgets.views import worked as w
    entries = glossary_entries()
    for term in ("DB", "기본 확률", "축복 표식", "근접전", "도주"):
        assert "가정" in entries[term], term
    assert "체격에 따라" not in entries["DB"] and "훈련하지 않아도" not in entries["기본 확률"]
    assert "네 번째" in entries["다중 공격 페널티"] and "보충 규칙" in entries["다중 공격 페널티"]
    for plot in range(1, 4):
        for head, step in w.hm_round(plot).steps:
            if "격파" in step and ("행동하지 못" in step):
                assert "가정" in step, (plot, head, step)
    labels_of = {c.name: c.label for c in hv.status_defence_widget().controls}
    assert "가정" in labels_of["threat_flying"] and "모든 무기가 대공" not in labels_of["threat_flying"]
    labels_of = {c.name: c.label for c in hv.status_attack_widget().controls}
    assert "가정" in labels_of["threat_flying"]
    # issue 29: the tension stands in the body of the chapter's 「판정 굴리기」, not in a footnote
    tension = paragraph_with(markdown_of(BOOK / "underface.ipynb"), "**펌블과 목표치 96 이상.**")
    assert "96" in tension and "승패" in tension and "원문 4.3" in tension and "펌블 없음" in tension


def test_source_translation_names_of_the_statuses_at_first_use():
    """포박·비행·잠수 are the source's 포박상태·비행상태·잠수상태: the chapter says so where it
    first links each (the first-use test skips these as a mere suffix)."""
    text = markdown_of(BOOK / "hunters_moon.ipynb")
    for term in ("포박", "비행", "잠수"):
        i = text.index(f"{{term}}`{term}`")
        paragraph = text[:i].rsplit("\n\n", 1)[-1] + text[i:].split("\n\n", 1)[0]
        assert f"{term}상태" in paragraph, term


def test_glossary_links_attack_value_to_the_threats_attack():
    sections = yaml.safe_load((BOOK / "glossary_sections.yml").read_text(encoding="utf-8"))
    assert sections["공격치"] == "hunters_moon § 위협의 공격과 방어판정"
    assert sections["방어판정"] == sections["공격치"]


def test_spent_markers_are_gone_and_the_free_attack_is_optional():
    """Trench Crusade: spent blood and blessing markers are consumed (소모); the free melee attack
    on a retreating model may be made (수행할 수 있음); the bloodbath summary says it is on."""
    from widgets.views import trench_crusade as tv
    text = markdown_of(BOOK / "trench_crusade.ipynb")
    for section in ("## 유혈 표식", "## 축복 표식"):
        part = text.split(section, 1)[1].split("\n## ", 1)[0]
        assert "없어" in part, section
    entries = glossary_entries()
    assert "없어집니다" in entries["유혈 표식"] and "없어집니다" in entries["축복 표식"]
    assert "소모" in q.tc_dice_sources().note    # the source's word (the chapter: 없어집니다)
    for path in (BOOK / "trench_crusade.ipynb", BOOK / "quickref" / "trench_crusade.ipynb"):
        item = re.split(r"\n\s*(?:[-*]|\d\.) ", markdown_of(path).split("{term}`퇴각`", 1)[1], maxsplit=1)[0]
        item = TERM_ROLE.sub(lambda m: m.group(1), item)     # the link's shown word
        assert "근접 공격" in item and re.search(r"근접 공격`?을 한 번 할 수 있습니다", item), item
    on = tv.injury_widget().shown(dice=1, armour=0, shield=False, bloodbath=True, weapon_mod=0).html
    off = tv.injury_widget().shown(dice=1, armour=0, shield=False, bloodbath=False, weapon_mod=0).html
    def summary(html):   # the roll's summary: the paragraph under the graded lead lines
        return next(p for p in html.split("</p>") if "answer-graded" not in p)
    assert "유혈낭자" in summary(on) and "유혈낭자" not in summary(off)


def test_the_fourth_reading_wording_of_the_glossary():
    entries = glossary_entries()
    assert "전투에 낀" not in entries["라운드 (언더페이스)"]
    actor = entries["행위자"]
    assert "동점이면 이깁니다" not in actor
    assert "성공 폭까지 같으면" in actor and "둘 다 실패하면 아무도 이기지 못합니다" in actor
    assert labels.UF_CHECKS["failure"] == "실패" and "버팀" not in "".join(labels.HP_STATES.values())
    assert "사망 임계보다 위" in labels.HP_STATES["unconscious"]
