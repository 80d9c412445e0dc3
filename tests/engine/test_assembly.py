"""Sources opened as one: a library brings the page evidence of its PDFs, the web none yet."""

from __future__ import annotations

from pathlib import Path

from engine.assembly import library_sources, open_web_sources
from engine.sources.library import Library
from engine.sources.library.page_evidence import LibraryPageEvidence
from tests.support.pdfs import pdf_bytes


async def test_a_library_brings_the_page_evidence_of_its_pdfs(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "norma.pdf").write_bytes(pdf_bytes(["Art. 1º Uma norma com texto suficiente."]))

    sources = library_sources(Library.open(folder), ["a warning"])

    assert isinstance(sources.evidence, LibraryPageEvidence)
    assert sources.notes == ["a warning"]


async def test_the_web_brings_no_page_evidence(tmp_path: Path) -> None:
    sources = open_web_sources(tmp_path, env={})
    try:
        assert sources.evidence is None
    finally:
        await sources.aclose()
