"""One process at a time refreshes a folder's index: an exclusive `flock` on a lock file.

The lock is released by the kernel when its holder exits, even killed, so a crash never
leaves the index locked. Readers take no lock: they read a catalog that is only ever
replaced whole (see `catalog`). A wait for the lock ends at a deadline (the run's time cap):
another process's long build must not hold this run past its cap.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.sources.library.deadline import Deadline

LOCK_POLL_SECONDS = 0.1
"""How often a wait with a deadline tries the lock again."""


@contextmanager
def exclusive(
    path: Path, on_wait: Callable[[str], None], deadline: Deadline | None = None
) -> Iterator[bool]:
    """Hold the lock at `path` (created when missing), waiting for its holder if any, until
    `deadline`: True inside when held, False when the deadline passed first (not held)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if _try(descriptor):
            yield True
            return
        on_wait("waiting for another process refreshing this index")
        if deadline is None:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            yield True
            return
        while not deadline.passed():
            time.sleep(min(LOCK_POLL_SECONDS, deadline.remaining()))
            if _try(descriptor):
                yield True
                return
        yield False
    finally:
        os.close(descriptor)  # closing releases the lock


def _try(descriptor: int) -> bool:
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
