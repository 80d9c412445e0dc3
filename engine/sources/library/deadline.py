"""When building a library's index must stop: the run's time cap, read on a clock.

A run's time budget counts the whole run, the index build too, so a cold library whose
index cannot be finished within the cap stops being read when the cap is reached; what was
indexed by then is kept, and the next run goes on from there (`index.refresh`). The clock is
injected: a test hands a fake one, or a deadline already passed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Deadline:
    """The time `at` which reading stops, on `clock`'s time line (monotonic seconds)."""

    at: float
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def after(
        cls,
        seconds: float,
        *,
        started: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Deadline:
        """`seconds` after `started` (a reading of `clock`; now when None)."""
        return cls((clock() if started is None else started) + seconds, clock)

    def remaining(self) -> float:
        """Seconds left, 0 once passed."""
        return max(0.0, self.at - self.clock())

    def passed(self) -> bool:
        return self.clock() >= self.at


def passed(deadline: Deadline | None) -> bool:
    """Whether `deadline` is given and passed (None: no deadline, never passed)."""
    return deadline is not None and deadline.passed()
