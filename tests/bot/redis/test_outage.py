"""An outage is logged once when it starts and once when it ends; tries back off."""

from __future__ import annotations

import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.redis.outage import REDIS_DOWN, Outage


def test_one_line_per_change_and_a_doubling_delay(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    outage = Outage("worker q", first=0.25, longest=1.0)
    outage.answered()  # up and answering: nothing to say
    error = RedisConnectionError("Connection refused")
    delays = [outage.failed(error) for _ in range(5)]
    assert delays == [0.25, 0.5, 1.0, 1.0, 1.0]
    assert outage.down
    outage.answered()
    outage.answered()
    assert not outage.down
    assert outage.failed(error) == 0.25  # a new outage starts from the first delay
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3
    assert (
        lines[0] == "worker q: Redis is unreachable (Connection refused); retrying until it answers"
    )
    assert lines[1].startswith("worker q: Redis answers again, after ")
    assert lines[1].endswith(" s and 5 failed tries")
    assert "unreachable" in lines[2]


def test_refused_and_reset_connections_count_as_redis_down() -> None:
    assert isinstance(RedisConnectionError("x"), REDIS_DOWN)
    assert isinstance(ConnectionRefusedError(), REDIS_DOWN)
    assert not isinstance(ValueError(), REDIS_DOWN)
