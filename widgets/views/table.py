"""The one table helper: every table the book draws (widget answers, rules tables, quick
references, worked examples) is a :class:`Table` of a caption, a head row and rows of cells.

It escapes every text cell, marks row and column headings for screen readers, keeps numbers
and exact probabilities (:func:`prob_cell`) from breaking across lines, and wraps the table in a
box that scrolls sideways on its own, with the first column kept in view, when it is wider than
the screen (the page itself never scrolls sideways; ``book/_ext/book.css`` and the widget
stylesheet in :mod:`widgets.views.static_page` style it). Its text form is what nbval compares.

>>> from fractions import Fraction
>>> t = Table(["결과", "확률"], [["성공", prob_cell(Fraction(5, 12))]], caption="판정")
>>> print(t.text())
판정
결과 | 확률
성공 | 5/12 (41.67%)
>>> '<th>성공</th>' in t.html(), '<td class="num">5/12 (41.67%)</td>' in t.html()
(True, True)
"""
from __future__ import annotations

import html as html_lib
from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from typing import Sequence, Union



# --- exact numbers as text (``widgets.views.format`` re-exports these) --------------------------------
def percent(p: Fraction, digits: int = 2) -> str:
    """Percent rounded half-up from the exact value; tiny non-zero values never show as 0.

    >>> percent(Fraction(1, 3)), percent(Fraction(1, 10**9)), percent(Fraction(0))
    ('33.33%', '< 0.01%', '0%')
    """
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    scale = 10**digits
    p = Fraction(p)                      # half-up in whole numbers: no gcd of long numbers
    rounded = Fraction((2 * 100 * scale * p.numerator + p.denominator) // (2 * p.denominator), scale)
    if rounded == 0:
        return f"< {1 / scale:.{digits}f}%"
    if rounded == 100:
        return f"> {100 - 1 / scale:.{digits}f}%"
    return f"{float(rounded):.{digits}f}%"


#: Digits of a numerator or denominator written out at most (Python refuses to write whole numbers
#: of more than 4,300 digits; an exact probability of a long roll can have more).
MAX_FRACTION_DIGITS = 4000


@lru_cache(maxsize=64)
def _ten_to(k: int) -> int:
    return 10**k


def _digits(n: int) -> int:
    """Decimal digits of a whole number, without writing it out."""
    n = abs(n)
    digits = int(n.bit_length() * 0.30102999566398120) + 1
    while digits > 1 and _ten_to(digits - 1) > n:
        digits -= 1
    while _ten_to(digits) <= n:
        digits += 1
    return digits


def fraction(x: Fraction) -> str:
    """``7/2``, or ``3`` when whole; a fraction too long to write out says how long it is (the
    percent beside it in :func:`prob` is exact to its digits).

    >>> fraction(Fraction(7, 2)), fraction(Fraction(1, 6 ** 6000))
    ('7/2', '1/(4669자리 수)')
    """
    x = Fraction(x)
    if max(x.numerator.bit_length(), x.denominator.bit_length()) > MAX_FRACTION_DIGITS * 3.3:
        num = str(x.numerator) if abs(x.numerator) < 10 ** 30 else f"({_digits(x.numerator)}자리 수)"
        return f"{num}/({_digits(x.denominator)}자리 수)"
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def prob(p: Fraction) -> str:
    """Exact fraction and percent: ``5/12 (41.67%)``."""
    return f"{fraction(p)} ({percent(Fraction(p))})"



@dataclass(frozen=True)
class Cell:
    """One cell: its text (escaped when drawn), or ``markup`` the library formatted itself
    (never reader input). ``strong`` draws it bold; ``heading`` makes it a row heading (or not,
    overriding the table's ``row_heads``); ``number`` keeps it on one line."""

    text: str
    markup: str | None = None
    strong: bool = False
    heading: bool | None = None
    number: bool = False

    def inner(self) -> str:
        body = self.markup if self.markup is not None else html_lib.escape(self.text)
        return f"<b>{body}</b>" if self.strong else body


CellLike = Union[str, int, Cell]


def prob_cell(p: Fraction, strong: bool = False) -> Cell:
    """An exact probability, fraction and percent (``5/12 (41.67%)``), never broken across lines.

    >>> prob_cell(Fraction(1, 4)).text
    '1/4 (25.00%)'
    """
    return Cell(prob(Fraction(p)), strong=strong, number=True)


def number_cell(text: object, strong: bool = False) -> Cell:
    """A number or a short value (``−2``, ``20피트``, ``1D6+1``) kept on one line.

    >>> number_cell("−2").number
    True
    """
    return Cell(str(text), strong=strong, number=True)


def strong(text: object) -> Cell:
    """A bold text cell (a result the reader looks for).

    >>> strong("격파").inner()
    '<b>격파</b>'
    """
    return Cell(str(text), strong=True)


def _cell(value: CellLike) -> Cell:
    if isinstance(value, Cell):
        return value
    if isinstance(value, Fraction):
        return prob_cell(value)
    return Cell(str(value), number=isinstance(value, int))


@dataclass
class Table:
    """A table: ``head`` (column headings, may be empty), ``rows`` of cells (text, whole
    numbers, exact probabilities as :class:`~fractions.Fraction`, or :class:`Cell`), an
    optional ``caption`` and a ``note`` under it. With ``row_heads`` the first cell of each row
    is a row heading; cells in ``strong_columns`` are bold; text cells of at most ``short``
    characters stay on one line. ``kind`` is its CSS class (``odds``, ``quickref`` …)."""

    head: Sequence[str]
    rows: Sequence[Sequence[CellLike]]
    caption: str = ""
    note: str = ""
    kind: str = "odds"
    row_heads: bool = True
    strong_columns: tuple[int, ...] = ()
    short: int = 0
    #: Rows (by position) drawn highlighted: the reader's current choice.
    marked: tuple[int, ...] = ()
    #: Every cell is a number (the table's CSS keeps them on one line), so cells carry no class
    #: of their own: the smallest markup, for the tables an answer repeats for every value.
    all_numbers: bool = False

    def html(self) -> str:
        cap = f"<caption>{html_lib.escape(self.caption)}</caption>" if self.caption else ""
        head = ""
        if self.head:
            head = ("<thead><tr>" + "".join(f"<th>{html_lib.escape(str(h))}</th>"
                                            for h in self.head) + "</tr></thead>")
        body = []
        for row in self.rows:
            cells = []
            for i, value in enumerate(row):
                cell = _cell(value)
                if not isinstance(value, Cell) and (i in self.strong_columns or
                                                    len(cell.text) <= self.short):
                    cell = Cell(cell.text, strong=i in self.strong_columns,
                                number=cell.number or len(cell.text) <= self.short)
                heading = cell.heading if cell.heading is not None else (self.row_heads and i == 0)
                cls = ' class="num"' if cell.number and not self.all_numbers else ""
                cells.append(f"<th{cls}>{cell.inner()}</th>" if heading
                             else f"<td{cls}>{cell.inner()}</td>")
            body.append(('<tr class="mark">' if len(body) in self.marked else "<tr>")
                        + "".join(cells) + "</tr>")
        note = f'<p class="table-note">{html_lib.escape(self.note)}</p>' if self.note else ""
        return (f'<div class="table-wrap"><table class="{html_lib.escape(self.kind)}">{cap}{head}'
                f'<tbody>{"".join(body)}</tbody></table></div>{note}')

    def text(self) -> str:
        lines = ([self.caption] if self.caption else [])
        if self.head:
            lines.append(" | ".join(str(h) for h in self.head))
        lines += [" | ".join(_cell(c).text for c in row) for row in self.rows]
        return "\n".join(lines + ([self.note] if self.note else []))

    def _repr_html_(self) -> str:
        return self.html()

    def __repr__(self) -> str:
        return self.text()
