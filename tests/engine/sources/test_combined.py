"""Several sources as one (engine/sources/combined.py): a fair merge of their hits, each URL
read by the source it belongs to (never a library's or a shared file's URL sent to the web),
page evidence from the sources that can show pages, labels and notes united."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.assembly import combined_sources, library_sources, source_part
from engine.contracts import Claim, Report
from engine.snapshots import Snapshot
from engine.sources.combined import (
    SourcePart,
    combine,
    library_owns,
    with_origins,
)
from engine.sources.kinds import CONVERSATION, LIBRARY, WEB, Origin
from engine.sources.library import Library
from engine.sources.protocols import DocumentGone, FetchError, SearchError, SearchHit
from tests.support.slack_samples import report


@dataclass
class Scripted:
    """A search and fetcher answering with `hits` (their URLs as given), reading any URL
    of `pages`; counts what it was asked."""

    name: str
    hits: list[str] = field(default_factory=list)
    pages: set[str] = field(default_factory=set)
    failure: Exception | None = None
    gate: asyncio.Event | None = None
    fetched: list[str] = field(default_factory=list)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if self.gate is not None:
            await self.gate.wait()
        if self.failure is not None:
            raise self.failure
        return [
            SearchHit(url, url, "snippet", rank, self.name)
            for rank, url in enumerate(self.hits[:limit], start=1)
        ]

    async def fetch(self, url: str) -> Snapshot:
        self.fetched.append(url)
        if url.split("#")[0] not in self.pages:
            raise FetchError(f"{self.name} has no {url}")
        return Snapshot(url=url, text=f"text of {url}")


def part(source: Scripted, origin: Origin, local: bool = False, **extra: object) -> SourcePart:
    owns = (lambda url: url.split("#")[0] in source.pages) if local else None
    return SourcePart(origin, source, source, (f"{origin}:{source.name}",), owns=owns, **extra)  # type: ignore[arg-type]


async def test_each_source_keeps_its_share_whatever_the_others_return() -> None:
    library = Scripted("library", hits=[f"file:///lib/{n}.md" for n in range(3)])
    web = Scripted("web", hits=[f"https://web.example/{n}" for n in range(50)])
    hits = await combine(
        [part(library, Origin.library, True), part(web, Origin.web)]
    ).searcher.search("q", 6)
    assert [hit.url for hit in hits] == [
        "file:///lib/0.md",
        "https://web.example/0",
        "file:///lib/1.md",
        "https://web.example/1",
        "file:///lib/2.md",
        "https://web.example/2",
    ]
    assert [hit.rank for hit in hits] == [1, 2, 3, 4, 5, 6]
    # A source with fewer hits leaves its turns to the others: the limit is still filled.
    short = Scripted("library", hits=["file:///lib/0.md"])
    hits = await combine(
        [part(short, Origin.library, True), part(web, Origin.web)]
    ).searcher.search("q", 4)
    assert [hit.url for hit in hits][:2] == ["file:///lib/0.md", "https://web.example/0"]
    assert len(hits) == 4


async def test_the_order_is_the_parts_not_who_answered_first() -> None:
    gate = asyncio.Event()
    slow = Scripted("slow", hits=["https://slow.example/a"], gate=gate)
    fast = Scripted("fast", hits=["https://fast.example/a"])
    combination = combine([part(slow, Origin.library), part(fast, Origin.web)])
    searching = asyncio.create_task(combination.searcher.search("q", 5))
    await asyncio.sleep(0)  # the fast one has answered; the slow one waits for the gate
    gate.set()
    hits = await searching
    assert [hit.provider for hit in hits] == ["slow", "fast"]


async def test_a_url_both_serve_is_listed_once_by_the_first() -> None:
    library = Scripted("library", hits=["https://agency.gov/report.pdf#page=2"])
    web = Scripted("web", hits=["https://agency.gov/report.pdf#page=2", "https://other.org"])
    hits = await combine([part(library, Origin.library), part(web, Origin.web)]).searcher.search(
        "q", 5
    )
    assert [(hit.url, hit.provider) for hit in hits] == [
        ("https://agency.gov/report.pdf#page=2", "library"),
        ("https://other.org", "web"),
    ]


async def test_a_failing_source_is_noted_and_only_all_failing_fails() -> None:
    library = Scripted("library", hits=["file:///lib/a.md"])
    web = Scripted("web", failure=SearchError("quota exceeded"))
    combination = combine([part(library, Origin.library, True), part(web, Origin.web)])
    hits = await combination.searcher.search("q", 5)
    assert [hit.url for hit in hits] == ["file:///lib/a.md"]
    assert combination.notes == ["web: quota exceeded"]
    await combination.searcher.search("q", 5)
    assert combination.notes == ["web: quota exceeded"]  # noted once
    library.failure = SearchError("index gone")
    with pytest.raises(SearchError, match=r"index gone.*quota exceeded"):
        await combination.searcher.search("q", 5)
    web.failure = RuntimeError("a bug")  # not a source's failure: it is not swallowed
    with pytest.raises(RuntimeError):
        await combination.searcher.search("q", 5)


async def test_a_url_is_read_by_its_own_source_and_never_sent_to_the_web() -> None:
    library = Scripted("library", pages={"https://agency.gov/r.pdf"})  # hits: none of it
    shared = Scripted("shared", pages={"https://team.slack.com/files/U1/F1/deck.pdf"})
    web = Scripted("web", hits=["https://agency.gov/r.pdf", "https://news.example/a"])
    web.pages = {"https://news.example/a", "https://agency.gov/r.pdf"}

    def private(url: str) -> bool:
        return ".slack.com/files/" in url

    parts = [
        part(shared, Origin.conversation, True),
        part(library, Origin.library, True),
        part(web, Origin.web),
    ]
    combination = combine(parts, keep_off_open=private)
    await combination.searcher.search("q", 5)
    # The library holds it, though only the web's search served it: the library reads it.
    await combination.fetcher.fetch("https://agency.gov/r.pdf#page=3")
    await combination.fetcher.fetch("https://team.slack.com/files/U1/F1/deck.pdf#page=1")
    await combination.fetcher.fetch("https://news.example/a")
    assert library.fetched == ["https://agency.gov/r.pdf#page=3"]
    assert shared.fetched == ["https://team.slack.com/files/U1/F1/deck.pdf#page=1"]
    assert web.fetched == ["https://news.example/a"]
    # Another conversation's file: nobody here holds it, and it never reaches the web.
    with pytest.raises(DocumentGone, match="no source"):
        await combination.fetcher.fetch("https://team.slack.com/files/U2/F9/secret.pdf")
    # Nor does a library file no library holds (removed): it is gone, not the web's to read.
    with pytest.raises(DocumentGone, match="no source"):
        await combination.fetcher.fetch("file:///lib/removed.md#page=2")
    assert combination.origin_of("file:///lib/removed.md") is None
    assert web.fetched == ["https://news.example/a"]
    # A web address with no part to read it is not said to be gone.
    alone = combine([part(library, Origin.library, True)])
    with pytest.raises(FetchError, match="no source") as raised:
        await alone.fetcher.fetch("https://news.example/b")
    assert not isinstance(raised.value, DocumentGone)
    # A fresh combination (a worker that never ran the search) dispatches the same way.
    again = combine(parts, keep_off_open=private)
    await again.fetcher.fetch("https://agency.gov/r.pdf")
    assert library.fetched[-1] == "https://agency.gov/r.pdf"
    assert len(web.fetched) == 1
    assert again.origin_of("https://news.example/a") == Origin.web
    assert (
        again.origin_of("https://team.slack.com/files/U1/F1/deck.pdf#page=2") == Origin.conversation
    )
    # The fetcher says it too: a toolbox charges each read as the part it came from.
    assert again.fetcher.origin_of("https://agency.gov/r.pdf#page=2") == Origin.library
    assert again.fetcher.origin_of("https://team.slack.com/files/U2/F9/x.pdf") is None


def test_a_combination_reads_what_its_parts_are_whatever_their_searches_say() -> None:
    shared, library, web = Scripted("library"), Scripted("library"), Scripted("ddgs")
    documents = combine([part(shared, Origin.conversation, True), part(library, Origin.library)])
    assert documents.searcher.kind == LIBRARY | CONVERSATION
    assert documents.searcher.name == "library+library"  # a name for people, never asked
    assert documents.searcher.kind.indexed
    everything = combine([part(library, Origin.library, True), part(web, Origin.web)])
    assert everything.searcher.kind == LIBRARY | WEB


async def test_without_an_open_source_an_unknown_url_fails() -> None:
    library = Scripted("library", pages={"file:///lib/a.md"})
    other = Scripted("other", hits=["https://served.example/x"], pages={"https://served.example/x"})
    combination = combine([part(library, Origin.library, True), part(other, Origin.library, True)])
    with pytest.raises(FetchError):
        await combination.fetcher.fetch("https://nowhere.example/")
    assert library.fetched == []
    assert other.fetched == []
    assert combination.origin_of("https://nowhere.example/") is None


async def test_a_url_served_by_an_open_source_goes_back_to_it() -> None:
    first = Scripted("first", hits=["https://a.example/1"], pages={"https://a.example/1"})
    second = Scripted("second", hits=["https://b.example/1"], pages={"https://b.example/1"})
    combination = combine([part(first, Origin.web), part(second, Origin.web)])
    await combination.searcher.search("q", 5)
    await combination.fetcher.fetch("https://b.example/1")
    assert second.fetched == ["https://b.example/1"]
    assert first.fetched == []


@dataclass
class Evidence:
    """Page evidence that has crops for `urls` only, marked with its name."""

    name: str
    urls: set[str]
    boxed: list[str] = field(default_factory=list)

    def with_boxes(self, report: Report) -> Report:
        self.boxed.append(self.name)
        return report

    def crops(self, report: Report) -> Mapping[str, bytes]:
        return {
            c.id: self.name.encode()
            for c in report.claims
            if c.url.split("#")[0] in self.urls or "*" in self.urls
        }

    def crop_png(self, claim: Claim) -> bytes | None:
        known = claim.url.split("#")[0] in self.urls or "*" in self.urls
        return self.name.encode() if known else None


def test_page_evidence_comes_from_the_claims_own_source_first() -> None:
    sample = report(2)
    lib_url, web_url = (c.url.split("#")[0] for c in sample.claims)
    library = Scripted("library", pages={lib_url})
    web = Scripted("web")
    library_evidence = Evidence("library", {lib_url})
    web_evidence = Evidence("web", {"*"})  # would claim every PDF: it must not win the library's
    text_only = Scripted("text")
    combination = combine(
        [
            part(library, Origin.library, True, evidence=library_evidence),
            part(text_only, Origin.conversation, True),
            part(web, Origin.web, evidence=web_evidence),
        ]
    )
    evidence = combination.evidence
    assert evidence is not None
    first, second = sample.claims
    assert dict(evidence.crops(sample)) == {first.id: b"library", second.id: b"web"}
    assert evidence.crop_png(first) == b"library"
    assert evidence.crop_png(second) == b"web"
    evidence.with_boxes(sample)
    assert library_evidence.boxed == ["library"]
    assert web_evidence.boxed == ["web"]
    assert web_url.startswith("https://")
    assert combine([part(text_only, Origin.conversation, True)]).evidence is None


def test_labels_and_notes_are_the_union() -> None:
    one = part(Scripted("a"), Origin.library, True, notes=["skipped x.doc"])
    two = part(Scripted("b"), Origin.web, notes=["skipped x.doc", "search fell back"])
    combination = combine([one, two, one])
    assert combination.labels == ("library:a", "web:b")
    assert combination.notes == ["skipped x.doc", "search fell back"]
    with pytest.raises(ValueError, match="at least one"):
        combine([])


def test_origins_are_recorded_by_document() -> None:
    sample = report(3)
    first, second, third = sample.claims
    origins = {first.url: Origin.library, second.url: Origin.web}
    marked = with_origins(sample, lambda url: origins.get(url))
    assert marked.origins == {
        first.url.split("#")[0]: Origin.library,
        second.url.split("#")[0]: Origin.web,
    }
    assert third.url.split("#")[0] not in marked.origins
    assert sample.origins == {}  # the report itself is left as it was


async def test_a_library_owns_its_documents_urls_in_any_spelling(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "notes.md").write_text("# Notes\n\nThe plant produces 12 MW.\n", encoding="utf-8")
    (folder / "plain.md").write_text("# Plain\n\nNothing but text here.\n", encoding="utf-8")
    permalink = "https://team.slack.com/files/U1/F1/notes.md"
    (folder / "index.jsonl").write_text(
        f'{{"file": "notes.md", "url": "{permalink}", "title": "Notes"}}\n', encoding="utf-8"
    )
    library = Library.open(folder, cache_dir=tmp_path / "cache")
    owns = library_owns(library)
    assert owns(permalink)
    assert owns(permalink + "#page=1")
    plain = (folder / "plain.md").resolve().as_uri()
    assert owns(plain)
    assert owns(plain.replace("/shared/", "/shared/./"))
    assert not owns("https://team.slack.com/files/U1/F2/other.md")
    # As parts of combined sources: the web never sees the library's permalink.
    web = Scripted("web", pages={permalink})
    sources = combined_sources(
        [
            source_part(library_sources(library, []), Origin.conversation, owns),
            part(web, Origin.web),
        ]
    )
    snapshot = await sources.fetcher.fetch(permalink)
    assert "12 MW" in snapshot.text
    assert web.fetched == []
    assert sources.origin_of is not None
    assert sources.origin_of(permalink) == Origin.conversation
    assert sources.closers == []  # each part is closed by whoever opened it


def test_the_rendered_sources_say_where_each_came_from() -> None:
    from engine.render.citations import claim_origin, sources_by_document
    from engine.render.html import render_html
    from engine.render.markdown import render_markdown

    sample = report(3, language="en")
    first, second, third = sample.claims
    origins = {first.url: Origin.library, second.url: Origin.web, third.url: Origin.conversation}
    marked = with_origins(sample, lambda url: origins.get(url))
    assert [group.origin for group in sources_by_document(marked)] == [
        Origin.library,
        Origin.web,
        Origin.conversation,
    ]
    assert claim_origin(marked, second) == Origin.web
    markdown = render_markdown(marked)
    for line, origin in zip(
        [line for line in markdown.splitlines() if line.startswith("**Documento")],
        ("team library", "web", "shared in this conversation"),
        strict=True,
    ):
        assert origin in line
    assert "shared in this conversation" in render_html(marked)
    portuguese = render_markdown(with_origins(report(1), lambda url: Origin.conversation))
    assert "compartilhado nesta conversa" in portuguese
    # One source, no origins recorded: nothing added.
    assert "team library" not in render_markdown(sample)
