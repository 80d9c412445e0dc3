"""report.pdf as a reader sees it: the analyst's report (summary first, figures table and
chart, calculations, sources, appendix) with an excerpt whose words are joined by no-break
spaces, rendered to PNG (its first pages kept as test artefacts); no character lies past
the page's edge and the excerpt is printed whole, not cut off."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from engine.render.pdf import render_pdf
from engine.text import collapse_whitespace
from tests.support.pdfs import page_texts
from tests.support.render_samples import NBSP_EXCERPT, nbsp_figures_report

ROOT = Path(__file__).resolve().parents[3]
ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS_DIR") or ROOT / "build" / "test-artefacts")
PAGES_KEPT = 3


@pytest.fixture(scope="module")
def pdf() -> bytes:
    return render_pdf(nbsp_figures_report())


def test_the_first_pages_are_kept_as_pictures(pdf: bytes) -> None:
    folder = ARTEFACTS / "render"
    folder.mkdir(parents=True, exist_ok=True)
    document = pypdfium2.PdfDocument(pdf)
    try:
        kept = []
        for n in range(min(PAGES_KEPT, len(document))):
            page = document[n]
            picture = page.render(scale=1.5).to_pil()
            path = folder / f"report-pdf-page-{n + 1}.png"
            picture.save(path)
            kept.append((path, picture.size))
            page.close()
    finally:
        document.close()

    print("pages:", *(path for path, _ in kept))
    assert len(kept) == PAGES_KEPT
    assert all(width > 800 and height > 1100 for _, (width, height) in kept)  # A4 at 1.5x


def test_no_character_lies_past_the_page_edge(pdf: bytes) -> None:
    document = pypdfium2.PdfDocument(pdf)
    outside = []
    try:
        for n, page in enumerate(document):
            width, _ = page.get_size()
            text_page = page.get_textpage()
            for i in range(text_page.count_chars()):
                left, _, right, _ = text_page.get_charbox(i)
                if left < 0 or right > width:
                    outside.append((n + 1, text_page.get_text_range(i, 1), round(right)))
            text_page.close()
            page.close()
    finally:
        document.close()

    assert outside == []


def test_the_no_break_space_excerpt_is_printed_whole(pdf: bytes) -> None:
    text = " ".join(page_texts(pdf))

    assert collapse_whitespace(NBSP_EXCERPT) in text  # not cut at the page's edge


def test_the_report_reads_summary_first_and_run_details_last(pdf: bytes) -> None:
    texts = page_texts(pdf)
    text = " ".join(texts)

    assert texts[0].startswith("How did Best Buy's revenue and operating income change")
    assert text.count("How did Best Buy's revenue") == 1
    assert "Question" not in text
    # After the contents (which end with the appendix's heading), each part in its turn.
    at = text.index("Contents") + text[text.index("Contents") :].index("how this report was made")
    for part in (
        "Fiscal 2019",
        "Why it changed",
        "Earnings",
        "Figures",
        "Calculations",
        "Sources",
        "Appendix: how this report was made",
        "support judge skipped",
    ):
        at = text.index(part, at + 1)
    assert text.index("Summary") < text.index("Contents")
    assert "Formula: ($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%" in text
    assert "Claims rejected" not in text


@pytest.mark.skipif(
    importlib.util.find_spec("engine.render.charts") is None, reason="charts not there yet"
)
def test_the_figures_table_is_followed_by_its_chart(pdf: bytes) -> None:
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = [
            n
            for n, page in enumerate(document)
            if list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))
        ]
    finally:
        document.close()
    texts = page_texts(pdf)

    [chart_page] = pages
    assert "Sources: BESTBUY_2019_10K, p. 53; BESTBUY_2023_10K, p. 40" in texts[chart_page]
