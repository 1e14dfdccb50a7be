"""The one table helper: every table the book draws (widget answers, rules tables, quick
references, worked examples) is a :class:`Table` of a caption, a head row and rows of cells.

It escapes every text cell, marks row and column headings for screen readers, keeps numbers
and exact probabilities (:func:`prob_cell`) from breaking across lines, and chooses how the
table reads on a 390 px phone (:meth:`Table.phone_layout`), so that every column is on screen
with no sideways scrolling:

- ``table``: it fits as it is (most tables);
- ``compact``: each exact probability shows its percent first with the fraction under it, which
  halves the width of a probability column;
- ``cards``: each row is a card, its first cell the title and every other cell a labelled value
  (the column's heading above it), for tables too wide even when compact;
- ``swipe`` (only when a table asks for it): the table scrolls sideways in its own box, says so
  above it (「옆으로 밀어 보기」) and keeps its first column in view.

The choice is made here from the table's text (an estimate of its narrowest width in the phone's
font, :meth:`Table.phone_width`) and drawn by :data:`TABLE_CSS` (in the widget's stylesheet,
:mod:`widgets.views.static_page`, and in ``book/_ext/book.css`` for the pages' own tables). On a
wider screen every layout but ``cards`` is an ordinary table, and cards are a table again. The
text form is what nbval compares.

>>> from fractions import Fraction
>>> t = Table(["결과", "확률"], [["성공", prob_cell(Fraction(5, 12))]], caption="판정")
>>> print(t.text())
판정
결과 | 확률
성공 | 5/12 (41.67%)
>>> '<th>성공</th>' in t.html(), '<td class="num">5/12 (41.67%)</td>' in t.html()
(True, True)
>>> t.phone_layout()
'table'

A table too wide for a phone becomes cards there: each cell but the first carries its column's
name, and a probability its percent apart from its fraction.

>>> wide = Table(["", "대성공", "성공", "실패", "대실패"], [["1격", *[Fraction(7043, 7776)] * 4]])
>>> wide.phone_layout(), '<thead><tr><th></th><th>대성공</th>' in wide.html()
('cards', True)
>>> '<td class="num" data-h="성공"><span class="pf">7043/7776<span> <i>(</i>90.57%' in wide.html()
True
"""
from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from fractions import Fraction
from typing import Sequence, Union



# --- exact numbers as text (``widgets.views.format`` re-exports these) --------------------------------
def percent(p: Fraction, digits: int = 2) -> str:
    """Percent rounded half-up from the exact value; tiny non-zero values never show as 0.

    >>> percent(Fraction(1, 3)), percent(Fraction(1, 10**9)), percent(Fraction(0))
    ('33.33%', '0.01% 미만', '0%')
    >>> percent(1 - Fraction(1, 10**9))
    '99.99% 넘게'
    """
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    scale = 10**digits
    p = Fraction(p)                      # half-up in whole numbers: no gcd of long numbers
    rounded = Fraction((2 * 100 * scale * p.numerator + p.denominator) // (2 * p.denominator), scale)
    if rounded == 0:
        return f"{1 / scale:.{digits}f}% 미만"
    if rounded == 100:
        return f"{100 - 1 / scale:.{digits}f}% 넘게"
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


#: The longest exact fraction written inline (numerator, "/", denominator): a longer one is read
#: by its percent, and the fraction waits behind a small disclosure, 「정확한 값」, that the
#: reader opens (:func:`exact_html`); ``<details>`` opens with no script, on the page and in Jupyter.
INLINE_FRACTION_CHARS = 12
#: What the exact values are called, and the disclosure's label (a verb, as 「답 보기」: it reads
#: as something to tap where no disclosure triangle is drawn).
EXACT_LABEL = "정확한 값"
EXACT_SUMMARY = f"{EXACT_LABEL} 보기"


def exact_html(p: Fraction) -> str:
    """The exact fraction as markup: inline while short (:data:`INLINE_FRACTION_CHARS`), else
    folded behind 「정확한 값」 (its full digits kept).

    >>> exact_html(Fraction(1381, 7776))
    '1381/7776'
    >>> exact_html(Fraction(7, 2 ** 70))
    '<details class="ex"><summary>정확한 값 보기</summary><span>7/1180591620717411303424</span></details>'
    """
    exact = fraction(Fraction(p))
    if len(exact) <= INLINE_FRACTION_CHARS:
        return html_lib.escape(exact)
    return exact_fold([("", p)])


def exact_fold(values: Sequence[tuple[str, Fraction]]) -> str:
    """Exact fractions, each after its label, behind one 「정확한 값」 disclosure (a worked step's
    long values); "" when there are none.

    >>> exact_fold([("여기까지", Fraction(1, 3))])
    '<details class="ex"><summary>정확한 값 보기</summary><span>여기까지 1/3</span></details>'
    """
    shown = "<br>".join(f"<span>{html_lib.escape(f'{label} {fraction(Fraction(p))}'.strip())}</span>"
                        for label, p in values)
    return f'<details class="ex"><summary>{EXACT_SUMMARY}</summary>{shown}</details>' if shown else ""


def prob_html(p: Fraction) -> str:
    """:func:`prob` as markup: ``5/12 (41.67%)`` while the fraction is short, else the percent
    first and the fraction behind 「정확한 값」 (:func:`exact_html`).

    >>> prob_html(Fraction(5, 12))
    '5/12 (41.67%)'
    >>> prob_html(Fraction(1, 3 ** 30)).startswith('0.01% 미만 <details class="ex">')
    True
    """
    p = Fraction(p)
    if len(fraction(p)) <= INLINE_FRACTION_CHARS:
        return html_lib.escape(prob(p))
    return f"{html_lib.escape(percent(p))} {exact_html(p)}"


#: The largest "N번 중 1번꼴" a reading names (rarer chances are said by their percent alone).
MAX_ONE_IN = 100_000


def one_in(p: Fraction) -> str:
    """A chance of one in five or less as a player says it, "N번 중 1번꼴", where a whole N says it
    to within a tenth of the chance and 1/N rounds to the same percent as the chance (a player
    reading 「15% · 7번 중 1번꼴」 works out 1/7 ≈ 14%); else "" (the percent says it alone).

    >>> one_in(Fraction(1, 6)), one_in(Fraction(1, 5)), one_in(Fraction(1, 2)), one_in(Fraction(5, 6))
    ('6번 중 1번꼴', '5번 중 1번꼴', '', '')
    >>> one_in(Fraction(3, 20)), one_in(Fraction(1381, 7776))   # 15% is not 1/7 (14%); 18% is not 1/6 (17%)
    ('', '')
    >>> one_in(Fraction(1, 46656)), one_in(Fraction(1, 10**9)), one_in(Fraction(0))
    ('46,656번 중 1번꼴', '', '')
    """
    p = Fraction(p)
    if p <= 0 or p > Fraction(1, 5):
        return ""
    n = int(Fraction(1, p) + Fraction(1, 2))
    if n > MAX_ONE_IN or abs(Fraction(1, n) - p) > p / 10 or rounded_percent(Fraction(1, n)) != rounded_percent(p):
        return ""
    return f"{n:,}번 중 1번꼴"


def rounded_percent(p: Fraction) -> str:
    """A chance rounded to a whole percent in a player's words: ``약 18%``; never ``약 0%`` or
    ``약 100%`` for a chance that is neither: ``99% 넘게``, or the exact percent's own words
    (:func:`percent`: ``99.99% 넘게``) when that is as far as it goes, so that a value near
    certain reads the same in every line that shows it.

    >>> rounded_percent(Fraction(1381, 7776)), rounded_percent(Fraction(1, 4)), rounded_percent(Fraction(1))
    ('약 18%', '25%', '100%')
    >>> rounded_percent(Fraction(1, 1000)), rounded_percent(Fraction(999, 1000)), rounded_percent(Fraction(0))
    ('1% 미만', '99% 넘게', '0%')
    >>> rounded_percent(1 - Fraction(1, 10**6)), percent(1 - Fraction(1, 10**6))
    ('99.99% 넘게', '99.99% 넘게')
    """
    p = Fraction(p)
    if p in (0, 1):
        return f"{int(p * 100)}%"
    whole = (200 * p.numerator + p.denominator) // (2 * p.denominator)     # half up
    if whole in (0, 100):
        exact = percent(p)
        if exact.endswith(("미만", "넘게")):
            return exact
        return "1% 미만" if whole == 0 else "99% 넘게"
    return f"{whole}%" if whole == p * 100 else f"약 {whole}%"


def readable(p: Fraction, markup: bool = False) -> str:
    """An answer's chance as a reader reads it first: the rounded percent in a player's words,
    "N번 중 1번꼴" where it fits, then the exact fraction with its percent (:func:`prob`);
    ``markup``: as html, a long fraction folded (:func:`prob_html`).

    >>> readable(Fraction(1381, 7776)), readable(Fraction(1, 6))
    ('약 18% · 1381/7776 (17.76%)', '약 17% · 6번 중 1번꼴 · 1/6 (16.67%)')
    >>> readable(Fraction(3, 5)), readable(Fraction(1, 10**6))
    ('60% · 3/5 (60.00%)', '0.01% 미만 · 1/1000000')

    A certain or impossible chance reads as its percent alone, no bare 「1」 or 「0」 beside it:

    >>> readable(Fraction(1)), readable(Fraction(0), markup=True)
    ('100%', '0%')
    >>> readable(Fraction(1, 3 ** 30), markup=True).startswith('0.01% 미만 · <details')
    True
    """
    p = Fraction(p)
    first = rounded_percent(p)
    if p in (0, 1):
        return first
    once = p not in (0, 1) and percent(p) == first       # 「0.01% 미만」: the percent once
    if markup:
        words = [html_lib.escape(first), html_lib.escape(one_in(p)), exact_html(p) if once else prob_html(p)]
    else:
        words = [first, one_in(p), fraction(p) if once else prob(p)]
    return " · ".join(w for w in words if w)


#: What a table may take on a 390 px phone, in the pages' table font (0.88 of 16 px): the article
#: is 358 px wide, a widget's answer box 333 px with its tables' text 0.88 of 15 px, about as
#: many ems. Each column adds 6 px of padding on either side and a 1 px border.
PHONE_PX = 350
PHONE_FONT_PX = 14.1
COLUMN_PX = 13
#: What a table may take in a desktop's article (about 690 px at 1280 px): a wider one draws its
#: probabilities compact on every screen (class ``wide``).
DESKTOP_PX = 700
#: The visible hint above a table that scrolls sideways on a phone.
SWIPE_HINT = "옆으로 밀어 보기 →"
LAYOUTS = ("auto", "table", "compact", "cards", "swipe")
#: A table whose rows would wrap into more lines than this in narrow columns, on average,
#: becomes cards.
CARD_LINES = 2.5
#: A column narrower than this (ems) holds a few words a line.
NARROW_EM = 7.5
#: Width of a column of a card (book.css: grid columns of at least this many ems).
CHIP_EM = 5.6

#: An exact value with its reading in brackets, as the book writes a probability
#: (:func:`widgets.views.format.prob`: ``5/12 (41.67%)``) or a mean (``approx``: ``7/2 (= 3.5)``).
_PROB = re.compile(r"(\d+(?:/\d+)?) \(((?:[≈=] )?\d+(?:\.\d+)?%?(?: 미만| 넘게)?)\)")
_TAG = re.compile(r"<[^>]*>")
#: A folded exact value: only its summary takes room until the reader opens it.
_FOLDED = re.compile(r"<details[^>]*><summary>(.*?)</summary>.*?</details>", re.S)


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

    def inner(self, compact: bool = False) -> str:
        """The cell's html; ``compact`` draws an exact probability (or a mean with its reading)
        so that a phone shows its percent first and the fraction under it (the text stays
        ``5/12 (41.67%)``).

        >>> prob_cell(Fraction(5, 12)).inner(compact=True)
        '<span class="pf">5/12<span> <i>(</i>41.67%<i>)</i></span></span>'
        """
        if self.markup is not None:
            body = self.markup
        elif compact and _PROB.fullmatch(self.text):
            frac, pct = _PROB.fullmatch(self.text).groups()
            body = (f'<span class="pf">{frac}<span> <i>(</i>{html_lib.escape(pct)}<i>)</i>'
                    '</span></span>')
        else:
            body = html_lib.escape(self.text)
        return f"<b>{body}</b>" if self.strong else body


CellLike = Union[str, int, Cell]


def prob_cell(p: Fraction, strong: bool = False) -> Cell:
    """An exact probability, fraction and percent (``5/12 (41.67%)``), never broken across lines.

    >>> prob_cell(Fraction(1, 4)).text
    '1/4 (25.00%)'
    """
    p = Fraction(p)
    text = prob(p)
    markup = None if len(fraction(p)) <= INLINE_FRACTION_CHARS else prob_html(p)
    return Cell(text, markup=markup, strong=strong, number=True)


def _folded(cell: Cell) -> Cell:
    """A cell written as an exact value with its reading (``5/12 (41.67%)``, ``7/2 (≈ 3.5)``)
    whose fraction is long: its reading first, the fraction behind 「정확한 값 보기」.

    >>> _folded(Cell("1288991/1679616 (76.74%)")).markup[:14]
    '76.74% <detail'
    >>> _folded(Cell("5/12 (41.67%)")).markup is None
    True
    """
    found = _PROB.fullmatch(cell.text) if cell.markup is None else None
    if not found or len(found.group(1)) <= INLINE_FRACTION_CHARS:
        return cell
    return replace(cell, markup=f"{html_lib.escape(found.group(2))} {exact_html(Fraction(found.group(1)))}",
                   number=True)


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


def _char_em(ch: str) -> float:
    # widths in the phone's font, a little on the wide side of those measured in Debian's
    # chromium (whose Latin font is wider than a phone's: Hangul 0.94, digits 0.64, a space 0.32
    # of the font size), so that a table judged to fit does fit
    if ch.isascii():
        if ch.isdigit():
            return 0.66
        if ch.islower():
            return 0.56
        if ch.isupper():
            return 0.68
        return _ASCII_EM.get(ch, 0.6)
    if ch == "·":
        return 0.34
    if "\u2000" <= ch <= "\u22ff":       # − ≈ ≥ × – and other signs
        return 0.87
    return 1.0                            # Hangul and other wide letters


_ASCII_EM = {" ": 0.34, ".": 0.34, ",": 0.34, ":": 0.34, ";": 0.34, "'": 0.34, "|": 0.34,
             "!": 0.34, "(": 0.42, ")": 0.42, "[": 0.42, "]": 0.42, "/": 0.37, "-": 0.4,
             '"': 0.48, "%": 1.0, "+": 0.87, "=": 0.87, "<": 0.87, ">": 0.87, "~": 0.87}


@lru_cache(maxsize=8192)
def text_em(text: str, bold: bool = False) -> float:
    """Width of one unbroken line of text, in ems of the phone's font (an estimate on the wide
    side: a Hangul syllable is 1, a digit 0.66).

    >>> text_em("성공"), round(text_em("5/12"), 2)
    (2.0, 2.35)
    """
    # bold widens Latin letters and digits (Hangul keeps its square)
    return sum(_char_em(ch) * (1.08 if bold and ch.isascii() else 1.0) for ch in text)


def _chip_span(value_em: float, label_em: float) -> list[str]:
    """The class of a card's cell that needs more than one of the card's columns (each
    :data:`CHIP_EM` wide): ``w`` takes two, ``f`` the card's whole width."""
    need = max(value_em, label_em * 0.86)
    return [] if need <= CHIP_EM else (["w"] if need <= 2 * CHIP_EM + 0.7 else ["f"])


def _wrapped(words: list[float], width: float) -> int:
    """Lines that words of these widths (ems) take in a column ``width`` ems wide, filled
    greedily as a browser does (a space between words)."""
    lines, used = 1, 0.0
    for w in words:
        if used and used + _ASCII_EM[" "] + w > width:
            lines, used = lines + 1, w
        else:
            used += (_ASCII_EM[" "] if used else 0.0) + w
    return lines


@dataclass
class Table:
    """A table: ``head`` (column headings, may be empty), ``rows`` of cells (text, whole
    numbers, exact probabilities as :class:`~fractions.Fraction`, or :class:`Cell`), an
    optional ``caption`` and a ``note`` under it. With ``row_heads`` the first cell of each row
    is a row heading; cells in ``strong_columns`` are bold; text cells of at most ``short``
    characters, and exact probabilities, stay on one line. ``kind`` is its CSS class (``odds``, ``quickref`` …);
    ``phone`` its layout on a phone (one of :data:`LAYOUTS`; ``auto`` chooses, see
    :meth:`phone_layout`)."""

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
    phone: str = "auto"

    def _row_cells(self, row: Sequence[CellLike]) -> list[Cell]:
        cells = []
        for i, value in enumerate(row):
            cell = _folded(_cell(value))
            if not isinstance(value, Cell):
                bold, short = i in self.strong_columns, len(cell.text) <= self.short
                exact = not (cell.number or short) and bool(_PROB.fullmatch(cell.text))
                if bold or short or exact:
                    cell = replace(cell, strong=bold, number=cell.number or short or exact)
            cells.append(cell)
        return cells

    def _extents(self, compact: bool, drawn: list[list[Cell]] | None = None
                 ) -> list[list[tuple[float, float, list[float]]]]:
        """Each row's cells (the head row first) as (narrowest, one-line) widths in ems of
        the phone's font and the widths of its words: the narrowest is its widest unbreakable
        piece (a word, or a whole number or probability); ``compact`` draws probabilities as
        percent over fraction. ``drawn``: the body's cells, when already made."""
        nowrap_all = self.all_numbers or "cum" in self.kind.split()

        def extent(text: str, bold: bool, nowrap: bool, prob) -> tuple[float, float, list[float]]:
            if compact and prob:
                one = max(text_em(prob.group(1), bold) * 0.86, text_em(prob.group(2), bold))
                return one, one, [one]
            one = text_em(text, bold)
            if nowrap or nowrap_all:
                return one, one, [one]
            words = [text_em(w, bold) for w in text.split()]
            return max(words, default=0.0), one, words

        rows = [[extent(str(h), True, False, None) for h in self.head]]
        for row in (drawn if drawn is not None else map(self._row_cells, self.rows)):
            cells = []
            for i, cell in enumerate(row):
                text = (_TAG.sub("", _FOLDED.sub(r"\1", cell.markup)) if cell.markup is not None
                        else cell.text)
                bold = cell.strong or (cell.heading if cell.heading is not None else self.row_heads and i == 0)
                prob = _PROB.fullmatch(text) if cell.markup is None else None
                cells.append(extent(text, bold, cell.number, prob))
            rows.append(cells)
        return rows

    def phone_width(self, compact: bool = False) -> float:
        """The table's narrowest width on a phone, in px (an estimate on the wide side): each
        column as wide as its widest unbreakable piece, plus padding. ``compact``:
        probabilities as percent over fraction.

        >>> t = Table(["결과", "확률"], [["성공", Fraction(5, 12)]])
        >>> round(t.phone_width()), round(t.phone_width(compact=True))
        (161, 111)
        """
        return self._width(self._columns(self._extents(compact))[0])

    def _lines(self, rows) -> float:
        narrow, wide = self._columns(rows)
        room = (PHONE_PX - self._width([0.0] * len(narrow))) / PHONE_FONT_PX
        spare, want = room - sum(narrow), sum(wide) - sum(narrow)
        widths = [w if want <= 0 or spare >= want else n + max(spare, 0) * (w - n) / want
                  for n, w in zip(narrow, wide)]
        lines = [max((_wrapped(words, widths[i]) for i, (_, _, words) in enumerate(r)
                      if widths[i] < NARROW_EM), default=1) for r in rows[1:]]
        return sum(lines) / len(lines) if lines else 1.0

    @staticmethod
    def _columns(rows) -> tuple[list[float], list[float]]:
        n = max((len(r) for r in rows), default=0)
        narrow = [max((r[i][0] for r in rows if i < len(r)), default=0.0) for i in range(n)]
        wide = [max((r[i][1] for r in rows if i < len(r)), default=0.0) for i in range(n)]
        return narrow, wide

    @staticmethod
    def _width(columns: list[float]) -> float:
        return sum(w * PHONE_FONT_PX + COLUMN_PX for w in columns) + 1

    def phone_lines(self, compact: bool = False) -> float:
        """About how many lines a body row takes on a phone in its narrow columns (under
        :data:`NARROW_EM` wide), on average: a table that fits only by wrapping its text into
        tall, narrow columns, a word a line, reads better as cards (a wide column of sentences
        is fine). The page's width is shared out as a browser does, each column getting its
        narrowest width and a part of the rest in proportion to how much more it would take
        on one line.

        >>> Table(["결과", "확률"], [["성공", Fraction(5, 12)]]).phone_lines()
        1.0
        """
        return self._lines(self._extents(compact))

    def phone_layout(self) -> str:
        """How the table reads on a 390 px phone: ``table`` when it fits as it is, ``compact``
        when it fits with its probabilities as percent over fraction, else ``cards`` (one card
        a row), also when a table of three columns or more would fit only with its rows
        wrapped into more than :data:`CARD_LINES` lines on average (narrow columns of a word a
        line); or the layout the table asked for.

        >>> from fractions import Fraction as F
        >>> Table(["", "성공"], [["1격", F(1, 2)]]).phone_layout()
        'table'
        >>> Table(["", *"ABCDE"], [["1격", *[F(7043, 7776)] * 5]]).phone_layout()
        'cards'
        >>> Table(["", "대성공", "성공", "실패"], [["1격", *[F(7043, 7776)] * 3]]).phone_layout()
        'compact'
        >>> row = ["주인이 축복 표식을 씀 (표식 1개마다)", "그 미니어처가 받는 부상 굴림", "−1 DICE",
        ...        "원문 (쓰는 사람이 주인인 것은 가정)"]
        >>> Table(["상황", "바뀌는 굴림", "효과", "근거"], [row] * 3).phone_layout()
        'cards'
        """
        return self._plan([self._row_cells(r) for r in self.rows])[0]

    def _plan(self, drawn: list[list[Cell]]) -> tuple[str, dict]:
        """The phone layout and the extents it was chosen from ({compact: extents})."""
        if self.phone not in LAYOUTS:
            raise ValueError(f"unknown phone layout {self.phone!r}: one of {LAYOUTS}")
        extents: dict[bool, list] = {}

        def ext(compact: bool):
            if compact not in extents:
                extents[compact] = self._extents(compact, drawn)
            return extents[compact]

        if self.phone != "auto":
            return self.phone, extents
        for layout, compact in (("table", False), ("compact", True)):
            rows = ext(compact)
            if self._width(self._columns(rows)[0]) <= PHONE_PX:
                columns = max((len(r) for r in rows), default=0)
                tall = columns >= 3 and self._lines(rows) > CARD_LINES
                return ("cards" if tall else layout), extents
        return "cards", extents

    def html(self) -> str:
        drawn = [self._row_cells(r) for r in self.rows]
        layout, extents = self._plan(drawn)
        compact = layout in ("compact", "cards")
        classes = self.kind + {"table": "", "swipe": "", "compact": " compact",
                               "cards": " compact cards"}[layout]
        plain = (extents.get(False) or self._extents(False, drawn)) if compact else None
        if compact and self._width(self._columns(plain)[0]) > DESKTOP_PX:
            classes += " wide"      # compact on a desktop too: it would not fit the article
        cap = f"<caption>{html_lib.escape(self.caption)}</caption>" if self.caption else ""
        head = ""
        if self.head:
            head = ("<thead><tr>" + "".join(f"<th>{html_lib.escape(str(h))}</th>"
                                            for h in self.head) + "</tr></thead>")
        cards = layout == "cards"
        chips = (extents.get(True) or self._extents(True, drawn)) if cards else []
        body = []
        for r, row in enumerate(drawn):
            cells = []
            for i, cell in enumerate(row):
                heading = cell.heading if cell.heading is not None else (self.row_heads and i == 0)
                names = ["num"] if cell.number and not self.all_numbers else []
                label = ""
                if cards and i and (cell.text or cell.markup):
                    title = str(self.head[i]) if i < len(self.head) else ""
                    label = f' data-h="{html_lib.escape(title, quote=True)}"' if title else ""
                    names += _chip_span(chips[r + 1][i][1], chips[0][i][1] if title else 0.0)
                cls = f' class="{" ".join(names)}"' if names else ""
                tag = "th" if heading else "td"
                cells.append(f"<{tag}{cls}{label}>{cell.inner(compact)}</{tag}>")
            body.append(('<tr class="mark">' if len(body) in self.marked else "<tr>")
                        + "".join(cells) + "</tr>")
        note = f'<p class="table-note">{html_lib.escape(self.note)}</p>' if self.note else ""
        wrap, hint = '<div class="table-wrap">', ""
        if layout == "swipe":
            wrap = '<div class="table-wrap swipe">'
            hint = f'<p class="swipe-hint" aria-hidden="true">{SWIPE_HINT}</p>'
        return (f'{hint}{wrap}<table class="{html_lib.escape(classes)}">{cap}{head}'
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
