import asyncio
import contextlib
from dataclasses import dataclass

from engine.agents.toolbox import Assignment, Toolbox
from engine.budget import Meter
from engine.contracts import (
    Claim,
    ClaimStatus,
    ClarifyingQuestion,
    Limits,
    Plan,
    Section,
    Sentence,
    Subquestion,
    Support,
)
from engine.events import Event, SubagentStarted
from engine.models.extractive import ExtractiveModel
from engine.models.protocol import Brief, Draft
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from tests.engine.conftest import HangingSource, PagesSource

LIMITS_QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"


def run(orchestrator: Orchestrator, question: str, template: str | None = None):  # type: ignore[no-untyped-def]
    return orchestrator.run(make_brief(question, template=template))


async def test_offline_run_publishes_only_verified_cited_sentences(source: PagesSource) -> None:
    events: list[Event] = []
    orchestrator = Orchestrator(ExtractiveModel(), source, source, events=events.append)
    report = await run(orchestrator, LIMITS_QUESTION)
    assert report.language == "pt"
    assert report.title.startswith("Relatório")
    verified = {c.id: c for c in report.verified_claims()}
    assert any("75 kW" in c.excerpt for c in verified.values())
    cited = [cid for s in report.sections for sentence in s.sentences for cid in sentence.claim_ids]
    assert cited
    assert all(cid in verified for cid in cited)
    assert not report.partial
    assert report.gaps == []
    assert report.spend.steps <= report.limits.steps
    assert any(isinstance(e, SubagentStarted) for e in events)


async def test_step_limit_gives_a_partial_report_with_gaps(source: PagesSource) -> None:
    orchestrator = Orchestrator(ExtractiveModel(), source, source, limits=Limits(steps=3))
    report = await run(orchestrator, LIMITS_QUESTION)
    assert report.partial
    assert report.gaps
    assert report.spend.steps == 3
    assert any("budget reached" in note for note in report.notes)


class SlowSource(PagesSource):
    """A fetch is held until another one runs alongside it: subagents running at the same
    time overlap however slowly the machine gets them there; subagents run one after the
    other would each wait out HOLD_SECONDS alone."""

    HOLD_SECONDS = 5.0
    in_flight: int = 0
    most_in_flight: int = 0
    overlapped: asyncio.Event | None = None

    async def fetch(self, url: str):  # type: ignore[no-untyped-def]
        SlowSource.in_flight += 1
        SlowSource.most_in_flight = max(SlowSource.most_in_flight, SlowSource.in_flight)
        overlapped = SlowSource.overlapped
        assert overlapped is not None
        if SlowSource.in_flight >= 2:
            overlapped.set()
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(overlapped.wait(), SlowSource.HOLD_SECONDS)
            return await super().fetch(url)
        finally:
            SlowSource.in_flight -= 1


async def test_independent_subquestions_run_at_the_same_time(source: PagesSource) -> None:
    SlowSource.in_flight = SlowSource.most_in_flight = 0
    SlowSource.overlapped = asyncio.Event()
    slow = SlowSource(documents=source.documents)
    orchestrator = Orchestrator(ExtractiveModel(), slow, slow)
    report = await run(orchestrator, "energia elétrica microgeração", template="regulacao")
    assert len(report.plan.subquestions) == 3
    assert SlowSource.most_in_flight >= 2


@dataclass
class ScriptedModel:
    """A model whose subagents post what the test says, and whose writer can misbehave."""

    posts: list[tuple[str, str, str]]
    sentences: list[Sentence] | None = None
    fail_research: bool = False
    verdicts: dict[str, Support] | None = None
    name: str = "scripted"
    write_cost_estimate_usd: float = 0.0
    write_calls: int = 0

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        return []

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        return Plan(
            question=brief.question,
            sufficient_when=["one verified claim"],
            subquestions=[Subquestion(id="s1", text=brief.question)],
        )

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        if self.fail_research:
            raise RuntimeError("model exploded")
        await tools.search(assignment.subquestion.text)
        for statement, url, excerpt in self.posts:
            await tools.read(url)
            await tools.record_claim(statement, url, excerpt)

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        return [] if verified else list(plan.sufficient_when)

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        if self.verdicts is None:
            return None
        return [c.model_copy(update={"support": self.verdicts[c.statement]}) for c in claims]

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        reservation = await meter.model_step(self.write_cost_estimate_usd)
        await meter.settle(reservation, self.write_cost_estimate_usd / 2)
        self.write_calls += 1
        sentences = self.sentences or [
            Sentence(text=c.statement, claim_ids=[c.id]) for c in verified
        ]
        return Draft(title="t", sections=[Section(title="s", sentences=sentences)])


LAW = "https://example.org/lei-14300"


async def test_fabricated_excerpt_is_rejected_and_never_written(source: PagesSource) -> None:
    model = ScriptedModel(
        posts=[
            ("Microgeração vai até 75 kW.", LAW, "potência instalada menor ou igual a 75 kW"),
            ("Microgeração vai até 100 kW.", LAW, "potência instalada menor ou igual a 100 kW"),
        ]
    )
    report = await run(Orchestrator(model, source, source), "limites")
    by_status = {c.statement: c.status for c in report.claims}
    assert by_status["Microgeração vai até 75 kW."] is ClaimStatus.verified
    assert by_status["Microgeração vai até 100 kW."] is ClaimStatus.rejected
    written = " ".join(s.text for section in report.sections for s in section.sentences)
    assert "100 kW" not in written


async def test_writer_sentences_without_valid_ids_or_with_unsourced_numbers_are_dropped(
    source: PagesSource,
) -> None:
    model = ScriptedModel(
        posts=[("Microgeração vai até 75 kW.", LAW, "potência instalada menor ou igual a 75 kW")]
    )
    orchestrator = Orchestrator(model, source, source)
    first = await run(orchestrator, "limites")
    claim_id = first.verified_claims()[0].id
    model.sentences = [
        Sentence(text="Microgeração vai até 75 kW.", claim_ids=[claim_id]),
        Sentence(text="O mercado cresceu 40% em 2024.", claim_ids=[claim_id]),
        Sentence(text="Uma frase sem fonte válida.", claim_ids=["cnope"]),
    ]
    report = await run(Orchestrator(model, source, source), "limites")
    written = [s.text for section in report.sections for s in section.sentences]
    assert written == ["Microgeração vai até 75 kW."]
    reasons = [d.reason for d in report.dropped_sentences]
    assert any("40" in r and "2024" in r for r in reasons)
    assert any("cnope" in r for r in reasons)


async def test_a_failing_subagent_becomes_a_note_and_a_gap_not_an_exception(
    source: PagesSource,
) -> None:
    report = await run(
        Orchestrator(ScriptedModel(posts=[], fail_research=True), source, source), "x y z"
    )
    assert any("model exploded" in note for note in report.notes)
    assert report.gaps == ["one verified claim"]


async def test_unmet_criteria_dispatch_a_gap_subagent_while_budget_remains(
    source: PagesSource,
) -> None:
    events: list[Event] = []
    orchestrator = Orchestrator(ExtractiveModel(), source, source, events=events.append)
    report = await run(orchestrator, "Qual é o preço médio do café arábica exportado?")
    assert any(isinstance(e, SubagentStarted) and e.gap for e in events)
    assert report.gaps
    assert "café" in report.gaps[0]
    assert not report.partial


async def test_cancel_returns_a_partial_report_promptly(source: PagesSource) -> None:
    hanging = HangingSource(documents=source.documents)
    orchestrator = Orchestrator(ExtractiveModel(), hanging, hanging)
    task = asyncio.create_task(run(orchestrator, LIMITS_QUESTION))
    await asyncio.sleep(0.1)
    orchestrator.cancel("interrupted by the user")
    report = await asyncio.wait_for(task, timeout=5)
    assert report.partial
    assert any("interrupted" in note for note in report.notes)
    assert report.gaps


async def test_time_cap_stops_a_stuck_subagent(source: PagesSource) -> None:
    hanging = HangingSource(documents=source.documents)
    orchestrator = Orchestrator(ExtractiveModel(), hanging, hanging, limits=Limits(seconds=0.2))
    report = await asyncio.wait_for(run(orchestrator, LIMITS_QUESTION), timeout=10)
    assert report.partial
    assert report.gaps


async def test_support_judge_rejects_contradicted_claims_and_flags_neutral_ones(
    source: PagesSource,
) -> None:
    model = ScriptedModel(
        posts=[
            ("Microgeração vai até 75 kW.", LAW, "potência instalada menor ou igual a 75 kW"),
            ("Minigeração começa acima de 75 kW.", LAW, "potência instalada maior que 75 kW"),
        ],
        verdicts={
            "Microgeração vai até 75 kW.": Support.neutral,
            "Minigeração começa acima de 75 kW.": Support.contradicts,
        },
    )
    report = await run(Orchestrator(model, source, source), "limites")
    by_statement = {c.statement: c for c in report.claims}
    neutral = by_statement["Microgeração vai até 75 kW."]
    contradicted = by_statement["Minigeração começa acima de 75 kW."]
    assert neutral.status is ClaimStatus.verified
    assert neutral.support is Support.neutral
    assert contradicted.status is ClaimStatus.rejected
    assert "contradicts" in (contradicted.reason or "")


async def test_offline_model_says_it_skipped_the_judge(source: PagesSource) -> None:
    report = await run(Orchestrator(ExtractiveModel(), source, source), LIMITS_QUESTION)
    assert any("judge skipped" in note for note in report.notes)


async def test_the_writer_call_is_reserved_before_research_can_spend_it(
    source: PagesSource,
) -> None:
    model = ScriptedModel(
        posts=[("Microgeração vai até 75 kW.", LAW, "potência instalada menor ou igual a 75 kW")],
        write_cost_estimate_usd=0.5,
    )
    orchestrator = Orchestrator(model, source, source, limits=Limits(usd=0.5))
    report = await run(orchestrator, "limites")
    assert model.write_calls == 1
    assert report.spend.usd == 0.25
    too_poor = ScriptedModel(posts=model.posts, write_cost_estimate_usd=0.5)
    report = await run(Orchestrator(too_poor, source, source, limits=Limits(usd=0.1)), "limites")
    assert too_poor.write_calls == 0
    assert report.sections  # composed from the verified claims verbatim
    assert any("no budget for the writer" in note for note in report.notes)


async def test_a_follow_up_researches_one_subquestion_on_the_same_board(
    source: PagesSource,
) -> None:
    orchestrator = Orchestrator(ExtractiveModel(), source, source)
    first = await run(orchestrator, LIMITS_QUESTION)
    first_ids = {c.id for c in first.claims}
    deeper = first.plan.model_copy(
        update={
            "subquestions": [
                *first.plan.subquestions,
                Subquestion(id="d1", text="Por quanto tempo valem os créditos de energia?"),
            ],
            "sufficient_when": [*first.plan.sufficient_when, "créditos"],
        }
    )
    await orchestrator.budget.extend(Limits(steps=10, seconds=60, usd=0))
    second = await orchestrator.run(make_brief(LIMITS_QUESTION), plan=deeper, research={"d1"})
    new = [c for c in second.claims if c.id not in first_ids]
    assert new
    assert all(c.subquestion == "d1" for c in new)
    assert first_ids <= {c.id for c in second.claims}
    assert len({c.id for c in second.claims}) == len(second.claims)


class FlakySource(PagesSource):
    async def fetch(self, url: str):  # type: ignore[no-untyped-def]
        if "acme" in url:
            from engine.sources.protocols import FetchError

            raise FetchError("HTTP 503")
        return await super().fetch(url)


async def test_an_unreadable_page_is_skipped_and_noted(source: PagesSource) -> None:
    flaky = FlakySource(documents=source.documents)
    report = await run(Orchestrator(ExtractiveModel(), flaky, flaky), "potência instalada 2018")
    assert any("could not read" in note and "503" in note for note in report.notes)
    assert report.verified_claims()
