"""A running process writes each unfinished task's stack on SIGUSR2 (bot.diagnostics)."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bot.diagnostics import HEADING, dump_tasks_on_signal


async def _waiting_for_a_result_that_never_comes(never: asyncio.Event) -> None:
    await never.wait()


async def test_sigusr2_writes_the_function_a_stuck_task_waits_in(
    capsys: pytest.CaptureFixture[str],
) -> None:
    loop = asyncio.get_running_loop()
    dump_tasks_on_signal("a worker")
    stuck = asyncio.create_task(_waiting_for_a_result_that_never_comes(asyncio.Event()))
    written = ""
    try:
        await asyncio.sleep(0)
        os.kill(os.getpid(), signal.SIGUSR2)
        async with asyncio.timeout(30):  # the handler runs on one of the loop's next turns
            while HEADING not in written:
                await asyncio.sleep(0.01)
                written += capsys.readouterr().err
    finally:
        loop.remove_signal_handler(signal.SIGUSR2)
        stuck.cancel()
    assert "--- a worker:" in written
    assert "_waiting_for_a_result_that_never_comes" in written
