import itertools
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.snapshots import Snapshot, split_page
from engine.sources.library import Deadline, Library, LibraryDocument, LibraryError, document_texts
from engine.sources.library.files import Note
from engine.sources.library.folder import make_snippet
from engine.sources.library.index import opening as opening_module
from engine.sources.protocols import Fetcher, FetchError, Search
from engine.text import collapse_whitespace
from tests.support.clock import FakeClock
from tests.support.library_files import (
    LAW_MARKDOWN,
    SOLAR_PAGES,
    OpenLibrary,
    ReadCounter,
    Recorder,
    TimedReads,
    write_pdf,
    write_text,
)


def _url_of(library: Library, name: str) -> str:
    return next(d.url for d in library.documents() if d.path.name == name)


def test_implements_search_and_fetcher(library_folder: Path, open_library: OpenLibrary) -> None:
    library = open_library(library_folder)
    search: Search = library
    fetcher: Fetcher = library
    assert search.name == "library"
    assert fetcher is library


def test_documents_list_every_readable_file(
    library_folder: Path, open_library: OpenLibrary, warning_log: Recorder
) -> None:
    library = open_library(library_folder)
    documents = {d.path.name: d for d in library.documents()}
    assert sorted(documents) == [
        "battery.html",
        "hydrogen.txt",
        "lei_gd.md",
        "solar_report.pdf",
        "wind_review.pdf",
    ]
    assert documents["solar_report.pdf"].page_count == 3
    assert documents["lei_gd.md"].page_count is None
    assert documents["lei_gd.md"].title == "Lei da Geração Distribuída"
    assert documents["battery.html"].title == "Battery Storage Notes"
    assert documents["hydrogen.txt"].title == "hydrogen"
    assert (
        documents["solar_report.pdf"].url
        == (library_folder / "solar_report.pdf").resolve().as_uri()
    )
    assert warning_log.messages == []


async def test_pdf_hits_cite_their_page(library_folder: Path, open_library: OpenLibrary) -> None:
    library = open_library(library_folder)
    hits = await library.search("installed capacity GW residential")
    top = hits[0]
    assert top.url == _url_of(library, "solar_report.pdf") + "#page=2"
    assert top.passage == SOLAR_PAGES[1]
    assert (top.rank, top.provider, top.title) == (1, "library", "solar_report")
    assert top.snippet == collapse_whitespace(SOLAR_PAGES[1])
    assert top.score > 0


async def test_the_relevant_document_ranks_first(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    library = open_library(library_folder)
    expectations = {
        "offshore wind turbines": "wind_review.pdf",
        "lithium battery storage": "battery.html",
        "green hydrogen cost": "hydrogen.txt",
        "potência instalada da minigeração": "lei_gd.md",
    }
    for query, name in expectations.items():
        hits = await library.search(query)
        assert split_page(hits[0].url)[0] == _url_of(library, name), query
        assert [hit.rank for hit in hits] == list(range(1, len(hits) + 1))
        assert all(a.score >= b.score for a, b in itertools.pairwise(hits))


async def test_passages_are_verbatim_page_text(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    library = open_library(library_folder)
    for hit in await library.search("solar wind battery hydrogen geração", limit=50):
        snapshot = await library.fetch(hit.url)
        _base, page = split_page(hit.url)
        page_text = snapshot.pages[page - 1] if page and snapshot.pages else snapshot.text
        assert hit.passage
        assert hit.passage in page_text


async def test_markdown_markers_stay_in_passages(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    library = open_library(library_folder)
    hits = await library.search("microgeração 75 kW")
    assert "**microgeração distribuída**" in hits[0].passage
    assert "75 kW" in hits[0].passage


ACCENTS = {
    "acentos.md": "A geração distribuída cresce no sertão.\n",
    "sem_acentos.md": "Tarifa de energia eletrica e regulacao da Aneel.\n",
}


@pytest.mark.parametrize(
    ("files", "query", "found"),
    [
        pytest.param(
            ACCENTS, "geracao distribuida sertao", "acentos.md", id="plain-finds-accented"
        ),
        pytest.param(
            ACCENTS, "energia elétrica regulação", "sem_acentos.md", id="accented-finds-plain"
        ),
        pytest.param(
            {
                "a.md": "As gerações distribuídas e os limites.\n",
                "b.txt": "Unrelated text about trains.\n",
            },
            "geração limite",
            "a.md",
            id="plurals-match-singulars",
        ),
    ],
)
async def test_accents_and_plurals_do_not_matter(
    files: dict[str, str], query: str, found: str, tmp_path: Path, open_library: OpenLibrary
) -> None:
    folder = tmp_path / "docs"
    for name, text in files.items():
        write_text(folder / name, text)
    library = open_library(folder)
    hits = await library.search(query)
    assert [split_page(h.url)[0] for h in hits] == [_url_of(library, found)]


async def test_empty_or_stopword_query_and_zero_scores_give_nothing(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    library = open_library(library_folder)
    assert await library.search("") == []
    assert await library.search("   \n ") == []
    assert await library.search("what is the") == []
    assert await library.search("zeppelin") == []
    assert await library.search("solar", limit=0) == []


async def test_limit_caps_the_hits(library_folder: Path, open_library: OpenLibrary) -> None:
    library = open_library(library_folder)
    assert len(await library.search("solar wind battery hydrogen", limit=2)) == 2


async def test_fetch_returns_the_whole_pdf_with_or_without_page(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    library = open_library(library_folder)
    url = _url_of(library, "solar_report.pdf")
    before = datetime.now(UTC)
    whole = await library.fetch(url)
    paged = await library.fetch(url + "#page=2")
    assert whole.pages == paged.pages == tuple(SOLAR_PAGES)
    assert whole.url == paged.url == url
    assert whole.text == "\n\n".join(SOLAR_PAGES)
    assert whole.content_type == "application/pdf"
    assert whole.title == "solar_report"
    assert before <= whole.fetched_at <= datetime.now(UTC) + timedelta(seconds=1)
    assert whole.fetched_at.tzinfo is not None


async def test_fetch_returns_unpaged_text(library_folder: Path, open_library: OpenLibrary) -> None:
    library = open_library(library_folder)
    snapshot = await library.fetch(_url_of(library, "lei_gd.md"))
    assert snapshot == Snapshot(
        url=_url_of(library, "lei_gd.md"),
        text=LAW_MARKDOWN,
        title="Lei da Geração Distribuída",
        content_type="text/markdown",
        fetched_at=snapshot.fetched_at,
    )
    html = await library.fetch(_url_of(library, "battery.html"))
    assert html.content_type == "text/html"
    assert html.pages is None
    assert "Lithium iron phosphate" in html.text


async def test_fetch_accepts_another_spelling_of_a_file_url(
    tmp_path: Path, open_library: OpenLibrary
) -> None:
    folder = tmp_path / "my docs"
    write_text(folder / "a b.md", "Some text here.\n")
    library = open_library(folder)
    snapshot = await library.fetch(f"file://{folder}/./a b.md")
    assert snapshot.url == (folder / "a b.md").resolve().as_uri()


async def test_fetch_of_an_unknown_url_or_page_fails(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    library = open_library(library_folder)
    with pytest.raises(FetchError, match="not a document of the library"):
        await library.fetch("https://example.com/unknown.pdf")
    with pytest.raises(FetchError, match="page 4 out of range: solar_report has 3 pages"):
        await library.fetch(_url_of(library, "solar_report.pdf") + "#page=4")
    with pytest.raises(FetchError):
        await library.fetch(_url_of(library, "solar_report.pdf") + "#page=0")


async def test_manifest_urls_and_titles_are_cited(
    tmp_path: Path, open_library: OpenLibrary
) -> None:
    corpus = tmp_path / "br-laws"
    write_text(corpus / "docs" / "lei_gd.md", LAW_MARKDOWN)
    write_text(corpus / "docs" / "other.md", "# Other\nNada a ver.\n")
    (corpus / "index.jsonl").write_text(
        json.dumps({"file": "docs/lei_gd.md", "title": "LEI Nº 14.300", "url": "http://gov/l14300"})
        + "\n",
        encoding="utf-8",
    )
    filings = tmp_path / "financebench"
    write_pdf(filings / "pdfs" / "ACME_2018_10K.pdf", ["Cover", "Net sales were 12,345."])
    (filings / "documents.jsonl").write_text(
        json.dumps({"doc_name": "ACME_2018_10K", "doc_link": "https://acme/10k.pdf"}) + "\n",
        encoding="utf-8",
    )
    laws = open_library(corpus / "docs")
    hits = await laws.search("minigeração distribuída")
    assert hits[0].url == "http://gov/l14300"
    assert hits[0].title == "LEI Nº 14.300"
    assert (await laws.fetch("http://gov/l14300")).title == "LEI Nº 14.300"
    assert _url_of(laws, "other.md").startswith("file:///")
    reports = open_library(filings / "pdfs")
    hit = (await reports.search("ACME net sales 2018"))[0]
    assert hit.url == "https://acme/10k.pdf#page=2"
    assert hit.title == "ACME_2018_10K"


def test_bad_files_are_skipped_with_warnings(
    library_folder: Path, open_library: OpenLibrary, warning_log: Recorder
) -> None:
    (library_folder / "corrupt.pdf").write_bytes(b"%PDF-1.4\n%%EOF garbage")
    (library_folder / "binary.txt").write_bytes(bytes(range(256)))
    (library_folder / "empty.md").touch()
    library = open_library(library_folder)
    assert len(library.documents()) == 5
    assert sorted(m.split(":")[0] for m in warning_log.messages) == [
        "skipped binary.txt",
        "skipped corrupt.pdf",
        "skipped empty.md",
    ]


def test_missing_folder_is_a_library_error(tmp_path: Path, open_library: OpenLibrary) -> None:
    with pytest.raises(LibraryError, match="library folder not found"):
        open_library(tmp_path / "absent")


def test_a_file_is_not_a_folder(tmp_path: Path, open_library: OpenLibrary) -> None:
    path = write_text(tmp_path / "a.md", "text")
    with pytest.raises(LibraryError, match="not a folder"):
        open_library(path)


def test_folder_without_readable_files_is_a_library_error(
    tmp_path: Path, open_library: OpenLibrary, warning_log: Recorder
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "empty.txt").touch()
    (folder / "data.csv").write_text("a,b")
    with pytest.raises(LibraryError, match="no readable document in"):
        open_library(folder)
    assert warning_log.messages == ["skipped empty.txt: empty file"]


def test_progress_is_reported(library_folder: Path, open_library: OpenLibrary) -> None:
    progress = Recorder()
    open_library(library_folder, on_progress=progress)
    assert "indexing 5/5 files" in progress.messages


async def test_second_open_reads_the_cache_instead_of_parsing_and_indexing(
    library_folder: Path, open_library: OpenLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = open_library(library_folder)
    assert not first.index_from_cache

    def forbidden(*args: object, **options: object) -> None:
        raise AssertionError("work redone despite the cache")

    monkeypatch.setattr(opening_module, "refresh", forbidden)
    second = open_library(library_folder)
    assert second.index_from_cache
    assert second.documents() == first.documents()
    query = "installed capacity"
    assert await second.search(query) == await first.search(query)


async def test_opening_loads_no_text_and_a_search_loads_only_its_hits(
    library_folder: Path, open_library: OpenLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_library(library_folder)
    loaded: list[str] = []
    load = document_texts.DocumentTexts._load

    def counting(self: document_texts.DocumentTexts, document: LibraryDocument) -> tuple[str, ...]:
        loaded.append(document.path.name)
        return load(self, document)

    monkeypatch.setattr(document_texts.DocumentTexts, "_load", counting)
    library = open_library(library_folder)
    assert loaded == []
    hits = await library.search("offshore wind turbines", limit=1)
    assert loaded == ["wind_review.pdf"]
    assert "Offshore wind farms" in hits[0].passage


async def test_an_edited_file_is_read_again_alone(
    library_folder: Path, open_library: OpenLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_library(library_folder)
    write_text(library_folder / "hydrogen.txt", "Ammonia shipping terminals.\n")
    reads = ReadCounter(monkeypatch)
    library = open_library(library_folder)
    assert reads.read == ["hydrogen.txt"]
    assert not library.index_from_cache
    assert library.summary.changed == ["hydrogen.txt"]
    hits = await library.search("ammonia terminals")
    assert hits[0].passage == "Ammonia shipping terminals."
    assert await library.search("green") == []


async def test_added_and_removed_files_are_searched_as_they_are_now(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    open_library(library_folder)
    write_text(library_folder / "geothermal.md", "# Geothermal\nHeat pumps under the city.\n")
    (library_folder / "battery.html").unlink()
    library = open_library(library_folder)
    assert (library.summary.added, library.summary.removed) == (["geothermal.md"], ["battery.html"])
    hits = await library.search("heat pumps city")
    assert hits[0].title == "Geothermal"
    assert await library.search("lithium phosphate") == []
    with pytest.raises(FetchError):
        await library.fetch((library_folder / "battery.html").resolve().as_uri())


def test_a_corrupt_cache_is_rebuilt(
    library_folder: Path, open_library: OpenLibrary, cache_dir: Path
) -> None:
    open_library(library_folder)
    for entry in (cache_dir / "library" / "parsed").iterdir():
        entry.write_bytes(b"{broken")
    for folder_dir in (cache_dir / "library" / "index").iterdir():
        (folder_dir / "catalog").write_bytes(b"junk")
    library = open_library(library_folder)
    assert not library.index_from_cache
    assert len(library.documents()) == 5
    assert open_library(library_folder).index_from_cache


def test_an_unwritable_cache_warns_once_and_still_opens(
    library_folder: Path, tmp_path: Path, warning_log: Recorder
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be")
    library = Library.open(library_folder, cache_dir=blocker, on_warning=warning_log)
    assert len(library.documents()) == 5
    assert len(warning_log.messages) == 1
    assert warning_log.messages[0].startswith("library cache not writable")


def test_default_cache_dir_comes_from_the_environment(
    library_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FONTE_CACHE_DIR", str(tmp_path / "env-cache"))
    Library.open(library_folder)
    assert any((tmp_path / "env-cache" / "library" / "index").iterdir())


def test_snippet_is_one_line_cut_at_a_word() -> None:
    assert make_snippet("a\n\nb   c") == "a b c"
    snippet = make_snippet("word " * 100, limit=30)
    assert snippet == "word word word word word word…"


async def test_a_running_header_does_not_make_every_page_a_hit(tmp_path: Path) -> None:
    from fpdf import FPDF

    document = FPDF()
    document.set_font("Helvetica", size=11)
    bodies = [
        "Net sales rose in the year across every segment.",
        "Purchases of property, plant and equipment were 1,577 million.",
        "Legal proceedings are described in the notes.",
        "The company employs people in seventy countries.",
        "Research spending grew with the new laboratories.",
    ]
    for body in bodies:
        document.add_page()
        document.multi_cell(0, 6, f"Zephyrine Holdings Quarterly Filing\n{body}")
    folder = tmp_path / "docs"
    folder.mkdir()
    document.output(str(folder / "filing.pdf"))
    library = Library.open(folder, cache_dir=tmp_path / "cache")
    # The header stands on every page: it is no reason for any page to be a hit.
    assert await library.search("Zephyrine", limit=5) == []
    hits = await library.search("Zephyrine purchases of property", limit=5)
    assert [hit.url.rsplit("#", 1)[1] for hit in hits] == ["page=2"]
    # The page text itself keeps its header: the verifier checks the page as it is.
    snapshot = await library.fetch(hits[0].url)
    assert "Zephyrine Holdings Quarterly Filing" in snapshot.page_texts()[1]


def test_many_skipped_files_of_one_reason_make_one_note(
    library_folder: Path, open_library: OpenLibrary, warning_log: Recorder
) -> None:
    empty = library_folder / "empty"
    empty.mkdir()
    for number in range(300):
        (empty / f"e{number:03d}.md").touch()
    (library_folder / "binary.txt").write_bytes(bytes(range(256)))
    library = open_library(library_folder)
    assert len(library.documents()) == 5
    aggregated = [m for m in warning_log.messages if "empty file" in m]
    assert aggregated == [
        "300 files skipped (empty file): empty/e000.md, empty/e001.md, empty/e002.md, …"
    ]
    note = aggregated[0]
    assert isinstance(note, Note)
    assert note.in_language("pt") == (
        "300 arquivos ignorados (arquivo vazio): empty/e000.md, empty/e001.md, empty/e002.md, …"
    )
    assert len(warning_log.messages) == 2  # and the binary file's own note


def test_a_file_name_cannot_forge_a_warning_line(
    library_folder: Path, open_library: OpenLibrary, warning_log: Recorder
) -> None:
    (library_folder / "ok.md\nunreadable: ok.md: corrupted.md").touch()
    (library_folder / "\u202eevil.md").touch()
    open_library(library_folder)
    assert sorted(warning_log.messages) == [
        "skipped \\u202eevil.md: empty file",
        "skipped ok.md\\nunreadable: ok.md: corrupted.md: empty file",
    ]
    assert all("\n" not in m and "\u202e" not in m for m in warning_log.messages)


def test_an_unreadable_subfolder_is_warned_about(
    library_folder: Path,
    open_library: OpenLibrary,
    warning_log: Recorder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    locked = library_folder / "locked"
    locked.mkdir()
    write_text(locked / "secret.md", "# Secret\n\nA document nobody may read here.")
    scandir = os.scandir

    def refusing(path: os.PathLike[str] | str) -> object:
        if Path(path) == locked:  # as chmod 000 would, for a user other than root
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    library = open_library(library_folder)
    assert all(d.path.parent != locked for d in library.documents())
    assert warning_log.messages == ["skipped locked/: folder not readable (Permission denied)"]
    assert isinstance(warning_log.messages[0], Note)
    assert warning_log.messages[0].in_language("pt") == (
        "ignorado locked/: pasta ilegível (Permission denied)"
    )


def test_an_unwritable_cache_is_named_without_its_path(
    library_folder: Path, tmp_path: Path, warning_log: Recorder
) -> None:
    blocker = tmp_path / "cache-file"
    blocker.write_text("not a folder")
    Library.open(library_folder, cache_dir=blocker, on_warning=warning_log)
    (message,) = warning_log.messages
    assert str(blocker) not in message
    assert isinstance(message, Note)
    assert message.in_language("pt").startswith("cache da")


async def test_a_library_the_deadline_stopped_searches_what_was_indexed_and_says_what_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    for name in ("a", "b", "c", "d", "e"):
        write_text(folder / f"{name}.md", f"# Note {name}\nTariff case {name}, solar.\n")
    clock = FakeClock(0.0)
    TimedReads(monkeypatch, clock, seconds=1.0)
    warnings = Recorder()
    library = Library.open(
        folder, cache_dir=tmp_path / "cache", on_warning=warnings, deadline=Deadline(1.5, clock)
    )
    assert [d.path.name for d in library.documents()] == ["a.md", "b.md"]
    assert {hit.title for hit in await library.search("tariff solar")} == {"Note a", "Note b"}
    (note,) = warnings.messages
    assert note == (
        "the library's index was not finished within the time cap: 2 of 5 files indexed, "
        "3 (< 1 MB) not yet read and not searched; the next run goes on from there"
    )
    assert isinstance(note, Note)
    assert note.pt.startswith("o índice da biblioteca não ficou pronto dentro do limite de tempo")
    assert library.summary.pending == ["c.md", "d.md", "e.md"]
    reads = ReadCounter(monkeypatch)
    whole = Library.open(folder, cache_dir=tmp_path / "cache", on_warning=pytest.fail)
    assert reads.read == ["c.md", "d.md", "e.md"]
    assert len(whole.documents()) == 5


def test_a_library_with_no_file_read_before_the_deadline_opens_empty(tmp_path: Path) -> None:
    """Not 'no readable document': its files were not read yet, which the note says."""
    folder = tmp_path / "docs"
    write_text(folder / "a.md", "# A\nText.\n")
    clock = FakeClock()
    library = Library.open(
        folder, cache_dir=tmp_path / "cache", deadline=Deadline(clock.now, clock)
    )
    assert (library.documents(), library.summary.pending) == ([], ["a.md"])


def test_a_watched_library_knows_whether_its_folder_is_unchanged(
    library_folder: Path, open_library: OpenLibrary
) -> None:
    assert not open_library(library_folder).unchanged()  # unwatched: nothing is promised
    watched = open_library(library_folder, watch=True)
    again = open_library(library_folder, watch=True)
    assert watched.unchanged()
    assert again.unchanged()
    os.utime(library_folder / "lei_gd.md")
    assert not watched.unchanged()
    assert not again.unchanged()
    reopened = open_library(library_folder, watch=True)
    assert reopened.unchanged()
    reopened.close()
    assert not reopened.unchanged()  # no watch any more


def test_a_watched_opening_walks_its_folder_after_the_watch_began(
    library_folder: Path, open_library: OpenLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.sources.library import start_scan

    ahead = start_scan(library_folder)  # a walk begun before the watch: what came between
    child = ahead._child  # would be seen by neither, so it is not taken
    monkeypatch.setattr(ahead, "result", lambda: pytest.fail("the walk begun ahead was taken"))
    write_text(library_folder / "novo.md", "# Novo\n\nTexto novo sobre baterias.\n")
    library = open_library(library_folder, watch=True, scan_ahead=ahead)
    assert child is not None
    assert child.returncode is not None
    assert any(document.path.name == "novo.md" for document in library.documents())
    assert library.unchanged()
