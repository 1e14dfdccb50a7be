"""「직접 해 보기」: a chapter's practice questions, each answer folded until the reader taps it.

A chapter asks a question in Markdown and answers it in the next cell, whose hidden input calls
the library and hands the numbers to :func:`answer`; the stored output is the folded answer, so
nbval recomputes every number a reader is told. On the site and in Jupyter the answer is an HTML
``<details>`` (no script): 「답 보기」 opens it.
"""
from __future__ import annotations

import html
from fractions import Fraction

from .table import fraction, one_in, rounded_percent


def chance(p: object) -> str:
    """A probability as a player says it first, the exact fraction beside it.

    >>> chance(Fraction(1381, 7776)), chance(Fraction(1, 2)), chance(Fraction(7, 12))
    ('약 18% (1381/7776)', '50% (1/2)', '약 58% (7/12)')
    >>> chance(Fraction(1, 1000)), chance(Fraction(999, 1000)), chance(0), chance(1)
    ('1% 미만, 1,000번 중 1번꼴 (1/1000)', '99% 넘게 (999/1000)', '0% (0)', '100% (1)')

    A one-in-N chance also says how often, as a player counts it:

    >>> chance(Fraction(1, 36))
    '약 3%, 36번 중 1번꼴 (1/36)'
    """
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise ValueError(f"not a probability: {p}")
    often = one_in(p)
    return f"{rounded_percent(p)}{', ' + often if often else ''} ({fraction(p)})"


class Answer:
    """A folded answer: its first line (the short answer, in bold) and the reasoning under it.

    >>> a = Answer("약 58% (7/12)", "2D6 합계가 7 이상인 경우입니다.")
    >>> a._repr_html_().startswith('<details class="practice-answer"><summary>답 보기</summary>')
    True
    >>> a
    답: 약 58% (7/12) — 2D6 합계가 7 이상인 경우입니다.
    """

    def __init__(self, short: str, *why: str):
        self.short = str(short)
        self.why = tuple(str(w) for w in why)

    def _repr_html_(self) -> str:
        body = f"<p><b>{html.escape(self.short)}</b></p>" + "".join(
            f"<p>{html.escape(w)}</p>" for w in self.why)
        return ('<details class="practice-answer"><summary>답 보기</summary>'
                f"{body}</details>")

    def __repr__(self) -> str:
        return " — ".join(("답: " + self.short,) + self.why)


def answer(short: str, *why: str) -> Answer:
    """The folded answer of one practice question (what a notebook cell returns).

    >>> answer("−4", "240ft를 넘으면 두 단위째입니다.").short
    '−4'
    """
    return Answer(short, *why)
