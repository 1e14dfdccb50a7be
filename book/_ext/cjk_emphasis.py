"""Korean-friendly emphasis: ``**사망 임계(death threshold)**입니다`` is bold with no space.

CommonMark's flanking rule lets a closing ``**`` that follows punctuation (a bracket, a role's
closing backtick, a quote) close only before a space or more punctuation, so
``**{term}`사망 임계`**입니다`` stayed literal and writers split the particle from its word
(``** 입니다``). This module applies the CommonMark CJK-friendly amendments (the
"markdown-cjk-friendly" specification draft: a delimiter run next to a CJK character, Hangul
included, counts as flanking on that side) to markdown-it-py, the parser under myst-parser and
myst-nb. Text with no CJK character next to a delimiter parses exactly as before.

The book uses it through this Sphinx extension (``_config.yml``: ``cjk_emphasis: book/_ext``):
``setup`` turns it on for every parser of the build. Tests and ``scripts/fix_particles.py``
turn it on for one parser with ``MarkdownIt().use(cjk_friendly)``.

JupyterLab (jupyterlab-myst 2.7) bundles its own markdown-it with no plugin hook, so there the
stock rule holds: ``scripts/fix_particles.py`` writes each joined particle in a form both
parsers read alike, and ``tests/test_particles.py`` checks every notebook for a difference.

>>> from markdown_it import MarkdownIt
>>> md = MarkdownIt("commonmark").use(cjk_friendly)
>>> md.render("**사망 임계(death threshold)**입니다")
'<p><strong>사망 임계(death threshold)</strong>입니다</p>\\n'
>>> MarkdownIt("commonmark").render("**사망 임계(death threshold)**입니다")
'<p>**사망 임계(death threshold)**입니다</p>\\n'
"""
from __future__ import annotations

import unicodedata

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline.state_inline import Scanned, StateInline

#: Hangul blocks whose East Asian Width is not W/F/H (the spec counts every Hangul-script
#: character): Jamo medial/final (U+1160–11FF) and Jamo Extended-B (U+D7B0–D7FF).
_HANGUL_NARROW = ((0x1160, 0x11FF), (0xD7B0, 0xD7FF))
#: Wide characters shown as emoji by default (UTS #51 Emoji_Presentation), which the spec
#: leaves out of CJK: the pictograph planes and the wide symbols of U+2300–2BFF.
_EMOJI = ((0x2300, 0x2BFF), (0x1F000, 0x1F02F), (0x1F0A0, 0x1F0FF), (0x1F100, 0x1F1FF),
          (0x1F300, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F900, 0x1FAFF))


def is_cjk(char: str) -> bool:
    """A CJK character as the CJK-friendly specification counts it (Hangul included).

    >>> [is_cjk(c) for c in "한ᅡ「。漢かa(!😀"]
    [True, True, True, True, True, True, False, False, False, False]
    """
    code = ord(char)
    if code < 0x1100:
        return False
    if any(lo <= code <= hi for lo, hi in _HANGUL_NARROW):
        return True
    if unicodedata.east_asian_width(char) not in ("W", "F", "H"):
        return False
    return not any(lo <= code <= hi for lo, hi in _EMOJI)


def is_punct(char: str) -> bool:
    """Punctuation as markdown-it-py's CommonMark rule counts it.

    >>> is_punct(")"), is_punct("」"), is_punct("가")
    (True, True, False)
    """
    return isMdAsciiPunct(ord(char)) or isPunctChar(char)


def flanking(last: str, next_: str) -> tuple[bool, bool]:
    """(left-flanking, right-flanking) of a delimiter run between ``last`` and ``next_``.

    The amended definitions: punctuation blocks flanking only when it is non-CJK
    punctuation, and a CJK character on the far side lets it flank anyway.

    >>> flanking(")", "입")      # after a bracket, before a particle: it can close
    (True, True)
    >>> flanking(")", "a")       # no CJK: as CommonMark says, it cannot
    (True, False)
    """
    last_ws, next_ws = isWhiteSpace(ord(last)), isWhiteSpace(ord(next_))
    last_cjk, next_cjk = is_cjk(last), is_cjk(next_)
    last_other_punct = is_punct(last) and not last_cjk
    next_other_punct = is_punct(next_) and not next_cjk
    left = not next_ws and (not next_other_punct or last_ws or last_other_punct or last_cjk)
    right = not last_ws and (not last_other_punct or next_ws or next_other_punct or next_cjk)
    return left, right


#: markdown-it-py's own rule (kept once, should this module be imported twice).
_stock_scan_delims = getattr(StateInline, "stock_scan_delims", StateInline.scanDelims)
StateInline.stock_scan_delims = _stock_scan_delims  # type: ignore[attr-defined]


def _scan_delims(self: StateInline, start: int, canSplitWord: bool) -> Scanned:
    # ``cjk_everywhere`` is set on the class by ``setup`` (a Sphinx build of the book)
    if not (getattr(self, "cjk_everywhere", False) or getattr(self.md, "cjk_friendly", False)):
        return _stock_scan_delims(self, start, canSplitWord)
    src, end = self.src, start
    while end < self.posMax and src[end] == src[start]:
        end += 1
    last = src[start - 1] if start > 0 else " "
    next_ = src[end] if end < self.posMax else " "
    if not (is_cjk(last) or is_cjk(next_)):
        return _stock_scan_delims(self, start, canSplitWord)
    left, right = flanking(last, next_)
    if canSplitWord:                                   # * and ~
        return Scanned(left, right, end - start)
    return Scanned(left and (not right or is_punct(last)),   # _
                   right and (not left or is_punct(next_)), end - start)


StateInline.scanDelims = _scan_delims  # type: ignore[method-assign]


def cjk_friendly(md: MarkdownIt) -> None:
    """markdown-it-py plugin: ``MarkdownIt().use(cjk_friendly)``.

    >>> MarkdownIt("commonmark").use(cjk_friendly).render("**{term}`x`**는")
    '<p><strong>{term}<code>x</code></strong>는</p>\\n'
    """
    md.cjk_friendly = True  # type: ignore[attr-defined]


def setup(app):
    """Sphinx: every Markdown parser of the build reads Korean emphasis (myst-parser, myst-nb)."""
    StateInline.cjk_everywhere = True  # type: ignore[attr-defined]
    return {"parallel_read_safe": True, "parallel_write_safe": True}
