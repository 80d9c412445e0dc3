"""Two-column PDF pages are read column by column; single-column pages keep pdfium's text."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pypdfium2
from fpdf import FPDF
from PIL import Image

from engine.documents.parse import parse_pdf
from engine.documents.pdf_text import clean_pdf_text, visible_page_text
from engine.snapshots import Snapshot
from engine.sources.library.page_boxes import open_text_page, span_boxes
from engine.verify.excerpts import verify_excerpt

LEFT = [
    "The new plant in Recife started",
    "production in March after two",
    "years of building work on site,",
    "and it now runs at full load",
    "with a staff of three hundred.",
]
RIGHT = [
    "The second plant near Petrolina",
    "was delayed until 2026 by the",
    "licensing of its water intake,",
    "which the state agency has not",
    "yet granted to the company.",
]
GARBLED = "in Recife started The second plant near Petrolina"
GARBLED_ISSUE = "production in March after two was delayed until 2026"
GUTTER_X = 110  # mm: the right column's left edge


def _two_columns(
    *, across: bool, title: str = "", left: Sequence[str] = LEFT, right: Sequence[str] = RIGHT
) -> bytes:
    """A page of two prose columns, drawn line by line across both (`across`: the order
    that makes pdfium join the columns' lines) or one column after the other."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    if title:
        pdf.set_xy(20, 25)
        pdf.cell(170, 8, title)
    cells = [(20, n, line) for n, line in enumerate(left)]
    cells += [(GUTTER_X, n, line) for n, line in enumerate(right)]
    if across:
        cells.sort(key=lambda cell: cell[1])
    for x, n, line in cells:
        pdf.set_xy(x, 40 + 6 * n)
        pdf.cell(80, 6, line)
    return bytes(pdf.output())


def _pdfium_text(data: bytes) -> str:
    document = pypdfium2.PdfDocument(data)
    try:
        with open_text_page(document, 1) as text_page:
            return clean_pdf_text(str(text_page.get_text_range()))
    finally:
        document.close()


def test_pdfium_alone_reads_across_the_columns() -> None:
    """The defect itself: without reading order the garbled sentences are on the page, and
    the verifier would accept them."""
    snapshot = Snapshot.from_pages("file:///plants.pdf", [_pdfium_text(_two_columns(across=True))])
    for garbled in (GARBLED, GARBLED_ISSUE):
        assert verify_excerpt(garbled, snapshot, 1).verified


def test_a_two_column_page_is_read_column_by_column() -> None:
    text = parse_pdf(_two_columns(across=True)).texts[0]
    assert text == "\n".join(LEFT + RIGHT)


def test_long_columns_are_read_column_by_column() -> None:
    left, right = LEFT + RIGHT, RIGHT + LEFT
    text = parse_pdf(_two_columns(across=True, left=left, right=right)).texts[0]
    assert text == "\n".join(left + right)


def test_no_sentence_across_the_columns_can_be_verified() -> None:
    snapshot = Snapshot.from_pages("file:///plants.pdf", parse_pdf(_two_columns(across=True)).texts)
    for garbled in (GARBLED, GARBLED_ISSUE):
        assert not verify_excerpt(garbled, snapshot, 1).verified
    for column in (LEFT, RIGHT):
        sentence = " ".join(column[:3])
        verdict = verify_excerpt(sentence, snapshot, 1)
        assert verdict.verified, verdict.reason


def test_a_title_over_both_columns_comes_first() -> None:
    title = "Annual report of the state energy company for the year"
    text = parse_pdf(_two_columns(across=True, title=title)).texts[0]
    assert text == "\n".join([title, *LEFT, *RIGHT])


def test_columns_drawn_one_after_the_other_keep_pdfiums_text() -> None:
    data = _two_columns(across=False)
    assert parse_pdf(data).texts[0] == _pdfium_text(data) == "\n".join(LEFT + RIGHT)


def _table_page() -> bytes:
    """A single-column page with a table: labels on the left, figures in two columns."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.set_xy(20, 30)
    pdf.multi_cell(170, 6, "Net sales grew in every region during the year under review.")
    rows = [("Net sales", "5,000", "4,200"), ("Cost of sales", "(3,100)", "(2,900)")]
    rows += [("Gross margin", "1,900", "1,300"), ("Operating income", "800", "610")]
    rows += [("Net income", "520", "410"), ("Earnings per share", "2.10", "1.65")]
    for n, (label, this_year, last_year) in enumerate(rows):
        for x, cell in ((20, label), (120, this_year), (160, last_year)):
            pdf.set_xy(x, 50 + 6 * n)
            pdf.cell(30, 6, cell)
    return bytes(pdf.output())


def _director_page() -> bytes:
    """Two columns of short cells (names, positions): a table, not prose columns."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    people = [("Ana Souza", "Chief Executive Officer"), ("Bruno Lima", "Chief Financial Officer")]
    people += [("Carla Dias", "General Counsel"), ("Davi Rocha", "Chief Operating Officer")]
    people += [("Elisa Melo", "Head of Investor Relations")]
    for n, (name, role) in enumerate(people):
        pdf.set_xy(20, 40 + 6 * n)
        pdf.cell(60, 6, name)
        pdf.set_xy(110, 40 + 6 * n)
        pdf.cell(80, 6, role)
    return bytes(pdf.output())


def test_tables_keep_pdfiums_rows() -> None:
    for data in (_table_page(), _director_page()):
        assert parse_pdf(data).texts[0] == _pdfium_text(data)
    assert "Net sales 5,000 4,200" in parse_pdf(_table_page()).texts[0]
    assert "Ana Souza Chief Executive Officer" in parse_pdf(_director_page()).texts[0]


def test_an_excerpt_of_the_right_column_is_highlighted_there_only() -> None:
    document = pypdfium2.PdfDocument(_two_columns(across=True))
    try:
        with open_text_page(document, 1) as text_page:
            page_text = visible_page_text(text_page)
            excerpt = " ".join(RIGHT[:2])
            assert page_text.text == parse_pdf(_two_columns(across=True)).texts[0]
            boxes = span_boxes(text_page, excerpt)
    finally:
        document.close()
    assert len(boxes) == 2  # two lines, no box over the left column
    gutter = GUTTER_X * 72 / 25.4 - 2
    assert all(left >= gutter for left, _, _, _ in boxes)


def _figure_page() -> bytes:
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.set_xy(20, 8)
    pdf.cell(0, 6, "Companhia Energetica - Relatorio 2024")
    pdf.set_xy(20, 30)
    pdf.multi_cell(170, 6, "Generation rose in the second half as both new plants came online.")
    picture = io.BytesIO()
    Image.new("RGB", (200, 100), (30, 90, 200)).save(picture, format="PNG")
    pdf.image(io.BytesIO(picture.getvalue()), x=20, y=50, w=120, h=60)
    pdf.set_xy(20, 112)
    pdf.cell(0, 6, "Figure 3: Monthly generation in GWh, 2024")
    pdf.set_xy(20, 130)
    pdf.multi_cell(170, 6, "The figure shows the ramp-up of the Recife plant after March.")
    pdf.set_xy(100, 285)
    pdf.cell(0, 6, "Page 7")
    return bytes(pdf.output())


def test_blocks_in_reading_order_with_the_caption_bound_to_its_figure() -> None:
    parsed = parse_pdf(_figure_page(), blocks=True)
    (blocks,) = parsed.blocks
    text = parsed.texts[0]
    kinds = [block.kind for block in blocks]
    assert kinds == ["header", "text", "figure", "caption", "text", "footer"]
    caption = blocks[3]
    assert text[caption.start : caption.end] == "Figure 3: Monthly generation in GWh, 2024"
    assert caption.caption_of == 2
    figure = blocks[2]
    assert figure.start == figure.end
    assert figure.box[3] > caption.box[3]  # the figure stands above its caption
    assert text[blocks[-1].start : blocks[-1].end] == "Page 7"


def test_blocks_of_a_two_column_page_index_its_text() -> None:
    parsed = parse_pdf(_two_columns(across=True), blocks=True)
    text = parsed.texts[0]
    spans = [text[block.start : block.end] for block in parsed.blocks[0]]
    assert spans == ["\n".join(LEFT), "\n".join(RIGHT)]
    assert parse_pdf(_two_columns(across=True)).blocks == ()
