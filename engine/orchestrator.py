"""The orchestrator, the research's lead: plan, run subagents in parallel, verify, fill gaps,
write. Always a report.

Plan -> subagents for independent subquestions (through an Executor) -> verify each claim as
its subagent finishes (in process, from the moment it is posted) -> check `sufficient_when`
-> gap subagents while budget remains -> write from verified claims only -> post-check every
sentence. When the budget ends, or the user cancels, the report comes out partial with its
gaps; an exception never replaces it.

The lead never runs a subagent itself: its `SubagentRunner` (engine/subagents.py) does, in
whatever process the executor picks; the lead hears of each through its outcome.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime

from engine.agents.toolbox import Assignment
from engine.board import Board, InMemoryBoard
from engine.budget import Budget, InMemoryBudget, Meter, Refusal, StepRefused
from engine.contracts import Claim, ClaimStatus, Limits, Plan, Report, Subquestion, Support
from engine.events import (
    ClaimRejected,
    EventSink,
    GapsUpdated,
    Notice,
    PlanReady,
    SpendUpdated,
    ignore_events,
)
from engine.executor import Executor, InProcessExecutor, SubagentOutcome, waves
from engine.models.protocol import Brief, Draft, Model
from engine.planning.briefs import single_question_plan
from engine.planning.gaps import declared_gaps, gap_targets, subquestion_for
from engine.planning.sweeps import shelf_of
from engine.snapshots import InMemorySnapshotStore, SnapshotStore
from engine.sources.protocols import Fetcher, Search
from engine.subagents import SubagentRunner
from engine.verify.draft import check_draft
from engine.verify.excerpts import pages_addressing_ai
from engine.words import ENGLISH, NoteWords, words_for
from engine.writing import asked_gaps, published_conflicts, verbatim_draft

ExecutorFactory = Callable[[SubagentRunner], Executor]
"""Where the lead's subagents and verifications run, given the runner that runs them."""


@dataclass
class RunState:
    outcomes: dict[str, SubagentOutcome] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    words: NoteWords = ENGLISH.notes
    """The notes' wording, in the brief's language."""
    verifications: list[asyncio.Task[None]] = field(default_factory=list)


class Orchestrator:
    def __init__(
        self,
        model: Model,
        searcher: Search,
        fetcher: Fetcher,
        *,
        limits: Limits | None = None,
        board: Board | None = None,
        budget: Budget | None = None,
        snapshots: SnapshotStore | None = None,
        executor: ExecutorFactory | None = None,
        events: EventSink = ignore_events,
        gap_rounds: int = 1,
        subagent_max_steps: int = 8,
        source_labels: tuple[str, ...] = (),
        started: float | None = None,
        today: Callable[[], date] = lambda: datetime.now(UTC).date(),
    ) -> None:
        """`started`: the `time.monotonic()` the run's seconds count from, if before now (the
        CLI opening a library first). `today`: the clock every prompt's date comes from."""
        self.model = model
        self.searcher = searcher
        self.budget = budget or InMemoryBudget(limits or Limits(), started=started)
        self.board = board or InMemoryBoard()
        self.events = events
        self.gap_rounds = gap_rounds
        self.subagent_max_steps = subagent_max_steps
        self.source_labels = source_labels
        self.today = today
        self.runner = SubagentRunner(
            model,
            searcher,
            fetcher,
            board=self.board,
            budget=self.budget,
            snapshots=snapshots or InMemorySnapshotStore(),
            events=events,
            check_as_posted=True,  # in process, a claim is checked while research goes on
        )
        self.executor = (executor or InProcessExecutor)(self.runner)
        self._state = RunState()
        self._stopping: asyncio.Task[None] | None = None
        self._cancelled = False
        """The user stopped the run (Ctrl-C, SIGTERM, a Slack cancel): gaps say so."""

    # -- the report ---------------------------------------------------------------------

    def cancel(self, why: str) -> None:
        """Stop new steps now and stop waiting for running subagents; the report still comes."""
        self._cancelled = True
        self._stopping = asyncio.get_running_loop().create_task(self.budget.stop(why))
        self.executor.cancel()

    async def run(
        self, brief: Brief, plan: Plan | None = None, research: set[str] | None = None
    ) -> Report:
        """Research and write. `plan` skips planning (a plan the user approved or edited);
        `research` limits the first round to those subquestion ids (a follow-up deepening one
        gap of a report whose board already holds the rest)."""
        self._state = RunState(words=words_for(brief.language).notes)
        source = self.searcher.kind  # what the sources say they read, told to every prompt
        shelf = shelf_of(self.searcher)  # a question naming one long document sweeps it
        brief = replace(brief, today=brief.today or self.today(), source=source, documents=shelf)
        writer_meter = await self._writer_meter()
        plan = plan or await self._plan(brief)
        self.events(PlanReady(plan))
        first = [s for s in plan.subquestions if research is None or s.id in research]
        for wave in waves(first):  # a subquestion runs after those it depends on
            verified = await self._verified()
            await self._research_round([self._assignment(brief, s, plan, verified) for s in wave])
        for round_number in range(1, self.gap_rounds + 1):
            unmet = await self._unmet(plan)
            if not unmet or await self.budget.exhausted() is not None:
                break
            self.events(GapsUpdated(unmet))
            verified, gap = await self._verified(), f"gap{round_number}"
            targets = [s for s in gap_targets(plan, unmet) if not self._refused(s)]
            await self._research_round(
                [self._gap_assignment(brief, s, gap, plan, verified, unmet) for s in targets]
            )
        await self._verify_pending()
        await self._judge()
        draft = await self._write(brief, plan, writer_meter)
        return await self._report(brief, plan, draft)

    async def _writer_meter(self) -> Meter | None:
        """Reserve the writing step before research starts, so research cannot spend what
        the report needs. None when even that does not fit: the claims verbatim, for free."""
        reservation = await self.budget.reserve(steps=1, usd=self.model.write_cost_estimate_usd)
        if isinstance(reservation, Refusal):
            self._note(self._words.no_budget_for_writer.format(detail=reservation.detail))
            return None
        return Meter(self.budget, prepaid=reservation)

    async def _plan(self, brief: Brief) -> Plan:
        """Planning is one step of the tree, whoever plans."""
        step = await self.budget.reserve(steps=1)
        if isinstance(step, Refusal):
            self._note(self._words.no_budget_to_plan.format(detail=step.detail))
            return single_question_plan(brief)
        meter = Meter(self.budget, prepaid=step)
        try:
            return await self.model.plan(brief, meter)
        except StepRefused as refused:
            if not _stopped(refused):  # a stopped budget has its own note
                self._note(self._words.no_budget_to_plan.format(detail=refused))
        except Exception as failure:
            self._note(self._words.planner_failed.format(error=failure))
        finally:
            await meter.release()
        return single_question_plan(brief)

    def _assignment(
        self, brief: Brief, subquestion: Subquestion, plan: Plan, verified: list[Claim]
    ) -> Assignment:
        """The planner's step cap (else the default), its part of a document, what it needs."""
        return Assignment(
            subagent=subquestion.id,
            subquestion=subquestion,
            question=brief.question,
            language=brief.language,
            max_steps=subquestion.steps or self.subagent_max_steps,
            siblings=tuple(s for s in plan.subquestions if s.id != subquestion.id),
            source=brief.source,
            today=brief.today,
            prior_claims=tuple(c for c in verified if c.subquestion in subquestion.depends_on),
            document=subquestion.document,
            pages=subquestion.pages,
        )

    def _gap_assignment(
        self,
        brief: Brief,
        subquestion: Subquestion,
        gap: str,
        plan: Plan,
        verified: list[Claim],
        unmet: list[str],
    ) -> Assignment:
        """Another subagent on the same subquestion, told the criterion left unmet, what was
        verified, how the last subagent ended, and to look beyond every page read for it."""
        earlier = self._outcomes_of(subquestion)
        last = earlier[-1] if earlier else None
        return replace(
            self._assignment(brief, subquestion, plan, verified),
            subagent=f"{subquestion.id}-{gap}",
            gap=True,
            avoid_urls=tuple(dict.fromkeys(url for o in earlier for url in o.read_urls)),
            unmet_criterion="; ".join(
                c for c in unmet if subquestion_for(plan, c).id == subquestion.id
            ),
            found=tuple(c.statement for c in verified if c.subquestion == subquestion.id),
            failed=(last.error or last.summary) if last is not None else "",
        )

    def _outcomes_of(self, subquestion: Subquestion) -> list[SubagentOutcome]:
        return [o for o in self._state.outcomes.values() if o.subquestion == subquestion.id]

    def _refused(self, subquestion: Subquestion) -> bool:
        """The model declined it: sent again unchanged, it would be declined again."""
        return any(o.refused for o in self._outcomes_of(subquestion))

    async def _research_round(self, assignments: list[Assignment]) -> None:
        await self.executor.run_subagents(assignments, self._on_outcome)
        await asyncio.gather(*self._state.verifications)
        self._state.verifications.clear()
        self.events(SpendUpdated(await self.budget.spend()))

    async def _on_outcome(self, outcome: SubagentOutcome) -> None:
        self._state.outcomes[outcome.subagent] = outcome
        for note in outcome.notes:
            self._note(note)
        if outcome.error:
            words = self._words
            self._note(words.subagent_failed.format(subagent=outcome.subagent, error=outcome.error))
        pending = [c for c in outcome.claims if c.status is ClaimStatus.pending]
        self._state.verifications.append(asyncio.create_task(self._verify(pending)))
        self.events(SpendUpdated(await self.budget.spend()))

    async def _verify(self, claims: list[Claim]) -> None:
        await self.executor.verify_claims(claims)

    async def _verify_pending(self) -> None:
        """Claims posted by subagents that were cancelled mid-way still get their verdict."""
        pending = [c for c in await self.board.claims() if c.status is ClaimStatus.pending]
        if pending:
            await self.executor.verify_claims(pending)

    async def _verified(self) -> list[Claim]:
        return [c for c in await self.board.claims() if c.status is ClaimStatus.verified]

    async def _unmet(self, plan: Plan) -> list[str]:
        try:
            return await self.model.unmet_criteria(plan, await self._verified(), Meter(self.budget))
        except Exception as failure:
            if not _stopped(failure):  # a stopped budget has its own note
                self._note(self._words.criteria_check_failed.format(error=failure))
            return list(plan.sufficient_when)

    async def _judge(self) -> None:
        """A second opinion on support: contradicted claims are rejected, neutral ones kept
        and flagged in the report. Models that do not judge say so in the notes."""
        verified = await self._verified()
        if not verified:
            return
        try:
            judged = await self.model.judge(verified, Meter(self.budget))
        except Exception as failure:  # StepRefused included: the claims stay as verified
            if not _stopped(failure):  # a stopped budget has its own note
                self._note(self._words.judge_failed.format(error=failure))
            return
        if judged is None:
            self._note(self._words.judge_skipped.format(model=self.model.name))
            return
        for claim in judged:
            if claim.support is Support.contradicts:
                claim = claim.model_copy(
                    update={
                        "status": ClaimStatus.rejected,
                        "reason": "support judge: the excerpt contradicts the statement",
                    }
                )
                self.events(ClaimRejected(claim))
            await self.board.update(claim)

    async def _write(self, brief: Brief, plan: Plan, meter: Meter | None) -> Draft:
        verified = await self._verified()
        if meter is not None:
            try:
                return await self.model.write(brief, plan, verified, meter)
            except Exception as failure:
                if not _stopped(failure):  # a stopped budget has its own note
                    self._note(self._words.writer_failed.format(error=failure))
            finally:
                await meter.release()
        return verbatim_draft(brief, plan, verified)

    async def _report(self, brief: Brief, plan: Plan, draft: Draft) -> Report:
        claims = await self.board.claims()
        checked = check_draft(draft, claims, language=brief.language)
        unmet = await self._unmet(plan)
        stopped = {o.subquestion for o in self._state.outcomes.values() if o.stopped_by_budget}
        gaps = declared_gaps(plan, unmet, stopped, brief.language, by_user=self._cancelled)
        cited = {c.url for c in claims if c.status is ClaimStatus.verified}
        outcomes = self._state.outcomes.values()  # a figure nobody read, on a page not cited:
        gaps += dict.fromkeys(g for o in outcomes for u, g in o.figure_gaps if u not in cited)
        # The measure the question asks, an input of which no verified figure gives.
        verified = [c for c in claims if c.status is ClaimStatus.verified]
        gaps += [g for g in asked_gaps(brief.question, verified, brief.language) if g not in gaps]
        exhausted, words = await self.budget.exhausted(), self._words
        if exhausted is not None:
            limit = words.budget_limits.get(exhausted.limit, exhausted.limit)
            self._note(words.budget_reached.format(limit=limit, detail=exhausted.detail))
        for url in pages_addressing_ai(claims):
            self._note(words.addressed_to_ai.format(url=url))
        self.events(GapsUpdated(gaps))
        spend = await self.budget.spend()
        self.events(SpendUpdated(spend))
        report = Report(
            question=brief.question,
            title=draft.title,
            language=brief.language,
            plan=plan,
            partial=exhausted is not None,
            gaps=gaps,
            summary=checked.summary,
            sections=checked.sections,
            tables=checked.tables,
            calculations=checked.calculations,
            claims=claims,
            spend=spend,
            limits=self.budget.limits,
            model=self.model.name,
            architecture="final",
            notes=self._state.notes,
            dropped_sentences=checked.dropped,
            sources=list(self.source_labels),
        )
        # Sources that disagree are declared, never settled silently (newer first).
        return report.model_copy(update={"conflicts": published_conflicts(report)})

    @property
    def _words(self) -> NoteWords:
        return self._state.words

    def _note(self, message: str) -> None:
        self._state.notes.append(message)
        self.events(Notice(message))


def _stopped(failure: Exception) -> bool:
    """A step refused because the run was stopped (user cancel, provider spend limit)."""
    return isinstance(failure, StepRefused) and failure.refusal.limit == "stopped"
