"""A PDF's chapters as its own outline (bookmarks) gives them: what a sweep of one long
document reads a part at a time. Cheap: the outline is read, no page is parsed.

Takes the process's pdfium lock (`parse.PDFIUM_LOCK`), so any thread may call it while
others parse PDFs; it is file I/O, run off the event loop.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2

from engine.documents.parse import PDFIUM_LOCK
from engine.text.normalise import collapse_whitespace

MAX_CHAPTERS = 200
"""Outline entries read at most: a chapter list, not an index of every heading."""


def pdf_chapters(path: Path) -> list[tuple[str, int]]:
    """(title, first page, 1-based) of each top-level bookmark of the PDF at `path`, in
    page order, one per page; [] when it has no outline or cannot be opened."""
    chapters: dict[int, str] = {}
    with PDFIUM_LOCK:
        try:
            document = pypdfium2.PdfDocument(path)
        except (pypdfium2.PdfiumError, OSError):
            return []
        try:
            for number, bookmark in enumerate(document.get_toc(max_depth=1)):
                if number >= MAX_CHAPTERS:
                    break
                destination = bookmark.get_dest()
                index = destination.get_index() if destination is not None else None
                title = collapse_whitespace(bookmark.get_title())
                if bookmark.level == 0 and index is not None and title:
                    chapters.setdefault(index + 1, title)
        finally:
            document.close()
    return [(title, page) for page, title in sorted(chapters.items())]
