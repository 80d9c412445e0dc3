from __future__ import annotations

import threading
from typing import Any

import pytest
from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from engine.sources.protocols import Search, SearchError, SearchHit
from engine.sources.web.search import DuckDuckGoSearch
from engine.sources.web.search.duckduckgo import ddgs_failure_reason

RESULTS = [
    {
        "title": "Solar power",
        "href": "https://a.example/solar",
        "body": "Sunlight into electricity",
    },
    {"title": "no link", "body": "skipped"},
    {"title": "Wind", "href": "https://b.example/wind", "body": "Turbines"},
]


class FakeDDGS:
    """Stands in for ddgs.DDGS: returns `results` or raises `error`, after `gate` opens."""

    def __init__(self, results: object = RESULTS, error: Exception | None = None) -> None:
        self.results = results
        self.error = error
        self.calls: list[dict[str, Any]] = []
        self.timeouts: list[float] = []
        self.gate = threading.Event()
        self.gate.set()

    def factory(self, timeout: float) -> FakeDDGS:
        self.timeouts.append(timeout)
        return self

    def text(self, query: str, *, max_results: int | None, backend: str, region: str) -> object:
        self.calls.append(
            {"query": query, "max_results": max_results, "backend": backend, "region": region}
        )
        self.gate.wait(5)
        if self.error is not None:
            raise self.error
        return self.results


async def test_maps_text_results_to_ranked_hits() -> None:
    fake = FakeDDGS()
    searcher: Search = DuckDuckGoSearch(timeout=7, region="br-pt", searcher_factory=fake.factory)
    hits = await searcher.search("energia solar", limit=5)
    assert hits == [
        SearchHit("https://a.example/solar", "Solar power", "Sunlight into electricity", 1, "ddgs"),
        SearchHit("https://b.example/wind", "Wind", "Turbines", 2, "ddgs"),
    ]
    assert fake.calls == [
        {"query": "energia solar", "max_results": 5, "backend": "auto", "region": "br-pt"}
    ]
    assert fake.timeouts == [7]


async def test_a_search_that_hangs_times_out() -> None:
    fake = FakeDDGS()
    fake.gate.clear()
    try:
        with pytest.raises(SearchError, match=r"^timed out after 0\.2 s$"):
            await DuckDuckGoSearch(timeout=0.2, searcher_factory=fake.factory).search("solar")
    finally:
        fake.gate.set()  # let the worker thread finish before the loop closes


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (RatelimitException("202 Ratelimit"), "rate limited: 202 Ratelimit"),
        (TimeoutException("read timed out"), "timed out: read timed out"),
        (
            DDGSException("https://duckduckgo.com/html 403 Forbidden"),
            "https://duckduckgo.com/html 403 Forbidden",
        ),
        (ValueError("bad\nthing"), "ValueError: bad thing"),
    ],
)
async def test_ddgs_exceptions_become_search_errors(error: Exception, reason: str) -> None:
    fake = FakeDDGS(error=error)
    with pytest.raises(SearchError) as failure:
        await DuckDuckGoSearch(searcher_factory=fake.factory).search("solar")
    assert str(failure.value) == reason
    assert ddgs_failure_reason(error) == reason


async def test_no_results_found_is_an_empty_answer_not_a_failure() -> None:
    fake = FakeDDGS(error=DDGSException("No results found."))
    assert await DuckDuckGoSearch(searcher_factory=fake.factory).search("zzqx") == []


async def test_an_answer_that_is_not_a_list_is_malformed() -> None:
    fake = FakeDDGS(results={"title": "x"})
    with pytest.raises(SearchError, match=r"^malformed response"):
        await DuckDuckGoSearch(searcher_factory=fake.factory).search("solar")


async def test_a_zero_limit_asks_nothing() -> None:
    fake = FakeDDGS()
    assert await DuckDuckGoSearch(searcher_factory=fake.factory).search("solar", limit=0) == []
    assert fake.calls == []
