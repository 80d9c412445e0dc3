"""Office files the tests make: a DOCX, a PPTX and an XLSX that each state a figure a reader
sees and hide another one (a hidden run, white text, a hidden slide or shape, a hidden sheet,
row or column), so that a test can tell what became page text."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import docx
import openpyxl
import pptx
from docx.enum.text import WD_COLOR_INDEX
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from docx.shared import Pt
from docx.shared import RGBColor as DocxRGB
from openpyxl.styles import Font, PatternFill
from pptx.dml.color import RGBColor as PptxRGB
from pptx.util import Inches
from pptx.util import Pt as PptxPt

DOCX_SHOWN = "Acme employed 1,200 people at the end of 2024."
DOCX_HIDDEN_RUN = "Acme employed 9,100 people at the end of 2024."
DOCX_WHITE = "Acme employed 9,200 people at the end of 2024."
DOCX_TINY = "Acme employed 9,300 people at the end of 2024."
DOCX_STYLED_HIDDEN = "Acme employed 9,400 people at the end of 2024."
DOCX_DELETED = "Acme employed 9,500 people at the end of 2024."
DOCX_WHITE_ON_BLUE = "Headcount by region"
DOCX_HIGHLIGHTED_WHITE = "Acme opened 3 plants in 2024."


def docx_bytes() -> bytes:
    """A report: a heading, the shown sentence, sentences hidden five ways, a table whose
    header is white on a blue cell (visible), and a white sentence on a dark highlight."""
    document = docx.Document()
    document.core_properties.title = "Acme annual report 2024"
    document.add_heading("Acme annual report 2024", level=1)
    document.add_paragraph(DOCX_SHOWN)
    document.add_paragraph().add_run(DOCX_HIDDEN_RUN).font.hidden = True
    document.add_paragraph().add_run(DOCX_WHITE).font.color.rgb = DocxRGB(0xFF, 0xFF, 0xFF)
    document.add_paragraph().add_run(DOCX_TINY).font.size = Pt(1)
    secret = document.styles.add_style("Secret", 1)  # a paragraph style that hides its text
    secret.font.hidden = True
    document.add_paragraph(DOCX_STYLED_HIDDEN, style="Secret")
    deleted = document.add_paragraph()
    deleted._p.append(
        parse_xml(
            f'<w:del {nsdecls("w")} w:id="1" w:author="a"><w:r><w:delText>{DOCX_DELETED}'
            "</w:delText></w:r></w:del>"
        )
    )
    table = document.add_table(rows=3, cols=3)
    rows = [(DOCX_WHITE_ON_BLUE, "2023", "2024"), ("Bahia", "410", "655"), ("Ceará", "120", "98")]
    for row, values in zip(table.rows, rows, strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    header = table.rows[0].cells[0]
    header.paragraphs[0].runs[0].font.color.rgb = DocxRGB(0xFF, 0xFF, 0xFF)
    header._tc.get_or_add_tcPr().append(
        parse_xml(f'<w:shd {nsdecls("w")} w:val="clear" w:color="auto" w:fill="1F4E79"/>')
    )
    marked = document.add_paragraph().add_run(DOCX_HIGHLIGHTED_WHITE)
    marked.font.color.rgb = DocxRGB(0xFF, 0xFF, 0xFF)
    marked.font.highlight_color = WD_COLOR_INDEX.DARK_BLUE
    return _saved(document)


PPTX_SHOWN = "Revenue reached R$ 840 million in 2024."
PPTX_NOTES = "Speaker note: margin was 12.5% in 2024."
PPTX_HIDDEN_SLIDE = "Revenue reached R$ 990 million in 2024."
PPTX_HIDDEN_SHAPE = "Revenue reached R$ 991 million in 2024."
PPTX_OFF_SLIDE = "Revenue reached R$ 992 million in 2024."
PPTX_WHITE = "Revenue reached R$ 993 million in 2024."
PPTX_TABLE_ROW = ("Bahia", "410", "655")


def pptx_bytes() -> bytes:
    """Slide 1 a title; slide 2 hidden; slide 3 the shown sentence (with notes) and three
    hidden ones (a hidden shape, a shape off the slide, white text on the white slide);
    slide 4 a table."""
    deck = pptx.Presentation()
    deck.core_properties.title = "Acme results 2024"
    blank = deck.slide_layouts[6]
    first = deck.slides.add_slide(deck.slide_layouts[0])
    first.shapes.title.text = "Acme results 2024"
    hidden = deck.slides.add_slide(blank)
    _text_box(hidden, PPTX_HIDDEN_SLIDE, top=1)
    hidden._element.set("show", "0")
    third = deck.slides.add_slide(blank)
    _text_box(third, PPTX_SHOWN, top=1)
    _text_box(third, PPTX_HIDDEN_SHAPE, top=2)._element.nvSpPr.cNvPr.set("hidden", "1")
    off = _text_box(third, PPTX_OFF_SLIDE, top=3)
    off.left = deck.slide_width + Inches(1)
    white = _text_box(third, PPTX_WHITE, top=4)
    white.text_frame.paragraphs[0].runs[0].font.color.rgb = PptxRGB(0xFF, 0xFF, 0xFF)
    third.notes_slide.notes_text_frame.text = PPTX_NOTES
    fourth = deck.slides.add_slide(blank)
    frame = fourth.shapes.add_table(2, 3, Inches(1), Inches(1), Inches(6), Inches(1))
    for column, value in enumerate(("Estado", "2023", "2024")):
        frame.table.cell(0, column).text = value
    for column, value in enumerate(PPTX_TABLE_ROW):
        frame.table.cell(1, column).text = value
    stream = io.BytesIO()
    deck.save(stream)
    return stream.getvalue()


def _text_box(slide: pptx.slide.Slide, text: str, *, top: float) -> pptx.shapes.autoshape.Shape:
    box = slide.shapes.add_textbox(Inches(1), Inches(top), Inches(8), Inches(0.8))
    box.text_frame.text = text
    box.text_frame.paragraphs[0].runs[0].font.size = PptxPt(18)
    return box


XLSX_HEADER = ("Estado", "2023", "2024")
XLSX_ROWS = (("Bahia, usinas solares", 410, 655), ("Ceará, usinas eólicas", 120, 98))
XLSX_HIDDEN_ROW = ("Piauí", 777001, 777002)
XLSX_HIDDEN_COLUMN = 888001
XLSX_WHITE = 999001
XLSX_HIDDEN_SHEET = 999002
XLSX_SEMICOLONS = 999003


def xlsx_bytes() -> bytes:
    """Sheet 1 "Resumo" (a note and a share as a percentage, a date), sheet 2 hidden,
    sheet 3 "Capacidade" a table from B2 with a hidden row, a hidden column, a white cell
    and a cell formatted ";;;" (shown as nothing)."""
    book = openpyxl.Workbook()
    book.properties.title = "Capacidade instalada"
    summary = book.active
    summary.title = "Resumo"
    summary["A1"] = "Capacidade instalada por estado (MW)"
    summary["A2"] = "Participação da Bahia"
    summary["B2"] = 0.153
    summary["B2"].number_format = "0.0%"
    summary["A3"] = "Atualizado em"
    summary["B3"] = date(2024, 3, 31)
    summary["B3"].number_format = "dd/mm/yyyy"
    secret = book.create_sheet("Rascunho")
    secret["A1"] = XLSX_HIDDEN_SHEET
    secret.sheet_state = "hidden"
    sheet = book.create_sheet("Capacidade")
    rows = [XLSX_HEADER, *XLSX_ROWS, XLSX_HIDDEN_ROW]
    for number, row in enumerate(rows, start=2):
        for column, value in enumerate(row, start=2):
            sheet.cell(number, column, value)
    sheet.cell(3, 5, XLSX_HIDDEN_COLUMN)
    sheet.column_dimensions["E"].hidden = True
    sheet.row_dimensions[5].hidden = True
    white = sheet.cell(7, 2, XLSX_WHITE)
    white.font = Font(color="FFFFFFFF")
    blank = sheet.cell(8, 2, XLSX_SEMICOLONS)
    blank.number_format = ";;;"
    shown_white = sheet.cell(9, 2, "Total")
    shown_white.font = Font(color="FFFFFFFF")
    shown_white.fill = PatternFill("solid", fgColor="FF1F4E79")
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def write_office_files(folder: Path) -> dict[str, Path]:
    """The three files in `folder`, by suffix."""
    folder.mkdir(parents=True, exist_ok=True)
    made = {
        ".docx": (folder / "acme_annual_report_2024.docx", docx_bytes()),
        ".pptx": (folder / "acme_results_2024.pptx", pptx_bytes()),
        ".xlsx": (folder / "capacidade_instalada.xlsx", xlsx_bytes()),
    }
    for path, data in made.values():
        path.write_bytes(data)
    return {suffix: path for suffix, (path, _) in made.items()}


def _saved(document: docx.document.Document) -> bytes:
    stream = io.BytesIO()
    document.save(stream)
    return stream.getvalue()
