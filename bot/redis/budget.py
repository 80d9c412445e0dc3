"""The report's budget in Redis: one ceiling shared by every worker on every machine.

Each operation is one Lua script, so a reservation is checked and taken atomically: workers
reserving at the same moment cannot overshoot together. Time is Redis's own clock (`TIME`),
so machines with skewed clocks agree on the wall seconds spent; a test may pass a clock of its
own instead (`clock`, seconds since the Unix epoch like `TIME`), which every script then reads
from its last argument.

Reservations are keyed by `scope:n`, the caller's scope (an arq job id) and the step number
inside it. arq runs a job at least once; a replayed job asks for the same keys and gets the
reservations it already holds back, so a retry is never charged twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import count

from arq.connections import ArqRedis

from bot.redis.connection import LuaScript, awaited, text
from bot.redis.keys import Keys
from bot.redis.runs import LEASE_SECONDS
from engine import Limits, Refusal, Reservation, Spend, Usage

_HELPERS = """
local b = KEYS[1]
local function num(field)
  return tonumber(redis.call('HGET', b, field) or '0') or 0
end
local clock = ARGV[#ARGV]  -- the caller's clock, or '' for Redis's own
local function now()
  if clock ~= nil and clock ~= '' then return tonumber(clock) end
  local t = redis.call('TIME')
  return tonumber(t[1]) + tonumber(t[2]) / 1000000
end
local function last_alive()
  -- now, or the orchestrator's last heartbeat once that is older than its lease: the clock
  -- stands still while no orchestrator is alive (its worker was killed)
  local t = now()
  local alive = tonumber(redis.call('HGET', b, 'alive_at') or '')
  local ttl = tonumber(redis.call('HGET', b, 'alive_ttl') or '')
  if alive and ttl and t - alive > ttl then return alive end
  return t
end
local function elapsed()
  local started = redis.call('HGET', b, 'run_started')
  local base = num('seconds_base')
  if started and started ~= '' then
    return base + math.max(0, last_alive() - tonumber(started))
  end
  return base
end
local function would_cross(steps, usd)
  local stopped = redis.call('HGET', b, 'stopped')
  if stopped then return {'stopped', stopped} end
  local seconds, limit_seconds = elapsed(), num('limit_seconds')
  if seconds >= limit_seconds then
    return {'seconds', string.format('%.0f s of %.0f s used', seconds, limit_seconds)}
  end
  if num('steps') + steps > num('limit_steps') then
    return {'steps', string.format('%d of %d steps used', num('steps'), num('limit_steps'))}
  end
  local committed = num('usd_settled') + num('usd_reserved')
  if committed + usd > num('limit_usd') + 1e-12 then
    return {'usd', string.format('$%.4f of $%.2f committed', committed, num('limit_usd'))}
  end
  return nil
end
local function remember(refusal)
  if not redis.call('HGET', b, 'refusal_limit') then
    redis.call('HSET', b, 'refusal_limit', refusal[1], 'refusal_detail', refusal[2])
  end
end
local function limits()
  return {redis.call('HGET', b, 'limit_steps'), redis.call('HGET', b, 'limit_seconds'),
          redis.call('HGET', b, 'limit_usd')}
end
"""

_RESERVE = LuaScript(
    _HELPERS
    + """
local key, steps, usd = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local held = redis.call('HGET', KEYS[2], key)
if held then
  return {'held', held, unpack(limits())}
end
local refusal = would_cross(steps, usd)
if refusal then
  remember(refusal)
  return {'refused', refusal[1] .. '|' .. refusal[2], unpack(limits())}
end
redis.call('HINCRBY', b, 'steps', steps)
redis.call('HINCRBYFLOAT', b, 'usd_reserved', ARGV[3])
local entry = 'open|' .. ARGV[2] .. '|' .. ARGV[3]
redis.call('HSET', KEYS[2], key, entry)
return {'reserved', entry, unpack(limits())}
"""
)

_SETTLE = LuaScript(
    """
local held = redis.call('HGET', KEYS[2], ARGV[1])
if not held or string.sub(held, 1, 5) ~= 'open|' then return 0 end
local _, _, steps, usd = string.find(held, '^open|([^|]*)|(.*)$')
redis.call('HINCRBYFLOAT', KEYS[1], 'usd_reserved', -tonumber(usd))
redis.call('HINCRBYFLOAT', KEYS[1], 'usd_settled', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], 'settled|' .. steps .. '|' .. ARGV[2])
for i = 3, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], 'usage:' .. ARGV[i], ARGV[i + 1])
end
return 1
"""
)

_SPEND = LuaScript(
    _HELPERS
    + """
local usd = num('usd_settled') + math.max(0, num('usd_reserved'))
return {tostring(num('steps')), tostring(elapsed()), tostring(usd), unpack(limits())}
"""
)

_EXHAUSTED = LuaScript(
    _HELPERS
    + """
local limit = redis.call('HGET', b, 'refusal_limit')
if limit then
  return {limit, redis.call('HGET', b, 'refusal_detail'), unpack(limits())}
end
local refusal = would_cross(1, 0)
if refusal then
  remember(refusal)
  return {refusal[1], refusal[2], unpack(limits())}
end
return {'', '', unpack(limits())}
"""
)

_EXTEND = LuaScript(
    """
redis.call('HINCRBY', KEYS[1], 'limit_steps', ARGV[1])
redis.call('HINCRBYFLOAT', KEYS[1], 'limit_seconds', ARGV[2])
redis.call('HINCRBYFLOAT', KEYS[1], 'limit_usd', ARGV[3])
redis.call('HDEL', KEYS[1], 'refusal_limit', 'refusal_detail')
return 1
"""
)

_BEGIN_RUN = LuaScript(
    _HELPERS
    + """
local t = now()
if redis.call('HGET', b, 'run_id') == ARGV[1] then
  local started = tonumber(redis.call('HGET', b, 'run_started') or '')
  if started then
    -- the same run resumed by a new attempt: charge it up to the last heartbeat of the
    -- attempt before, not the time it lay dead
    local alive = tonumber(redis.call('HGET', b, 'alive_at') or '') or t
    local ran = math.max(0, math.min(alive, t) - started)
    redis.call('HINCRBYFLOAT', b, 'seconds_base', tostring(ran))
    redis.call('HSET', b, 'run_started', tostring(t), 'alive_at', tostring(t))
  end
  return 0
end
redis.call('HSET', b, 'run_id', ARGV[1], 'run_started', tostring(t),
           'alive_at', tostring(t), 'alive_ttl', ARGV[2])
return 1
"""
)

_END_RUN = LuaScript(
    _HELPERS
    + """
local started = redis.call('HGET', b, 'run_started')
if redis.call('HGET', b, 'run_id') ~= ARGV[1] or not started or started == '' then
  return 0
end
redis.call('HSET', b, 'seconds_base', tostring(elapsed()), 'run_started', '')
return 1
"""
)


@dataclass(frozen=True)
class KeyedReservation(Reservation):
    """A reservation that also knows its Redis key (scope and step number)."""

    key: str = ""


class RedisBudget:
    """`engine.budget.Budget` over one Redis hash per report.

    Use `open` to create it; `scope` names the reservations this instance makes (one arq job
    or one orchestrator run).
    """

    def __init__(
        self,
        redis: ArqRedis,
        keys: Keys,
        report_id: str,
        scope: str,
        limits: Limits,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.limits = limits
        self._redis = redis
        self._keys = [keys.budget(report_id), keys.reservations(report_id)]
        self._scope = scope
        self._steps = count(1)
        self._clock = clock

    def _now(self) -> str:
        """The last argument of every script that reads the clock: '' for Redis's `TIME`."""
        return "" if self._clock is None else repr(float(self._clock()))

    @classmethod
    async def open(
        cls,
        redis: ArqRedis,
        keys: Keys,
        report_id: str,
        scope: str,
        limits: Limits,
        ttl_seconds: int,
        clock: Callable[[], float] | None = None,
    ) -> RedisBudget:
        """The report's budget; the first opener sets its limits, later ones read them.
        `clock` (seconds since the Unix epoch) replaces Redis's `TIME`: for tests."""
        budget_key = keys.budget(report_id)
        async with redis.pipeline(transaction=True) as pipe:
            pipe.hsetnx(budget_key, "limit_steps", str(limits.steps))
            pipe.hsetnx(budget_key, "limit_seconds", repr(limits.seconds))
            pipe.hsetnx(budget_key, "limit_usd", repr(limits.usd))
            pipe.expire(budget_key, ttl_seconds)
            pipe.expire(keys.reservations(report_id), ttl_seconds)
            pipe.hmget(budget_key, ["limit_steps", "limit_seconds", "limit_usd"])
            replies = await pipe.execute()
        budget = cls(redis, keys, report_id, scope, limits, clock)
        budget._read_limits(replies[-1])
        return budget

    def _read_limits(self, values: list[object]) -> None:
        steps, seconds, usd = (text(v) for v in values)
        price = self.limits.price_usd  # not a limit: kept by whoever opened the budget
        self.limits = Limits(
            steps=int(float(steps)), seconds=float(seconds), usd=float(usd), price_usd=price
        )

    async def reserve(self, steps: int = 1, usd: float = 0.0) -> Reservation | Refusal:
        number = next(self._steps)
        key = f"{self._scope}:{number}"
        reply = await _RESERVE(self._redis, self._keys, [key, steps, repr(float(usd)), self._now()])
        outcome, detail = text(reply[0]), text(reply[1])
        self._read_limits(reply[2:5])
        if outcome == "refused":
            limit, why = detail.split("|", 1)
            return Refusal(limit, why)
        _, held_steps, held_usd = detail.split("|")
        return KeyedReservation(number, int(held_steps), float(held_usd), key=key)

    async def settle(
        self, reservation: Reservation, usd: float, usage: Usage | None = None
    ) -> None:
        key = (
            reservation.key
            if isinstance(reservation, KeyedReservation)
            else f"{self._scope}:{reservation.id}"
        )
        counts: list[str | int] = []
        for name, value in (usage or Usage()).model_dump().items():
            if value:
                counts += [name, int(value)]
        await _SETTLE(self._redis, self._keys, [key, repr(float(usd)), *counts])

    async def spend(self) -> Spend:
        reply = await _SPEND(self._redis, self._keys, [self._now()])
        steps, seconds, usd = (text(v) for v in reply[:3])
        self._read_limits(reply[3:6])
        fields = await awaited(self._redis.hgetall(self._keys[0]))
        usage = {
            text(name).removeprefix("usage:"): int(text(value))
            for name, value in fields.items()
            if text(name).startswith("usage:")
        }
        return Spend(
            steps=int(float(steps)),
            seconds=round(max(0.0, float(seconds)), 3),
            usd=max(0.0, float(usd)),
            usage=Usage(**usage),
        )

    async def stop(self, why: str) -> None:
        await awaited(self._redis.hsetnx(self._keys[0], "stopped", why))

    async def resume(self) -> None:
        """Lift a stop (a cancelled report being deepened): new steps may be reserved again."""
        await awaited(self._redis.hdel(self._keys[0], "stopped"))

    async def extend(self, top_up: Limits) -> None:
        await _EXTEND(
            self._redis,
            self._keys,
            [top_up.steps, repr(top_up.seconds), repr(top_up.usd)],
        )
        self.limits = Limits(
            steps=self.limits.steps + top_up.steps,
            seconds=self.limits.seconds + top_up.seconds,
            usd=self.limits.usd + top_up.usd,
            price_usd=self.limits.price_usd,
        )

    async def exhausted(self) -> Refusal | None:
        reply = await _EXHAUSTED(self._redis, self._keys, [self._now()])
        self._read_limits(reply[2:5])
        limit = text(reply[0])
        return Refusal(limit, text(reply[1])) if limit else None

    async def set_limits(self, limits: Limits) -> None:
        await awaited(
            self._redis.hset(
                self._keys[0],
                mapping={
                    "limit_steps": str(limits.steps),
                    "limit_seconds": repr(limits.seconds),
                    "limit_usd": repr(limits.usd),
                },
            )
        )
        self.limits = limits

    async def begin_run(self, run_id: str, alive_ttl: float = LEASE_SECONDS) -> None:
        """Start the wall clock for one run (a version of the report). A retried orchestrator
        job keeps the clock its first attempt started, minus the time between that attempt's
        last heartbeat and now: the crash is not charged. The clock stands still whenever
        the last heartbeat is older than `alive_ttl` (bot.redis.runs)."""
        await _BEGIN_RUN(self._redis, self._keys, [run_id, repr(float(alive_ttl)), self._now()])

    async def end_run(self, run_id: str) -> None:
        """Stop the clock, so the hours between a report and its follow-up are not spent."""
        await _END_RUN(self._redis, self._keys, [run_id, self._now()])
