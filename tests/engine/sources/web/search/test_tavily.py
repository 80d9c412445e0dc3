from __future__ import annotations

import pytest

from engine.sources.protocols import SearchError, SearchHit
from engine.sources.web.search import TavilySearch
from engine.sources.web.search.tavily import tavily_hits
from tests.support.search_api import Reply, ScriptedApi

ANSWER = {
    "query": "solar",
    "answer": None,
    "results": [
        {
            "title": "Solar",
            "url": "https://a.example/",
            "content": "Rooftop solar grew",
            "score": 0.9,
        },
        {"title": "Wind", "url": "https://b.example/", "content": "Turbines", "score": 0.4},
    ],
    "response_time": 0.5,
}


def test_hits_are_the_results_in_order() -> None:
    assert tavily_hits(ANSWER, 10) == [
        SearchHit("https://a.example/", "Solar", "Rooftop solar grew", 1, "tavily"),
        SearchHit("https://b.example/", "Wind", "Turbines", 2, "tavily"),
    ]


async def test_posts_the_query_with_a_bearer_key(api: ScriptedApi) -> None:
    api.reply(Reply(200, ANSWER))
    hits = await TavilySearch("tvly-secret", base_url=api.base_url).search("solar", limit=3)
    assert [h.rank for h in hits] == [1, 2]
    (request,) = api.received
    assert (request.method, request.path) == ("POST", "/search")
    assert request.headers["authorization"] == "Bearer tvly-secret"
    assert request.json() == {
        "query": "solar",
        "max_results": 3,
        "search_depth": "basic",
        "include_answer": False,
    }


async def test_a_spent_plan_is_reported_as_quota(api: ScriptedApi) -> None:
    api.reply(
        Reply(432, {"detail": {"error": "This request exceeds your plan's set usage limit."}})
    )
    with pytest.raises(SearchError, match=r"^HTTP 432 \(plan quota reached: This request exceeds"):
        await TavilySearch("tvly-secret", base_url=api.base_url).search("solar")


def test_repr_never_shows_the_key() -> None:
    assert "tvly-secret" not in repr(TavilySearch("tvly-secret"))
