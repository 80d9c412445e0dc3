"""Numbers in statements and excerpts, read under both the en and pt conventions.

"1,577" may be 1577 (en) or 1.577 (pt); "1.577,00" is 1577.00 (pt). `numbers_in` gives every
reading of the numbers written in digits, a vulgar fraction included ("1½" is 1.5, "½" 0.5);
`engine.text.number_words` reads the numbers written in words. A minus sign, U+2212 or an
en dash used as a sign ("–3,2%", not "2019–2022") is part of the number. Whether a
statement's number is backed by an excerpt is decided on quantities (value, sign, unit and
scale: `engine.text.quantities`), which `missing_numbers` delegates to.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

_SPACES = "\u00a0\u2009\u202f"  # no-break, thin and narrow no-break: thousands separators only
_RUN = re.compile(rf"\d+(?:[.,{_SPACES}]\d+)*")
_MINUS = "-\u2212\u2013"
_CURRENCY = "$€£¥"
_FRACTIONS = {"½": "0.5", "¼": "0.25", "¾": "0.75", "⅛": "0.125", "⅜": "0.375", "⅝": "0.625"}
_FRACTIONS |= {"⅞": "0.875", "⅕": "0.2", "⅖": "0.4", "⅗": "0.6", "⅘": "0.8"}
_FRACTION = re.compile(rf"(?<![\d.,])(?:(\d+)[ {_SPACES}]?)?([{''.join(_FRACTIONS)}])")
_EXPONENT = re.compile(rf"\d[ {_SPACES}]*[kcdm]?m([23])(?!\w)")  # the 2 of "500 m2", "40 km3"


@dataclass(frozen=True)
class NumberToken:
    """A number as written (`raw`, at text[start:end]) and every value it can mean."""

    raw: str
    values: frozenset[Decimal]
    start: int
    end: int
    exact: bool = False
    """Its values need no separator reading: a fraction ("1½") or a number in words."""


def numbers_in(text: str) -> list[NumberToken]:
    """The numbers written in digits in `text`, left to right.

    Names such as "3M" or "5G" (one digit glued to one capital letter) are not numbers.
    """
    tokens: list[NumberToken] = []
    exponents = {m.start(1) for m in _EXPONENT.finditer(text)}
    fractions = [_fraction(text, m) for m in _FRACTION.finditer(text)]
    taken = [(t.start, t.end) for t in fractions]
    for run in _RUN.finditer(text):
        if run.start() in exponents or any(a <= run.start() < b for a, b in taken):
            continue
        parts = re.split(rf"([.,{_SPACES}])", run.group())
        groups, separators = parts[0::2], parts[1::2]
        offset = run.start()
        first = 0
        while first < len(groups):
            last, values = _longest_reading(groups, separators, first)
            start = offset
            end = start + sum(len(g) for g in groups[first : last + 1]) + (last - first)
            if not _is_name(text, start, end):
                tokens.append(_token(text, start, end, values))
            offset = end + 1
            first = last + 1
    return sorted(tokens + fractions, key=lambda token: token.start)


def _fraction(text: str, match: re.Match[str]) -> NumberToken:
    """A vulgar fraction, after its whole part if any: "1½" and "1 ½" are 1.5, "½" is 0.5."""
    whole = Decimal(_ascii_digits(match[1])) if match[1] else Decimal(0)
    value = whole + Decimal(_FRACTIONS[match[2]])
    token = _token(text, match.start(), match.end(), frozenset({value}))
    return NumberToken(token.raw, token.values, token.start, token.end, exact=True)


def missing_numbers(
    statement: str,
    excerpt: str,
    *,
    statement_language: str | None = None,
    quoted_language: str | None = None,
) -> list[str]:
    """Raw numbers of `statement` that no quantity of `excerpt` backs: value, unit and scale
    compared, separators read as each text uses them (`engine.text.quantities`)."""
    from engine.text.quantities import unsupported_numbers  # it reads numbers with numbers_in

    return unsupported_numbers(
        statement,
        excerpt,
        statement_language=statement_language,
        quoted_language=quoted_language,
    )


def _longest_reading(
    groups: list[str], separators: list[str], first: int
) -> tuple[int, frozenset[Decimal]]:
    """The longest run of groups from `first` that reads as a number, and its readings.

    A run that reads as nothing ("1.2.3") is cut into shorter numbers ("1.2", "3").
    """
    for last in range(len(groups) - 1, first, -1):
        values = _readings(groups[first : last + 1], separators[first:last])
        if values:
            return last, values
    return first, frozenset({Decimal(_ascii_digits(groups[first]))})


def _readings(groups: list[str], separators: list[str]) -> frozenset[Decimal]:
    """Values of digit groups joined by separators: all-thousands, or thousands then decimal."""
    digits = [_ascii_digits(g) for g in groups]
    values: set[Decimal] = set()
    if _thousands(digits, separators):
        values.add(Decimal("".join(digits)))
    mark = separators[-1]
    if mark in ".," and _thousands(digits[:-1], separators[:-1]) and mark not in separators[:-1]:
        values.add(Decimal(f"{''.join(digits[:-1])}.{digits[-1]}"))
    return frozenset(values)


def _thousands(digits: list[str], separators: list[str]) -> bool:
    """Whether the groups read as one integer with thousands separators (all one kind)."""
    if len(digits) == 1:
        return True
    marks = {s for s in separators if s in ".,"}
    return len(digits[0]) <= 3 and all(len(g) == 3 for g in digits[1:]) and len(marks) <= 1


def _ascii_digits(group: str) -> str:
    return group if group.isascii() else "".join(str(unicodedata.decimal(c)) for c in group)


def _is_name(text: str, start: int, end: int) -> bool:
    """'3M', '5G', '4K': one digit glued to one capital letter, not a currency amount."""
    if end - start != 1 or end >= len(text) or not text[end].isupper():
        return False
    if end + 1 < len(text) and text[end + 1].isalnum():
        return False
    before = text[:start].rstrip()
    return not (before and before[-1] in _CURRENCY)


def _token(text: str, start: int, end: int, values: frozenset[Decimal]) -> NumberToken:
    """A token; a minus sign before it adds the negative readings ("-5" is 5 and -5)."""
    signed = start > 0 and text[start - 1] in _MINUS
    if signed and start > 1 and text[start - 2].isalnum():
        signed = False  # a range ("2019-2022") or a code ("COVID-19"), not a sign
    if signed and text[start - 1] == "\u2013" and text[: start - 1].rstrip()[-1:].isdigit():
        signed = False  # a range with spaces ("5 – 10"), not a sign
    if signed:
        values = values | {-v for v in values}
        start -= 1
    return NumberToken(text[start:end], values, start, end)
