"""Input errors that carry a Korean message for the widgets.

The public API raises :class:`RuleInputError` (a ``ValueError``) so callers can catch
``ValueError``; the widgets show :attr:`RuleInputError.korean` instead of a traceback.
"""
from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Rational, Real


class RuleInputError(ValueError):
    """A bad argument: ``str(err)`` is English, ``err.korean`` is the reader-facing message."""

    def __init__(self, english: str, korean: str):
        super().__init__(english)
        self.korean = korean


def require_int(value: object, name: str, name_ko: str, low: int, high: int) -> int:
    """Return ``value`` as an ``int`` in ``[low, high]`` or raise :class:`RuleInputError`.

    Booleans, floats with a fraction part and text are refused (no ``eval`` of user text).

    >>> require_int(3.0, "dice", "주사위", 0, 10)
    3
    >>> require_int("3", "dice", "주사위", 0, 10)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: dice must be a whole number, got '3'
    """
    if isinstance(value, bool) or not isinstance(value, Integral):
        if isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value) \
                and float(value).is_integer():
            value = int(value)
        else:
            raise RuleInputError(
                f"{name} must be a whole number, got {value!r}",
                f"{name_ko}에는 정수를 넣어 주세요 (입력값: {value!r}).",
            )
    value = int(value)
    if not low <= value <= high:
        raise RuleInputError(
            f"{name} must be between {low} and {high}, got {value}",
            f"{name_ko}은(는) {low}부터 {high}까지만 됩니다 (입력값: {value}).",
        )
    return value


def require_number(value: object, name: str, name_ko: str, low: Fraction | int,
                   high: Fraction | int) -> Fraction:
    """Return ``value`` as an exact ``Fraction`` in ``[low, high]`` (floats go through their
    decimal text, so ``7.5`` becomes ``15/2``).

    >>> require_number(7.5, "distance", "거리", 0, 12)
    Fraction(15, 2)
    """
    if isinstance(value, bool):
        value = None
    if isinstance(value, Rational):
        number = Fraction(value)
    elif isinstance(value, Real) and math.isfinite(value):
        number = Fraction(str(value))
    else:
        raise RuleInputError(
            f"{name} must be a number, got {value!r}",
            f"{name_ko}에는 숫자를 넣어 주세요 (입력값: {value!r}).",
        )
    if not low <= number <= high:
        raise RuleInputError(
            f"{name} must be between {low} and {high}, got {value}",
            f"{name_ko}은(는) {low}부터 {high}까지만 됩니다 (입력값: {value}).",
        )
    return number
