from pathlib import Path

import pytest

from engine.documents.parse import DocumentKind, ParsedFile
from engine.sources.library.cache import ParsedTextCache, file_sha256
from engine.sources.library.document_texts import RECENT_DOCUMENTS, DocumentTexts
from engine.sources.library.documents import LibraryDocument
from engine.sources.protocols import FetchError
from tests.support.library_files import write_text


def _document(path: Path) -> LibraryDocument:
    kind = DocumentKind.html if path.suffix == ".html" else DocumentKind.text
    return LibraryDocument(path.as_uri(), path.stem, path, kind, None, file_sha256(path))


class CountingCache(ParsedTextCache):
    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.reads: list[str] = []

    def get(self, sha256: str, kind: DocumentKind) -> ParsedFile | str | None:
        self.reads.append(sha256)
        return super().get(sha256, kind)


def test_an_html_text_is_read_from_the_cache_when_first_needed_then_kept(
    tmp_path: Path,
) -> None:
    document = _document(write_text(tmp_path / "a.html", "<p>on disk</p>"))
    cache = CountingCache(tmp_path / "parsed")
    cache.put(document.sha256, DocumentKind.html, ParsedFile(DocumentKind.html, ("cached",)))
    texts = DocumentTexts(cache)
    assert cache.reads == []
    assert texts.texts(document) == ("cached",)
    assert texts.texts(document) == ("cached",)
    assert cache.reads == [document.sha256]


def test_only_the_recent_documents_stay_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents = [
        _document(write_text(tmp_path / f"d{n}.txt", f"text {n}"))
        for n in range(RECENT_DOCUMENTS + 1)
    ]
    reads: list[str] = []
    load = DocumentTexts._load

    def counting(self: DocumentTexts, document: LibraryDocument) -> tuple[str, ...]:
        reads.append(document.path.name)
        return load(self, document)

    monkeypatch.setattr(DocumentTexts, "_load", counting)
    texts = DocumentTexts(ParsedTextCache(tmp_path / "parsed"))
    for document in documents:
        assert texts.texts(document) == (document.path.read_text(),)
    texts.texts(documents[-1])
    assert reads.count(documents[-1].path.name) == 1
    texts.texts(documents[0])  # the oldest was dropped: read again
    assert reads.count(documents[0].path.name) == 2


def test_markdown_is_read_from_its_file_not_the_cache(tmp_path: Path) -> None:
    document = _document(write_text(tmp_path / "a.txt", "on disk"))
    cache = CountingCache(tmp_path / "parsed")
    assert DocumentTexts(cache).texts(document) == ("on disk",)
    assert cache.reads == []


def test_texts_kept_in_memory_need_no_cache(tmp_path: Path) -> None:
    document = _document(write_text(tmp_path / "a.txt", "on disk"))
    cache = CountingCache(tmp_path / "parsed")
    texts = DocumentTexts(cache, {document.sha256: ("in memory",)})
    assert texts.texts(document) == ("in memory",)
    assert cache.reads == []


def test_a_text_missing_from_the_cache_is_parsed_from_its_unchanged_file(
    tmp_path: Path,
) -> None:
    path = write_text(tmp_path / "a.html", "<p>on disk</p>")
    document = _document(path)
    texts = DocumentTexts(ParsedTextCache(tmp_path / "parsed"))
    assert texts.texts(document) == ("on disk",)
    write_text(path, "<p>edited since</p>")
    with pytest.raises(FetchError, match="changed since the library was opened"):
        DocumentTexts(ParsedTextCache(tmp_path / "parsed")).texts(document)
