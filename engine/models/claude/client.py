"""The one place Fonte calls Claude: reserve, call (retrying what is worth retrying), settle.

Every call reserves its worst-case price on the shared budget before it is sent and settles
the actual price, computed from the response's `usage`, afterwards. The SDK's own retries
are off (max_retries=0): this loop retries inside the report's time budget instead.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from anthropic import APIConnectionError, APIStatusError, APITimeoutError, AsyncAnthropic, omit
from anthropic.types import Message, TextBlock
from anthropic.types import Usage as ApiUsage

from engine.budget import Budget, Reservation
from engine.contracts import Usage
from engine.models.claude.errors import (
    ClaudeAPIError,
    ClaudeFailure,
    ClaudeRefused,
    ClaudeTruncated,
    ClaudeUnavailable,
)
from engine.models.claude.prices import PriceTable
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.retry import (
    RetryPolicy,
    backoff_seconds,
    is_retryable,
    retry_after_seconds,
)

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
TRUNCATED_STOPS = frozenset({"max_tokens", "model_context_window_exceeded"})


class Payer(Protocol):
    """Who pays for a call: a `Meter` (planner, writer, judge) or a subagent's `Toolbox`
    (which also counts the call against the subagent's step cap)."""

    budget: Budget

    async def model_step(self, usd_estimate: float) -> Reservation: ...

    async def settle(self, reservation: Reservation, usd: float, usage: Usage) -> None: ...


@dataclass(frozen=True)
class ClaudeReply:
    message: Message
    usage: Usage
    usd: float

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.message.content if isinstance(b, TextBlock))

    @property
    def stop_reason(self) -> str | None:
        return self.message.stop_reason

    def finished(self, role: str) -> ClaudeReply:
        """This reply, if Claude finished it; a refusal or a cut-off answer is a failure."""
        if self.stop_reason == "refusal":
            details = self.message.stop_details
            why = f" ({details.explanation})" if details and details.explanation else ""
            raise ClaudeRefused(f"{role}: Claude declined to answer{why}")
        if self.stop_reason in TRUNCATED_STOPS:
            raise ClaudeTruncated(
                f"{role}: the answer was cut off ({self.stop_reason}) after "
                f"{self.usage.output_tokens} output tokens"
            )
        return self


def usage_of(usage: ApiUsage) -> Usage:
    server = usage.server_tool_use
    return Usage(
        model_calls=1,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_write_tokens=usage.cache_creation_input_tokens or 0,
        cache_read_tokens=usage.cache_read_input_tokens or 0,
        web_searches=(getattr(server, "web_search_requests", 0) or 0) if server else 0,
    )


async def seconds_left(budget: Budget) -> float:
    return budget.limits.seconds - (await budget.spend()).seconds


class ClaudeClient:
    def __init__(
        self,
        api: AsyncAnthropic,
        prices: PriceTable,
        *,
        retry: RetryPolicy | None = None,
        request_timeout: float = 300.0,
        sleep: Sleep = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.api = api
        self.prices = prices
        self._retry = retry or RetryPolicy()
        self._timeout = request_timeout
        self._sleep = sleep
        self._jitter = jitter

    def estimate_usd(self, request: ClaudeRequest) -> float:
        return self.prices.price(request.model).worst_case_usd(
            request.prompt_tokens_estimate(), request.max_tokens, request.server_searches
        )

    async def call(self, request: ClaudeRequest, payer: Payer) -> ClaudeReply:
        """Send `request`, paid by `payer`. Raises StepRefused (from the payer) before
        sending when the budget has no room, ClaudeFailure when no answer came back."""
        price = self.prices.price(request.model)
        estimate = self.estimate_usd(request)
        reservation = await payer.model_step(estimate)
        usd, usage = estimate, Usage()  # what stands if the outcome is never known
        try:
            message = await self._send(request, payer.budget)
            usage = usage_of(message.usage)
            usd = price.cost_usd(usage)
            return ClaudeReply(message, usage, usd)
        except ClaudeUnavailable as failure:
            usd = estimate if failure.maybe_billed else 0.0
            raise
        except ClaudeFailure:
            usd = 0.0  # the API answered with an error: nothing is billed
            raise
        finally:
            await payer.settle(reservation, usd, usage)

    async def _send(self, request: ClaudeRequest, budget: Budget) -> Message:
        attempt = 0
        while True:
            left = await seconds_left(budget)
            if left <= 0:
                raise ClaudeUnavailable(f"{request.role}: no time left in the budget for a call")
            try:
                return await self.api.messages.create(
                    model=request.model,
                    max_tokens=request.max_tokens,
                    system=request.system_blocks(),
                    messages=list(request.messages),
                    tools=list(request.tools) if request.tools else omit,
                    timeout=min(self._timeout, left),
                )
            except APIStatusError as error:
                failure = _describe(error)
                if not is_retryable(error.status_code, error.type):
                    raise ClaudeAPIError(f"{request.role}: {failure}") from None
                delay = backoff_seconds(
                    attempt,
                    self._retry,
                    retry_after_seconds(error.response.headers),
                    self._jitter(),
                )
            except APITimeoutError:
                raise ClaudeUnavailable(
                    f"{request.role}: Claude did not answer in time", maybe_billed=True
                ) from None
            except APIConnectionError as error:
                failure = f"cannot reach the Anthropic API ({error.message})"
                delay = backoff_seconds(attempt, self._retry, None, self._jitter())
            await self._wait_before_retry(request.role, failure, attempt, delay, budget)
            attempt += 1

    async def _wait_before_retry(
        self, role: str, failure: str, attempt: int, delay: float, budget: Budget
    ) -> None:
        if attempt >= self._retry.max_retries:
            raise ClaudeUnavailable(f"{role}: {failure}; gave up after {attempt + 1} attempts")
        left = await seconds_left(budget)
        if delay >= left:
            raise ClaudeUnavailable(
                f"{role}: {failure}; waiting {delay:.1f} s would pass the {left:.1f} s left "
                "in the budget"
            )
        log.info("%s: %s; retrying in %.1f s", role, failure, delay)
        await self._sleep(delay)


def _describe(error: APIStatusError) -> str:
    kind = f" {error.type}" if error.type else ""
    message = f": {error.api_message}" if error.api_message else ""
    return f"Claude API {error.status_code}{kind}{message}"
