"""Where a claim's excerpt sits on a PDF page: its boxes, and a highlighted crop of the page.

`PdfPageEvidence` is what a report writer is handed when some of the report's sources are
PDFs it can open again (`engine.render.PageEvidence`): it fills the cited claims' locators
with boxes and renders one crop per cited claim. Where the PDFs come from is a function of
the cited URL (without `#page`) to a file or to the PDF's bytes: `LibraryPageEvidence` finds
the files of a library, the web source (`engine.sources.web`) the bytes it kept of the PDFs
it fetched. `crop_png` is the same crop for one claim, for any display that shows a single
excerpt (the Slack excerpt view).

Claims that are not verified, on unpaged documents, on PDFs that cannot be found, or whose
excerpt is no longer on the cited page get no boxes and no crop: nothing fails, the evidence
stays text-only. pdfium errors on one document are contained the same way.

A page OCR read (the claim says `read_by="ocr"`, or the page shows no text and draws an
image, `ocr.wants_ocr`) has no characters for pdfium to box: it is read by OCR again, once
per page and call, and the excerpt is boxed from the words OCR found (`page_boxes`), so its
crop shows the image region, highlighted like a text page's. OCR takes seconds a page; it
runs outside the pdfium lock, and callers keep all of this off the event loop (the bot in a
thread, `bot.conversation.page_evidence`; `fonte ask` renders after its event loop ends).
pdfium, OCR and the page boxes are imported when a cited PDF is opened, so a report on
Markdown or text alone does not load them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from engine.contracts import Claim, ClaimStatus, Locator, Report
from engine.documents.children import stopping
from engine.documents.parse import PDFIUM_LOCK
from engine.snapshots import split_page
from engine.sources.library.deadline import Deadline, passed
from engine.sources.library.folder import Library
from engine.words import words_for

if TYPE_CHECKING:
    import pypdfium2

    from engine.documents.layout import Box
    from engine.documents.ocr import OcrPage

_REPORTS_KEPT = 4
"""How many reports' scans an evidence keeps between their boxes and their crops."""

FindPdf = Callable[[str], Path | bytes | None]
"""The PDF a URL (without `#page`) names, as a file or as its bytes; None when there is none."""


class PdfPageEvidence:
    """Boxes and crops for the claims of a report on the PDFs `find_pdf` gives, by URL.

    Every pdfium call holds the process's pdfium lock (`parse.PDFIUM_LOCK`), so any thread
    may call them while other threads parse PDFs; OCR reads a page outside it."""

    def __init__(self, find_pdf: FindPdf, deadline: Deadline | None = None) -> None:
        self._find_pdf = find_pdf
        self.deadline = deadline
        """The run's time cap: past it no page is read by OCR again (its crop goes without
        its highlight, and the report says how many), and a page being read stops there."""
        self._scans: OrderedDict[tuple[str, datetime], _Scans] = OrderedDict()
        self._lock = threading.Lock()

    def _documents(self, report: Report | None = None) -> _Documents:
        return _Documents(self._find_pdf, self._scans_of(report), self.deadline)

    def _scans_of(self, report: Report | None) -> _Scans:
        """The scans read for `report`'s boxes, reused for its crops (the last few reports
        only); a fresh one for a single crop."""
        if report is None:
            return _Scans()
        key = (report.question, report.created_at)
        with self._lock:
            scans = self._scans.pop(key, None) or _Scans()
            self._scans[key] = scans
            while len(self._scans) > _REPORTS_KEPT:
                self._scans.popitem(last=False)
        return scans

    def with_boxes(self, report: Report) -> Report:
        """`report` with the boxes of every cited claim's excerpt (and context) on its page;
        a note says how many scanned pages the time cap left without them."""
        cited = set(report.cited_claim_ids())
        scans = self._scans_of(report)
        with _Documents(self._find_pdf, scans, self.deadline) as documents:
            claims = [
                _located(claim, documents) if claim.id in cited else claim
                for claim in report.claims
            ]
        located = report.model_copy(update={"claims": claims})
        if not scans.past_cap:
            return located
        note = words_for(report.language).report.scans_past_cap.format(
            count=len(scans.past_cap), total=len(scans.wanted)
        )
        return located.model_copy(update={"notes": [*located.notes, note]})

    def crops(self, report: Report) -> dict[str, bytes]:
        """A PNG crop of the page for every cited claim that has one, by claim id."""
        found: dict[str, bytes] = {}
        with self._documents(report) as documents:
            for claim_id in dict.fromkeys(report.cited_claim_ids()):
                png = _crop(report.claim(claim_id), documents)
                if png is not None:
                    found[claim_id] = png
        return found

    def crop_png(self, claim: Claim) -> bytes | None:
        """The page around `claim`'s excerpt, highlighted, as PNG; None if there is none."""
        with self._documents() as documents:
            return _crop(claim, documents)


class LibraryPageEvidence(PdfPageEvidence):
    """Boxes and crops for the claims of a report whose sources are `library`."""

    def __init__(self, library: Library, deadline: Deadline | None = None) -> None:
        super().__init__(library.pdf_path, deadline)
        self._library = library

    def with_boxes(self, report: Report) -> Report:
        """As for any PDFs; and a note when cited PDFs are not on this host (a library read
        from the shared store): their pages are cited as ever, without a crop."""
        located = super().with_boxes(report)
        if not self._library.from_store:
            return located
        cited = {split_page(report.claim(cid).url)[0] for cid in report.cited_claim_ids()}
        absent = [url for url in cited if _not_here(self._library.pdf_path(url))]
        if not absent:
            return located
        note = words_for(report.language).report.pdfs_not_here.format(count=len(absent))
        return located.model_copy(update={"notes": [*located.notes, note]})


def _not_here(path: Path | None) -> bool:
    return path is not None and not path.is_file()


def crop_png(claim: Claim, library: Library) -> bytes | None:
    """The page of `library` that `claim` cites, cut around its excerpt with the excerpt
    highlighted (and its context, if any, in green), as PNG bytes; None for claims that are
    not verified, on web pages or on anything that is not a PDF of `library`, or whose
    excerpt is not on the page.

    It reads the PDF with pdfium (about 0.1 s a crop) under the process's pdfium lock
    (`parse.PDFIUM_LOCK`), so any thread may call it; a page OCR read is read again by OCR
    (seconds), so call it off the event loop.
    """
    return LibraryPageEvidence(library).crop_png(claim)


def _page_of(claim: Claim, documents: _Documents) -> tuple[pypdfium2.PdfDocument, int] | None:
    """The opened PDF `claim` cites and its page number; None if it is not a PDF at hand."""
    base, page = split_page(claim.url)
    if claim.locator is not None and claim.locator.page is not None:
        page = claim.locator.page
    if page is None:
        return None
    document = documents.open(base)
    return None if document is None else (document, page)


def _located(claim: Claim, documents: _Documents) -> Claim:
    if claim.locator is None or claim.status is not ClaimStatus.verified:
        return claim  # a rejected claim's locator may name another page than it cites
    where = _page_of(claim, documents)
    if where is None:
        return claim
    document, page = where
    boxes = _boxes(documents, claim, document, page, claim.excerpt, claim.locator)
    update: dict[str, Locator] = {"locator": _with(claim.locator, boxes)}
    context = claim.context_locator
    if claim.context and context is not None and context.page in (None, page):
        context_boxes = _boxes(documents, claim, document, page, claim.context, context)
        update["context_locator"] = _with(context, context_boxes)
    return claim.model_copy(update=update)


def _crop(claim: Claim, documents: _Documents) -> bytes | None:
    # PIL is imported by the first crop (a claim on a PDF page), not by a library of text.
    import pypdfium2

    from engine.sources.library.page_boxes import ocr_lines, open_text_page, text_lines
    from engine.sources.library.page_crops import render_crop

    located = _located(claim, documents)
    if located.locator is None or not located.locator.boxes:
        return None
    where = _page_of(located, documents)
    if where is None:
        return None
    document, page = where
    context = located.context_locator
    context_boxes = context.boxes if context is not None else []
    try:
        scan = documents.scan(located, document, page)
        with PDFIUM_LOCK:
            if not 1 <= page <= len(document):
                return None
            if scan is not None:
                lines = ocr_lines(scan)
            else:
                with open_text_page(document, page) as text_page:
                    lines = text_lines(text_page)
            return render_crop(document, page, located.locator.boxes, context_boxes, lines)
    except pypdfium2.PdfiumError:
        return None


def _boxes(
    documents: _Documents,
    claim: Claim,
    document: pypdfium2.PdfDocument,
    page: int,
    quoted: str,
    locator: Locator,
) -> list[Box]:
    """The boxes of `quoted` on `page`, its locator's offsets tried first: from pdfium's
    characters, or from the words OCR read on a page OCR read."""
    if locator.boxes:
        return list(locator.boxes)
    import pypdfium2

    from engine.sources.library.page_boxes import ocr_span_boxes, open_text_page, span_boxes

    hint = (locator.char_start, locator.char_end)
    try:
        scan = documents.scan(claim, document, page)
        if scan is not None:
            return ocr_span_boxes(scan, quoted, hint)
        with PDFIUM_LOCK:
            if not 1 <= page <= len(document):
                return []
            with open_text_page(document, page) as text_page:
                return span_boxes(text_page, quoted, hint)
    except pypdfium2.PdfiumError:
        return []


@dataclass
class _Scans:
    """What OCR read on the scanned pages of one evidence's reports, by document URL and
    page: read once for the boxes and the crops alike (seconds a page)."""

    read: dict[tuple[str, int], OcrPage | None] = field(default_factory=dict)
    wanted: set[tuple[str, int]] = field(default_factory=set)
    past_cap: set[tuple[str, int]] = field(default_factory=set)
    """The pages the time cap left unread."""


class _Documents:
    """The PDFs opened while boxing or cropping one report, each found and opened once."""

    def __init__(self, find_pdf: FindPdf, scans: _Scans, deadline: Deadline | None) -> None:
        self._find_pdf = find_pdf
        self._stack = ExitStack()
        self._open: dict[str, pypdfium2.PdfDocument | None] = {}
        self._scans = scans
        self._deadline = deadline
        self._wants: dict[tuple[int, int], bool] = {}

    def __enter__(self) -> _Documents:
        return self

    def __exit__(self, *_: object) -> None:
        with PDFIUM_LOCK:
            self._stack.close()

    def scan(self, claim: Claim, document: pypdfium2.PdfDocument, page: int) -> OcrPage | None:
        """What OCR reads on `page` of `document` when it is a page OCR read (`claim` says
        so, or the page shows no text, `ocr.wants_ocr`), read once per page; None for a
        page with a text layer, or when OCR reads nothing (no Tesseract)."""
        if claim.read_by != "ocr" and not self._wants_ocr((id(document), page), document, page):
            return None
        key = (split_page(claim.url)[0], page)
        self._scans.wanted.add(key)
        if key not in self._scans.read:
            if passed(self._deadline) or stopping():
                self._scans.past_cap.add(key)
                return None
            from engine.documents.ocr import OCR_TIMEOUT_SECONDS
            from engine.sources.library.page_boxes import read_page_by_ocr

            timeout = OCR_TIMEOUT_SECONDS
            if self._deadline is not None:  # a page being read stops at the cap too
                timeout = min(timeout, max(self._deadline.remaining(), 0.1))
            found = read_page_by_ocr(document, page, timeout)
            if found is None and passed(self._deadline):
                self._scans.past_cap.add(key)
                return None
            self._scans.read[key] = found
        return self._scans.read[key]

    def _wants_ocr(self, key: tuple[int, int], document: pypdfium2.PdfDocument, page: int) -> bool:
        if key not in self._wants:
            from engine.sources.library.page_boxes import page_wants_ocr

            with PDFIUM_LOCK:
                self._wants[key] = page_wants_ocr(document, page)
        return self._wants[key]

    def open(self, url: str) -> pypdfium2.PdfDocument | None:
        if url not in self._open:
            self._open[url] = self._opened(url)
        return self._open[url]

    def _opened(self, url: str) -> pypdfium2.PdfDocument | None:
        source = self._find_pdf(url)
        if source is None:
            return None
        import pypdfium2  # the first PDF a report cites

        with PDFIUM_LOCK:
            try:
                document = pypdfium2.PdfDocument(source)
            except (pypdfium2.PdfiumError, OSError):
                return None
        self._stack.callback(document.close)
        return document


def _with(locator: Locator, boxes: list[Box]) -> Locator:
    return locator.model_copy(update={"boxes": boxes})
