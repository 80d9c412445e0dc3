from pathlib import Path

from engine.sources.library.documents import LibraryDocument, build_documents
from engine.sources.library.files import LibraryFile
from engine.sources.library.manifest import Manifest, ManifestEntry
from engine.sources.library.parse import DocumentKind, ParsedFile
from tests.engine.sources.library.conftest import Recorder


def _file(folder: Path, name: str, kind: DocumentKind) -> LibraryFile:
    return LibraryFile(folder / name, name, kind, "0" * 64)


def test_manifest_url_and_title_win(tmp_path: Path) -> None:
    file = _file(tmp_path, "lei.md", DocumentKind.markdown)
    manifest = Manifest(by_path={file.path.resolve(): ManifestEntry("http://gov/lei", "LEI 1")})
    parsed = ParsedFile(DocumentKind.markdown, ("# Heading\ntext",), "Heading")
    (doc,) = build_documents([(file, parsed)], manifest, Recorder())
    assert doc.document.url == "http://gov/lei"
    assert doc.document.title == "LEI 1"
    assert doc.texts == ("# Heading\ntext",)


def test_without_manifest_the_url_is_the_file_and_the_title_its_own_or_the_stem(
    tmp_path: Path,
) -> None:
    md = _file(tmp_path, "my notes.md", DocumentKind.markdown)
    pdf = _file(tmp_path, "3M_2018_10K.pdf", DocumentKind.pdf)
    documents = build_documents(
        [
            (md, ParsedFile(DocumentKind.markdown, ("# Notes",), "Notes")),
            (pdf, ParsedFile(DocumentKind.pdf, ("p1", "p2"), "")),
        ],
        Manifest(),
        Recorder(),
    )
    notes, report = (doc.document for doc in documents)
    assert notes.url == (tmp_path / "my notes.md").resolve().as_uri()
    assert notes.url.startswith("file:///")
    assert "my%20notes.md" in notes.url
    assert (notes.title, notes.page_count) == ("Notes", None)
    assert (report.title, report.page_count) == ("3M_2018_10K", 2)


def test_page_fragment_in_a_manifest_url_is_dropped(tmp_path: Path) -> None:
    file = _file(tmp_path, "r.pdf", DocumentKind.pdf)
    manifest = Manifest(by_stem={"r": ManifestEntry("https://x/r.pdf#page=3")})
    (doc,) = build_documents([(file, ParsedFile(DocumentKind.pdf, ("a",)))], manifest, Recorder())
    assert doc.document.url == "https://x/r.pdf"
    assert doc.document.page_url(2) == "https://x/r.pdf#page=2"


def test_a_url_claimed_twice_falls_back_to_the_file_url(tmp_path: Path) -> None:
    first = _file(tmp_path, "a/report.pdf", DocumentKind.pdf)
    second = _file(tmp_path, "b/report.md", DocumentKind.markdown)
    manifest = Manifest(by_stem={"report": ManifestEntry("https://x/report")})
    warnings = Recorder()
    documents = build_documents(
        [
            (first, ParsedFile(DocumentKind.pdf, ("a",))),
            (second, ParsedFile(DocumentKind.markdown, ("b",))),
        ],
        manifest,
        warnings,
    )
    assert documents[0].document.url == "https://x/report"
    assert documents[1].document.url == second.path.resolve().as_uri()
    assert warnings.messages == [
        f"b/report.md: citation URL https://x/report already belongs to a/report.pdf; "
        f"citing {second.path.resolve().as_uri()} instead"
    ]


def test_page_url_only_for_paged_documents(tmp_path: Path) -> None:
    paged = LibraryDocument("https://x/r.pdf", "R", tmp_path, DocumentKind.pdf, 3, "0" * 64)
    flat = LibraryDocument("https://x/n.md", "N", tmp_path, DocumentKind.markdown, None, "0" * 64)
    assert paged.page_url(3) == "https://x/r.pdf#page=3"
    assert flat.page_url(1) == "https://x/n.md"
    assert (paged.content_type, flat.content_type) == ("application/pdf", "text/markdown")
