"""PDFs written by fpdf2 for the tests."""

from __future__ import annotations

from fpdf import FPDF


def pdf_bytes(pages: list[str]) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())
