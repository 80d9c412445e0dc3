"""A library whose searches for one word are slow, for tests and benchmarks that kill a
worker mid-search. Configured through the environment, so a `fonte worker` subprocess loads
it as FONTE_SOURCE=tests.support.slow_library:open_slow_library:

FONTE_TEST_SLOW_WORD     a query holding this word (any case) waits before it is answered
FONTE_TEST_SLOW_SECONDS  how long (default 5)
FONTE_TEST_MARK_DIR      a folder where each slow search leaves `slow-search-<pid>` as it starts;
                         with it, only the first process to search slowly is slow (the
                         worker a test kills), and the workers after it are not
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path

from bot.config import Settings
from bot.sources import open_library_sources
from engine.assembly import Sources
from engine.snapshots import Snapshot
from engine.sources.kinds import SourceKind
from engine.sources.protocols import SearchHit


@dataclass
class SlowLibrary:
    inner: Sources
    word: str
    seconds: float
    marks: Path | None = None
    name: str = "slow-library"

    @property
    def kind(self) -> SourceKind:
        return self.inner.kind

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if self.word and self.word in query.lower():
            mine = f"slow-search-{os.getpid()}"
            if self.marks is not None:
                if any(mark.name != mine for mark in self.marks.iterdir()):
                    return await self.inner.searcher.search(query, limit)
                (self.marks / mine).touch()
            await asyncio.sleep(self.seconds)
        return await self.inner.searcher.search(query, limit)

    async def fetch(self, url: str) -> Snapshot:
        return await self.inner.fetcher.fetch(url)


def open_slow_library(settings: Settings) -> Sources:
    inner = open_library_sources(settings)
    marks = os.environ.get("FONTE_TEST_MARK_DIR")
    slow = SlowLibrary(
        inner,
        word=os.environ.get("FONTE_TEST_SLOW_WORD", "").lower(),
        seconds=float(os.environ.get("FONTE_TEST_SLOW_SECONDS", "5")),
        marks=Path(marks) if marks else None,
    )
    return Sources(slow, slow, inner.labels, closers=inner.closers)
