"""A page's blocks in reading order: text, table, figure, caption, header and footer.

`page_blocks` groups a page's pieces (`layout`), in reading order, into lines and the lines
into blocks, each with its box and its span of the page text: lines in the page's top or
bottom `BAND_SHARE` are its header and footer, a line opening "Figure 3", "Tabela 2", ... a
caption (with the lines that follow it closely), runs of lines cut into cells with a figure
in a cell after the first a table, the rest paragraphs; images big enough are figures, put
before the first block under their top in their column. A caption is bound to the nearest
figure or table in its column. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.documents.layout import BAND_SHARE, Box, Piece

BlockKind = Literal["text", "table", "figure", "caption", "header", "footer"]

FIGURE_MIN_SHARE = 0.02
"""An image covering less of the page than this (a logo, a rule) is not a figure."""
PARAGRAPH_GAP = 0.9
"""Line heights of blank space that end a paragraph or a table."""

_CAPTION = re.compile(
    r"^\s*(figure|fig\.|figura|table|tabela|quadro|gr[aá]fico|chart|exhibit|mapa|map)"
    r"\s*[\dIVXivx]+\b",
    re.IGNORECASE,
)
_NUMERIC_CELL = re.compile(r"^[\s$€£R%()\-–—.,0-9]+$")


@dataclass(frozen=True)
class PageBlock:
    """A part of a page in reading order: `text[start:end]` of the page text it was read
    from (empty for a figure), its box, and for a caption the index of the block it names."""

    kind: BlockKind
    box: Box
    start: int
    end: int
    caption_of: int | None = None


def page_blocks(
    text: str, pieces: Sequence[Piece], figures: Sequence[Box], page_box: Box
) -> tuple[PageBlock, ...]:
    """The blocks of a page whose `pieces` are in reading order (spans of `text`), with the
    boxes of its `figures` (images big enough to be one): header and footer lines, captions,
    tables (runs of lines cut into cells, one a figure at least), figures, and paragraphs."""
    page_area = max((page_box[2] - page_box[0]) * (page_box[3] - page_box[1]), 1.0)
    kept_figures = [
        f for f in figures if (f[2] - f[0]) * (f[3] - f[1]) >= FIGURE_MIN_SHARE * page_area
    ]
    lines = _lines(pieces)
    blocks: list[PageBlock] = []
    for line in lines:
        kind = _line_kind(text, line, page_box)
        box = _union([p.box for p in line])
        start, end = line[0].start, line[-1].end
        if blocks and _joins(blocks[-1], kind, box):
            last = blocks[-1]
            blocks[-1] = PageBlock(last.kind, _union([last.box, box]), last.start, end)
        else:
            blocks.append(PageBlock(kind, box, start, end))
    for figure in sorted(kept_figures, key=lambda f: -f[3]):
        at = next(
            (n for n, b in enumerate(blocks) if _below(b, figure)),
            len(blocks) - sum(1 for b in blocks if b.kind == "footer"),
        )
        offset = blocks[at - 1].end if at else 0
        blocks.insert(at, PageBlock("figure", figure, offset, offset))
    return tuple(_bind_captions(blocks))


def _below(block: PageBlock, figure: Box) -> bool:
    """Whether `block` is the first a figure goes before: under its top, in its column."""
    return (
        block.kind not in ("header", "figure")
        and block.box[3] <= figure[3]
        and _overlaps_x(block.box, figure)
    )


def _lines(pieces: Sequence[Piece]) -> list[list[Piece]]:
    """Pieces in reading order grouped into lines: neighbours from one line of the text."""
    lines: list[list[Piece]] = []
    for piece in pieces:
        if lines and lines[-1][-1].line == piece.line and lines[-1][-1].end <= piece.start:
            lines[-1].append(piece)
        else:
            lines.append([piece])
    return lines


def _line_kind(text: str, line: list[Piece], page_box: Box) -> BlockKind:
    box = _union([p.box for p in line])
    band = BAND_SHARE * (page_box[3] - page_box[1])
    if box[1] >= page_box[3] - band:
        return "header"
    if box[3] <= page_box[1] + band:
        return "footer"
    if _CAPTION.match(text[line[0].start : line[-1].end]):
        return "caption"
    cells = [text[p.start : p.end] for p in line]
    if len(cells) >= 2 and any(_NUMERIC_CELL.match(cell) for cell in cells[1:]):
        return "table"
    return "text"


def _joins(block: PageBlock, kind: BlockKind, box: Box) -> bool:
    """Whether a line of `kind` drawn in `box` goes on in `block`: the same kind, below it
    within a paragraph's gap, and under it (a caption is one block with its next lines)."""
    if kind == "caption" or block.kind == "figure":
        return False
    if block.kind == "caption" and kind == "text":
        kind = "caption"
    if kind != block.kind:
        return False
    height = box[3] - box[1]
    return block.box[1] - box[3] <= PARAGRAPH_GAP * height and _overlaps_x(block.box, box)


def _bind_captions(blocks: list[PageBlock]) -> list[PageBlock]:
    bound = []
    for block in blocks:
        if block.kind != "caption":
            bound.append(block)
            continue
        targets = [
            (m, _distance(block.box, other.box))
            for m, other in enumerate(blocks)
            if other.kind in ("figure", "table") and _overlaps_x(block.box, other.box)
        ]
        target = min(targets, key=lambda t: t[1])[0] if targets else None
        bound.append(PageBlock("caption", block.box, block.start, block.end, target))
    return bound


def _distance(a: Box, b: Box) -> float:
    return max(b[1] - a[3], a[1] - b[3], 0.0)


def _overlaps_x(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0])


def _union(boxes: Sequence[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
