"""Slack's rate limits, kept by the bot before Slack has to: one window of calls per method
per workspace (per channel too, where the method's page says so), shared by every report of
a process and, through Redis, by every worker of the app.

"Broadly, you'll encounter limits like these, applied on a 'per API method per
workspace/team per app' basis": Tier 1 1+ per minute, Tier 2 20+, Tier 3 50+, Tier 4 100+,
and "special" tiers whose page says how: chat.postMessage "generally allows posting one
message per second per channel" (https://docs.slack.dev/apis/web-api/rate-limits). Past a
limit Slack answers HTTP 429 with `ratelimited` and a Retry-After of the seconds to wait.

So each call of a method listed in `PACES` first takes a slot in its window (the last
`seconds`, at most `calls` slots, less `margin`). A call that finds none:

- waits until one frees when it must go out (a report page, a final progress state, a file):
  it is never dropped, only later;
- is *coalesced* when it is a progress edit (inside `progress_call()`): it raises
  `Coalesced` at once, and the progress reporter shows its latest state at its next turn.
  Progress may also use only part of a window (`PROGRESS_SHARE`), so the calls that must go
  out find room even while several reports edit their progress.

A 429 that still comes (Slack's limits are floors, "50+", and its bursts are not
documented) holds the method in the workspace for its Retry-After (`Pacer.hold`): no call of
it goes out from any report or worker before then, instead of each meeting its own 429.

`RateWindows` holds the windows: `MemoryRateWindows` in one process (the embedded bot),
`bot.redis.rate_windows.RedisRateWindows` across workers; both take the time from the
pacer's injected clock, so tests move it by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from engine import DeliveryError


@dataclass(frozen=True)
class Pace:
    """A method's documented limit: `calls` in any `seconds`, per workspace (and per channel
    when `per_channel`), as `page` says."""

    calls: int
    seconds: float
    page: str
    per_channel: bool = False


RATE_LIMITS_PAGE = "https://docs.slack.dev/apis/web-api/rate-limits"
MINUTE = 60.0

PACES: dict[str, Pace] = {
    # Special: "one message per second per channel" (the rate-limits page; the method's
    # page: "Special rate limits apply").
    "chat.postMessage": Pace(
        1, 1.0, "https://docs.slack.dev/reference/methods/chat.postMessage", per_channel=True
    ),
    # Tier 3: 50+ per minute.
    "chat.update": Pace(50, MINUTE, "https://docs.slack.dev/reference/methods/chat.update"),
    # Tier 2: 20+ per minute.
    "chat.startStream": Pace(
        20, MINUTE, "https://docs.slack.dev/reference/methods/chat.startStream"
    ),
    # Tier 4: 100+ per minute.
    "chat.appendStream": Pace(
        100, MINUTE, "https://docs.slack.dev/reference/methods/chat.appendStream"
    ),
    # Tier 2: 20+ per minute.
    "chat.stopStream": Pace(20, MINUTE, "https://docs.slack.dev/reference/methods/chat.stopStream"),
    # Tier 4: 100+ per minute (one call per uploaded file, made inside files_upload_v2).
    "files.getUploadURLExternal": Pace(
        100, MINUTE, "https://docs.slack.dev/reference/methods/files.getUploadURLExternal"
    ),
}
"""The methods the bot calls often enough to meet their limit, with the tier each method's
page gives. A method not listed is not paced (Slack's 429, retried after its Retry-After,
still covers it)."""

PROGRESS_SHARE = 0.8
"""The part of a window progress edits may use; the rest is kept for what must go out."""
SLOT_MARGIN = 0.5
"""Seconds a slot is kept past its window: a call counted here at t reaches Slack a little
later (and another worker's clock may differ a little), and Slack's window must never see
more than the limit."""


class RateWindows(Protocol):
    """Where the windows are counted (memory, or Redis across workers)."""

    async def take(self, key: str, calls: int, seconds: float, now: float, held: str) -> float:
        """Take a slot of `key`'s window (at most `calls` slots taken in any `seconds`) at
        `now`, unless `held` is held past `now`: 0.0 when taken, else the seconds until one
        frees (nothing taken)."""
        ...

    async def hold(self, held: str, until: float) -> None:
        """No slot is taken under `held` before `until` (a later `until` wins)."""
        ...


class MemoryRateWindows:
    """The windows of one process: the time of each slot taken, per key."""

    def __init__(self) -> None:
        self._taken: dict[str, deque[float]] = {}
        self._held: dict[str, float] = {}

    async def hold(self, held: str, until: float) -> None:
        self._held[held] = max(until, self._held.get(held, until))

    async def take(self, key: str, calls: int, seconds: float, now: float, held: str) -> float:
        until = self._held.get(held, now)
        if until > now:
            return until - now
        taken = self._taken.setdefault(key, deque())
        while taken and taken[0] <= now - seconds:
            taken.popleft()
        if len(taken) < calls:
            taken.append(now)
            return 0.0
        return taken[len(taken) - calls] + seconds - now


class Coalesced(DeliveryError):
    """A progress edit that found no slot: not sent; the latest state goes out later (the
    progress reporter catches it; it never reaches an entry point)."""


_progress: contextvars.ContextVar[bool] = contextvars.ContextVar("slack_progress", default=False)


@contextlib.contextmanager
def progress_call() -> Iterator[None]:
    """The Slack calls made inside are progress edits: coalesced rather than kept waiting."""
    token = _progress.set(True)
    try:
        yield
    finally:
        _progress.reset(token)


def window_key(method: str, workspace: str, channel: str | None) -> str:
    """The window a call counts in: its method and workspace, and its channel for methods
    limited per channel. (Prefixed by the Redis store with `Keys.slack_rate_window`.)"""
    return f"{workspace}:{method}" if channel is None else f"{workspace}:{method}:{channel}"


Waiter = Callable[[float], Awaitable[None]]
"""How a call waits for its slot: `asyncio.sleep`, or a test clock's sleep."""


class Pacer:
    """Takes each paced call's slot before it goes out (see the module's docstring)."""

    def __init__(
        self,
        windows: RateWindows,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Waiter = asyncio.sleep,
        paces: dict[str, Pace] | None = None,
    ) -> None:
        self.windows = windows
        self.clock = clock
        self.sleep = sleep
        self.paces = PACES if paces is None else paces
        self.waited = 0.0
        """Seconds calls spent waiting for a slot (all calls together)."""
        self.coalesced = 0
        """Progress edits coalesced for want of a slot."""

    def paced(self, method: str) -> bool:
        return method in self.paces

    async def slot(self, method: str, workspace: str, channel: str | None = None) -> None:
        """Return once `method` may be called; raise `Coalesced` for a progress edit that
        would have to wait."""
        pace = self.paces.get(method)
        if pace is None:
            return
        key = window_key(method, workspace, channel if pace.per_channel else None)
        progress = _progress.get()
        calls = max(1, math.floor(pace.calls * PROGRESS_SHARE)) if progress else pace.calls
        seconds = pace.seconds + SLOT_MARGIN
        held = window_key(method, workspace, None)
        while True:
            wait = await self.windows.take(key, calls, seconds, self.clock(), held)
            if wait <= 0:
                return
            if progress:
                self.coalesced += 1
                raise Coalesced(f"{method}: no slot for {wait:.1f} s")
            self.waited += wait
            await self.sleep(wait)

    async def hold(self, method: str, workspace: str, seconds: float) -> None:
        """Slack answered `method` 429 with Retry-After `seconds`: hold it in the workspace
        (every channel) until then, for every report and worker."""
        if method in self.paces and seconds > 0:
            await self.windows.hold(window_key(method, workspace, None), self.clock() + seconds)
