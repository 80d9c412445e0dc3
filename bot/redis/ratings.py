"""Ratings of delivered reports, kept for the team beyond the report itself.

A report's state lives FONTE_REPORT_DAYS (30 by default); what people thought of it is worth
keeping longer (FONTE_RATINGS_DAYS, 365 by default), so each rating is stored on its own with
what it rated (report id, version, question, template) and exported as JSON lines
(`fonte bot ratings --since DAYS`). In Redis for workers (each rating a key with its own TTL,
and a sorted set by time to list them); in memory for the embedded bot, where ratings end
with the process.

A user rating the same version again replaces their rating: one opinion per person and
version, the latest.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Literal, Protocol

from arq.connections import ArqRedis
from pydantic import BaseModel, ConfigDict, Field

from bot.redis.connection import awaited, text
from bot.redis.keys import Keys
from engine import utc_now

__all__ = ["InMemoryRatings", "Rating", "RatingsStore", "RedisRatings", "ratings_store"]

Clock = Callable[[], datetime]


class Rating(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    report_id: str
    version: int
    user: str
    rating: Literal["up", "down"]
    at: datetime = Field(default_factory=utc_now)
    question: str
    template: str | None = None


class RatingsStore(Protocol):
    async def record(self, rating: Rating) -> None:
        """Keep `rating`, replacing the same user's earlier rating of the same version."""
        ...

    async def since(self, moment: datetime) -> list[Rating]:
        """The ratings given at `moment` or later and still kept, oldest first."""
        ...


class RedisRatings:
    def __init__(
        self, redis: ArqRedis, keys: Keys, ttl_seconds: int, clock: Clock = utc_now
    ) -> None:
        self._redis = redis
        self._keys = keys
        self._ttl = ttl_seconds
        self._clock = clock

    async def record(self, rating: Rating) -> None:
        key = self._keys.rating(rating.report_id, rating.version, rating.user)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(key, rating.model_dump_json(), ex=self._ttl)
            pipe.zadd(self._keys.ratings, {key: rating.at.timestamp()})
            # The index lives as long as its newest rating.
            pipe.expire(self._keys.ratings, self._ttl)
            await pipe.execute()

    async def since(self, moment: datetime) -> list[Rating]:
        index = self._keys.ratings
        kept_from = (self._clock() - timedelta(seconds=self._ttl)).timestamp()
        # Entries whose rating expired are dropped from the index as it is read.
        await awaited(self._redis.zremrangebyscore(index, "-inf", f"({kept_from}"))
        start = max(moment.timestamp(), kept_from)
        names = await awaited(self._redis.zrangebyscore(index, start, "+inf"))
        if not names:
            return []
        raws = await awaited(self._redis.mget([text(name) for name in names]))
        return [Rating.model_validate_json(raw) for raw in raws if raw is not None]


class InMemoryRatings:
    """The embedded bot's ratings: in this process only."""

    def __init__(self, ttl_seconds: int, clock: Clock = utc_now) -> None:
        self._ttl = ttl_seconds
        self._clock = clock
        self._ratings: dict[tuple[str, int, str], Rating] = {}

    async def record(self, rating: Rating) -> None:
        key = (rating.report_id, rating.version, rating.user)
        self._ratings.pop(key, None)  # a new rating goes last, as it is the newest
        self._ratings[key] = rating

    async def since(self, moment: datetime) -> list[Rating]:
        kept_from = self._clock() - timedelta(seconds=self._ttl)
        start = max(moment, kept_from)
        return sorted((r for r in self._ratings.values() if r.at >= start), key=lambda r: r.at)


_IN_MEMORY: weakref.WeakKeyDictionary[object, InMemoryRatings] = weakref.WeakKeyDictionary()


def ratings_store(
    redis: ArqRedis | None, keys: Keys, ttl_seconds: int, owner: object
) -> RatingsStore:
    """The ratings store of a runtime: in Redis when it has one, else the one in-memory
    store of `owner` (the runtime's state store, which lives as long as the runtime)."""
    if redis is not None:
        return RedisRatings(redis, keys, ttl_seconds)
    store = _IN_MEMORY.get(owner)
    if store is None:
        store = _IN_MEMORY[owner] = InMemoryRatings(ttl_seconds)
    return store
