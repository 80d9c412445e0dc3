"""How evidence reads in every format of one report: a model's reading of a figure says so
and is never set as a quotation; an excerpt read by OCR says "read by OCR" beside it; each
source shows its own date and standing (primary, secondary, other). Checked in the HTML's
text, the PDF's text (pypdfium2), the DOCX body and footnotes (python-docx), the PPTX slides
and speaker notes (python-pptx) and the XLSX claims board (openpyxl), in both languages."""

from __future__ import annotations

import html
import io
import re
from dataclasses import dataclass

import docx
import openpyxl
import pptx
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml.ns import qn
from lxml import etree

from engine.contracts import Locator, Report
from engine.render.docx import render_docx
from engine.render.html import render_html
from engine.render.markdown import render_markdown
from engine.render.pdf import render_pdf
from engine.render.pptx import render_pptx
from engine.render.xlsx import render_xlsx
from engine.text import collapse_whitespace
from tests.support.pdfs import pdf_text
from tests.support.render_samples import build_claim, build_report, cite, section

READING = "Bahia 655 MW, Ceará 410 MW e Piauí 388 MW, nos rótulos das barras"
OCR_EXCERPT = "A potência instalada em 2023 foi de 2.150 MW no Nordeste"
PRESS_EXCERPT = "A geração distribuída cresceu 40% no ano passado, segundo o setor"
BLOG_EXCERPT = "Instalar painéis solares em casa compensa em cerca de cinco anos"


@dataclass(frozen=True)
class Said:
    """What the report must say in one language."""

    language: str
    figure: str
    ocr: str
    primary: str
    secondary: str
    other: str
    dated: str
    read_by: str
    published: str
    standing: str
    ocr_cell: str
    figure_cell: str


PORTUGUESE = Said(
    "pt",
    figure="lido da figura da página 4 (leitura do modelo, não citação)",
    ocr="lido por OCR",
    primary="fonte primária (oficial)",
    secondary="fonte secundária (imprensa, associação)",
    other="outra fonte (blog, fórum, desconhecida)",
    dated="data da fonte: 2024-03-01",
    read_by="Lido por",
    published="Data da fonte",
    standing="Natureza da fonte",
    ocr_cell="OCR (imagem da página)",
    figure_cell="figura (leitura do modelo, não citação)",
)
ENGLISH = Said(
    "en",
    figure="read from the figure on page 4 (the model's reading, not a quote)",
    ocr="read by OCR",
    primary="primary source (official)",
    secondary="secondary source (press, association)",
    other="other source (blog, forum, unknown)",
    dated="source dated 2024-03-01",
    read_by="Read by",
    published="Source date",
    standing="Standing",
    ocr_cell="OCR (page image)",
    figure_cell="figure (the model's reading, not a quote)",
)
LANGUAGES = pytest.mark.parametrize("said", [PORTUGUESE, ENGLISH], ids=["pt", "en"])


def evidence_report(language: str) -> Report:
    """One figure reading (page 4 of an EPE PDF), one claim read by OCR (page 3 of a scanned
    ANEEL gazette), a press page and a blog: sources of every standing, most of them dated."""
    claims = [
        build_claim(
            "cfig",
            url="https://www.epe.gov.br/anuario-2024.pdf#page=4",
            title="Anuário EPE 2024",
            excerpt=READING,
            locator=Locator(page=4, char_start=0, char_end=0),
            read_by="figure",
            published="2024-03-01",
            standing="primary",
        ),
        build_claim(
            "cocr",
            url="https://www.aneel.gov.br/diario-oficial.pdf#page=3",
            title="Diário Oficial (digitalizado)",
            excerpt=OCR_EXCERPT,
            locator=Locator(page=3, char_start=10, char_end=10 + len(OCR_EXCERPT)),
            read_by="ocr",
            published="2023",
            standing="primary",
        ),
        build_claim(
            "cpress",
            url="https://valor.globo.com/energia/gd",
            title="Valor — Geração distribuída",
            excerpt=PRESS_EXCERPT,
            published="2024-05-02",
            standing="secondary",
        ),
        build_claim(
            "cblog",
            url="https://blog.example.com/solar",
            title="Blog solar",
            excerpt=BLOG_EXCERPT,
            standing="other",
        ),
    ]
    sections = [
        section(
            "Mercado",
            cite("A Bahia lidera a potência instalada.", "cfig"),
            cite("O Nordeste tinha 2.150 MW em 2023.", "cocr"),
            cite("A geração distribuída cresceu 40%.", "cpress", "cblog"),
        )
    ]
    return build_report(claims, sections, language=language)


def assert_sources_show_date_and_standing(text: str, said: Said) -> None:
    for words in (said.dated, "2023", "2024-05-02", said.primary, said.secondary, said.other):
        assert words in text


@LANGUAGES
def test_markdown_marks_the_reading_and_the_ocr_excerpt(said: Said) -> None:
    text = render_markdown(evidence_report(said.language))
    assert f"*{said.figure}*: {READING}" in text
    assert f"> {READING}" not in text  # a reading is no quotation
    assert f"*{said.ocr}*\n\n> {OCR_EXCERPT}" in text
    assert_sources_show_date_and_standing(text, said)


def blockquotes(page: str) -> list[str]:
    return [
        html.unescape(q) for q in re.findall(r"<blockquote[^>]*>(.*?)</blockquote>", page, re.S)
    ]


@LANGUAGES
@pytest.mark.parametrize("expanded", [False, True], ids=["interactive", "print"])
def test_html_never_quotes_a_reading_and_says_read_by_ocr(said: Said, expanded: bool) -> None:
    page = render_html(evidence_report(said.language), expanded=expanded)
    quotes = blockquotes(page)
    assert not [q for q in quotes if READING in q]
    ocr_quotes = [q for q in quotes if OCR_EXCERPT in q]
    assert ocr_quotes
    assert all(f"({said.ocr})" in q for q in ocr_quotes)
    assert not [q for q in quotes if said.ocr in q and OCR_EXCERPT not in q]  # only beside it
    text = collapse_whitespace(html.unescape(re.sub(r"<[^>]+>", " ", page)))
    assert collapse_whitespace(f"{said.figure} : {READING}") in text
    assert_sources_show_date_and_standing(text, said)


@LANGUAGES
def test_pdf_text_says_how_each_excerpt_was_read(said: Said) -> None:
    text = pdf_text(render_pdf(evidence_report(said.language)))
    assert f"{said.figure}: {READING}" in text
    assert f"{OCR_EXCERPT} ({said.ocr})" in text
    assert_sources_show_date_and_standing(text, said)


def footnotes(document: docx.document.Document) -> list[str]:
    part = document.part.part_related_by(RT.FOOTNOTES)
    notes = etree.fromstring(part.blob).iter(qn("w:footnote"))
    return [
        "".join(t.text or "" for t in note.iter(qn("w:t")))
        for note in notes
        if int(note.get(qn("w:id"))) > 0
    ]


def quoted_runs(document: docx.document.Document) -> list[str]:
    """The text of every italic run, in the body and the notes: how a DOCX sets a quotation."""
    part = document.part.part_related_by(RT.FOOTNOTES)
    runs = [*document.element.body.iter(qn("w:r")), *etree.fromstring(part.blob).iter(qn("w:r"))]
    italic = [r for r in runs if r.find(f"{qn('w:rPr')}/{qn('w:i')}") is not None]
    return ["".join(t.text or "" for t in r.iter(qn("w:t"))) for r in italic]


@LANGUAGES
def test_docx_footnotes_and_sources_say_how_each_excerpt_was_read(said: Said) -> None:
    document = docx.Document(io.BytesIO(render_docx(evidence_report(said.language), {})))
    notes = footnotes(document)
    [figure_note] = [n for n in notes if READING in n]
    assert f"{said.figure}: {READING}" in figure_note
    assert f"“{READING}" not in figure_note
    [ocr_note] = [n for n in notes if OCR_EXCERPT in n]
    assert f"“{OCR_EXCERPT}” ({said.ocr})" in ocr_note
    assert not [run for run in quoted_runs(document) if READING in run]
    assert [run for run in quoted_runs(document) if OCR_EXCERPT in run]
    body = collapse_whitespace(" ".join(p.text for p in document.paragraphs))
    assert f"{said.figure}: {READING}" in body
    assert f"{OCR_EXCERPT} ({said.ocr})" in body
    assert_sources_show_date_and_standing(body, said)


@LANGUAGES
def test_pptx_notes_and_sources_slide_say_how_and_when(said: Said) -> None:
    deck = pptx.Presentation(io.BytesIO(render_pptx(evidence_report(said.language), {})))
    notes = " ".join(
        slide.notes_slide.notes_text_frame.text for slide in deck.slides if slide.has_notes_slide
    )
    assert f"{said.figure}: {READING}" in notes
    assert f"“{READING}" not in notes
    assert f"“{OCR_EXCERPT}” ({said.ocr})" in notes
    shown = collapse_whitespace(
        " ".join(s.text_frame.text for d in deck.slides for s in d.shapes if s.has_text_frame)
    )  # the slides: the sources slide lists each document with its date and standing
    assert_sources_show_date_and_standing(shown, said)
    assert said.ocr in shown


@LANGUAGES
def test_xlsx_board_has_read_by_date_and_standing_columns(said: Said) -> None:
    book = openpyxl.load_workbook(io.BytesIO(render_xlsx(evidence_report(said.language), {})))
    board = list(book.worksheets[0].iter_rows(values_only=True))
    header = list(board[0])
    columns = [header.index(name) for name in (said.read_by, said.published, said.standing)]
    rows = {row[0]: [row[n] for n in columns] for row in board[1:]}
    assert rows["cfig"] == [said.figure_cell, "2024-03-01", said.primary]
    assert rows["cocr"] == [said.ocr_cell, "2023", said.primary]
    assert rows["cpress"][1:] == ["2024-05-02", said.secondary]
    assert rows["cblog"][1:] == [None, said.other]
    assert rows["cpress"][0] == rows["cblog"][0] != said.ocr_cell
