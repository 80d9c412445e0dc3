"""report.pdf's pages as a reader turns them, read back with pdfium: for a wide Portuguese
report (six years of "R$ 187.654.321,5 milhões" for six companies, 36 sources with long
titles and URLs) and the analyst's English one, no character past a page's edge, no number
whose digits lie on two lines, and no heading or source title left alone at a page's foot
(its text on one page, what it heads on the next)."""

from __future__ import annotations

import ctypes
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from engine.contracts import Report
from engine.render.pdf import render_pdf
from tests.support.render_samples import nbsp_figures_report, wide_report

EDGE_SLACK = 0.5
"""Points a glyph's box may pass the page's edge by (rounding in pdfium's boxes)."""
HEADING_SIZE = 15.5
"""Font size (in the PDF's units) from which a line is a heading: the body is 14, an h3 16."""
ACCESSED_AT_END = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$")
"""How a source's address line ends (its access date): a document's heading, with its title."""
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class Glyph:
    char: str
    box: tuple[float, float, float, float]
    """left, bottom, right, top"""
    baseline: float
    size: float
    bold: bool


def glyphs(page: pdfium.PdfPage, *, breaks: bool = False) -> list[Glyph]:
    """The page's drawn characters in reading order; with `breaks`, the spaces and line
    breaks between them too (as a space, with no box)."""
    text = page.get_textpage()
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    found = []
    for index in range(text.count_chars()):
        box = text.get_charbox(index)
        if box[0] == box[2]:  # a space or a break: nothing drawn
            if breaks:
                found.append(Glyph(" ", box, 0.0, 0.0, bold=False))
            continue
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium_c.FPDFText_GetCharOrigin(text.raw, index, x, y)
        pdfium_c.FPDFText_GetFontInfo(text.raw, index, name, len(name), flags)
        found.append(
            Glyph(
                char=text.get_text_range(index, 1),
                box=box,
                baseline=y.value,
                size=pdfium_c.FPDFText_GetFontSize(text.raw, index),
                bold=b"Bold" in name.value,
            )
        )
    return found


def lines(page: pdfium.PdfPage) -> list[list[Glyph]]:
    """The page's lines of text, top to bottom (the glyphs of one baseline)."""
    by_baseline: dict[int, list[Glyph]] = {}
    for glyph in glyphs(page):
        by_baseline.setdefault(round(glyph.baseline), []).append(glyph)
    return [by_baseline[y] for y in sorted(by_baseline, reverse=True)]


def shown(line: list[Glyph]) -> str:
    return "".join(glyph.char for glyph in line).strip()


@pytest.fixture(scope="module", params=[wide_report, nbsp_figures_report])
def pdf(request: pytest.FixtureRequest) -> pdfium.PdfDocument:
    build: Callable[[], Report] = request.param
    return pdfium.PdfDocument(render_pdf(build()))


def test_no_character_lies_past_a_page_edge(pdf: pdfium.PdfDocument) -> None:
    outside = []
    for number, page in enumerate(pdf, start=1):
        width, height = page.get_size()
        for glyph in glyphs(page):
            left, bottom, right, top = glyph.box
            if (
                left < -EDGE_SLACK
                or bottom < -EDGE_SLACK
                or right > width + EDGE_SLACK
                or top > height + EDGE_SLACK
            ):
                outside.append((number, glyph.char))
    assert outside == []


def test_no_number_is_split_across_lines(pdf: pdfium.PdfDocument) -> None:
    split = []
    for number, page in enumerate(pdf, start=1):
        drawn = glyphs(page, breaks=True)
        text = "".join(glyph.char for glyph in drawn)
        for found in NUMBER.finditer(text):
            digits = [g for g in drawn[found.start() : found.end()] if g.char.isdigit()]
            for one, other in itertools.pairwise(digits):
                if other.box[3] < one.box[1] or one.box[3] < other.box[1]:  # no overlap
                    split.append((number, found.group()))
                    break
    assert split == []


def test_no_heading_or_source_title_is_left_alone_at_a_page_foot(
    pdf: pdfium.PdfDocument,
) -> None:
    alone = []
    for number in range(len(pdf) - 1):  # the last page's foot heads nothing
        last = lines(pdf[number])[-1]
        heading = max(g.size for g in last) >= HEADING_SIZE or all(g.bold for g in last)
        if heading or ACCESSED_AT_END.search(shown(last)):
            alone.append((number + 1, shown(last)))
    assert alone == []
