"""The input contract of the whole library: one error type, one set of validators, one rounding.

The public API raises :class:`RuleInputError` (a ``ValueError``) so callers can catch
``ValueError``; the widgets show :attr:`RuleInputError.korean` instead of a traceback. Every
module checks its arguments with the validators below, so the same input is refused the same
way everywhere:

- :func:`require_int` / :func:`require_number`: real numbers only (no ``bool``, text, NaN or
  infinity), inside a stated range;
- :func:`require_bool`: only ``True`` or ``False`` (``"no"``, ``0`` or ``0.5`` are refused, they
  would silently switch a rule);
- :func:`require_choice` / :func:`require_text`: one of a list of names, or short text.

Messages name the argument and the given value in English and in Korean; Korean particles are
chosen from the word they follow (:func:`particle`), never written as 은(는).

>>> require_bool("no", "bloodbath", "피의 향연")
Traceback (most recent call last):
...
widgets.errors.RuleInputError: bloodbath must be True or False, got 'no'
>>> round_up(-7, 2), round_up(7, 2)
(-3, 4)
"""
from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Rational, Real
from typing import Iterable, Mapping


class RuleInputError(ValueError):
    """A bad argument: ``str(err)`` is English, ``err.korean`` is the reader-facing message."""

    def __init__(self, english: str, korean: str):
        super().__init__(english)
        self.korean = korean


# --- Korean particles ------------------------------------------------------------------------
# Final consonant (받침) of the reading of digits and Latin letters: 0 영, 1 일, 3 삼, 6 육,
# 7 칠, 8 팔 end in a consonant (1, 7, 8 in ㄹ); 2 이, 4 사, 5 오, 9 구 do not.
_DIGIT_FINAL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ",
                "8": "ㄹ", "9": ""}
# Letters read in English: l, m, n, r end in a consonant sound as Koreans read them (엘, 엠, 엔, 알).
_LATIN_FINAL = {"l": "ㄹ", "m": "ㅁ", "n": "ㄴ", "r": "ㄹ"}
_PAIRS = {"은/는": ("은", "는"), "이/가": ("이", "가"), "을/를": ("을", "를"),
          "과/와": ("과", "와"), "으로/로": ("으로", "로"), "이에요/예요": ("이에요", "예요")}
_SKIP = " )]}'\"”’」』>.,·…%\u00a0"


#: Endings read as words, not letter by letter: MAP 맵; after a number m 미터, cm/km ~미터, ft 피트.
_WORD_FINAL = {"MAP": "ㅂ"}
_UNIT_FINAL = {"m": "", "cm": "", "km": "", "ft": ""}


def _final(word: str) -> str | None:
    """The final consonant of the last readable character ('' for a vowel, None if unknown).

    A fraction is read numerator last (7/2: "2분의 7"), a number with a unit by the unit.

    >>> _final("7/2"), _final("12m"), _final("MAP")
    ('ㄹ', '', 'ㅂ')
    """
    import re
    stripped = word.rstrip(_SKIP)
    fraction = re.search(r"(\d+)/\d+$", stripped)
    if fraction:
        return _DIGIT_FINAL[fraction.group(1)[-1]]
    unit = re.search(r"\d\s*([a-z]+)$", stripped)
    if unit and unit.group(1) in _UNIT_FINAL:
        return _UNIT_FINAL[unit.group(1)]
    for ending, final in _WORD_FINAL.items():
        if stripped.endswith(ending):
            return final
    for ch in reversed(word):
        if ch in _SKIP:
            continue
        if "가" <= ch <= "힣":
            jong = (ord(ch) - 0xAC00) % 28
            return "" if jong == 0 else ("ㄹ" if jong == 8 else "ㄱ")
        if ch in _DIGIT_FINAL:
            return _DIGIT_FINAL[ch]
        if ch.isascii() and ch.isalpha():
            return _LATIN_FINAL.get(ch.lower(), "")
        return None
    return None


def particle(word: object, pair: str) -> str:
    """``word`` followed by the right form of a Korean particle pair (``"은/는"``, ``"이/가"``,
    ``"을/를"``, ``"과/와"``, ``"으로/로"``), read from the word's last syllable or digit.

    >>> particle("주사위", "은/는"), particle("거리", "을/를"), particle("12", "이/가"), particle("DC", "은/는")
    ('주사위는', '거리를', '12가', 'DC는')
    >>> particle("20", "으로/로"), particle("1", "으로/로"), particle("방어 점수", "이/가")
    ('20으로', '1로', '방어 점수가')
    """
    text = str(word)
    if pair not in _PAIRS:
        raise RuleInputError(f"unknown particle pair {shown(pair)}",
                             f"조사 쌍은 {'·'.join(_PAIRS)} 가운데 하나여야 합니다 (입력값: {_shown_ko(pair)}).")
    with_final, without = _PAIRS[pair]
    final = _final(text)
    if final is None:   # unreadable ending: a form that reads naturally either way
        final = ""
    if pair == "으로/로":
        return text + (without if final in ("", "ㄹ") else with_final)
    return text + (with_final if final else without)


# --- showing a given value -----------------------------------------------------------------
def shown(value: object, limit: int = 40) -> str:
    """A short, safe ``repr`` of a given value for messages (huge numbers are not spelled out,
    long text is cut).

    Only as much of a long text or list is read as the message shows, so showing a given value
    costs the same for ten items as for ten million.

    >>> shown(10**500), shown("x" * 60)[:12], shown([(0, 0)] * 10**7)
    ('a 501-digit number', "'xxxxxxxxxxx", '[(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)…')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a {len(str(abs(value))) if value.bit_length() < 10000 else 'many'}-digit number"
    try:
        text = _head_repr(value, limit)
    except Exception:   # a hostile __repr__ must not turn a refusal into another error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _head_repr(value: object, limit: int, depth: int = 0) -> str:
    """``repr(value)`` for short values; for long text and for lists, tuples, sets and dicts
    (exactly those types) only the first items, enough to fill ``limit`` characters."""
    kind = type(value)
    if kind in (str, bytes):
        return repr(value if len(value) <= limit else value[:limit + 1])  # type: ignore[index]
    if kind is int and value.bit_length() > 128:  # type: ignore[union-attr]
        return f"<{len(str(abs(value))) if value.bit_length() < 10000 else 'many'}-digit number>"  # type: ignore[union-attr]
    if hasattr(value, "__next__"):   # an iterator: its repr says only where it lives in memory
        return f"<{kind.__name__}>"
    if kind not in (list, tuple, set, frozenset, dict) or depth > 3:
        return repr(value)
    items = iter(value.items()) if kind is dict else iter(value)  # type: ignore[union-attr]
    parts: list[str] = []
    size = 0
    for item in items:
        if size > limit:
            parts.append("...")
            break
        part = (f"{_head_repr(item[0], limit, depth + 1)}: {_head_repr(item[1], limit, depth + 1)}"
                if kind is dict else _head_repr(item, limit, depth + 1))
        parts.append(part)
        size += len(part) + 2
    inner = ", ".join(parts)
    if kind is list:
        return f"[{inner}]"
    if kind is tuple:
        return f"({inner},)" if len(parts) == 1 and len(value) == 1 else f"({inner})"  # type: ignore[arg-type]
    if kind is dict:
        return f"{{{inner}}}"
    if not parts:
        return f"{kind.__name__}()"
    return f"{{{inner}}}" if kind is set else f"frozenset({{{inner}}})"


def _shown_ko(value: object) -> str:
    text = shown(value)
    if text.startswith("a ") and text.endswith("-digit number"):
        return f"{text[2:-13]}자리 수"
    return text


def _range_text(low: object, high: object) -> tuple[str, str]:
    return f"from {low} to {high}", f"{low}부터 {high}까지"


# --- validators ----------------------------------------------------------------------------
#: Characters of one name the validators look up (:func:`require_choice`): longer text is refused
#: unread. Listed with the library's other limits in :mod:`widgets.limits` (which imports it
#: from here: the validators come first, the limits use them).
MAX_NAME_TEXT = 100


def require_int(value: object, name: str, name_ko: str, low: int, high: int) -> int:
    """Return ``value`` as an ``int`` in ``[low, high]`` or raise :class:`RuleInputError`.

    Whole floats and fractions are accepted (``3.0``); booleans, text (full-width digits too),
    NaN, infinities and numbers with a fraction part are refused (no ``eval`` of user text).

    >>> require_int(3.0, "dice", "주사위", 0, 10)
    3
    >>> require_int("3", "dice", "주사위", 0, 10)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: dice must be a whole number from 0 to 10, got '3'
    >>> require_int(11, "dice", "주사위", 0, 10)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: dice must be a whole number from 0 to 10, got 11
    """
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, Integral):
        number = int(value)
    elif isinstance(value, Rational):
        number = int(value) if value.denominator == 1 else None
    elif isinstance(value, float):
        number = int(value) if math.isfinite(value) and value.is_integer() else None
    elif isinstance(value, Real):
        try:
            as_float = float(value)
            number = int(value) if math.isfinite(as_float) and as_float.is_integer() \
                and value == int(value) else None
        except (TypeError, ValueError, OverflowError):
            number = None
    en_range, ko_range = _range_text(low, high)
    if number is None:
        raise RuleInputError(
            f"{name} must be a whole number {en_range}, got {shown(value)}",
            f"{name_ko}에는 정수를 넣어 주세요: {ko_range} (입력값: {_shown_ko(value)}).",
        )
    if not low <= number <= high:
        raise RuleInputError(
            f"{name} must be a whole number {en_range}, got {shown(value)}",
            f"{particle(name_ko, '은/는')} {ko_range}의 정수여야 합니다 (입력값: {_shown_ko(value)}).",
        )
    return number


def require_number(value: object, name: str, name_ko: str, low: Fraction | int,
                   high: Fraction | int) -> Fraction:
    """Return ``value`` as an exact ``Fraction`` in ``[low, high]`` (floats go through their
    decimal text, so ``7.5`` becomes ``15/2``); booleans, text, NaN and infinities are refused.

    >>> require_number(7.5, "distance", "거리", 0, 12)
    Fraction(15, 2)
    >>> require_number(True, "distance", "거리", 0, 12)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: distance must be a number from 0 to 12, got True
    """
    number: Fraction | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, Rational):
        number = Fraction(value)
    elif isinstance(value, Real):
        try:
            as_float = float(value)
            number = Fraction(repr(as_float)) if math.isfinite(as_float) else None
        except (TypeError, ValueError, OverflowError):
            number = None
    en_range, ko_range = _range_text(low, high)
    if number is None:
        raise RuleInputError(
            f"{name} must be a number {en_range}, got {shown(value)}",
            f"{name_ko}에는 숫자를 넣어 주세요: {ko_range} (입력값: {_shown_ko(value)}).",
        )
    if not low <= number <= high:
        raise RuleInputError(
            f"{name} must be a number {en_range}, got {shown(value)}",
            f"{particle(name_ko, '은/는')} {ko_range}의 수여야 합니다 (입력값: {_shown_ko(value)}).",
        )
    return number


def require_bool(value: object, name: str, name_ko: str) -> bool:
    """Return ``value`` if it is ``True`` or ``False``; anything else (``0``, ``"no"``, ``0.5``,
    ``None``) is refused rather than read as true or false.

    >>> require_bool(True, "agile", "날렵함")
    True
    >>> require_bool(0, "agile", "날렵함")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: agile must be True or False, got 0
    """
    if not isinstance(value, bool):
        raise RuleInputError(
            f"{name} must be True or False, got {shown(value)}",
            f"{particle(name_ko, '은/는')} 예/아니오(True/False)로만 정합니다 (입력값: {_shown_ko(value)}).",
        )
    return value


def require_text(value: object, name: str, name_ko: str, max_length: int = 100) -> str:
    """Return ``value`` stripped if it is non-empty text of at most ``max_length`` characters.

    >>> require_text("  탄넨 ", "name", "이름")
    '탄넨'
    """
    if not isinstance(value, str) or len(value) > max_length or not value.strip():
        raise RuleInputError(
            f"{name} must be text of 1 to {max_length} characters, got {shown(value)}",
            f"{particle(name_ko, '은/는')} 1자부터 {max_length}자까지의 글자여야 합니다 "
            f"(입력값: {_shown_ko(value)}).",
        )
    return value.strip()


def require_choice(value: object, name: str, name_ko: str,
                   choices: "Mapping[str, object] | Iterable[str]") -> object:
    """One of ``choices``: the mapped value if ``choices`` is a mapping (keys compared after
    stripping spaces), else the matching name itself.

    >>> require_choice(" B ", "first", "먼저 하는 쪽", ("A", "B"))
    'B'
    >>> require_choice("C", "first", "먼저 하는 쪽", ("A", "B"))
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: first must be one of 'A', 'B', got 'C'
    """
    table = choices if isinstance(choices, Mapping) else {c: c for c in choices}
    key = value.strip() if isinstance(value, str) and len(value) <= MAX_NAME_TEXT else None
    if key is None or key not in table:
        names = list(table)
        listed = ", ".join(repr(n) for n in names[:12]) + (", …" if len(names) > 12 else "")
        listed_ko = "·".join(str(n) for n in names[:12]) + (" 등" if len(names) > 12 else "")
        raise RuleInputError(f"{name} must be one of {listed}, got {shown(value)}",
                             f"{particle(name_ko, '은/는')} {listed_ko} 가운데 하나여야 합니다 "
                             f"(입력값: {_shown_ko(value)}).")
    return table[key]


def require_items(value: object, name: str, name_ko: str, max_items: int) -> list:
    """A list of at most ``max_items`` items from a list, tuple or other iterable (text and
    non-iterables are refused; an endless iterator is cut at ``max_items + 1``).

    >>> require_items(((0, 0), (1, 1)), "path", "경로", 10)
    [(0, 0), (1, 1)]
    >>> require_items(True, "path", "경로", 10)
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: path must be a list of at most 10 items, got True
    """
    items: list | None = None
    if not isinstance(value, (str, bytes, Mapping)):
        try:
            iterator = iter(value)  # type: ignore[call-overload]
        except TypeError:
            iterator = None
        if iterator is not None:
            items = []
            for item in iterator:
                items.append(item)
                if len(items) > max_items:
                    items = None
                    break
    if items is None:
        raise RuleInputError(
            f"{name} must be a list of at most {max_items} items, got {shown(value)}",
            f"{particle(name_ko, '은/는')} {max_items}개까지의 목록이어야 합니다 (입력값: {_shown_ko(value)}).")
    return items


def require_instance(value: object, kind: type, name: str, name_ko: str) -> object:
    """``value`` if it is an instance of ``kind`` (a library object such as a terrain or a
    distribution), else :class:`RuleInputError`.

    >>> require_instance(3, str, "name", "이름")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: name must be a str, got 3
    """
    if not isinstance(value, kind):
        raise RuleInputError(f"{name} must be a {kind.__name__}, got {shown(value)}",
                             f"{particle(name_ko, '이/가')} 올바르지 않습니다 ({kind.__name__}, "
                             f"입력값: {_shown_ko(value)}).")
    return value


def require_odds(value: object, keys: Iterable[str], name: str, name_ko: str) -> dict[str, Fraction]:
    """An exact odds table with exactly ``keys`` (what one of the library's ``…_odds``
    functions returns): a dict of :class:`~fractions.Fraction` values from 0 to 1 that sum to
    1, else :class:`RuleInputError`. What the totals (``hit_chance``, ``success_or_better`` …)
    take, so a hand-made or truncated table is refused instead of summed.

    >>> require_odds({"hit": Fraction(1, 3), "miss": Fraction(2, 3)}, ("hit", "miss"), "odds", "확률표")
    {'hit': Fraction(1, 3), 'miss': Fraction(2, 3)}
    >>> require_odds({"hit": Fraction(1, 3)}, ("hit", "miss"), "odds", "확률표")
    Traceback (most recent call last):
    ...
    widgets.errors.RuleInputError: odds must be an exact odds table of 'hit', 'miss', got {'hit': Fraction(1, 3)}
    """
    wanted = tuple(keys)
    good = (isinstance(value, dict) and len(value) == len(wanted) and set(value) == set(wanted)
            and all(type(value[k]) is Fraction and 0 <= value[k] <= 1 for k in wanted)
            and sum(value.values(), Fraction(0)) == 1)
    if not good:
        listed = ", ".join(repr(k) for k in wanted)
        raise RuleInputError(f"{name} must be an exact odds table of {listed}, got {shown(value)}",
                             f"{particle(name_ko, '은/는')} {'·'.join(wanted)}의 정확한 확률표"
                             f"(합이 1인 분수)여야 합니다 (입력값: {_shown_ko(value)}).")
    return dict(value)


# --- the one rounding rule --------------------------------------------------------------------
def round_up(numerator: object, denominator: object = 1) -> int:
    """``numerator / denominator`` rounded up (towards +∞, so −3.5 → −3): the library's one
    rounding helper, for every "fractions are rounded up" rule. ``numerator`` may be any exact
    number (``Fraction(7, 2)``, ``7.5``), ``denominator`` a whole number from 1.

    >>> [round_up(n, 2) for n in (7, 6, 1, 0, -1, -7)]
    [4, 3, 1, 0, 0, -3]
    >>> round_up(Fraction(-7, 2)), round_up(2.25)
    (-3, 3)
    """
    num = require_number(numerator, "numerator", "나눌 수", -10**15, 10**15)
    den = require_int(denominator, "denominator", "나누는 수", 1, 10**15)
    return -((-num.numerator) // (num.denominator * den))
