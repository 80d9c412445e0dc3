import os
from pathlib import Path

import numpy as np
import pytest

from engine.sources.library import passage_index as index_module
from engine.sources.library.documents import DocumentText, LibraryDocument, LibraryError
from engine.sources.library.index_build import build_passage_index, index_key, open_passage_index
from engine.sources.library.parse import DocumentKind
from engine.sources.library.passage_index import PassageIndex
from tests.engine.sources.library.conftest import Recorder


def _document(folder: Path, name: str, texts: tuple[str, ...], sha: str = "0") -> DocumentText:
    kind = DocumentKind.pdf if name.endswith(".pdf") else DocumentKind.markdown
    pages = len(texts) if kind is DocumentKind.pdf else None
    document = LibraryDocument(f"https://x/{name}", name, folder / name, kind, pages, sha * 64)
    return DocumentText(document, texts)


def _documents(folder: Path) -> list[DocumentText]:
    return [
        _document(folder, "solar.pdf", ("Solar panels on roofs.", "", "Solar tariffs in 2023.")),
        _document(folder, "wind.md", ("Wind turbines offshore.\n\n" + "Blade " * 300,)),
    ]


def test_every_passage_is_a_slice_of_its_page(tmp_path: Path) -> None:
    documents = _documents(tmp_path)
    index = build_passage_index(documents, Recorder())
    refs = index.refs()
    assert [(r.document, r.page) for r in refs] == [(0, 0), (0, 2), (1, 0), (1, 0), (1, 0)]
    first = refs[0]
    assert documents[0].texts[0][first.start : first.end] == "Solar panels on roofs."


def test_title_words_are_indexed_with_every_passage(tmp_path: Path) -> None:
    documents = [_document(tmp_path, "Acme annual report.md", ("Profits rose.",))]
    index = build_passage_index(documents, Recorder())
    assert index.scores(["acme"])[0] > 0


def test_no_words_anywhere_is_a_library_error(tmp_path: Path) -> None:
    with pytest.raises(LibraryError, match="no searchable text"):
        build_passage_index([_document(tmp_path, "dots.md", ("... --- ...",))], Recorder())


def test_key_follows_content_titles_and_paths(tmp_path: Path) -> None:
    documents = _documents(tmp_path)
    key = index_key(documents, tmp_path)
    assert key == index_key(_documents(tmp_path), tmp_path)
    edited = [documents[0], _document(tmp_path, "wind.md", documents[1].texts, sha="1")]
    assert index_key(edited, tmp_path) != key
    retitled = DocumentText(
        LibraryDocument(**{**vars(documents[1].document), "title": "Other"}), documents[1].texts
    )
    assert index_key([documents[0], retitled], tmp_path) != key


def _open(
    tmp_path: Path, documents: list[DocumentText], **options: object
) -> tuple[PassageIndex, bool]:
    return open_passage_index(
        tmp_path / "index",
        tmp_path,
        documents,
        on_progress=Recorder(),
        on_cache_error=options.get("on_cache_error", pytest.fail),  # type: ignore[arg-type]
    )


def _saved_indexes(tmp_path: Path) -> list[Path]:
    return [key for folder in (tmp_path / "index").iterdir() for key in folder.iterdir()]


def test_second_open_loads_the_saved_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents = _documents(tmp_path)
    built, from_cache = _open(tmp_path, documents)
    assert not from_cache
    assert [p.name for p in _saved_indexes(tmp_path)] == [index_key(documents, tmp_path)]

    def no_build(*args: object) -> None:
        raise AssertionError("index rebuilt")

    monkeypatch.setattr(index_module.PassageIndex, "build", no_build)
    loaded, from_cache = _open(tmp_path, documents)
    assert from_cache
    assert loaded.refs() == built.refs()


def test_a_new_index_replaces_the_folder_older_ones(tmp_path: Path) -> None:
    _open(tmp_path, _documents(tmp_path))
    (old,) = _saved_indexes(tmp_path)
    fresh_staging = old.parent / ".other-run-staging"
    fresh_staging.mkdir()
    abandoned_staging = old.parent / ".killed-run-staging"
    abandoned_staging.mkdir()
    os.utime(abandoned_staging, (0, 0))
    edited = [_document(tmp_path, "solar.pdf", ("Solar panels.",), sha="1")]
    _open(tmp_path, edited)
    assert sorted(p.name for p in old.parent.iterdir()) == sorted(
        [index_key(edited, tmp_path), ".other-run-staging"]
    )


def test_an_index_that_does_not_fit_the_texts_is_rebuilt(tmp_path: Path) -> None:
    documents = _documents(tmp_path)
    _open(tmp_path, documents)
    (saved,) = _saved_indexes(tmp_path)
    refs = np.load(saved / "passages.npy")
    refs[0, 3] = 10_000  # past the end of its page
    np.save(saved / "passages.npy", refs)
    index, from_cache = _open(tmp_path, documents)
    assert not from_cache
    assert index.ref(0).end < 10_000


def test_an_unwritable_cache_is_reported_and_the_index_still_works(tmp_path: Path) -> None:
    (tmp_path / "index").write_text("file in the way")
    errors: list[OSError] = []
    index, from_cache = _open(tmp_path, _documents(tmp_path), on_cache_error=errors.append)
    assert not from_cache
    assert len(index) == 5
    assert len(errors) == 1
