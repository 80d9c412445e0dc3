"""Numbers written in words, in Portuguese and English: "vinte e cinco" and "twenty-five"
are 25, "cento e vinte e três" 123, "dois mil e quinhentos" 2500; "cinco milhões" is "cinco"
followed by its scale word, read as a scale like the "milhões" of "5 milhões". "um", "uma"
and "one" are numbers only before a scale word ("um milhão", not "um dos"); "cento" only in
a compound ("cento e vinte", not "por cento"). Pure code."""

from __future__ import annotations

import re
from decimal import Decimal

from engine.text.numbers import NumberToken

__all__ = ["numbers_in_words"]

_TEENS_PT = "dez onze doze treze catorze quinze dezesseis dezessete dezoito dezenove".split()
_WORD_VALUES: dict[str, int] = {"zero": 0, "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3}
_WORD_VALUES |= {"tres": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7, "oito": 8, "nove": 9}
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
        "duzentos trezentos quatrocentos quinhentos seiscentos setecentos oitocentos "
        "novecentos".split(),
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
