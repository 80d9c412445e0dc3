from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.agents.toolbox import Assignment, Toolbox
from engine.board import InMemoryBoard
from engine.budget import InMemoryBudget
from engine.contracts import Limits, Subquestion
from engine.models.extractive import ExtractiveModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.snapshots import InMemorySnapshotStore, Snapshot
from engine.sources.kinds import WEB, SourceKind
from engine.sources.library import Library
from engine.sources.protocols import SearchHit
from engine.v1 import OfflineV1Roles, V1Pipeline
from engine.v1.metering import estimated_tokens
from evals.latency import (
    MODEL_READ_CHARS,
    TOOL_CALL_TOKENS,
    CallClock,
    ResearcherTurns,
    SimulatedLatency,
    SimulatedModel,
    SimulatedV1Roles,
    TurnToolbox,
    model_view,
)

QUESTION = "Qual é o limite de potência instalada da microgeração distribuída?"


@dataclass
class FakeSleep:
    """Records what would have been slept; sleeps for no time."""

    slept: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.slept.append(seconds)


def test_a_call_takes_overhead_plus_tokens_over_the_rate() -> None:
    latency = SimulatedLatency(tokens_per_second=100, overhead_seconds=0.5, input_speedup=50)

    assert latency.seconds(input_tokens=0, output_tokens=200) == pytest.approx(2.5)
    assert latency.seconds(input_tokens=5000, output_tokens=0) == pytest.approx(1.5)
    assert latency.seconds(0, 0) == pytest.approx(0.5)
    assert "simulated" in latency.describe()


@pytest.mark.parametrize(("tps", "overhead", "speedup"), [(0, 0.5, 50), (10, -1, 50), (10, 0, 0)])
def test_nonsense_rates_are_refused(tps: float, overhead: float, speedup: float) -> None:
    with pytest.raises(ValueError, match="latency needs"):
        SimulatedLatency(tps, overhead, speedup)


async def test_a_call_sleeps_and_records_its_usage_without_a_step() -> None:
    sleep = FakeSleep()
    clock = CallClock(SimulatedLatency(10, overhead_seconds=1.0, input_speedup=1), sleep)
    budget = InMemoryBudget(Limits())

    await clock.call(budget, input_tokens=30, output_tokens=20)

    assert sleep.slept == [pytest.approx(1.0 + 50 / 10)]
    spend = await budget.spend()
    assert (spend.usage.model_calls, spend.usage.input_tokens, spend.usage.output_tokens) == (
        1,
        30,
        20,
    )
    assert (spend.steps, spend.usd) == (0, 0.0)


async def test_without_latency_calls_are_counted_but_not_slept() -> None:
    sleep = FakeSleep()
    budget = InMemoryBudget(Limits())

    await CallClock(None, sleep).call(budget, 10, 10)

    assert sleep.slept == []
    assert (await budget.spend()).usage.model_calls == 1


async def test_a_stopped_budget_gets_no_call() -> None:
    sleep = FakeSleep()
    budget = InMemoryBudget(Limits())
    await budget.stop("cancelled")

    await CallClock(SimulatedLatency(10), sleep).call(budget, 10, 10)

    assert sleep.slept == []
    assert (await budget.spend()).usage.model_calls == 0


def test_a_read_shows_the_model_one_page_or_a_capped_text() -> None:
    paged = Snapshot.from_pages("https://x.test/a.pdf", ["one", "two"])
    long = Snapshot(url="https://x.test/b", text="x" * (MODEL_READ_CHARS + 10))

    assert model_view(paged, "https://x.test/a.pdf#page=2") == "two"
    assert model_view(paged, "https://x.test/a.pdf") == "one\n\ntwo"
    assert len(model_view(long, "https://x.test/b")) == MODEL_READ_CHARS


@dataclass
class Pages:
    name: str = "pages"
    kind: SourceKind = WEB
    texts: dict[str, str] = field(default_factory=dict)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        return [
            SearchHit(url, "T", "snip", rank, self.name) for rank, url in enumerate(self.texts, 1)
        ]

    async def fetch(self, url: str) -> Snapshot:
        return Snapshot(url=url, text=self.texts[url], title="T")


def _toolbox(pages: Pages) -> Toolbox:
    subquestion = Subquestion(id="s1", text="limite da microgeração")
    assignment = Assignment("s1", subquestion, QUESTION, "pt")
    return Toolbox(
        assignment, pages, pages, InMemorySnapshotStore(), InMemoryBoard(), InMemoryBudget(Limits())
    )


async def test_each_tool_step_is_a_turn_whose_input_is_what_was_read() -> None:
    page = "Art. 1º A microgeração distribuída tem potência instalada de até 75 kW. " * 10
    pages = Pages(texts={"https://x.test/lei": page})
    original = _toolbox(pages)
    sleep = FakeSleep()
    tools = TurnToolbox.around(original, CallClock(SimulatedLatency(1, 0, 1), sleep))
    prompt = estimated_tokens(f"{QUESTION}\nlimite da microgeração")

    hits = await tools.search("limite")
    await tools.read("https://x.test/lei")
    await tools.read("https://x.test/lei")  # from the snapshots: no step, no turn
    await tools.record_claim("Até 75 kW.", "https://x.test/lei", page[:80])

    hits_tokens = estimated_tokens("T https://x.test/lei snip")
    assert len(hits) == 1
    assert sleep.slept == [
        prompt + TOOL_CALL_TOKENS + estimated_tokens("limite"),
        prompt + hits_tokens + TOOL_CALL_TOKENS + estimated_tokens("https://x.test/lei"),
    ]
    assert tools.context_tokens == prompt + hits_tokens + estimated_tokens(page)
    # What the turn toolbox posts and reads is the original's: the orchestrator reads those.
    assert [c.statement for c in original.posted] == ["Até 75 kW."]
    assert original.read_urls == ["https://x.test/lei"]
    assert original.steps_used == 0
    assert tools.steps_used == 2


def _library(folder: Path, cache: Path) -> Library:
    return Library.open(folder / "docs", cache_dir=cache)


async def test_the_final_model_counts_every_call_it_sleeps_for(
    suite_folder: Path, tmp_path: Path
) -> None:
    library = _library(suite_folder, tmp_path / "cache")
    sleep = FakeSleep()
    model = SimulatedModel(ExtractiveModel(), CallClock(SimulatedLatency(1000, 0.25), sleep))

    report = await Orchestrator(model, library, library).run(make_brief(QUESTION))

    assert report.verified_claims(), "the wrapped subagent's claims reach the board"
    assert report.spend.usage.model_calls == len(sleep.slept) >= 5
    assert report.spend.usage.input_tokens > 0
    assert report.spend.usage.output_tokens > 0
    assert all(seconds >= 0.25 for seconds in sleep.slept)
    assert report.spend.usd == 0.0


async def test_the_final_model_without_latency_counts_the_same_calls(
    suite_folder: Path, tmp_path: Path
) -> None:
    library = _library(suite_folder, tmp_path / "cache")
    slept, counted = FakeSleep(), FakeSleep()
    timed = SimulatedModel(ExtractiveModel(), CallClock(SimulatedLatency(1000), slept))
    untimed = SimulatedModel(ExtractiveModel(), CallClock(None, counted))

    with_latency = await Orchestrator(timed, library, library).run(make_brief(QUESTION))
    without = await Orchestrator(untimed, library, library).run(make_brief(QUESTION))

    assert counted.slept == []
    assert without.spend.usage == with_latency.spend.usage


async def test_v1_sleeps_for_each_role_call_and_each_researcher_step(
    suite_folder: Path, tmp_path: Path
) -> None:
    library = _library(suite_folder, tmp_path / "cache")
    sleep = FakeSleep()
    clock = CallClock(SimulatedLatency(1000, 0.25), sleep)
    turns = ResearcherTurns(clock)
    roles = SimulatedV1Roles(OfflineV1Roles(), clock, turns)
    pipeline = V1Pipeline(roles, turns.searcher(library), turns.fetcher(library))

    report = await pipeline.run(make_brief(QUESTION))

    usage = report.spend.usage
    assert usage.model_calls == len(sleep.slept)
    # Five role calls plus at least a search and a read by the researcher.
    assert usage.model_calls >= 5 + 2
    assert turns.budget is None, "turns count only during the research role call"
    assert report.architecture == "v1"


async def test_v1_research_call_counts_the_context_like_a_final_subagent(
    suite_folder: Path, tmp_path: Path
) -> None:
    library = _library(suite_folder, tmp_path / "cache")
    sleep = FakeSleep()
    clock = CallClock(SimulatedLatency(1, 0, 1), sleep)
    turns = ResearcherTurns(clock)
    roles = SimulatedV1Roles(OfflineV1Roles(), clock, turns)
    pipeline = V1Pipeline(roles, turns.searcher(library), turns.fetcher(library))

    await pipeline.run(make_brief(QUESTION))

    # Turns: search, read(s), then the research role's call: input = the whole context.
    research_call = sleep.slept[-5]
    assert research_call >= turns.context_tokens
    assert turns.context_tokens > estimated_tokens(QUESTION)


async def test_reads_started_together_share_one_turn() -> None:
    pages = Pages(texts={"https://x.test/a": "a" * 400, "https://x.test/b": "b" * 400})
    sleep = FakeSleep()
    tools = TurnToolbox.around(_toolbox(pages), CallClock(SimulatedLatency(1, 0, 1), sleep))

    await asyncio.gather(tools.read("https://x.test/a"), tools.read("https://x.test/b"))
    await tools.search("next")

    assert len(sleep.slept) == 2, "one turn for the two reads, one for the search"
    assert tools.steps_used == 3
    assert tools.context_tokens > 200


@dataclass
class Filing:
    """One paged document; search names its pages in order."""

    name: str = "filing"
    kind: SourceKind = WEB
    url: str = "https://x.test/10k.pdf"
    pages: tuple[str, ...] = ("cover " * 40, "balance sheet " * 80, "cash flows " * 120)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        urls = [f"{self.url}#page={n}" for n in range(1, len(self.pages) + 1)]
        return [SearchHit(url, "10-K", "", rank, self.name) for rank, url in enumerate(urls, 1)]

    async def fetch(self, url: str) -> Snapshot:
        return Snapshot.from_pages(self.url, list(self.pages), title="10-K")


async def test_a_page_of_an_open_document_adds_its_text_but_no_turn() -> None:
    filing = Filing()
    original = Toolbox(
        Assignment("s1", Subquestion(id="s1", text="q"), "q", "en"),
        filing,
        filing,
        InMemorySnapshotStore(),
        InMemoryBoard(),
        InMemoryBudget(Limits()),
    )
    sleep = FakeSleep()
    tools = TurnToolbox.around(original, CallClock(SimulatedLatency(1, 0, 1), sleep))
    start = tools.context_tokens

    await tools.read(f"{filing.url}#page=1")
    await tools.read(f"{filing.url}#page=3")  # the document is open: no step, no turn
    await tools.read(f"{filing.url}#page=3")  # already shown: nothing more

    assert len(sleep.slept) == 1
    assert tools.steps_used == 1
    pages = estimated_tokens(filing.pages[0]) + estimated_tokens(filing.pages[2])
    assert tools.context_tokens == start + pages


async def test_v1_researcher_is_counted_for_the_pages_it_looks_at_in_an_open_document() -> None:
    filing = Filing()
    clock = CallClock(SimulatedLatency(1, 0, 1), FakeSleep())
    turns = ResearcherTurns(clock)
    roles = SimulatedV1Roles(OfflineV1Roles(), clock, turns)
    pipeline = V1Pipeline(roles, turns.searcher(filing), turns.fetcher(filing))

    await pipeline.run(make_brief("What are the cash flows in the balance sheet?"))

    shown = sum(estimated_tokens(page) for page in filing.pages)
    assert turns.context_tokens >= shown, "every page looked at is in the context"
