"""PDFs written by fpdf2 for the tests."""

from __future__ import annotations

import pypdfium2
from fpdf import FPDF

from engine.text import collapse_whitespace


def pdf_bytes(pages: list[str]) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())


def long_pdf(pages: list[str], title: str = "", chapters: dict[int, str] | None = None) -> bytes:
    """A PDF of `pages`, its own title `title`, and an outline of `chapters` (1-based first
    page → chapter title) when given: a long document to sweep."""
    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("Helvetica", size=11)
    for number, text in enumerate(pages, start=1):
        pdf.add_page()
        if chapters and number in chapters:
            pdf.start_section(chapters[number])
        pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text of a PDF, whitespace collapsed, as a reader's copy-paste gives it."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        texts = []
        for page in document:
            text_page = page.get_textpage()
            texts.append(collapse_whitespace(text_page.get_text_range()))
            text_page.close()
            page.close()
        return texts
    finally:
        document.close()


def pdf_text(pdf: bytes) -> str:
    """All text of a PDF on one line, whitespace collapsed."""
    return collapse_whitespace(" ".join(page_texts(pdf)))
