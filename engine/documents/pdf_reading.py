"""A PDF's pages as a reader sees them: each page's visible text layer in reading order
(`pdf_text`), a page without one read by OCR (`ocr`), and, when asked, each page's blocks.

`parse.parse_pdf` is the door to it: this module loads pdfium, numpy and the OCR helpers,
which a library of Markdown or Office files never needs, so it is imported when a PDF is
read, not with `parse`.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2

from engine.documents.children import stopping
from engine.documents.ocr import ocr_available, read_image, render_page, wants_ocr
from engine.documents.page_blocks import PageBlock
from engine.documents.parse import (
    CONTROL_CHARS,
    PDFIUM_LOCK,
    DocumentKind,
    ParsedFile,
    UnreadableFile,
)
from engine.documents.pdf_text import visible_blocks, visible_text

__all__ = ["read_pdf"]

_PDF_SOFT_HYPHEN = "\ufffe"


def read_pdf(source: Path | bytes, *, ocr: bool = True, blocks: bool = False) -> ParsedFile:
    """Text per page of a PDF file or of PDF bytes (a fetched document). A page without a
    text layer is read by OCR (`ocr.py`) unless `ocr` is False; Tesseract runs outside the
    pdfium lock, so other threads' pdfium calls do not wait for it."""
    import pypdfium2

    with PDFIUM_LOCK:
        try:
            document = pypdfium2.PdfDocument(source)
        except pypdfium2.PdfiumError as error:
            raise UnreadableFile(f"not a readable PDF ({error})") from error
    try:
        with PDFIUM_LOCK:
            pages = [_clean_pdf_text(_page_text(document, i)) for i in range(len(document))]
            scanned = _scanned_pages(document, pages) if ocr and ocr_available() else []
        read = _read_by_ocr(document, scanned, pages)
    except pypdfium2.PdfiumError as error:
        raise UnreadableFile(f"PDF text extraction failed ({error})") from error
    finally:
        with PDFIUM_LOCK:
            document.close()
    found = _page_blocks(source, read, pages) if blocks else ()
    return ParsedFile(DocumentKind.pdf, tuple(pages), ocr_pages=read, blocks=found)


def _page_blocks(
    source: Path | bytes, ocr_pages: frozenset[int], texts: list[str]
) -> tuple[tuple[PageBlock, ...], ...]:
    """Each page's blocks (`pdf_text.visible_blocks`); none for a page OCR read, or whose
    text is not the one its blocks index."""
    found: list[tuple[PageBlock, ...]] = []
    with PDFIUM_LOCK:
        document = pypdfium2.PdfDocument(source)
        try:
            for index, text in enumerate(texts):
                page = document[index]
                try:
                    textpage = page.get_textpage()
                    try:
                        read, page_blocks = visible_blocks(textpage)
                    finally:
                        textpage.close()
                finally:
                    page.close()
                kept = index not in ocr_pages and _clean_pdf_text(read.text) == text
                found.append(page_blocks if kept else ())
        finally:
            document.close()
    return tuple(found)


def _scanned_pages(document: pypdfium2.PdfDocument, texts: list[str]) -> list[int]:
    """The pages OCR is to read (`ocr.wants_ocr`); under the pdfium lock."""
    found = []
    for index, text in enumerate(texts):
        page = document[index]
        try:
            if wants_ocr(page, text):
                found.append(index)
        finally:
            page.close()
    return found


def _read_by_ocr(
    document: pypdfium2.PdfDocument, indices: list[int], texts: list[str]
) -> frozenset[int]:
    """Reads the pages `indices` by OCR into `texts`, one at a time (a page image is tens of
    megabytes); the indices of those OCR found text on. A page OCR finds nothing on keeps
    its text layer's text, and so do the pages left once the process is stopping."""
    read = set()
    for index in indices:
        if stopping():  # the process is asked to stop: no page more (`children`)
            break
        with PDFIUM_LOCK:
            page = document[index]
            try:
                image = render_page(page)
            finally:
                page.close()
        found = read_image(image)
        if found is not None and found.text.strip():
            texts[index] = found.text
            read.add(index)
    return frozenset(read)


def _page_text(document: pypdfium2.PdfDocument, index: int) -> str:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            return visible_text(textpage)  # cleaned already: cleaning again changes nothing
        finally:
            textpage.close()
    finally:
        page.close()


def _clean_pdf_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace(_PDF_SOFT_HYPHEN, "-")
    return CONTROL_CHARS.sub("", text)
