"""Read the v1 editor's Markdown: a title, sections, and sentences with their `[n]` markers.

Writers put each sentence on its own line or run several into one line, ending each cited
sentence with markers: `[1]`, `[1][2]`, `[1, 2]`, before or after the final full stop. A line
is a paragraph (writers do not hard-wrap). Markers close a sentence when whitespace or the end
of the line follows them; where text before them holds several sentences, only the last is
taken as cited. Markers inside a sentence (`[1],`) count for that sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from engine.models.extractive.sentences import clean_statement, sentence_spans
from engine.v1.prose import tidy_punctuation

_MARKER = re.compile(r"\[\s*(\d+(?:\s*[,;]\s*\d+)*)\s*\]")
_CLOSING_MARKERS = re.compile(
    r"(?:\s*\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\])+\s*(?P<stop>[.!?;:]?)(?=\s|$)"
)
_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.*?)[\s#]*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_SENTENCE_STOPS = tuple(".!?;:")


@dataclass(frozen=True)
class MarkedSentence:
    text: str
    numbers: tuple[int, ...]
    """Source numbers in the order written, each once; empty for an uncited sentence."""


@dataclass
class MarkedSection:
    title: str
    sentences: list[MarkedSentence] = field(default_factory=list)


@dataclass(frozen=True)
class MarkedText:
    title: str | None
    sections: list[MarkedSection]


def parse_markdown(markdown: str) -> MarkedText:
    """Sentences before any `##` heading go to a section with an empty title."""
    title: str | None = None
    sections: list[MarkedSection] = []
    for line in markdown.splitlines():
        heading = _HEADING.match(line.strip())
        if heading is not None:
            if title is None and not sections and len(heading["level"]) == 1:
                title = heading["title"]
            else:
                sections.append(MarkedSection(heading["title"]))
            continue
        sentences = line_sentences(_LIST_ITEM.sub("", line))
        if sentences:
            if not sections:
                sections.append(MarkedSection(""))
            sections[-1].sentences.extend(sentences)
    return MarkedText(title, sections)


def line_sentences(line: str) -> list[MarkedSentence]:
    sentences: list[MarkedSentence] = []
    start = 0
    for closing in _CLOSING_MARKERS.finditer(line):
        pieces = _pieces(line[start : closing.start()])
        start = closing.end()
        numbers = marker_numbers(closing[0])
        if not pieces:
            if sentences:  # markers right after markers: "… [1]. [2]"
                last = sentences.pop()
                sentences.append(MarkedSentence(last.text, _merged(last.numbers, numbers)))
            continue
        *before, cited = pieces
        sentences.extend(_uncited_or_inline(piece) for piece in before)
        text = _sentence_text(cited, closing["stop"])
        sentences.append(MarkedSentence(text, _merged(marker_numbers(cited), numbers)))
    sentences.extend(_uncited_or_inline(piece) for piece in _pieces(line[start:]))
    return [s for s in sentences if s.text]


def marker_numbers(text: str) -> tuple[int, ...]:
    found = (int(n) for m in _MARKER.finditer(text) for n in re.split(r"[,;]", m[1]))
    return tuple(dict.fromkeys(found))


def _merged(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(dict.fromkeys((*first, *second)))


def _pieces(text: str) -> list[str]:
    """`text` cut into sentences, every character kept (a short fragment stays with the
    sentence before it, or the one after when it opens the text)."""
    if not _sentence_text(text, ""):
        return []
    starts = [span.start for span in sentence_spans(text)][1:]
    bounds = [0, *starts, len(text)]
    return [text[a:b] for a, b in pairwise(bounds)]


def _uncited_or_inline(piece: str) -> MarkedSentence:
    return MarkedSentence(_sentence_text(piece, ""), marker_numbers(piece))


def _sentence_text(piece: str, stop: str) -> str:
    text = tidy_punctuation(clean_statement(_MARKER.sub("", piece)))
    if stop and text and not text.endswith(_SENTENCE_STOPS):
        text += stop
    return text
