"""The subagent runner (engine/subagents.py): one assignment run with its toolbox over shared
stores, always an outcome carrying its claims and notes; a claim checked by the verifier,
its verdict kept on the board; and the lead hearing of its subagents only through outcomes,
whichever executor ran them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.agents.toolbox import Assignment, Toolbox
from engine.board import InMemoryBoard
from engine.budget import InMemoryBudget
from engine.contracts import Claim, ClaimStatus, Limits, Subquestion
from engine.events import (
    ClaimRejected,
    ClaimVerified,
    Event,
    SubagentFinished,
    SubagentStarted,
    ignore_events,
)
from engine.executor import OutcomeCallback, SubagentOutcome
from engine.models.scripted import Post, ScriptedModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.snapshots import InMemorySnapshotStore
from engine.subagents import SubagentRunner, check_on_board
from engine.verify.service import ClaimVerifier
from tests.support.pages_source import LAW_TEXT, PagesSource

LAW = "https://example.org/lei-14300"
GONE = "https://example.org/gone"
QUESTION = "Até quando valem os créditos de energia?"
CREDITS = Post(
    "Os créditos expiram em 60 meses.",
    LAW,
    "Os créditos de energia elétrica expiram em 60 (sessenta) meses",
)
WRONG = Post("Os créditos expiram em 72 meses.", LAW, "expiram em 72 (setenta e dois) meses")


def law() -> PagesSource:
    source = PagesSource()
    source.add(LAW, LAW_TEXT, title="Lei 14.300")
    return source


def runner(model: ScriptedModel, source: PagesSource, events: list[Event]) -> SubagentRunner:
    return SubagentRunner(
        model,
        source,
        source,
        board=InMemoryBoard(),
        budget=InMemoryBudget(Limits(steps=20), clock=lambda: 0.0),
        snapshots=InMemorySnapshotStore(),
        events=events.append,
    )


def assignment() -> Assignment:
    return Assignment("s1", Subquestion(id="s1", text=QUESTION), QUESTION, "pt")


async def test_a_run_hands_back_its_claims_reads_and_notes_in_its_outcome() -> None:
    events: list[Event] = []
    model = ScriptedModel(posts=[CREDITS, Post("Algo.", GONE, "um texto qualquer")])
    work = runner(model, law(), events)
    outcome = await work.run(assignment())
    assert [c.statement for c in outcome.claims] == [CREDITS.statement]
    assert outcome.read_urls == (LAW,)
    assert outcome.notes == (f"s1: não foi possível ler {GONE}: no document at {GONE}",)
    assert outcome.error is None
    assert not outcome.stopped_by_budget
    assert work.shared_reads == [LAW]  # told to the next subagent this runner runs
    assert [type(e) for e in events] == [SubagentStarted, SubagentFinished]


async def test_a_broken_subagent_is_an_outcome_with_its_error_never_an_exception() -> None:
    events: list[Event] = []
    outcome = await runner(ScriptedModel(fail_research="quebrou"), law(), events).run(assignment())
    assert outcome.error == "ScriptedFailure: quebrou"
    assert outcome.claims == []
    finished = events[-1]
    assert isinstance(finished, SubagentFinished)
    assert finished.error == outcome.error


async def test_a_refused_step_stops_the_subagent_as_stopped_by_the_budget() -> None:
    events: list[Event] = []
    work = runner(ScriptedModel(posts=[CREDITS]), law(), events)
    work.budget = InMemoryBudget(Limits(steps=1), clock=lambda: 0.0)
    outcome = await work.run(assignment())
    assert outcome.stopped_by_budget
    assert outcome.claims == []


async def test_a_checked_claim_keeps_its_verdict_on_the_board_and_says_it() -> None:
    events: list[Event] = []
    source = law()
    work = runner(ScriptedModel(posts=[CREDITS, WRONG]), source, events)
    outcome = await work.run(assignment())
    right, wrong = outcome.claims
    assert (await work.check_claim(right)).status is ClaimStatus.verified
    verifier = ClaimVerifier(work.snapshots, source)  # as a verification job builds it
    assert (await check_on_board(wrong, verifier, work.board)).status is ClaimStatus.rejected
    on_board = {c.statement: c.status for c in await work.board.claims()}
    assert on_board == {right.statement: ClaimStatus.verified, wrong.statement: "rejected"}
    assert [type(e) for e in events][-1:] == [ClaimVerified]  # the job's sink: none
    assert not any(isinstance(e, ClaimRejected) for e in events)


class Elsewhere:
    """An executor that runs each subagent with a runner of its own (as a worker's job
    does) and verifies nothing itself: the lead learns only what outcomes carry."""

    def __init__(self, lead_runner: SubagentRunner) -> None:
        self.lead_runner = lead_runner

    async def run_subagents(
        self, assignments: Sequence[Assignment], on_outcome: OutcomeCallback
    ) -> list[SubagentOutcome]:
        outcomes = []
        for one in assignments:
            own = replace(self.lead_runner, events=ignore_events)
            outcome = await own.run(one)
            await on_outcome(outcome)
            outcomes.append(outcome)
        return outcomes

    async def verify_claims(self, claims: Sequence[object]) -> list[object]:
        return [await self.lead_runner.check_claim(c) for c in claims]  # type: ignore[arg-type]

    def cancel(self) -> None:
        pass


async def test_the_lead_reports_what_a_subagent_run_elsewhere_noted() -> None:
    model = ScriptedModel(posts=[CREDITS, Post("Algo.", GONE, "um texto qualquer")])
    source = law()
    lead = Orchestrator(model, source, source, executor=Elsewhere)  # type: ignore[arg-type]
    report = await lead.run(make_brief(QUESTION))
    assert [c.statement for c in report.verified_claims()] == [CREDITS.statement]
    assert f"s1: não foi possível ler {GONE}: no document at {GONE}" in report.notes


LINGER_SECONDS = 20.0
"""How long a subagent waits to hear its claim's verdict before it gives up and ends."""


@dataclass
class WaitsForItsVerdict(ScriptedModel):
    """Posts its claims, then ends only once it hears one verified (as a subagent still
    waiting on its model's next turn would go on), or after `LINGER_SECONDS`."""

    heard: asyncio.Event = field(default_factory=asyncio.Event)
    heard_while_researching: bool = False

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        await super().research(assignment, tools)
        try:
            async with asyncio.timeout(LINGER_SECONDS):
                await self.heard.wait()
        except TimeoutError:
            return
        self.heard_while_researching = True


class CountingVerifier(ClaimVerifier):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checked: list[str] = []

    async def verify(self, claim: Claim) -> Claim:
        self.checked.append(claim.statement)
        return await super().verify(claim)


async def test_the_lead_checks_a_claim_while_its_subagent_still_researches_and_only_once() -> None:
    model = WaitsForItsVerdict(posts=[CREDITS, WRONG])
    source = law()

    def heard(event: Event) -> None:
        if isinstance(event, ClaimVerified):
            model.heard.set()

    lead = Orchestrator(model, source, source, events=heard)
    verifier = CountingVerifier(lead.runner.snapshots, source)
    lead.runner.verifier = verifier
    report = await lead.run(make_brief(QUESTION))
    assert model.heard_while_researching
    assert [c.statement for c in report.verified_claims()] == [CREDITS.statement]
    # The lead asked for both verdicts when the subagent ended, and got the checks begun.
    assert sorted(verifier.checked) == sorted([CREDITS.statement, WRONG.statement])
