"""The agent session of a brief asked in the agent messaging experience (manifest.yml's
`agent_view`): the status Slack shows for the brief's thread, its title and, while Fonte
works, a stop button (https://docs.slack.dev/ai/agent-sessions/).

A session is a thread's, set with agents.sessions.setStatus, which "creates the session if
it doesn't exist and updates its status if it does"; its title (at most 200 characters) is
taken only when the session is created
(https://docs.slack.dev/reference/methods/agents.sessions.setStatus). Fonte's lifecycle:

- `processing` from the user's message while the brief is read and planned, and while the
  research runs: the stop button shows ("while an agent session is in the processing
  status", https://docs.slack.dev/reference/events/agent_session_stopped), and pressing it
  is the plan's Cancel (bot.slack.app);
- `suspended` while the clarifying questions or the plan wait for the user;
- at the end, `active` when the report was delivered (its thread takes follow-ups and
  deepenings), `closed` when the run was cancelled (the stop button or Cancel) or failed:
  Slack never moves a session off processing by itself ("Your app is responsible for
  transitioning the status"). A new question in the thread sets it processing again.

While the research runs the status is set again every `refresh` seconds: Slack drops a
processing status after an hour (NousResearch/hermes-agent#90978), and stopping a stream
sets the thread's session `active` by default (chat.stopStream's `session_status`,
slackapi/python-slack-sdk#1945), which Fonte does when its plan card's stream nears its end
while the research goes on. Every call is best effort, as the assistant surface's are.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal

from bot.slack.api import SlackApi
from bot.slack.assistant import best_effort
from engine import stop_task, unless_cancelled
from engine.text import clip, collapse_whitespace

SessionStatus = Literal["processing", "active", "suspended", "closed"]
MAX_SESSION_TITLE_CHARS = 200
_ENDED: dict[str, SessionStatus] = {
    "delivered": "active",
    "delivery_failed": "active",
    "cancelled": "closed",
    "failed": "closed",
}


def session_title(question: str) -> str:
    return clip(collapse_whitespace(question), MAX_SESSION_TITLE_CHARS)


async def set_session(
    slack: SlackApi,
    channel: str,
    thread_ts: str,
    status: SessionStatus,
    title: str | None = None,
) -> bool:
    return await best_effort(
        "agents.sessions.setStatus",
        lambda: slack.set_session_status(channel, thread_ts, status, title),
    )


def ended_status(report_status: str) -> SessionStatus | None:
    """The session's status once a report's run ended in `report_status` (None while the
    report is not in a final state)."""
    return _ENDED.get(report_status)


@dataclass
class ProcessingSession:
    """Keeps a thread's session `processing` while a research runs."""

    slack: SlackApi
    channel: str
    thread_ts: str
    refresh: float
    _task: asyncio.Task[None] | None = field(default=None, init=False)

    async def start(self) -> None:
        """Processing from now on: set at once, then every `refresh` seconds."""
        await self._processing()
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.refresh)
            await self._processing()
            unless_cancelled()

    async def _processing(self) -> None:
        await set_session(self.slack, self.channel, self.thread_ts, "processing")

    async def stop(self) -> None:
        """Stop setting it; the report's end says what it becomes (`ended_status`)."""
        if self._task is not None:
            await stop_task(self._task)
            self._task = None
