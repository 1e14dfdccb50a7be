"""Korean text formatting for exact results (fraction + percent), shared by every view."""
from __future__ import annotations

import html
import re
from fractions import Fraction

from ..errors import particle
# The exact-number texts live with the one table helper, which draws them (it may not import this
# module: that was an import circle); they are this module's too.
from .table import INLINE_FRACTION_CHARS, exact_fold, exact_html, fraction, percent, prob, prob_html, readable, rounded_percent  # noqa: F401  (fmt.prob …)
from ..dice import or_better


def signed(n: int) -> str:
    """``+1`` / ``0`` / ``−1`` with a real minus sign."""
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")


def number(n: int) -> str:
    """A whole number as the reader sees it: a real minus sign (U+2212), no plus sign.

    >>> number(-4), number(0), number(3)
    ('−4', '0', '3')
    """
    return f"−{-n}" if n < 0 else str(n)


def total_first(label: str, total: "Fraction | list[tuple[str, Fraction]]") -> str:
    """An answer's first line: the total a GM asks for first ("does it hit?"), before the
    breakdown, read as a player says it (:func:`~widgets.views.table.readable`: the rounded
    percent first, the exact fraction beside it). ``total`` is one probability, or
    ``(name, probability)`` pairs shown one to a line (the three Strikes of a turn).

    >>> total_first("명중 (스페셜 포함)", Fraction(423, 1000))
    '<p class="answer-total"><b>명중 (스페셜 포함): 약 42% · 423/1000 (42.30%)</b></p>'
    >>> total_first("성공 이상", Fraction(1, 10**6))
    '<p class="answer-total"><b>성공 이상: 0.01% 미만 · 1/1000000</b></p>'
    >>> '<b>x: 0.01% 미만 · <details class="ex"><summary>정확한 값 보기</summary>' in total_first("x", Fraction(1, 2 ** 70))
    True
    >>> total_first("명중 (대성공 포함)", [("1격", Fraction(13, 20)), ("2격", Fraction(2, 5))])
    '<p class="answer-total"><b>명중 (대성공 포함)</b><br>1격 <b>65% · 13/20 (65.00%)</b><br>2격 <b>40% · 2/5 (40.00%)</b></p>'
    """
    if isinstance(total, (Fraction, int)):
        return (f'<p class="answer-total"><b>{html.escape(label)}: '
                f'{readable(Fraction(total), markup=True)}</b></p>')
    lines = "".join(f"<br>{html.escape(name)} <b>{readable(Fraction(p), markup=True)}</b>"
                    for name, p in total)
    return f'<p class="answer-total"><b>{html.escape(label)}</b>{lines}</p>'


def graded_lines(odds: dict, order, lines: dict) -> str:
    """The "or better" lines of a graded result, in the reader's words, to stand above its
    tables: ``order`` lists the odds' grades from the best down; ``lines`` maps the grades to
    show, in the order shown, to their words (「어려운 성공 이상」), each its rounded percent
    and exact fraction. The sums are the library's (:func:`widgets.dice.or_better`).

    >>> odds = {"critical": Fraction(1, 12), "success": Fraction(1, 3), "failure": Fraction(7, 12)}
    >>> graded_lines(odds, ("critical", "success", "failure"), {"success": "성공 이상", "critical": "대성공"})
    '<p class="answer-total answer-graded">성공 이상 <b>약 42% · 5/12</b><br>대성공 <b>약 8% · 1/12</b></p>'

    A certain (or impossible) line reads as its percent alone:

    >>> graded_lines({"hit": Fraction(1), "miss": Fraction(0)}, ("hit", "miss"), {"miss": "빗나감 이상"})
    '<p class="answer-total answer-graded">빗나감 이상 <b>100%</b></p>'
    """
    sums = or_better(odds, order)

    def exact(p: Fraction) -> str:
        return "" if p in (0, 1) else f" · {exact_html(p)}"
    shown = "<br>".join(f"{html.escape(words)} <b>{html.escape(rounded_percent(sums[key]))}"
                        f"{exact(sums[key])}</b>" for key, words in lines.items())
    return f'<p class="answer-total answer-graded">{shown}</p>'


def odds_table(rows: list[tuple[str, Fraction]], caption: str = "") -> str:
    """HTML table of labelled exact probabilities (drawn by the one table helper).

    >>> odds_table([("성공", Fraction(1, 2))]).count("<tr>")
    1
    """
    from .table import Table
    return Table([], [[label, Fraction(p)] for label, p in rows], caption=caption).html()


def cumulative_table(values, probabilities, what: str = "값", rows=None, note: str = "") -> str:
    """"정확히 N", "N 이상" and "N 이하" for every value of a distribution of a total, as exact
    fractions (the GM's "at least 6 damage?"), folded under a summary line so the answer stays
    short. ``rows`` gives the rows ``(N, 정확히 N, N 이상, N 이하)`` instead (a distribution too
    wide for a row per value steps through it), and ``note`` says so under the table.

    >>> html_ = cumulative_table((1, 2, 3), (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)), "피해")
    >>> "<summary>피해: N 이상 · N 이하</summary>" in html_, html_.count("<tr>")
    (True, 4)
    >>> from widgets.views.table import _TAG       # N, 정확히 N, N 이상, N 이하 (= 1/2 + 1/4)
    >>> [_TAG.sub("", c) for c in re.findall(r"<t[hd]>(.*?)</t[hd]>", html_.split("<tr>")[3])]
    ['2', '1/4 (25.00%)', '1/2 (50.00%)', '3/4 (75.00%)']
    >>> "<th>정확히 N</th>" in html_
    True
    >>> cumulative_table((), (), "합계", rows=[(10, Fraction(1, 9), Fraction(1), Fraction(1, 9))],
    ...                  note="N은 10씩").count("<tr>")
    2
    """
    from .table import Table
    if rows is None:
        probabilities = [Fraction(p) for p in probabilities]
        rows, below, total = [], Fraction(0), sum(probabilities, Fraction(0))
        for value, p in zip(values, probabilities):
            rows.append([value, p, total - below, below + p])
            below += p
    table = Table(["N", "정확히 N", "N 이상", "N 이하"], [list(r) for r in rows], kind="odds cum",
                  all_numbers=True, note=note)
    return (f'<details class="cumulative"><summary>{html.escape(what)}: N 이상 · N 이하</summary>'
            f"{table.html()}</details>")


def error(message: str) -> str:
    """A reader-facing error line (no traceback)."""
    return f'<p class="widget-error" role="alert">⚠ {html.escape(message)}</p>'


def approx(x: Fraction, digits: int = 2, markup: bool = False) -> str:
    """An exact value a reader can picture: ``229/81 (≈ 2.83)``; whole numbers stay ``3``.
    ``markup``: as html, a long fraction after its decimal, behind 「정확한 값 보기」
    (:func:`~widgets.views.table.exact_html`).

    >>> approx(Fraction(229, 81)), approx(Fraction(7, 2)), approx(Fraction(6))
    ('229/81 (≈ 2.83)', '7/2 (= 3.5)', '6')
    >>> approx(Fraction(871493, 279936), markup=True)[:36]
    '≈ 3.11 <details class="ex"><summary>'
    """
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    scaled = x * 10**digits
    if scaled.denominator == 1:  # a short exact decimal: say it is exact
        text = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
        return f"{fraction(x)} (= {text})"
    if markup and len(fraction(x)) > INLINE_FRACTION_CHARS:
        return f"≈ {float(x):.{digits}f} {exact_html(x)}"
    return f"{fraction(x)} (≈ {float(x):.{digits}f})"


# --- Korean particles after numbers and words ------------------------------------------------------
def josa(word: object, pair: str) -> str:
    """``word`` with the particle of ``pair`` that fits its last sound (batchim).

    Digits are read as Sino-Korean numerals, Latin letters by their usual Korean names, common
    units as words (ft 피트, m 미터); ``으로/로`` takes 로 after ㄹ. The reading itself is the
    library's (:func:`widgets.errors.particle`), so messages and pages agree.

    >>> josa("AC 18", "을/를"), josa(6, "은/는"), josa("갑옷 0", "을/를"), josa("2D6", "을/를")
    ('AC 18을', '6은', '갑옷 0을', '2D6을')
    >>> josa("10", "이/가"), josa("120ft", "은/는"), josa("DB", "을/를"), josa("검", "으로/로")
    ('10이', '120ft는', 'DB를', '검으로')
    >>> josa("칼", "으로/로"), josa("3D6", "와/과"), josa("7/2", "이/가"), josa("2.5", "을/를")
    ('칼로', '3D6과', '7/2이', '2.5를')
    >>> josa("방어도", "과/와"), josa("MAP", "은/는"), josa("12\\"", "이/가")
    ('방어도와', 'MAP은', '12"가')
    """
    key = pair if pair in _PAIR_ORDER else "/".join(reversed(pair.split("/")))
    if key not in _PAIR_ORDER:
        raise ValueError(f"unknown particle pair {pair!r}")
    return particle(word, _PAIR_ORDER[key])


#: The pairs :func:`josa` accepts (either order) → the library's spelling of the pair.
_PAIR_ORDER = {"을/를": "을/를", "이/가": "이/가", "은/는": "은/는", "과/와": "과/와",
               "으로/로": "으로/로", "이에요/예요": "이에요/예요"}


_ENGLISH_GLOSS = re.compile(r"\s*\((?=[A-Za-z])(?=[^)]*[a-z])[A-Za-z0-9 ,.:;'’!/_&-]+\)")


def korean_only(text: str) -> str:
    """``text`` without English glosses in brackets (the glossary keeps the originals).

    >>> korean_only("탄넨 (Tannen)"), korean_only("녹색 (green)"), korean_only("달리기 (run_orth): 16")
    ('탄넨', '녹색', '달리기: 16')
    >>> korean_only("D6 (1–2→1)"), korean_only("사거리 (120ft)"), korean_only("주사위 (D6)")
    ('D6 (1–2→1)', '사거리 (120ft)', '주사위 (D6)')
    """
    return _ENGLISH_GLOSS.sub("", str(text))
