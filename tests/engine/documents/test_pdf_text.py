"""Only the text a reader sees reaches a PDF page's text (`pdf_text.py`)."""

from __future__ import annotations

import ctypes
import io
from collections.abc import Callable

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from fpdf import FPDF
from fpdf.enums import TextMode
from PIL import Image

from engine.documents.parse import parse_pdf
from engine.documents.pdf_text import _unseen_chars, visible_page_text
from engine.sources.library.page_boxes import cleaned_page_text, open_text_page, span_boxes
from tests.support.hidden_pdfs import hiding_pdf

VISIBLE = "Revenue was $5,000 million in 2023."
HIDDEN = "Revenue was $9,000 million in 2023."


def _page(draw: Callable[[FPDF], None]) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.set_xy(20, 30)
    pdf.cell(0, 8, VISIBLE)
    draw(pdf)
    pdf.set_xy(20, 120)
    pdf.cell(0, 8, "The year closed with a backlog of orders.")
    return bytes(pdf.output())


def _white(pdf: FPDF) -> None:
    pdf.set_text_color(255, 255, 255)
    pdf.set_xy(20, 60)
    pdf.cell(0, 8, HIDDEN)
    pdf.set_text_color(0, 0, 0)


def _invisible_mode(pdf: FPDF) -> None:
    with pdf.local_context(text_mode=TextMode.INVISIBLE):
        pdf.set_xy(20, 60)
        pdf.cell(0, 8, HIDDEN)


def _clip_mode(pdf: FPDF) -> None:
    with pdf.local_context(text_mode=TextMode.CLIP):
        pdf.set_xy(20, 60)
        pdf.cell(0, 8, HIDDEN)


def _tiny(pdf: FPDF) -> None:
    pdf.set_font_size(1)
    pdf.set_xy(20, 60)
    pdf.cell(0, 2, HIDDEN)
    pdf.set_font_size(11)


def _under_image(pdf: FPDF) -> None:
    pdf.set_xy(20, 60)
    pdf.cell(0, 8, HIDDEN)
    picture = io.BytesIO()
    Image.new("RGB", (40, 10), (200, 30, 30)).save(picture, format="PNG")
    pdf.image(io.BytesIO(picture.getvalue()), x=15, y=55, w=150, h=20)


def _under_rectangle(pdf: FPDF) -> None:
    pdf.set_xy(20, 60)
    pdf.cell(0, 8, HIDDEN)
    pdf.set_fill_color(40, 40, 40)
    pdf.rect(15, 57, 150, 14, style="F")


def _same_colour_as_shape(pdf: FPDF) -> None:
    pdf.set_fill_color(30, 60, 200)
    pdf.rect(15, 57, 150, 14, style="F")
    pdf.set_text_color(32, 62, 198)
    pdf.set_xy(20, 60)
    pdf.cell(0, 8, HIDDEN)
    pdf.set_text_color(0, 0, 0)


def _white_on_white_rectangle(pdf: FPDF) -> None:
    pdf.set_fill_color(255, 255, 255)
    pdf.rect(15, 57, 150, 14, style="F")
    _white(pdf)


HIDING = {
    "white text": _white,
    "invisible render mode": _invisible_mode,
    "clip-only render mode": _clip_mode,
    "microscopic font": _tiny,
    "under an image": _under_image,
    "under a filled rectangle": _under_rectangle,
    "colour of the shape beneath": _same_colour_as_shape,
    "white on a white rectangle": _white_on_white_rectangle,
}


@pytest.mark.parametrize("draw", HIDING.values(), ids=HIDING.keys())
def test_hidden_text_is_left_out(draw: Callable[[FPDF], None]) -> None:
    text = parse_pdf(_page(draw)).texts[0]
    assert HIDDEN not in text
    assert "9,000" not in text
    assert VISIBLE in text
    assert "The year closed with a backlog of orders." in text


def test_text_outside_the_crop_box_is_left_out() -> None:
    text = parse_pdf(hiding_pdf("outside-crop-box", VISIBLE, HIDDEN)).texts[0]
    assert HIDDEN not in text
    assert VISIBLE in text


def _dark_band(pdf: FPDF) -> None:
    pdf.set_fill_color(20, 40, 120)
    pdf.rect(15, 57, 150, 14, style="F")


def _thick_dark_stroke(pdf: FPDF) -> None:
    pdf.set_draw_color(20, 40, 120)
    pdf.set_line_width(8)
    pdf.line(15, 64, 165, 64)


@pytest.mark.parametrize(
    ("background", "words"),
    [
        pytest.param(_dark_band, "Consolidated statements of income", id="on a dark band"),
        pytest.param(_thick_dark_stroke, "Segment results", id="on a thick dark stroke"),
    ],
)
def test_white_text_on_a_dark_shape_stays(background: Callable[[FPDF], None], words: str) -> None:
    def draw(pdf: FPDF) -> None:
        background(pdf)
        pdf.set_text_color(255, 255, 255)
        pdf.set_xy(20, 60)
        pdf.cell(0, 8, words)
        pdf.set_text_color(0, 0, 0)

    assert words in parse_pdf(_page(draw)).texts[0]


def test_hidden_words_inside_a_line_leave_the_words_apart() -> None:
    def draw(pdf: FPDF) -> None:
        pdf.set_xy(20, 60)
        pdf.cell(30, 8, "Net income")
        pdf.set_text_color(255, 255, 255)
        pdf.cell(30, 8, "secretly")
        pdf.set_text_color(0, 0, 0)
        pdf.cell(30, 8, "rose sharply")

    text = parse_pdf(_page(draw)).texts[0]
    assert "secretly" not in text
    assert "Net income rose sharply" in text or "Net income\nrose sharply" in text


def test_a_line_left_empty_is_collapsed() -> None:
    text = parse_pdf(_page(_white)).texts[0]
    assert "\n\n" not in text
    assert text.startswith(VISIBLE)


def test_a_plain_page_gives_pdfiums_text_unchanged() -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, f"{VISIBLE}\n" + "Costs rose in every segment, hyphen-\nated. " * 10)
    pdf.set_fill_color(220, 220, 240)
    pdf.rect(15, 200, 150, 30, style="F")
    pdf.set_xy(20, 210)
    pdf.cell(0, 8, "Shaded row: 1,234 5,678")
    data = bytes(pdf.output())
    document = pypdfium2.PdfDocument(data)
    try:
        with open_text_page(document, 1) as text_page:
            expected = cleaned_page_text(text_page.get_text_range())
            assert visible_page_text(text_page) == expected
    finally:
        document.close()
    assert parse_pdf(data).texts[0] == expected.text


def test_visible_excerpt_still_gets_its_boxes_beside_hidden_text() -> None:
    data = _page(_white)
    document = pypdfium2.PdfDocument(data)
    try:
        with open_text_page(document, 1) as text_page:
            page_text = visible_page_text(text_page)
            assert page_text.text == parse_pdf(data).texts[0]
            later = "The year closed with a backlog of orders."
            start = page_text.text.index(later)
            boxes = span_boxes(text_page, later, (start, start + len(later)))
            assert len(boxes) == 1
            assert span_boxes(text_page, HIDDEN) == []
            # the excerpt's box lies low on the page, where it is drawn (y = 120 mm)
            _, _, _, top = boxes[0]
            assert top < 842 - 120 / 25.4 * 72 + 12
    finally:
        document.close()


def _transparent(pdf: FPDF) -> None:
    with pdf.local_context(fill_opacity=0):
        pdf.set_xy(20, 60)
        pdf.cell(0, 8, HIDDEN)


def _with_pdfium_text(data: bytes, text: str, size: float, scale: float) -> bytes:
    """`data` with `text` added by pdfium at font size `size`, drawn `scale` times as big."""
    document = pypdfium2.PdfDocument(data)
    page = document[0]
    obj = pdfium_c.FPDFPageObj_NewTextObj(document.raw, b"Helvetica", ctypes.c_float(size))
    encoded = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
    pdfium_c.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
    pdfium_c.FPDFPageObj_Transform(obj, scale, 0, 0, scale, 60, 600)
    pdfium_c.FPDFPage_InsertObject(page.raw, obj)
    pdfium_c.FPDFPage_GenerateContent(page.raw)
    page.close()
    out = io.BytesIO()
    document.save(out)
    document.close()
    return out.getvalue()


def test_text_with_fill_alpha_zero_is_left_out() -> None:
    text = parse_pdf(_page(_transparent)).texts[0]
    assert "9,000" not in text
    assert VISIBLE in text


def test_text_a_matrix_shrinks_below_legibility_is_left_out() -> None:
    data = _with_pdfium_text(_page(lambda pdf: None), HIDDEN, 100, 0.01)  # 1 pt as drawn
    text = parse_pdf(data).texts[0]
    assert "9,000" not in text
    assert VISIBLE in text


def test_a_footnote_marker_drawn_at_three_points_stays() -> None:
    data = _with_pdfium_text(_page(lambda pdf: None), "(1) see note", 3.99, 0.75)
    assert "(1) see note" in parse_pdf(data).texts[0]


def test_the_ocr_layer_of_a_scan_stays() -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    picture = io.BytesIO()
    Image.new("RGB", (60, 80), (250, 248, 240)).save(picture, format="PNG")
    pdf.image(io.BytesIO(picture.getvalue()), x=0, y=0, w=210, h=297)
    with pdf.local_context(text_mode=TextMode.INVISIBLE):
        pdf.set_xy(20, 60)
        pdf.cell(0, 8, "Scanned minutes of the board meeting")
    assert "Scanned minutes of the board meeting" in parse_pdf(bytes(pdf.output())).texts[0]


def test_the_analysis_runs_on_a_plain_page() -> None:
    document = pypdfium2.PdfDocument(_page(_white))
    try:
        with open_text_page(document, 1) as text_page:
            assert _unseen_chars(text_page)  # the white line, found without an error
    finally:
        document.close()
