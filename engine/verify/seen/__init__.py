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
- `build`: `default_seers` and `seen_check`, as the entry points build the check; each
  seer is made when its kind is first seen (`OnFirstSight`), so text imports no renderer.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
