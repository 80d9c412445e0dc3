"""The one event loop the browser lives on: a daemon thread of its own, started when first
needed, so that one Chromium serves every run of the process (each `fonte ask` or bot job
runs its own loop, and a browser driven from one loop cannot be driven from another), and
is closed when the process exits."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
_CLOSE_SECONDS = 10.0


class LoopThread:
    """Runs coroutines on its own loop, in a daemon thread; `at_exit` runs there last."""

    def __init__(self, name: str, at_exit: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self._name = name
        self._at_exit = at_exit
        self._loop: asyncio.AbstractEventLoop | None = None
        self._guard = threading.Lock()

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """`work`'s result, awaited from any loop; cancelling the caller cancels `work`."""
        future = asyncio.run_coroutine_threadsafe(work, self._started())
        return await asyncio.wrap_future(future)

    def _started(self) -> asyncio.AbstractEventLoop:
        with self._guard:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name=self._name, daemon=True).start()
                atexit.register(self._close, loop)
                self._loop = loop
            return self._loop

    def _close(self, loop: asyncio.AbstractEventLoop) -> None:
        with contextlib.suppress(Exception):  # exiting: the browser dies with the process
            asyncio.run_coroutine_threadsafe(self._at_exit(), loop).result(_CLOSE_SECONDS)
        loop.call_soon_threadsafe(loop.stop)
