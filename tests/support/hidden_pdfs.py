"""One-page PDFs that show one sentence and hide another, in the ways a PDF can hide text: for
the end-to-end tests that no hidden sentence becomes a verified claim."""

from __future__ import annotations

import io
from collections.abc import Callable

import pypdfium2
import pypdfium2.raw as pdfium_c
from fpdf import FPDF
from fpdf.enums import TextMode

Draw = Callable[[FPDF, str], None]


def _white(pdf: FPDF, text: str) -> None:
    pdf.set_text_color(255, 255, 255)
    pdf.set_xy(20, 60)
    pdf.cell(0, 8, text)
    pdf.set_text_color(0, 0, 0)


def _invisible(pdf: FPDF, text: str) -> None:
    with pdf.local_context(text_mode=TextMode.INVISIBLE):
        pdf.set_xy(20, 60)
        pdf.cell(0, 8, text)


def _tiny(pdf: FPDF, text: str) -> None:
    pdf.set_font_size(1)
    pdf.set_xy(20, 60)
    pdf.cell(0, 2, text)
    pdf.set_font_size(11)


def _covered(pdf: FPDF, text: str) -> None:
    pdf.set_xy(20, 60)
    pdf.cell(0, 8, text)
    pdf.set_fill_color(40, 40, 40)
    pdf.rect(15, 57, 150, 14, style="F")


def _below_the_crop_box(pdf: FPDF, text: str) -> None:
    pdf.set_xy(20, 250)  # the crop box keeps the top half of the page only
    pdf.cell(0, 8, text)


HIDING: dict[str, Draw] = {
    "white": _white,
    "invisible-mode": _invisible,
    "microscopic": _tiny,
    "covered": _covered,
    "outside-crop-box": _below_the_crop_box,
}


def hiding_pdf(how: str, shown: str, hidden: str) -> bytes:
    """A page that shows `shown` and hides `hidden` the way `how` names (a key of HIDING)."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.set_xy(20, 30)
    pdf.cell(0, 8, shown)
    HIDING[how](pdf, hidden)
    data = bytes(pdf.output())
    if how != "outside-crop-box":
        return data
    document = pypdfium2.PdfDocument(data)
    page = document[0]
    width, height = page.get_size()
    pdfium_c.FPDFPage_SetCropBox(page.raw, 0, height / 2, width, height)
    page.close()
    out = io.BytesIO()
    document.save(out)
    document.close()
    return out.getvalue()
