"""Running a report owns its run: a second attempt waits for the live one instead of
delivering beside it, and an attempt that lost the run delivers nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from bot import report_runner
from bot.flows import handle_step
from bot.redis.runs import RedisRunLeases
from bot.runtime import Runtime
from bot.slack.blocks import EXCERPT
from bot.sources import open_library_sources
from bot.steps import Ask, Start
from tests.support.bot_env import LIMITS_QUESTION, SlowSources, running_workers, wait_state
from tests.support.slack_stub import SlackStub

CHANNEL, USER = "C400", "U1"


async def started_report(rt: Runtime, thread: str) -> str:
    await handle_step(
        rt, Ask(origin=thread, channel=CHANNEL, thread_ts=thread, user=USER, text=LIMITS_QUESTION)
    )
    report_id = await rt.states.by_thread(CHANNEL, thread)
    assert report_id is not None
    await handle_step(rt, Start(report_id=report_id, user=USER))
    return report_id


def report_pages(slack: SlackStub) -> int:
    return len([c for c in slack.calls_to("chat.postMessage") if EXCERPT in c.text_of_blocks()])


async def test_two_attempts_of_one_delivery_post_it_once(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings())
    async with running_workers(rt):
        report_id = await started_report(rt, "800.1")
        await wait_state(rt, report_id, lambda s: s.delivered == 1, within=30)
    # As if the worker died just after the run was saved and marked `delivering`: the job
    # runs again, and a second attempt of it (a duplicate, or one whose lease lapsed under a
    # stalled worker) runs at the same moment.
    await rt.states.update(
        report_id,
        lambda s: s.model_copy(
            update={
                "status": "delivering",
                "posted": [],
                "posting": None,
                "files_posted": False,
                "files_posting": False,
                "delivered": 0,
            }
        ),
    )
    pages_before = report_pages(slack)
    files_before = len(slack.calls_to("files.completeUploadExternal"))
    await asyncio.wait_for(
        asyncio.gather(
            report_runner.run_report(rt, report_id, 1), report_runner.run_report(rt, report_id, 1)
        ),
        60,
    )
    state = await wait_state(rt, report_id, lambda s: s.delivered == 1)
    assert state.status == "delivered"
    assert report_pages(slack) - pages_before == len(state.posted) >= 1
    assert len(slack.calls_to("files.completeUploadExternal")) - files_before == 1


async def test_an_attempt_that_lost_its_run_stops_and_delivers_nothing(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    slow = SlowSources(open_library_sources(make_settings()), delay=1.5)
    rt = await runtimes(make_settings(), open_sources=slow.opener())
    assert rt.redis is not None
    rt.leases = RedisRunLeases(rt.redis, rt.keys, seconds=0.3)
    async with running_workers(rt):
        report_id = await started_report(rt, "800.2")
        await asyncio.wait_for(slow.started.wait(), 10)
        # Its loop stalled past the lease, and another attempt took the run over.
        await rt.redis.set(rt.keys.runner(report_id), "successor", px=1000)
        for _ in range(100):
            if not await rt.redis.exists(f"arq:in-progress:{rt.keys.report_job_id(report_id, 1)}"):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(2.5)  # the subagent ends; an attempt still running would deliver
        state = await rt.states.get(report_id)
        assert state is not None
        assert state.status == "running"
        assert report_pages(slack) == 0
        # The successor (whose lease lapses unrenewed here) is replaced by a new attempt,
        # which finishes the run from what it holds.
        await asyncio.wait_for(report_runner.run_report(rt, report_id, 1), 60)
        state = await wait_state(rt, report_id, lambda s: s.delivered == 1, within=30)
    assert report_pages(slack) == len(state.posted) >= 1
    assert len(slack.calls_to("files.completeUploadExternal")) == 1
