"""The Web API client with Slack's retries: 429 after its Retry-After
(docs.slack.dev/apis/web-api/rate-limits), 5xx after its Retry-After when given, else with
backoff, and connection errors a few times; nothing else is retried."""

from __future__ import annotations

import asyncio

from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient

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


class ServerErrorRetryHandler(AsyncRetryHandler):
    """Any 5xx is retried: after its Retry-After when Slack sends one, else with backoff.
    (slack_sdk's own handler retries 500 and 503 only, and ignores Retry-After.)"""

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        return response is not None and response.status_code >= 500

    async def prepare_for_next_attempt_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        wait = None if response is None else retry_after(response)
        if wait is None:
            wait = self.interval_calculator.calculate_sleep_duration(state.current_attempt)
        state.next_attempt_requested = True
        await asyncio.sleep(wait)
        state.increment_current_attempt()


def build_web_client(token: str, api_url: str | None = None) -> AsyncWebClient:
    return AsyncWebClient(
        token=token,
        base_url=api_url or DEFAULT_API_URL,
        retry_handlers=[
            AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
            AsyncConnectionErrorRetryHandler(max_retry_count=2),
            ServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES),
        ],
    )
