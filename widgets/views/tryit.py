"""「직접 해 보기」: a chapter's practice questions, each answer folded until the reader taps it.

The question stands in a markdown cell; its answer is the output of a hidden-input code cell that
calls the library, so nbval recomputes every number the answer states. An answer leads with the
rounded percent a player says (「약 18%」) and keeps the exact fraction beside it.
"""
from __future__ import annotations

import html
from fractions import Fraction

from .table import fraction


def about(p: Fraction) -> str:
    """A probability as a player says it, rounded half-up to a whole percent, the exact value beside.

    >>> about(Fraction(1381, 7776)), about(Fraction(1, 2)), about(Fraction(1))
    ('약 18% (1381/7776)', '50% (1/2)', '100% (1)')
    >>> about(Fraction(1, 36))
    '약 3%, 36번 중 1번꼴 (1/36)'
    >>> about(Fraction(1, 1000)), about(Fraction(999, 1000))
    ('1% 미만 (1/1000)', '99% 넘게 (999/1000)')
    """
    p = Fraction(p)
    exact = fraction(p)
    if p in (0, 1):
        return f"{int(p * 100)}% ({exact})"
    whole = (200 * p.numerator + p.denominator) // (2 * p.denominator)   # half-up, exact
    if whole == 0:
        return f"1% 미만 ({exact})"
    if whole == 100:
        return f"99% 넘게 ({exact})"
    word = "" if whole == p * 100 else "약 "
    often = f", {p.denominator}번 중 1번꼴" if p.numerator == 1 and 2 < p.denominator <= 100 else ""
    return f"{word}{whole}%{often} ({exact})"


class Answer:
    """A folded answer: ``<details>`` on the site and in JupyterLab, plain text elsewhere.

    >>> a = Answer("명중 약 42%입니다.")
    >>> "<summary" in a._repr_html_() and "명중 약 42%입니다." in a._repr_html_()
    True
    >>> repr(a)
    '답: 명중 약 42%입니다.'
    """

    def __init__(self, text: str):
        self.text = text

    def _repr_html_(self) -> str:
        return ('<details class="try-answer"><summary>답 보기</summary>'
                f'<p>{html.escape(self.text)}</p></details>')

    def __repr__(self) -> str:
        return f"답: {self.text}"


def answer(*sentences: str) -> Answer:
    """The answer to one question, its sentences joined with a space.

    >>> repr(answer("걸었습니다.", "판정은 보통입니다."))
    '답: 걸었습니다. 판정은 보통입니다.'
    """
    return Answer(" ".join(sentences))
