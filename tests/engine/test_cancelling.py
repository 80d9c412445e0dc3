"""A task whose callee swallowed its cancellation still stops: `stop_task` cancels it again
while it runs, and `unless_cancelled` ends the loop of a task being cancelled."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from engine.cancelling import stop_task, unless_cancelled

HANG_GUARD = 30.0
"""Far beyond what any of these needs: reached only when the stop hangs (the defect)."""


def swallowing(times: int, started: asyncio.Event) -> asyncio.Task[None]:
    """A loop whose callee swallows the first `times` cancellations (as Python 3.11's
    wait_for does with a result that landed in the same turn), waiting again after each."""

    async def callee() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            return  # swallowed

    async def loop() -> None:
        for _ in range(times):
            started.set()
            await callee()
        await asyncio.Event().wait()

    return asyncio.get_running_loop().create_task(loop())


@pytest.mark.parametrize("swallowed", [0, 1, 3])
async def test_a_task_stops_however_many_cancels_its_callees_swallow(swallowed: int) -> None:
    started = asyncio.Event()
    task = swallowing(swallowed, started)
    if swallowed:
        await started.wait()
    else:
        await asyncio.sleep(0)
    async with asyncio.timeout(HANG_GUARD):
        await stop_task(task, every=0.01)
    assert task.cancelled()


async def test_a_plain_cancel_and_await_is_what_hangs() -> None:
    """The oracle: without stop_task, the same task outlives its cancel."""
    started = asyncio.Event()
    task = swallowing(1, started)
    await started.wait()
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=0.2)
    assert not done, "the callee no longer swallows the cancel: this test proves nothing"
    await stop_task(task, every=0.01)


async def test_the_error_a_task_ended_with_is_raised_and_a_finished_task_is_left_alone() -> None:
    async def broken() -> None:
        raise ValueError("boom")

    task = asyncio.get_running_loop().create_task(broken())
    await asyncio.sleep(0)
    with pytest.raises(ValueError, match="boom"):
        await stop_task(task)

    async def quick() -> int:
        return 1

    finished = asyncio.get_running_loop().create_task(quick())
    await finished
    await stop_task(finished)
    assert finished.result() == 1


async def test_the_stopper_cancelled_itself_stops_waiting() -> None:
    started = asyncio.Event()
    stubborn = swallowing(2, started)
    await started.wait()
    stopper = asyncio.get_running_loop().create_task(stop_task(stubborn, every=3600.0))
    await asyncio.sleep(0)
    stopper.cancel()
    async with asyncio.timeout(HANG_GUARD):
        with pytest.raises(asyncio.CancelledError):
            await stopper
        assert not stubborn.done()
        await stop_task(stubborn, every=0.01)


async def test_unless_cancelled_raises_only_in_a_task_being_cancelled() -> None:
    unless_cancelled()  # not being cancelled: nothing happens
    reached_after_swallow = asyncio.Event()
    ended = asyncio.Event()

    async def loop() -> None:
        while True:
            unless_cancelled()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                reached_after_swallow.set()  # swallowed: the next turn must end the loop
            ended.set()

    task = asyncio.get_running_loop().create_task(loop())
    await asyncio.sleep(0)
    task.cancel()
    async with asyncio.timeout(HANG_GUARD):
        with pytest.raises(asyncio.CancelledError):
            await task
    assert reached_after_swallow.is_set()


async def test_unless_cancelled_chains_the_error_a_cancel_became() -> None:
    causes: list[BaseException | None] = []

    async def body() -> None:
        current = asyncio.current_task()
        assert current is not None
        current.cancel()
        with contextlib.suppress(asyncio.CancelledError):  # as a library may
            await asyncio.sleep(0)
        try:
            unless_cancelled(TimeoutError("read timed out"))
        except asyncio.CancelledError as cancelled:
            causes.append(cancelled.__cause__)
            raise

    task = asyncio.get_running_loop().create_task(body())
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(causes) == 1
    assert isinstance(causes[0], TimeoutError)
