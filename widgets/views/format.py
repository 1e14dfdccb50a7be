"""Korean text formatting for exact results (fraction + percent), shared by every view."""
from __future__ import annotations

import html
from fractions import Fraction


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
    rounded = Fraction(int(p * 100 * scale + Fraction(1, 2)), scale)
    if rounded == 0:
        return f"< {1 / scale:.{digits}f}%"
    if rounded == 100:
        return f"> {100 - 1 / scale:.{digits}f}%"
    return f"{float(rounded):.{digits}f}%"


def fraction(x: Fraction) -> str:
    """``7/2``, or ``3`` when whole."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def prob(p: Fraction) -> str:
    """Exact fraction and percent: ``5/12 (41.67%)``."""
    return f"{fraction(p)} ({percent(Fraction(p))})"


def signed(n: int) -> str:
    """``+1`` / ``0`` / ``−1`` with a real minus sign."""
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}")


def odds_table(rows: list[tuple[str, Fraction]], caption: str = "") -> str:
    """HTML table of labelled exact probabilities."""
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    body = "".join(
        f"<tr><th>{html.escape(label)}</th><td>{html.escape(prob(p))}</td></tr>" for label, p in rows
    )
    return f'<table class="odds">{cap}{body}</table>'


def error(message: str) -> str:
    """A reader-facing error line (no traceback)."""
    return f'<p class="widget-error" role="alert">⚠ {html.escape(message)}</p>'
