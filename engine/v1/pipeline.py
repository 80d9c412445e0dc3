"""The v1 architecture: five roles in sequence, one researcher, no board, no verifier.

Researcher (search, read, one prose summary) -> analyst -> writer (guesses citations from the
source list) -> reviewer -> editor. There is no budget ceiling: spend is metered on a budget
with limits no run reaches, and the report shows the limits it was given so an evaluation can
see the overshoot. A run ends when the editor does, so the report is never partial and
declares no gaps. A failing role leaves a note and the best report the rest can still make.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from engine.budget import InMemoryBudget, Meter
from engine.contracts import Limits, Plan, Report, utc_now
from engine.events import EventSink, Notice, PlanReady, SpendUpdated, ignore_events
from engine.models.extractive.planner import extractive_plan
from engine.models.protocol import Brief
from engine.sources.protocols import Fetcher, Search
from engine.v1.extract import Extraction, extract_report
from engine.v1.notes import ResearchNotes
from engine.v1.roles import V1Roles
from engine.v1.tools import ResearchTools
from engine.writing.verbatim import title_for

NO_CEILING = Limits(steps=10**9, seconds=1e9, usd=1e9)

T = TypeVar("T")


class V1Pipeline:
    def __init__(
        self,
        roles: V1Roles,
        searcher: Search,
        fetcher: Fetcher,
        *,
        limits: Limits | None = None,
        events: EventSink = ignore_events,
        source_labels: tuple[str, ...] = (),
    ) -> None:
        self.roles = roles
        self.searcher = searcher
        self.fetcher = fetcher
        self.limits = limits or Limits()
        self.events = events
        self.source_labels = source_labels
        self._budget = InMemoryBudget(NO_CEILING)
        self._notes: list[str] = []

    async def run(self, brief: Brief, plan: Plan | None = None) -> Report:
        """`plan` is the final architecture's when comparing the two on one question; without
        it the final offline planner makes it, so both get the same plan either way."""
        self._budget = InMemoryBudget(NO_CEILING)
        self._notes = []
        meter = Meter(self._budget)
        plan = plan or extractive_plan(brief)
        self.events(PlanReady(plan))
        tools = ResearchTools(self.searcher, self.fetcher, self._budget, self.events)
        notes = await self._research(brief, plan, tools, meter)
        roles = self.roles
        analysis = await self._attempt(
            "analyst",
            lambda: roles.analyse(brief, notes, meter),
            lambda: notes.summary,
            "the summary stands as the analysis",
        )
        draft = await self._attempt(
            "writer",
            lambda: roles.write(brief, plan, analysis, notes.sources, meter),
            lambda: "",
            "the report has no sections",
        )
        reviewed = await self._attempt(
            "reviewer", lambda: roles.review(brief, draft, meter), lambda: draft, "draft kept"
        )
        final = await self._attempt(
            "editor", lambda: roles.edit(brief, reviewed, meter), lambda: reviewed, "draft kept"
        )
        return await self._report(brief, plan, self._extract(final, plan, notes, tools))

    async def _research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        try:
            notes = await self.roles.research(brief, plan, tools, meter)
        except Exception as failure:
            tools.finish(error=_described(failure))
            self._note(f"v1 researcher failed ({_described(failure)}); nothing was summarised")
            notes = ResearchNotes("", tools.consulted())
        tools.finish()
        self.events(SpendUpdated(await self._budget.spend()))
        return notes

    async def _attempt(
        self,
        role: str,
        call: Callable[[], Awaitable[T]],
        fallback: Callable[[], T],
        consequence: str,
    ) -> T:
        try:
            return await call()
        except Exception as failure:
            self._note(f"v1 {role} failed ({_described(failure)}); {consequence}")
            return fallback()
        finally:
            self.events(SpendUpdated(await self._budget.spend()))

    def _extract(
        self, markdown: str, plan: Plan, notes: ResearchNotes, tools: ResearchTools
    ) -> Extraction:
        try:
            extraction = extract_report(markdown, plan, notes.sources, tools.snapshots(), utc_now())
        except ValueError as failure:  # a source entry no claim can be built from
            self._note(f"v1 citations could not be read ({_described(failure)})")
            return Extraction(None, [], [], [])
        self._notes.extend(extraction.notes)
        return extraction

    async def _report(self, brief: Brief, plan: Plan, extraction: Extraction) -> Report:
        spend = await self._budget.spend()
        self.events(SpendUpdated(spend))
        return Report(
            question=brief.question,
            title=extraction.title or title_for(brief),
            language=brief.language,
            plan=plan,
            partial=False,
            gaps=[],
            sections=extraction.sections,
            claims=extraction.claims,
            spend=spend,
            limits=self.limits,
            model=self.roles.name,
            architecture="v1",
            notes=self._notes,
            dropped_sentences=extraction.uncited,
            sources=list(self.source_labels),
        )

    def _note(self, message: str) -> None:
        self._notes.append(message)
        self.events(Notice(message))


def _described(failure: Exception) -> str:
    return f"{type(failure).__name__}: {failure}"
