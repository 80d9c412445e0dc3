from __future__ import annotations

import ctypes
import logging

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from engine.contracts import Report
from engine.render.pdf import NOISY_LOGGERS, render_pdf
from engine.text import collapse_whitespace
from tests.support.pdfs import pdf_text


@pytest.fixture
def portuguese_pdf(portuguese_report: Report) -> bytes:
    return render_pdf(portuguese_report)


def test_pdf_is_valid_and_readable(portuguese_pdf: bytes) -> None:
    assert portuguese_pdf.startswith(b"%PDF-")
    assert portuguese_pdf.rstrip().endswith(b"%%EOF")
    document = pypdfium2.PdfDocument(portuguese_pdf)
    try:
        assert len(document) >= 1
    finally:
        document.close()


def test_pdf_contains_title_excerpts_and_sources(portuguese_pdf: bytes) -> None:
    text = pdf_text(portuguese_pdf)

    assert "Energia solar residencial no Nordeste" in text
    assert "O Nordeste concentra 30% da potência" in text
    assert "Relatório parcial." in text
    assert "página 60" in text
    assert "Fontes" in text


def test_pdf_prints_each_excerpt_once_and_run_details_in_the_appendix(
    portuguese_pdf: bytes,
) -> None:
    text = pdf_text(portuguese_pdf)

    # Under its document in the sources; the sentence carries its number.
    assert text.count("Institui o marco legal da microgeração") == 1
    assert "A Lei 14.300 criou o marco legal da geração distribuída.[3]" in text
    assert text.index("Fontes") < text.index("Apêndice: como este relatório foi feito")
    assert text.index("Apêndice") < text.index("excerpt not found on page")
    assert "Pergunta:" not in text


def test_hostile_text_is_printed_literally(hostile_report: Report) -> None:
    text = pdf_text(render_pdf(hostile_report))

    assert '<script>alert("x")</script>' in text
    assert "javascript:alert(1)" in text


def test_layout_logs_no_warnings(
    portuguese_report: Report, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        render_pdf(portuguese_report)

    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_renderer_loggers_are_quiet_below_warning(portuguese_report: Report) -> None:
    render_pdf(portuguese_report)

    for name in NOISY_LOGGERS:
        assert logging.getLogger(name).getEffectiveLevel() >= logging.WARNING


def link_targets(pdf: bytes) -> list[tuple[str, int]]:
    """(text under the link, page index it jumps to) for every internal link of the PDF."""
    document = pypdfium2.PdfDocument(pdf)
    found = []
    try:
        for page in document:
            text_page = page.get_textpage()
            position, link = ctypes.c_int(0), pdfium_c.FPDF_LINK()
            while pdfium_c.FPDFLink_Enumerate(page, position, link):
                destination = pdfium_c.FPDFLink_GetDest(document, link)
                if destination:
                    rect = pdfium_c.FS_RECTF()
                    assert pdfium_c.FPDFLink_GetAnnotRect(link, rect)
                    text = text_page.get_text_bounded(rect.left, rect.bottom, rect.right, rect.top)
                    target = pdfium_c.FPDFDest_GetDestPageIndex(document, destination)
                    found.append((collapse_whitespace(text), target))
            text_page.close()
            page.close()
    finally:
        document.close()
    return found


def images_per_page(pdf: bytes) -> list[int]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        counts = []
        for page in document:
            counts.append(len(list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))))
            page.close()
        return counts
    finally:
        document.close()


def test_citation_links_to_the_page_that_prints_its_crop(
    portuguese_report: Report, small_png: bytes
) -> None:
    pdf = render_pdf(portuguese_report, crops={"cpdf": small_png})

    targets = {page for text, page in link_targets(pdf) if text == "[2]"}
    images = images_per_page(pdf)
    assert len(targets) == 1  # every marker [2] lands on its excerpt in the sources
    [target] = targets
    assert images[target] == 1  # which prints the crop
    assert sum(images) == 1  # once
    assert "O trecho destacado na página · página 60" in pdf_text(pdf)


def test_without_crops_the_pdf_has_no_images(portuguese_report: Report) -> None:
    pdf = render_pdf(portuguese_report)

    assert sum(images_per_page(pdf)) == 0
    assert "O trecho destacado na página" not in pdf_text(pdf)
