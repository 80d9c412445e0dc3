"""The embedded queue: a request delivered twice runs once; drain waits for nested jobs."""

from __future__ import annotations

import gc
import warnings

from bot.queue import InProcessQueue
from bot.steps import Start, Step


async def test_in_process_queue_runs_each_origin_once_and_drains() -> None:
    queue = InProcessQueue()
    ran: list[str] = []

    async def on_step(step: Step) -> None:
        ran.append(step.kind)
        await queue.enqueue_report("r1", 1)
        await queue.enqueue_report("r1", 1)

    async def on_run(report_id: str, version: int) -> None:
        ran.append(f"run {report_id} v{version}")

    queue.bind(on_step, on_run)
    step = Start(report_id="r1", user="U1")
    await queue.step(step, "action:1")
    await queue.step(step, "action:1")
    await queue.drain()
    assert ran == ["start", "run r1 v1"]


async def test_a_failing_job_is_logged_not_raised() -> None:
    queue = InProcessQueue()

    async def boom(step: Step) -> None:
        raise RuntimeError("boom")

    async def on_run(report_id: str, version: int) -> None:
        return None

    queue.bind(boom, on_run)
    await queue.step(Start(report_id="r", user="U"), "o")
    await queue.drain()
    await queue.aclose()


async def test_closing_before_a_job_ran_leaves_no_coroutine_unawaited() -> None:
    """A report enqueued the moment the bot closes is cancelled before it starts: its
    coroutine is closed, not left for Python to warn "never awaited" (a flaky teardown)."""
    queue = InProcessQueue()
    started: list[str] = []

    async def on_step(step: Step) -> None:
        return None

    async def on_run(report_id: str, version: int) -> None:
        started.append(report_id)

    queue.bind(on_step, on_run)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        await queue.enqueue_report("r1", 1)
        await queue.aclose()  # before the loop ever ran the job's task
        gc.collect()
    assert started == []
    assert not [w for w in caught if "never awaited" in str(w.message)]
