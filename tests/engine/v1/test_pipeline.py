from dataclasses import dataclass, field

import pytest

from engine.budget import InMemoryBudget, Meter
from engine.contracts import ClaimStatus, Limits, Plan, Report, Subquestion
from engine.events import (
    Event,
    Notice,
    PlanReady,
    SpendUpdated,
    SubagentFinished,
    SubagentStarted,
)
from engine.models.extractive.planner import extractive_plan
from engine.models.protocol import Brief
from engine.planning.briefs import make_brief
from engine.render import render_html, render_markdown
from engine.snapshots import split_page
from engine.v1 import V1_RESEARCHER, OfflineV1Roles, ResearchNotes, ResearchTools, V1Pipeline
from engine.v1.notes import SourceEntry
from tests.support.pages_source import PagesSource, SlowPages
from tests.support.paying_models import PayingV1Roles
from tests.support.solar_pages import SOLAR_QUESTION, solar_pages

ROLE_ORDER = ["research", "analyse", "write", "review", "edit"]


@dataclass
class RecordingRoles:
    """The offline roles, recording the order they are called in; one may be made to fail."""

    calls: list[str] = field(default_factory=list)
    failing: str | None = None
    inner: OfflineV1Roles = field(default_factory=OfflineV1Roles)
    name: str = "recording"

    def _called(self, role: str) -> None:
        self.calls.append(role)
        if role == self.failing:
            raise RuntimeError(f"{role} exploded")

    async def research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        self._called("research")
        return await self.inner.research(brief, plan, tools, meter)

    async def analyse(self, brief: Brief, notes: ResearchNotes, meter: Meter) -> str:
        self._called("analyse")
        return await self.inner.analyse(brief, notes, meter)

    async def write(
        self, brief: Brief, plan: Plan, analysis: str, sources: list[SourceEntry], meter: Meter
    ) -> str:
        self._called("write")
        return await self.inner.write(brief, plan, analysis, sources, meter)

    async def review(self, brief: Brief, draft: str, meter: Meter) -> str:
        self._called("review")
        return await self.inner.review(brief, draft, meter)

    async def edit(self, brief: Brief, text: str, meter: Meter) -> str:
        self._called("edit")
        return await self.inner.edit(brief, text, meter)


async def run_v1(source: PagesSource, roles: RecordingRoles, **options: object) -> Report:
    pipeline = V1Pipeline(roles, source, source, **options)  # type: ignore[arg-type]
    return await pipeline.run(make_brief(SOLAR_QUESTION))


async def test_five_roles_run_in_order_into_a_v1_report(solar: PagesSource) -> None:
    roles = RecordingRoles()
    report = await run_v1(solar, roles)
    assert roles.calls == ROLE_ORDER
    assert report.architecture == "v1"
    assert report.model == "recording"
    assert not report.partial
    assert report.gaps == []
    assert report.sections
    cited = report.cited_claim_ids()
    assert cited
    assert {c.id for c in report.claims} == set(cited)
    assert all(split_page(c.url)[0] in solar.documents for c in report.claims)
    assert all(c.status is ClaimStatus.pending for c in report.claims)
    assert all(c.subagent == V1_RESEARCHER for c in report.claims)
    assert {c.subquestion for c in report.claims} == {"s1", "s2"}


async def test_spend_counts_every_role_call_and_every_tool_step(solar: PagesSource) -> None:
    report = await run_v1(solar, RecordingRoles())
    usage = report.spend.usage
    assert usage.model_calls == 5
    assert usage.input_tokens > 0
    assert usage.output_tokens > 0
    searches, reads = len(solar.searches), len(set(solar.fetches))
    assert searches == 2  # one per subquestion
    assert report.spend.steps == 5 + searches + reads
    assert report.spend.usd == 0.0


async def test_researcher_reads_one_page_at_a_time() -> None:
    slow = SlowPages(documents=solar_pages().documents)
    await run_v1(slow, RecordingRoles())
    assert len(slow.fetches) >= 3
    assert slow.most_in_flight == 1


async def test_no_ceiling_the_run_goes_past_its_limits_and_is_not_partial(
    solar: PagesSource,
) -> None:
    limits = Limits(steps=2, seconds=60, usd=0.5)
    report = await run_v1(solar, RecordingRoles(), limits=limits)
    assert report.limits == limits
    assert report.spend.steps > limits.steps
    assert not report.partial
    assert report.sections


async def test_the_run_s_budget_holds_and_a_refused_step_ends_the_run(
    solar: PagesSource,
) -> None:
    budget = InMemoryBudget(Limits(steps=3, seconds=60, usd=0.5))
    roles = RecordingRoles()
    report = await run_v1(solar, roles, budget=budget)
    assert roles.calls == ["research"]  # no role runs after the budget said no
    assert report.spend.steps == 3
    assert report.limits == budget.limits
    assert report.partial
    assert not report.sections
    assert len(report.gaps) == 2  # both subquestions, cut by the budget
    assert all("interrupted by the budget" in gap for gap in report.gaps)
    assert "budget reached: steps (3 of 3 steps used)" in report.notes


async def test_a_budget_cut_after_the_writer_keeps_the_written_report(
    solar: PagesSource,
) -> None:
    budget = InMemoryBudget(Limits(steps=100, seconds=60, usd=0.35))
    roles = PayingV1Roles(cost=0.10)
    report = await V1Pipeline(roles, solar, solar, budget=budget).run(make_brief(SOLAR_QUESTION))
    assert roles.called == ["research", "analyse", "write"]
    assert report.spend.usd == pytest.approx(0.30)
    assert report.partial
    assert report.sections  # the writer's draft stands, unreviewed
    assert report.gaps == []
    assert any(note.startswith("budget reached: usd") for note in report.notes)


async def test_defaults_limits_and_the_final_offline_plan(solar: PagesSource) -> None:
    report = await run_v1(solar, RecordingRoles())
    assert report.limits == Limits()
    assert report.plan == extractive_plan(make_brief(SOLAR_QUESTION))


async def test_an_approved_plan_is_followed(solar: PagesSource) -> None:
    plan = Plan(
        question=SOLAR_QUESTION,
        subquestions=[Subquestion(id="credits", text="net metering credits expire months")],
    )
    report = await V1Pipeline(OfflineV1Roles(), solar, solar).run(make_brief(SOLAR_QUESTION), plan)
    assert solar.searches == ["net metering credits expire months"]
    assert report.plan == plan
    assert {c.subquestion for c in report.claims} == {"credits"}


async def test_progress_events_follow_the_one_researcher_through_the_plan(
    solar: PagesSource,
) -> None:
    events: list[Event] = []
    await run_v1(solar, RecordingRoles(), events=events.append)
    assert isinstance(events[0], PlanReady)
    research = [
        (type(e).__name__, e.subquestion)
        for e in events
        if isinstance(e, SubagentStarted | SubagentFinished)
    ]
    assert research == [
        ("SubagentStarted", "s1"),
        ("SubagentFinished", "s1"),
        ("SubagentStarted", "s2"),
        ("SubagentFinished", "s2"),
    ]
    assert all(
        e.subagent == V1_RESEARCHER
        for e in events
        if isinstance(e, SubagentStarted | SubagentFinished)
    )
    spends = [e.spend.usage.model_calls for e in events if isinstance(e, SpendUpdated)]
    assert spends[:5] == [1, 2, 3, 4, 5]


async def test_a_failing_writer_leaves_a_note_and_a_valid_report(solar: PagesSource) -> None:
    roles = RecordingRoles(failing="write")
    events: list[Event] = []
    report = await run_v1(solar, roles, events=events.append)
    assert roles.calls == ROLE_ORDER
    assert report.sections == []
    assert any("v1 writer failed" in n and "write exploded" in n for n in report.notes)
    assert any(isinstance(e, Notice) for e in events)
    Report.model_validate_json(report.model_dump_json())


async def test_a_failing_analyst_passes_the_summary_on(solar: PagesSource) -> None:
    report = await run_v1(solar, RecordingRoles(failing="analyse"))
    assert any("v1 analyst failed" in n for n in report.notes)
    assert report.sections


@pytest.mark.parametrize(("role", "title"), [("review", "reviewer"), ("edit", "editor")])
async def test_a_failing_reviewer_or_editor_keeps_the_draft(
    solar: PagesSource, role: str, title: str
) -> None:
    report = await run_v1(solar, RecordingRoles(failing=role))
    assert any(f"v1 {title} failed" in n for n in report.notes)
    assert report.sections


@dataclass
class BrokenResearcher(RecordingRoles):
    async def research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        tools.begin(plan.subquestions[0])
        await tools.search(plan.subquestions[0].text)
        raise RuntimeError("researcher lost its context")


async def test_a_failing_researcher_is_reported_not_raised(solar: PagesSource) -> None:
    events: list[Event] = []
    roles = BrokenResearcher()
    report = await run_v1(solar, roles, events=events.append)
    assert roles.calls == ROLE_ORDER[1:]
    assert any("v1 researcher failed" in n for n in report.notes)
    finished = [e for e in events if isinstance(e, SubagentFinished)]
    assert len(finished) == 1
    assert finished[0].error is not None
    assert "lost its context" in finished[0].error
    assert report.sections == []
    assert report.claims == []


async def test_the_report_round_trips_as_json_and_renders(solar: PagesSource) -> None:
    report = await run_v1(solar, RecordingRoles())
    again = Report.model_validate_json(report.model_dump_json())
    assert again == report
    markdown = render_markdown(again)
    assert "v1" in markdown
    assert report.sections[0].title in markdown
    assert "<html" in render_html(again)
