"""Office files as pages a reader sees: DOCX one text, a PPTX page per slide, an XLSX page per
sheet; nothing hidden (hidden runs, white text, hidden slides, shapes, sheets, rows, columns)
becomes page text, and what only looks hidden (white on a dark cell) stays."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pptx
import pytest
from pptx.dml.color import RGBColor
from pptx.util import Inches

from engine.documents.office import cell_range, sheet_texts
from engine.documents.parse import (
    CONTENT_TYPE_BY_KIND,
    DocumentKind,
    UnreadableFile,
    kind_of,
    parse_bytes,
    parse_file,
)
from engine.sources.web.extract import ContentType, extract
from tests.support import office_files as made


def test_office_suffixes_have_their_kinds_and_content_types() -> None:
    assert kind_of(Path("a.DOCX")) is DocumentKind.docx
    assert kind_of(Path("a.pptx")) is DocumentKind.pptx
    assert kind_of(Path("a.xlsx")) is DocumentKind.xlsx
    assert CONTENT_TYPE_BY_KIND[DocumentKind.xlsx].endswith("spreadsheetml.sheet")


def test_docx_is_one_text_of_what_a_reader_sees(tmp_path: Path) -> None:
    path = tmp_path / "r.docx"
    path.write_bytes(made.docx_bytes())
    parsed = parse_file(path)
    assert parsed.kind is DocumentKind.docx
    assert not parsed.is_paged
    assert parsed.title == "Acme annual report 2024"
    (text,) = parsed.texts
    assert made.DOCX_SHOWN in text
    for hidden in (
        made.DOCX_HIDDEN_RUN,
        made.DOCX_WHITE,
        made.DOCX_TINY,
        made.DOCX_STYLED_HIDDEN,
        made.DOCX_DELETED,
    ):
        assert hidden not in text, hidden
    assert "9," not in text
    assert f"{made.DOCX_WHITE_ON_BLUE} | 2023 | 2024\nBahia | 410 | 655\n" in text
    assert made.DOCX_HIGHLIGHTED_WHITE in text


def test_pptx_pages_are_slides_and_hidden_ones_stay_empty() -> None:
    parsed = parse_bytes(made.pptx_bytes(), DocumentKind.pptx)
    assert parsed.is_paged
    assert len(parsed.texts) == 4
    assert parsed.title == "Acme results 2024"
    title, hidden, shown, table = parsed.texts
    assert title == "Acme results 2024"
    assert hidden == ""  # slide 2 is hidden: page 2 stays slide 2, with no text
    assert made.PPTX_SHOWN in shown
    assert made.PPTX_NOTES in shown
    assert shown.index(made.PPTX_SHOWN) < shown.index(made.PPTX_NOTES)
    joined = "\n".join(parsed.texts)
    for hidden_text in (made.PPTX_HIDDEN_SLIDE, made.PPTX_HIDDEN_SHAPE, made.PPTX_OFF_SLIDE):
        assert hidden_text not in joined, hidden_text
    assert made.PPTX_WHITE not in joined
    assert table == "Estado | 2023 | 2024\nBahia | 410 | 655"


def test_xlsx_pages_are_sheets_without_hidden_cells() -> None:
    parsed = parse_bytes(made.xlsx_bytes(), DocumentKind.xlsx)
    assert parsed.is_paged
    assert len(parsed.texts) == 3
    assert parsed.title == "Capacidade instalada"
    summary, hidden, sheet = parsed.texts
    assert summary.startswith("Resumo\n\n")
    assert "Participação da Bahia | 15.3%" in summary  # as the cell shows it, not 0.153
    assert "Atualizado em | 31/03/2024" in summary
    assert hidden == ""
    assert sheet.startswith(
        "Capacidade\n\nEstado | 2023 | 2024\nBahia, usinas solares | 410 | 655\n"
    )
    joined = "\n".join(parsed.texts)
    for secret in ("777001", "888001", "999001", "999002", "999003", "Piauí"):
        assert secret not in joined, secret
    assert "Total" in sheet  # white on a dark fill is seen


def test_a_quoted_span_of_a_sheet_names_its_cells() -> None:
    sheets = sheet_texts(made.xlsx_bytes())
    capacity = sheets[2]
    assert capacity.name == "Capacidade"
    row = "Bahia, usinas solares | 410 | 655"
    start = capacity.text.index(row)
    assert cell_range(capacity, start, start + len(row)) == "B3:D3"
    assert (
        cell_range(
            capacity,
            start + len("Bahia, usinas solares | "),
            start + len("Bahia, usinas solares | 410"),
        )
        == "C3"
    )
    header = capacity.text.index("Estado")
    assert cell_range(capacity, header, start + len(row)) == "B2:D3"
    assert cell_range(capacity, 0, len("Capacidade")) == ""  # the sheet's name is no cell


def test_formulas_show_their_computed_values() -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["B1"], sheet["C1"] = 2, 3, "=A1+B1"
    stream = io.BytesIO()
    book.save(stream)
    # openpyxl stores no computed value: the formula's text is never page text.
    (page,) = parse_bytes(stream.getvalue(), DocumentKind.xlsx).texts
    assert "=A1" not in page
    assert page.endswith("2 | 3")


@pytest.mark.parametrize("kind", [DocumentKind.docx, DocumentKind.pptx, DocumentKind.xlsx])
def test_a_broken_office_file_is_unreadable(kind: DocumentKind, tmp_path: Path) -> None:
    path = tmp_path / f"broken.{kind.value}"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(UnreadableFile, match=f"not a readable {kind.value.upper()}"):
        parse_file(path)


def test_white_text_on_a_dark_slide_is_seen() -> None:
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.background.fill.solid()
    slide.background.fill.fore_color.rgb = RGBColor(0x10, 0x20, 0x40)
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(8), Inches(1))
    box.text_frame.text = "Revenue reached R$ 840 million in 2024."
    box.text_frame.paragraphs[0].runs[0].font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
    stream = io.BytesIO()
    deck.save(stream)
    parsed = parse_bytes(stream.getvalue(), DocumentKind.pptx)
    assert parsed.texts == ("Revenue reached R$ 840 million in 2024.",)


def test_a_fetched_office_body_reads_as_the_library_reads_it() -> None:
    mime = CONTENT_TYPE_BY_KIND[DocumentKind.pptx]
    url = "https://example.org/acme_results_2024.pptx"
    extracted = extract(made.pptx_bytes(), ContentType(mime), url)
    assert extracted.pages == parse_bytes(made.pptx_bytes(), DocumentKind.pptx).texts
    assert extracted.title == "Acme results 2024"
    docx_type = ContentType(CONTENT_TYPE_BY_KIND[DocumentKind.docx])
    document = extract(made.docx_bytes(), docx_type, "https://example.org/r.docx")
    assert document.pages is None
    assert made.DOCX_SHOWN in document.text
    assert made.DOCX_HIDDEN_RUN not in document.text
