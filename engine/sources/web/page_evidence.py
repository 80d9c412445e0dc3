"""Where a claim's excerpt sits on a PDF fetched from the web: boxes and a highlighted crop.

`WebPageEvidence` is the `engine.render.PageEvidence` of a report whose sources are the web.
It draws from the PDFs the caching fetcher kept (`kept_pdfs.py`) exactly as a library draws
from its files (`engine.sources.library.page_evidence`): boxes and crops only for verified
cited claims whose excerpt is found on the cited page. Claims on HTML and text pages, on
PDFs read before their bytes were kept or too large to keep, and on a kept file pdfium
cannot read stay text-only, and nothing fails.
"""

from __future__ import annotations

from engine.sources.library.deadline import Deadline
from engine.sources.library.page_evidence import PdfPageEvidence
from engine.sources.web.kept_pdfs import PdfStore


class WebPageEvidence(PdfPageEvidence):
    """Boxes and crops for the claims of a report on the PDFs `pdfs` kept (a
    `DiskSnapshotStore`, or `CachingFetcher.pdfs` whatever its store); like every use of
    pdfium, under the process's pdfium lock. `deadline`, the run's time cap, holds while a
    cited scanned page is read again by OCR for its highlight, as for a library's."""

    def __init__(self, pdfs: PdfStore, deadline: Deadline | None = None) -> None:
        super().__init__(pdfs.pdf, deadline)
