"""Riding out a Redis outage: which errors mean "Redis is not answering" (a restart, a
failover, a server still loading its data), how long to wait before the next try, and one
log line when the outage starts and one when it ends (not one per failed try, nor a
traceback).

What a restart or failover raises through redis-py (5.x) and arq:

- `redis.exceptions.ConnectionError`: refused, reset or dropped connections (redis-py wraps
  socket errors in it), and its subclass `BusyLoadingError` (`LOADING`: the server is
  replaying its AOF or RDB); `redis.exceptions.TimeoutError`.
- `redis.exceptions.WatchError`: redis-py raises it, not ConnectionError, when a connection
  drops while a pipeline WATCHes keys ("the user should retry this transaction"); arq's job
  start (`Worker.start_jobs`) and enqueue (`ArqRedis.enqueue_job`) WATCH the job's keys.
- `redis.exceptions.ReadOnlyError` (`READONLY`: the node became a replica after a failover);
  in a MULTI, redis-py raises the queued command's error rather than EXECABORT.
- `redis.exceptions.OutOfMemoryError` (`OOM`: the server is at its `maxmemory` under the
  noeviction policy and refuses writes until space is freed).
- `redis.exceptions.TimeoutError` from the bounded socket timeouts (`bot.redis.connection`)
  when Redis accepts a connection and never answers, or its traffic is black-holed.
- replies `MASTERDOWN` (a replica lost its master), `TRYAGAIN` and `CLUSTERDOWN`, which the
  standalone parser returns as a plain ResponseError: `register_outage_replies` maps them to
  redis-py's own MasterDownError, TryAgainError and ClusterDownError (as its cluster parser
  does), and `is_outage` also knows them by their prefix.
- the builtin ConnectionError and TimeoutError (asyncio's included) that arq's `create_pool`
  re-raises after its own retries, and socket OSErrors (unreachable host or network).

arq has no wrapper of its own: it re-raises redis-py's errors, except that `start_jobs`
catches WatchError/ResponseError from its EXEC and `enqueue_job` turns a WatchError on EXEC
into "already enqueued" (None).
"""

from __future__ import annotations

import errno
import logging
import socket
import time
from collections.abc import Callable

from redis._parsers.base import BaseParser
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    MasterDownError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
    WatchError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

REDIS_DOWN: tuple[type[BaseException], ...] = (
    RedisConnectionError,  # BusyLoadingError (LOADING) is one
    BusyLoadingError,
    RedisTimeoutError,
    WatchError,
    ReadOnlyError,
    OutOfMemoryError,  # OOM: full under noeviction; writes pass again once space is freed
    MasterDownError,
    ClusterDownError,
    TryAgainError,
    ConnectionError,  # builtin: refused, reset, aborted, broken pipe
    TimeoutError,  # builtin, asyncio.TimeoutError too (Python 3.11)
    socket.gaierror,  # the host's name does not resolve (a container being replaced)
)
"""Redis refused, dropped, timed out or cannot serve yet: wait and try again. For `except`
clauses; `is_outage` also knows the replies and socket errors no class names."""

OUTAGE_REPLIES = ("LOADING", "READONLY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "OOM")
"""Error replies of a Redis that restarts, loads, fails over or is full."""

REMIND_SECONDS = 60.0
"""While an outage lasts, one more log line at least this often."""

SOCKET_ERRNOS = frozenset(
    {
        errno.ECONNREFUSED,
        errno.ECONNRESET,
        errno.ECONNABORTED,
        errno.EPIPE,
        errno.ETIMEDOUT,
        errno.EHOSTUNREACH,
        errno.EHOSTDOWN,
        errno.ENETUNREACH,
        errno.ENETDOWN,
        errno.ENETRESET,
        errno.EADDRNOTAVAIL,
        errno.ENOTCONN,
    }
)


def register_outage_replies() -> None:
    """Have redis-py raise MasterDownError, TryAgainError and ClusterDownError (its own
    classes, which its cluster parser maps these replies to) for `MASTERDOWN`, `TRYAGAIN`
    and `CLUSTERDOWN` on every connection, so `except REDIS_DOWN` catches them. They stay
    ResponseErrors; a code redis-py already maps is left alone."""
    replies: dict[str, object] = BaseParser.EXCEPTION_CLASSES
    replies.setdefault("MASTERDOWN", MasterDownError)
    replies.setdefault("TRYAGAIN", TryAgainError)
    replies.setdefault("CLUSTERDOWN", ClusterDownError)


register_outage_replies()


def is_outage(error: BaseException) -> bool:
    """`error`, or the error it was raised from, means Redis is not serving right now."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, REDIS_DOWN):
            return True
        if isinstance(current, ResponseError) and str(current).startswith(OUTAGE_REPLIES):
            return True
        if isinstance(current, OSError) and current.errno in SOCKET_ERRNOS:
            return True
        current = current.__cause__
    return False


class Outage:
    """The state of one loop's connection to Redis: `failed` on each refused try returns the
    delay before the next (doubling from `first` to `longest`), `answered` after a try that
    worked. It logs when the state changes, and again every `remind` seconds (by `clock`)
    while the outage lasts, so a long one is never silent."""

    def __init__(
        self,
        what: str,
        *,
        first: float = 0.25,
        longest: float = 5.0,
        remind: float = REMIND_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.first = first
        self.longest = longest
        self.remind = remind
        self.clock = clock
        self.failures = 0
        self._since: float | None = None
        self._told_at = 0.0

    @property
    def down(self) -> bool:
        return self._since is not None

    def failed(self, error: BaseException) -> float:
        now = self.clock()
        why = str(error) or type(error).__name__
        if self._since is None:
            self._since = self._told_at = now
            log.warning("%s: Redis is unreachable (%s); retrying until it answers", self.what, why)
        elif now - self._told_at >= self.remind:
            self._told_at = now
            log.warning(
                "%s: Redis still unreachable after %.0f s and %d failed tries (%s)",
                self.what,
                now - self._since,
                self.failures,
                why,
            )
        delay = min(self.longest, self.first * 2.0 ** min(self.failures, 32))
        self.failures += 1
        return delay

    def answered(self) -> None:
        if self._since is None:
            return
        log.warning(
            "%s: Redis answers again, after %.1f s and %d failed tries",
            self.what,
            self.clock() - self._since,
            self.failures,
        )
        self._since = None
        self.failures = 0
