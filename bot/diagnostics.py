"""What a running process is waiting on: each unfinished asyncio task with its stack.

`fonte worker` and `fonte bot` write it to their log on SIGUSR2 (`kill -USR2 <pid>`), so a
report that hangs in production (or in a fault bench) shows the await it is stuck on, which
a thread dump (only `select`) does not."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from typing import TextIO

HEADING = "unfinished asyncio tasks ---"
"""Ends the line that opens each dump: where a reader of the log finds the latest one."""


def dump_tasks(name: str, out: TextIO) -> int:
    """Write each unfinished task of any loop in the process, with its stack; the count."""
    # Every loop's, not only the running one's (`asyncio.all_tasks`): a timer thread calls it
    # too (tests.support.task_dump).
    every = asyncio.tasks._all_tasks  # type: ignore[attr-defined]
    tasks = [task for task in list(every) if not task.done()]
    out.write(f"\n--- {name}: {len(tasks)} {HEADING}\n")
    for task in tasks:
        try:
            task.print_stack(file=out)
        except Exception as error:  # a task finishing under us: say so, go on
            out.write(f"{task!r}: stack unreadable ({error})\n")
    out.flush()
    return len(tasks)


def dump_tasks_on_signal(name: str, sig: int = signal.SIGUSR2) -> None:
    """On `sig`, dump this process's tasks to stderr (where its log goes)."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
        loop.add_signal_handler(sig, lambda: dump_tasks(name, sys.stderr))
