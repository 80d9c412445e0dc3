"""The v1 architecture: five roles in sequence, one researcher, no board, no verifier.

Researcher (search, read, one prose summary) -> analyst -> writer (guesses citations from the
source list) -> reviewer -> editor. Given a run's budget (`fonte ask --arch v1`), every step
and model call reserves and settles on it, as in the final architecture: a step the budget
refuses ends the role that asked, no later role runs, and the report comes out partial with
the budget's note, its subquestions declared as gaps when no section could be written.
Without one (the evals), spend is metered on a budget with limits no run reaches, and the
report shows the limits it was given so an evaluation can see the overshoot; such a run ends
when the editor does. A failing role leaves a note and the best report the rest can still
make.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from engine.budget import Budget, InMemoryBudget, Meter, StepRefused
from engine.contracts import Language, Limits, Plan, Report, utc_now
from engine.events import EventSink, Notice, PlanReady, SpendUpdated, ignore_events
from engine.models.extractive.planner import extractive_plan
from engine.models.protocol import Brief
from engine.planning.gaps import declared_gaps
from engine.sources.protocols import Fetcher, Search
from engine.v1.extract import Extraction, extract_report
from engine.v1.notes import ResearchNotes
from engine.v1.roles import V1Roles
from engine.v1.tools import ResearchTools
from engine.words import NoteWords, words_for
from engine.writing.verbatim import title_for

NO_CEILING = Limits(steps=10**9, seconds=1e9, usd=1e9)

_T = TypeVar("_T")

_WITHOUT_SECTIONS = ("researcher", "analyst", "writer")
"""The roles a budget cut leaves the report without sections: the writer never ran."""


class V1Pipeline:
    def __init__(
        self,
        roles: V1Roles,
        searcher: Search,
        fetcher: Fetcher,
        *,
        limits: Limits | None = None,
        budget: Budget | None = None,
        events: EventSink = ignore_events,
        source_labels: tuple[str, ...] = (),
    ) -> None:
        """`budget`: the run's, whose limits hold (and are the report's); without it the run
        is metered without a ceiling and `limits` are only recorded."""
        self.roles = roles
        self.searcher = searcher
        self.fetcher = fetcher
        self.limits = budget.limits if budget is not None else limits or Limits()
        self.events = events
        self.source_labels = source_labels
        self._given = budget
        self._budget: Budget = budget or InMemoryBudget(NO_CEILING)
        self._notes: list[str] = []
        self._words: NoteWords = words_for("en").notes
        self._cut: str | None = None
        """The role a refused step ended; no role runs after it."""

    async def run(self, brief: Brief, plan: Plan | None = None) -> Report:
        """`plan` is the final architecture's when comparing the two on one question; without
        it the final offline planner makes it, so both get the same plan either way."""
        self._budget = self._given or InMemoryBudget(NO_CEILING)
        self._notes = []
        self._cut = None
        self._words = words_for(brief.language).notes
        meter = Meter(self._budget)
        plan = plan or extractive_plan(brief)
        self.events(PlanReady(plan))
        tools = ResearchTools(self.searcher, self.fetcher, self._budget, self.events)
        notes = await self._research(brief, plan, tools, meter)
        roles = self.roles
        words = self._words
        analysis = await self._attempt(
            "analyst",
            lambda: roles.analyse(brief, notes, meter),
            lambda: notes.summary,
            words.v1_analysis_is_summary,
        )
        draft = await self._attempt(
            "writer",
            lambda: roles.write(brief, plan, analysis, notes.sources, meter),
            lambda: "",
            words.v1_no_sections,
        )
        reviewed = await self._attempt(
            "reviewer",
            lambda: roles.review(brief, draft, meter),
            lambda: draft,
            words.v1_draft_kept,
        )
        final = await self._attempt(
            "editor",
            lambda: roles.edit(brief, reviewed, meter),
            lambda: reviewed,
            words.v1_draft_kept,
        )
        extraction = self._extract(final, plan, notes, tools, brief.language)
        return await self._report(brief, plan, extraction)

    async def _research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        try:
            notes = await self.roles.research(brief, plan, tools, meter)
        except Exception as failure:
            if isinstance(failure, StepRefused):
                self._cut = "researcher"
            tools.finish(error=_described(failure))
            self._note(self._words.v1_researcher_failed.format(error=_described(failure)))
            notes = ResearchNotes("", tools.consulted())
        tools.finish()
        self.events(SpendUpdated(await self._budget.spend()))
        return notes

    async def _attempt(
        self,
        role: str,
        call: Callable[[], Awaitable[_T]],
        fallback: Callable[[], _T],
        consequence: str,
    ) -> _T:
        if self._cut is not None:  # the budget ended the run: what is done stands
            return fallback()
        try:
            return await call()
        except Exception as failure:
            if isinstance(failure, StepRefused):
                self._cut = role
            words = self._words
            role_name = words.v1_roles[role]
            error = _described(failure)
            self._note(
                words.v1_role_failed.format(role=role_name, error=error, consequence=consequence)
            )
            return fallback()
        finally:
            self.events(SpendUpdated(await self._budget.spend()))

    def _extract(
        self,
        markdown: str,
        plan: Plan,
        notes: ResearchNotes,
        tools: ResearchTools,
        language: Language,
    ) -> Extraction:
        try:
            extraction = extract_report(
                markdown, plan, notes.sources, tools.snapshots(), utc_now(), language
            )
        except ValueError as failure:  # a source entry no claim can be built from
            self._note(self._words.v1_citations_unreadable.format(error=_described(failure)))
            return Extraction(None, [], [], [])
        self._notes.extend(extraction.notes)
        return extraction

    async def _report(self, brief: Brief, plan: Plan, extraction: Extraction) -> Report:
        gaps: list[str] = []
        if self._cut is not None:
            exhausted = await self._budget.exhausted()
            if exhausted is not None:
                limit = self._words.budget_limits.get(exhausted.limit, exhausted.limit)
                self._note(self._words.budget_reached.format(limit=limit, detail=exhausted.detail))
            if self._cut in _WITHOUT_SECTIONS:
                unwritten = {s.id for s in plan.subquestions}
                gaps = declared_gaps(plan, [], unwritten, brief.language)
        spend = await self._budget.spend()
        self.events(SpendUpdated(spend))
        return Report(
            question=brief.question,
            title=extraction.title or title_for(brief),
            language=brief.language,
            plan=plan,
            partial=self._cut is not None,
            gaps=gaps,
            sections=extraction.sections,
            claims=extraction.claims,
            spend=spend,
            limits=self._budget.limits if self._given is not None else self.limits,
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
