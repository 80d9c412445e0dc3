"""One progress message per run, edited in place with chat.update at most every few seconds.

Events arrive far faster than Slack accepts edits (a run verifies dozens of claims a
second), so they are folded into one state and the message shows the latest state: events
between two edits coalesce. A failed edit is logged and the run goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from slack_sdk.errors import SlackApiError, SlackClientError

from bot.slack.api import SlackApi
from bot.slack.blocks import progress_message
from bot.slack.progress_state import SlackProgress
from engine import Event, Language, Limits, Spend

log = logging.getLogger(__name__)

SpendSource = Callable[[], Awaitable[Spend]]


class ProgressReporter:
    def __init__(
        self,
        slack: SlackApi,
        channel: str,
        ts: str | None,
        language: Language,
        limits: Callable[[], Limits],
        *,
        interval: float = 3.0,
        spend: SpendSource | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.state = SlackProgress(limits=limits())
        self.updates = 0
        self._slack = slack
        self._channel = channel
        self._ts = ts
        self._language = language
        self._limits = limits
        self._interval = interval
        self._spend = spend
        self._clock = clock
        self._dirty = asyncio.Event()
        self._last: float | None = None
        self._task: asyncio.Task[None] | None = None
        self.on_change: Callable[[], None] | None = None
        """Called after each event (the assistant's status line follows the same state)."""

    def sink(self, event: Event) -> None:
        """The orchestrator's event sink: fold the event in and ask for an edit."""
        self.state.apply(event)
        self._dirty.set()
        if self.on_change is not None:
            self.on_change()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self._dirty.wait()
            if self._last is not None:
                wait = self._interval - (self._clock() - self._last)
                if wait > 0:
                    await asyncio.sleep(wait)
            self._dirty.clear()
            await self._flush(finished=False)

    async def _flush(self, *, finished: bool) -> None:
        self._last = self._clock()
        if self._spend is not None:
            try:
                self.state.spend = await self._spend()
            except Exception as error:  # the figure is cosmetic; the edit still goes out
                log.warning("progress: could not read the spend: %s", error)
        if self._ts is None:  # no progress message to edit: only the state is kept
            return
        message = progress_message(self.state, self._limits(), self._language, finished=finished)
        try:
            await self._slack.update(self._channel, self._ts, message)
            self.updates += 1
        except (SlackApiError, SlackClientError, OSError) as error:
            log.warning("progress: chat.update failed: %s", error)

    async def close(self, *, final: bool = True) -> None:
        """Stop the edits and (unless the run was interrupted) show the final state once."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if final:
            await self._flush(finished=True)
