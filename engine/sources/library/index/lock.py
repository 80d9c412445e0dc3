"""One process at a time refreshes a folder's index: an exclusive `flock` on a lock file.

The lock is released by the kernel when its holder exits, even killed, so a crash never
leaves the index locked. Readers take no lock: they read a catalog that is only ever
replaced whole (see `catalog`).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def exclusive(path: Path, on_wait: Callable[[str], None]) -> Iterator[None]:
    """Hold the lock at `path` (created when missing), waiting for its holder if any."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait("waiting for another process refreshing this index")
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock
