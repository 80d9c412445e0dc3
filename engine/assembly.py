"""Where a run's text comes from: a library folder or the web, opened and closed as one.

The CLI (and the evals) say what they want; this module builds the Search and Fetcher pair,
the labels a report records so `fonte verify` can find its sources again, and the notes a
source gathers along the way (a search provider that failed over, a skipped file).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from engine.sources.library import Library
from engine.sources.protocols import Fetcher, Search
from engine.sources.web import CachingFetcher, DiskSnapshotStore, FetchConfig, WebFetcher
from engine.sources.web.search import search_from_env

LIBRARY_LABEL = "library:"
WEB_LABEL = "web:"
# A research run re-reads a page cached within this age instead of fetching it again.
SNAPSHOT_MAX_AGE = timedelta(hours=24)


@dataclass
class Sources:
    searcher: Search
    fetcher: Fetcher
    labels: tuple[str, ...]
    notes: list[str] = field(default_factory=list)


def library_sources(library: Library, warnings: list[str]) -> Sources:
    return Sources(library, library, (f"{LIBRARY_LABEL}{library.folder}",), list(warnings))


def snapshot_store(cache_dir: Path | None) -> DiskSnapshotStore:
    return DiskSnapshotStore(cache_dir / "snapshots" if cache_dir is not None else None)


@asynccontextmanager
async def web_sources(
    cache_dir: Path | None,
    env: Mapping[str, str] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> AsyncIterator[Sources]:
    """The configured search chain and a guarded fetcher whose reads are snapshotted on disk.

    Configuration errors (a provider without its key, a bad FONTE_FETCH_* value) raise before
    any request is made. The fetcher is bound to the running event loop: open this inside it.
    """
    environment = os.environ if env is None else env
    config = FetchConfig.from_env(environment)
    searcher = search_from_env(environment, on_note=on_note)
    async with WebFetcher(config) as live:
        fetcher = CachingFetcher(live, snapshot_store(cache_dir), max_age=SNAPSHOT_MAX_AGE)
        sources = Sources(searcher, fetcher, (f"{WEB_LABEL}{searcher.name}",))
        try:
            yield sources
        finally:
            sources.notes.extend(searcher.notes)


def recorded_library(labels: list[str]) -> Path | None:
    for label in labels:
        if label.startswith(LIBRARY_LABEL):
            return Path(label.removeprefix(LIBRARY_LABEL))
    return None


def is_web_report(labels: list[str]) -> bool:
    return any(label.startswith(WEB_LABEL) for label in labels)
