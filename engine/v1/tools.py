"""The v1 researcher's tools: search and read, each a step of the run's budget (or of a
budget that never says no, when the evals meter v1 without a ceiling).

v1 had one researcher holding one conversation, so its tool calls ran one after another; a
lock keeps that true whatever the role implementation does (a model may ask for several
reads in one turn). The tools keep every snapshot read, which is what the report's claims
later point at, and everything the researcher saw, which is what its model call costs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from engine.budget import Budget, Refusal, StepRefused
from engine.contracts import Subquestion
from engine.events import EventSink, SubagentFinished, SubagentStarted, ignore_events
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import Fetcher, Search, SearchHit
from engine.v1.notes import V1_RESEARCHER, SourceEntry


class ResearchTools:
    def __init__(
        self,
        searcher: Search,
        fetcher: Fetcher,
        budget: Budget,
        events: EventSink = ignore_events,
    ) -> None:
        self.searcher = searcher
        self.fetcher = fetcher
        self.budget = budget
        self.events = events
        self.seen: list[str] = []
        """Search results and page texts, in the order the researcher met them."""
        self._one_call_at_a_time = asyncio.Lock()
        self._hits: dict[str, SearchHit] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._consulted: list[str] = []
        self._current: Subquestion | None = None
        self.on_page_from_cache: Callable[[str, Snapshot], None] | None = None
        """Told of each page served from an open document for the first time: it costs no
        step, but its text is shown to the researcher all the same."""

    # -- progress: the one researcher turning from subquestion to subquestion ----------

    def begin(self, subquestion: Subquestion) -> None:
        self.finish()
        self._current = subquestion
        self.events(SubagentStarted(V1_RESEARCHER, subquestion.id))

    def finish(self, error: str | None = None) -> None:
        if self._current is not None:
            # v1's researcher posts no claims: it writes prose.
            self.events(SubagentFinished(V1_RESEARCHER, self._current.id, 0, False, error))
            self._current = None

    # -- the tools ---------------------------------------------------------------------

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        async with self._one_call_at_a_time:
            await self._count_step()
            hits = await self.searcher.search(query, limit=limit)
        for hit in hits:
            self._hits.setdefault(hit.url, hit)
            self.seen.append(f"{hit.title} {hit.url} {hit.snippet}")
        return hits

    async def read(self, url: str) -> Snapshot:
        """The text of a source; a document already read costs no step."""
        document = split_page(url)[0]
        async with self._one_call_at_a_time:
            snapshot = self._snapshots.get(document)
            if snapshot is None:
                await self._count_step()
                snapshot = await self.fetcher.fetch(url)
                self._snapshots[document] = snapshot
                self.seen.append(snapshot.text)
            elif url not in self._consulted and self.on_page_from_cache is not None:
                self.on_page_from_cache(url, snapshot)
        if url not in self._consulted:
            self._consulted.append(url)
        return snapshot

    async def _count_step(self) -> None:
        outcome = await self.budget.reserve(steps=1)
        if isinstance(outcome, Refusal):  # a limit of the run's budget, or a stop
            raise StepRefused(outcome)
        await self.budget.settle(outcome, 0.0)

    # -- what was read -----------------------------------------------------------------

    def snapshots(self) -> dict[str, Snapshot]:
        """Snapshots read, by document URL (without page fragment)."""
        return dict(self._snapshots)

    def consulted(self) -> list[SourceEntry]:
        """The numbered source list: every URL read, in reading order, described by the
        search hit that led to it (or by the page's own title when none did)."""
        entries: list[SourceEntry] = []
        for number, url in enumerate(self._consulted, start=1):
            hit = self._hits.get(url)
            snapshot = self._snapshots[split_page(url)[0]]
            title = (hit.title if hit is not None else "") or snapshot.title or url
            snippet = hit.snippet if hit is not None else ""
            entries.append(SourceEntry(number, url, title, snippet))
        return entries
