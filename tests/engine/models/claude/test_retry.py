from datetime import UTC, datetime

import pytest

from engine.models.claude.retry import (
    RetryPolicy,
    backoff_seconds,
    is_retryable,
    retry_after_seconds,
)

NOW = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("status", "kind", "expected"),
    [
        (429, "rate_limit_error", True),
        (529, "overloaded_error", True),
        (503, None, True),
        (500, "overloaded_error", True),
        (400, "invalid_request_error", False),
        (401, "authentication_error", False),
        (413, "request_too_large", False),
    ],
)
def test_what_is_retried(status: int, kind: str | None, expected: bool) -> None:
    assert is_retryable(status, kind) is expected


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "7"}, 7.0),
        ({"Retry-After": "1.5"}, 1.5),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "Thu, 01 Jan 2026 12:00:30 GMT"}, 30.0),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after(headers: dict[str, str], seconds: float | None) -> None:
    assert retry_after_seconds(headers, now=lambda: NOW) == seconds


def test_without_retry_after_the_wait_is_a_random_share_of_a_doubling_window() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0)
    assert backoff_seconds(0, policy, None, jitter=0.0) == 0.0
    assert backoff_seconds(0, policy, None, jitter=0.5) == 1.0  # window 2 s
    assert backoff_seconds(1, policy, None, jitter=0.5) == 2.0  # window 4 s
    assert backoff_seconds(10, policy, None, jitter=0.5) == 4.0  # capped at 8 s


def test_retry_after_is_a_floor_with_a_random_share_on_top() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0)
    assert backoff_seconds(0, policy, 1.0, jitter=0.0) == 1.0  # never less than asked
    assert backoff_seconds(0, policy, 1.0, jitter=0.5) == 2.0  # + half of the 2 s window
    assert backoff_seconds(0, policy, 30.0, jitter=0.5) == 45.0  # + half of the 30 s asked
    draws = [0.05, 0.3, 0.5, 0.7, 0.9, 0.99]
    waits = [backoff_seconds(0, policy, 1.0, jitter=j) for j in draws]
    assert min(waits) >= 1.0
    assert max(waits) - min(waits) >= 1.0  # six callers told "1 s" spread over a second
