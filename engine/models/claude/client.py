"""The one place Fonte calls Claude: reserve, call (retrying what is worth retrying), settle.

Every call reserves its worst-case price on the shared budget before it is sent and settles
the actual price, computed from the response's `usage`, afterwards. The SDK's own retries
are off (max_retries=0): this loop retries inside the report's time budget instead. An
answer that says the account cannot be used (402 billing, 401 key, 403 permission, a spend
limit) is never retried: it stops the budget, and every later call is refused before it is
sent (https://platform.claude.com/docs/en/api/errors).

A turn with Anthropic's server-side web search is several sampling passes inside one
request, each billing the prompt again with the results gathered so far
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool, usage and
pricing); its reservation covers every pass up to the turn's `max_uses`
(`ModelPrice.worst_case_usd`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from anthropic import APIConnectionError, APIStatusError, APITimeoutError, AsyncAnthropic
from anthropic.types import Message, TextBlock
from anthropic.types import Usage as ApiUsage

from engine.budget import Budget, Refusal, Reservation, StepRefused
from engine.contracts import Usage
from engine.models.claude.catalog import model_spec
from engine.models.claude.errors import (
    ClaudeAccountStopped,
    ClaudeAPIError,
    ClaudeFailure,
    ClaudeRefused,
    ClaudeSpendLimit,
    ClaudeTruncated,
    ClaudeUnavailable,
    ServerSearchDisabled,
)
from engine.models.claude.prices import PriceTable
from engine.models.claude.request import (
    TOKENS_PER_SERVER_SEARCH,
    ClaudeRequest,
    FallbackCredit,
)
from engine.models.claude.retry import (
    RetryPolicy,
    backoff_seconds,
    is_retryable,
    retry_after_seconds,
)
from engine.models.claude.streaming import (
    StreamInterrupted,
    StreamPolicy,
    charge_interrupted,
    send_message,
)

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
TRUNCATED_STOPS = frozenset({"max_tokens", "model_context_window_exceeded"})
SPEND_LIMIT_CODE = "enforced_spend_limit_reached"
# https://platform.claude.com/docs/en/api/errors: a spend limit the organisation or workspace
# set answers 400 invalid_request_error, the message beginning with these words.
USAGE_LIMIT_MESSAGE = "You have reached your specified"
# https://platform.claude.com/docs/en/api/errors: the answers that say the account cannot be
# used until someone acts (pays, replaces the key, changes the workspace's access): by
# status, or by error type under another status. What each means for the user, in one line.
ACCOUNT_STOPS: dict[str, str] = {
    "billing_error": "Anthropic billing error ({failure}): check the payment details or "
    "credits in the Claude Console; no retry, research stopped",
    "authentication_error": "Anthropic API key refused ({failure}): the key is malformed, "
    "revoked or expired; no retry, research stopped",
    "permission_error": "Anthropic API key not allowed ({failure}): check the "
    "organisation's access and workspace settings; no retry, research stopped",
}
ACCOUNT_STOP_STATUSES = {402: "billing_error", 401: "authentication_error", 403: "permission_error"}


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
            details = getattr(self.message, "stop_details", None)
            explanation = getattr(details, "explanation", None)
            why = f" ({explanation})" if explanation else ""
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
        max_output_tokens: int = 64_000,
        fallback_model: str | None = None,
        search_result_tokens: int = TOKENS_PER_SERVER_SEARCH,
        streaming: StreamPolicy | None = None,
    ) -> None:
        self.api = api
        self.prices = prices
        self._retry = retry or RetryPolicy()
        self._timeout = request_timeout
        self._sleep = sleep
        self.jitter = jitter
        """The random draw in [0, 1) of each retry's wait (injected by tests)."""
        self._max_output = max_output_tokens
        self._streaming = streaming or StreamPolicy()
        """When a request streams and how long a stream may take (streaming.py)."""
        self.fallback_model = fallback_model
        """Where a refused request is sent once more, unchanged but for the model and with
        the refusal's fallback credit token
        (https://platform.claude.com/docs/en/build-with-claude/fallback-credit)."""
        self.stopped: str | None = None
        """Set once the API said the account cannot be used (billing, key, permission, a
        spend limit): no call is sent after it."""
        self.search_result_tokens = search_result_tokens
        """Tokens one server-side search's results are assumed to add to the prompt; raised
        when a turn's usage shows more (`settled_search_turn`)."""
        self.server_search_off: str | None = None
        """Why Anthropic's server-side search is off for this run (a 400), once one call saw
        it: later subagents search with Fonte's own search from the start."""

    def estimate_usd(self, request: ClaudeRequest) -> float:
        """The most `request` can cost. With server-side search, every sampling pass of the
        turn (one more than its searches) bills the prompt again, with the results so far
        and the output so far, all as input."""
        return self.prices.price(request.model).worst_case_usd(
            self._prompt_tokens(request),
            request.max_tokens,
            request.server_searches,
            result_tokens_per_search=self.search_result_tokens,
        )

    def _prompt_tokens(self, request: ClaudeRequest) -> int:
        # The request's own estimate counts a flat allowance per search; the passes are
        # priced here instead, from `search_result_tokens`.
        flat = request.server_searches * TOKENS_PER_SERVER_SEARCH
        return max(0, request.prompt_tokens_estimate() - flat)

    def settled_search_turn(self, request: ClaudeRequest, usage: Usage) -> None:
        """Learn from a server-search turn's usage: when its prompt tokens exceed what the
        passes allowed at the assumed result size, raise the size so the next turn of the
        same shape is covered. The budget then stops issuing turns before the cap."""
        searches = min(usage.web_searches, request.server_searches)
        if searches < 1:
            return
        billed = usage.input_tokens + usage.cache_write_tokens + usage.cache_read_tokens
        passes = searches + 1
        fixed = passes * self._prompt_tokens(request) + searches * request.max_tokens
        share = searches * passes // 2  # the results of search k are read by the passes after it
        needed = -(-(billed - fixed) // share)
        if needed > self.search_result_tokens:
            log.info("%s: search results larger than assumed: %d tokens", request.role, needed)
            self.search_result_tokens = needed

    async def call(self, request: ClaudeRequest, payer: Payer) -> ClaudeReply:
        """Send `request`, paid by `payer`. Raises StepRefused (from the payer) before
        sending when the budget has no room, and when the API answered with the spend-limit
        429 (the budget is then stopped with the reason); ClaudeFailure when no answer came
        back."""
        if self.stopped is not None:
            raise StepRefused(Refusal("stopped", self.stopped))
        price = self.prices.price(request.model)
        estimate = self.estimate_usd(request)
        reservation = await payer.model_step(estimate)
        usd, usage = estimate, Usage()  # what stands if the outcome is never known
        try:
            message = await self._send(request, payer.budget)
            usage = usage_of(message.usage)
            if request.credit is not None and _redeemed(message.usage):
                usage = credited(usage, request.credit.warm_tokens)
            usd = price.cost_usd(usage)
            self.settled_search_turn(request, usage)
            return ClaudeReply(message, usage, usd)
        except ClaudeUnavailable as failure:
            usd = estimate if failure.maybe_billed else 0.0
            raise
        except ClaudeAccountStopped as failure:  # the run stops here: a budget refusal from now on
            usd = 0.0
            self.stopped = self.stopped or str(failure)
            await payer.budget.stop(self.stopped)
            raise StepRefused(Refusal("stopped", self.stopped)) from None
        except ClaudeFailure:
            usd = 0.0  # the API answered with an error: nothing is billed
            raise
        finally:
            await payer.settle(reservation, usd, usage)

    async def call_with_room(self, request: ClaudeRequest, payer: Payer) -> ClaudeReply:
        """`call`, and once more with twice the output cap when the answer stopped at
        `max_tokens`: thinking and answer share the cap, so a cut-off answer usually needs
        room, not a new question. The cut-off reply is dropped, never half-used. A refusal is
        asked once of `fallback_model`, as the refusals-and-fallback page says to: with a
        fallback model, every request asks for the fallback credit
        (https://platform.claude.com/docs/en/build-with-claude/fallback-credit), and the
        retry is the refused body, the model aside, echoing the refusal's token, so the
        prefix cached on the refused model is billed at the cache-read rate."""
        fallback = self.fallback_model
        if fallback in (None, request.model):
            return (await self._call_with_room(request, payer))[1]
        sent, reply = await self._call_with_room(replace(request, asks_credit=True), payer)
        if reply.stop_reason != "refusal":
            return reply
        assert fallback is not None
        token = _credit_token(reply.message)
        log.info(
            "%s: declined by %s; asking %s%s",
            request.role,
            request.model,
            fallback,
            " with its fallback credit" if token else "",
        )
        credit = None
        if token is not None:
            warm = reply.usage.cache_read_tokens + reply.usage.cache_write_tokens
            credit = FallbackCredit(token, sent.model, warm)
        return (await self._call_with_room(sent.fallen_back(fallback, credit), payer))[1]

    async def _call_with_room(
        self, request: ClaudeRequest, payer: Payer
    ) -> tuple[ClaudeRequest, ClaudeReply]:
        """The last request sent and its reply."""
        reply = await self.call(request, payer)
        spec = model_spec(request.model)
        most = min(self._max_output, spec.max_output) if spec else self._max_output
        room = min(most, request.max_tokens * 2)
        if reply.stop_reason != "max_tokens" or room <= request.max_tokens:
            return request, reply
        log.info(
            "%s: stopped at max_tokens %d; retrying with %d", request.role, request.max_tokens, room
        )
        roomier = request.with_max_tokens(room)
        return roomier, await self.call(roomier, payer)

    async def _send(self, request: ClaudeRequest, budget: Budget) -> Message:
        attempt = 0
        while True:
            left = await seconds_left(budget)
            if left <= 0:
                raise ClaudeUnavailable(f"{request.role}: no time left in the budget for a call")
            try:
                return await send_message(  # streamed when the answer may be long
                    self.api,
                    request,
                    policy=self._streaming,
                    request_timeout=self._timeout,
                    seconds_left=left,
                )
            except APIStatusError as error:
                failure = _describe(error)
                kind = _error_field(error, "error", "type")
                if _error_field(error, "error", "details", "error_code") == SPEND_LIMIT_CODE:
                    raise ClaudeSpendLimit(
                        "Anthropic spend limit reached (429 enforced_spend_limit_reached): "
                        "the organisation's monthly cap; no retry, research stopped"
                    ) from None
                message = _error_field(error, "error", "message") or ""
                if error.status_code == 400 and message.startswith(USAGE_LIMIT_MESSAGE):
                    raise ClaudeSpendLimit(  # a spend limit the organisation set: no retry
                        f"Anthropic usage limit reached (400: {message}); no retry, research "
                        "stopped"
                    ) from None
                stop = ACCOUNT_STOPS.get(ACCOUNT_STOP_STATUSES.get(error.status_code) or "")
                stop = stop or ACCOUNT_STOPS.get(kind or "")
                if stop is not None:
                    raise ClaudeAccountStopped(stop.format(failure=failure)) from None
                if (
                    error.status_code == 400
                    and request.server_searches
                    and _names_web_search(failure)
                ):
                    raise ServerSearchDisabled(f"{request.role}: {failure}") from None
                if not is_retryable(error.status_code, kind):
                    raise ClaudeAPIError(f"{request.role}: {failure}") from None
                retry_after = retry_after_seconds(error.response.headers)
                delay = backoff_seconds(attempt, self._retry, retry_after, self.jitter())
                delay = await _within_budget(delay, retry_after, budget)
            except StreamInterrupted as cut:  # may have been billed: its worst case is spent
                failure = str(cut)
                if not await charge_interrupted(budget, self.estimate_usd(request)):
                    raise ClaudeUnavailable(
                        f"{request.role}: {failure}; no budget left to retry", maybe_billed=True
                    ) from None
                delay = backoff_seconds(attempt, self._retry, None, self.jitter())
            except APITimeoutError:
                raise ClaudeUnavailable(
                    f"{request.role}: Claude did not answer in time", maybe_billed=True
                ) from None
            except APIConnectionError as error:
                failure = f"cannot reach the Anthropic API ({error.message})"
                delay = backoff_seconds(attempt, self._retry, None, self.jitter())
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


async def _within_budget(delay: float, retry_after: float | None, budget: Budget) -> float:
    """A jittered wait that would pass the budget's seconds while the server's own wait
    would not is shortened to fit: the server's wait stays the floor."""
    if retry_after is None:
        return delay
    left = await seconds_left(budget)
    if retry_after < left <= delay:
        return retry_after + (left - retry_after) * 0.5
    return delay


def _credit_token(message: Message) -> str | None:
    """The refusal's `stop_details.fallback_credit_token` (null when no credit is
    available; a field the SDK's non-beta types keep as an extra)."""
    token = getattr(message.stop_details, "fallback_credit_token", None)
    return token if isinstance(token, str) and token else None


def _redeemed(usage: ApiUsage) -> bool:
    """`usage.fallback_credit.status.type` is "redeemed": the API applied the credit."""
    note = getattr(usage, "fallback_credit", None)
    status = note.get("status") if isinstance(note, dict) else getattr(note, "status", None)
    kind = status.get("type") if isinstance(status, dict) else getattr(status, "type", None)
    return kind == "redeemed"


def credited(usage: Usage, warm_tokens: int) -> Usage:
    """`usage` as billed with a redeemed fallback credit: the retry's cache-creation tokens
    for the prefix that was warm on the refused model are billed at the cache-read rate
    (the API reference of `fallback_credit_token`), so that many move from cache writes to
    cache reads."""
    moved = min(usage.cache_write_tokens, warm_tokens)
    return usage.model_copy(
        update={
            "cache_write_tokens": usage.cache_write_tokens - moved,
            "cache_read_tokens": usage.cache_read_tokens + moved,
        }
    )


def _error_field(error: APIStatusError, *path: str) -> str | None:
    """A string at `path` of the error body ({"type": "error", "error": {...}}). Read from
    the body rather than the SDK's newer convenience attributes, so older SDKs work too."""
    value: object = error.body
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value if isinstance(value, str) else None


def _names_web_search(failure: str) -> bool:
    lowered = failure.lower()
    return "web search" in lowered or "web_search" in lowered


def _describe(error: APIStatusError) -> str:
    kind = _error_field(error, "error", "type")
    message = _error_field(error, "error", "message")
    return f"Claude API {error.status_code}{f' {kind}' if kind else ''}" + (
        f": {message}" if message else ""
    )
