"""One budget for the whole tree of agents: steps, wall seconds and money.

Every step reserves before it starts. A reservation that would cross a limit is refused, so
agents running at the same time cannot overshoot together. Money is reserved at an estimate
and settled at the actual cost afterwards; steps are spent once started.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from engine.contracts import Limits, Spend, Usage
from engine.errors import BudgetError


@dataclass(frozen=True)
class Reservation:
    id: int
    steps: int
    usd: float


@dataclass(frozen=True)
class Refusal:
    """Why a reservation was refused: the limit that would be crossed."""

    limit: str  # "steps" | "seconds" | "usd" | "stopped"
    detail: str


class StepRefused(BudgetError):
    """No further step may start: the shared budget (or an agent's own cap) is reached."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"{refusal.limit}: {refusal.detail}")
        self.refusal = refusal


class Budget(Protocol):
    limits: Limits

    async def reserve(self, steps: int = 1, usd: float = 0.0) -> Reservation | Refusal: ...

    async def settle(
        self, reservation: Reservation, usd: float, usage: Usage | None = None
    ) -> None:
        """Replace the reservation's estimate with the actual cost (idempotent)."""
        ...

    async def spend(self) -> Spend: ...

    async def stop(self, why: str) -> None:
        """Refuse every further reservation (user cancel, Ctrl-C)."""
        ...

    async def extend(self, top_up: Limits) -> None:
        """Raise every limit by `top_up` (a follow-up deepening a report) and clear a
        refusal that the new room resolves; a stop stays a stop."""
        ...

    async def exhausted(self) -> Refusal | None:
        """The reason no new step may start, or None while the budget has room."""
        ...


class InMemoryBudget:
    """The budget of one report inside one process.

    Its seconds run from `started` (a reading of `clock`) when given: the run began before
    its budget existed (`fonte ask` opening, and perhaps first indexing, its library), and
    that time is spent too, counted against the cap and recorded in the report's spend."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
        *,
        started: float | None = None,
    ) -> None:
        self.limits = limits
        self._clock = clock
        self._started = clock() if started is None else min(started, clock())
        self._lock = asyncio.Lock()
        self._ids = itertools.count(1)
        self._steps = 0
        self._usd_settled = 0.0
        self._usd_reserved: dict[int, float] = {}
        self._usage = Usage()
        self._stopped: str | None = None
        self._first_refusal: Refusal | None = None

    def _seconds(self) -> float:
        return self._clock() - self._started

    def _would_cross(self, steps: int, usd: float) -> Refusal | None:
        if self._stopped is not None:
            return Refusal("stopped", self._stopped)
        elapsed = self._seconds()
        if elapsed >= self.limits.seconds:
            return Refusal("seconds", f"{elapsed:.0f} s of {self.limits.seconds:.0f} s used")
        if self._steps + steps > self.limits.steps:
            return Refusal("steps", f"{self._steps} of {self.limits.steps} steps used")
        committed = self._usd_settled + sum(self._usd_reserved.values())
        if committed + usd > self.limits.usd + 1e-12:
            return Refusal("usd", f"${committed:.4f} of ${self.limits.usd:.2f} committed")
        return None

    async def reserve(self, steps: int = 1, usd: float = 0.0) -> Reservation | Refusal:
        async with self._lock:
            refusal = self._would_cross(steps, usd)
            if refusal is not None:
                self._first_refusal = self._first_refusal or refusal
                return refusal
            reservation = Reservation(next(self._ids), steps, usd)
            self._steps += steps
            self._usd_reserved[reservation.id] = usd
            return reservation

    async def settle(
        self, reservation: Reservation, usd: float, usage: Usage | None = None
    ) -> None:
        async with self._lock:
            if self._usd_reserved.pop(reservation.id, None) is None:
                return  # settled already: settling is idempotent
            self._usd_settled += usd
            if usage is not None:
                self._usage = self._usage + usage

    async def spend(self) -> Spend:
        async with self._lock:
            usd = self._usd_settled + sum(self._usd_reserved.values())
            seconds = round(self._seconds(), 3)
            return Spend(steps=self._steps, seconds=seconds, usd=usd, usage=self._usage)

    async def stop(self, why: str) -> None:
        async with self._lock:
            self._stopped = self._stopped or why

    async def extend(self, top_up: Limits) -> None:
        async with self._lock:
            self.limits = Limits(
                steps=self.limits.steps + top_up.steps,
                seconds=self.limits.seconds + top_up.seconds,
                usd=self.limits.usd + top_up.usd,
                price_usd=self.limits.price_usd,
            )
            self._first_refusal = None

    async def exhausted(self) -> Refusal | None:
        async with self._lock:
            if self._first_refusal is not None:
                return self._first_refusal
            refusal = self._would_cross(1, 0.0)
            if refusal is not None:
                self._first_refusal = refusal
            return refusal


class PausableClock:
    """A monotonic clock that stands still while `paused`: the minutes a user takes to
    answer a clarifying question at the terminal are not the run's, though the run's one
    budget already exists. Its readings are `clock`'s less the time spent paused, so a
    reading of `clock` taken before any pause (`InMemoryBudget(started=...)`) stays valid."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._paused_for = 0.0
        self._paused_at: float | None = None

    def __call__(self) -> float:
        now = self._clock() if self._paused_at is None else self._paused_at
        return now - self._paused_for

    @contextmanager
    def paused(self) -> Iterator[None]:
        if self._paused_at is not None:  # already paused: the outer pause counts
            yield
            return
        self._paused_at = self._clock()
        try:
            yield
        finally:
            self._paused_for += self._clock() - self._paused_at
            self._paused_at = None


class Meter:
    """A model's access to the budget for its own calls: reserve before, settle after.

    `prepaid` is a reservation made earlier on the model's behalf (the orchestrator reserves
    the writer's call at the start, so research cannot spend the money the report needs).
    """

    def __init__(self, budget: Budget, prepaid: Reservation | None = None) -> None:
        self.budget = budget
        self._prepaid = prepaid

    async def model_step(self, usd_estimate: float) -> Reservation:
        prepaid, self._prepaid = self._prepaid, None
        if prepaid is not None and usd_estimate <= prepaid.usd + 1e-12:
            return prepaid
        steps = 1
        if prepaid is not None:  # the step is paid for; only the money needs topping up
            await self.budget.settle(prepaid, 0.0)
            steps = 0
        outcome = await self.budget.reserve(steps=steps, usd=usd_estimate)
        if isinstance(outcome, Refusal):
            raise StepRefused(outcome)
        return outcome

    async def settle(
        self, reservation: Reservation, usd: float, usage: Usage | None = None
    ) -> None:
        await self.budget.settle(reservation, usd, usage)

    async def release(self) -> None:
        """Give back a prepaid reservation that was not used."""
        prepaid, self._prepaid = self._prepaid, None
        if prepaid is not None:
            await self.budget.settle(prepaid, 0.0)
