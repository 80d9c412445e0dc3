"""The delivered report is one message that works in every set-up (HTTP and Socket Mode,
embedded and with Redis and a worker): its native feedback buttons store the rating, and a
citation picked in its select opens that citation's excerpt modal."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from bot.slack.blocks import CITATIONS, FEEDBACK_BUTTONS, START
from tests.support.bot_env import LIMITS_QUESTION
from tests.support.slack_stub import Call
from tests.support.slack_surface import Surface


def elements(call: Call) -> list[dict[str, Any]]:
    return [e for block in call.blocks() for e in block.get("elements", []) or []]


async def test_the_report_message_rates_and_opens_excerpts_in_every_set_up(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface()
    mention = {"type": "app_mention", "channel": "C6", "user": "U1", "ts": "6.1"}
    await s.event({**mention, "text": f"<@UBOT> {LIMITS_QUESTION}"})
    planned = await s.wait_report("C6", "6.1", lambda state: state.plan_ts is not None)
    await s.action("U1", "C6", START, json.dumps({"r": planned.report_id}))
    await s.wait_report("C6", "6.1", lambda state: state.status == "delivered", 60)
    [message] = [
        c
        for c in s.slack.calls_to("chat.postMessage")
        if c.params.get("thread_ts") == "6.1" and FEEDBACK_BUTTONS in c.text_of_blocks()
    ]
    [feedback] = [e for e in elements(message) if e["type"] == "feedback_buttons"]
    [select] = [e for e in elements(message) if e.get("action_id") == CITATIONS]

    # Thumbs up: Slack sends the pressed button's value, with the element's type.
    up = feedback["positive_button"]["value"]
    await s.action("U1", "C6", FEEDBACK_BUTTONS, up, type="feedback_buttons", text={})
    rated = await s.wait_report(
        "C6", "6.1", lambda state: any(f.rating == "up" for f in state.feedback)
    )
    assert [(f.user, f.version, f.rating) for f in rated.feedback] == [("U1", 1, "up")]

    # A citation picked in the select: its option's value, as selected_option.
    chosen = select["options"][0]
    await s.action("U1", "C6", CITATIONS, "", type="static_select", selected_option=chosen)
    [opened] = await s.slack.wait_for(lambda: s.slack.calls_to("views.open"), what="excerpt")
    view = opened.params["view"]
    view = json.loads(view) if isinstance(view, str) else view
    assert view["callback_id"] == "fonte_excerpt_view"
    assert "[1]" in view["title"]["text"]
