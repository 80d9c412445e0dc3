"""Stopping a task for sure, when a callee may swallow its cancellation.

A cancellation can be lost inside a callee: Python 3.11's `asyncio.wait_for` (inside
redis-py's sends) returns a result that landed in the same turn as the cancel, and a library
may turn the CancelledError into an error that a retry loop catches. The task then goes on,
and whoever cancelled it and awaits it waits forever (a report whose progress loop swallowed
its cancel was never delivered: `tests/bot/test_redis_faults.py` caught it under a full
Redis). A task asked to stop keeps `cancelling()` above zero whatever its callees did with
the CancelledError, which is what both helpers read:

- `unless_cancelled`, asked at each turn of a loop, ends the loop of a task being
  cancelled;
- `stop_task` cancels a task and waits until it ended, cancelling it again while it runs.
"""

from __future__ import annotations

import asyncio
from typing import Any

RECANCEL_SECONDS = 0.5
"""How often a task still running after its cancel is cancelled again (`stop_task`, and a
stopping worker's jobs during its grace, `bot.worker`)."""


def unless_cancelled(error: BaseException | None = None) -> None:
    """Raise CancelledError (from `error`, the error a cancellation may have become) when
    the running task is being cancelled."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError from error


async def stop_task(task: asyncio.Task[Any], *, every: float = RECANCEL_SECONDS) -> None:
    """Cancel `task` and return once it ended; the error it ended with, other than its
    cancellation, is raised. While a callee swallowed the cancel and the task goes on, it
    is cancelled again every `every` seconds: a swallowed cancel delays the stop, never
    blocks it."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=every)
    if not task.cancelled():
        task.result()
