import io
from pathlib import Path

from PIL import Image

from engine.documents import parse_pdf
from engine.documents.images import (
    MAX_IMAGE_PIXELS,
    figure_png,
    is_figure_page,
    local_pdf,
    page_figures,
)
from tests.support.figure_pdfs import chart_pdf


def test_the_chart_is_a_figure_and_the_logo_is_not(tmp_path: Path) -> None:
    pdf = chart_pdf(tmp_path / "report.pdf")
    assert page_figures(pdf, 1) == []  # a 12 mm logo is not a figure
    (chart,) = page_figures(pdf, 2)
    left, bottom, right, top = chart.box
    assert (round(left), round(right)) == (43, 553)  # 15 mm and 195 mm from the left edge
    assert top - bottom > 300
    assert chart.share > 0.3
    assert page_figures(pdf, 3) == []  # out of range: nothing, no failure


def test_a_figure_page_is_a_figure_with_little_text(tmp_path: Path) -> None:
    pdf = chart_pdf(tmp_path / "report.pdf")
    texts = parse_pdf(pdf).texts
    assert is_figure_page(page_figures(pdf, 2), texts[1])
    assert not is_figure_page(page_figures(pdf, 1), texts[0])
    assert not is_figure_page(page_figures(pdf, 2), texts[0] * 3)  # a chart in a page of text


def test_a_figure_is_cut_out_of_its_page_at_the_size_a_model_reads(tmp_path: Path) -> None:
    pdf = chart_pdf(tmp_path / "report.pdf")
    (chart,) = page_figures(pdf, 2)
    png = figure_png(pdf, chart)
    assert png is not None
    image = Image.open(io.BytesIO(png))
    assert max(image.size) == MAX_IMAGE_PIXELS
    width, height = image.size
    assert abs(width / height - 510 / 340) < 0.02  # the chart's shape, not the page's
    assert image.convert("RGB").getpixel((width // 5, height // 2)) != (255, 255, 255)  # a bar


def test_local_pdf_names_only_pdf_files(tmp_path: Path) -> None:
    pdf = chart_pdf(tmp_path / "report.pdf")
    assert local_pdf(pdf.as_uri()) == pdf
    assert local_pdf((tmp_path / "missing.pdf").as_uri()) is None
    assert local_pdf("https://example.org/report.pdf") is None
    (tmp_path / "notes.md").write_text("x")
    assert local_pdf((tmp_path / "notes.md").as_uri()) is None
