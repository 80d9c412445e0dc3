"""The Web API client: paced by Slack's rate limits before each call (`PacedWebClient`,
`bot.slack.api.tiers`), and with Slack's retries after it: a rate-limited answer after its
Retry-After (HTTP 429 `ratelimited`, docs.slack.dev/apis/web-api/rate-limits, and
chat.postMessage's `rate_limited`, "Application has posted too many messages",
docs.slack.dev/reference/methods/chat.postMessage), 5xx after its Retry-After when given, else
with backoff, and connection errors a few times; nothing else is retried."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import AsyncConnectionErrorRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.slack.api.tiers import Pacer, Waiter

RATE_LIMIT_RETRIES = 5
SERVER_ERROR_RETRIES = 3
MAX_RETRY_AFTER_SECONDS = 60.0
DEFAULT_API_URL = "https://slack.com/api/"


def retry_after(response: HttpResponse) -> float | None:
    for name, values in response.headers.items():
        if name.lower() == "retry-after" and values:
            try:
                return min(MAX_RETRY_AFTER_SECONDS, max(0.0, float(values[0])))
            except ValueError:
                return None
    return None


RATE_LIMITED_ERRORS = frozenset({"ratelimited", "rate_limited"})
"""`ok: false` errors that mean "later": `ratelimited` with HTTP 429 (the rate-limits page) and
`rate_limited` (chat.postMessage's page)."""


def rate_limited(response: HttpResponse) -> bool:
    body = response.body if isinstance(response.body, dict) else {}
    return response.status_code == 429 or (
        body.get("ok") is False and body.get("error") in RATE_LIMITED_ERRORS
    )


class RetryAfterHandler(AsyncRetryHandler):
    """Tries an answer `retries` accepts again after its Retry-After, or `without_header`
    seconds when it has none, waiting on `sleep` (the real clock unless a test gives its own)."""

    def __init__(self, max_retry_count: int, sleep: Waiter = asyncio.sleep) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self._sleep = sleep

    def retries(self, response: HttpResponse) -> bool:
        raise NotImplementedError

    def without_header(self, state: RetryState) -> float:
        return 1.0

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        return response is not None and self.retries(response)

    async def prepare_for_next_attempt_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        wait = None if response is None else retry_after(response)
        if wait is not None:
            await self.told(request, wait)
        state.next_attempt_requested = True
        await self._sleep(self.without_header(state) if wait is None else wait)
        state.increment_current_attempt()

    async def told(self, request: HttpRequest, seconds: float) -> None:
        """Slack's Retry-After for `request`, before it is waited out."""


Held = Callable[[str, float], Awaitable[None]]
"""Told a method's Retry-After after a 429: (method, seconds)."""


class RateLimitRetryHandler(RetryAfterHandler):
    """A rate-limited answer is tried again after its Retry-After (one second without one),
    and a 429's Retry-After is told to `on_held` (the client holds the method there for every
    worker). (slack_sdk's own handler retries HTTP 429 only, so chat.postMessage's
    `rate_limited` reached the user as a failure.)"""

    on_held: Held | None = None

    def retries(self, response: HttpResponse) -> bool:
        return rate_limited(response)

    async def told(self, request: HttpRequest, seconds: float) -> None:
        if self.on_held is not None and seconds > 0:
            await self.on_held(request.url.rstrip("/").rsplit("/", 1)[-1], seconds)


class ServerErrorRetryHandler(RetryAfterHandler):
    """Any 5xx is retried: after its Retry-After when Slack sends one, else with backoff.
    (slack_sdk's own handler retries 500 and 503 only, and ignores Retry-After.)"""

    def retries(self, response: HttpResponse) -> bool:
        return response.status_code >= 500

    def without_header(self, state: RetryState) -> float:
        return self.interval_calculator.calculate_sleep_duration(state.current_attempt)


def _channel_of(kwargs: dict[str, Any]) -> str | None:
    for part in ("json", "data", "params"):
        values = kwargs.get(part)
        if isinstance(values, dict):
            channel = values.get("channel") or values.get("channel_id")
            if channel:
                return str(channel)
    return None


class PacedWebClient(AsyncWebClient):
    """AsyncWebClient whose every Web API call of a paced method first takes its slot
    (`Pacer.slot`), in the window of the token's workspace (auth.test's team_id, asked once)
    and, for a method limited per channel, of the call's channel. The SDK's own helpers
    (files_upload_v2's files.getUploadURLExternal) are paced as well: they call `api_call`."""

    def __init__(self, *args: Any, pacer: Pacer | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pacer = pacer
        self._workspace: str | None = None
        self._asking: asyncio.Lock | None = None

    async def api_call(self, api_method: str, **kwargs: Any) -> AsyncSlackResponse:
        if self.pacer is not None and self.pacer.paced(api_method):
            await self.pacer.slot(api_method, await self.workspace(), _channel_of(kwargs))
        return await super().api_call(api_method, **kwargs)

    async def held(self, method: str, seconds: float) -> None:
        """Slack answered `method` 429 for `seconds`: hold it for every report and worker."""
        if self.pacer is not None:
            await self.pacer.hold(method, await self.workspace(), seconds)

    async def workspace(self) -> str:
        """The workspace (team id) of the token: the windows are kept per workspace."""
        if self._workspace is None:
            self._asking = self._asking or asyncio.Lock()
            async with self._asking:
                if self._workspace is None:
                    answer = await super().api_call("auth.test")
                    self._workspace = str(answer.get("team_id") or "")
        return self._workspace


def build_web_client(
    token: str,
    api_url: str | None = None,
    *,
    pacer: Pacer | None = None,
    sleep: Waiter = asyncio.sleep,
) -> PacedWebClient:
    """The bot's Web API client: paced by `pacer` (none: Slack's 429s alone slow it down),
    retrying as the module says, its waits on `sleep`."""
    rate_limits = RateLimitRetryHandler(RATE_LIMIT_RETRIES, sleep)
    client = PacedWebClient(
        token=token,
        base_url=api_url or DEFAULT_API_URL,
        pacer=pacer,
        retry_handlers=[
            rate_limits,
            AsyncConnectionErrorRetryHandler(max_retry_count=2),
            ServerErrorRetryHandler(SERVER_ERROR_RETRIES, sleep),
        ],
    )
    rate_limits.on_held = client.held
    return client
