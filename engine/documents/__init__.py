"""Documents as a reader sees them: a file's or a fetched body's pages of visible text.

`parse` reads PDF, HTML, Markdown and text into pages (`ParsedFile`); `pdf_text` and
`pdf_objects` keep only the PDF text a reader sees (no white-on-white, clipped, covered or
off-page text), `ocr` reads the pages without a text layer (Tesseract), `visible_html` and
`html_text` do the same for HTML. Both the library
(`engine.sources.library`) and the web reader (`engine.sources.web`) read through here, so a
page reads the same whichever way it arrived.
"""

from engine.documents.children import stop_children
from engine.documents.html_text import html_main_text, html_title
from engine.documents.ocr import OCR_DPI, ocr_available, ocr_languages, read_image, render_page
from engine.documents.parse import (
    CONTENT_TYPE_BY_KIND,
    KIND_BY_SUFFIX,
    PARSER_VERSION,
    DocumentKind,
    ParsedFile,
    UnreadableFile,
    kind_of,
    markdown_title,
    over_limits,
    parse_file,
    parse_file_or_reason,
    parse_pdf,
    parse_text_bytes,
)

__all__ = [
    "CONTENT_TYPE_BY_KIND",
    "KIND_BY_SUFFIX",
    "OCR_DPI",
    "PARSER_VERSION",
    "DocumentKind",
    "ParsedFile",
    "UnreadableFile",
    "html_main_text",
    "html_title",
    "kind_of",
    "markdown_title",
    "ocr_available",
    "ocr_languages",
    "over_limits",
    "parse_file",
    "parse_file_or_reason",
    "parse_pdf",
    "parse_text_bytes",
    "read_image",
    "render_page",
    "stop_children",
]
