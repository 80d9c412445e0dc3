"""One bot set-up a scenario runs in: HTTP or Socket Mode in front, embedded (no Redis) or
with Redis and a worker behind, driven the same way whichever it is. The `surface` fixture
(tests/bot/conftest.py) opens one per parameter, so a scenario runs in all four."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlencode

from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.slack.blocks import START
from engine import Report
from tests.support.bot_env import SignedSlack, SocketSlack, block_actions
from tests.support.slack_stub import SlackStub

Mode = Literal["http", "socket"]
SET_UPS = ("http-embedded", "http-redis", "socket-embedded", "socket-redis")


@dataclass
class Surface:
    rt: Runtime
    slack: SlackStub
    mode: Mode
    redis: bool
    sender: SignedSlack | SocketSlack

    async def event(self, event: dict[str, Any]) -> None:
        """An Events API event, as Slack sends it in this mode."""
        await self.sender.event(event)

    async def action(
        self, user: str, channel: str, action_id: str, value: str, **extra: Any
    ) -> None:
        """A block_actions payload; `extra` keys go into the action (e.g. type=...)."""
        payload = block_actions(user, channel, action_id, value)
        payload["actions"][0].update(extra)
        await self.interactive(payload)

    async def interactive(self, payload: dict[str, Any]) -> None:
        """Any interactivity payload (block_actions, view_submission, ...)."""
        if isinstance(self.sender, SocketSlack):
            await self.sender.envelope("interactive", payload)
            return
        body = urlencode({"payload": json.dumps(payload)}).encode()
        await self.sender.send(body, "application/x-www-form-urlencoded")

    async def command(self, user: str, channel: str, text: str) -> None:
        await self.sender.command(user, channel, text)

    async def report_id(self, channel: str, thread_ts: str, within: float = 20) -> str:
        """The id of the report a thread holds, once the bot has linked it."""
        found: str | None = None
        deadline = time.monotonic() + within
        while found is None:
            found = await self.rt.states.by_thread(channel, thread_ts)
            if found is None:
                if time.monotonic() > deadline:
                    raise AssertionError(f"no report in thread {channel}/{thread_ts}")
                await asyncio.sleep(0.05)
        return found

    async def wait_report(
        self,
        channel: str,
        thread_ts: str,
        check: Callable[[ReportState], bool],
        within: float = 30,
    ) -> ReportState:
        """The state of the report in that thread, once `check` holds for it."""
        report_id = await self.report_id(channel, thread_ts, within)
        deadline = time.monotonic() + within
        while True:
            state = await self.rt.states.get(report_id)
            if state is not None and check(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the report never reached the condition: {state}")
            await asyncio.sleep(0.05)


async def researched(
    s: Surface,
    channel: str,
    ts: str,
    text: str,
    dm: bool = False,
    user: str = "U1",
    extra: dict[str, Any] | None = None,
) -> Report:
    """Ask `text` in `channel` (a mention, or a DM message; `extra`, more of the event, such
    as its action_token), Start the plan, and return the report delivered in its thread."""
    event: dict[str, Any] = {"channel": channel, "user": user, "ts": ts, **(extra or {})}
    if dm:
        event |= {"type": "message", "channel_type": "im", "text": text}
    else:
        event |= {"type": "app_mention", "text": f"<@UBOT> {text}"}
    await s.event(event)
    planned = await s.wait_report(channel, ts, lambda state: state.plan_ts is not None)
    await s.action(user, channel, START, json.dumps({"r": planned.report_id}))
    done = await s.wait_report(channel, ts, lambda state: state.status == "delivered", 60)
    report = await s.rt.states.load_report(done.report_id, done.reported)
    assert report is not None
    return report
