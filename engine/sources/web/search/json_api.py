"""One call to a search provider's JSON API, every failure turned into a one-line SearchError.

The pure parts (status reasons, JSON parsing, one-line messages) are separate from the call so
that provider modules and tests can use them without a network.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from engine.sources.protocols import FetchError, SearchError
from engine.sources.web.body import ACCEPT_ENCODING, content_decoder, read_capped
from engine.text.normalise import clip, collapse_whitespace

DEFAULT_TIMEOUT = 10.0
MAX_ANSWER_BYTES = 5_000_000
"""A search answer, as decoded: ten results are a few kilobytes; a compressed body that
inflates past this is refused as it streams (`body.read_capped`)."""
REASON_CHARS = 160

# Tavily answers 432/433 when the plan's or the pay-as-you-go credits are spent.
_QUOTA_STATUSES = {
    429: "rate limit or quota reached",
    432: "plan quota reached",
    433: "spending limit reached",
}
_KEY_STATUSES = {401: "key rejected", 403: "access forbidden"}


@dataclass(frozen=True)
class ApiCall:
    method: str
    url: str
    params: Mapping[str, str] | None = None
    headers: Mapping[str, str] | None = None
    json_body: Mapping[str, object] | None = None


def clipped_reason(text: str, limit: int = REASON_CHARS) -> str:
    """`text` on one line, clipped at `limit` characters with an ellipsis."""
    return clip(collapse_whitespace(text), limit)


def error_detail(body: bytes) -> str:
    """The message an API put in its error body, if any (Brave: error.detail; Tavily:
    detail.error; others: error or message or detail as a string)."""
    try:
        payload = json.loads(body)
    except ValueError:
        return ""
    for container, key in (("error", "detail"), ("detail", "error"), ("error", "message")):
        inner = payload.get(container) if isinstance(payload, dict) else None
        if isinstance(inner, dict) and isinstance(inner.get(key), str):
            return clipped_reason(inner[key])
    if isinstance(payload, dict):
        for key in ("error", "message", "detail"):
            if isinstance(payload.get(key), str):
                return clipped_reason(payload[key])
    return ""


def status_reason(status: int, body: bytes = b"") -> str:
    """Why a non-2xx answer failed, in one line: 'HTTP 429 (rate limit or quota reached)'."""
    if status in _QUOTA_STATUSES:
        kind = _QUOTA_STATUSES[status]
    elif status in _KEY_STATUSES:
        kind = _KEY_STATUSES[status]
    elif status >= 500:
        kind = "server error"
    else:
        kind = "unexpected status"
    detail = error_detail(body)
    return clipped_reason(f"HTTP {status} ({kind}{': ' + detail if detail else ''})")


def parse_json(body: bytes) -> object:
    try:
        payload: object = json.loads(body)
    except ValueError as error:
        raise SearchError(clipped_reason(f"malformed JSON: {error}")) from None
    return payload


async def call_json_api(
    call: ApiCall, *, client: httpx.AsyncClient | None = None, seconds: float = DEFAULT_TIMEOUT
) -> object:
    """The decoded JSON of a 2xx answer. `seconds` bounds the whole call, not each phase.

    Without `client` a short-lived one is opened and closed: providers then hold no
    connection across event loops (the CLI and the bot worker each run their own)."""
    try:
        async with asyncio.timeout(seconds):
            if client is not None:
                status, content = await _send(client, call)
            else:
                async with httpx.AsyncClient(timeout=seconds) as owned:
                    status, content = await _send(owned, call)
    except FetchError as error:
        raise SearchError(clipped_reason(f"answer refused: {error}")) from None
    except (TimeoutError, httpx.TimeoutException):
        raise SearchError(f"timed out after {seconds:g} s") from None
    except httpx.HTTPError as error:
        raise SearchError(
            clipped_reason(f"request failed: {type(error).__name__}: {error}")
        ) from None
    if not 200 <= status < 300:
        raise SearchError(status_reason(status, content))
    return parse_json(content)


async def _send(client: httpx.AsyncClient, call: ApiCall) -> tuple[int, bytes]:
    """The status and the body, decoded under `MAX_ANSWER_BYTES` (FetchError past it)."""
    headers = {"Accept-Encoding": ACCEPT_ENCODING, **(call.headers or {})}
    async with client.stream(
        call.method,
        call.url,
        params=dict(call.params) if call.params else None,
        headers=headers,
        json=dict(call.json_body) if call.json_body is not None else None,
    ) as response:
        decoder = content_decoder(response.headers.get("content-encoding"))
        body = await read_capped(response.aiter_raw(), decoder, MAX_ANSWER_BYTES)
        return response.status_code, body


class KeyedJsonApi:
    """What a search provider called with a secret key holds: the key (never in its repr),
    where its API is (`default_base_url` unless told), how long a call may take, and the
    client to call with (one per call when None)."""

    default_base_url: str

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._api_key = api_key
        self.base_url = (base_url or self.default_base_url).rstrip("/")
        self.timeout = timeout
        self._client = client

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"  # never the key

    async def _call(self, call: ApiCall) -> object:
        return await call_json_api(call, client=self._client, seconds=self.timeout)
