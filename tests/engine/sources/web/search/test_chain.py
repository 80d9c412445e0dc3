from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine.sources.protocols import Search, SearchError, SearchHit
from engine.sources.web.search import FallbackSearch
from engine.sources.web.search.chain import fallback_note


@dataclass
class ScriptedProvider:
    """Answers with one hit of its own, or raises `error`; counts its calls."""

    name: str
    error: Exception | None = None
    hits: list[SearchHit] | None = None
    queries: list[tuple[str, int]] = field(default_factory=list)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        self.queries.append((query, limit))
        if self.error is not None:
            raise self.error
        if self.hits is not None:
            return self.hits
        return [SearchHit(f"https://{self.name}.example/", self.name, "", 1, self.name)]


async def test_the_first_provider_that_answers_wins_and_the_rest_are_not_asked() -> None:
    first, second = ScriptedProvider("searxng"), ScriptedProvider("ddgs")
    chain: Search = FallbackSearch([first, second])
    hits = await chain.search("solar", limit=3)
    assert [h.provider for h in hits] == ["searxng"]
    assert first.queries == [("solar", 3)]
    assert second.queries == []
    assert chain.name == "searxng,ddgs"


async def test_a_failing_provider_falls_back_to_the_next_with_a_note() -> None:
    seen: list[str] = []
    chain = FallbackSearch(
        [
            ScriptedProvider("searxng", SearchError("HTTP 503 (server error)")),
            ScriptedProvider("brave", SearchError("timed out after 10 s")),
            ScriptedProvider("ddgs"),
        ],
        on_note=seen.append,
    )
    hits = await chain.search("solar")
    assert [h.provider for h in hits] == ["ddgs"]
    note = "searxng failed: HTTP 503 (server error); brave failed: timed out after 10 s; used ddgs"
    assert chain.notes == [note]
    assert seen == [note]


async def test_the_same_fallback_is_noted_once() -> None:
    seen: list[str] = []
    chain = FallbackSearch(
        [
            ScriptedProvider("searxng", SearchError("HTTP 503 (server error)")),
            ScriptedProvider("ddgs"),
        ],
        on_note=seen.append,
    )
    for query in ("solar", "wind", "hydro"):
        await chain.search(query)
    assert chain.notes == seen == ["searxng failed: HTTP 503 (server error); used ddgs"]


async def test_an_unexpected_exception_also_falls_back() -> None:
    chain = FallbackSearch(
        [ScriptedProvider("broken", KeyError("results")), ScriptedProvider("ddgs")]
    )
    assert [h.provider for h in await chain.search("solar")] == ["ddgs"]
    assert chain.notes == ["broken failed: KeyError: 'results'; used ddgs"]


async def test_an_empty_answer_is_an_answer() -> None:
    second = ScriptedProvider("ddgs")
    chain = FallbackSearch([ScriptedProvider("searxng", hits=[]), second])
    assert await chain.search("zzz") == []
    assert second.queries == []
    assert chain.notes == []


async def test_when_all_fail_the_error_lists_every_reason() -> None:
    chain = FallbackSearch(
        [
            ScriptedProvider("searxng", SearchError("HTTP 429 (rate limit or quota reached)")),
            ScriptedProvider("ddgs", SearchError("timed out after 10 s")),
        ]
    )
    message = "all search providers failed: searxng: HTTP 429 (rate limit or quota reached); ddgs: timed out after 10 s"
    with pytest.raises(SearchError) as failure:
        await chain.search("solar")
    assert str(failure.value) == message
    assert chain.notes == [message]


async def test_no_provider_is_an_error() -> None:
    with pytest.raises(SearchError, match="no search provider configured"):
        await FallbackSearch([]).search("solar")


def test_fallback_note() -> None:
    assert fallback_note([("searxng", "HTTP 503")], "ddgs") == "searxng failed: HTTP 503; used ddgs"
