"""A clock the test moves by hand, with a sleep that waits on it instead of on real time.

Code that measures or waits for time takes a clock (and a sleep) it calls; a test hands it a
`FakeClock` and its `sleep`, so what the code computes from time is exact however busy the
machine is, and nothing waits in real time: a sleeper wakes when the test `advance`s the
clock past its wake-up time, never before.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self.sleeps: list[float] = []
        """Every duration `sleep` was asked for, in order."""
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on and wake every sleeper whose time has come."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self.now += seconds
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, woken = heapq.heappop(self._sleepers)
            if not woken.done():
                woken.set_result(None)

    async def sleep(self, seconds: float) -> None:
        """`asyncio.sleep` on this clock: returns once the clock reached now + `seconds`."""
        self.sleeps.append(seconds)
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._order), woken))
        await woken

    @property
    def wake_times(self) -> list[float]:
        """When the sleepers still waiting wake up, earliest first."""
        return sorted(at for at, _, woken in self._sleepers if not woken.done())

    async def until_sleeping(self, count: int, within: float = 30.0) -> None:
        """Wait (in real time, generously: it will happen) until `count` sleepers wait."""
        await until(lambda: len(self.wake_times) >= count, within, f"{count} sleepers")


async def until(check: Callable[[], bool], within: float = 30.0, what: str = "condition") -> None:
    """Poll `check` until it holds; fail after `within` real seconds (a generous bound for
    something that will happen, not a measurement)."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened within {within} s: {what}")
        await asyncio.sleep(0.005)


async def run_clock(clock: FakeClock, seconds: float, step: float = 0.1) -> None:
    """Move `clock` on by `seconds`, `step` at a time, letting the loop run between steps (a
    real millisecond each), so what the sleepers do at one step (a call to a loopback
    stand-in, a new sleep) happens before the next: time passes in order, however busy the
    machine is, and the test never waits for it in real time."""
    end = clock.now + seconds
    while clock.now < end:
        clock.advance(min(step, end - clock.now))
        await asyncio.sleep(0.001)


class CountingExecutor(concurrent.futures.ThreadPoolExecutor):
    """A loop's default executor (`asyncio.to_thread`, `run_in_executor(None, …)`) that
    counts the calls still running, so a clock can stand still while threads work."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self.busy = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            self.busy += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _: Future[Any]) -> None:
        with self._lock:
            self.busy -= 1


async def run_clock_while_idle(
    clock: FakeClock, stop: asyncio.Event, threads: CountingExecutor, step: float = 0.01
) -> None:
    """Move `clock` on by `step` each turn of the loop until `stop` is set, standing still
    while a thread of `threads` works: a render or a file read that takes a busy machine a
    real second takes no time on the clock, so what the test measures on it (calls that
    meet within a rate window) is the same however fast the machine is."""
    while not stop.is_set():
        if threads.busy:
            await asyncio.sleep(0.001)
            continue
        clock.advance(step)
        await asyncio.sleep(0.001)
