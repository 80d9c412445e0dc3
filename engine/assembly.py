"""Where a run's text comes from: a library folder or the web, opened and closed as one.

The CLI (and the evals) say what they want; this module builds the Search and Fetcher pair,
the labels a report records so `fonte verify` can find its sources again, the notes a
source gathers along the way (a search provider that failed over, a skipped file), and the
page evidence of sources that can show their pages (PDFs of a library or fetched from the
web), which whoever renders a report hands to the renderers.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from engine.contracts import Report
from engine.documents.parse import KIND_BY_SUFFIX
from engine.render import PageEvidence
from engine.sources.combined import Owns, combine
from engine.sources.combined import SourcePart as SourcePart
from engine.sources.combined import library_owns as library_owns
from engine.sources.combined import with_origins as with_origins
from engine.sources.kinds import Origin, SourceKind
from engine.sources.library import Deadline, Library
from engine.sources.library.files import in_language
from engine.sources.library.folder import unfinished_note
from engine.sources.library.page_evidence import LibraryPageEvidence
from engine.sources.protocols import Fetcher, Search
from engine.sources.web import CachingFetcher, DiskSnapshotStore, FetchConfig, WebPageEvidence
from engine.sources.web.config import MAX_BYTES

LIBRARY_LABEL = "library:"
WEB_LABEL = "web:"
# A research run re-reads a page cached within this age instead of fetching it again.
SNAPSHOT_MAX_AGE = timedelta(hours=24)


@dataclass
class Sources:
    """A Search and Fetcher pair, the labels a report records, the notes gathered on the way,
    what must be closed when the sources are no longer used (`aclose`), and the page
    evidence (boxes, highlighted crops) of sources that can show their pages."""

    searcher: Search
    fetcher: Fetcher
    labels: tuple[str, ...]
    notes: list[str] = field(default_factory=list)
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list, repr=False)
    evidence: PageEvidence | None = field(default=None, repr=False)
    origin_of: Callable[[str], Origin | None] | None = field(default=None, repr=False)
    """Which part of combined sources a URL came from (`combined_sources`); None: one."""

    @property
    def kind(self) -> SourceKind:
        """What these sources read, as their search says (engine/sources/kinds.py)."""
        return self.searcher.kind

    def notes_in(self, language: str) -> list[str]:
        """The notes as a report in `language` gives them: a library's warnings have their
        Portuguese wording (`Note`); any other note is as it was written."""
        return [in_language(note, language) for note in self.notes]

    async def aclose(self) -> None:
        closers, self.closers = self.closers, []
        for close in closers:
            await close()


def library_sources(
    library: Library, warnings: list[str], deadline: Deadline | None = None
) -> Sources:
    """`library` as a run's sources; `warnings`, what opening it said (its `Note`s), become
    the notes, which `Sources.notes_in` gives in a report's language. `deadline`, the run's
    time cap, holds for its page evidence too (scanned pages read again by OCR)."""
    return Sources(
        library,
        library,
        (f"{LIBRARY_LABEL}{library.folder}",),
        list(warnings),
        evidence=LibraryPageEvidence(library, deadline),
    )


def index_unfinished(report: Report, library: Library) -> Report:
    """`report` as its run left it when the time cap stopped the index build of its
    `library` (files left unread, unsearched): partial, its first gap saying so in the
    report's language (the note is among its notes already, as the library warned)."""
    if not library.summary.unfinished:
        return report
    note = unfinished_note(library.summary, library.document_count())
    line = note.in_language(report.language)
    return report.model_copy(update={"partial": True, "gaps": [line, *report.gaps]})


def source_part(sources: Sources, origin: Origin, owns: Owns | None = None) -> SourcePart:
    """`sources` as one part of a combination (`combined_sources`): `owns` says which URLs
    are its own (a library's, a conversation's files'); None for the open web."""
    return SourcePart(
        origin,
        sources.searcher,
        sources.fetcher,
        sources.labels,
        sources.notes,
        sources.evidence,
        owns,
    )


def combined_sources(parts: Sequence[SourcePart], keep_off_open: Owns | None = None) -> Sources:
    """The parts researched as one (engine/sources/combined.py). Its closers are none: each
    part is closed by whoever opened it, since a process shares its library and web."""
    combination = combine(parts, keep_off_open)
    return Sources(
        combination.searcher,
        combination.fetcher,
        combination.labels,
        combination.notes,
        evidence=combination.evidence,
        origin_of=combination.origin_of,
    )


def library_problem(folder: Path) -> str | None:
    """Why `folder` cannot be a library (one line, naming it), or None: a quick look, no
    indexing — it exists and holds a file of a supported type (hidden ones aside)."""
    if not folder.is_dir():
        return f"{folder}: no such folder"
    for _, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in files:
            if not name.startswith(".") and os.path.splitext(name)[1].lower() in KIND_BY_SUFFIX:
                return None
    return f"{folder}: the folder holds no document ({', '.join(sorted(KIND_BY_SUFFIX))})"


def snapshot_store(cache_dir: Path | None, max_pdf_bytes: int = MAX_BYTES) -> DiskSnapshotStore:
    """The web's snapshots under `cache_dir`, with the PDFs fetched up to `max_pdf_bytes`."""
    folder = cache_dir / "snapshots" if cache_dir is not None else None
    return DiskSnapshotStore(folder, max_pdf_bytes=max_pdf_bytes)


def open_web_sources(
    cache_dir: Path | None,
    env: Mapping[str, str] | None = None,
    on_note: Callable[[str], None] | None = None,
    deadline: Deadline | None = None,
    read_since: datetime | None = None,
) -> Sources:
    """The configured search chain and a guarded fetcher whose reads are snapshotted on disk;
    the caller closes them with `Sources.aclose` (a long-lived bot keeps them open).
    `deadline`, the run's time cap, holds for its page evidence (kept PDFs' scanned pages
    read again by OCR), as `library_sources`'. `read_since`: a snapshot fetched before it is
    read live again (a run compared with a previous one passes its start: every page as it
    is today).

    Configuration errors (a provider without its key, a bad FONTE_FETCH_* value) raise
    BadInput before any request is made.
    """
    # The web client, its HTML reader and the search APIs (httpx, trafilatura, lxml) are
    # imported by a research that reads the web, not by one on a library alone.
    from engine.sources.web import WebFetcher
    from engine.sources.web.search import search_from_env

    environment = os.environ if env is None else env
    config = FetchConfig.from_env(environment)
    notes: list[str] = []

    def note(message: str) -> None:  # the chain reports each distinct fallback once
        notes.append(message)
        if on_note is not None:
            on_note(message)

    searcher = search_from_env(environment, on_note=note)
    live = WebFetcher(config)
    store = snapshot_store(cache_dir, max_pdf_bytes=config.max_bytes)
    fetcher = CachingFetcher(
        live, store, max_age=SNAPSHOT_MAX_AGE, admit=live.admit, read_since=read_since
    )
    label = f"{WEB_LABEL}{searcher.name}"
    # The PDFs it fetches are kept beside their snapshots: their pages can be shown.
    evidence = WebPageEvidence(fetcher.pdfs, deadline)
    return Sources(
        searcher, fetcher, (label,), notes=notes, closers=[live.aclose], evidence=evidence
    )


@asynccontextmanager
async def web_sources(
    cache_dir: Path | None,
    env: Mapping[str, str] | None = None,
    on_note: Callable[[str], None] | None = None,
    deadline: Deadline | None = None,
    read_since: datetime | None = None,
) -> AsyncIterator[Sources]:
    """`open_web_sources` for one run, closed at the end. Open it inside the event loop that
    uses it: the fetcher's connections belong to that loop."""
    sources = open_web_sources(cache_dir, env, on_note, deadline, read_since)
    try:
        yield sources
    finally:
        await sources.aclose()


def recorded_library(labels: list[str]) -> Path | None:
    for label in labels:
        if label.startswith(LIBRARY_LABEL):
            return Path(label.removeprefix(LIBRARY_LABEL))
    return None


def is_web_report(labels: list[str]) -> bool:
    return any(label.startswith(WEB_LABEL) for label in labels)
