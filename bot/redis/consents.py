"""What each user said to Slack search as a source of their research: asked once, kept.

A research may search the workspace as its requester (Slack's Real-time Search API) only
with their consent (docs/slack.md, "Slack search as a source"). The answer is kept per user,
with no expiry: asked the first time, remembered after. In Redis for workers (one key per
user); in memory for the embedded bot, where it lasts as long as the process.
"""

from __future__ import annotations

import weakref
from typing import Protocol

from arq.connections import ArqRedis

from bot.redis.connection import awaited, text
from bot.redis.keys import Keys

__all__ = ["Consents", "InMemoryConsents", "RedisConsents", "consents_store"]


class Consents(Protocol):
    async def slack_search(self, user: str) -> bool | None:
        """Whether `user` allowed Slack search; None when they were never asked."""
        ...

    async def decide_slack_search(self, user: str, allowed: bool) -> None: ...


class RedisConsents:
    def __init__(self, redis: ArqRedis, keys: Keys) -> None:
        self._redis = redis
        self._keys = keys

    async def slack_search(self, user: str) -> bool | None:
        raw = await awaited(self._redis.get(self._keys.slack_search_consent(user)))
        return None if raw is None else text(raw) == "1"

    async def decide_slack_search(self, user: str, allowed: bool) -> None:
        key = self._keys.slack_search_consent(user)
        await awaited(self._redis.set(key, "1" if allowed else "0"))


class InMemoryConsents:
    """The embedded bot's consents: in this process only."""

    def __init__(self) -> None:
        self._slack_search: dict[str, bool] = {}

    async def slack_search(self, user: str) -> bool | None:
        return self._slack_search.get(user)

    async def decide_slack_search(self, user: str, allowed: bool) -> None:
        self._slack_search[user] = allowed


_IN_MEMORY: weakref.WeakKeyDictionary[object, InMemoryConsents] = weakref.WeakKeyDictionary()


def consents_store(redis: ArqRedis | None, keys: Keys, owner: object) -> Consents:
    """The consents of a runtime: in Redis when it has one, else the one in-memory store of
    `owner` (the runtime's state store, which lives as long as the runtime)."""
    if redis is not None:
        return RedisConsents(redis, keys)
    store = _IN_MEMORY.get(owner)
    if store is None:
        store = _IN_MEMORY[owner] = InMemoryConsents()
    return store
