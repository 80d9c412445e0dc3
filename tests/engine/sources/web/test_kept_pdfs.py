from __future__ import annotations

from pathlib import Path

from engine.sources.web.kept_pdfs import InMemoryPdfStore, PdfStore, keepable, read_pdf_file
from tests.support.pdfs import pdf_bytes

URL = "https://example.org/relatorio.pdf"


def test_a_pdf_is_kept_by_its_url_without_the_page() -> None:
    store = InMemoryPdfStore()
    body = pdf_bytes(["Uma página."])
    store.keep_pdf(f"{URL}#page=1", body)
    assert store.pdf(URL) == store.pdf(f"{URL}#page=3") == body
    assert store.pdf("https://example.org/outro.pdf") is None
    store.forget_pdf(f"{URL}#page=2")
    assert store.pdf(URL) is None
    assert isinstance(store, PdfStore)


def test_a_body_too_large_or_not_a_pdf_is_not_kept_and_drops_the_old_one() -> None:
    body = pdf_bytes(["Uma página."])
    store = InMemoryPdfStore(max_bytes=len(body))
    store.keep_pdf(URL, body)
    store.keep_pdf(URL, body + b"\n")  # one byte over
    assert store.pdf(URL) is None
    store.keep_pdf(URL, body)
    store.keep_pdf(URL, b"<html>not a pdf</html>")
    assert store.pdf(URL) is None


def test_keepable_needs_the_pdf_signature_and_the_size() -> None:
    assert keepable(b"%PDF-1.7 ...", 100)
    assert not keepable(b"%PDF-1.7 ...", 5)
    assert not keepable(b"GIF89a", 100)


def test_a_file_is_read_only_when_it_is_a_pdf_within_the_size(tmp_path: Path) -> None:
    body = pdf_bytes(["Uma página."])
    path = tmp_path / "a.pdf"
    assert read_pdf_file(path, len(body)) is None  # missing
    path.write_bytes(body)
    assert read_pdf_file(path, len(body)) == body
    assert read_pdf_file(path, len(body) - 1) is None
    path.write_bytes(b"\x00" * 10)
    assert read_pdf_file(path, 100) is None
    assert read_pdf_file(tmp_path, 100) is None  # a folder: unreadable
