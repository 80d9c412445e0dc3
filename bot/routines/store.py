"""Routines and their history: in Redis for workers, in memory for the embedded bot.

A routine is a brief the bot researches again once per period (bot.routines.schedule) in
the channel or DM it was made in, posting only what changed. It is kept with its own
retention (FONTE_ROUTINE_DAYS, default 90), counted from its last change: a routine that
runs is written each period and stays; one paused and forgotten goes by itself. Its history
(the last runs, newest first) and its baseline (the report the next run is compared with)
live as long. `forget_channel` removes a channel's routines, with their history and
baseline, when the channel's data goes (the channel deleted, the bot removed from it).

The channel's monthly cap is kept here too: each run reserves its budget (its template's
price per run) against the channel's month before it researches, and settles what it spent
after; a run again after a crash finds its reservation and is not charged twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from datetime import datetime
from typing import Literal, Protocol

from arq.connections import ArqRedis
from pydantic import BaseModel, ConfigDict, Field

from bot.redis.connection import LuaScript, awaited, text, watched_update
from bot.redis.keys import Keys
from bot.routines.schedule import Frequency, month_of, next_start
from engine import Language, Plan, Report, utc_now

__all__ = [
    "HISTORY_KEPT",
    "InMemoryRoutines",
    "RedisRoutines",
    "Result",
    "Routine",
    "RoutineChange",
    "RoutineStore",
    "RunRecord",
]

Result = Literal["first", "no_change", "changed", "failed", "over_cap"]
"""What a period's run ended with: `first` is the report the routine was made from."""

HISTORY_KEPT = 100
"""Runs kept in a routine's history (its newest)."""


class RunRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    period: str
    result: Result
    at: datetime = Field(default_factory=utc_now)
    changes: int = 0
    usd: float = 0.0


class Routine(BaseModel):
    model_config = ConfigDict(extra="forbid")

    routine_id: str
    channel: str
    thread_ts: str | None
    """The thread of the report it was made from, where its runs post (else a new message)."""
    requester: str
    is_dm: bool = False
    question: str
    language: Language
    template: str | None = None
    frequency: Frequency
    report_id: str
    """The report it was made from: its first run, and the baseline until a run changes."""
    plan: Plan | None = None
    created_at: datetime = Field(default_factory=utc_now)
    claimed_at: datetime
    """When the period last run was claimed (at first, when the routine was made)."""
    period: str
    """The period last claimed: its run's job and message are named after it."""
    done: str | None = None
    """The last period whose run ended (in any result)."""
    paused: bool = False
    failures: int = 0
    """Failed runs in a row; three pause the routine."""
    told_paused: bool = False
    told_cap: str | None = None
    """The month the requester was told the channel's cap stopped a run (told once)."""
    last: RunRecord | None = None
    version: int = 1
    """The report version its files carry: the source report's, one more per changed run."""
    posting: str | None = None
    """The period whose message is being posted: set before the post, so a run again after a
    crash looks in the thread first."""
    posted: str | None = None
    """The last period whose message reached Slack."""
    files_posting: str | None = None
    """The period whose files are being uploaded (looked for in the thread after a crash)."""
    spend: dict[str, float] = Field(default_factory=dict)
    """US$ spent by month ("2026-12")."""

    def may_change(self, user: str, admins: Collection[str] = ()) -> bool:
        """Pause, resume, frequency and delete are the requester's and the admins'; a DM's
        routine is its requester's alone."""
        return user == self.requester or (not self.is_dm and user in admins)

    @property
    def next_run(self) -> datetime:
        return next_start(self.frequency, self.claimed_at)

    def spent_in(self, moment: datetime) -> float:
        return self.spend.get(month_of(moment), 0.0)


RoutineChange = Callable[[Routine], Routine | None]
"""Returns the new routine, or None to leave it as it is."""


class RoutineStore(Protocol):
    async def create(self, routine: Routine) -> bool:
        """Keep a new routine; False when one with its id exists (that report is watched)."""
        ...

    async def get(self, routine_id: str) -> Routine | None: ...

    async def update(self, routine_id: str, change: RoutineChange) -> tuple[Routine | None, bool]:
        """Apply `change` atomically; the routine after it (None when unknown) and whether
        it changed."""
        ...

    async def of_channel(self, channel: str) -> list[Routine]:
        """The channel's routines, oldest first."""
        ...

    async def every(self) -> list[Routine]: ...

    async def delete(self, routine_id: str) -> bool:
        """Remove the routine, its history and its baseline; False when it was gone."""
        ...

    async def forget_channel(self, channel: str) -> int:
        """Remove every routine of `channel` (the channel's data goes); how many."""
        ...

    async def record(self, routine_id: str, run: RunRecord) -> None:
        """Add a run to the routine's history."""
        ...

    async def history(self, routine_id: str) -> list[RunRecord]:
        """The routine's runs kept, newest first."""
        ...

    async def save_baseline(self, routine_id: str, report: Report) -> None: ...

    async def baseline(self, routine_id: str) -> Report | None: ...

    async def save_run_report(self, routine_id: str, period: str, report: Report) -> None: ...

    async def run_report(self, routine_id: str, period: str) -> Report | None: ...

    async def reserve(self, channel: str, month: str, run: str, usd: float, cap: float) -> bool:
        """Hold `usd` of the channel's monthly `cap` for `run`; False when it does not fit.
        True again for a run that already holds its reservation."""
        ...

    async def settle(self, channel: str, month: str, run: str, usd: float) -> None:
        """Replace `run`'s reservation by what it spent (once; again, nothing changes)."""
        ...

    async def spent(self, channel: str, month: str) -> float:
        """The channel's routine spend in `month`, reservations of runs under way included."""
        ...


_RESERVE = LuaScript(
    """
if redis.call('HEXISTS', KEYS[1], 'r:' .. ARGV[1]) == 1 then return 1 end
local total = tonumber(redis.call('HGET', KEYS[1], 'total') or '0')
if total + tonumber(ARGV[2]) > tonumber(ARGV[3]) + 1e-9 then return 0 end
redis.call('HSET', KEYS[1], 'r:' .. ARGV[1], ARGV[2])
redis.call('HINCRBYFLOAT', KEYS[1], 'total', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""
)

_SETTLE = LuaScript(
    """
if redis.call('HEXISTS', KEYS[1], 's:' .. ARGV[1]) == 1 then return 0 end
local held = tonumber(redis.call('HGET', KEYS[1], 'r:' .. ARGV[1]) or '0')
redis.call('HINCRBYFLOAT', KEYS[1], 'total', tonumber(ARGV[2]) - held)
redis.call('HSET', KEYS[1], 's:' .. ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""
)

_SPEND_KEPT_SECONDS = 62 * 24 * 3600
"""A month's spend is kept into the next month (the listing shows it), then goes."""


class RedisRoutines:
    def __init__(self, redis: ArqRedis, keys: Keys, ttl_seconds: int) -> None:
        self._redis = redis
        self._keys = keys
        self._ttl = ttl_seconds

    async def create(self, routine: Routine) -> bool:
        key = self._keys.routine(routine.routine_id)
        created = await awaited(
            self._redis.set(key, routine.model_dump_json(), nx=True, ex=self._ttl)
        )
        if not created:
            return False
        await self._index(routine)
        return True

    async def _index(self, routine: Routine) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            for index in (self._keys.routines, self._keys.channel_routines(routine.channel)):
                pipe.sadd(index, routine.routine_id)
                pipe.expire(index, self._ttl)
            await pipe.execute()

    async def get(self, routine_id: str) -> Routine | None:
        raw = await awaited(self._redis.get(self._keys.routine(routine_id)))
        return None if raw is None else Routine.model_validate_json(raw)

    async def update(self, routine_id: str, change: RoutineChange) -> tuple[Routine | None, bool]:
        def changed(raw: str) -> str | None:
            after = change(Routine.model_validate_json(raw))
            return None if after is None else after.model_dump_json()

        key = self._keys.routine(routine_id)
        raw, happened = await watched_update(self._redis, key, changed, self._ttl)
        routine = None if raw is None else Routine.model_validate_json(raw)
        if routine is not None and happened:
            await self._index(routine)  # the indexes live as long as their newest routine
        return routine, happened

    async def _of(self, index: str) -> list[Routine]:
        ids = sorted(text(raw) for raw in await awaited(self._redis.smembers(index)))
        if not ids:
            return []
        raws = await awaited(self._redis.mget([self._keys.routine(i) for i in ids]))
        gone = [routine_id for routine_id, raw in zip(ids, raws, strict=True) if raw is None]
        if gone:  # expired routines leave the index as it is read
            await awaited(self._redis.srem(index, *gone))
        routines = [Routine.model_validate_json(raw) for raw in raws if raw is not None]
        return sorted(routines, key=lambda r: r.created_at)

    async def of_channel(self, channel: str) -> list[Routine]:
        return await self._of(self._keys.channel_routines(channel))

    async def every(self) -> list[Routine]:
        return await self._of(self._keys.routines)

    async def delete(self, routine_id: str) -> bool:
        routine = await self.get(routine_id)
        if routine is None:
            return False
        await self._remove([routine])
        return True

    async def _remove(self, routines: list[Routine]) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            for routine in routines:
                rid = routine.routine_id
                pipe.delete(
                    self._keys.routine(rid),
                    self._keys.routine_history(rid),
                    self._keys.routine_baseline(rid),
                )
                pipe.srem(self._keys.routines, rid)
                pipe.srem(self._keys.channel_routines(routine.channel), rid)
            await pipe.execute()
        # A period's saved run report goes too (a run under way then finds no routine).
        for routine in routines:
            pattern = self._keys.routine_run_report(routine.routine_id, "*")
            stale = [key async for key in self._redis.scan_iter(match=pattern, count=100)]
            if stale:
                await awaited(self._redis.delete(*stale))

    async def forget_channel(self, channel: str) -> int:
        routines = await self.of_channel(channel)
        await self._remove(routines)
        await awaited(self._redis.delete(self._keys.channel_routines(channel)))
        spends = self._keys.routine_spend(channel, "*")
        stale = [key async for key in self._redis.scan_iter(match=spends, count=100)]
        if stale:
            await awaited(self._redis.delete(*stale))
        return len(routines)

    async def record(self, routine_id: str, run: RunRecord) -> None:
        key = self._keys.routine_history(routine_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.lpush(key, run.model_dump_json())
            pipe.ltrim(key, 0, HISTORY_KEPT - 1)
            pipe.expire(key, self._ttl)
            await pipe.execute()

    async def history(self, routine_id: str) -> list[RunRecord]:
        raws = await awaited(self._redis.lrange(self._keys.routine_history(routine_id), 0, -1))
        return [RunRecord.model_validate_json(raw) for raw in raws]

    async def save_baseline(self, routine_id: str, report: Report) -> None:
        key = self._keys.routine_baseline(routine_id)
        await awaited(self._redis.set(key, report.model_dump_json(), ex=self._ttl))

    async def baseline(self, routine_id: str) -> Report | None:
        raw = await awaited(self._redis.get(self._keys.routine_baseline(routine_id)))
        return None if raw is None else Report.model_validate_json(raw)

    async def save_run_report(self, routine_id: str, period: str, report: Report) -> None:
        key = self._keys.routine_run_report(routine_id, period)
        await awaited(self._redis.set(key, report.model_dump_json(), ex=self._ttl))

    async def run_report(self, routine_id: str, period: str) -> Report | None:
        raw = await awaited(self._redis.get(self._keys.routine_run_report(routine_id, period)))
        return None if raw is None else Report.model_validate_json(raw)

    async def reserve(self, channel: str, month: str, run: str, usd: float, cap: float) -> bool:
        key = self._keys.routine_spend(channel, month)
        held = await _RESERVE(self._redis, [key], [run, usd, cap, _SPEND_KEPT_SECONDS])
        return bool(held)

    async def settle(self, channel: str, month: str, run: str, usd: float) -> None:
        key = self._keys.routine_spend(channel, month)
        await _SETTLE(self._redis, [key], [run, usd, _SPEND_KEPT_SECONDS])

    async def spent(self, channel: str, month: str) -> float:
        raw = await awaited(self._redis.hget(self._keys.routine_spend(channel, month), "total"))
        return 0.0 if raw is None else max(0.0, float(text(raw)))


class InMemoryRoutines:
    """The embedded bot's routines: in this process only (one process: a lock is enough)."""

    def __init__(self) -> None:
        self._routines: dict[str, Routine] = {}
        self._history: dict[str, list[RunRecord]] = {}
        self._baselines: dict[str, Report] = {}
        self._runs: dict[tuple[str, str], Report] = {}
        self._spend: dict[tuple[str, str], dict[str, float]] = {}
        self._lock = asyncio.Lock()

    async def create(self, routine: Routine) -> bool:
        async with self._lock:
            if routine.routine_id in self._routines:
                return False
            self._routines[routine.routine_id] = routine.model_copy(deep=True)
            return True

    async def get(self, routine_id: str) -> Routine | None:
        routine = self._routines.get(routine_id)
        return None if routine is None else routine.model_copy(deep=True)

    async def update(self, routine_id: str, change: RoutineChange) -> tuple[Routine | None, bool]:
        async with self._lock:
            current = self._routines.get(routine_id)
            if current is None:
                return None, False
            changed = change(current.model_copy(deep=True))
            if changed is None:
                return current.model_copy(deep=True), False
            self._routines[routine_id] = changed.model_copy(deep=True)
            return changed, True

    async def of_channel(self, channel: str) -> list[Routine]:
        return [r for r in await self.every() if r.channel == channel]

    async def every(self) -> list[Routine]:
        routines = [r.model_copy(deep=True) for r in self._routines.values()]
        return sorted(routines, key=lambda r: r.created_at)

    async def delete(self, routine_id: str) -> bool:
        routine = self._routines.pop(routine_id, None)
        self._history.pop(routine_id, None)
        self._baselines.pop(routine_id, None)
        for key in [key for key in self._runs if key[0] == routine_id]:
            del self._runs[key]
        return routine is not None

    async def forget_channel(self, channel: str) -> int:
        routines = await self.of_channel(channel)
        for routine in routines:
            await self.delete(routine.routine_id)
        for key in [key for key in self._spend if key[0] == channel]:
            del self._spend[key]
        return len(routines)

    async def record(self, routine_id: str, run: RunRecord) -> None:
        history = self._history.setdefault(routine_id, [])
        history.insert(0, run)
        del history[HISTORY_KEPT:]

    async def history(self, routine_id: str) -> list[RunRecord]:
        return list(self._history.get(routine_id, []))

    async def save_baseline(self, routine_id: str, report: Report) -> None:
        self._baselines[routine_id] = report

    async def baseline(self, routine_id: str) -> Report | None:
        return self._baselines.get(routine_id)

    async def save_run_report(self, routine_id: str, period: str, report: Report) -> None:
        self._runs[(routine_id, period)] = report

    async def run_report(self, routine_id: str, period: str) -> Report | None:
        return self._runs.get((routine_id, period))

    async def reserve(self, channel: str, month: str, run: str, usd: float, cap: float) -> bool:
        async with self._lock:
            spend = self._spend.setdefault((channel, month), {"total": 0.0})
            if f"r:{run}" in spend:
                return True
            if spend["total"] + usd > cap + 1e-9:
                return False
            spend[f"r:{run}"] = usd
            spend["total"] += usd
            return True

    async def settle(self, channel: str, month: str, run: str, usd: float) -> None:
        async with self._lock:
            spend = self._spend.setdefault((channel, month), {"total": 0.0})
            if f"s:{run}" in spend:
                return
            spend["total"] += usd - spend.get(f"r:{run}", 0.0)
            spend[f"s:{run}"] = usd

    async def spent(self, channel: str, month: str) -> float:
        return max(0.0, self._spend.get((channel, month), {}).get("total", 0.0))
