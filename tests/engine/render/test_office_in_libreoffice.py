"""report.docx, report.pptx and report.xlsx as a reader opens them: read back with python-docx and
python-pptx, converted to PDF by LibreOffice headless (.ci/run installs it), their first
pages saved as PNG test artefacts, and no text past a page's edge, even for an excerpt
whose words are joined by non-breaking spaces and a long URL."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from pathlib import Path

import docx
import openpyxl
import pptx
import pypdfium2 as pdfium
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT

from engine.contracts import Report, Section
from engine.render.docx import render_docx
from engine.render.pptx import render_pptx
from engine.render.xlsx import render_xlsx
from engine.text import collapse_whitespace
from engine.verify.seen.office import pdf_command
from tests.support.render_samples import build_claim, cite, figures_report, wide_report

ROOT = Path(__file__).resolve().parents[3]
ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS_DIR") or ROOT / "build" / "test-artefacts")
SHOTS = ARTEFACTS / "render"
PAGES_SHOWN = 3
EDGE_SLACK = 0.5
"""Points a glyph's box may pass the page edge by (rounding in pdfium's boxes)."""
NO_BREAK = "\u00a0".join(
    "The company's consolidated net earnings attributable to Best Buy Co., Inc. shareholders "
    "rose in fiscal 2023 compared to the prior year".split()
)
LONG_URL = "https://example.org/" + "investor-relations/" * 8 + "bestbuy-2023-10k.pdf#page=27"


def hard_report() -> Report:
    """The figures sample with one excerpt that has no ordinary space and a very long URL."""
    report = figures_report()
    claims = [
        c.model_copy(update={"excerpt": NO_BREAK, "url": LONG_URL}) if c.id == "d23" else c
        for c in report.claims
    ]
    return report.model_copy(update={"claims": claims})


@pytest.fixture(scope="module")
def soffice() -> str:
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        reason = "soffice is not on PATH (.ci/run installs LibreOffice)"
        print(reason)
        pytest.skip(reason)
    return found


def converted(soffice: str, document: Path, out: Path) -> Path:
    """`document` as PDF, by LibreOffice with a profile of this run's own."""
    profile = out / "libreoffice-profile"
    subprocess.run(
        pdf_command(soffice, document, out, profile),
        check=True,
        capture_output=True,
        timeout=180,
    )
    pdf = out / f"{document.stem}.pdf"
    assert pdf.is_file(), f"LibreOffice wrote no PDF of {document.name}"
    return pdf


def overflowing(pdf: pdfium.PdfDocument) -> list[str]:
    """The characters whose box reaches past their page's edges."""
    wrong = []
    for number in range(len(pdf)):
        page = pdf[number]
        width, height = page.get_size()
        text = page.get_textpage()
        for index in range(text.count_chars()):
            left, bottom, right, top = text.get_charbox(index)
            if left == right:
                continue  # a space or a break: nothing drawn
            if (
                left < -EDGE_SLACK
                or right > width + EDGE_SLACK
                or bottom < -EDGE_SLACK
                or (top > height + EDGE_SLACK)
            ):
                wrong.append(f"page {number + 1}: {text.get_text_range(index, 1)!r} at {right:.1f}")
    return wrong


def page_text(pdf: pdfium.PdfDocument) -> str:
    return " ".join(pdf[n].get_textpage().get_text_range() for n in range(len(pdf)))


def keep_pictures(pdf: pdfium.PdfDocument, name: str) -> list[Path]:
    """The first pages as PNG in the tests' artefacts."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    saved = []
    for number in range(min(PAGES_SHOWN, len(pdf))):
        path = SHOTS / f"{name}-page-{number + 1}.png"
        pdf[number].render(scale=1.5).to_pil().save(path)
        saved.append(path)
    print("pictures:", ", ".join(str(p) for p in saved))
    return saved


def test_the_docx_reads_back_and_libreoffice_lays_it_out_within_the_page(
    soffice: str, tmp_path: Path
) -> None:
    content = render_docx(hard_report(), {})
    document = docx.Document(io.BytesIO(content))
    notes = document.part.part_related_by(RT.FOOTNOTES).blob.decode("utf-8")
    assert NO_BREAK.replace("\u00a0", " ") in notes  # shown so that it wraps between words
    assert "“Revenue $ 42,879 $ 42,151 $ 39,403”" in notes
    path = tmp_path / "report.docx"
    path.write_bytes(content)

    pdf = pdfium.PdfDocument(converted(soffice, path, tmp_path))

    shown = collapse_whitespace(page_text(pdf))
    assert "Revenue grew from $ 42,879" in shown
    assert "Revenue $ 42,879 $ 42,151 $ 39,403" in shown  # a footnote, on the page
    assert "Accessed on 2025-05-01 14:03 UTC" in shown
    assert "shareholders rose in fiscal 2023" in shown, "the excerpt wraps between words"
    assert overflowing(pdf) == []
    assert all(p.stat().st_size > 0 for p in keep_pictures(pdf, "report-docx"))


def test_the_pptx_reads_back_and_libreoffice_keeps_every_slide_within_its_page(
    soffice: str, tmp_path: Path
) -> None:
    report = hard_report()
    content = render_pptx(report, {})
    deck = pptx.Presentation(io.BytesIO(content))
    titles = [s.shapes[0].text_frame.text for s in deck.slides]
    for section in report.sections:
        assert titles.count(section.title) == 1, "one slide per section"
    notes = "\n".join(s.notes_slide.notes_text_frame.text for s in deck.slides if s.has_notes_slide)
    assert NO_BREAK.replace("\u00a0", " ") in notes
    assert "“Operating income 2,795 3,039 2,391”" in notes
    path = tmp_path / "report.pptx"
    path.write_bytes(content)

    pdf = pdfium.PdfDocument(converted(soffice, path, tmp_path))

    assert len(pdf) == len(deck.slides)
    shown = collapse_whitespace(page_text(pdf))
    assert "[1] BESTBUY_2019_10K, p. 53" in shown
    assert overflowing(pdf) == []
    assert all(p.stat().st_size > 0 for p in keep_pictures(pdf, "report-pptx"))


def test_libreoffice_shows_the_xlsx_figures_as_the_report_prints_them(
    soffice: str, tmp_path: Path
) -> None:
    """The figures are number cells (a sum works on them) whose format shows them as the
    report prints them: LibreOffice's text of the figures sheet is the report's."""
    report = figures_report()
    path = tmp_path / "report.xlsx"
    path.write_bytes(render_xlsx(report, {}))
    sheet = 2  # the figures, as LibreOffice numbers the sheets (from 1)
    options = f"44,34,76,1,,0,false,true,true,false,false,{sheet}"
    command = pdf_command(soffice, path, tmp_path, tmp_path / "libreoffice-profile")
    command[command.index("pdf")] = f"csv:Text - txt - csv (StarCalc):{options}"
    subprocess.run(command, check=True, capture_output=True, timeout=180)
    (written,) = tmp_path.glob("report*.csv")
    shown = list(csv.reader(written.read_text(encoding="utf-8").splitlines()))
    cells = {
        (r, 1 + 2 * c): cell.text
        for table in report.tables[:1]
        for r, row in enumerate(table.rows, start=2)
        for c, cell in enumerate(row.cells)
        if cell is not None
    }
    assert cells
    assert {key: shown[key[0]][key[1]] for key in cells} == cells
    book = openpyxl.load_workbook(path)
    figures = book.worksheets[1]
    assert all(isinstance(figures.cell(r + 1, c + 1).value, float | int) for r, c in cells)


@pytest.mark.parametrize("language", ["pt", "en"])
def test_a_deck_of_many_long_sources_and_a_wide_table_stays_within_every_slide(
    soffice: str, tmp_path: Path, language: str
) -> None:
    """36 sources with long titles and URLs, one more document cited on 45 of its pages, six
    columns of "R$ 187.654.321,5 milhões": LibreOffice lays every slide out with nothing past
    its edge (the document's excerpts go on over slides, its title shown again)."""
    report = cited_on_many_pages(wide_report(language=language), 45)
    path = tmp_path / "report.pptx"
    path.write_bytes(render_pptx(report, {}))

    pdf = pdfium.PdfDocument(converted(soffice, path, tmp_path))

    shown = collapse_whitespace(page_text(pdf))
    assert "R$ 187.654.321,5 milhões" in shown
    assert "[81] p. 46" in shown  # the last page cited, on a slide of its own
    assert overflowing(pdf) == []
    keep_pictures(pdf, f"wide-report-pptx-{language}")


def cited_on_many_pages(report: Report, pages: int) -> Report:
    """`report` with one more section citing one long-titled document on `pages` pages."""
    url = (
        "https://ri.vale.com/relatorio-anual-integrado-2023-demonstracoes-financeiras-"
        "consolidadas-auditadas-versao-final.pdf"
    )
    title = (
        "Vale S.A. — Relatório Anual Integrado 2023, Demonstrações Financeiras Consolidadas "
        "Auditadas com Notas Explicativas"
    )
    claims = [
        build_claim(f"rai{n}", url=f"{url}#page={n + 2}", title=title, excerpt=f"Nota {n}.")
        for n in range(pages)
    ]
    section = Section(
        title="Relatório anual", sentences=[cite(f"Nota {n}.", c.id) for n, c in enumerate(claims)]
    )
    return report.model_copy(
        update={"claims": [*report.claims, *claims], "sections": [*report.sections, section]}
    )
