"""The seen check: each excerpt read back from its page as rendered for a reader.

- `protocol`: the contract, `Sight` (what a reader sees of one excerpt) and `Seer`.
- `dispatch`: `SeenDispatcher`, the seer of each kind of document (text formats are
  what they show; a kind without a seer fails closed).
- `check`: `SeenCheck`, the `Seeing` of the verification path: a verified claim's excerpt
  and context read back from its original, or the claim rejected, "not what the page
  shows"; `SeenLog` counts what it did.
- `pdf`: `PdfSeer`, the excerpt's boxes rendered by pdfium and read by Tesseract;
  `agreement` compares what was read with the excerpt (words within OCR noise, numbers
  exactly); `cache` keeps renders and readings per (document SHA-256, page).
- `office`: `OfficeSeer`, a DOCX, PPTX or XLSX rendered by LibreOffice, seen as a PDF.
- `html`: `BrowserSeer`, an HTML page laid out in headless Chromium and its excerpt read
  back from the rendered text and pixels (`browser/` holds its parts).
- `build`: `default_seers` and `seen_check`, as the entry points build the check.
"""

from engine.verify.seen.agreement import disagreement
from engine.verify.seen.browser import FolderResources, Resources
from engine.verify.seen.browser_seer import BrowserSeer
from engine.verify.seen.build import SHARED_BROWSER, SHARED_LOG, default_seers, seen_check
from engine.verify.seen.check import NOT_SEEN, RENDERED, SeenCheck, SeenLog, kind_of_page
from engine.verify.seen.dispatch import SHOWN_AS_TEXT, SeenDispatcher, document_kind, not_checked
from engine.verify.seen.office import OfficeSeer
from engine.verify.seen.pdf_seer import SHARED_CACHE, PdfSeer, SightCache
from engine.verify.seen.protocol import Seer, Sight

__all__ = [
    "NOT_SEEN",
    "RENDERED",
    "SHARED_BROWSER",
    "SHARED_CACHE",
    "SHARED_LOG",
    "SHOWN_AS_TEXT",
    "BrowserSeer",
    "FolderResources",
    "OfficeSeer",
    "PdfSeer",
    "Resources",
    "SeenCheck",
    "SeenDispatcher",
    "SeenLog",
    "Seer",
    "Sight",
    "SightCache",
    "default_seers",
    "disagreement",
    "document_kind",
    "kind_of_page",
    "not_checked",
    "seen_check",
]
