import os
from pathlib import Path
from urllib.parse import quote_from_bytes

from engine.documents.parse import DocumentKind
from engine.sources.library.documents import (
    FileDocuments,
    LibraryDocument,
    ListedDocuments,
    build_documents,
    file_url_path,
    library_documents,
)
from engine.sources.library.index.catalog import CatalogColumns, CatalogEntry
from engine.sources.library.manifest import Manifest, ManifestEntry
from tests.support.library_files import Recorder


def _entry(name: str, kind: DocumentKind, title: str, pages: int | None = None) -> CatalogEntry:
    return CatalogEntry(name, kind, 1, 1, "0" * 64, "", "", title, pages, "s.seg", 0)


def test_manifest_url_wins(tmp_path: Path) -> None:
    entry = _entry("lei.md", DocumentKind.markdown, "LEI 1")
    manifest = Manifest(by_path={(tmp_path / "lei.md").resolve(): ManifestEntry("http://gov/lei")})
    (doc,) = build_documents(tmp_path, [entry], manifest, Recorder())
    assert doc.url == "http://gov/lei"
    assert doc.title == "LEI 1"
    assert doc.path == tmp_path / "lei.md"


def test_without_manifest_the_url_is_the_file(tmp_path: Path) -> None:
    notes = _entry("my notes.md", DocumentKind.markdown, "Notes")
    report = _entry("3M_2018_10K.pdf", DocumentKind.pdf, "3M_2018_10K", pages=2)
    first, second = build_documents(tmp_path, [notes, report], Manifest(), Recorder())
    assert first.url == (tmp_path / "my notes.md").resolve().as_uri()
    assert "my%20notes.md" in first.url
    assert (first.title, first.page_count) == ("Notes", None)
    assert (second.title, second.page_count) == ("3M_2018_10K", 2)


def test_page_fragment_in_a_manifest_url_is_dropped(tmp_path: Path) -> None:
    manifest = Manifest(by_stem={"r": ManifestEntry("https://x/r.pdf#page=3")})
    entry = _entry("r.pdf", DocumentKind.pdf, "r", pages=3)
    (doc,) = build_documents(tmp_path, [entry], manifest, Recorder())
    assert doc.url == "https://x/r.pdf"
    assert doc.page_url(2) == "https://x/r.pdf#page=2"


def test_a_url_claimed_twice_falls_back_to_the_file_url(tmp_path: Path) -> None:
    first = _entry("a/report.pdf", DocumentKind.pdf, "report", pages=1)
    second = _entry("b/report.md", DocumentKind.markdown, "report")
    manifest = Manifest(by_stem={"report": ManifestEntry("https://x/report")})
    warnings = Recorder()
    documents = build_documents(tmp_path, [first, second], manifest, warnings)
    second_url = (tmp_path / "b/report.md").resolve().as_uri()
    assert [d.url for d in documents] == ["https://x/report", second_url]
    assert warnings.messages == [
        "b/report.md: citation URL https://x/report already belongs to a/report.pdf; "
        "citing the file itself instead"  # its file:// URL would show the server's path
    ]


def test_page_url_only_for_paged_documents(tmp_path: Path) -> None:
    paged = LibraryDocument("https://x/r.pdf", "R", tmp_path, DocumentKind.pdf, 3, "0" * 64)
    flat = LibraryDocument("https://x/n.md", "N", tmp_path, DocumentKind.markdown, None, "0" * 64)
    assert paged.page_url(3) == "https://x/r.pdf#page=3"
    assert flat.page_url(1) == "https://x/n.md"
    assert (paged.content_type, flat.content_type) == ("application/pdf", "text/markdown")


def test_a_file_url_is_spelt_as_pathlib_spells_it(tmp_path: Path) -> None:
    entry = _entry("sub dir/ação #1 %.md", DocumentKind.markdown, "x")
    (doc,) = build_documents(tmp_path, [entry], Manifest(), Recorder())
    assert doc.url == (tmp_path / "sub dir/ação #1 %.md").as_uri()


def test_a_document_s_path_is_made_from_its_location_when_asked(tmp_path: Path) -> None:
    location = str(tmp_path / "docs" / "lei.md")
    document = LibraryDocument("u", "Lei", location, DocumentKind.markdown, None, "0" * 64)
    assert document.path == tmp_path / "docs" / "lei.md"
    assert document.file_name == "lei.md"
    given = LibraryDocument("u", "Lei", Path(location), DocumentKind.markdown, None, "0" * 64)
    assert (given.path, given.file_name) == (document.path, document.file_name)


HOSTILE_NAMES = [
    "plain.md",
    "a b.pdf",
    "ação #1.md",
    "50% off?.txt",
    "sub dir/ç#?%&=+;,@.md",
    "a~b_c-d.e/f.txt",
    "e\u0301.html",
    "bad byte \udcff.md",  # a file name that is no UTF-8, as os.fsdecode spells it
    "tab\tnew\nline.md",
    "[x]{y}|z^`'\"!$*().md",
]


def test_file_url_paths_are_what_path_as_uri_spells(tmp_path: Path) -> None:
    """The quick way against the straightforward one: `Path.as_uri` of each file."""
    folder = tmp_path / "lib ç#"
    entries = [_entry(name, DocumentKind.markdown, "t") for name in HOSTILE_NAMES]
    documents = build_documents(folder, entries, Manifest(), Recorder())
    assert [d.url for d in documents] == [(folder / name).as_uri() for name in HOSTILE_NAMES]
    assert [d.path for d in documents] == [folder / name for name in HOSTILE_NAMES]
    assert [file_url_path(name) for name in HOSTILE_NAMES] == [
        quote_from_bytes(os.fsencode(name)) for name in HOSTILE_NAMES
    ]


def test_documents_made_on_demand_are_those_made_whole_and_found_by_their_url(
    tmp_path: Path,
) -> None:
    """`FileDocuments` (no manifest) against `build_documents`: the same document at every
    number, each found by its own URL, none by a URL of another spelling, folder or file."""
    names = ["a b.md", "ação #1.md", "50% off?.txt", 'x/é"q".pdf', "\u2028.txt", "z/😀.md"]
    entries = [
        _entry(name, DocumentKind.pdf if name.endswith(".pdf") else DocumentKind.markdown, name)
        for name in sorted(names)
    ]
    folder = tmp_path.resolve()
    whole = build_documents(folder, entries, Manifest(), Recorder())
    lazy = library_documents(folder, CatalogColumns.of(entries), Manifest(), Recorder())
    assert isinstance(lazy, FileDocuments)
    assert [lazy[n] for n in range(len(lazy))] == whole == list(lazy)
    assert [lazy.number_of(document.url) for document in whole] == list(range(len(whole)))
    assert list(lazy.page_counts()) == [document.page_count for document in whole]
    others = [
        whole[0].url + "x",
        whole[0].url.replace("%20", " "),  # another spelling: the library canonicalises it
        (tmp_path / "elsewhere" / "a b.md").as_uri(),
        folder.as_uri() + "/missing.md",
        "https://example.com/a%20b.md",
        folder.as_uri() + "/",
    ]
    assert [lazy.number_of(url) for url in others] == [-1] * len(others)


def test_documents_of_a_manifest_are_made_whole(tmp_path: Path) -> None:
    entry = _entry("lei.md", DocumentKind.markdown, "LEI 1")
    manifest = Manifest(by_path={(tmp_path / "lei.md").resolve(): ManifestEntry("http://gov/lei")})
    listed = library_documents(tmp_path, CatalogColumns.of([entry]), manifest, Recorder())
    assert isinstance(listed, ListedDocuments)
    assert listed.number_of("http://gov/lei") == 0
    assert listed.number_of((tmp_path / "lei.md").as_uri()) == -1
