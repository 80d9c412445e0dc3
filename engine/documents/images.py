"""Figures on a PDF page: where the images are, whether a page is mostly a figure, and a
figure cut out of the page as a PNG a vision model can read.

A figure here is an image object of the page (a chart or a scan pasted as a picture),
found with pdfium, nested forms included, at least `MIN_FIGURE_POINTS` on each side and
`MIN_FIGURE_SHARE` of the page: logos, rules and icons are not figures. Charts drawn as
vector paths are not found (yet): their text labels are in the page text anyway.

Every call takes the process's pdfium lock (`parse.PDFIUM_LOCK`), so any thread may call
them while other threads parse PDFs; they are CPU work, run off the event loop. pdfium is
imported by the first call that opens a PDF: whoever only asks `is_figure_page` or
`local_pdf` (the offline model, every subagent's toolbox) does not load it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from engine.documents.layout import Box
from engine.documents.parse import PDFIUM_LOCK

if TYPE_CHECKING:
    import pypdfium2

MIN_FIGURE_POINTS = 72.0
"""An inch on each side at least: smaller images are icons and logos."""
MIN_FIGURE_SHARE = 0.04
"""Of the page's area: a figure a reader would look at."""
MAX_FIGURES_PER_PAGE = 4
FIGURE_PAGE_SHARE = 0.2
"""A page is a figure page when its figures cover this much of it …"""
FIGURE_PAGE_MAX_CHARS = 400
"""… and its text layer holds fewer characters than this (a title and a caption at most)."""
MAX_IMAGE_PIXELS = 1568
"""The longer side of a figure sent to a model: Anthropic's vision guide resizes anything
longer (https://platform.claude.com/docs/en/build-with-claude/vision, "Evaluate image
size"), so more pixels only cost latency."""
MIN_SCALE, MAX_SCALE = 1.0, 4.0
"""Pixels per point: at least the page's own size, at most 288 dpi for a small figure."""


@dataclass(frozen=True)
class PageFigure:
    """One figure of a page (1-based `page`), where it is drawn and its share of the page."""

    page: int
    box: Box
    share: float


PdfSource = Path | bytes


def local_pdf(url: str) -> Path | None:
    """The PDF file a `file://` URL (without #page) names, when it is one; None otherwise (a
    web PDF's bytes are the web reader's to give)."""
    parsed = urlparse(url)
    if parsed.scheme != "file" or not parsed.path.lower().endswith(".pdf"):
        return None
    path = Path(unquote(parsed.path))
    return path if path.is_file() else None


@contextmanager
def _opened(source: PdfSource) -> Iterator[pypdfium2.PdfDocument]:
    import pypdfium2

    with PDFIUM_LOCK:
        document = pypdfium2.PdfDocument(source)
        try:
            yield document
        finally:
            document.close()


def page_figures(source: PdfSource, page: int) -> list[PageFigure]:
    """The figures of `page` (1-based), largest first; [] for a page out of range, an
    unreadable PDF or a page without one."""
    import pypdfium2

    try:
        with _opened(source) as document:
            if not 1 <= page <= len(document):
                return []
            return _figures(document, page)
    except (pypdfium2.PdfiumError, OSError):
        return []


def _figures(document: pypdfium2.PdfDocument, page: int) -> list[PageFigure]:
    import pypdfium2.raw as pdfium_c

    pdf_page = document[page - 1]
    try:
        width, height = pdf_page.get_size()
        area = max(width * height, 1.0)
        found: list[PageFigure] = []
        for obj in pdf_page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
            left, bottom, right, top = (float(v) for v in obj.get_bounds())
            left, bottom = max(left, 0.0), max(bottom, 0.0)
            right, top = min(right, width), min(top, height)
            w, h = right - left, top - bottom
            if w < MIN_FIGURE_POINTS or h < MIN_FIGURE_POINTS:
                continue
            share = w * h / area
            if share >= MIN_FIGURE_SHARE:
                found.append(PageFigure(page, (left, bottom, right, top), round(share, 4)))
    finally:
        pdf_page.close()
    found.sort(key=lambda f: -f.share)
    return found[:MAX_FIGURES_PER_PAGE]


def is_figure_page(figures: list[PageFigure], page_text: str) -> bool:
    """Whether a page is a figure with little or no text: what it says is in the picture,
    so a text reader cannot answer from it."""
    covered = sum(f.share for f in figures)
    return covered >= FIGURE_PAGE_SHARE and len(page_text.strip()) < FIGURE_PAGE_MAX_CHARS


def figure_png(source: PdfSource, figure: PageFigure) -> bytes | None:
    """`figure` cut out of its page as a PNG, its longer side at most `MAX_IMAGE_PIXELS`;
    None when the PDF or the page cannot be rendered."""
    import pypdfium2

    try:
        with _opened(source) as document:
            if not 1 <= figure.page <= len(document):
                return None
            return _render(document, figure)
    except (pypdfium2.PdfiumError, OSError):
        return None


def _render(document: pypdfium2.PdfDocument, figure: PageFigure) -> bytes | None:
    pdf_page = document[figure.page - 1]
    try:
        left, bottom, right, top = figure.box
        longer = max(right - left, top - bottom, 1.0)
        scale = min(MAX_SCALE, max(MIN_SCALE, MAX_IMAGE_PIXELS / longer))
        width, height = pdf_page.get_size()
        scale = min(scale, MAX_IMAGE_PIXELS * 4 / max(width, height, 1.0))
        bitmap = pdf_page.render(scale=scale)
        try:
            to_pixels = bitmap.get_posconv(pdf_page).to_bitmap
            x0, y0 = to_pixels(left, bottom)
            x1, y1 = to_pixels(right, top)
            image = bitmap.to_pil().convert("RGB")
        finally:
            bitmap.close()
    finally:
        pdf_page.close()
    region = (max(0, min(x0, x1)), max(0, min(y0, y1)), max(x0, x1), max(y0, y1))
    region = (region[0], region[1], min(image.width, region[2]), min(image.height, region[3]))
    if region[2] <= region[0] or region[3] <= region[1]:
        return None
    cut = image.crop(region)
    cut.thumbnail((MAX_IMAGE_PIXELS, MAX_IMAGE_PIXELS))
    out = io.BytesIO()
    cut.save(out, format="PNG", optimize=True)
    return out.getvalue()
