"""Join particles split from their word: ``**사망 임계** 입니다`` → ``**사망 임계**입니다``.

The chapters' writers put a space between a closing ``**`` (or a bracket, or a code span or
role) and the particle after it, because CommonMark's emphasis rule did not close ``**`` after
punctuation before a Hangul letter. The book's parser now reads Korean emphasis
(``book/_ext/cjk_emphasis.py``), so the space only splits the particle from its word on screen.

    python3 scripts/fix_particles.py book/intro.ipynb book/glossary.md …   # rewrites them
    python3 scripts/fix_particles.py --check book/*.ipynb                   # lists, changes nothing

Only a space between such a closer and a particle or copula (은, 는, 이, 가, 입니다, …) goes, in
the Markdown cells of a notebook or in a ``.md`` file; code cells and outputs are not touched.
Every change is printed with its context, for the writer to glance over (a lone 이 could
in principle be the word "this"; the book has no such case).

JupyterLab (jupyterlab-myst) keeps CommonMark's stock rule, so where a joined ``**…**`` ends in
punctuation the script writes a form both parsers read alike:

- ``**사망 임계(death threshold)**은`` → ``**사망 임계**(death threshold)은`` (the bold stops
  before the parenthesis);
- ``**「표식」**을`` → ``「**표식**」을``;
- ``**{term}`근접전`**에`` → ``{term}`근접전`에`` (a glossary link alone needs no bold; a link
  stands out already).

Any other joined emphasis that JupyterLab would show with literal ``**`` is reported
(``needs a hand``) and left as it renders on the site.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))

from markdown_it import MarkdownIt  # noqa: E402
from mdit_py_plugins.myst_role import myst_role_plugin  # noqa: E402

from cjk_emphasis import cjk_friendly, is_punct  # noqa: E402

#: Particles and copulas that attach to the word before them (longest first).
PARTICLES = sorted("""은 는 이 가 을 를 의 에 에서 에게 에는 에도 에서는 로 으로 로는 으로는 로서 으로서 와 과
    와의 과의 도 만 까지 부터 처럼 보다 이나 나 란 이란 라는 이라는 이다 입니다 이며 이고 이면 이라면 이라
    이라고 라고 인 일 이므로 이지만 입니다만 이자 에서의 에의 만큼 마다 조차 밖에""".split(),
                   key=len, reverse=True)
#: What may close the word before the particle: emphasis, a bracket, a code span or role.
CLOSER = r"(?:\*\*|\*|`|\)|\]|」|』|>)"
SPLIT = re.compile(rf"(?<=\S)({CLOSER}) ({'|'.join(PARTICLES)})(?=[\s.,;:!?)\]」』·…—]|$)", re.M)

_ROLE = re.compile(r"\{[a-zA-Z0-9_:+-]+\}`[^`]+`")


def _parser(cjk: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark").use(myst_role_plugin)
    return md.use(cjk_friendly) if cjk else md


STOCK, BOOK = _parser(False), _parser(True)


def reads_alike(text: str) -> bool:
    """Whether JupyterLab's stock CommonMark and the book's parser render ``text`` the same.

    >>> reads_alike("**사망 임계**입니다"), reads_alike("**사망 임계(death)**입니다")
    (True, False)
    """
    return STOCK.render(text) == BOOK.render(text)


def _portable(bold: str, marker: str) -> str | None:
    """``bold`` (the text between the markers) written so that stock CommonMark closes it too."""
    inner = bold[len(marker):-len(marker)]
    paren = re.fullmatch(r"(.*?[^\s(])(\s*\([^()]*\))", inner, re.S)
    if paren:
        return f"{marker}{paren.group(1)}{marker}{paren.group(2)}"
    quote = re.fullmatch(r"([「『])(.+)([」』])", inner, re.S)
    if quote:
        return f"{quote.group(1)}{marker}{quote.group(2)}{marker}{quote.group(3)}"
    if _ROLE.fullmatch(inner):
        return inner
    return None


def fix_text(text: str) -> tuple[str, list[str]]:
    """``text`` with split particles joined, and a note per change (or per spot left to a hand).

    >>> fix_text("그 값이 **사망 임계** 입니다. 방향(facing) 이 있습니다.")[0]
    '그 값이 **사망 임계**입니다. 방향(facing)이 있습니다.'
    >>> fix_text("**{term}`근접전`(melee)** 에 들어갑니다")[0]
    '**{term}`근접전`**(melee)에 들어갑니다'
    >>> fix_text("**{term}`근접전`** 에, **「표식」** 을")[0]
    '{term}`근접전`에, 「**표식**」을'
    >>> fix_text("- **{term}`약진` (Dash)** 은")[0]
    '- **{term}`약진`** (Dash)은'
    >>> fix_text("값 ** 2** 이 아니라 `a b` 는 코드")[0]   # a space inside markup stays
    '값 ** 2**이 아니라 `a b`는 코드'
    """
    notes: list[str] = []
    out, pos = [], 0
    for m in SPLIT.finditer(text):
        closer, particle = m.group(1), m.group(2)
        start = m.start()
        out.append(text[pos:start])
        joined = closer + particle
        if closer in ("**", "*"):
            done = "".join(out)
            opening = done.rfind(closer, done.rfind("\n") + 1)
            if opening >= 0 and is_punct(done[-1]):
                better = _portable(done[opening:] + closer, closer)
                if better is not None:
                    out, joined = [done[:opening] + better], particle
        pos = m.end()
        out.append(joined)
        context = text[max(0, start - 24):m.end()].replace("\n", " ")
        notes.append(f"…{context}… → …{joined}")
    out.append(text[pos:])
    new = "".join(out)
    for para in new.split("\n\n"):
        if not reads_alike(para):
            shown = STOCK.render(para)
            at = shown.find("*")
            snippet = re.sub(r"<[^>]+>|\s+", " ", shown[max(0, at - 60):at + 40])
            notes.append(f"needs a hand (JupyterLab shows a literal *): …{snippet}…")
    return new, notes


def fix_file(path: Path, write: bool) -> list[str]:
    """Fix the Markdown cells of a notebook, or a ``.md`` file; the notes of what changed."""
    raw = path.read_text(encoding="utf-8")
    notes: list[str] = []
    if path.suffix == ".ipynb":
        nb = json.loads(raw)
        for cell in nb["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            source = "".join(cell["source"])
            new, cell_notes = fix_text(source)
            notes += [f"{path}:{cell.get('id', '?')}: {n}" for n in cell_notes]
            if new != source:
                cell["source"] = new.splitlines(keepends=True)
        text = json.dumps(nb, ensure_ascii=False, indent=1) + "\n"
    else:
        text, file_notes = fix_text(raw)
        notes += [f"{path}: {n}" for n in file_notes]
    if write and text != raw:
        path.write_text(text, encoding="utf-8")
    return notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="list what would change; write nothing")
    args = parser.parse_args(argv)
    found = 0
    for path in args.files:
        for note in fix_file(path, write=not args.check):
            print(note)
            found += 1
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
