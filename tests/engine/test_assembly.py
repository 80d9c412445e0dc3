"""Sources opened as one: a library and the web each bring the page evidence of their PDFs."""

from __future__ import annotations

from pathlib import Path

from engine.assembly import index_unfinished, library_sources, open_web_sources
from engine.snapshots import Snapshot
from engine.sources.library import Deadline, Library
from engine.sources.library.page_evidence import LibraryPageEvidence
from engine.sources.web import CachingFetcher, WebPageEvidence
from engine.verify.excerpts import verify_on_page
from tests.support.clock import FakeClock
from tests.support.pdfs import pdf_bytes
from tests.support.render_samples import build_claim, build_report


async def test_a_library_brings_the_page_evidence_of_its_pdfs(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "norma.pdf").write_bytes(pdf_bytes(["Art. 1º Uma norma com texto suficiente."]))

    sources = library_sources(Library.open(folder), ["a warning"])

    assert isinstance(sources.evidence, LibraryPageEvidence)
    assert sources.notes == ["a warning"]


async def test_the_web_brings_the_page_evidence_of_the_pdfs_its_fetcher_keeps(
    tmp_path: Path,
) -> None:
    url = "https://www.example.org/ren1000.pdf"
    excerpt = "Art. 1º Uma norma com texto suficiente."
    sources = open_web_sources(tmp_path, env={})
    try:
        assert isinstance(sources.fetcher, CachingFetcher)
        sources.fetcher.pdfs.keep_pdf(url, pdf_bytes([excerpt]))  # as a fetch of it would
        claim = verify_on_page(
            # A statement of its own: "Afirmação c1" has a 1 that "Art. 1º", an article's
            # number and no quantity, does not back.
            build_claim("c1", url=f"{url}#page=1", excerpt=excerpt, statement="Uma norma."),
            Snapshot.from_pages(url, [excerpt]),
        )
        assert isinstance(sources.evidence, WebPageEvidence)
        assert (sources.evidence.crop_png(claim) or b"").startswith(b"\x89PNG")
    finally:
        await sources.aclose()


async def test_the_pdfs_kept_are_capped_like_the_fetchers_bodies(tmp_path: Path) -> None:
    url = "https://www.example.org/ren1000.pdf"
    body = pdf_bytes(["Art. 1º Uma norma com texto suficiente."])
    sources = open_web_sources(tmp_path, env={"FONTE_FETCH_MAX_BYTES": str(len(body) - 1)})
    try:
        assert isinstance(sources.fetcher, CachingFetcher)
        sources.fetcher.pdfs.keep_pdf(url, body)  # larger than a fetch may read: not kept
        assert sources.fetcher.pdfs.pdf(url) is None
    finally:
        await sources.aclose()


def test_a_librarys_notes_follow_the_reports_language(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lei.md").write_text("# Lei\n\nArt. 1º Uma norma com texto suficiente.\n")
    for number in range(5):
        (folder / f"vazio{number}.md").touch()
    warnings: list[str] = []
    library = Library.open(folder, cache_dir=tmp_path / "cache", on_warning=warnings.append)
    sources = library_sources(library, [*warnings, "search: a provider failed over"])

    assert sources.notes_in("pt") == [
        "5 arquivos ignorados (arquivo vazio): vazio0.md, vazio1.md, vazio2.md, …",
        "search: a provider failed over",
    ]
    assert sources.notes_in("en")[0] == (
        "5 files skipped (empty file): vazio0.md, vazio1.md, vazio2.md, …"
    )
    report = build_report([], [], language="pt", notes=sources.notes_in("pt"))
    assert str(tmp_path) not in report.model_dump_json()


def _cold_library(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for number in range(3):
        (folder / f"lei{number}.md").write_text(f"# Lei {number}\n\nArt. 1º Texto {number}.\n")
    return folder


def test_a_library_whose_index_the_time_cap_stopped_makes_the_report_partial_saying_why(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    warnings: list[str] = []
    library = Library.open(
        _cold_library(tmp_path),
        cache_dir=tmp_path / "cache",
        on_warning=warnings.append,
        deadline=Deadline(clock.now, clock),  # the cap was spent before the build began
    )
    assert library.documents() == []
    report = build_report([], [], language="pt", gaps=["Uma lacuna"])
    marked = index_unfinished(report, library)
    line = (
        "o índice da biblioteca não ficou pronto dentro do limite de tempo: 0 de 3 arquivos "
        "indexados, 3 (< 1 MB) ainda não lidos nem pesquisados; a próxima execução continua daí"
    )
    assert marked.partial
    assert marked.gaps == [line, "Uma lacuna"]
    assert library_sources(library, warnings).notes_in("pt") == [line]
    english = index_unfinished(build_report([], [], language="en"), library)
    assert english.gaps[0].startswith("the library's index was not finished within the time cap")


def test_a_library_indexed_whole_leaves_the_report_as_it_was(tmp_path: Path) -> None:
    library = Library.open(_cold_library(tmp_path), cache_dir=tmp_path / "cache")
    report = build_report([], [], language="pt")
    assert index_unfinished(report, library) == report
