"""`Originals`: the document as its source served it, for the seen check to render. The
library gives any file of its own, the web's caching fetcher the PDF it kept (as a file
named by its SHA-256), and a combination asks the part a URL belongs to."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from engine.snapshots import InMemorySnapshotStore, Snapshot
from engine.sources.combined import SourcePart, combine, library_owns
from engine.sources.library import Library
from engine.sources.protocols import Originals
from engine.sources.web import CachingFetcher
from tests.support.pages_source import PagesSource
from tests.support.pdfs import pdf_bytes

URL = "https://example.org/relatorio.pdf"


def test_a_library_gives_the_file_of_any_of_its_documents(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "nota.md").write_text("# Nota\n\nA potência instalada é de 75 kW.\n")
    (folder / "relatorio.pdf").write_bytes(pdf_bytes(["Uma página com texto."]))
    library = Library.open(folder, cache_dir=tmp_path / "cache")
    assert isinstance(library, Originals)
    for document in library.documents():
        assert library.original(f"{document.url}#page=1") == document.path
    assert library.original("https://example.org/other.pdf") is None


class Served:
    """A fetcher that serves one PDF and hands its bytes on, as the web fetcher does."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    async def fetch(self, url: str) -> Snapshot:
        return Snapshot(url=url, text="Uma página com texto.", content_type="application/pdf")

    async def fetch_with_pdf(self, url: str) -> object:
        from engine.sources.web.kept_pdfs import Fetched

        return Fetched(await self.fetch(url), self.body)


def test_the_web_gives_the_pdf_it_kept_as_a_file_and_nothing_else() -> None:
    body = pdf_bytes(["Uma página com texto."])
    fetcher = CachingFetcher(Served(body), InMemorySnapshotStore())  # type: ignore[arg-type]
    assert fetcher.original(URL) is None  # not read yet
    asyncio.run(fetcher.fetch(f"{URL}#page=1"))
    kept = fetcher.original(f"{URL}#page=1")
    assert kept is not None
    assert kept.read_bytes() == body
    assert kept.name == f"{hashlib.sha256(body).hexdigest()}.pdf"
    assert fetcher.original("https://example.org/pagina.html") is None


def test_a_combination_asks_the_part_a_url_belongs_to(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "nota.md").write_text("# Nota\n\nA potência instalada é de 75 kW.\n")
    library = Library.open(folder, cache_dir=tmp_path / "cache")
    pages = PagesSource()
    combined = combine(
        [
            SourcePart("library", library, library, owns=library_owns(library)),
            SourcePart("web", pages, pages),
        ]
    )
    document = library.documents()[0]
    assert combined.fetcher.original(document.url) == document.path
    assert combined.fetcher.original("https://example.org/x") is None  # the web keeps none here
