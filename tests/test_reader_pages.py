"""The reader's pages: the glossary (용어집), the chapters' links to it, the quick references
(빠른 참조) and their tables, which must be the library's numbers."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from widgets import bfrpg as bf
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


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_links_its_terms_to_the_glossary(chapter):
    names = {t.casefold() for t in glossary_entries()}
    text = markdown_of(BOOK / f"{chapter}.ipynb")
    roles = TERM_ROLE.findall(text)
    assert len(roles) >= 20, chapter
    assert f"<quickref/{chapter}>" in text       # the chapter points to its quick reference
    unknown = [(shown, target) for shown, target in roles
               if (target or shown).strip().casefold() not in names]
    assert unknown == []
    # every ## section links at least one term
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        assert TERM_ROLE.search(section), section.splitlines()[0]


def test_intro_links_every_chapter_quick_reference_and_the_glossary():
    text = markdown_of(BOOK / "intro.ipynb")
    for chapter in CHAPTERS:
        assert f"<{chapter}>" in text and f"<quickref/{chapter}>" in text
    assert "<glossary>" in text and "{term}`보충 규칙`" in text and "{term}`가정`" in text


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
        assert row[2:] == [fmt.prob(odds[k]) for k in ("failure", "success", "critical")]
        assert sum(odds.values()) == 1


def test_tc_injury_odds_are_the_library():
    table = q.tc_injury_odds((0, 1))
    rows = iter(table.rows)
    for armour in tc.ARMOUR.values():
        for net in (0, 1):
            assert next(rows)[2:] == [fmt.prob(p) for p in tc.injury_odds(net, armour).values()]


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
    assert cells["뒤쪽 칸에서 근접 공격"] == fmt.signed(bf.REAR_ATTACK_BONUS)
    assert cells["도주하는 상대에게 분리 사격"] == fmt.signed(bf.PARTING_SHOT_BONUS)
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
        [fmt.signed(pf2e.multiple_attack_penalty(n, a)) for a in (False, True)] for n in (1, 2, 3)]
    for i, row in enumerate(q.pf_ranges((120,)).rows, start=1):
        assert row[1] == fmt.signed(pf2e.range_penalty(120 * i, 120))


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
