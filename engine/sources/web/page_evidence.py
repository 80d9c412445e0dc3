"""Where a claim's excerpt sits on a PDF fetched from the web: boxes and a highlighted crop.

`WebPageEvidence` is the `engine.render.PageEvidence` of a report whose sources are the web.
It draws from the PDFs the caching fetcher kept (`kept_pdfs.py`) exactly as a library draws
from its files (`engine.sources.library.page_evidence`): boxes and crops only for verified
cited claims whose excerpt is found on the cited page. Claims on HTML and text pages, on
PDFs read before their bytes were kept or too large to keep, and on a kept file pdfium
cannot read stay text-only, and nothing fails.
"""

from __future__ import annotations

from engine.contracts import Claim, Report
from engine.sources.library.page_evidence import PdfPageEvidence
from engine.sources.web.extract import PDFIUM_LOCK
from engine.sources.web.kept_pdfs import PdfStore


class WebPageEvidence:
    """Boxes and crops for the claims of a report on the PDFs `pdfs` kept (a
    `DiskSnapshotStore`, or `CachingFetcher.pdfs` whatever its store).

    Each call holds the lock web extraction holds around pdfium, so it may run while
    fetches of other reports parse PDFs in worker threads."""

    def __init__(self, pdfs: PdfStore) -> None:
        self._pages = PdfPageEvidence(pdfs.pdf)

    def with_boxes(self, report: Report) -> Report:
        """`report` with the boxes of every cited claim's excerpt (and context) on its page."""
        with PDFIUM_LOCK:
            return self._pages.with_boxes(report)

    def crops(self, report: Report) -> dict[str, bytes]:
        """A PNG crop of the page for every cited claim that has one, by claim id."""
        with PDFIUM_LOCK:
            return self._pages.crops(report)

    def crop_png(self, claim: Claim) -> bytes | None:
        """The page around `claim`'s excerpt, highlighted, as PNG; None if there is none."""
        with PDFIUM_LOCK:
            return self._pages.crop_png(claim)
