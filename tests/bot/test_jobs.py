"""Job functions: a job that loses Redis mid-way asks arq to run it again, with one log line
and no traceback; other failures stay failures."""

from __future__ import annotations

import logging

import pytest
from arq.worker import Retry
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.jobs import OUTAGE_RETRY_SECONDS, again_when_redis_is_down


def test_a_job_that_lost_redis_is_retried_later(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    with pytest.raises(Retry) as retry, again_when_redis_is_down({"job_id": "j1"}):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")
    assert retry.value.defer_score == OUTAGE_RETRY_SECONDS * 1000
    assert retry.value.__cause__ is None
    assert [r.getMessage() for r in caplog.records] == [
        "job j1: Redis is unreachable (Error 111 connecting to 127.0.0.1:6390. Connection "
        "refused.); it runs again"
    ]


def test_other_failures_are_not_retried() -> None:
    with pytest.raises(ValueError, match="bad"), again_when_redis_is_down({"job_id": "j1"}):
        raise ValueError("bad")
