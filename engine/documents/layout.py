"""A page's reading order and blocks, from where its characters are drawn: pure functions.

pdfium reads a page in drawing order and joins what lies on one line. A two-column page
whose lines were drawn across both columns then reads "in Recife started production in
March near Petrolina was delayed until 2026": a sentence no reader sees, which the verifier
would accept. Here a page's text is cut into `Piece`s (a line's run of characters between
gaps wider than `PIECE_GAP` line heights, each with its box), and a page whose pieces stand
on both sides of a vertical gutter, both sides prose (`_prose`: lines of several words, not
a table's cells or a column of figures), is read column by column: the pieces that cross
the gutter (a title, a wide table, a page number) cut the page into sections, and each
section is read left column first, then right, each column in pdfium's own order. A page
without such a gutter keeps pdfium's order, so its text stays exactly pdfium's. A column
is read whole: once found it is split again only where a gutter of its own stands.
`may_have_columns` is the cheap first look, on the bounds of the page's text objects: only
a page it lets through has its characters' boxes read.

`blocks.page_blocks` then groups the pieces, in reading order, into blocks.

Boxes are (left, bottom, right, top) in PDF points, origin bottom-left, as pdfium gives them.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

import numpy

Box = tuple[float, float, float, float]
"""(left, bottom, right, top) in PDF points, the page's own coordinates (pdfium's, origin
bottom-left): every box the documents and the library draw."""

PIECE_GAP = 0.8
"""A gap between two characters of a line wider than this many line heights ends a piece
(a word space is a third of one; a column gutter or a table's cell gap is wider)."""
MIN_GUTTER = 0.8
"""Line heights: the narrowest empty band between two columns."""
SIDE_MARGIN = 0.2
"""A gutter lies at least this share of the text's width from either edge."""
MAX_SPANNING = 0.2
"""At most this share of a page's pieces may cross a gutter (titles, wide tables)."""
MIN_COLUMN_PIECES = 4
"""A column holds at least this many pieces."""
PROSE_LINE_WORDS = 3
"""A prose line holds at least this many words; a table cell seldom does."""
PROSE_SHARE = 0.6
"""The share of a column's pieces that must be prose lines of letters."""
BAND_SHARE = 0.06
"""Lines wholly within this share of the page's height from its top or bottom edge are its
header or footer."""
INDENT = 2.5
"""Line heights: a line starting this far right of its column's edge (a first-line indent, a
bullet's text) still starts at it."""
EDGE_SHARE = 0.8
"""The share of a column's lines that start at its left edge."""
RAGGED = 0.25
"""A full line of a column ends within this share of the column's width from its right
edge (a ragged-right line does; most cells of a table's column do not)."""
FILL_SHARE = 0.5
"""The share of a column's lines that are full."""
MAX_BLANK = 3.0
"""Line heights: the widest blank between two lines of one column (a paragraph break and a
heading's space are narrower)."""
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Piece:
    """A run of one line of the page text, `text[start:end]`, drawn inside `box`."""

    start: int
    end: int
    box: Box
    line: int  # the index of its line of the page text

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


def pieces_of(text: str, boxes: Sequence[Box | None]) -> list[Piece]:
    """`text` cut into pieces: at its line breaks, and inside a line wherever the next
    character stands more than `PIECE_GAP` line heights right of the last, or left of it, or
    off its line. `boxes[i]` is the box of `text[i]`, None for whitespace and characters
    without one (they join the piece around them)."""
    pieces: list[Piece] = []
    line = 0
    start = -1
    last = -1  # the last character with a box in the open piece
    box: Box = (0.0, 0.0, 0.0, 0.0)

    def close() -> None:
        if start >= 0:
            pieces.append(Piece(start, last + 1, box, line))

    for i, char in enumerate(text):
        if char == "\n":
            close()
            start, last, line = -1, -1, line + 1
            continue
        here = boxes[i]
        if here is None or char.isspace():
            continue
        if start >= 0 and _breaks(box, boxes[last], here):
            close()
            start = -1
        if start < 0:
            start, box = i, here
        else:
            box = (
                min(box[0], here[0]),
                min(box[1], here[1]),
                max(box[2], here[2]),
                max(box[3], here[3]),
            )
        last = i
    close()
    return pieces


def _breaks(run: Box, previous: Box | None, here: Box) -> bool:
    if previous is None:
        return False
    height = max(previous[3] - previous[1], here[3] - here[1], 0.1)
    overlap = min(run[3], here[3]) - max(run[1], here[1])
    gap = here[0] - previous[2]
    return overlap <= 0 or gap > PIECE_GAP * height or gap < -height


def reading_order(text: str, pieces: Sequence[Piece], page_box: Box) -> list[int] | None:
    """The order in which a reader reads `pieces` (indices), or None when it is pdfium's
    own: no gutter between prose columns, or columns already drawn one after the other."""
    prose = [_prose_line(text[piece.start : piece.end]) for piece in pieces]
    order = _ordered(prose, list(range(len(pieces))), pieces, page_box)
    return None if order == sorted(order) else order


def _ordered(
    prose: list[bool], chosen: list[int], pieces: Sequence[Piece], page_box: Box
) -> list[int]:
    split = _split(prose, chosen, pieces, page_box)
    if split is None:
        return chosen
    sections, cuts = split
    order: list[int] = []
    for n, columns in enumerate(sections):
        if n:
            order.append(cuts[n - 1])
        for column in columns:
            order += _ordered(prose, column, pieces, page_box)
    return order


def _split(
    prose: list[bool], chosen: list[int], pieces: Sequence[Piece], page_box: Box
) -> tuple[list[list[list[int]]], list[int]] | None:
    """The page's sections (between the pieces that cross a gutter, top to bottom), each
    its columns' pieces left to right, and those crossing pieces; None unless every column
    is a prose column (`_column`). All the gutters are tried together, then each alone."""
    body = [k for k in chosen if not _in_band(pieces[k].box, page_box)]
    if len(body) < 2 * MIN_COLUMN_PIECES:
        return None
    height = median(pieces[k].height for k in body)
    lefts = [pieces[k].box[0] for k in body]
    rights = [pieces[k].box[2] for k in body]
    bands = sorted(gutters(lefts, rights, MIN_GUTTER * height, MAX_SPANNING))
    if not bands:
        return None  # one column: read as drawn (no band would split it again and again)
    tries = [bands] + [[band] for band in bands] if len(bands) > 1 else [bands]
    for chosen_bands in tries:
        spanning = [k for k in chosen if any(_crosses(pieces[k], band) for band in chosen_bands)]
        edges = [-float("inf")] + [x for band in chosen_bands for x in band] + [float("inf")]
        columns = [
            [k for k in chosen if pieces[k].box[0] >= a and pieces[k].box[2] <= b]
            for a, b in zip(edges[::2], edges[1::2], strict=True)
        ]
        if not all(_prose(prose, members) for members in columns):
            continue  # the cheap test first: a column of figures or of short cells
        cuts = sorted(spanning, key=lambda k: -_middle(pieces[k]))
        heights = [-_middle(pieces[k]) for k in cuts]  # ascending, for bisect
        sections: list[list[list[int]]] = [[[] for _ in columns] for _ in range(len(cuts) + 1)]
        for c, members in enumerate(columns):
            for k in members:
                sections[bisect_left(heights, -_middle(pieces[k]))][c].append(k)
        if all(_column(members, pieces, sections, c) for c, members in enumerate(columns)):
            return sections, cuts
    return None


def _crosses(piece: Piece, band: tuple[float, float]) -> bool:
    return piece.box[2] > band[0] and piece.box[0] < band[1]


def _column(
    members: list[int],
    pieces: Sequence[Piece],
    sections: list[list[list[int]]],
    c: int,
) -> bool:
    """Whether the prose lines `members` read as a column: most start at one left edge (the
    cells of a table's columns side by side start at several), half of them are full (a
    table's cells are as long as their names), and no blank wider than `MAX_BLANK` line
    heights lies between them within a section (a table's cell beside a taller one leaves
    one)."""
    height = median(pieces[k].height for k in members)
    edge = min(pieces[k].box[0] for k in members)
    aligned = sum(1 for k in members if pieces[k].box[0] <= edge + INDENT * height)
    if aligned < EDGE_SHARE * len(members):
        return False
    end = max(pieces[k].box[2] for k in members)
    full = sum(1 for k in members if pieces[k].box[2] >= end - RAGGED * (end - edge))
    if full < FILL_SHARE * len(members):
        return False
    for section in sections:
        boxes = sorted((pieces[k].box for k in section[c]), key=lambda box: -box[3])
        if any(above[1] - below[3] > MAX_BLANK * height for above, below in pairwise(boxes)):
            return False
    return True


def gutters(
    lefts: Sequence[float] | numpy.ndarray,
    rights: Sequence[float] | numpy.ndarray,
    min_width: float,
    max_spanning: float,
) -> list[tuple[float, float]]:
    """The bands of x crossed by the fewest of the intervals `lefts[i]..rights[i]` (at most
    `max_spanning` of them: titles over both columns), at least `min_width` wide and
    `SIDE_MARGIN` of the whole width from either edge, widest first: a band ends where one
    more interval begins. Used on pieces, and on the runs of text objects by
    `may_have_columns` (a page of a thousand glyphs costs a sort)."""
    left, right = numpy.asarray(lefts, dtype=float), numpy.asarray(rights, dtype=float)
    if left.size < 2:
        return []
    lo, hi = float(left.min()), float(right.max())
    inner_lo, inner_hi = lo + SIDE_MARGIN * (hi - lo), hi - SIDE_MARGIN * (hi - lo)
    xs = numpy.concatenate([left, right])
    steps = numpy.concatenate([numpy.ones(left.size), -numpy.ones(left.size)])
    order = numpy.lexsort((steps, xs))  # by x, an interval's end before another's start
    xs, counts = xs[order], numpy.cumsum(steps[order])[:-1]  # count on xs[i]..xs[i+1]
    inside = (xs[1:] > inner_lo) & (xs[:-1] < inner_hi)
    levels = numpy.unique(counts[inside & (counts <= max_spanning * left.size)])
    for level in levels[:MAX_LEVELS].tolist():
        bands = _bands(xs, numpy.flatnonzero(counts <= level), inner_lo, inner_hi, min_width)
        if bands:
            return sorted(bands, key=lambda band: band[0] - band[1])
    return []


MAX_LEVELS = 8
"""How many crossing counts `gutters` tries, fewest first."""


def _bands(
    xs: numpy.ndarray, free: numpy.ndarray, inner_lo: float, inner_hi: float, min_width: float
) -> list[tuple[float, float]]:
    """The runs of consecutive elementary intervals `free` (xs[i]..xs[i+1]), clipped to the
    inner range, at least `min_width` wide."""
    if not free.size:
        return []
    breaks = numpy.flatnonzero(numpy.diff(free) > 1)
    firsts = numpy.concatenate([free[:1], free[breaks + 1]])
    lasts = numpy.concatenate([free[breaks], free[-1:]])
    bands = []
    for first, last in zip(firsts.tolist(), lasts.tolist(), strict=True):
        a, b = max(float(xs[first]), inner_lo), min(float(xs[last + 1]), inner_hi)
        if b - a >= min_width:
            bands.append((a, b))
    return bands


LOOSE = 2.5
"""A character's loose box (its line's height) is at most this many times as tall as the
tight bounds of the text objects of its line."""
COLUMN_SLACK = 0.7
"""`may_have_columns` asks this share of `EDGE_SHARE` and of `FILL_SHARE`."""


def may_have_columns(objects: numpy.ndarray, page_box: Box) -> bool:
    """A cheap first look at the bounds of a page's text objects (n x 4), before any
    character's box: whether their runs (objects on one line closer than `PIECE_GAP`) stand
    on both sides of a gutter, each side a column of `MIN_COLUMN_PIECES` runs that mostly
    start at one edge and are full (`_column`, with `COLUMN_SLACK`; heights and indents taken
    `LOOSE`). Most table pages fail it; a page that passes is read from its characters."""
    b = objects[numpy.isfinite(objects).all(axis=1)]
    b = b[(b[:, 3] > b[:, 1]) & (b[:, 2] > b[:, 0])]
    band = BAND_SHARE * (page_box[3] - page_box[1])
    b = b[(b[:, 1] < page_box[3] - band) & (b[:, 3] > page_box[1] + band)]
    if len(b) < 2 * MIN_COLUMN_PIECES:
        return False
    middle = (b[:, 1] + b[:, 3]) / 2
    b, middle = b[numpy.argsort(-middle, kind="stable")], numpy.sort(-middle)
    height = float(numpy.median(b[:, 3] - b[:, 1]))
    line = numpy.concatenate([[0], numpy.cumsum(numpy.diff(middle) > height / 2)])
    at = numpy.lexsort((b[:, 0], line))
    b, line, heights = b[at], line[at], (b[at, 3] - b[at, 1]) * LOOSE
    shift = line * 1e7  # a running right edge per line
    reach = numpy.maximum.accumulate(b[:, 2] + shift) - shift
    gap = b[1:, 0] - reach[:-1]
    wide = gap > PIECE_GAP * numpy.maximum(heights[1:], heights[:-1])
    starts = numpy.flatnonzero(numpy.concatenate([[True], (numpy.diff(line) > 0) | wide]))
    lefts = numpy.minimum.reduceat(b[:, 0], starts)
    rights = numpy.maximum.reduceat(b[:, 2], starts)
    if len(starts) < 2 * MIN_COLUMN_PIECES:
        return False
    bands = sorted(gutters(lefts, rights, MIN_GUTTER * height, MAX_SPANNING))
    tries = [bands] + [[band] for band in bands] if len(bands) > 1 else [bands]
    for chosen in tries if bands else []:
        edges = [-numpy.inf] + [x for band in chosen for x in band] + [numpy.inf]
        if all(
            _may_be_column(lefts, rights, (lefts >= a) & (rights <= z), height * LOOSE)
            for a, z in zip(edges[::2], edges[1::2], strict=True)
        ):
            return True
    return False


def _may_be_column(
    lefts: numpy.ndarray, rights: numpy.ndarray, members: numpy.ndarray, height: float
) -> bool:
    count = int(members.sum())
    if count < MIN_COLUMN_PIECES:
        return False
    left, right = lefts[members], rights[members]
    edge, end = float(left.min()), float(right.max())
    aligned = int((left <= edge + INDENT * height).sum())
    full = int((right >= end - RAGGED * (end - edge)).sum())
    return (
        aligned >= COLUMN_SLACK * EDGE_SHARE * count and full >= COLUMN_SLACK * FILL_SHARE * count
    )


def _prose(prose: list[bool], members: list[int]) -> bool:
    """Whether `PROSE_SHARE` of at least `MIN_COLUMN_PIECES` pieces are prose lines."""
    return len(members) >= MIN_COLUMN_PIECES and sum(
        prose[k] for k in members
    ) >= PROSE_SHARE * len(members)


def _prose_line(text: str) -> bool:
    """A line of `PROSE_LINE_WORDS` words or more, mostly letters."""
    words = text.split()
    return len(words) >= PROSE_LINE_WORDS and len(_LETTER.findall(text)) >= 0.6 * sum(
        map(len, words)
    )


def _middle(piece: Piece) -> float:
    return (piece.box[1] + piece.box[3]) / 2


def _in_band(box: Box, page_box: Box) -> bool:
    band = BAND_SHARE * (page_box[3] - page_box[1])
    return box[1] >= page_box[3] - band or box[3] <= page_box[1] + band


def reordered(
    text: str, pieces: Sequence[Piece], order: Sequence[int]
) -> tuple[str, list[int], list[Piece]]:
    """`text` with its pieces in `order`: pieces that were neighbours keep what stood between
    them (a space, a line break), others are put on lines of their own; the whitespace before
    the first piece and after the last stays. Returns the text, the position in `text` of
    each of its characters (a line break put in: its next piece's first) and the pieces as
    placed in the new text."""
    if not pieces:
        return text, list(range(len(text))), []
    out: list[str] = [text[: pieces[0].start]]
    positions = list(range(pieces[0].start))
    placed: list[Piece] = []
    for n, k in enumerate(order):
        piece = pieces[k]
        if n and k == order[n - 1] + 1:
            out.append(text[pieces[k - 1].end : piece.start])
            positions.extend(range(pieces[k - 1].end, piece.start))
        elif n:
            out.append("\n")
            positions.append(piece.start)
        at = len(positions)
        placed.append(Piece(at, at + piece.end - piece.start, piece.box, piece.line))
        out.append(text[piece.start : piece.end])
        positions.extend(range(piece.start, piece.end))
    out.append(text[pieces[-1].end :])
    positions.extend(range(pieces[-1].end, len(text)))
    return "".join(out), positions, placed
