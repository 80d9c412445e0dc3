"""Cutting a page into passages: the unit the library ranks and returns.

A passage is a verbatim slice `text[start:end]` of its page, made of whole lines, about
`min_chars` to `max_chars` long, ending at a paragraph break when one comes after `min_chars`.
A line is cut only when it is itself longer than `max_chars` (then at a space).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.text.spans import Span

MIN_PASSAGE_CHARS = 600
MAX_PASSAGE_CHARS = 1200


class _Piece(NamedTuple):
    start: int
    end: int
    ends_paragraph: bool


def split_passages(
    text: str, min_chars: int = MIN_PASSAGE_CHARS, max_chars: int = MAX_PASSAGE_CHARS
) -> list[Span]:
    """Passage spans of `text`, in order; each starts and ends on a non-space character."""
    passages: list[Span] = []
    start: int | None = None
    end = 0
    for piece in _pieces(text, max_chars):
        if start is not None and piece.end - start > max_chars:
            passages.append(Span(start, end))
            start = None
        start = piece.start if start is None else start
        end = piece.end
        if piece.ends_paragraph and end - start >= min_chars:
            passages.append(Span(start, end))
            start = None
    if start is not None:
        passages.append(Span(start, end))
    return _merge_short_tail(passages, min_chars, max_chars)


def _pieces(text: str, max_chars: int) -> list[_Piece]:
    """Non-blank lines (trimmed), long ones cut into parts of at most `max_chars`."""
    lines: list[tuple[int, int]] = []
    breaks_after: list[bool] = []
    offset = 0
    for line in text.split("\n"):
        line_start, offset = offset, offset + len(line) + 1
        if not line.strip():
            if breaks_after:
                breaks_after[-1] = True
            continue
        left = line_start + len(line) - len(line.lstrip())
        right = line_start + len(line.rstrip())
        lines.append((left, right))
        breaks_after.append(False)
    if breaks_after:
        breaks_after[-1] = True
    pieces: list[_Piece] = []
    for (left, right), ends_paragraph in zip(lines, breaks_after, strict=True):
        parts = _cut_line(text, left, right, max_chars)
        pieces.extend(_Piece(a, b, False) for a, b in parts[:-1])
        pieces.append(_Piece(*parts[-1], ends_paragraph))
    return pieces


def _cut_line(text: str, left: int, right: int, max_chars: int) -> list[tuple[int, int]]:
    parts: list[tuple[int, int]] = []
    while right - left > max_chars:
        window = text[left : left + max_chars + 1]
        cut = max(window.rfind(" "), window.rfind("\t"))
        if cut < max_chars // 2:
            cut = max_chars
        part_end = left + len(text[left : left + cut].rstrip())
        parts.append((left, part_end))
        left += cut
        while left < right and text[left].isspace():
            left += 1
    parts.append((left, right))
    return parts


def _merge_short_tail(passages: list[Span], min_chars: int, max_chars: int) -> list[Span]:
    if len(passages) < 2:
        return passages
    last, before = passages[-1], passages[-2]
    if last.end - last.start < min_chars // 3 and last.end - before.start <= max_chars:
        return [*passages[:-2], Span(before.start, last.end)]
    return passages
