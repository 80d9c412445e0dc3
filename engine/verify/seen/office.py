"""The Office seer (method "office"): a DOCX, PPTX or XLSX rendered by LibreOffice, then seen
as a PDF.

LibreOffice lays the file out as it prints (`soffice --headless --convert-to pdf`): hidden
text, tracked deletions, comments, hidden slides, shapes off the slide, hidden rows and
columns, very hidden sheets are not drawn; text boxes, headers and footers are. Each
conversion runs with a private profile (`-env:UserInstallation`, one per process: two
conversions at once would fight over one), under `CONVERT_TIMEOUT_SECONDS`, one at a time in
the process, and its PDF is kept by the file's SHA-256 under `$FONTE_CACHE_DIR/office-pdfs`,
so a file is converted once.

The cited page maps onto the PDF: slide N is PDF page N (looked for on every page when
LibreOffice left a hidden slide out before it); a sheet may span several PDF pages and a
DOCX is one text, so their excerpt is looked for on every page (`PdfSeer`, page None).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
import threading
import zipfile
from pathlib import Path

from engine.disk import write_atomically
from engine.documents.children import run_child
from engine.sources.library.cache import default_cache_dir
from engine.verify.seen.memo import FileShas
from engine.verify.seen.pdf_seer import PdfSeer
from engine.verify.seen.protocol import Sight

OFFICE_METHOD = "office"
SOFFICE = "soffice"
CONVERT_TIMEOUT_SECONDS = 120.0
_DELETION = re.compile(rb"<w:(del|moveFrom)\b[^>]*/>|<w:(del|moveFrom)\b[^>]*>.*?</w:\2>", re.S)
MAX_COLUMN_WIDTH = 120
"""Characters: a column widened to show its longest value stops here."""
_CONVERTING = threading.Lock()


def pdf_command(executable: str, document: Path, folder: Path, profile: Path) -> list[str]:
    """LibreOffice (`executable`) printing `document` to `folder` as PDF (same name, .pdf),
    headless, with the user profile at `profile`: one per process, as two conversions at once
    on one profile fight over it."""
    return [
        executable,
        f"-env:UserInstallation={profile.as_uri()}",
        "--headless",
        "--norestore",
        "--convert-to",
        "pdf",
        "--outdir",
        str(folder),
        str(document),
    ]


def widened(document: Path, target: Path) -> None:
    """The workbook at `document` saved to `target` with each shown column as wide as its
    longest value: a spreadsheet's reader sees a cell whole (it overflows on screen, or they
    widen it), while a print cuts it at the column's edge ("Bahia, usin", "###"). Hidden
    columns, rows and sheets stay hidden; nothing else changes. A workbook openpyxl cannot
    read is copied as it is."""
    import openpyxl  # loads only when a workbook is seen
    from openpyxl.utils import get_column_letter

    try:
        book = openpyxl.load_workbook(document)
    except Exception:  # any unreadable workbook: LibreOffice gets it as it came
        shutil.copyfile(document, target)
        return
    for sheet in book.worksheets:
        for cells in sheet.iter_cols():
            letter = get_column_letter(cells[0].column)
            if sheet.column_dimensions[letter].hidden:
                continue
            longest = max(
                (len(str(cell.value)) for cell in cells if cell.value is not None), default=0
            )
            if longest:
                sheet.column_dimensions[letter].width = min(MAX_COLUMN_WIDTH, longest + 4)
    book.save(target)


def without_deletions(document: Path, target: Path) -> None:
    """The DOCX at `document` saved to `target` without its tracked deletions (`w:del`,
    `w:moveFrom`): Word shows a document as its changes leave it, while LibreOffice prints
    deleted text struck through, which OCR reads as if it stood. A file that is no DOCX
    is copied as it is."""
    try:
        with zipfile.ZipFile(document) as source, zipfile.ZipFile(target, "w") as out:
            for item in source.infolist():
                data = source.read(item)
                if item.filename.startswith("word/") and item.filename.endswith(".xml"):
                    data = _DELETION.sub(b"", data)
                out.writestr(item, data)
    except (zipfile.BadZipFile, OSError):
        shutil.copyfile(document, target)


def default_office_dir() -> Path:
    """`$FONTE_CACHE_DIR/office-pdfs`, else `~/.cache/fonte/office-pdfs`."""
    return default_cache_dir() / "office-pdfs"


class OfficeSeer:
    """A `Seer` of Office files: rendered to PDF by LibreOffice, read back by `pdf`."""

    method = OFFICE_METHOD

    def __init__(
        self,
        pdf: PdfSeer,
        folder: Path | None = None,
        timeout: float = CONVERT_TIMEOUT_SECONDS,
    ) -> None:
        self._pdf = pdf
        self._folder = folder if folder is not None else default_office_dir()
        self._timeout = timeout
        self._shas = FileShas()

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        rendered = await asyncio.to_thread(self.rendered, document)
        if rendered is None:
            reason = "not checked as a reader sees it: LibreOffice cannot render it"
            return Sight(False, reason, OFFICE_METHOD)
        slides = document.suffix.lower() == ".pptx"
        sight = await self._seen(rendered, page if slides else None, excerpt)
        if slides and page is not None and not sight.seen:
            sight = await self._seen(rendered, None, excerpt)
        return Sight(sight.seen, sight.reason, OFFICE_METHOD, sight.seconds)

    async def _seen(self, rendered: Path, page: int | None, excerpt: str) -> Sight:
        return (await asyncio.to_thread(self._pdf.see, rendered, page, [excerpt]))[0]

    def rendered(self, document: Path) -> Path | None:
        """The PDF LibreOffice prints of `document`, converted once per file content; None
        without LibreOffice, or when it fails or times out."""
        executable = shutil.which(SOFFICE)
        if executable is None:
            return None
        sha = self._shas.sha(document)
        target = self._folder / f"{sha}.pdf"
        with _CONVERTING:
            if target.exists():
                return target
            with tempfile.TemporaryDirectory(prefix="fonte-office-") as work:
                source = Path(work) / f"{sha}{document.suffix.lower()}"
                if source.suffix == ".xlsx":
                    widened(document, source)
                elif source.suffix == ".docx":
                    without_deletions(document, source)
                else:
                    shutil.copyfile(document, source)
                profile = Path(tempfile.gettempdir()) / f"fonte-soffice-profile-{os.getpid()}"
                command = pdf_command(executable, source, Path(work), profile)
                if run_child(command, timeout=self._timeout) is None:  # a stop kills it
                    return None
                printed = Path(work) / f"{sha}.pdf"
                if not printed.exists():
                    return None
                write_atomically(target, printed.read_bytes())
        return target
