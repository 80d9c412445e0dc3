"""What every HTTP provider does when its API fails: one-line SearchErrors, never a crash."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.sources.protocols import Search, SearchError
from engine.sources.web.search import BraveSearch, SearxngSearch, TavilySearch
from tests.support.search_api import Reply, ScriptedApi

TIMEOUT = 0.3
"""For the test of a server that never answers; the others allow a loaded machine time."""
PATIENT = 10.0

MakeProvider = Callable[[str], Search]
PROVIDERS: dict[str, Callable[[str, float], Search]] = {
    "searxng": lambda url, timeout: SearxngSearch(url, timeout=timeout),
    "brave": lambda url, timeout: BraveSearch("brave-key", base_url=url, timeout=timeout),
    "tavily": lambda url, timeout: TavilySearch("tvly-key", base_url=url, timeout=timeout),
}


@pytest.fixture(params=sorted(PROVIDERS))
def provider_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_provider(provider_name: str) -> MakeProvider:
    return lambda url: PROVIDERS[provider_name](url, PATIENT)


@pytest.fixture
def make_impatient_provider(provider_name: str) -> MakeProvider:
    return lambda url: PROVIDERS[provider_name](url, TIMEOUT)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(429, {"error": "slow down"}), "HTTP 429 (rate limit or quota reached: slow down)"),
        (Reply(500, raw=b"<h1>oops</h1>", content_type="text/html"), "HTTP 500 (server error)"),
        (Reply(503, raw=b""), "HTTP 503 (server error)"),
        (Reply(401, {"detail": {"error": "bad key"}}), "HTTP 401 (key rejected: bad key)"),
    ],
)
async def test_error_statuses_become_one_line_search_errors(
    api: ScriptedApi, make_provider: MakeProvider, reply: Reply, reason: str
) -> None:
    api.reply(reply)
    with pytest.raises(SearchError) as failure:
        await make_provider(api.base_url).search("solar")
    assert str(failure.value) == reason


async def test_a_server_that_does_not_answer_in_time_is_a_timeout(
    api: ScriptedApi, make_impatient_provider: MakeProvider
) -> None:
    api.reply(Reply(200, {"results": []}, hold=True))
    with pytest.raises(SearchError, match=r"^timed out after 0\.3 s$"):
        await make_impatient_provider(api.base_url).search("solar")


@pytest.mark.parametrize(
    "reply",
    [
        Reply(200, raw=b'{"results": [{"url": '),
        Reply(200, raw=b"<html>not json</html>", content_type="text/html"),
    ],
)
async def test_malformed_json_is_a_search_error(
    api: ScriptedApi, make_provider: MakeProvider, reply: Reply
) -> None:
    api.reply(reply)
    with pytest.raises(SearchError, match=r"^malformed JSON: "):
        await make_provider(api.base_url).search("solar")


@pytest.mark.parametrize("payload", [["a", "list"], {"results": "nope", "web": {"results": 3}}])
async def test_json_of_the_wrong_shape_is_a_search_error(
    api: ScriptedApi, make_provider: MakeProvider, payload: object
) -> None:
    api.reply(Reply(200, payload))
    with pytest.raises(SearchError, match=r"^malformed response: "):
        await make_provider(api.base_url).search("solar")


async def test_a_closed_port_is_a_search_error(make_provider: MakeProvider) -> None:
    with pytest.raises(SearchError, match=r"^request failed: ConnectError"):
        await make_provider("http://127.0.0.1:9").search("solar")


async def test_a_zero_limit_asks_nothing(api: ScriptedApi, make_provider: MakeProvider) -> None:
    assert await make_provider(api.base_url).search("solar", limit=0) == []
    assert api.received == []
