"""An outage is logged once when it starts and once when it ends; tries back off."""

from __future__ import annotations

import errno
import logging
import socket

import pytest
from redis._parsers.base import BaseParser
from redis.exceptions import BusyLoadingError, ReadOnlyError, ResponseError, WatchError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.redis.outage import REDIS_DOWN, Outage, is_outage
from tests.support.sick_redis import HandClock


def test_one_line_per_change_and_a_doubling_delay(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    outage = Outage("worker q", first=0.25, longest=1.0)
    outage.answered()  # up and answering: nothing to say
    error = RedisConnectionError("Connection refused")
    delays = [outage.failed(error) for _ in range(5)]
    assert delays == [0.25, 0.5, 1.0, 1.0, 1.0]
    assert bool(outage.down)  # (not narrowed: `answered` changes it)
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


@pytest.mark.parametrize(
    "error",
    [
        BusyLoadingError("Redis is loading the dataset in memory"),
        WatchError("A ConnectionError occurred on while watching one or more keys"),
        ReadOnlyError("You can't write against a read only replica."),
        RedisTimeoutError("Timeout reading from socket"),
        ResponseError("LOADING Redis is loading the dataset in memory"),
        ResponseError("READONLY You can't write against a read only replica."),
        ResponseError("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is no"),
        ResponseError("TRYAGAIN Multiple keys request during rehashing of slot"),
        TimeoutError(),
        OSError(errno.EHOSTUNREACH, "No route to host"),
        socket.gaierror(-2, "Name or service not known"),
    ],
)
def test_what_a_restart_or_failover_raises_is_an_outage(error: Exception) -> None:
    assert is_outage(error)


def test_other_errors_are_not_an_outage() -> None:
    assert not is_outage(ResponseError("WRONGTYPE Operation against a key"))
    assert not is_outage(FileNotFoundError(errno.ENOENT, "gone"))
    assert not is_outage(ValueError())


def parsed(reply: str) -> Exception:
    error: Exception = BaseParser.parse_error(reply)  # type: ignore[no-untyped-call]
    return error


def test_redis_replies_of_a_failover_raise_classes_an_except_clause_catches() -> None:
    for reply in ("MASTERDOWN Link with MASTER is down", "TRYAGAIN slot", "LOADING x"):
        assert isinstance(parsed(reply), REDIS_DOWN), reply
    assert isinstance(parsed("READONLY replica"), REDIS_DOWN)
    assert not isinstance(parsed("WRONGTYPE x"), REDIS_DOWN)


def test_a_long_outage_is_logged_again_each_minute_by_its_clock(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A black-holed Redis fails every try for minutes: one line when it starts, then one
    a minute (by the outage's clock, moved by hand here), then one when it answers."""
    caplog.set_level(logging.INFO)
    clock = HandClock()
    outage = Outage("worker q", clock=clock)
    error = RedisTimeoutError("Timeout reading from socket")
    for _ in range(3 * 6):  # three minutes of tries, ten seconds apart
        outage.failed(error)
        clock.advance(10)
    outage.answered()
    lines = [r.getMessage() for r in caplog.records]
    assert "unreachable (Timeout reading from socket)" in lines[0]
    reminders = [line for line in lines if "still unreachable" in line]
    assert len(reminders) == 2, lines  # at 60 s and 120 s; the next falls after it answered
    assert reminders[0].startswith("worker q: Redis still unreachable after 60 s and 6 failed")
    assert lines[-1].startswith("worker q: Redis answers again, after 180.0 s")


def test_a_full_redis_refusing_writes_is_an_outage() -> None:
    """maxmemory under noeviction answers OOM to every write until space is freed."""
    full = parsed("OOM command not allowed when used memory > 'maxmemory'.")
    assert isinstance(full, REDIS_DOWN)
    assert is_outage(ResponseError("OOM command not allowed when used memory > 'maxmemory'."))


def test_backoff_stays_bounded_through_thousands_of_tries() -> None:
    outage = Outage("worker q", clock=HandClock())
    delays = [outage.failed(TimeoutError()) for _ in range(3000)]
    assert max(delays) == outage.longest
