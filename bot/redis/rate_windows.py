"""Slack's rate-limit windows in Redis, so every worker of the app counts in the same ones
(`bot.slack.api.tiers` explains the windows; this is their `RateWindows` across processes).

A window is a sorted set of the times its slots were taken (score and member); taking one
is one Lua script, so two workers asking at the same moment cannot both take the last slot.
Times come from the caller's clock (the pacer's, injected in tests), and the key expires
once its window has passed, so an idle workspace leaves nothing behind.
"""

from __future__ import annotations

import math
import uuid

from arq.connections import ArqRedis

from bot.redis.connection import LuaScript, text
from bot.redis.keys import Keys

_TAKE = LuaScript(
    """
local key, calls, seconds, now, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]),
  tonumber(ARGV[3]), ARGV[4]
local held = tonumber(redis.call('GET', KEYS[2]) or '0') or 0
if held > now then return tostring(held - now) end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - seconds)
local taken = redis.call('ZCARD', key)
if taken < calls then
  redis.call('ZADD', key, now, member)
  redis.call('EXPIRE', key, math.ceil(seconds) + 1)
  return '0'
end
local oldest = redis.call('ZRANGE', key, taken - calls, taken - calls, 'WITHSCORES')
return tostring(tonumber(oldest[2]) + seconds - now)
"""
)


_HOLD = LuaScript(
    """
local till, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
local held = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if till > held then redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl) end
return 1
"""
)


class RedisRateWindows:
    def __init__(self, redis: ArqRedis, keys: Keys) -> None:
        self._redis = redis
        self._keys = keys

    async def take(self, key: str, calls: int, seconds: float, now: float, held: str) -> float:
        member = f"{now!r}:{uuid.uuid4().hex}"
        reply = await _TAKE(
            self._redis,
            [self._keys.slack_rate_window(key), self._keys.slack_rate_hold(held)],
            [calls, repr(float(seconds)), repr(float(now)), member],
        )
        wait = float(text(reply))
        return max(0.0, wait) if math.isfinite(wait) else seconds

    async def hold(self, held: str, until: float) -> None:
        # Expires a minute after the longest Retry-After the client waits (MAX_RETRY_AFTER
        # is 60 s): a clock that differs a little between workers still sees it.
        await _HOLD(self._redis, [self._keys.slack_rate_hold(held)], [repr(float(until)), 120])
