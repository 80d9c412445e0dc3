"""What a stuck test was waiting for: every unfinished asyncio task's stack, written to the
real stderr when a test runs past a limit. `faulthandler_timeout` (pyproject) dumps the
threads, where an event loop stuck on an await shows only `select`; this shows the awaits."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

import pytest
from _pytest.faulthandler import fault_handler_stderr_fd_key

from bot.diagnostics import dump_tasks

DUMP_AFTER_SECONDS = 280.0
"""Before faulthandler's 300 s (pyproject), so both dumps are there to read."""


def uncaptured_stderr(config: pytest.Config) -> int | None:
    """The stderr pytest keeps for faulthandler, whose output it does not capture (a test's
    own stderr is captured, and a stuck test never shows it); None when faulthandler is off."""
    return config.stash.get(fault_handler_stderr_fd_key, None)


@contextmanager
def tasks_dumped_if_stuck(
    name: str, after: float = DUMP_AFTER_SECONDS, out: TextIO | int | None = None
) -> Iterator[threading.Timer]:
    """While the body runs, a timer that dumps the tasks to `out` (a stream, or a file
    descriptor opened only then; the real stderr by default) if it is still running `after`
    seconds on (a daemon thread; cancelled when the body ends)."""

    def dump() -> None:
        if isinstance(out, int):
            with os.fdopen(os.dup(out), "w") as stream:
                dump_tasks(name, stream)
        else:
            dump_tasks(name, out or sys.__stderr__ or sys.stderr)

    timer = threading.Timer(after, dump)
    timer.daemon = True
    timer.start()
    try:
        yield timer
    finally:
        timer.cancel()
