"""Scanned PDFs for the OCR tests: a PDF's pages drawn as images and wrapped as a PDF of
images, with no text layer (as a scanner or a fax writes them)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pypdfium2
from PIL import Image


def scanned_pdf(source: bytes | Path, dpi: int = 200, pages: Sequence[int] | None = None) -> bytes:
    """The pages `pages` (all by default) of the PDF `source` drawn in grey at `dpi`, each
    an image filling its page of a new PDF of the same size."""
    document = pypdfium2.PdfDocument(source)
    try:
        images: list[Image.Image] = []
        for index in range(len(document)) if pages is None else pages:
            page = document[index]
            try:
                images.append(page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L"))
            finally:
                page.close()
    finally:
        document.close()
    out = io.BytesIO()
    images[0].save(out, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:])
    return out.getvalue()


def with_page_scanned(source: bytes | Path, index: int, dpi: int = 300) -> bytes:
    """The PDF `source` with its page `index` (from 0) replaced by a scan of it: that page
    alone has no text layer."""
    scan = pypdfium2.PdfDocument(scanned_pdf(source, dpi, [index]))
    document = pypdfium2.PdfDocument(source)
    try:
        document.del_page(index)
        document.import_pages(scan, [0], index)
        out = io.BytesIO()
        document.save(out)
        return out.getvalue()
    finally:
        document.close()
        scan.close()
