"""An in-memory source that speaks the Search and Fetcher protocols, its sample pages, and the toolbox of one subagent over it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from engine.agents.toolbox import Assignment, Toolbox
from engine.board import InMemoryBoard
from engine.budget import InMemoryBudget
from engine.contracts import Language, Limits, Subquestion
from engine.snapshots import InMemorySnapshotStore, Snapshot, split_page
from engine.sources.kinds import WEB, SourceKind
from engine.sources.protocols import DocumentGone, Fetcher, Search, SearchHit
from engine.text.tokens import term_set


@dataclass
class PagesSource:
    """Documents kept in memory; search ranks them by shared terms. Counts every call."""

    documents: dict[str, Snapshot] = field(default_factory=dict)
    name: str = "pages"
    kind: SourceKind = WEB
    """What it stands in for: the web by default, a library with `kind=LIBRARY`."""
    searches: list[str] = field(default_factory=list)
    fetches: list[str] = field(default_factory=list)

    def add(self, url: str, text: str, title: str = "", pages: list[str] | None = None) -> None:
        if pages is not None:
            self.documents[url] = Snapshot.from_pages(url, pages, title=title)
        else:
            self.documents[url] = Snapshot(url=url, text=text, title=title)

    def _units(self) -> Iterator[tuple[str, str]]:
        for url, snapshot in self.documents.items():
            if snapshot.pages is None:
                yield url, snapshot.text
            else:
                for number, page in enumerate(snapshot.pages, start=1):
                    yield f"{url}#page={number}", page

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        self.searches.append(query)
        wanted = term_set(query)
        scored = [(len(wanted & term_set(text)), url, text) for url, text in self._units()]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])[:limit]
        return [
            SearchHit(url, self.documents[split_page(url)[0]].title, text[:200], rank, self.name)
            for rank, (_, url, text) in enumerate(ranked, start=1)
        ]

    async def fetch(self, url: str) -> Snapshot:
        self.fetches.append(url)
        try:
            return self.documents[split_page(url)[0]]
        except KeyError:  # as a library answers for a file it no longer holds
            raise DocumentGone(f"no document at {url}") from None


LAW_TEXT = """# Lei 14.300

Art. 1º Para fins e efeitos desta Lei, são adotadas as seguintes definições:

XI - microgeração distribuída: central geradora de energia elétrica, com potência instalada menor ou igual a 75 kW (setenta e cinco quilowatts), conectada na rede de distribuição;

XIII - minigeração distribuída: central geradora com potência instalada maior que 75 kW e menor ou igual a 5 MW para as fontes despacháveis e 3 MW para as não despacháveis;

Art. 26. Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento.
"""


FILING_PAGES = [
    "Annual report 2018. Item 1. Business overview of the company and its segments.",
    "Consolidated Statement of Cash Flows\n(Millions) 2018 2017\n"
    "Purchases of property, plant and equipment (PP&E) (1,577) (1,373)\n"
    "Net cash provided by operating activities 6,439 6,240",
]


class HangingSource(PagesSource):
    async def fetch(self, url: str):  # type: ignore[no-untyped-def]
        await asyncio.sleep(30)
        return await super().fetch(url)


@dataclass
class SlowPages(PagesSource):
    """Every fetch takes `delay` seconds; records how many were in flight at once."""

    delay: float = 0.02
    in_flight: int = 0
    most_in_flight: int = 0

    async def fetch(self, url: str) -> Snapshot:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            return await super().fetch(url)
        finally:
            self.in_flight -= 1


class SearchAndFetch(Search, Fetcher, Protocol):
    """A source that both searches and reads, as a library does."""


def subagent_toolbox(
    source: SearchAndFetch,
    question: str,
    *,
    title: str = "",
    language: Language = "pt",
    max_steps: int = 8,
    limits: Limits | None = None,
    shared_reads: list[str] | None = None,
) -> Toolbox:
    """The toolbox of subagent s1 researching `question` (its only subquestion) over
    `source`, with in-memory snapshots, board and budget."""
    assignment = Assignment(
        subagent="s1",
        subquestion=Subquestion(id="s1", text=question, title=title),
        question=question,
        language=language,
        max_steps=max_steps,
    )
    return Toolbox(
        assignment,
        source,
        source,
        InMemorySnapshotStore(),
        InMemoryBoard(),
        InMemoryBudget(limits or Limits()),
        shared_reads=shared_reads if shared_reads is not None else [],
    )
