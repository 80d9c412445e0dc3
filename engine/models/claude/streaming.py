"""Long answers stream: when a request streams, the time it may take, and how a stream is cut.

A non-streaming request waits for the whole answer on one HTTP read, so a long answer
(the writer's 24k tokens, 48k on its retry with room; the planner's 16k) outlasts any
reasonable timeout. The streaming page recommends the SDK's `.stream()` with
`.get_final_message()` for requests with large `max_tokens`: the connection stays busy with
events and the result is the same `Message` that `.create()` returns
(https://platform.claude.com/docs/en/build-with-claude/streaming). The Python SDK refuses a
non-streaming call it expects to exceed ten minutes, expecting 128,000 output tokens an hour
(`_calculate_nonstreaming_timeout`; https://platform.claude.com/docs/en/api/sdks/python,
"long requests"); Fonte passes its own timeout, which skips that check, so the same rule is
kept here: that rate (≈35.6 tokens a second) is the floor a stream's time is computed from.

A request streams when its `max_tokens` at the floor would not finish well within (half of)
the non-streaming timeout. A stream gets `first_event_seconds` plus `max_tokens` at the floor,
capped at the seconds left in the report's budget; a stream that runs past that, or is silent
longer than `stall_seconds` (the HTTP read timeout: `ping` events count as activity), or is
cut or ends before `message_stop`, or carries a retryable `error` event, raises
`StreamInterrupted`, which the client retries within the time budget. A cut stream may have
been billed and its usage never arrives, so its worst case is put on the budget as spent
(`charge_interrupted`) before it is retried.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2
from anthropic import APIConnectionError, APIStatusError, APITimeoutError, AsyncAnthropic
from anthropic.types import Message

from engine.budget import Budget, Refusal
from engine.contracts import Usage
from engine.errors import ModelError
from engine.models.claude.request import ClaudeRequest

__all__ = [
    "NON_STREAMING_LIMIT_SECONDS",
    "TOKENS_PER_SECOND_FLOOR",
    "StreamInterrupted",
    "StreamPolicy",
    "charge_interrupted",
    "send_message",
]

SDK_OUTPUT_TOKENS_PER_HOUR = 128_000
TOKENS_PER_SECOND_FLOOR = SDK_OUTPUT_TOKENS_PER_HOUR / 3600
NON_STREAMING_LIMIT_SECONDS = 600.0
"""The SDK refuses a non-streaming call expected to take longer (ten minutes)."""
RETRYABLE_STREAM_ERRORS = frozenset({"overloaded_error", "api_error", "rate_limit_error"})


class StreamInterrupted(ModelError):
    """A stream that ended without its whole message: cut, stalled, too slow, or an error
    event. Worth another try; its cost is unknown. The client retries it, and turns the last
    one into a `ClaudeUnavailable`."""


@dataclass(frozen=True)
class StreamPolicy:
    tokens_per_second_floor: float = TOKENS_PER_SECOND_FLOOR
    first_event_seconds: float = 60.0
    """Allowed before output begins (reading the prompt). An assumption, not documented."""
    stall_seconds: float = 90.0
    """Longest silence (no event, not even a `ping`) before a stream counts as stalled. An
    assumption: the streaming page says pings may come, not how often."""
    connect_seconds: float = 10.0
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    """Where a stream's elapsed time is read (tests pass the stand-in's simulated clock)."""

    def __post_init__(self) -> None:
        if min(self.tokens_per_second_floor, self.stall_seconds, self.connect_seconds) <= 0:
            raise ValueError("stream floor, stall and connect seconds must be positive")

    def expected_seconds(self, max_tokens: int) -> float:
        """How long an answer of `max_tokens` may take at the floor."""
        return self.first_event_seconds + max_tokens / self.tokens_per_second_floor

    def streams(self, max_tokens: int, request_timeout: float) -> bool:
        """Whether a request of `max_tokens` streams: it does unless it surely finishes
        well within the non-streaming timeout (and the SDK's ten minutes)."""
        within = min(request_timeout, NON_STREAMING_LIMIT_SECONDS) / 2
        return self.expected_seconds(max_tokens) > within

    def deadline(self, max_tokens: int, seconds_left: float) -> float:
        return min(self.expected_seconds(max_tokens), seconds_left)

    def http_timeout(self) -> httpx2.Timeout:
        """The HTTP timeouts of a stream: reads are the stall limit (each event, ping
        included, resets it); the stream's whole time is watched on `clock`."""
        return httpx2.Timeout(self.stall_seconds, connect=self.connect_seconds)


async def send_message(
    api: AsyncAnthropic,
    request: ClaudeRequest,
    *,
    policy: StreamPolicy,
    request_timeout: float,
    seconds_left: float,
) -> Message:
    """Send `request`, streamed when its answer may be long. Raises what the SDK raises for
    an HTTP error, and `StreamInterrupted` for a stream that did not finish."""
    params = request.api_params()
    if not policy.streams(request.max_tokens, request_timeout):
        message: Message = await api.messages.create(
            **params, timeout=min(request_timeout, seconds_left)
        )
        return message
    deadline = policy.deadline(request.max_tokens, seconds_left)
    return await _streamed(api, params, policy, deadline)


async def _streamed(
    api: AsyncAnthropic, params: dict[str, Any], policy: StreamPolicy, deadline: float
) -> Message:
    started = policy.clock()
    stopped = opened = False
    try:
        async with api.messages.stream(**params, timeout=policy.http_timeout()) as stream:
            opened = True  # the 200 came: what fails from here on cuts the stream
            async for event in stream:
                elapsed = policy.clock() - started
                if elapsed > deadline:
                    raise StreamInterrupted(
                        f"the stream ran past its {deadline:.0f} s ({elapsed:.0f} s, "
                        f"{policy.tokens_per_second_floor:.1f} tokens/s floor); cut"
                    )
                stopped = stopped or event.type == "message_stop"
            message = await stream.get_final_message()
    except httpx2.TimeoutException:
        raise _stalled(policy) from None
    except httpx2.TransportError as error:
        raise StreamInterrupted(f"the stream was cut ({type(error).__name__})") from None
    except APITimeoutError:
        if not opened:
            raise
        raise _stalled(policy) from None
    except APIConnectionError as error:  # newer SDKs wrap a cut body's transport error
        if not opened:
            raise
        cause = type(error.__cause__ or error).__name__
        raise StreamInterrupted(f"the stream was cut ({cause})") from None
    except APIStatusError as error:
        kind = _error_type(error)
        if error.status_code == 200 and kind in RETRYABLE_STREAM_ERRORS:
            raise StreamInterrupted(f"the stream ended with an error event ({kind})") from None
        raise
    if not stopped:
        raise StreamInterrupted("the stream ended before message_stop")
    return message


def _stalled(policy: StreamPolicy) -> StreamInterrupted:
    return StreamInterrupted(f"the stream stalled: no event in {policy.stall_seconds:g} s; cut")


def _error_type(error: APIStatusError) -> str | None:
    body = error.body
    inner = body.get("error") if isinstance(body, dict) else None
    kind = inner.get("type") if isinstance(inner, dict) else None
    return kind if isinstance(kind, str) else None


async def charge_interrupted(budget: Budget, usd: float) -> bool:
    """Put an interrupted stream's worst case on `budget` as spent: it may have been billed
    and its usage never came. False when the budget has no room for it; the caller's own
    reservation must then keep it."""
    reservation = await budget.reserve(steps=0, usd=usd)
    if isinstance(reservation, Refusal):
        return False
    await budget.settle(reservation, usd, Usage())
    return True
