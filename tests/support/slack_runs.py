"""Running a report through the embedded bot for Slack tests: a brief in a channel thread,
started, researched on the test's library, and delivered to the Slack stand-in."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.flows import handle_step, report_id_for
from bot.queue import InProcessQueue
from bot.redis.state import FINAL_STATUSES, ReportState, Status
from bot.runtime import Runtime
from bot.steps import Ask, Cancel, Deepen, Start
from engine.contracts import Limits, Plan, Report, Subquestion

CHANNEL, USER = "C100", "U1"
QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"


async def settle(rt: Runtime) -> None:
    """Every job of the embedded queue, and the jobs they enqueue, has finished."""
    assert isinstance(rt.queue, InProcessQueue)
    await rt.queue.drain()


async def saved_report(
    rt: Runtime,
    report: Report,
    report_id: str,
    *,
    channel: str,
    user: str,
    thread: str,
    status: Status,
    delivered: int = 0,
) -> ReportState:
    """`report` saved as version 1 of a report asked by `user` in `channel`'s `thread`, its
    state at `status` (with `delivered` the version already delivered)."""
    state = ReportState(
        report_id=report_id,
        channel=channel,
        thread_ts=thread,
        requester=user,
        question=report.question,
        language=report.language,
        limits=Limits(),
        plan=Plan(question="Q", subquestions=[Subquestion(id="s1", text="Q")]),
        status=status,
        reported=1,
        delivered=delivered,
    )
    assert await rt.states.create(state)
    await rt.states.save_report(report_id, 1, report)
    return state


async def state_of(rt: Runtime, report_id: str) -> ReportState:
    state = await rt.states.get(report_id)
    assert state is not None, f"no state for {report_id}"
    return state


async def planned_report(
    rt: Runtime, thread: str, question: str = QUESTION, channel: str = CHANNEL
) -> str:
    """A brief asked in `thread` and planned (the offline model asks nothing); its id."""
    origin = f"event:{channel}:{thread}"
    ask = Ask(origin=origin, channel=channel, thread_ts=thread, user=USER, text=question)
    await handle_step(rt, ask)
    await settle(rt)
    return report_id_for(origin)


async def finished_report(rt: Runtime, thread: str, question: str = QUESTION) -> ReportState:
    """Asked, started, researched and delivered (or not): its state in a final status."""
    report_id = await planned_report(rt, thread, question)
    await handle_step(rt, Start(report_id=report_id, user=USER, channel=CHANNEL))
    await settle(rt)
    state = await state_of(rt, report_id)
    assert state.status in FINAL_STATUSES, state.status
    return state


async def deepened(rt: Runtime, state: ReportState, gap: str) -> ReportState:
    """`aprofunde: <gap>` in the report's thread, run to its end."""
    await handle_step(rt, Deepen(report_id=state.report_id, user=USER, gap=gap, channel=CHANNEL))
    await settle(rt)
    return await state_of(rt, state.report_id)


async def cancel_when(
    rt: Runtime, report_id: str, started: Callable[[], bool], within: float = 20
) -> None:
    """Press Cancel once `started()` says the run is under way."""
    deadline = time.monotonic() + within
    while not started():
        if time.monotonic() > deadline:
            raise AssertionError("the run never started")
        await asyncio.sleep(0.02)
    await handle_step(rt, Cancel(report_id=report_id, user=USER, channel=CHANNEL))
