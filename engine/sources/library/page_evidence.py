"""Where a claim's excerpt sits on a library PDF: its boxes, and a highlighted crop of the page.

`LibraryPageEvidence` is what a report writer is handed when the report's sources are a
library (`engine.render.PageEvidence`): it fills the cited claims' locators with boxes and
renders one crop per cited claim. `crop_png` is the same crop for one claim, for any
display that shows a single excerpt (the Slack excerpt view).

Claims on web pages, on unpaged documents, on documents no longer in the library, or whose
excerpt is no longer on the cited page get no boxes and no crop: nothing fails, the
evidence stays text-only. pdfium errors on one document are contained the same way.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdfium2

from engine.contracts import Claim, ClaimStatus, Locator, Report
from engine.snapshots import split_page
from engine.sources.library.documents import LibraryDocument
from engine.sources.library.folder import Library
from engine.sources.library.page_boxes import Box, open_text_page, span_boxes, text_lines
from engine.sources.library.page_crops import render_crop
from engine.sources.library.parse import DocumentKind


class LibraryPageEvidence:
    """Boxes and crops for the claims of a report whose sources are `library`."""

    def __init__(self, library: Library) -> None:
        self._pdfs = {
            _canonical(document.url): document
            for document in library.documents()
            if document.kind is DocumentKind.pdf
        }

    def with_boxes(self, report: Report) -> Report:
        """`report` with the boxes of every cited claim's excerpt (and context) on its page."""
        cited = set(report.cited_claim_ids())
        with _Documents() as documents:
            claims = [
                self._located(claim, documents) if claim.id in cited else claim
                for claim in report.claims
            ]
        return report.model_copy(update={"claims": claims})

    def crops(self, report: Report) -> dict[str, bytes]:
        """A PNG crop of the page for every cited claim that has one, by claim id."""
        found: dict[str, bytes] = {}
        with _Documents() as documents:
            for claim_id in dict.fromkeys(report.cited_claim_ids()):
                png = self._crop(report.claim(claim_id), documents)
                if png is not None:
                    found[claim_id] = png
        return found

    def crop_png(self, claim: Claim) -> bytes | None:
        """The page around `claim`'s excerpt, highlighted, as PNG; None if there is none."""
        with _Documents() as documents:
            return self._crop(claim, documents)

    def _document(self, claim: Claim) -> tuple[Path, int] | None:
        base, page = split_page(claim.url)
        if claim.locator is not None and claim.locator.page is not None:
            page = claim.locator.page
        document: LibraryDocument | None = self._pdfs.get(_canonical(base))
        if document is None or page is None:
            return None
        return document.path, page

    def _located(self, claim: Claim, documents: _Documents) -> Claim:
        where = self._document(claim)
        if where is None or claim.locator is None or claim.status is not ClaimStatus.verified:
            return claim  # a rejected claim's locator may name another page than it cites
        boxes = documents.boxes(*where, claim.excerpt, claim.locator)
        update: dict[str, Locator] = {"locator": _with(claim.locator, boxes)}
        context = claim.context_locator
        if claim.context and context is not None and context.page in (None, where[1]):
            update["context_locator"] = _with(
                context, documents.boxes(*where, claim.context, context)
            )
        return claim.model_copy(update=update)

    def _crop(self, claim: Claim, documents: _Documents) -> bytes | None:
        located = self._located(claim, documents)
        where = self._document(located)
        if where is None or located.locator is None or not located.locator.boxes:
            return None
        context = located.context_locator
        context_boxes = context.boxes if context is not None else []
        document = documents.open(where[0])
        if document is None or not 1 <= where[1] <= len(document):
            return None
        try:
            with open_text_page(document, where[1]) as text_page:
                lines = text_lines(text_page)
            return render_crop(document, where[1], located.locator.boxes, context_boxes, lines)
        except pypdfium2.PdfiumError:
            return None


def crop_png(claim: Claim, library: Library) -> bytes | None:
    """The page of `library` that `claim` cites, cut around its excerpt with the excerpt
    highlighted (and its context, if any, in green), as PNG bytes; None for claims that are
    not verified, on web pages or on anything that is not a PDF of `library`, or whose
    excerpt is not on the page.

    It reads the PDF with pdfium (about 0.1 s a crop), which is not thread-safe: no two
    pdfium calls may run at once in a process, even on different documents
    (https://pypdfium2-team.github.io/pypdfium2/python_api.html). Call it on the thread
    that does the process's other PDF work (a library parses PDFs in-thread when a text is
    not cached), or in another process; not from a thread pool beside it.
    """
    return LibraryPageEvidence(library).crop_png(claim)


class _Documents:
    """The PDFs opened while boxing or cropping one report, each opened once."""

    def __init__(self) -> None:
        self._stack = ExitStack()
        self._open: dict[Path, pypdfium2.PdfDocument | None] = {}

    def __enter__(self) -> _Documents:
        return self

    def __exit__(self, *_: object) -> None:
        self._stack.close()

    def open(self, path: Path) -> pypdfium2.PdfDocument | None:
        if path not in self._open:
            try:
                document = pypdfium2.PdfDocument(path)
            except (pypdfium2.PdfiumError, OSError):
                self._open[path] = None
            else:
                self._stack.callback(document.close)
                self._open[path] = document
        return self._open[path]

    def boxes(self, path: Path, page: int, quoted: str, locator: Locator) -> list[Box]:
        """The boxes of `quoted` on `page`, its locator's offsets tried first."""
        if locator.boxes:
            return list(locator.boxes)
        document = self.open(path)
        if document is None or not 1 <= page <= len(document):
            return []
        try:
            with open_text_page(document, page) as text_page:
                return span_boxes(text_page, quoted, (locator.char_start, locator.char_end))
        except pypdfium2.PdfiumError:
            return []


def _with(locator: Locator, boxes: list[Box]) -> Locator:
    return locator.model_copy(update={"boxes": boxes})


def _canonical(url: str) -> str:
    """`file://` URLs in one spelling (unescaped, resolved); other URLs as they are."""
    parsed = urlparse(url)
    if parsed.scheme != "file" or not parsed.path:
        return url
    return Path(unquote(parsed.path)).resolve().as_uri()
