from pathlib import Path

import pytest

from engine.sources.library.cache import ParsedTextCache, file_sha256
from engine.sources.library.documents import LibraryDocument
from engine.sources.library.parse import DocumentKind, ParsedFile
from engine.sources.library.texts import RECENT_DOCUMENTS, DocumentTexts
from engine.sources.protocols import FetchError
from tests.engine.sources.library.conftest import write_text


def _document(path: Path) -> LibraryDocument:
    return LibraryDocument(
        path.as_uri(), path.stem, path, DocumentKind.text, None, file_sha256(path)
    )


class CountingCache(ParsedTextCache):
    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.reads: list[str] = []

    def get(self, sha256: str, kind: DocumentKind) -> ParsedFile | str | None:
        self.reads.append(sha256)
        return super().get(sha256, kind)


def test_a_text_is_read_from_the_cache_when_first_needed_then_kept(tmp_path: Path) -> None:
    document = _document(write_text(tmp_path / "a.txt", "on disk"))
    cache = CountingCache(tmp_path / "parsed")
    cache.put(document.sha256, DocumentKind.text, ParsedFile(DocumentKind.text, ("cached",)))
    texts = DocumentTexts(cache)
    assert cache.reads == []
    assert texts.texts(document) == ("cached",)
    assert texts.texts(document) == ("cached",)
    assert cache.reads == [document.sha256]


def test_only_the_recent_documents_stay_in_memory(tmp_path: Path) -> None:
    cache = CountingCache(tmp_path / "parsed")
    documents = [
        _document(write_text(tmp_path / f"d{n}.txt", f"text {n}"))
        for n in range(RECENT_DOCUMENTS + 1)
    ]
    texts = DocumentTexts(cache)
    for document in documents:
        assert texts.texts(document) == (document.path.read_text(),)
    texts.texts(documents[-1])
    assert cache.reads.count(documents[-1].sha256) == 1
    texts.texts(documents[0])  # the oldest was dropped: read again
    assert cache.reads.count(documents[0].sha256) == 2


def test_texts_kept_in_memory_need_no_cache(tmp_path: Path) -> None:
    document = _document(write_text(tmp_path / "a.txt", "on disk"))
    cache = CountingCache(tmp_path / "parsed")
    texts = DocumentTexts(cache, {document.sha256: ("in memory",)})
    assert texts.texts(document) == ("in memory",)
    assert cache.reads == []


def test_a_text_missing_from_the_cache_is_parsed_from_its_unchanged_file(
    tmp_path: Path,
) -> None:
    path = write_text(tmp_path / "a.txt", "on disk")
    document = _document(path)
    texts = DocumentTexts(ParsedTextCache(tmp_path / "parsed"))
    assert texts.texts(document) == ("on disk",)
    write_text(path, "edited since")
    with pytest.raises(FetchError, match="changed since the library was opened"):
        DocumentTexts(ParsedTextCache(tmp_path / "parsed")).texts(document)
