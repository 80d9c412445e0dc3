"""One budget for the whole tree of agents: steps, wall seconds and money.

Every step reserves before it starts. A reservation that would cross a limit is refused, so
agents running at the same time cannot overshoot together. Money is reserved at an estimate
and settled at the actual cost afterwards; steps are spent once started.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.contracts import Limits, Spend


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


class Budget(Protocol):
    limits: Limits

    async def reserve(self, steps: int = 1, usd: float = 0.0) -> Reservation | Refusal: ...

    async def settle(self, reservation: Reservation, usd: float) -> None: ...

    async def spend(self) -> Spend: ...

    async def stop(self, why: str) -> None:
        """Refuse every further reservation (user cancel, Ctrl-C)."""
        ...

    async def exhausted(self) -> Refusal | None:
        """The reason no new step may start, or None while the budget has room."""
        ...


class InMemoryBudget:
    """The budget of one report inside one process."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._started = clock()
        self._lock = asyncio.Lock()
        self._ids = itertools.count(1)
        self._steps = 0
        self._usd_settled = 0.0
        self._usd_reserved: dict[int, float] = {}
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

    async def settle(self, reservation: Reservation, usd: float) -> None:
        async with self._lock:
            if self._usd_reserved.pop(reservation.id, None) is None:
                return  # settled already: settling is idempotent
            self._usd_settled += usd

    async def spend(self) -> Spend:
        async with self._lock:
            usd = self._usd_settled + sum(self._usd_reserved.values())
            return Spend(steps=self._steps, seconds=round(self._seconds(), 3), usd=usd)

    async def stop(self, why: str) -> None:
        async with self._lock:
            self._stopped = self._stopped or why

    async def exhausted(self) -> Refusal | None:
        async with self._lock:
            if self._first_refusal is not None:
                return self._first_refusal
            refusal = self._would_cross(1, 0.0)
            if refusal is not None:
                self._first_refusal = refusal
            return refusal
