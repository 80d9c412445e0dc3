"""Plans whose subquestions depend on others run in waves (engine.orchestrator with
engine.executor.waves), on a scripted model: a later wave starts after the waves it depends
on and its brief carries their verified claims; gap subagents are told what the first one
left unmet, found and ended with; a subquestion the model declined is not sent again."""

from collections.abc import Sequence
from datetime import date

from engine.agents.toolbox import Assignment, Toolbox
from engine.contracts import ClaimStatus, Limits, Subquestion
from engine.events import Event, SubagentFinished, SubagentStarted
from engine.executor import InProcessExecutor, OutcomeCallback, SubagentOutcome, waves
from engine.models.scripted import Post, ScriptedModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.sources.kinds import WEB
from engine.subagents import SubagentRunner
from tests.support.pages_source import PagesSource

PLAYERS_URL = "https://example.org/ranking"
SHARES_URL = "https://example.org/shares"
PLAYERS = Post(
    "The three largest solar installers are Alfa, Beta and Gama.",
    PLAYERS_URL,
    "The three largest solar installers are Alfa, Beta and Gama.",
    subquestion="s1",
)
SHARES = Post(
    "Alfa holds 31% of the market.",
    SHARES_URL,
    "Alfa holds 31% of the residential solar market.",
    subquestion="s2",
)
TOP = "Which are the top three residential solar installers?"
SHARE = "What market share does each of them hold?"
QUESTION = "Who are the top three residential solar installers, and their market shares?"
TODAY = date(2031, 5, 17)


class RecordingExecutor(InProcessExecutor):
    """The in-process executor, keeping which subagents each call ran together."""

    def __init__(self, runner: SubagentRunner) -> None:
        super().__init__(runner)
        self.batches: list[list[str]] = []

    async def run_subagents(
        self, assignments: Sequence[Assignment], on_outcome: OutcomeCallback
    ) -> list[SubagentOutcome]:
        self.batches.append([a.subagent for a in assignments])
        return await super().run_subagents(assignments, on_outcome)


def batches(orchestrator: Orchestrator) -> list[list[str]]:
    executor = orchestrator.executor
    assert isinstance(executor, RecordingExecutor)
    return executor.batches


def market() -> PagesSource:
    pages = PagesSource()
    pages.add(PLAYERS_URL, f"Ranking 2030\n\n{PLAYERS.excerpt}\n", title="Ranking")
    pages.add(SHARES_URL, f"Shares 2030\n\n{SHARES.excerpt}\n", title="Shares")
    return pages


def test_waves_order_subquestions_after_those_they_depend_on() -> None:
    s1 = Subquestion(id="s1", text="a")
    s2 = Subquestion(id="s2", text="b", depends_on=["s1"])
    s3 = Subquestion(id="s3", text="c", depends_on=["s2", "s1"])
    s4 = Subquestion(id="s4", text="d", depends_on=["s9"])  # researched already, or unknown
    assert [[s.id for s in wave] for wave in waves([s3, s2, s1, s4])] == [
        ["s1", "s4"],
        ["s2"],
        ["s3"],
    ]


def test_waves_run_a_cycle_together_after_what_it_does_not_hold_back() -> None:
    s1 = Subquestion(id="s1", text="a", depends_on=["s1"])
    s2 = Subquestion(id="s2", text="b", depends_on=["s3"])
    s3 = Subquestion(id="s3", text="c", depends_on=["s2"])
    assert [[s.id for s in wave] for wave in waves([s1, s2, s3])] == [["s1"], ["s2", "s3"]]


async def test_a_dependent_plan_runs_in_two_waves_the_second_given_the_first_ones_claims() -> None:
    events: list[Event] = []
    model = ScriptedModel(
        posts=[PLAYERS, SHARES], subquestions=[TOP, SHARE], depends_on={"s2": ["s1"]}
    )
    pages = market()
    orchestrator = Orchestrator(
        model, pages, pages, events=events.append, today=lambda: TODAY, executor=RecordingExecutor
    )
    report = await orchestrator.run(make_brief(QUESTION))
    assert batches(orchestrator) == [["s1"], ["s2"]]

    order = [
        (type(e).__name__, e.subagent)
        for e in events
        if isinstance(e, SubagentStarted | SubagentFinished)
    ]
    assert order == [
        ("SubagentStarted", "s1"),
        ("SubagentFinished", "s1"),
        ("SubagentStarted", "s2"),
        ("SubagentFinished", "s2"),
    ]
    first, second = model.assignments
    assert first.prior_claims == ()
    assert [c.statement for c in second.prior_claims] == [PLAYERS.statement]
    assert all(c.status is ClaimStatus.verified for c in second.prior_claims)
    assert {c.statement for c in report.verified_claims()} == {PLAYERS.statement, SHARES.statement}
    assert report.plan.subquestions[1].depends_on == ["s1"]
    assert first.today == second.today == TODAY
    assert first.source == WEB


async def test_independent_subquestions_still_run_in_one_wave() -> None:
    model = ScriptedModel(posts=[PLAYERS, SHARES], subquestions=[TOP, SHARE])
    pages = market()
    orchestrator = Orchestrator(model, pages, pages, executor=RecordingExecutor)
    await orchestrator.run(make_brief(QUESTION))
    assert batches(orchestrator) == [["s1", "s2"]]
    assert all(a.prior_claims == () for a in model.assignments)


async def test_a_later_wave_the_budget_cannot_pay_is_a_gap_of_the_one_budget() -> None:
    model = ScriptedModel(
        posts=[PLAYERS, SHARES], subquestions=[TOP, SHARE], depends_on={"s2": ["s1"]}
    )
    pages = market()
    # plan 1 + writer 1 + s1's search and read 2: nothing is left for s2's first step
    orchestrator = Orchestrator(model, pages, pages, limits=Limits(steps=4))
    report = await orchestrator.run(make_brief(QUESTION))
    assert report.partial
    assert report.spend.steps == 4
    assert [c.statement for c in report.verified_claims()] == [PLAYERS.statement]
    assert any(SHARE in gap for gap in report.gaps)


async def test_a_gap_subagent_is_told_the_unmet_criterion_what_was_found_and_how_it_ended() -> None:
    model = ScriptedModel(posts=[PLAYERS], subquestions=[TOP, SHARE])
    pages = market()
    await Orchestrator(model, pages, pages).run(make_brief(QUESTION))
    gap = next(a for a in model.assignments if a.gap)
    assert gap.subagent == "s2-gap1"
    assert gap.unmet_criterion == f"a verified claim for: {SHARE}"
    assert gap.found == ()
    assert gap.failed == "recorded 0 claims"


class DecliningModel(ScriptedModel):
    """Declines s2, as a Claude subagent does when its model refuses (`tools.refused`)."""

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        if assignment.subquestion.id == "s2":
            self.assignments.append(assignment)
            tools.refused = "Claude declined to answer"
            raise RuntimeError("ClaudeRefused: Claude declined to answer")
        await super().research(assignment, tools)


async def test_a_declined_subquestion_is_not_sent_again_and_the_report_names_it() -> None:
    model = DecliningModel(posts=[PLAYERS], subquestions=[TOP, SHARE])
    pages = market()
    report = await Orchestrator(model, pages, pages).run(make_brief(QUESTION))
    assert [a.subagent for a in model.assignments] == ["s1", "s2"]
    assert any("s2" in note and "declined" in note for note in report.notes)
    assert any(SHARE in gap for gap in report.gaps)
