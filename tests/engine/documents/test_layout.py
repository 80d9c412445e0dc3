"""Reading order and blocks from character boxes (`layout.py`), on boxes the tests draw."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from engine.documents.layout import (
    Box,
    Piece,
    gutters,
    may_have_columns,
    pieces_of,
    reading_order,
    reordered,
)
from engine.documents.page_blocks import page_blocks

PAGE: Box = (0.0, 0.0, 600.0, 800.0)
HEIGHT = 12.0
CHAR = 6.0


def _page(lines: Sequence[Sequence[tuple[float, str]]]) -> tuple[str, list[Piece]]:
    """A page text of `lines` (each a list of (x, text) runs joined by one space, as pdfium
    joins what lies on one line) and its pieces, from a box per character."""
    text, boxes = "", list[Box | None]()
    for n, runs in enumerate(lines):
        top = 700.0 - n * 1.2 * HEIGHT
        if n:
            text += "\n"
            boxes.append(None)
        for r, (x, run) in enumerate(runs):
            if r:
                text += " "
                boxes.append(None)
            for i, char in enumerate(run):
                text += char
                left = x + i * CHAR
                boxes.append(None if char == " " else (left, top - HEIGHT, left + CHAR, top))
    return text, pieces_of(text, boxes)


LEFT = [
    "the new plant in Recife started",
    "production in March after two",
    "years of building work on site",
    "and now runs at its full load",
    "with a staff of three hundred",
]
RIGHT = [
    "the second plant near Petrolina",
    "was delayed until 2026 by the",
    "licensing of its water intake",
    "which the state agency has not",
    "yet granted to the company now",
]


def _read(text: str, pieces: list[Piece]) -> str:
    order = reading_order(text, pieces, PAGE)
    return text if order is None else reordered(text, pieces, order)[0]


def test_pieces_end_at_a_wide_gap_not_at_a_word_space() -> None:
    text, pieces = _page([[(50, "net sales grew"), (400, "5,000")]])
    assert [text[p.start : p.end] for p in pieces] == ["net sales grew", "5,000"]
    assert pieces[1].box[0] == 400


def test_two_columns_read_across_are_read_one_after_the_other() -> None:
    text, pieces = _page([[(50, a), (320, b)] for a, b in zip(LEFT, RIGHT, strict=True)])
    assert _read(text, pieces) == "\n".join(LEFT + RIGHT)


def test_a_title_across_both_columns_stays_on_top() -> None:
    title = "annual report of the state energy company for the whole year of 2024"
    lines = [[(50, title)]] + [[(50, a), (320, b)] for a, b in zip(LEFT, RIGHT, strict=True)]
    text, pieces = _page(lines)
    assert _read(text, pieces) == "\n".join([title, *LEFT, *RIGHT])


def test_long_columns_are_read_one_after_the_other() -> None:
    """Columns of more lines than a split needs: each column is read as one, not split
    again (it has no gutter of its own)."""
    left, right = LEFT + [a.upper() for a in LEFT], RIGHT + [b.upper() for b in RIGHT]
    text, pieces = _page([[(50, a), (320, b)] for a, b in zip(left, right, strict=True)])
    assert _read(text, pieces) == "\n".join(left + right)


def test_a_table_of_names_beside_places_keeps_its_rows() -> None:
    """Cells of several words on both sides, as in a list of subsidiaries: a column's
    lines fill it, a table's cells are as long as their names."""
    names = ["Blue Cloud Distribution of Ohio, Inc.", "Bare Foods Co.", "Beech Limited"]
    names += ["Bell Taco Funding Syndicate", "Balmoral Industries LLC", "Asia Bottlers Ltd"]
    places = ["United States, Ohio", "United States, Delaware", "Isle of Man"]
    places += ["United States, Iowa", "United States, North Carolina", "Cayman Islands"]
    rows = [[(50, name), (320, place)] for name, place in zip(names, places, strict=True)]
    text, pieces = _page(rows + rows)
    assert reading_order(text, pieces, PAGE) is None


def _objects(lines: Sequence[Sequence[tuple[float, str]]]) -> numpy.ndarray:
    """The bounds of one text object per run of `lines`, tighter than a line's height."""
    return numpy.array(
        [
            (x, 700.0 - n * 1.2 * HEIGHT - 9, x + CHAR * len(run), 700.0 - n * 1.2 * HEIGHT - 2)
            for n, runs in enumerate(lines)
            for x, run in runs
        ]
    )


def test_the_first_look_lets_columns_through_and_stops_tables() -> None:
    columns = [[(50, a), (320, b)] for a, b in zip(LEFT, RIGHT, strict=True)]
    assert may_have_columns(_objects(columns), PAGE)
    figures = [[(50, f"{label} of the year"), (320, "5,000"), (420, "4,200")] for label in LEFT]
    assert not may_have_columns(_objects(figures + figures), PAGE)
    single = [[(50, a + " " + b)] for a, b in zip(LEFT, RIGHT, strict=True)]
    assert not may_have_columns(_objects(single + single), PAGE)


def test_a_single_column_keeps_its_order() -> None:
    text, pieces = _page(
        [[(50, line + " " + other)] for line, other in zip(LEFT, RIGHT, strict=True)]
    )
    assert reading_order(text, pieces, PAGE) is None


def test_a_table_of_figures_keeps_its_rows() -> None:
    rows = [[(50, f"{label} of the year"), (320, "5,000 4,200")] for label in LEFT]
    text, pieces = _page(rows)
    assert reading_order(text, pieces, PAGE) is None


def test_a_table_of_prose_cells_keeps_its_rows() -> None:
    """Names beside long descriptions: a blank between the names (a description is taller)
    tells a table from a column."""
    lines = []
    for a, b in zip(LEFT, RIGHT, strict=True):
        lines += [[(50, a), (320, b)], [(320, b)], [(320, b)], [(320, b)]]
    text, pieces = _page(lines)
    assert reading_order(text, pieces, PAGE) is None


def test_a_side_of_two_cell_columns_is_not_a_column() -> None:
    """Three prose cells per row: neither side of a gutter starts at one left edge."""
    rows = [[(30, a[:14]), (150, b[:14]), (400, a)] for a, b in zip(LEFT, RIGHT, strict=True)]
    rows += rows
    text, pieces = _page(rows)
    assert reading_order(text, pieces, PAGE) is None


def test_three_columns_are_read_left_to_right() -> None:
    middle = [line.upper() for line in LEFT]
    lines = [
        [(20, a[:28]), (220, m[:28]), (420, b[:28])]
        for a, m, b in zip(LEFT, middle, RIGHT, strict=True)
    ]
    text, pieces = _page(lines)
    expected = [a[:28] for a in LEFT] + [m[:28] for m in middle] + [b[:28] for b in RIGHT]
    assert _read(text, pieces) == "\n".join(expected)


def test_reordered_keeps_each_characters_place() -> None:
    text, pieces = _page([[(50, a), (320, b)] for a, b in zip(LEFT, RIGHT, strict=True)])
    order = reading_order(text, pieces, PAGE)
    assert order is not None
    new, positions, placed = reordered(text, pieces, order)
    assert len(positions) == len(new)
    assert all(new[i] == text[at] for i, at in enumerate(positions) if new[i] != "\n")
    assert [new[p.start : p.end] for p in placed] == LEFT + RIGHT


def test_gutters_tolerate_a_few_crossing_runs_only() -> None:
    lefts = [50.0] * 10 + [320.0] * 10
    rights = [250.0] * 10 + [500.0] * 10
    assert gutters(lefts, rights, 10, 0.2) == [(250.0, 320.0)]
    assert gutters([*lefts, 50.0], [*rights, 500.0], 10, 0.2) == [(250.0, 320.0)]
    assert gutters([*lefts] + [50.0] * 6, [*rights] + [500.0] * 6, 10, 0.2) == []


def test_blocks_bind_a_caption_to_the_figure_above_it() -> None:
    text, pieces = _page(
        [
            [(50, "Company report 2024")],
            [(50, "Generation rose in the second half of the year")],
            [(50, "Figure 2: monthly generation in GWh")],
            [(50, "The ramp-up followed the start of the plant")],
        ]
    )
    header_top = 800.0 - 10
    text_at = [(p.start, p.end) for p in pieces]
    moved = [
        Piece(pieces[0].start, pieces[0].end, (50, header_top - HEIGHT, 200, header_top), 0),
        pieces[1],
        Piece(pieces[2].start, pieces[2].end, (50, 400, 260, 412), 2),
        Piece(pieces[3].start, pieces[3].end, (50, 360, 320, 372), 3),
    ]
    figure: Box = (50, 420, 400, 650)
    blocks = page_blocks(text, moved, [figure, (500, 700, 510, 710)], PAGE)
    assert [b.kind for b in blocks] == ["header", "text", "figure", "caption", "text"]
    assert blocks[2].box == figure
    assert blocks[3].caption_of == 2
    assert (blocks[3].start, blocks[3].end) == text_at[2]


def test_rows_with_figures_are_a_table_block() -> None:
    text, pieces = _page([[(50, "Revenue"), (300, "5,000"), (400, "4,200")] for _ in range(3)])
    (block,) = page_blocks(text, pieces, [], PAGE)
    assert block.kind == "table"
    assert (block.start, block.end) == (0, len(text))
