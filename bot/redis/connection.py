"""The few Redis conveniences every Redis-backed store uses: connect with a clear error,
run a Lua script, turn replies into text."""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar, cast

from arq.connections import ArqRedis, RedisSettings, create_pool
from redis.exceptions import RedisError

from engine import BadInput

_T = TypeVar("_T")


async def connect(url: str) -> ArqRedis:
    """An arq pool (a redis.asyncio.Redis) on `url`, checked with PING; BadInput when
    Redis does not answer, at once rather than after arq's retries."""
    settings = RedisSettings.from_dsn(url)
    settings.conn_retries = 0
    settings.conn_timeout = 2
    try:
        redis = await create_pool(settings)
    except (OSError, RedisError) as error:
        raise BadInput(f"cannot reach Redis at {_safe(url)} (REDIS_URL): {error}") from None
    return redis


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
