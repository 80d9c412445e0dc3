"""Reading one library file into text: PDF pages, HTML main text, Markdown and plain text,
Office files (a DOCX's text, a PPTX's slides, an XLSX's sheets: `engine.documents.office`).

A file that cannot be read raises `UnreadableFile` with a short reason; the caller skips it
with a warning. Markdown is kept verbatim (markers included): excerpts are verified against
this very text.
"""

from __future__ import annotations

import codecs
import re
import threading
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from engine.documents import office
from engine.documents.limits import OverLimit, check_package
from engine.errors import SourceError
from engine.text.confusables import without_invisible_controls
from engine.text.normalise import collapse_whitespace

if TYPE_CHECKING:  # pure geometry on numpy, which a text file's reading never needs
    from engine.documents.page_blocks import PageBlock


class DocumentKind(StrEnum):
    pdf = "pdf"
    html = "html"
    markdown = "markdown"
    text = "text"
    docx = "docx"
    pptx = "pptx"
    xlsx = "xlsx"


INLINE_BYTES = 1_000_000
"""A file or body up to this size is parsed where it is read (well under a second); a larger
one in a child process that a cancel, the time cap or a signal can kill (the web reader's
`isolation`, the library index's workers)."""
OFFICE_KINDS = frozenset({DocumentKind.docx, DocumentKind.pptx, DocumentKind.xlsx})
PAGED_KINDS = frozenset({DocumentKind.pdf, DocumentKind.pptx, DocumentKind.xlsx})
"""Kinds read as pages whatever their length: PDF pages, slides, sheets (`#page=N`)."""

KIND_BY_SUFFIX = {
    ".pdf": DocumentKind.pdf,
    ".html": DocumentKind.html,
    ".htm": DocumentKind.html,
    ".md": DocumentKind.markdown,
    ".txt": DocumentKind.text,
    ".docx": DocumentKind.docx,
    ".pptx": DocumentKind.pptx,
    ".xlsx": DocumentKind.xlsx,
}

CONTENT_TYPE_BY_KIND = {
    DocumentKind.pdf: "application/pdf",
    DocumentKind.html: "text/html",
    DocumentKind.markdown: "text/markdown",
    DocumentKind.text: "text/plain",
    DocumentKind.docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    DocumentKind.pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    DocumentKind.xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
KIND_BY_CONTENT_TYPE = {content_type: kind for kind, content_type in CONTENT_TYPE_BY_KIND.items()}

LARGE_TEXT_CHARS = 2_000_000
"""A Markdown or text file longer than this is read as pages (laws and reports are shorter)."""
TEXT_PAGE_CHARS = 200_000

# Bump when parsing output changes: cached texts from older parsers are then ignored.
PARSER_VERSION = 6  # 2: UTF-16/32 by their BOM, binary junk refused; 3: large texts paged
# 4: HTML read as shown, hidden elements dropped; 5: PDF text a reader sees only, zero-width
# and bidi controls removed; 6: PDF pages without a text layer read by OCR (`ocr_pages`)
# and prose columns read one after the other (`layout`)

CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_MARKDOWN_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_TITLE_MAX_CHARS = 200


class UnreadableFile(SourceError):
    """A library file yields no text; the message is the reason, in a few words."""


@dataclass(frozen=True)
class ParsedFile:
    """The text of one file: one entry per page for PDFs, a single entry otherwise.

    `title` is the title the file states itself ("" when it states none). `ocr_pages` are
    the indices of the pages whose text OCR read (`ocr.py`): a scan has no text layer.
    """

    kind: DocumentKind
    texts: tuple[str, ...]
    title: str = ""
    ocr_pages: frozenset[int] = frozenset()
    blocks: tuple[tuple[PageBlock, ...], ...] = ()
    """Each page's blocks in reading order (`layout`), their spans indexing its text: only
    when `parse_pdf` is asked for them; none for a page OCR read."""

    @property
    def is_paged(self) -> bool:
        """PDFs, decks (a page a slide) and workbooks (a page a sheet), and text files too
        large to read whole (cut into pages, see `text_pages`)."""
        return self.kind in PAGED_KINDS or len(self.texts) > 1


def kind_of(path: Path) -> DocumentKind | None:
    return KIND_BY_SUFFIX.get(path.suffix.lower())


def parse_file(path: Path) -> ParsedFile:
    """Read `path` (a supported suffix) into text, or raise `UnreadableFile`."""
    kind = kind_of(path)
    if kind is None:
        raise UnreadableFile(f"unsupported file type {path.suffix!r}")
    try:
        if path.stat().st_size == 0:
            raise UnreadableFile("empty file")
        if kind is DocumentKind.pdf:
            parsed = parse_pdf(path)
        else:
            parsed = parse_bytes(path.read_bytes(), kind)
    except OSError as error:
        raise UnreadableFile(f"cannot read ({error.strerror or error})") from error
    if not any(text.strip() for text in parsed.texts):
        from engine.documents.ocr import ocr_available

        scan = " (scanned PDF?)" if ocr_available() else " (scanned PDF? OCR needs tesseract)"
        raise UnreadableFile("no text in file" + (scan if parsed.is_paged else ""))
    return parsed


def parse_file_or_reason(path: str) -> ParsedFile | str:
    """`parse_file` for a process pool: failures come back as their reason, not raised."""
    try:
        return parse_file(Path(path))
    except UnreadableFile as error:
        return str(error)
    except MemoryError:  # the caller's to say (a worker's memory cap: too large)
        raise
    # Any file may be thrown at a parser (trafilatura, lxml, pdfium); a bad one must not
    # abort the whole library.
    except Exception as error:
        return f"parser error ({type(error).__name__}: {error})"


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF8, "utf-8"),
)
_BINARY_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]")
_SNIFF_CHARS = 65_536
BINARY_SHARE = 0.01
"""A text whose first characters hold more control characters than this share is binary:
prose and tables hold none but tabs and line breaks."""
BINARY_MIN_CONTROLS = 8  # a stray byte in a short legacy file is not binary


def decode_text(data: bytes) -> str:
    """Text by its byte-order mark (UTF-8, UTF-16, UTF-32), else UTF-8, else cp1252/latin-1
    for legacy files. Bytes with NULs outside a UTF-16/32 text, or whose decoding is full of
    control characters, are binary, not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as error:
                raise UnreadableFile(
                    f"not valid {encoding.upper()} text ({error.reason})"
                ) from None
            break
    else:
        if b"\x00" in data:
            raise UnreadableFile("binary content (NUL bytes), not text")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                text = data.decode("latin-1")
    sample = text[:_SNIFF_CHARS]
    if len(_BINARY_CONTROLS.findall(sample)) > max(BINARY_MIN_CONTROLS, BINARY_SHARE * len(sample)):
        raise UnreadableFile("binary content (control characters), not text")
    return without_invisible_controls(text.replace("\r\n", "\n").replace("\r", "\n"))


def markdown_title(text: str) -> str:
    """The first heading, else the first non-empty line, without markdown markers."""
    heading = _MARKDOWN_HEADING.search(text) if "#" in text else None  # (a scan of every line)
    line = heading.group(1) if heading else next((s for s in text.split("\n") if s.strip()), "")
    cleaned = _MARKDOWN_LINK.sub(r"\1", line).replace("*", "").replace("#", "")
    return collapse_whitespace(cleaned)[:_TITLE_MAX_CHARS]


def parse_bytes(data: bytes, kind: DocumentKind) -> ParsedFile:
    """The text of a file's bytes of any kind; raises `UnreadableFile`."""
    if kind is DocumentKind.pdf:
        return parse_pdf(data)
    if kind in OFFICE_KINDS:
        return parse_office(data, kind)
    return parse_text_bytes(data, kind)


def over_limits(data: bytes, kind: DocumentKind) -> str | None:
    """Why a file's bytes are refused before any reading (`limits`: an Office package's
    parts, a workbook's cells), in a few words; None when they are within the limits.
    Memory stays bounded whatever the file holds: parts inflate through a counter."""
    if kind not in OFFICE_KINDS:
        return None
    try:
        check_package(data)
        if kind is DocumentKind.xlsx:
            office.check_grid(data)
    except OverLimit as error:
        return str(error)
    except Exception:  # not a package at all: its reader says why
        return None
    return None


def parse_office(data: bytes, kind: DocumentKind) -> ParsedFile:
    """A DOCX as one text (paged only when large), a PPTX a page per slide, an XLSX a page
    per sheet (`engine.documents.office`); raises `UnreadableFile`, before anything is
    inflated for a package past the limits (`over_limits`)."""
    refused = over_limits(data, kind)
    if refused is not None:
        raise UnreadableFile(refused)
    try:
        if kind is DocumentKind.docx:
            text, title = office.read_docx(data)
            return ParsedFile(kind, text_pages(_clean_office_text(text)), title)
        if kind is DocumentKind.pptx:
            slides, title = office.read_pptx(data)
            return ParsedFile(kind, tuple(map(_clean_office_text, slides)), title)
        sheets, title = office.read_xlsx(data)
        return ParsedFile(kind, tuple(_clean_office_text(sheet.text) for sheet in sheets), title)
    except MemoryError:
        raise
    except OverLimit as error:  # the text read past `limits.MAX_TEXT_CHARS`
        raise UnreadableFile(str(error)) from None
    # Any file may be thrown at python-docx, python-pptx and openpyxl (a zip that is not a
    # package, a part missing, malformed XML): each is this file's problem only.
    except Exception as error:
        why = f"{type(error).__name__}: {error}"
        raise UnreadableFile(f"not a readable {kind.value.upper()} ({why})") from error


def _clean_office_text(text: str) -> str:
    return without_invisible_controls(CONTROL_CHARS.sub("", text.replace("\r", "\n")))


def parse_text_bytes(data: bytes, kind: DocumentKind) -> ParsedFile:
    """The text of an HTML, Markdown or text file's bytes; raises `UnreadableFile`."""
    text = decode_text(data)
    if kind is DocumentKind.html:
        from engine.documents.html_text import html_main_text, html_title

        return ParsedFile(kind, (html_main_text(text),), html_title(text))
    title = markdown_title(text) if kind is DocumentKind.markdown else ""
    return ParsedFile(kind, text_pages(text), title)


def text_pages(text: str) -> tuple[str, ...]:
    """A text as pages of about `TEXT_PAGE_CHARS`, cut at line ends; one page up to
    `LARGE_TEXT_CHARS`. A page is the unit a reader scores and the verifier normalises, so a
    200 MB text file costs what its hit pages cost, not what the file does."""
    if len(text) <= LARGE_TEXT_CHARS:
        return (text,)
    pages: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + TEXT_PAGE_CHARS)
        if end < len(text):
            line_end = text.rfind("\n", start, end)
            end = line_end + 1 if line_end > start else end
        pages.append(text[start:end])
        start = end
    return tuple(pages)


PDFIUM_LOCK = threading.RLock()
"""Held around every use of pdfium in the process: pdfium is not thread-safe, no two calls may
run at once even on different documents
(https://pypdfium2-team.github.io/pypdfium2/python_api.html), and text is parsed and pages are
cropped in worker threads (library reads, web extraction, page evidence, the bot). Reentrant,
so a holder may call another holder."""


def parse_pdf(source: Path | bytes, *, ocr: bool = True, blocks: bool = False) -> ParsedFile:
    """Text per page of a PDF file or of PDF bytes (a fetched document); a page without a
    text layer is read by OCR unless `ocr` is False (`pdf_reading`, which loads pdfium and
    the OCR helpers: imported here, when a PDF is read, not by every reader of text)."""
    from engine.documents.pdf_reading import read_pdf

    return read_pdf(source, ocr=ocr, blocks=blocks)
