import asyncio

import pytest

from engine.budget import InMemoryBudget, StepRefused
from engine.contracts import Limits, Subquestion
from engine.events import Event, SubagentFinished, SubagentStarted
from engine.sources.protocols import FetchError
from engine.v1.notes import V1_RESEARCHER, SourceEntry
from engine.v1.tools import ResearchTools
from tests.support.pages_source import PagesSource, SlowPages
from tests.support.solar_pages import MARKET, PRICES, RULES, solar_pages


def tools_for(source: PagesSource, events: list[Event] | None = None) -> ResearchTools:
    budget = InMemoryBudget(Limits(steps=1000))
    return ResearchTools(source, source, budget, (events if events is not None else []).append)


async def test_each_search_and_each_new_document_is_one_step(solar: PagesSource) -> None:
    tools = tools_for(solar)
    await tools.search("solar Brazil")
    await tools.read(MARKET)
    await tools.read(MARKET)
    await tools.read(PRICES)
    assert (await tools.budget.spend()).steps == 3
    assert solar.fetches == [MARKET, PRICES]
    assert set(tools.snapshots()) == {MARKET, PRICES}


async def test_reads_wait_for_each_other_even_when_asked_at_once() -> None:
    slow = SlowPages(documents=solar_pages().documents)
    tools = tools_for(slow)
    await asyncio.gather(tools.read(MARKET), tools.read(PRICES), tools.read(RULES))
    assert slow.most_in_flight == 1
    assert len(slow.fetches) == 3


async def test_consulted_sources_are_numbered_in_reading_order_with_their_hits(
    solar: PagesSource,
) -> None:
    tools = tools_for(solar)
    hits = await tools.search("net metering rules")
    await tools.read(RULES)
    await tools.read(MARKET)  # read without a hit that showed it: the page describes itself
    hit = next(h for h in hits if h.url == RULES)
    assert tools.consulted() == [
        SourceEntry(1, RULES, hit.title, hit.snippet),
        SourceEntry(2, MARKET, "Brazil residential solar market 2023", ""),
    ]
    assert any(solar.documents[RULES].text == seen for seen in tools.seen)


async def test_a_failed_fetch_raises_and_is_not_consulted(solar: PagesSource) -> None:
    tools = tools_for(solar)
    with pytest.raises(FetchError):
        await tools.read("https://example.org/missing")
    assert tools.consulted() == []


async def test_begin_and_finish_report_the_researcher_per_subquestion(solar: PagesSource) -> None:
    events: list[Event] = []
    tools = tools_for(solar, events)
    first, second = Subquestion(id="s1", text="a b c"), Subquestion(id="s2", text="d e f")
    tools.begin(first)
    tools.begin(second)
    tools.finish(error="boom")
    tools.finish()
    assert events == [
        SubagentStarted(V1_RESEARCHER, "s1"),
        SubagentFinished(V1_RESEARCHER, "s1", 0, False),
        SubagentStarted(V1_RESEARCHER, "s2"),
        SubagentFinished(V1_RESEARCHER, "s2", 0, False, "boom"),
    ]


async def test_a_stopped_budget_refuses_the_step(solar: PagesSource) -> None:
    tools = tools_for(solar)
    await tools.budget.stop("user cancelled")
    with pytest.raises(StepRefused):
        await tools.search("solar")
    assert solar.searches == []
