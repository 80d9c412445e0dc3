from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pypdfium2
import pytest

from engine.documents.parse import parse_pdf
from engine.sources.library.page_boxes import (
    cleaned_page_text,
    excerpt_boxes,
    find_span,
    merge_runs,
    open_text_page,
    span_boxes,
    text_lines,
)
from tests.support.pdfs import pdf_bytes

FIRST_LINE = "Relatório anual de geração distribuída, segunda edição."
LONG_LINE = (
    "Em 2024 o Nordeste concentra 30% da potência instalada de geração distribuída no país, "
    "e a Bahia lidera a região com a maior parte dos sistemas residenciais conectados."
)
PAGES = ["Capa do relatório.", f"{FIRST_LINE}\n{LONG_LINE}\nFim da página."]
WRAPPING_EXCERPT = "lidera a região com a maior parte dos sistemas residenciais"


@pytest.fixture
def pdf() -> bytes:
    return pdf_bytes(PAGES)


@pytest.fixture
def second_page(pdf: bytes) -> Iterator[pypdfium2.PdfTextPage]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        with open_text_page(document, 2) as text_page:
            yield text_page
    finally:
        document.close()


def words(text: str) -> list[str]:
    return text.split()


def test_cleaned_text_is_the_text_the_library_stores(
    pdf: bytes, second_page: pypdfium2.PdfTextPage
) -> None:
    cleaned = cleaned_page_text(second_page.get_text_range())

    assert cleaned.text == parse_pdf(pdf).texts[1]
    assert len(cleaned.text_indices) == len(cleaned.text)


def test_cleaning_keeps_each_character_index_in_pdfium_text() -> None:
    # CR LF is one "\n" at the CR; U+FFFE is "-"; controls go; an astral char is 2 units.
    raw = "ab\r\ncd\ufffee\x02f\rg\U0001d400h"

    cleaned = cleaned_page_text(raw)

    assert cleaned.text == "ab\ncd-ef\ng\U0001d400h"
    assert cleaned.text_indices == (0, 1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14)


def test_span_is_the_hint_while_it_still_holds_the_excerpt() -> None:
    text = "x Nordeste 30% y Nordeste 30% z"

    assert find_span(text, "NORDESTE  30%", (17, 29)) == (17, 29)


def test_a_stale_hint_gives_the_nearest_occurrence() -> None:
    text = "x Nordeste 30% y Nordeste 30% z"

    assert find_span(text, "Nordeste 30%", (15, 27)) == (17, 29)
    assert find_span(text, "Nordeste 30%", (0, 5)) == (2, 14)
    assert find_span(text, "Nordeste 30%") == (2, 14)
    assert find_span(text, "Sudeste 30%", (2, 14)) is None


def test_an_excerpt_across_two_lines_gets_one_box_per_line(
    second_page: pypdfium2.PdfTextPage,
) -> None:
    boxes = span_boxes(second_page, WRAPPING_EXCERPT)

    assert len(boxes) == 2
    (_, bottom_1, _, _top_1), (_, _bottom_2, _, top_2) = boxes
    assert top_2 <= bottom_1  # reading order: the second line is lower on the page
    inside = " ".join(second_page.get_text_bounded(*box) for box in boxes)
    assert words(inside) == words(WRAPPING_EXCERPT)


def test_boxes_hold_exactly_the_excerpt_on_one_line(second_page: pypdfium2.PdfTextPage) -> None:
    cleaned = cleaned_page_text(second_page.get_text_range()).text
    start = cleaned.index("30% da potência")
    hint = (start, start + len("30% da potência"))

    [box] = span_boxes(second_page, "30% da potência", hint)

    assert second_page.get_text_bounded(*box).strip() == "30% da potência"
    left, bottom, right, top = box
    width, height = 595.28, 841.89  # A4, fpdf2's default
    assert 0 < left < right < width
    assert 0 < bottom < top < height


def test_excerpt_not_on_the_page_has_no_boxes(second_page: pypdfium2.PdfTextPage) -> None:
    assert span_boxes(second_page, "O Sudeste concentra 45% da potência") == []


def test_excerpt_boxes_read_the_file(tmp_path: Path, pdf: bytes) -> None:
    path = tmp_path / "r.pdf"
    path.write_bytes(pdf)

    assert len(excerpt_boxes(path, 2, FIRST_LINE)) == 1
    assert excerpt_boxes(path, 1, FIRST_LINE) == []
    assert excerpt_boxes(path, 3, FIRST_LINE) == []


def test_text_lines_cover_every_line_of_the_page(second_page: pypdfium2.PdfTextPage) -> None:
    lines = text_lines(second_page)

    text = " ".join(second_page.get_text_bounded(*box) for box in lines)
    assert words(text) == words(f"{FIRST_LINE} {LONG_LINE} Fim da página.")


def test_glyph_boxes_join_into_one_run_per_line_and_cell() -> None:
    # A filing that places each glyph on its own: "PP&E (1,577) (1,373)" on one row,
    # then a word on the next line.
    glyphs = [(56.8 + 4 * n, 513.4, 60.5 + 4 * n, 520.6) for n in range(6)]
    cells = [(382.2, 513.5, 404.3, 520.5), (450.6, 513.4, 472.7, 520.6)]
    below = [(56.9, 496.0, 60.0, 503.1), (62.1, 496.0, 66.0, 503.1)]  # a space's width apart

    runs = merge_runs([*glyphs, *cells, *below])

    assert runs == [(56.8, 513.4, 80.5, 520.6), *cells, (56.9, 496.0, 66.0, 503.1)]
