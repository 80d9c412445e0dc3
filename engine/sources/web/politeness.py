"""Politeness per host: at most N requests at a time, and starts spaced by a delay."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

# A site's Crawl-delay is honoured up to this: a research run cannot wait minutes per page.
MAX_CRAWL_DELAY = 5.0


class HostGate:
    """`clock` tells the time and `sleep` waits for it (the real ones unless a test passes
    its own, which must agree with each other)."""

    def __init__(
        self,
        per_host: int,
        delay: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if per_host < 1:
            raise ValueError("per_host must be 1 or more")
        self.per_host = per_host
        self.delay = delay
        self._clock = clock
        self._sleep = sleep
        self._semaphores: dict[str, asyncio.Semaphore] = {}
        self._next_start: dict[str, float] = {}
        self._delays: dict[str, float] = {}

    def ask_for_delay(self, host: str, seconds: float) -> None:
        """A site's own Crawl-delay: applied when longer than ours, up to MAX_CRAWL_DELAY."""
        self._delays[host.lower()] = min(max(seconds, self.delay), MAX_CRAWL_DELAY)

    @asynccontextmanager
    async def turn(self, host: str) -> AsyncIterator[None]:
        """Hold one of the host's request slots, once its delay since the last start is over."""
        key = host.lower()
        semaphore = self._semaphores.setdefault(key, asyncio.Semaphore(self.per_host))
        async with semaphore:
            now = self._clock()
            start = max(now, self._next_start.get(key, now))
            # Book the start before sleeping, so concurrent waiters queue one delay apart.
            self._next_start[key] = start + self._delays.get(key, self.delay)
            if start > now:
                await self._sleep(start - now)
            yield
