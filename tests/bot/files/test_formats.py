"""A shared file is read only when its extension, its mimetype and its bytes agree, and
Slack's sign-in page is never taken for the file."""

from __future__ import annotations

import io
import zipfile

import pytest

from bot.files.formats import bytes_agree, kind_of_name, looks_like_login_page, mimetype_agrees
from engine.documents import DocumentKind
from tests.support.office_files import docx_bytes
from tests.support.pdfs import pdf_bytes
from tests.support.slack_files import SIGN_IN_PAGE

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Relatório.PDF", DocumentKind.pdf),
        ("page.htm", DocumentKind.html),
        ("notes.md", DocumentKind.markdown),
        ("deck.pptx", DocumentKind.pptx),
        ("setup.exe", None),
        ("report.pdf.exe", None),
        ("data.csv", None),
        ("noextension", None),
    ],
)
def test_the_name_claims_a_kind_the_library_reads(name: str, kind: DocumentKind | None) -> None:
    assert kind_of_name(name) == kind


def test_the_mimetype_must_agree_or_say_nothing() -> None:
    assert mimetype_agrees(DocumentKind.pdf, "application/pdf")
    assert mimetype_agrees(DocumentKind.pdf, "application/octet-stream")
    assert mimetype_agrees(DocumentKind.markdown, "text/plain")
    assert mimetype_agrees(DocumentKind.docx, DOCX)
    assert not mimetype_agrees(DocumentKind.pdf, "application/x-msdownload")
    assert not mimetype_agrees(DocumentKind.text, "application/pdf")


def test_the_bytes_must_be_what_the_name_says() -> None:
    assert bytes_agree(DocumentKind.pdf, pdf_bytes(["x"]))
    assert not bytes_agree(DocumentKind.pdf, b"MZ\x90\x00 an executable")
    assert bytes_agree(DocumentKind.docx, docx_bytes())
    assert not bytes_agree(DocumentKind.pptx, docx_bytes()), "a DOCX named .pptx"
    other_zip = io.BytesIO()
    with zipfile.ZipFile(other_zip, "w") as package:
        package.writestr("payload.bin", b"x")
    assert not bytes_agree(DocumentKind.xlsx, other_zip.getvalue())
    assert bytes_agree(DocumentKind.markdown, "# Título\n".encode())
    assert not bytes_agree(DocumentKind.text, b"\x00\x01binary")


def test_slacks_sign_in_page_is_told_from_the_file() -> None:
    assert looks_like_login_page(SIGN_IN_PAGE, DocumentKind.pdf)
    assert looks_like_login_page(SIGN_IN_PAGE, DocumentKind.markdown)
    assert looks_like_login_page(SIGN_IN_PAGE, DocumentKind.html), "even for an .html file"
    found = b'<a href="https://x.slack.com/?redir=%2Ffiles-pri%2FT1-F1%2Fa.pdf">Found</a>.'
    assert looks_like_login_page(found, DocumentKind.text)
    assert not looks_like_login_page(
        b"<html><body><p>A team page</p></body></html>", DocumentKind.html
    )
    assert not looks_like_login_page(pdf_bytes(["x"]), DocumentKind.pdf)
    assert not looks_like_login_page(b"# <html> in Markdown prose", DocumentKind.markdown)


def test_a_markdown_file_opening_with_a_link_is_still_the_file() -> None:
    link = b'<a href="https://example.org/report">The report</a> says 42.'
    assert not looks_like_login_page(link, DocumentKind.markdown)
