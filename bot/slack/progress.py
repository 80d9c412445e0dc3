"""A run's progress in its thread: the plan card streamed where the workspace supports it
(`bot.slack.stream`), else one progress message edited in place with chat.update; at most
one update every few seconds either way.

Events arrive far faster than Slack accepts updates (a run verifies dozens of claims a
second), so they are folded into one state (`SlackProgress`) and the display shows the
latest state: events between two updates coalesce. Both displays read that one state. A
stream that reaches its lifetime, or that Slack ends or refuses, hands over to edits of the
same message; a failed edit is logged and the run goes on.

Every update but the last is a progress call (`bot.slack.api.progress_call`): when the
method's rate-limit window has no room for it (several reports editing at once), it is
coalesced instead of sent (`Coalesced`), and the state goes out at the reporter's next turn;
the final state always waits for its slot.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from slack_sdk.errors import SlackApiError, SlackClientError

from bot.slack.api import Coalesced, SlackApi, progress_call
from bot.slack.blockkit import DEFAULT_TEXT_BUDGET, MAX_BLOCKS, Message, escape, sections, text_size
from bot.slack.blocks import progress_message
from bot.slack.progress_state import SlackProgress
from bot.slack.stream import StreamedProgress, task_lines
from bot.slack.texts import texts_for
from engine import Event, Language, Limits, Spend, stop_task, unless_cancelled

log = logging.getLogger(__name__)

SpendSource = Callable[[], Awaitable[Spend]]


class ProgressView(Protocol):
    """A display of a run's progress in its thread: the streamed plan card
    (`bot.slack.stream.StreamedProgress`) or the edited message (`EditedProgress`). Both
    show the one `SlackProgress` the reporter folds."""

    async def show(self, state: SlackProgress) -> bool:
        """Show the state now; False when this display can show no more (the reporter then
        goes on with edits of the same message)."""
        ...

    async def stop(self, state: SlackProgress, *, finished: bool) -> bool:
        """The last update (the final state when the run `finished`); False if refused."""
        ...


def edited_message(
    state: SlackProgress, limits: Limits, language: Language, *, finished: bool = False
) -> Message:
    """The progress message where there is no stream: the head (claims, spend), the plan's
    tasks with their sources (what the streamed card shows), and the open gaps."""
    t = texts_for(language)
    base = progress_message(state, limits, language, finished=finished)
    if not state.tasks:
        return base
    blocks = base.blocks[:1]
    blocks += sections(f"*{t.tasks_heading}*", task_lines(state, language, finished=finished))
    if state.gaps:
        blocks += sections(f"*{t.open_gaps}*", [f"• {escape(g)}" for g in state.gaps])
    blocks = blocks[:MAX_BLOCKS]
    while len(blocks) > 1 and text_size(blocks) > DEFAULT_TEXT_BUDGET:
        blocks.pop()  # the head says it all; long lists lose their tail, not the edit
    return Message(base.text, blocks)


class EditedProgress:
    """The progress message `ts` edited with chat.update (Tier 3, 50+ a minute,
    docs.slack.dev/reference/methods/chat.update): where the workspace has no streaming,
    and after a stream ended."""

    def __init__(
        self,
        slack: SlackApi,
        channel: str,
        ts: str | None,
        language: Language,
        limits: Callable[[], Limits],
    ) -> None:
        self.updates = 0
        self._slack = slack
        self._channel = channel
        self._ts = ts
        self._language = language
        self._limits = limits

    async def show(self, state: SlackProgress) -> bool:
        await self._edit(state, finished=False)
        return True

    async def stop(self, state: SlackProgress, *, finished: bool) -> bool:
        return await self._edit(state, finished=True) if finished else True

    async def _edit(self, state: SlackProgress, *, finished: bool) -> bool:
        if self._ts is None:  # no progress message to edit: only the state is kept
            return True
        message = edited_message(state, self._limits(), self._language, finished=finished)
        try:
            if finished:
                await self._slack.update(self._channel, self._ts, message)
            else:
                with progress_call():
                    await self._slack.update(self._channel, self._ts, message)
        except (SlackApiError, SlackClientError, OSError) as error:
            log.warning("progress: chat.update failed: %s", error)
            return False
        self.updates += 1
        return True


class ProgressReporter:
    """Folds a run's events into its state and shows it through one view: the stream when
    one was opened, until it can take no more, then edits of the same message."""

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
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        stream: StreamedProgress | None = None,
        state: SlackProgress | None = None,
    ) -> None:
        self.state = state if state is not None else SlackProgress(limits=limits())
        self._edits = EditedProgress(
            slack, channel, stream.ts if stream is not None else ts, language, limits
        )
        self._view: ProgressView = stream if stream is not None else self._edits
        self._spend = spend
        self._interval = interval
        self._clock = clock
        self._sleep = sleep
        self.coalesced = 0
        """Updates not sent for want of a rate-limit slot (their state went out later)."""
        self._dirty = asyncio.Event()
        self._last: float | None = None
        self._task: asyncio.Task[None] | None = None
        self.on_change: Callable[[], None] | None = None
        """Called after each event (the assistant's status line follows the same state)."""

    @property
    def updates(self) -> int:
        """chat.update edits made."""
        return self._edits.updates

    @property
    def streaming(self) -> bool:
        return self._view is not self._edits

    def sink(self, event: Event) -> None:
        """The orchestrator's event sink: fold the event in and ask for an update."""
        self.state.apply(event)
        self._dirty.set()
        if self.on_change is not None:
            self.on_change()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            unless_cancelled()  # a callee of the last flush may have swallowed close()'s cancel
            await self._dirty.wait()
            if self._last is not None:
                wait = self._interval - (self._clock() - self._last)
                if wait > 0:
                    await self._sleep(wait)
            self._dirty.clear()
            try:
                await self._flush()
            except Coalesced:  # no room in the method's window: shown at the next turn
                self.coalesced += 1
                self._dirty.set()

    async def _read_spend(self) -> None:
        self._last = self._clock()
        if self._spend is None:
            return
        try:
            self.state.spend = await self._spend()
        except Exception as error:  # the figure is cosmetic; the update still goes out
            log.warning("progress: could not read the spend: %s", error)

    async def _flush(self) -> None:
        await self._read_spend()
        if not await self._view.show(self.state):
            self._view = self._edits  # the stream is over: the same message goes on as edits
            await self._edits.show(self.state)

    async def close(self, *, final: bool = True) -> None:
        """Stop the updates and (unless the run was interrupted) show the final state once.
        A stream is stopped either way, so it never outlives the run; when Slack refuses
        its final stop, the final state goes out as an edit."""
        if self._task is not None:
            await stop_task(self._task)
            self._task = None
        view, self._view = self._view, self._edits
        if view is self._edits and not final:
            return
        await self._read_spend()
        if not await view.stop(self.state, finished=final) and final and view is not self._edits:
            await self._edits.stop(self.state, finished=True)
