from __future__ import annotations

import httpx
import pytest

from engine.sources.protocols import Search, SearchError, SearchHit
from engine.sources.web.search import SearxngSearch
from engine.sources.web.search.searxng import searxng_hits
from evals.offline_web import OfflineWeb
from evals.web_pages import wiki_page
from tests.support.search_api import Reply, ScriptedApi

ANSWER = {
    "query": "solar",
    "results": [
        {
            "url": "https://a.example/solar",
            "title": "Solar <b>power</b>",
            "content": "Sun &amp; panels",
        },
        {"title": "an infobox without url", "content": "x"},
        {"url": "https://b.example/wind", "title": "Wind", "content": "Turbines"},
    ],
    "unresponsive_engines": [],
}


def test_hits_keep_the_engine_order_and_rank_from_one() -> None:
    assert searxng_hits(ANSWER, 10) == [
        SearchHit("https://a.example/solar", "Solar power", "Sun & panels", 1, "searxng"),
        SearchHit("https://b.example/wind", "Wind", "Turbines", 2, "searxng"),
    ]
    assert [h.url for h in searxng_hits(ANSWER, 1)] == ["https://a.example/solar"]


def test_no_results_because_every_engine_failed_is_an_error() -> None:
    blocked = {
        "results": [],
        "unresponsive_engines": [["google", "too many requests"], ["bing", "timeout"]],
    }
    with pytest.raises(
        SearchError, match=r"engines unresponsive: google \(too many requests\), bing \(timeout\)"
    ):
        searxng_hits(blocked, 10)


def test_no_results_with_every_engine_answering_is_an_empty_list() -> None:
    assert searxng_hits({"results": [], "unresponsive_engines": []}, 10) == []


async def test_asks_the_json_api_with_the_query(api: ScriptedApi) -> None:
    api.reply(Reply(200, ANSWER))
    searcher: Search = SearxngSearch(api.base_url + "/")
    hits = await searcher.search("solar power", limit=5)
    assert [h.title for h in hits] == ["Solar power", "Wind"]
    (request,) = api.received
    assert (request.method, request.path) == ("GET", "/search")
    assert request.query["q"] == ["solar power"]
    assert request.query["format"] == ["json"]


async def test_keeps_a_path_prefix_of_the_instance_url(api: ScriptedApi) -> None:
    api.reply(Reply(200, ANSWER))
    await SearxngSearch(api.base_url + "/searxng").search("solar")
    assert api.received[0].path == "/searxng/search"


async def test_uses_an_injected_client(api: ScriptedApi) -> None:
    api.reply(Reply(200, ANSWER))
    async with httpx.AsyncClient(headers={"User-Agent": "fonte-test"}) as client:
        hits = await SearxngSearch(api.base_url, client=client).search("solar")
    assert len(hits) == 2
    assert api.received[0].headers["user-agent"] == "fonte-test"


async def test_searches_the_offline_web() -> None:
    pages = [
        wiki_page(
            "Solar power",
            ["Solar power converts sunlight into electricity.", "Panels sit on roofs."],
        ),
        wiki_page("Wind power", ["Wind turbines turn wind into electricity."]),
    ]
    with OfflineWeb(pages, bind="127.0.0.1") as web:
        hits = await SearxngSearch(web.base_url).search("sunlight panels roofs")
    assert hits[0] == SearchHit(
        web.local_url("Solar power"),
        "Solar power",
        "Panels sit on roofs.",  # the snippet starts at the sentence that matches best
        1,
        "searxng",
    )
