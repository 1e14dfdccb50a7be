"""Link glossary terms at their first use in every ## section of the chapters and quick references.

usage: python scripts/link_glossary.py [NOTEBOOK ...]   (default: every chapter and quick reference)

The terms come from book/glossary.md: each ## section belongs to the chapter its first line links
(``[… 장](<chapter.ipynb>)``); the block without a chapter (공통) applies everywhere. A term is found in the
text by its name without the game in brackets ("피해 (언더페이스)" → "피해"), or by the forms in
SURFACES. Idempotent: a section that already links a term is left alone. Only markdown cells change,
one line at a time, never headings, code, links or existing roles. Run it after adding a section.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"

#: Terms found in the text by other words than their name ([] = never linked automatically).
SURFACES: dict[str, list[str]] = {'D6': [],
     'D20': [],
     'GM': [],
     'PC': [],
     'NPC': [],
     '정확한 분수': [],
     '±DICE': ['±DICE', '+DICE', '−DICE'],
     '분수 올림': ['분수 (Fractions)'],
     '유혈 표식용 주사위': [],
     '걷기와 달리기': ['달리기'],
     '대각선 이동': ['대각선'],
     '미사일 발사': ['미사일'],
     '엄폐와 은폐': ['엄폐'],
     '사거리 구간 (베이식 판타지)': ['사거리'],
     '뒤쪽 칸': ['뒤쪽 칸', '뒤쪽 세 칸'],
     '능력 수정치': ['능력 수정치', '근력 수정치', '민첩 수정치'],
     '날렵함': ['날렵함', '날렵한'],
     '종류 미지정 페널티': ['종류가 정해지지 않은'],
     'DC': [],
     '성공 (패스파인더)': [],
     '실패 (패스파인더)': [],
     '달리기 (언더페이스)': ['달려야'],
     'DB': ['피해 보너스', 'DB'],
     'HP': [],
     '무용': ['【무용】'],
     '두뇌': ['【두뇌】'],
     '기술 (헌터즈 문)': ['【기술】'],
     '방어치': ['【방어치】'],
     '공격치': ['【공격치】'],
     '내구도': ['【내구도】'],
     '생명력': ['【생명력】'],
     '말 (헌터즈 문)': ['말(토큰)'],
     '괴물 레벨': []}
#: Words that look like a term but are another word when followed by these.
NOT_BEFORE = {"가정": "집", "라운드": " 실드", "차례": "로"}

PROTECT = re.compile(r"\{[a-z]+\}`[^`]*`|`[^`]*`|\[[^\]]*\]\([^)]*\)|\$[^$]*\$|<[^>]+>")
WORD_CHAR = re.compile(r"[가-힣A-Za-z0-9]")
DELIMITER_OK = re.compile(r"[\s.,;:!?()\[\]「」『』'\"/·…—–-]")
ROLE = re.compile(r"\{term\}`([^`<]*?)(?: <([^>]*)>)?`")


def glossary_terms() -> dict[str | None, list[str]]:
    """Chapter name (None for every chapter) → its glossary terms."""
    text = (BOOK / "glossary.md").read_text(encoding="utf-8")
    out: dict[str | None, list[str]] = {}
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        doc = re.search(r"\]\(<([a-z0-9_]+)\.ipynb>\)", block.split("```{glossary}")[0])
        body = re.search(r"```\{glossary\}\n(.*?)```", block, flags=re.S).group(1)
        terms = [line.strip() for line in body.splitlines() if line and not line.startswith(" ")]
        out[doc.group(1) if doc else None] = terms
    return out


def surface_forms(chapter: str) -> list[tuple[str, str]]:
    terms = glossary_terms()
    pairs = []
    for term in terms.get(None, []) + terms.get(chapter, []):
        forms = SURFACES.get(term, [re.sub(r"\s*\([^)]*\)$", "", term)])
        pairs += [(form, term) for form in forms]
    return sorted(pairs, key=lambda p: -len(p[0]))


def _fits(line: str, start: int, end: int, form: str) -> bool:
    if start and WORD_CHAR.match(line[start - 1]):
        return False
    if form in NOT_BEFORE and line[end:].startswith(NOT_BEFORE[form]):
        return False
    j = end
    while j < len(line) and line[j] == "*":
        j += 1
    if end < j < len(line) and not DELIMITER_OK.match(line[j]):
        return False  # "**용어**을" would stop being bold once the term is a role
    i = start
    while i > 0 and line[i - 1] == "*":
        i -= 1
    return not (0 < i < start and not DELIMITER_OK.match(line[i - 1]))


def _link_line(line: str, forms: list[tuple[str, str]], done: set[str]) -> str:
    for form, term in forms:
        if term in done:
            continue
        spans = [m.span() for m in PROTECT.finditer(line)]
        # a shorter term inside a longer one ("행동" in "위험한 행동") is not a use of it
        for longer, _ in forms:
            if len(longer) > len(form) and form in longer:
                spans += [(m.start(), m.end()) for m in re.finditer(re.escape(longer), line)]
        at = line.find(form)
        while at >= 0:
            end = at + len(form)
            free = not any(a <= at < b or a < end <= b for a, b in spans)
            if free and _fits(line, at, end, form):
                role = f"{{term}}`{form}`" if form == term else f"{{term}}`{form} <{term}>`"
                line = line[:at] + role + line[end:]
                done.add(term)
                break
            at = line.find(form, at + 1)
    return line


def link_notebook(nb, chapter: str) -> int:
    """Link the first use of each term in every # / ## section; return the lines changed."""
    forms, done, changed = surface_forms(chapter), set(), 0
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines, fence = cell.source.split("\n"), False
        for i, line in enumerate(lines):
            if line.startswith("```"):
                fence = not fence
            elif fence or line.startswith("#"):
                if line.startswith(("# ", "## ")):
                    done = set()
            else:
                done |= {(m.group(2) or m.group(1)).strip() for m in ROLE.finditer(line)}
                new = _link_line(line, forms, done)
                changed += new != line
                lines[i] = new
        cell.source = "\n".join(lines)
    return changed


def main(paths: list[str]) -> None:
    chapters = [c for c in glossary_terms() if c]
    notebooks = [Path(p).resolve() for p in paths] or [BOOK / f"{c}.ipynb" for c in chapters] + [
        BOOK / "quickref" / f"{c}.ipynb" for c in chapters]
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        changed = link_notebook(nb, path.stem)
        if changed:
            nbformat.write(nb, path)
        print(f"{path.relative_to(ROOT)}: {changed} lines linked")


if __name__ == "__main__":
    main(sys.argv[1:])
