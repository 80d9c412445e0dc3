"""Pure rules over what the browser reports: the page's rendered text, where an excerpt sits in
it, and whether the boxes of its characters read as that excerpt (engine/verify/seen/browser_seer.py
asks the browser; `engine.verify.seen.browser.ink` compares the pixels).

- The rendered text is the browser's, generated content included. An excerpt is found in it
  with the verifier's own `find_excerpt`, so the same normalisation holds on both sides.
- Generated content that says something (letters, digits, a sign or a currency) in the
  excerpt's block but outside the excerpt changes what the reader reads there: a `::before`
  "não " in front of the quoted sentence. Quote marks, bullets and counters do not.
- Every character is drawn inside the document, at a legible size, and in reading order:
  each next character to the right of the one before on its line, or on a later line, or at
  the top of a later column. Only scripts drawn in their logical order (Latin, Greek,
  Cyrillic, digits, punctuation) are held to it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from engine.documents.layout import Box
from engine.text.matching import find_excerpt
from engine.text.normalise import collapse_whitespace

TEXT, GENERATED, BREAK, SPACE = 0, 1, 2, 3
MIN_HEIGHT = 5.0
"""CSS pixels: a character box lower than this (a font of about 4px) is not legible."""
_RTL = frozenset({"R", "AL", "AN"})

"""x, y, width, height in CSS pixels of the document."""


@dataclass(frozen=True)
class RenderedPiece:
    kind: int
    start: int
    end: int
    ref: int
    decor: bool
    """Generated content that is only a counter, a quote mark or a symbol."""


@dataclass(frozen=True)
class RenderedText:
    text: str
    pieces: tuple[RenderedPiece, ...]


@dataclass(frozen=True)
class Covered:
    """The text nodes an excerpt's span covers: `segments` as the browser addresses them
    ([ref, start, end] in UTF-16 units), and `chars`, one per code point the browser boxes."""

    segments: tuple[tuple[int, int, int], ...]
    chars: str


def rendered_text(raw: Sequence[Sequence[object]]) -> RenderedText:
    """The text of the walk's pieces (`html_script.WALK`), each piece's place in it."""
    parts: list[str] = []
    pieces: list[RenderedPiece] = []
    at = 0
    for kind, text, ref, decor in raw:
        if not isinstance(kind, int) or not isinstance(text, str) or not isinstance(ref, int):
            continue
        parts.append(text)
        pieces.append(RenderedPiece(kind, at, at + len(text), ref, bool(decor)))
        at += len(text)
    return RenderedText("".join(parts), tuple(pieces))


def spans_of(excerpt: str, rendered: RenderedText) -> list[tuple[int, int]]:
    return list(find_excerpt(excerpt, rendered.text))


def generated_problem(rendered: RenderedText, start: int, end: int) -> str | None:
    """Why generated content changes what a reader reads of the span's block, or None."""
    pieces = rendered.pieces
    first = next((i for i, p in enumerate(pieces) if p.end > start), len(pieces))
    last = next((i for i in range(len(pieces) - 1, -1, -1) if pieces[i].start < end), -1)
    low = first
    while low > 0 and pieces[low - 1].kind != BREAK:
        low -= 1
    high = last
    while high + 1 < len(pieces) and pieces[high + 1].kind != BREAK:
        high += 1
    for piece in pieces[low : high + 1]:
        inside = piece.start >= start and piece.end <= end
        if piece.kind == GENERATED and not piece.decor and not inside:
            added = collapse_whitespace(rendered.text[piece.start : piece.end])
            return f"the page's style adds “{added[:40]}” to this passage"
    return None


def covered(rendered: RenderedText, start: int, end: int) -> Covered:
    segments: list[tuple[int, int, int]] = []
    chars: list[str] = []
    for piece in rendered.pieces:
        if piece.kind != TEXT or piece.end <= start or piece.start >= end:
            continue
        text = rendered.text[piece.start : piece.end]
        low, high = max(start, piece.start) - piece.start, min(end, piece.end) - piece.start
        segments.append((piece.ref, _utf16(text[:low]), _utf16(text[:high])))
        chars.append(text[low:high])
    return Covered(tuple(segments), "".join(chars))


def drawn(char: str) -> bool:
    """Whether a reader needs to see `char`: not a space, a combining mark or a format control."""
    return not char.isspace() and unicodedata.category(char) not in {"Mn", "Me", "Cf", "Cc"}


def geometry_problem(chars: str, boxes: Sequence[Box], width: float, height: float) -> str | None:
    """Why the characters' boxes cannot be read as the excerpt, or None."""
    previous: tuple[str, Box] | None = None
    for char, box in zip(chars, boxes, strict=True):
        if not drawn(char):
            continue
        x, y, w, h = box
        if w <= 0 or h <= 0:
            return f"“{char}” has no size on the page"
        if x + w <= 0 or y + h <= 0 or x >= width or y >= height:
            return f"“{char}” is drawn outside the page"
        if h < MIN_HEIGHT:
            return f"“{char}” is too small to read ({h:.1f}px high)"
        if previous is not None and not _reads_after(previous, (char, box)):
            return f"“{previous[0]}{char}” is shown in another order than the page's text"
        previous = (char, box)
    return None


def word_at(chars: str, index: int) -> str:
    """The word of `chars` around `index`, to name in a reason."""
    low = index
    while low > 0 and not chars[low - 1].isspace():
        low -= 1
    high = index
    while high < len(chars) and not chars[high].isspace():
        high += 1
    return chars[low:high][:40]


def _reads_after(before: tuple[str, Box], after: tuple[str, Box]) -> bool:
    (c1, (x1, y1, w1, h1)), (c2, (x2, y2, _w2, h2)) = before, after
    if not (_in_order(c1) and _in_order(c2)):
        return True
    overlap = min(y1 + h1, y2 + h2) - max(y1, y2)
    if overlap > 0.5 * min(h1, h2):  # the same line
        return x2 >= x1 + 0.5 * w1 - 1
    if y2 >= y1 + 0.5 * min(h1, h2):  # a later line
        return True
    return x2 >= x1 + w1  # the top of a later column


def _in_order(char: str) -> bool:
    """Whether a script draws `char` where its order puts it: Latin, Greek, Cyrillic, digits
    and punctuation do; right-to-left letters and the vowel signs of Indic scripts (drawn
    before the consonant they follow) do not."""
    return ord(char) < 0x0530 and unicodedata.bidirectional(char) not in _RTL


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
