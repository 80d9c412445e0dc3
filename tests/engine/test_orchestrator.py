"""The orchestrator around a scripted model (engine.models.scripted): what it does with
whatever a model plans, posts, judges and writes. The extractive model's own rules are tested
in tests/engine/models/extractive/."""

import asyncio
import contextlib

from engine.contracts import ClaimStatus, Limits, Sentence, Subquestion, Support
from engine.events import Event, SubagentStarted
from engine.models.scripted import Post, ScriptedModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.snapshots import Snapshot
from tests.support.pages_source import HangingSource, PagesSource

LIMITS_QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"
LAW = "https://example.org/lei-14300"
FILING = "https://example.org/acme-2018.pdf#page=2"
MICRO = ("Microgeração vai até 75 kW.", LAW, "potência instalada menor ou igual a 75 kW")
CREDITS = (
    "Os créditos expiram em 60 meses.",
    LAW,
    "Os créditos de energia elétrica expiram em 60 (sessenta) meses",
)
CAPEX = (
    "Purchases of property, plant and equipment were 1,577.",
    FILING,
    "Purchases of property, plant and equipment (PP&E) (1,577) (1,373)",
)


def scripted(*posts: tuple[str, str, str] | Post, **script: object) -> ScriptedModel:
    return ScriptedModel(posts=list(posts), **script)  # type: ignore[arg-type]


def run(orchestrator: Orchestrator, question: str, template: str | None = None):  # type: ignore[no-untyped-def]
    return orchestrator.run(make_brief(question, template=template))


async def test_a_run_publishes_only_verified_cited_sentences(source: PagesSource) -> None:
    events: list[Event] = []
    model = scripted(MICRO, CREDITS)
    orchestrator = Orchestrator(model, source, source, events=events.append)
    report = await run(orchestrator, LIMITS_QUESTION)
    assert report.language == "pt"
    verified = {c.id: c for c in report.verified_claims()}
    assert {c.statement for c in verified.values()} == {MICRO[0], CREDITS[0]}
    cited = [cid for s in report.sections for sentence in s.sentences for cid in sentence.claim_ids]
    assert cited
    assert all(cid in verified for cid in cited)
    assert not report.partial
    assert report.gaps == []
    assert report.spend.steps <= report.limits.steps
    assert any(isinstance(e, SubagentStarted) for e in events)


async def test_step_limit_gives_a_partial_report_with_gaps(source: PagesSource) -> None:
    model = scripted(MICRO, CAPEX, subquestions=["limites", "capex"])
    orchestrator = Orchestrator(model, source, source, limits=Limits(steps=3))
    report = await run(orchestrator, LIMITS_QUESTION)
    assert report.partial
    assert report.gaps
    assert report.spend.steps == 3
    assert any("orçamento atingido" in note for note in report.notes)  # pt, as asked


class OverlapSource(PagesSource):
    """A fetch is held until another one runs alongside it: subagents running at the same
    time overlap however slowly the machine gets them there; subagents run one after the
    other would each wait out HOLD_SECONDS alone. Its counters are the instance's own."""

    HOLD_SECONDS = 5.0

    def __init__(self, documents: dict[str, Snapshot]) -> None:
        super().__init__(documents=documents)
        self.in_flight = 0
        self.most_in_flight = 0
        self.overlapped = asyncio.Event()

    async def fetch(self, url: str) -> Snapshot:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        if self.in_flight >= 2:
            self.overlapped.set()
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.overlapped.wait(), self.HOLD_SECONDS)
            return await super().fetch(url)
        finally:
            self.in_flight -= 1


async def test_independent_subquestions_run_at_the_same_time(source: PagesSource) -> None:
    slow = OverlapSource(source.documents)
    model = scripted(
        Post(*MICRO, subquestion="s1"),
        Post(*CAPEX, subquestion="s2"),
        subquestions=["limites", "capex", "créditos"],
    )
    report = await run(Orchestrator(model, slow, slow), "energia elétrica microgeração")
    assert len(report.plan.subquestions) == 3
    assert slow.most_in_flight >= 2
    assert {c.subquestion for c in report.verified_claims()} == {"s1", "s2"}


async def test_fabricated_excerpt_is_rejected_and_never_written(source: PagesSource) -> None:
    model = scripted(
        MICRO, ("Microgeração vai até 100 kW.", LAW, "potência instalada menor ou igual a 100 kW")
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
    model = scripted(MICRO)
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
    report = await run(Orchestrator(scripted(fail_research="model exploded"), source, source), "x")
    assert any("model exploded" in note for note in report.notes)
    assert report.gaps == ["a verified claim for: x"]


async def test_unmet_criteria_dispatch_a_gap_subagent_while_budget_remains(
    source: PagesSource,
) -> None:
    events: list[Event] = []
    invented = ("O café arábica custa 300 dólares.", LAW, "o café arábica exportado custa 300")
    model = scripted(invented)
    orchestrator = Orchestrator(model, source, source, events=events.append)
    report = await run(orchestrator, "Qual é o preço médio do café arábica exportado?")
    assert any(isinstance(e, SubagentStarted) and e.gap for e in events)
    assert model.researched == ["s1", "s1-gap1"]
    assert report.gaps
    assert "café" in report.gaps[0]
    assert not report.partial


async def test_cancel_returns_a_partial_report_promptly(source: PagesSource) -> None:
    hanging = HangingSource(documents=source.documents)
    orchestrator = Orchestrator(scripted(MICRO), hanging, hanging)
    task = asyncio.create_task(run(orchestrator, LIMITS_QUESTION))
    await asyncio.sleep(0.1)
    orchestrator.cancel("interrupted by the user")
    report = await asyncio.wait_for(task, timeout=5)
    assert report.partial
    assert any("interrupted" in note for note in report.notes)
    assert report.gaps


async def test_time_cap_stops_a_stuck_subagent(source: PagesSource) -> None:
    hanging = HangingSource(documents=source.documents)
    orchestrator = Orchestrator(scripted(MICRO), hanging, hanging, limits=Limits(seconds=0.2))
    report = await asyncio.wait_for(run(orchestrator, LIMITS_QUESTION), timeout=10)
    assert report.partial
    assert report.gaps


async def test_support_judge_rejects_contradicted_claims_and_flags_neutral_ones(
    source: PagesSource,
) -> None:
    model = scripted(
        MICRO,
        ("Minigeração começa acima de 75 kW.", LAW, "potência instalada maior que 75 kW"),
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


async def test_a_model_that_does_not_judge_is_said_to_have_skipped_the_judge(
    source: PagesSource,
) -> None:
    report = await run(Orchestrator(scripted(MICRO), source, source), LIMITS_QUESTION)
    assert any(
        note.startswith("as afirmações não foram lidas uma segunda vez (o modelo scripted")
        for note in report.notes
    )
    assert not any("juiz" in note for note in report.notes)  # worded for a reader


async def test_the_writer_call_is_reserved_before_research_can_spend_it(
    source: PagesSource,
) -> None:
    model = scripted(MICRO, write_cost_estimate_usd=0.5)
    orchestrator = Orchestrator(model, source, source, limits=Limits(usd=0.5))
    report = await run(orchestrator, "limites")
    assert model.write_calls == 1
    assert report.spend.usd == 0.25
    too_poor = scripted(MICRO, write_cost_estimate_usd=0.5)
    report = await run(Orchestrator(too_poor, source, source, limits=Limits(usd=0.1)), "limites")
    assert too_poor.write_calls == 0
    assert report.sections  # composed from the verified claims verbatim
    assert any(  # "limites": en
        "budget ran out before the report could be written" in note for note in report.notes
    )


async def test_a_follow_up_researches_one_subquestion_on_the_same_board(
    source: PagesSource,
) -> None:
    model = scripted(Post(*MICRO, subquestion="s1"), Post(*CREDITS, subquestion="d1"))
    orchestrator = Orchestrator(model, source, source)
    first = await run(orchestrator, LIMITS_QUESTION)
    assert [c.statement for c in first.claims] == [MICRO[0]]
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
    assert [(c.statement, c.subquestion) for c in new] == [(CREDITS[0], "d1")]
    assert first_ids <= {c.id for c in second.claims}
    assert len({c.id for c in second.claims}) == len(second.claims)


class FlakySource(PagesSource):
    async def fetch(self, url: str) -> Snapshot:
        if "acme" in url:
            from engine.sources.protocols import FetchError

            raise FetchError("HTTP 503")
        return await super().fetch(url)


async def test_a_subagent_note_reaches_the_report_with_its_subagent(source: PagesSource) -> None:
    flaky = FlakySource(documents=source.documents)
    report = await run(Orchestrator(scripted(CAPEX, MICRO), flaky, flaky), "potência 2018")
    assert any(
        note.startswith("s1: não foi possível ler") and "503" in note for note in report.notes
    )
    assert [c.statement for c in report.verified_claims()] == [MICRO[0]]


async def test_the_measure_asked_declares_the_input_no_verified_figure_gives(
    source: PagesSource,
) -> None:
    capex = Post(CAPEX[0], CAPEX[1], CAPEX[2], context="(Millions) 2018 2017")
    orchestrator = Orchestrator(scripted(capex), source, source)
    report = await run(orchestrator, "What was ACME's capex as a % of revenue in FY2018?")
    assert [c.status for c in report.claims] == [ClaimStatus.verified]
    assert "Capex as a % of revenue in 2018: no verified figure of revenue" in report.gaps
