"""The Office seer renders a DOCX, PPTX or XLSX with LibreOffice and reads the excerpt back
from the PDF: hidden text (a hidden run, a hiding style, white or tiny), tracked deletions,
comments, hidden slides, shapes hidden or off the slide, hidden rows and columns, white
cells, hidden and very hidden sheets are not seen; the body, a table, a header and a text
box are."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from engine.documents.ocr import ocr_available
from engine.verify.seen import OfficeSeer, PdfSeer, SightCache
from tests.support import office_files as office
from tests.support import seen_office

pytestmark = pytest.mark.skipif(
    not ocr_available() or shutil.which("soffice") is None, reason="needs tesseract and soffice"
)


def sights(tmp_path: Path, name: str, body: bytes, page: int | None, *excerpts: str) -> list[bool]:
    path = tmp_path / name
    path.write_bytes(body)
    seer = OfficeSeer(PdfSeer(SightCache()), folder=tmp_path / "rendered")

    async def all_of() -> list[bool]:
        found = [await seer.sight(path, page, excerpt) for excerpt in excerpts]
        assert all(s.method == "office" and "\n" not in s.reason for s in found)
        return [s.seen for s in found]

    return asyncio.run(all_of())


def test_a_docx_shows_its_body_and_table_and_hides_the_rest(tmp_path: Path) -> None:
    shown = [office.DOCX_SHOWN, "Bahia 410 655"]
    hidden = [
        office.DOCX_HIDDEN_RUN,
        office.DOCX_WHITE,
        office.DOCX_TINY,
        office.DOCX_STYLED_HIDDEN,
        office.DOCX_DELETED,
    ]
    found = sights(tmp_path, "a.docx", office.docx_bytes(), None, *shown, *hidden)
    assert found == [True] * len(shown) + [False] * len(hidden)


def test_a_docx_comment_is_not_seen_its_header_and_text_box_are(tmp_path: Path) -> None:
    excerpts = [
        seen_office.DOCX_BODY,
        seen_office.DOCX_HEADER,
        seen_office.DOCX_TEXT_BOX,
        seen_office.DOCX_COMMENT,
    ]
    found = sights(tmp_path, "b.docx", seen_office.docx_with_extras(), None, *excerpts)
    assert found == [True, True, True, False]


def test_a_pptx_shows_its_slide_and_hides_the_rest(tmp_path: Path) -> None:
    hidden = [
        office.PPTX_HIDDEN_SLIDE,
        office.PPTX_HIDDEN_SHAPE,
        office.PPTX_OFF_SLIDE,
        office.PPTX_WHITE,
    ]
    found = sights(tmp_path, "c.pptx", office.pptx_bytes(), 3, office.PPTX_SHOWN, *hidden)
    assert found == [True] + [False] * len(hidden)


def test_an_xlsx_shows_its_cells_and_hides_rows_columns_and_sheets(tmp_path: Path) -> None:
    shown = ["Bahia, usinas solares 410 655", "Participação da Bahia 15.3%"]
    hidden = [
        "Piauí 777001 777002",  # a hidden row
        str(office.XLSX_HIDDEN_COLUMN),
        str(office.XLSX_WHITE),
        str(office.XLSX_HIDDEN_SHEET),
        str(office.XLSX_SEMICOLONS),
    ]
    found = sights(tmp_path, "d.xlsx", office.xlsx_bytes(), 3, *shown, *hidden)
    assert found == [True] * len(shown) + [False] * len(hidden)


def test_a_very_hidden_sheet_is_not_seen(tmp_path: Path) -> None:
    excerpts = [seen_office.XLSX_SHOWN, seen_office.XLSX_VERY_HIDDEN]
    found = sights(tmp_path, "e.xlsx", seen_office.xlsx_very_hidden(), 2, *excerpts)
    assert found == [True, False]


def test_a_file_is_rendered_once(tmp_path: Path) -> None:
    path = tmp_path / "f.docx"
    path.write_bytes(office.docx_bytes())
    seer = OfficeSeer(PdfSeer(SightCache()), folder=tmp_path / "rendered")
    first = seer.rendered(path)
    assert first is not None
    stamp = first.stat().st_mtime_ns
    assert seer.rendered(path) == first
    assert first.stat().st_mtime_ns == stamp


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
