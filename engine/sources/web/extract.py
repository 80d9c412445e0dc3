"""From a response body to text, by content type: the main text of HTML (with its title and
date), PDF text per page, plain text and Markdown verbatim. Anything else is refused.

Parsing reuses the library's readers, so a web page and a library file of the same kind give
the same text. Page text is data: nothing here follows links, refreshes or scripts.

A large body costs seconds of extraction; the fetcher runs it in a child process a cancel
kills (`isolation.py`), so the whole page is read and Ctrl-C still stops at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

import trafilatura

from engine.documents.html_text import html_main_text, html_title
from engine.documents.parse import (
    KIND_BY_CONTENT_TYPE,
    OFFICE_KINDS,
    UnreadableFile,
    markdown_title,
    parse_office,
    parse_pdf,
)
from engine.sources.protocols import FetchError
from engine.sources.web.charset import decode_body

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
PDF_TYPES = frozenset({"application/pdf", "application/x-pdf"})
MARKDOWN_TYPES = frozenset({"text/markdown", "text/x-markdown"})
PLAIN_TYPES = frozenset({"text/plain"})
# Servers send files they know nothing about under these labels; a PDF among them is read.
UNLABELLED_TYPES = frozenset(
    {"", "application/octet-stream", "binary/octet-stream", "application/x-download"}
)
OFFICE_TYPES = {  # DOCX, PPTX, XLSX, read as a library reads them (`engine.documents.office`)
    mime: kind for mime, kind in KIND_BY_CONTENT_TYPE.items() if kind in OFFICE_KINDS
}
READABLE_TYPES = HTML_TYPES | PDF_TYPES | MARKDOWN_TYPES | PLAIN_TYPES | frozenset(OFFICE_TYPES)


@dataclass(frozen=True)
class ContentType:
    mime: str
    charset: str | None = None

    @classmethod
    def parse(cls, header: str | None) -> ContentType:
        """`text/html; charset="ISO-8859-1"` -> ContentType("text/html", "ISO-8859-1")."""
        mime, _, parameters = (header or "").partition(";")
        charset = None
        for parameter in parameters.split(";"):
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "charset":
                charset = value.strip().strip("\"'") or None
        return cls(mime.strip().lower(), charset)


@dataclass(frozen=True)
class Extracted:
    content_type: str
    text: str
    title: str = ""
    pages: tuple[str, ...] | None = None
    published: str = ""
    ocr_pages: frozenset[int] = frozenset()
    """The pages (1-based) whose text OCR read."""


def type_refusal(content_type: ContentType) -> str | None:
    """Why a body of this type is not worth downloading, or None when it may hold text."""
    if content_type.mime in READABLE_TYPES or content_type.mime in UNLABELLED_TYPES:
        return None
    return f"unsupported content type {content_type.mime}: only HTML, PDF, text and Markdown"


def extract(body: bytes, content_type: ContentType, url: str) -> Extracted:
    """The text of `body`, or FetchError with the reason it has none."""
    mime = content_type.mime
    if mime in UNLABELLED_TYPES:
        if not body.startswith(b"%PDF-"):
            raise FetchError(f"unsupported content type {mime or '(none)'}: binary data")
        mime = "application/pdf"
    refusal = type_refusal(ContentType(mime))
    if refusal is not None:
        raise FetchError(refusal)
    try:
        extracted = _extract(body, mime, content_type.charset, url)
    except (FetchError, UnreadableFile) as error:
        raise FetchError(str(error)) from None
    # Hostile bodies reach lxml, trafilatura and pdfium; a parser crash is this page's problem.
    except Exception as error:
        raise FetchError(f"could not extract text ({type(error).__name__}: {error})") from error
    if not extracted.text.strip():
        raise FetchError("no text in the PDF (scanned?)" if extracted.pages else "no text on page")
    return extracted


def _extract(body: bytes, mime: str, charset: str | None, url: str) -> Extracted:
    if mime in OFFICE_TYPES:
        office = parse_office(body, OFFICE_TYPES[mime])
        pages = office.texts if office.is_paged else None
        title = office.title or _file_name(url)
        return Extracted(mime, "\n\n".join(office.texts), title, pages)
    if mime in PDF_TYPES:
        parsed = parse_pdf(body)  # under the process's pdfium lock, as every pdfium call
        ocr = frozenset(index + 1 for index in parsed.ocr_pages)
        text = "\n\n".join(parsed.texts)
        return Extracted(mime, text, _file_name(url), parsed.texts, ocr_pages=ocr)
    if mime in HTML_TYPES:
        markup = decode_body(body, charset, html=True)
        title, published = _metadata(markup)
        return Extracted(mime, html_main_text(markup), html_title(markup) or title, None, published)
    if b"\x00" in body and not body.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FetchError(f"binary data sent as {mime}")
    text = decode_body(body, charset, html=False)
    return Extracted(mime, text, markdown_title(text) if mime in MARKDOWN_TYPES else "")


def _metadata(markup: str) -> tuple[str, str]:
    """Title and date as trafilatura reads them; ("", "") when it cannot.

    Not `extensive`: that search runs dateparser over the text, seconds per page, to guess
    dates the page does not state in its markup.
    """
    try:
        document = trafilatura.extract_metadata(markup, extensive=False)
        return str(document.title or ""), str(document.date or "")
    except Exception:
        return "", ""


def _file_name(url: str) -> str:
    return unquote(PurePosixPath(urlsplit(url).path).name)
