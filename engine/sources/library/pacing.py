"""Progress lines paced for a reader without a terminal (a log, a pipe, `docker logs`).

A terminal shows the latest progress message in place; a log would get one line per file
read, thousands of them. `Paced` passes the first message, then at most one every `every`
seconds of its clock (a test hands a fake one): a line every few seconds saying how far the
index build got, also while one large file takes long (the readers say so meanwhile).
"""

from __future__ import annotations

import time
from collections.abc import Callable

PROGRESS_SECONDS = 5.0
"""How often a log hears how far an index build got."""


class Paced:
    def __init__(
        self,
        report: Callable[[str], None],
        every: float = PROGRESS_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._report = report
        self._every = every
        self._clock = clock
        self._last: float | None = None

    def __call__(self, message: str) -> None:
        now = self._clock()
        if self._last is not None and now - self._last < self._every:
            return
        self._last = now
        self._report(message)
