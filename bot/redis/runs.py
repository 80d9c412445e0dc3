"""Who runs a report now: a lease the orchestrator attempt holds and renews, so a worker that
dies (SIGKILL, a lost machine) lets go within seconds instead of holding the report.

The lease is a Redis key holding the attempt's token, with a time to live. The attempt's
heartbeat renews it every few seconds; a new attempt takes it once it is free (expired or
released). Each renewal also writes `alive_at` to the report's budget: while no orchestrator
is alive the budget's clock stands still, and a resumed run is not charged the gap
(bot.redis.budget).
"""

from __future__ import annotations

from typing import Protocol

from arq.connections import ArqRedis

from bot.redis.connection import LuaScript, awaited, text
from bot.redis.keys import Keys

LEASE_SECONDS = 15.0
"""How long a run (and an arq job) stays owned without a heartbeat: the longest a killed
worker's report waits before another worker takes it over."""

_TAKE = LuaScript(
    """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
-- Only a renewal marks the orchestrator alive: a new holder first resumes the budget's
-- clock (RedisBudget.begin_run), which reads the last sign of life of the one before.
if held then
  local t = redis.call('TIME')
  redis.call('HSET', KEYS[2], 'alive_at', tostring(tonumber(t[1]) + tonumber(t[2]) / 1000000),
             'alive_ttl', tostring(tonumber(ARGV[2]) / 1000))
end
return 1
"""
)

_RELEASE = LuaScript(
    """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
)


class RunLeases(Protocol):
    seconds: float
    """How long the lease lasts without a renewal."""

    async def take(self, report_id: str, token: str) -> bool:
        """Take the run, or keep it when `token` holds it already; False while another
        attempt holds it. Renewing it also records the orchestrator as alive."""
        ...

    async def release(self, report_id: str, token: str) -> None:
        """Let go at once (the attempt stops), so the next one need not wait the lease out."""
        ...

    async def holder(self, report_id: str) -> str | None: ...


class RedisRunLeases:
    def __init__(self, redis: ArqRedis, keys: Keys, seconds: float = LEASE_SECONDS) -> None:
        self._redis = redis
        self._keys = keys
        self.seconds = seconds

    async def take(self, report_id: str, token: str) -> bool:
        keys = [self._keys.runner(report_id), self._keys.budget(report_id)]
        taken = await _TAKE(self._redis, keys, [token, int(self.seconds * 1000)])
        return bool(taken)

    async def release(self, report_id: str, token: str) -> None:
        await _RELEASE(self._redis, [self._keys.runner(report_id)], [token])

    async def holder(self, report_id: str) -> str | None:
        raw = await awaited(self._redis.get(self._keys.runner(report_id)))
        return None if raw is None else text(raw)


class InMemoryRunLeases:
    """The embedded bot's: one process, so an attempt only ever meets its own earlier self
    or a run that already let go."""

    seconds = LEASE_SECONDS

    def __init__(self) -> None:
        self._holders: dict[str, str] = {}

    async def take(self, report_id: str, token: str) -> bool:
        held = self._holders.setdefault(report_id, token)
        return held == token

    async def release(self, report_id: str, token: str) -> None:
        if self._holders.get(report_id) == token:
            del self._holders[report_id]

    async def holder(self, report_id: str) -> str | None:
        return self._holders.get(report_id)
