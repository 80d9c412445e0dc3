"""Whether a shared file is one the research can read, from three witnesses that must
agree: its name's extension (what the library reads a kind from, engine.documents'
KIND_BY_SUFFIX), the mimetype Slack gives it in the file object, and its first bytes.

A name alone is a claim anybody can make (`report.pdf` that is an executable); the bytes
alone cannot tell Markdown from text. And the one body that passes for any text kind
is the one to fear most: Slack's login page, an HTML document answered with 200 instead of
the file when the token is not accepted (slackapi/bolt-js#2585, slackapi/node-slack-sdk#1750,
slack-go/slack#1284: "Browser not supported"). It is told apart here, for every kind.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import PurePosixPath

from engine.documents import KIND_BY_SUFFIX, DocumentKind

GENERIC_MIMETYPES = frozenset({"", "application/octet-stream", "binary/octet-stream"})
"""What a mimetype says when it says nothing: the extension and the bytes decide."""

MIMETYPES: dict[DocumentKind, frozenset[str]] = {
    DocumentKind.pdf: frozenset({"application/pdf", "application/x-pdf"}),
    DocumentKind.html: frozenset({"text/html", "application/xhtml+xml"}),
    # Slack types a .md upload "text/plain" (filetype "markdown") as often as "text/markdown".
    DocumentKind.markdown: frozenset({"text/markdown", "text/x-markdown", "text/plain"}),
    DocumentKind.text: frozenset({"text/plain"}),
    DocumentKind.docx: frozenset(
        {"application/vnd.openxmlformats-officedocument.wordprocessingml.document"}
    ),
    DocumentKind.pptx: frozenset(
        {"application/vnd.openxmlformats-officedocument.presentationml.presentation"}
    ),
    DocumentKind.xlsx: frozenset(
        {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
    ),
}
# The folder every Office Open XML package of that kind holds (ECMA-376 part 2).
OFFICE_PARTS = {DocumentKind.docx: "word/", DocumentKind.pptx: "ppt/", DocumentKind.xlsx: "xl/"}
TEXT_KINDS = frozenset({DocumentKind.html, DocumentKind.markdown, DocumentKind.text})

# Slack's sign-in page as reported in those threads: an HTML document of slack-edge assets,
# a "Browser not supported" page, or the "Found" body of a redirect to ?redir=/files-pri/.
_LOGIN_MARKERS = re.compile(
    rb"a\.slack-edge\.com|browser not supported|\?redir=%2Ffiles-pri|sign in to slack",
    re.IGNORECASE,
)
_HTML_START = re.compile(rb"^\s*(?:<!doctype html|<html|<head)", re.IGNORECASE)
_REDIRECT_BODY = re.compile(rb"^\s*<a href=\"[^\"]*\?redir=[^\"]*\">Found</a>", re.IGNORECASE)


def kind_of_name(name: str) -> DocumentKind | None:
    """The kind a file's name claims, None for one the research cannot read."""
    return KIND_BY_SUFFIX.get(PurePosixPath(name.lower()).suffix)


def mimetype_agrees(kind: DocumentKind, mimetype: str) -> bool:
    base = mimetype.split(";", 1)[0].strip().lower()
    return base in GENERIC_MIMETYPES or base in MIMETYPES[kind]


def looks_like_login_page(content: bytes, kind: DocumentKind | None) -> bool:
    """Whether `content` is Slack's sign-in page (or the body of its redirect) rather than
    the file. A document of any kind but HTML that opens as HTML is one; an HTML file is one
    only when it carries the page's marks."""
    head = content[:4096]
    if _REDIRECT_BODY.match(head):
        return True
    if not _HTML_START.match(head):
        return False
    return kind is not DocumentKind.html or bool(_LOGIN_MARKERS.search(content[:65536]))


def bytes_agree(kind: DocumentKind, content: bytes) -> bool:
    """Whether the bytes are what the kind says: "%PDF-" in a PDF's first 1,024 bytes
    (ISO 32000-1, 7.5.2 and its implementation note), an Office package with its kind's
    part folder, text that decodes as UTF-8 with no NUL byte."""
    if kind is DocumentKind.pdf:
        return b"%PDF-" in content[:1024]
    if kind in OFFICE_PARTS:
        if not content.startswith(b"PK\x03\x04"):
            return False
        try:
            with zipfile.ZipFile(io.BytesIO(content)) as package:
                names = package.namelist()
        except (zipfile.BadZipFile, ValueError):
            return False
        part = OFFICE_PARTS[kind]
        return "[Content_Types].xml" in names and any(n.startswith(part) for n in names)
    if b"\x00" in content:
        return False
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
