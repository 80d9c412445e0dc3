"""Only the requester steers a channel plan (and the admins, when configured): anyone
else's Start, Edit or Cancel gets one private line and a button to run the same brief as
their own; excerpts stay open to the channel. Driven over HTTP through the Slack stand-in."""

from __future__ import annotations

import json
from typing import Any

from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.slack.blocks import CANCEL, EDIT, EXCERPT, RUN_AS_MINE, START
from bot.slack.texts import EN, PT
from tests.support.bot_env import LIMITS_QUESTION, SignedSlack, mention, wait_state
from tests.support.slack_stub import Call, SlackStub

CHANNEL, OWNER, OTHER, ADMIN = "C7", "U1", "U2", "U9"


async def planned(rt: Runtime, sender: Any, slack: SlackStub, ts: str) -> ReportState:
    await sender.event(mention(CHANNEL, OWNER, LIMITS_QUESTION, ts))
    report_id = await slack.wait_for(lambda: rt.states._threads.get((CHANNEL, ts)), what="report")
    return await wait_state(rt, report_id, lambda s: s.plan_ts is not None)


def buttons(call: Call) -> list[dict[str, Any]]:
    found = []
    for block in call.blocks():
        for element in [block.get("accessory") or {}, *block.get("elements", [])]:
            if element.get("type") == "button":
                found.append(element)
    return found


def refusals(slack: SlackStub, user: str) -> list[Call]:
    return [
        c
        for c in slack.calls_to("chat.postEphemeral")
        if c.params["user"] == user and c.params["text"] in (PT.not_your_plan, EN.not_your_plan)
    ]


async def test_another_user_s_start_edit_and_cancel_are_refused_and_change_nothing(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    rt, sender = embedded_http
    state = await planned(rt, sender, slack, "4.1")
    value = json.dumps({"r": state.report_id})
    for action_id in (START, EDIT, CANCEL):
        await sender.action(OTHER, CHANNEL, action_id, value)
    answers = await slack.wait_for(
        lambda: len(refusals(slack, OTHER)) == 3 and refusals(slack, OTHER), what="refusals"
    )
    for answer in answers:
        assert answer.params["text"] == PT.not_your_plan
        assert answer.params["thread_ts"] == state.thread_ts
        (offer,) = buttons(answer)
        assert offer["action_id"] == RUN_AS_MINE
        assert offer["text"]["text"] == PT.run_as_mine
        assert json.loads(offer["value"]) == {"r": state.report_id}
    after = await rt.states.get(state.report_id)
    assert after is not None
    assert (after.status, after.plan, after.limits) == ("planned", state.plan, state.limits)
    assert not slack.calls_to("views.open")
    assert not [c for c in slack.calls_to("chat.update") if c.params["ts"] == state.plan_ts]


async def test_the_requester_and_an_admin_steer(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False, slack_admins=frozenset({ADMIN})))
    sender = await bolt_http(rt)
    mine = await planned(rt, sender, slack, "5.1")
    await sender.action(OWNER, CHANNEL, EDIT, json.dumps({"r": mine.report_id}))
    await slack.wait_for(lambda: slack.calls_to("views.open"), what="the requester's editor")
    await sender.action(OWNER, CHANNEL, CANCEL, json.dumps({"r": mine.report_id}))
    await wait_state(rt, mine.report_id, lambda s: s.status == "cancelled")

    theirs = await planned(rt, sender, slack, "5.2")
    await sender.action(ADMIN, CHANNEL, EDIT, json.dumps({"r": theirs.report_id}))
    await slack.wait_for(lambda: len(slack.calls_to("views.open")) == 2, what="the admin's editor")
    await sender.action(ADMIN, CHANNEL, START, json.dumps({"r": theirs.report_id}))
    await wait_state(rt, theirs.report_id, lambda s: s.status != "planned")
    assert not refusals(slack, OWNER)
    assert not refusals(slack, ADMIN)


async def test_run_as_mine_starts_the_same_brief_owned_by_the_clicker(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    rt, sender = embedded_http
    state = await planned(rt, sender, slack, "6.1")
    await sender.action(OTHER, CHANNEL, START, json.dumps({"r": state.report_id}))
    (refusal,) = await slack.wait_for(lambda: refusals(slack, OTHER), what="refusal")
    (offer,) = buttons(refusal)
    await sender.action(OTHER, CHANNEL, RUN_AS_MINE, offer["value"])
    asked = PT.asked_by.format(user=OTHER, question=state.question)
    await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.postMessage") if c.params["text"] == asked],
        what="the clicker's brief",
    )
    others = await slack.wait_for(
        lambda: [r for r in rt.states._threads.values() if r != state.report_id],
        what="new report",
    )
    new = await wait_state(rt, others[0], lambda s: s.plan_ts is not None)
    assert new.report_id != state.report_id
    assert (new.requester, new.question, new.template) == (OTHER, state.question, state.template)
    assert new.language == state.language
    original = await rt.states.get(state.report_id)
    assert original is not None
    assert original.requester == OWNER
    assert original.status == "planned"


async def test_excerpts_stay_open_to_the_channel(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    rt, sender = embedded_http
    state = await planned(rt, sender, slack, "7.1")
    await sender.action(OWNER, CHANNEL, START, json.dumps({"r": state.report_id}))
    await wait_state(rt, state.report_id, lambda s: s.status == "delivered")
    excerpts = [
        b["value"]
        for c in slack.calls_to("chat.postMessage")
        for b in buttons(c)
        if b["action_id"] == EXCERPT
    ]
    assert excerpts
    await sender.action(OTHER, CHANNEL, EXCERPT, excerpts[0])
    await slack.wait_for(lambda: slack.calls_to("views.open"), what="the excerpt, for another")
    assert not slack.calls_to("chat.postEphemeral")
