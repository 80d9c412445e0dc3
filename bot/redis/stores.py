"""Where a report's board, budget and snapshots live: Redis (shared by workers) or memory
(the embedded bot). Flows ask for a report's research context and do not care which."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from arq.connections import ArqRedis

from bot.redis.board import RedisBoard
from bot.redis.budget import RedisBudget
from bot.redis.keys import Keys
from bot.redis.snapshots import RedisSnapshotStore
from engine import (
    Board,
    Budget,
    InMemoryBoard,
    InMemoryBudget,
    InMemorySnapshotStore,
    Limits,
    SnapshotStore,
)


@dataclass(frozen=True)
class ResearchContext:
    board: Board
    budget: Budget
    snapshots: SnapshotStore


class ResearchStores(Protocol):
    async def open(self, report_id: str, limits: Limits, scope: str) -> ResearchContext:
        """The report's context; `limits` apply when the report has no budget yet, `scope`
        names the budget reservations made through it (see RedisBudget)."""
        ...

    async def begin_run(self, report_id: str, version: int) -> None:
        """The wall clock of the budget runs from here (one version of the report)."""
        ...

    async def end_run(self, report_id: str, version: int) -> None: ...

    async def set_limits(self, report_id: str, limits: Limits) -> None:
        """New caps before the report starts (the user edited the plan)."""
        ...

    async def resume(self, report_id: str) -> None:
        """Lift the stop a cancel put on the report's budget, before it is deepened."""
        ...


class RedisResearchStores:
    def __init__(self, redis: ArqRedis, keys: Keys, ttl_seconds: int) -> None:
        self._redis = redis
        self._keys = keys
        self._ttl = ttl_seconds

    async def budget(self, report_id: str, limits: Limits, scope: str) -> RedisBudget:
        return await RedisBudget.open(self._redis, self._keys, report_id, scope, limits, self._ttl)

    async def open(self, report_id: str, limits: Limits, scope: str) -> ResearchContext:
        return ResearchContext(
            board=RedisBoard(self._redis, self._keys, report_id, self._ttl),
            budget=await self.budget(report_id, limits, scope),
            snapshots=RedisSnapshotStore(self._redis, self._keys, report_id, self._ttl),
        )

    async def begin_run(self, report_id: str, version: int) -> None:
        budget = await self.budget(report_id, Limits(), "clock")
        await budget.begin_run(f"v{version}")

    async def end_run(self, report_id: str, version: int) -> None:
        budget = await self.budget(report_id, Limits(), "clock")
        await budget.end_run(f"v{version}")

    async def set_limits(self, report_id: str, limits: Limits) -> None:
        budget = await self.budget(report_id, limits, "limits")
        await budget.set_limits(limits)

    async def resume(self, report_id: str) -> None:
        budget = await self.budget(report_id, Limits(), "resume")
        await budget.resume()


@dataclass
class RunClock:
    """Seconds a report has been running: paused between a report and its follow-up."""

    clock: Callable[[], float] = time.monotonic
    spent: float = 0.0
    started: float | None = None

    def __call__(self) -> float:
        running = 0.0 if self.started is None else self.clock() - self.started
        return self.spent + running

    def resume(self) -> None:
        if self.started is None:
            self.started = self.clock()

    def pause(self) -> None:
        if self.started is not None:
            self.spent += self.clock() - self.started
            self.started = None


class ResumableBudget(InMemoryBudget):
    """The engine's in-memory budget, plus lifting a stop (a cancelled report deepened)."""

    async def resume(self) -> None:
        async with self._lock:
            self._stopped = None


@dataclass
class _MemoryReport:
    context: ResearchContext
    clock: RunClock
    budget: ResumableBudget


@dataclass
class InMemoryResearchStores:
    reports: dict[str, _MemoryReport] = field(default_factory=dict)

    def _report(self, report_id: str, limits: Limits) -> _MemoryReport:
        if report_id not in self.reports:
            clock = RunClock()
            budget = ResumableBudget(limits, clock=clock)
            context = ResearchContext(InMemoryBoard(), budget, InMemorySnapshotStore())
            self.reports[report_id] = _MemoryReport(context, clock, budget)
        return self.reports[report_id]

    async def open(self, report_id: str, limits: Limits, scope: str) -> ResearchContext:
        return self._report(report_id, limits).context

    async def begin_run(self, report_id: str, version: int) -> None:
        self._report(report_id, Limits()).clock.resume()

    async def end_run(self, report_id: str, version: int) -> None:
        self._report(report_id, Limits()).clock.pause()

    async def set_limits(self, report_id: str, limits: Limits) -> None:
        self._report(report_id, limits).context.budget.limits = limits

    async def resume(self, report_id: str) -> None:
        await self._report(report_id, Limits()).budget.resume()
