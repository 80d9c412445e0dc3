"""The few Redis conveniences every Redis-backed store uses: connect with a clear error,
run a Lua script, change a JSON value atomically, turn replies into text.

Every connection is bounded: connecting and each reply wait `timeout` seconds at most
(FONTE_REDIS_TIMEOUT), so a Redis whose traffic is black-holed, or that accepts
connections and never answers, raises a TimeoutError (an outage, `bot.redis.outage`)
instead of hanging the process; TCP keepalive also finds a peer that vanished."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, cast

from arq.connections import ArqRedis
from redis.exceptions import RedisError, WatchError

from bot.redis.outage import is_outage
from engine import BadInput

_T = TypeVar("_T")

REDIS_TIMEOUT_SECONDS = 5.0
"""How long a connection, a reply, and the check at start wait for Redis by default."""


def client(url: str, timeout: float = REDIS_TIMEOUT_SECONDS) -> ArqRedis:
    """An arq pool (a redis.asyncio.Redis) on `url` whose connects and replies each wait
    `timeout` seconds at most; it connects on first use."""
    pool: ArqRedis = ArqRedis.from_url(
        url, socket_connect_timeout=timeout, socket_timeout=timeout, socket_keepalive=True
    )
    return pool


async def connect(url: str, within: float = REDIS_TIMEOUT_SECONDS) -> ArqRedis:
    """`client`, checked with PING: BadInput, one line, when Redis has not answered within
    `within` seconds (refused, silent, or still loading its data all that time)."""
    redis = client(url, within)
    seen: list[BaseException] = []
    try:
        async with asyncio.timeout(within):
            await _answered(redis, seen)
    except (TimeoutError, OSError, RedisError) as error:
        await redis.aclose(close_connection_pool=True)
        last = seen[-1] if seen else error
        why = str(last) or "no answer"
        raise BadInput(
            f"cannot reach Redis at {_safe(url)} (REDIS_URL): no answer within {within:g} s "
            f"(FONTE_REDIS_TIMEOUT): {why}"
        ) from None
    return redis


async def _answered(redis: ArqRedis, seen: list[BaseException]) -> None:
    """PING until Redis answers; one that refuses, times out or is loading is asked again
    (each failure kept in `seen`, for the message)."""
    while True:
        try:
            await redis.ping()
            return
        except (OSError, RedisError) as error:
            if not is_outage(error):
                raise
            seen.append(error)
        await asyncio.sleep(0.1)


def _safe(url: str) -> str:
    """The URL without its password, fit for an error message."""
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"


async def awaited(value: Awaitable[_T] | _T) -> _T:
    """redis-py types its commands as `Awaitable[_T] | _T` (sync and async share one
    signature); on the asyncio client they are always awaitable."""
    return await cast(Awaitable[_T], value)


def text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class LuaScript:
    """A Lua script run with EVALSHA, loaded on first use (and again after a SCRIPT FLUSH)."""

    def __init__(self, source: str) -> None:
        self.source = source

    async def __call__(
        self, redis: ArqRedis, keys: Sequence[str], args: Sequence[str | int | float]
    ) -> Any:
        script = redis.register_script(self.source)
        return await script(keys=list(keys), args=list(args))


async def watched_update(
    redis: ArqRedis, key: str, change: Callable[[str], str | None], ttl_seconds: int
) -> tuple[str | None, bool]:
    """Replace the value of `key` by `change(value)` in a WATCH/MULTI transaction, again
    whenever another client wrote it meanwhile, so no concurrent change is lost. Returns
    the value after it (None when the key is missing) and whether it changed (`change`
    answers None to leave it as it is)."""
    async with redis.pipeline(transaction=True) as pipe:
        while True:
            try:
                await pipe.watch(key)
                raw = await pipe.get(key)
                if raw is None:
                    return None, False
                current = text(raw)
                changed = change(current)
                if changed is None:
                    return current, False
                pipe.multi()  # type: ignore[no-untyped-call]
                pipe.set(key, changed, ex=ttl_seconds)
                await pipe.execute()
                return changed, True
            except WatchError:
                continue
