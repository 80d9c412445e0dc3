"""The claims board in Redis: one hash of claims per report plus their posting order.

A post is one Lua script (HSETNX + RPUSH), so two workers posting the same excerpt of the same
source at the same moment make one claim, and a replayed job posts nothing new.
"""

from __future__ import annotations

from typing import Any

from arq.connections import ArqRedis

from bot.redis.connection import LuaScript, awaited
from bot.redis.keys import Keys
from engine import Claim, as_posted, validate_claim

_POST = LuaScript(
    """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('RPUSH', KEYS[2], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[3])
  return 1
end
return 0
"""
)

_UPDATE = LuaScript(
    """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
)


class RedisBoard:
    """`engine.board.Board` shared by every worker of one report."""

    def __init__(self, redis: ArqRedis, keys: Keys, report_id: str, ttl_seconds: int) -> None:
        self._redis = redis
        self._keys = [keys.board(report_id), keys.board_order(report_id)]
        self._ttl = ttl_seconds

    async def post(self, claim: Claim | dict[str, Any]) -> Claim | None:
        posted = as_posted(claim)
        created = await _POST(
            self._redis, self._keys, [posted.id, posted.model_dump_json(), self._ttl]
        )
        return posted if created else None

    async def update(self, claim: Claim) -> None:
        valid = validate_claim(claim)
        if not await _UPDATE(self._redis, self._keys, [valid.id, valid.model_dump_json()]):
            raise KeyError(f"claim {valid.id} is not on the board")

    async def claims(self) -> list[Claim]:
        ids = await awaited(self._redis.lrange(self._keys[1], 0, -1))
        if not ids:
            return []
        values = await awaited(self._redis.hmget(self._keys[0], ids))
        return [Claim.model_validate_json(value) for value in values if value is not None]
