"""Only the requester steers, in every set-up (HTTP and Socket Mode, embedded and with Redis
and a worker): someone else's Start and Cancel change nothing and get one private line with
a button to run the same brief as theirs; that button asks the brief again, as theirs; the
requester's Start runs the report."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from bot.slack.blocks import CANCEL, RUN_AS_MINE, START
from bot.slack.texts import PT
from tests.support.bot_env import LIMITS_QUESTION, mention
from tests.support.slack_stub import Call
from tests.support.slack_surface import Surface

CHANNEL, OWNER, OTHER = "C8", "U1", "U2"


def offers(calls: list[Call]) -> list[dict[str, Any]]:
    return [
        element
        for call in calls
        for block in call.blocks()
        for element in [block.get("accessory") or {}, *block.get("elements", [])]
        if element.get("action_id") == RUN_AS_MINE
    ]


async def test_someone_elses_start_is_refused_and_offers_the_brief_as_theirs(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface()
    await s.event(mention(CHANNEL, OWNER, LIMITS_QUESTION, "8.1"))
    planned = await s.wait_report(CHANNEL, "8.1", lambda state: state.plan_ts is not None)
    for action_id in (START, CANCEL):
        await s.action(OTHER, CHANNEL, action_id, json.dumps({"r": planned.report_id}))

    def refused() -> list[Call]:
        calls = s.slack.calls_to("chat.postEphemeral")
        mine = [c for c in calls if c.params["user"] == OTHER]
        return mine if len(mine) == 2 else []

    answers = await s.slack.wait_for(refused, what="two refusals")
    assert {c.params["text"] for c in answers} == {PT.not_your_plan}
    state = await s.rt.states.get(planned.report_id)
    assert state is not None
    assert state.status == "planned"

    (offer, _) = offers(answers)
    await s.action(OTHER, CHANNEL, RUN_AS_MINE, offer["value"])
    asked = PT.asked_by.format(user=OTHER, question=planned.question)
    await s.slack.wait_for(
        lambda: [c for c in s.slack.calls_to("chat.postMessage") if c.params["text"] == asked],
        what="the brief asked again as the clicker's",
    )

    await s.action(OWNER, CHANNEL, START, json.dumps({"r": planned.report_id}))
    done = await s.wait_report(CHANNEL, "8.1", lambda state: state.status == "delivered", 60)
    assert done.requester == OWNER
