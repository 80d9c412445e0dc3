"""How much text fits in a slide's box: the font size that fits it, and the points split
across slides when even the smallest size does not. An estimate made before any renderer
lays the text out (PowerPoint and LibreOffice do not shrink text a file does not ask them
to), so it measures on the wide side: Arial's average glyph with digits, lines at 1.2 em.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

POINTS_PER_INCH = 72.0
CHAR_EM = 0.56
"""Average advance of a character in Arial (digits are 0.556 em), as a share of its size."""
LINE_EM = 1.2
PARAGRAPH_EM = 0.45
"""The space after a paragraph, as a share of its size."""
INSET_INCHES = 0.1
"""A text box's own margin on each side (python-pptx's default)."""


def lines_for(text: str, width_inches: float, size: float, indent_inches: float = 0.0) -> int:
    """How many lines `text` takes at `size` points in a box `width_inches` wide. Words
    break only at ordinary spaces (a run of words joined by non-breaking spaces is one word,
    broken where it meets the edge, as renderers do)."""
    usable = (width_inches - 2 * INSET_INCHES - indent_inches) * POINTS_PER_INCH
    per_line = max(1, math.floor(usable / (size * CHAR_EM)))
    total = 0
    for line in text.split("\n"):
        total += max(1, len(textwrap.wrap(line, per_line, break_on_hyphens=False)))
    return total


def height_for(
    paragraphs: Sequence[str], width_inches: float, size: float, indent_inches: float = 0.0
) -> float:
    """The height in inches `paragraphs` take at `size`, their spacing and the box's insets
    included."""
    lines = sum(lines_for(text, width_inches, size, indent_inches) for text in paragraphs)
    points = lines * size * LINE_EM + len(paragraphs) * size * PARAGRAPH_EM
    return points / POINTS_PER_INCH + 2 * INSET_INCHES


def fitting_size(
    paragraphs: Sequence[str],
    width_inches: float,
    height_inches: float,
    sizes: Sequence[float],
    indent_inches: float = 0.0,
) -> float | None:
    """The largest of `sizes` at which `paragraphs` fit the box; None when none does."""
    for size in sorted(sizes, reverse=True):
        if height_for(paragraphs, width_inches, size, indent_inches) <= height_inches:
            return size
    return None


def slide_chunks(
    points: Sequence[str],
    width_inches: float,
    height_inches: float,
    smallest: float,
    most: int,
    indent_inches: float = 0.0,
) -> list[list[int]]:
    """The points' indices grouped into slides: at most `most` a slide, each group fitting
    the box at the `smallest` size. A point too long for a box of its own gets one anyway
    (the caller shortens it)."""
    chunks: list[list[int]] = []
    current: list[int] = []
    for index in range(len(points)):
        candidate = [*current, index]
        texts = [points[i] for i in candidate]
        fits = height_for(texts, width_inches, smallest, indent_inches) <= height_inches
        if current and (len(candidate) > most or not fits):
            chunks.append(current)
            current = [index]
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks


def shortened(
    text: str, width_inches: float, height_inches: float, size: float, indent: float = 0.0
) -> str:
    """`text` cut at a word, with "…", so that it fits the box at `size`; as it is when it
    already fits."""
    if height_for([text], width_inches, size, indent) <= height_inches:
        return text
    words = text.split(" ")
    low, high = 0, len(words)
    while low < high:  # the most words that fit
        middle = (low + high + 1) // 2
        if height_for([" ".join(words[:middle]) + " …"], width_inches, size, indent) <= (
            height_inches
        ):
            low = middle
        else:
            high = middle - 1
    if low == 0:
        usable = max(1, int(len(text) * height_inches / height_for([text], width_inches, size)))
        return text[: max(1, usable - 2)] + " …"
    return " ".join(words[:low]) + " …"


def paged_entries(
    entries: Sequence[Sequence[str]],
    width_inches: float,
    height_inches: float,
    smallest: float,
    most: int,
    heading_lines: int = 2,
) -> list[list[tuple[int, list[int]]]]:
    """Entries (each a heading paragraph, then its lines: a document and its excerpts) laid
    onto slides at the `smallest` size: per slide, (entry, the indices of its lines shown
    there). At most `most` entries on a slide; an entry longer than what is left goes on on
    the next slide (the caller shows its heading again, continued), and a heading is never
    left at a slide's foot with fewer than `heading_lines` of its lines under it."""
    pages: list[list[tuple[int, list[int]]]] = []
    current: list[tuple[int, list[int]]] = []
    paragraphs: list[str] = []

    def fits(more: Sequence[str]) -> bool:
        return height_for([*paragraphs, *more], width_inches, smallest) <= height_inches

    for entry, (heading, *lines) in enumerate(entries):
        start = 0
        while True:
            if current and (
                len(current) >= most or not fits([heading, *lines[start : start + heading_lines]])
            ):
                pages.append(current)
                current, paragraphs = [], []
            paragraphs.append(heading)
            shown: list[int] = []
            for index in range(start, len(lines)):
                if shown and not fits([lines[index]]):
                    break
                paragraphs.append(lines[index])
                shown.append(index)
            current.append((entry, shown))
            start = shown[-1] + 1 if shown else len(lines)
            if start >= len(lines):
                break
            pages.append(current)  # the entry goes on on the next slide
            current, paragraphs = [], []
    if current:
        pages.append(current)
    return pages
