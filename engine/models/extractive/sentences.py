"""Cut page text into quotable units: sentences, legal items, table lines.

Every unit is a span [start, end) of the page text, so an excerpt taken from it is an exact
substring of the page. Long units are narrowed to the window that best covers given terms.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.contracts import EXCERPT_MAX_CHARS, EXCERPT_MIN_CHARS

# A boundary: end punctuation, spaces, then something that can start a sentence.
_BOUNDARY = re.compile(r"(?<=[.!?;])\s+(?=[\"'“(\[]?[A-ZÀ-ÖØ-Þ0-9§])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:art|arts|inc|n|nº|no|nos|sr|sra|dr|dra|etc|vs|co|corp|ltd|fig|p|pp|cap|par|al)"
    r"|\b[A-Za-z]|\bart\.?\s*\d+[º°o]?)\.$",  # "Art 26." opens an article, it ends nothing
    re.IGNORECASE,
)
_WORD = re.compile(r"\S+")
_MARKUP = re.compile(r"\*\*|__|`|~~|\\(?=[*_`|])")
_TABLE_PIPES = re.compile(r"\s*\|\s*")
_SPACES = re.compile(r"\s+")
_MAX_WINDOW = EXCERPT_MAX_CHARS - 20


@dataclass(frozen=True)
class Span:
    start: int
    end: int

    def text(self, page: str) -> str:
        return page[self.start : self.end]


def _line_spans(page: str) -> Iterator[Span]:
    start = 0
    for match in re.finditer(r"\n", page):
        yield Span(start, match.start())
        start = match.end()
    yield Span(start, len(page))


def _trimmed(page: str, span: Span) -> Span | None:
    start, end = span.start, span.end
    while start < end and (
        page[start].isspace()
        or page[start] in "|#>•"
        or (page[start] in "-*" and start + 1 < end and page[start + 1].isspace())
    ):
        start += 1
    while end > start and (page[end - 1].isspace() or page[end - 1] in "|"):
        end -= 1
    return Span(start, end) if end > start else None


def _split_sentences(page: str, line: Span) -> Iterator[Span]:
    start = line.start
    text = line.text(page)
    for match in _BOUNDARY.finditer(text):
        before = text[: match.start()]
        if _ABBREVIATION.search(before[-12:]):
            continue
        yield Span(start, line.start + match.start())
        start = line.start + match.end()
    yield Span(start, line.end)


def sentence_spans(page: str) -> list[Span]:
    """Units of at least EXCERPT_MIN_CHARS visible characters, in reading order."""
    units: list[Span] = []
    for line in _line_spans(page):
        for raw in _split_sentences(page, line):
            span = _trimmed(page, raw)
            if span is not None and len(clean_statement(span.text(page))) >= EXCERPT_MIN_CHARS:
                units.append(span)
    return units


def clean_statement(excerpt: str) -> str:
    """The excerpt as prose: markdown markers and table pipes out, whitespace collapsed."""
    text = _MARKUP.sub("", excerpt)
    text = _TABLE_PIPES.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def best_window(
    page: str, span: Span, score: Callable[[str], float], max_chars: int = _MAX_WINDOW
) -> Span:
    """The span itself when short enough, else the word-aligned window that scores best."""
    if len(clean_statement(span.text(page))) <= max_chars:
        return span
    words = [
        Span(span.start + m.start(), span.start + m.end()) for m in _WORD.finditer(span.text(page))
    ]
    best: tuple[float, int, Span] | None = None
    end_index = 0
    for first in range(len(words)):
        end_index = max(end_index, first)
        while end_index + 1 < len(words) and (
            words[end_index + 1].end - words[first].start <= max_chars
        ):
            end_index += 1
        window = Span(words[first].start, words[end_index].end)
        candidate = (score(window.text(page)), -first, window)
        if best is None or candidate[:2] > best[:2]:
            best = candidate
        if end_index == len(words) - 1:
            break
    assert best is not None
    return best[2]
