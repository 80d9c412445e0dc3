"""Numbers in statements and excerpts, read under both the en and pt conventions.

"1,577" may be 1577 (en) or 1.577 (pt); "1.577,00" is 1577.00 (pt). `numbers_in` gives every
reading of the numbers written in digits, a vulgar fraction included ("1½" is 1.5, "½" 0.5), and
`numbers_in_words` the numbers written in words ("vinte e cinco", "twenty-five", "cinco" of
"cinco milhões"; "um", "uma" and "one" only before a scale word: "um milhão", not "um dos").
A minus sign, U+2212 or an en dash used as a sign ("–3,2%", not "2019–2022") is part of the
number. Whether a statement's number is backed by an excerpt is decided on quantities (value,
unit and scale: `engine.text.quantities`), which `missing_numbers` delegates to.
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


# -- numbers in words ------------------------------------------------------------------------

_UNITS_PT = "zero um uma dois duas três tres quatro cinco seis sete oito nove".split()
_TEENS_PT = "dez onze doze treze catorze quinze dezesseis dezessete dezoito dezenove".split()
_WORD_VALUES: dict[str, int] = {w: i for i, w in enumerate(_UNITS_PT[:3])}
_WORD_VALUES |= {"uma": 1, "dois": 2, "duas": 2, "três": 3, "tres": 3, "quatro": 4}
_WORD_VALUES |= {"cinco": 5, "seis": 6, "sete": 7, "oito": 8, "nove": 9}
_WORD_VALUES |= {w: 10 + i for i, w in enumerate(_TEENS_PT)}
_WORD_VALUES |= {"quatorze": 14, "dezasseis": 16, "dezassete": 17, "dezanove": 19}
_WORD_VALUES |= dict(
    zip(
        "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa".split(),
        range(20, 100, 10),
        strict=True,
    )
)
_WORD_VALUES |= {"cinqüenta": 50, "cem": 100, "cento": 100}
_WORD_VALUES |= dict(
    zip(
        "duzentos trezentos quatrocentos quinhentos seiscentos setecentos oitocentos novecentos"
        .split(),
        range(200, 1000, 100),
        strict=True,
    )
)
_WORD_VALUES |= {w.replace("os", "as"): v for w, v in list(_WORD_VALUES.items()) if v >= 200}
_EN = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
_EN += " fifteen sixteen seventeen eighteen nineteen"
_WORD_VALUES |= {w: i for i, w in enumerate(_EN.split())}
_WORD_VALUES |= dict(
    zip(
        "twenty thirty forty fifty sixty seventy eighty ninety".split(),
        range(20, 100, 10),
        strict=True,
    )
)
_HUNDRED = frozenset({"hundred", "hundreds"})
_THOUSAND = frozenset({"mil", "thousand"})
_LARGE = {"milhão": 6, "milhao": 6, "milhões": 6, "milhoes": 6, "million": 6, "millions": 6}
_LARGE |= {"bilhão": 9, "bilhao": 9, "bilhões": 9, "bilhoes": 9, "billion": 9, "billions": 9}
_LARGE |= {"trilhão": 12, "trilhões": 12, "trillion": 12}
_ONES = frozenset({"um", "uma", "one"})  # an article or a pronoun unless a scale follows
_AND = frozenset({"e", "and"})
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def numbers_in_words(text: str) -> list[NumberToken]:
    """The numbers written in words in `text`, left to right, each an exact token whose raw
    text is its words ("vinte e cinco", "twenty-five"; "cinco" of "cinco milhões": the scale
    word after it is read as a scale, like the "milhões" of "5 milhões")."""
    words = [(m.start(), m.end(), m[0].casefold()) for m in _WORD.finditer(text)]
    tokens: list[NumberToken] = []
    i = 0
    while i < len(words):
        found = _number_words(text, words, i)
        if found is None:
            i += 1
            continue
        last, value = found
        start, end = words[i][0], words[last][1]
        tokens.append(NumberToken(text[start:end], frozenset({Decimal(value)}), start, end, True))
        i = last + 1
    return tokens


def _number_words(
    text: str, words: list[tuple[int, int, str]], first: int
) -> tuple[int, int] | None:
    """The last word index and the value of the number written in words from `first`."""
    total, current, last = 0, 0, -1
    i = first
    while i < len(words):
        word = words[i][2]
        if i > first and not _joined(text, words[i - 1][1], words[i][0]):
            break
        if last >= 0 and word in _AND:  # "vinte e cinco", "one hundred and five"
            if i + 1 >= len(words) or not _joined(text, words[i][1], words[i + 1][0]):
                break
            value = _WORD_VALUES.get(words[i + 1][2])
            if value is None or not _fits(current, value):
                break
            i += 1
            word = words[i][2]
        value = _WORD_VALUES.get(word)
        if value is not None:
            if last >= 0 and not _fits(current, value):
                break
            if word == "cento" and not _followed_by_and(words, i):
                break  # "por cento" is percent
            if word == "dez" and text[words[i][1] : words[i][1] + 1] == ".":
                break  # "dez." is December
            current += value
        elif last >= 0 and word in _HUNDRED and 0 < current < 10:
            current *= 100
        elif last >= 0 and word in _THOUSAND and current and _continues(text, words, i):
            total, current = total + current * 1000, 0
        else:
            break  # a scale word ends the phrase: "cinco milhões" is "cinco" × milhões
        last = i
        i += 1
    if last < 0:
        return None
    if last == first and words[first][2] in _ONES and not _before_scale(text, words, first):
        return None
    return last, total + current


def _fits(current: int, value: int) -> bool:
    """Whether `value` fills the zeros of `current` ("vinte" + "cinco", "cento" + "vinte"),
    not a second number beside it ("cinco e seis")."""
    return value > 0 and current % 10 ** len(str(value)) == 0


def _continues(text: str, words: list[tuple[int, int, str]], i: int) -> bool:
    """Whether the number goes on after the thousand at `i` ("dois mil e quinhentos")."""
    if i + 1 >= len(words) or not _joined(text, words[i][1], words[i + 1][0]):
        return False
    nxt = words[i + 1][2]
    return nxt in _AND or nxt in _WORD_VALUES


def _followed_by_and(words: list[tuple[int, int, str]], i: int) -> bool:
    return i + 2 < len(words) and words[i + 1][2] in _AND and words[i + 2][2] in _WORD_VALUES


def _before_scale(text: str, words: list[tuple[int, int, str]], i: int) -> bool:
    if i + 1 >= len(words) or not _joined(text, words[i][1], words[i + 1][0]):
        return False
    nxt = words[i + 1][2]
    return nxt in _LARGE or nxt in _THOUSAND or nxt in _HUNDRED


def _joined(text: str, end: int, start: int) -> bool:
    """Whether two words are one phrase: a space or a hyphen between them, nothing else."""
    return text[end:start] in (" ", "-", "\u00a0")
