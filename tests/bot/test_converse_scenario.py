"""An assistant thread (the older messaging experience, the stand-in in that mode) converses, in
every set-up (HTTP and Socket Mode, embedded and with Redis
and a worker): an en-US user is greeted and offered prompts in English, a picked prompt is a
question researched with its template, a new question once the report is done is a second
report in the same thread with the first as its context, and naming one of its gaps deepens
it instead."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.redis.state import ReportState
from bot.slack.assistant import suggested_prompts
from bot.slack.blocks import START
from bot.slack.texts import EN
from engine.planning import gap_question
from tests.support.slack_samples import assistant_thread_message, assistant_thread_started
from tests.support.slack_surface import Surface

DM, USER, THREAD = "D7", "U1", "1729999327.187299"
FOLLOW_UP = "How many electric buses run in Santiago de Chile?"


def thread_started() -> dict[str, Any]:
    return assistant_thread_started(USER, DM, THREAD)


def said(text: str, ts: str) -> dict[str, Any]:
    return assistant_thread_message(USER, DM, THREAD, text, ts)


async def latest(
    s: Surface, check: Callable[[ReportState], bool], within: float = 90
) -> ReportState:
    """The thread's latest report once `check` holds for it (`Surface.wait_report` keeps
    the report the thread held when it was called; here a second one comes)."""
    deadline = time.monotonic() + within
    while True:
        report_id = await s.rt.states.by_thread(DM, THREAD)
        state = None if report_id is None else await s.rt.states.get(report_id)
        if state is not None and check(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"the thread's report never reached the condition: {state}")
        await asyncio.sleep(0.05)


async def run_to_the_end(s: Surface, planned: ReportState) -> ReportState:
    await s.action(USER, DM, START, json.dumps({"r": planned.report_id}))
    return await latest(s, lambda st: st.report_id == planned.report_id and st.delivered >= 1)


async def test_an_agent_thread_converses_in_the_users_language(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface()
    s.slack.agents.experience = "assistant_view"
    s.slack.users.add(USER, locale="en-US")
    await s.event(thread_started())
    await s.slack.wait_for(lambda: s.slack.prompts_shown.get(DM), what="prompts")
    shown = s.slack.prompts_shown[DM]
    assert [(p["title"], p["message"]) for p in shown] == suggested_prompts("en")
    (greeting,) = s.slack.calls_to("chat.postMessage")
    assert greeting.params["text"] == EN.assistant_greeting

    picked = shown[0]["message"]  # "How big is the residential solar energy market …?"
    await s.event(said(picked, "1729999400.000100"))
    first = await latest(s, lambda st: st.plan_ts is not None)
    assert (first.template, first.question, first.language) == ("mercado", picked, "en")
    first = await run_to_the_end(s, first)
    assert first.reported == 1

    await s.event(said(FOLLOW_UP, "1729999500.000100"))
    second = await latest(s, lambda st: st.report_id != first.report_id and bool(st.plan_ts))
    assert (second.thread_ts, second.follows, second.question) == (
        THREAD,
        first.report_id,
        FOLLOW_UP,
    )
    assert second.context is not None
    assert f"Earlier question in this thread: {picked}" in second.context
    assert (await s.rt.states.get(first.report_id)) == first  # the first report is untouched
    second = await run_to_the_end(s, second)
    assert second.gaps, "the follow-up needs a gap to name"

    gap = second.gaps[0]
    await s.event(said(gap_question(gap), "1729999600.000100"))
    deepened = await latest(s, lambda st: st.report_id == second.report_id and st.delivered >= 2)
    assert deepened.version == 2
    assert deepened.plan is not None
    assert deepened.plan.subquestions[-1].text == gap_question(gap)
    assert await s.rt.states.by_thread(DM, THREAD) == second.report_id
