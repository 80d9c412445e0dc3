"""The four set-ups every Slack scenario runs in answer the same way: a mention in a channel
gets its plan, Start runs it, and the report reaches the thread (HTTP and Socket Mode,
embedded and with Redis and a worker)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from bot.slack.blocks import START
from tests.support.bot_env import LIMITS_QUESTION, mention
from tests.support.slack_surface import Surface


async def test_a_mention_is_planned_started_and_delivered_in_every_set_up(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface()
    await s.event(mention("C5", "U1", LIMITS_QUESTION, "5.1"))
    planned = await s.wait_report("C5", "5.1", lambda state: state.plan_ts is not None)
    await s.action("U1", "C5", START, json.dumps({"r": planned.report_id}))
    done = await s.wait_report("C5", "5.1", lambda state: state.status == "delivered", 60)
    assert done.reported == 1
    posted = [c for c in s.slack.calls_to("chat.postMessage") if c.params.get("thread_ts") == "5.1"]
    assert any("75 kW" in c.all_text() for c in posted)
