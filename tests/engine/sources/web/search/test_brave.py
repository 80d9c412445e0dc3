from __future__ import annotations

from engine.sources.protocols import SearchHit
from engine.sources.web.search import BraveSearch
from engine.sources.web.search.brave import brave_hits
from tests.support.search_api import Reply, ScriptedApi

ANSWER = {
    "type": "search",
    "query": {"original": "solar"},
    "web": {
        "type": "search",
        "results": [
            {
                "title": "Solar <strong>power</strong>",
                "url": "https://a.example/",
                "description": "Rooftop <strong>solar</strong> grew",
            },
            {"title": "Wind", "url": "https://b.example/", "description": "Turbines"},
        ],
    },
}


def test_hits_are_the_web_results_in_order() -> None:
    assert brave_hits(ANSWER, 10) == [
        SearchHit("https://a.example/", "Solar power", "Rooftop solar grew", 1, "brave"),
        SearchHit("https://b.example/", "Wind", "Turbines", 2, "brave"),
    ]


def test_an_answer_without_web_results_is_empty() -> None:
    assert brave_hits({"type": "search", "query": {"original": "zzz"}}, 10) == []


async def test_sends_the_key_and_a_count_within_the_api_cap(api: ScriptedApi) -> None:
    api.reply(Reply(200, ANSWER))
    hits = await BraveSearch("secret-token", base_url=api.base_url).search("solar", limit=50)
    assert len(hits) == 2
    (request,) = api.received
    assert (request.method, request.path) == ("GET", "/res/v1/web/search")
    assert request.query == {"q": ["solar"], "count": ["20"]}
    assert request.headers["x-subscription-token"] == "secret-token"


def test_repr_never_shows_the_key() -> None:
    assert "secret-token" not in repr(BraveSearch("secret-token"))
