"""Footnote markers of an excerpt, as its page draws them: small raised digits after a word.

"Net loss on disposals(2)" or "intangibles (5)": a filing's text layer holds the marker as
plain digits, while the page draws them a third smaller and raised, where Tesseract drops
them or reads a quote mark. Which digits are markers is decided from the page, never from
the text: pdfium's box of each character of the excerpt's span (where the verifier found
it, `page_boxes.find_span`) against the line they stand on. A marker is, at the end of a
word or as a word of its own:

- numbers of one or two digits, several joined by commas or dashes ("1,3"), in parentheses
  or brackets or bare (`_SHAPE`), nothing else: a letter
  is never a marker (small raised "não" is text), nor a digit glued to a digit or to a
  number's separator ("1,29⁴" is the figure a reader does not see as 1,294), nor one
  followed by more of its word;
- each digit drawn no taller than `MAX_HEIGHT` of the tallest letter or digit of its line
  in the span, each character raised (its bottom at least `MIN_RAISE` of that height above
  the baseline of the character before it): both, so neither a small figure on the line nor a
  raised one of full size is taken for a marker.

What a reader sees there is the word without it; `agreement.disagreement` may read the
excerpt so. The marker's digits are no quantity a statement may use (`Sight.markers`:
`check.SeenCheck` rejects a claim whose statement does). Callers hold `parse.PDFIUM_LOCK`.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass

import pypdfium2
import pypdfium2.raw as pdfium_c

from engine.documents.layout import Box
from engine.documents.pdf_text import PageText, visible_page_text
from engine.sources.library.page_boxes import find_span
from engine.verify.seen.agreement import core, words_of

MAX_HEIGHT = 0.8
"""A marker's digits are at most this share of the height of the line's tallest glyph (a
superscript is set at 58-70% of the body size)."""
MIN_RAISE = 0.25
"""A marker's characters stand at least this share of the line's height above its baseline
(a superscript is raised by about a third of the body size)."""
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
_SHAPE = re.compile(r"[(\[]?\d{1,2}(?:[,\-\u2013]\d{1,2})*[)\]]?")
_TRAILING = ".,;:"
"""Punctuation that may follow a marker within its word ("sales(1).")."""
_NOT_BEFORE = frozenset(".,\u00a0\u2009\u202f")
"""What a marker never follows in its word: a digit, or a number's separator."""


@dataclass(frozen=True)
class Markers:
    """The footnote markers of an excerpt: each word of `agreement.words_of(excerpt)` that
    holds one (by its index) as a reader reads it without the marker ("" for a marker
    standing alone), the markers as written ("(2)", "1,3"), and the figures of the excerpt
    a digit of which the page draws small and raised (`broken`: "1,294" drawn "1,29⁴" is
    not 1,294 to a reader, whatever OCR makes of it)."""

    words: dict[int, str]
    numbers: tuple[str, ...]
    broken: tuple[str, ...] = ()


NO_MARKERS = Markers({}, ())


@dataclass(frozen=True)
class _Char:
    text: str
    box: Box
    baseline: float


def footnote_markers(
    text_page: pypdfium2.PdfTextPage, excerpt: str, page_text: PageText | None = None
) -> Markers:
    """The markers the page of `text_page` draws in `excerpt` (NO_MARKERS when it draws none, or
    when its span's words are not the excerpt's, so a marker cannot be placed).
    `page_text`: `visible_page_text(text_page)`, when the caller has it."""
    page_text = page_text or visible_page_text(text_page)
    span = find_span(page_text.text, excerpt)
    if span is None:
        return NO_MARKERS
    chars = [_char(text_page, page_text.text_indices[p], page_text.text[p]) for p in range(*span)]
    read: list[str] = []
    found: dict[int, str] = {}
    numbers: list[str] = []
    broken: list[str] = []
    words = _raw_words(chars)
    for at, word in enumerate(words):
        text = "".join(c.text for c in word)
        parts = words_of(text)
        broken += _broken_figures(word)
        marker = _marker(word, [c for w in words[:at] for c in w])
        if marker is not None and len(parts) == 1:
            found[len(read)] = marker[0]
            numbers.append(marker[1])
        read += parts
    if [core(w) for w in read] != [core(w) for w in words_of(excerpt)]:
        found, numbers = {}, []
    return Markers(found, tuple(numbers), tuple(broken)) if found or broken else NO_MARKERS


def _broken_figures(word: list[_Char]) -> list[str]:
    """The figures of `word` (digits joined by separators) one digit of which is drawn as a
    superscript beside the others."""
    text = "".join(c.text for c in word)
    out = []
    for figure in _FIGURE.finditer(text):
        digits = [c for c in word[figure.start() : figure.end()] if c.text.isdigit()]
        tallest = max(digits, key=_height)
        if any(_raised(c, tallest, _height(tallest)) for c in digits):
            out.append(figure.group())
    return out


def _char(text_page: pypdfium2.PdfTextPage, text_index: int, text: str) -> _Char:
    index = pdfium_c.FPDFText_GetCharIndexFromTextIndex(text_page, text_index)
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    x, y = ctypes.c_double(), ctypes.c_double()
    if index < 0 or not pdfium_c.FPDFText_GetCharBox(text_page, index, left, right, bottom, top):
        return _Char(text, (0.0, 0.0, 0.0, 0.0), 0.0)
    pdfium_c.FPDFText_GetCharOrigin(text_page, index, x, y)
    return _Char(text, (left.value, bottom.value, right.value, top.value), y.value)


def _raw_words(chars: list[_Char]) -> list[list[_Char]]:
    """The span's words, split where a space stands (not a number's own spaces)."""
    words: list[list[_Char]] = [[]]
    for char in chars:
        if char.text.isspace() and char.text not in _NOT_BEFORE:
            words.append([])
        else:
            words[-1].append(char)
    return [word for word in words if word]


def _marker(word: list[_Char], before: list[_Char]) -> tuple[str, str] | None:
    """`word`'s text without the marker that ends it, and the marker's number; None when
    no marker ends it."""
    text = "".join(c.text for c in word)
    end = len(text.rstrip(_TRAILING))
    start = end
    while start > 0 and (text[start - 1].isdigit() or text[start - 1] in "()[],-\u2013"):
        start -= 1
    for first in range(start, end):  # the longest well-formed tail drawn as a marker
        previous = text[first - 1] if first else ""
        glued = previous.isdigit() or previous in _NOT_BEFORE
        if glued and text[first].isdigit():  # "1,29⁴": part of its figure (`broken`)
            return None
        shape = _SHAPE.fullmatch(text[first:end])
        if shape and _drawn_as_marker(word, first, end, before):
            return text[:first] + text[end:], shape.group()
    return None


def _drawn_as_marker(word: list[_Char], first: int, end: int, before: list[_Char]) -> bool:
    """Whether `word[first:end]` is drawn small and raised against its line: the character
    before it (in its word or the words before), and the tallest glyph of that line."""
    base = next((c for c in reversed([*before, *word[:first]]) if c.text.isalnum()), None)
    if base is None:
        return False
    line = [
        c
        for c in [*before, *word]
        if c.text.isalnum() and abs(c.baseline - base.baseline) <= 0.15 * _height(base)
    ]
    tallest = max((_height(c) for c in line), default=0.0)
    return all(_raised(c, base, tallest) for c in word[first:end])


def _raised(char: _Char, base: _Char, tallest: float) -> bool:
    """Whether `char` stands raised above the baseline of `base` (`MIN_RAISE` of `tallest`)
    and, a digit, small (`MAX_HEIGHT` of it)."""
    small = not char.text.isdigit() or 0 < _height(char) <= MAX_HEIGHT * tallest
    return tallest > 0 and small and char.box[1] >= base.baseline + MIN_RAISE * tallest


def _height(char: _Char) -> float:
    return char.box[3] - char.box[1]
