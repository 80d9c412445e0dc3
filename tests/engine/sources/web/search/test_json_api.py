from __future__ import annotations

import gzip
import tracemalloc

import httpx
import pytest

from engine.sources.protocols import SearchError
from engine.sources.web.search.json_api import (
    ApiCall,
    call_json_api,
    clipped_reason,
    error_detail,
    parse_json,
    status_reason,
)
from tests.support.hostile_files import compressed_zeros, streamed


@pytest.mark.parametrize(
    ("status", "body", "reason"),
    [
        (429, b"", "HTTP 429 (rate limit or quota reached)"),
        (433, b"", "HTTP 433 (spending limit reached)"),
        (403, b"", "HTTP 403 (access forbidden)"),
        (502, b"Bad gateway", "HTTP 502 (server error)"),
        (
            422,
            b'{"type": "ErrorResponse", "error": {"detail": "Unable to validate request parameter(s)."}}',
            "HTTP 422 (unexpected status: Unable to validate request parameter(s).)",
        ),
    ],
)
def test_status_reasons(status: int, body: bytes, reason: str) -> None:
    assert status_reason(status, body) == reason


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b'{"error": {"detail": "brave says"}}', "brave says"),
        (b'{"detail": {"error": "tavily says"}}', "tavily says"),
        (b'{"error": {"message": "nested message"}}', "nested message"),
        (b'{"message": "flat message"}', "flat message"),
        (b'{"error": 3}', ""),
        (b"[1, 2]", ""),
        (b"not json", ""),
    ],
)
def test_error_detail_finds_the_message_of_common_error_bodies(body: bytes, detail: str) -> None:
    assert error_detail(body) == detail


def test_reasons_are_one_short_line() -> None:
    long_detail = b'{"message": "line one\\nline two ' + b"x" * 400 + b'"}'
    reason = status_reason(500, long_detail)
    assert "\n" not in reason
    assert len(reason) <= 160
    assert clipped_reason("a\n  b\tc") == "a b c"


def test_parse_json() -> None:
    assert parse_json(b'{"results": []}') == {"results": []}
    with pytest.raises(SearchError, match=r"^malformed JSON: Expecting value: line 1 column 1"):
        parse_json(b"<html>")


@pytest.mark.parametrize("encoding", ["br", "gzip"])
async def test_a_compressed_answer_is_refused_as_it_inflates(encoding: str) -> None:
    bomb = compressed_zeros(encoding, 256 * 1024 * 1024)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=streamed(bomb), headers={"content-encoding": encoding})

    call = ApiCall("GET", "https://search.example/api")
    tracemalloc.start()
    try:
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
            with pytest.raises(SearchError, match="answer refused: body over 5 MB"):
                await call_json_api(call, client=client)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 30_000_000, f"{peak:,} bytes held for a 5 MB cap"


async def test_an_answer_within_the_cap_is_read_as_json() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        assert request.headers["accept-encoding"] == "gzip, deflate, br"
        body = streamed(gzip.compress(b'{"results": [1]}'))
        return httpx.Response(200, content=body, headers={"content-encoding": "gzip"})

    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        payload = await call_json_api(ApiCall("GET", "https://search.example/api"), client=client)
    assert payload == {"results": [1]}
