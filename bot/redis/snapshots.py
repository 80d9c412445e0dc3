"""The snapshot cache in Redis: what any subagent of a report read, every worker can reuse,
and the verifier (on whichever worker) checks excerpts against that very text."""

from __future__ import annotations

from arq.connections import ArqRedis

from bot.redis.codec import decode_snapshot, encode_snapshot
from bot.redis.connection import awaited
from bot.redis.keys import Keys
from engine import Snapshot, split_page


class RedisSnapshotStore:
    """`engine.snapshots.SnapshotStore` for one report, keyed by document URL (no page)."""

    def __init__(self, redis: ArqRedis, keys: Keys, report_id: str, ttl_seconds: int) -> None:
        self._redis = redis
        self._keys = keys
        self._report_id = report_id
        self._ttl = ttl_seconds

    def _key(self, url: str) -> str:
        return self._keys.snapshot(self._report_id, split_page(url)[0])

    async def get(self, url: str) -> Snapshot | None:
        raw = await awaited(self._redis.get(self._key(url)))
        return None if raw is None else decode_snapshot(raw)

    async def put(self, snapshot: Snapshot) -> None:
        # The first read wins: a verifier must see the text the claim's author saw.
        await awaited(
            self._redis.set(
                self._key(snapshot.url), encode_snapshot(snapshot), ex=self._ttl, nx=True
            )
        )
