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
