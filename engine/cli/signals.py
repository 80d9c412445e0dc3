"""SIGTERM while `fonte` works outside its event loop (opening a library, building its index).

Once research runs, `ask` answers SIGINT and SIGTERM on its event loop. Before that the work
is synchronous: Ctrl-C raises KeyboardInterrupt wherever it is, and within
`terminate_as_interrupt` SIGTERM (`docker stop`, `timeout`) does the same instead of killing
the process outright, so the index's worker processes are terminated with it rather than
left behind, parsing, without a parent.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt in the main thread while inside; elsewhere (signal
    handlers belong to the main thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
