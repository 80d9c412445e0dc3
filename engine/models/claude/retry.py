"""When a failed Claude call is worth another try, and how long to wait first. Pure code.

Rate limits (429), overload (529, or an `overloaded_error` under another status) and plain
server errors pass; everything else (bad request, authentication, billing) fails at once.

Waits use full jitter ("Exponential Backoff And Jitter", AWS Architecture Blog): a random
share of a window that doubles each attempt. The server's `retry-after` is a floor, not the
wait: the random share is added on top, so parallel subagents told "1 s" by the same 429 do
not all come back in the same millisecond (https://platform.claude.com/docs/en/api/rate-limits:
wait at least what retry-after says).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
RETRYABLE_ERROR_TYPES = frozenset({"rate_limit_error", "overloaded_error", "api_error"})


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 5
    base_delay: float = 1.0
    max_delay: float = 60.0


def is_retryable(status: int, error_type: str | None) -> bool:
    return status in RETRYABLE_STATUSES or error_type in RETRYABLE_ERROR_TYPES


def retry_after_seconds(
    headers: Mapping[str, str], now: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> float | None:
    """What the server asked us to wait, from `retry-after-ms` or `retry-after` (seconds or
    an HTTP date); None when it did not say or said something unreadable."""
    lowered = {k.lower(): v for k, v in headers.items()}
    milliseconds = lowered.get("retry-after-ms")
    if milliseconds is not None:
        try:
            return max(0.0, float(milliseconds) / 1000)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now()).total_seconds())


def backoff_window(attempt: int, policy: RetryPolicy) -> float:
    """The random share's range before retry number `attempt` (0-based): 2, 4, 8 … s with
    the default policy, never above `max_delay`."""
    return min(policy.max_delay, policy.base_delay * 2.0 ** (attempt + 1))


def backoff_seconds(
    attempt: int, policy: RetryPolicy, retry_after: float | None, jitter: float
) -> float:
    """The wait before retry number `attempt` (0-based). `jitter` in [0, 1) is the random
    draw: without `retry-after` the wait is that share of the window (full jitter); with it,
    the server's wait plus that share of the larger of the window and the server's wait."""
    window = backoff_window(attempt, policy)
    if retry_after is None:
        return window * jitter
    return retry_after + max(window, retry_after) * jitter
