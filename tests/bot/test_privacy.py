"""DM briefs are private: everything about them stays in the DM, and nobody else may open
their excerpts or drive them. Runs the embedded bot (no Redis) through Socket Mode."""

from __future__ import annotations

import json
from typing import Any

from bot.slack.blocks import CANCEL, EXCERPT, START
from tests.support.bot_env import LIMITS_QUESTION, wait_state
from tests.support.slack_stub import Call, SlackStub

DM, OWNER, OTHER = "D42", "U1", "U2"


def excerpt_values(slack: SlackStub) -> list[str]:
    values = []
    for call in slack.calls_to("chat.postMessage"):
        for block in call.blocks():
            accessory = block.get("accessory") or {}
            if accessory.get("action_id") == EXCERPT:
                values.append(str(accessory["value"]))
    return values


def every_channel(slack: SlackStub) -> set[str]:
    channels = set()
    for call in slack.calls:
        channel = call.params.get("channel") or call.params.get("channel_id")
        if channel:
            channels.add(str(channel))
    return channels


async def test_dm_report_stays_private(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sm = await socket_mode(rt)
    ack = await sm.event(
        {
            "type": "message",
            "channel_type": "im",
            "channel": DM,
            "user": OWNER,
            "text": LIMITS_QUESTION,
            "ts": "10.1",
        }
    )
    assert ack.payload is None  # acknowledged at once, empty
    report_id = await slack.wait_for(lambda: rt.states._threads.get((DM, "10.1")), what="report")
    await wait_state(rt, report_id, lambda s: s.status == "planned" and s.plan_ts is not None)
    value = json.dumps({"r": report_id})

    await sm.action(OTHER, DM, START, value)  # someone else cannot start it
    refusals = await slack.wait_for(lambda: slack.calls_to("chat.postEphemeral"), what="refusal")
    assert refusals[0].params["user"] == OTHER
    assert "privado" in refusals[0].params["text"]
    assert (await rt.states.get(report_id)).status == "planned"  # type: ignore[union-attr]

    await sm.action(OWNER, DM, START, value)
    await wait_state(rt, report_id, lambda s: s.status == "delivered")
    values = excerpt_values(slack)
    assert values

    await sm.action(OTHER, DM, EXCERPT, values[0])
    refusals = await slack.wait_for(
        lambda: slack.calls_to("chat.postEphemeral")[1:], what="excerpt refusal"
    )
    assert refusals[0].params["user"] == OTHER
    assert "privado" in refusals[0].params["text"]
    assert not slack.calls_to("views.open"), "a stranger opened a private excerpt"

    await sm.action(OWNER, DM, EXCERPT, values[0])
    opened = await slack.wait_for(lambda: slack.calls_to("views.open"), what="owner's excerpt")
    assert "75 kW" in json.dumps(opened[0].params["view"], ensure_ascii=False)

    assert every_channel(slack) == {DM}, "something of a DM brief was posted elsewhere"
    uploads = slack.calls_to("files.completeUploadExternal")
    assert uploads
    assert uploads[0].params["channel_id"] == DM


async def test_dm_cancel_before_start_by_owner_only(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sm = await socket_mode(rt)
    await sm.command(OWNER, DM, f"livre {LIMITS_QUESTION}")
    root: list[Call] = await slack.wait_for(lambda: slack.calls_to("chat.postMessage"), what="root")
    assert root[0].params["channel"] == DM
    assert "thread_ts" not in root[0].params
    plan = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.postMessage") if START in c.text_of_blocks()],
        what="plan",
    )
    assert (
        plan[0].params["thread_ts"]
        == (await slack.wait_for(lambda: list(rt.states._threads)))[0][1]
    )
    report_id = next(iter(rt.states._threads.values()))
    await wait_state(rt, report_id, lambda s: s.plan_ts is not None)
    await sm.action(OTHER, DM, CANCEL, json.dumps({"r": report_id}))
    await sm.action(OWNER, DM, CANCEL, json.dumps({"r": report_id}))
    state = await wait_state(rt, report_id, lambda s: s.status == "cancelled")
    closed = await slack.wait_for(lambda: slack.calls_to("chat.update"), what="plan closed")
    assert closed[-1].params["ts"] == state.plan_ts
    assert "Cancelado por <@U1>" in closed[-1].text_of_blocks()
    assert START not in closed[-1].text_of_blocks()
