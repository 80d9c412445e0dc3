"""Riding out a Redis outage: which errors mean "Redis is not answering", how long to wait
before the next try, and one log line when the outage starts and one when it ends (not one
per failed try, nor a traceback)."""

from __future__ import annotations

import logging
import time

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

REDIS_DOWN: tuple[type[BaseException], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ConnectionError,
)
"""Redis refused, dropped or timed out the connection (redis-py wraps socket errors in its
ConnectionError; BusyLoadingError, a server still loading its data, is one too)."""


class Outage:
    """The state of one loop's connection to Redis: `failed` on each refused try returns the
    delay before the next (doubling from `first` to `longest`), `answered` after a try that
    worked. Each logs only when the state changes."""

    def __init__(self, what: str, *, first: float = 0.25, longest: float = 5.0) -> None:
        self.what = what
        self.first = first
        self.longest = longest
        self.failures = 0
        self._since: float | None = None

    @property
    def down(self) -> bool:
        return self._since is not None

    def failed(self, error: BaseException) -> float:
        if self._since is None:
            self._since = time.monotonic()
            log.warning(
                "%s: Redis is unreachable (%s); retrying until it answers", self.what, error
            )
        delay = min(self.longest, self.first * 2.0**self.failures)
        self.failures += 1
        return delay

    def answered(self) -> None:
        if self._since is None:
            return
        log.warning(
            "%s: Redis answers again, after %.1f s and %d failed tries",
            self.what,
            time.monotonic() - self._since,
            self.failures,
        )
        self._since = None
        self.failures = 0
