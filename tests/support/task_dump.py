"""What a stuck test was waiting for: every unfinished asyncio task's stack, written to the
real stderr when a test runs past a limit. `faulthandler_timeout` (pyproject) dumps the
threads, where an event loop stuck on an await shows only `select`; this shows the awaits."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

DUMP_AFTER_SECONDS = 280.0
"""Before faulthandler's 300 s (pyproject), so both dumps are there to read."""


def dump_tasks(name: str, out: TextIO) -> int:
    """Write each unfinished task of any loop in the process, with its stack; the count."""
    tasks = [task for task in list(asyncio.tasks._all_tasks) if not task.done()]
    out.write(f"\n--- {name}: {len(tasks)} unfinished asyncio tasks ---\n")
    for task in tasks:
        try:
            task.print_stack(file=out)
        except Exception as error:  # a task finishing under us: say so, go on
            out.write(f"{task!r}: stack unreadable ({error})\n")
    out.flush()
    return len(tasks)


@contextmanager
def tasks_dumped_if_stuck(
    name: str, after: float = DUMP_AFTER_SECONDS, out: TextIO | None = None
) -> Iterator[threading.Timer]:
    """While the body runs, a timer that dumps the tasks to `out` (the real stderr) if it is
    still running `after` seconds on (a daemon thread; cancelled when the body ends)."""
    timer = threading.Timer(after, dump_tasks, args=(name, out or sys.__stderr__ or sys.stderr))
    timer.daemon = True
    timer.start()
    try:
        yield timer
    finally:
        timer.cancel()
