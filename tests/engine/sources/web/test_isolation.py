"""Extraction in a child process: its answer and its errors come back, a cancel kills it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from engine.documents.limits import PARSE_MEMORY_BYTES
from engine.sources.web.isolation import ChildDied, run_killable


def _double(value: int) -> int:
    return value * 2


def _fail(message: str) -> None:
    raise ValueError(message)


def _pid_then_sleep(path: str) -> None:
    with open(path, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(600)


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _allocate(size: int) -> int:
    return len(bytearray(size))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is capped on Linux only")
async def test_a_child_past_its_memory_cap_fails_there_with_memory_error() -> None:
    beyond = PARSE_MEMORY_BYTES + 2_000_000_000  # reserved, never touched: costs no RAM
    with pytest.raises(MemoryError):
        await run_killable(_allocate, beyond)
    assert await run_killable(_allocate, 100_000_000) == 100_000_000


async def test_the_childs_answer_comes_back() -> None:
    assert await run_killable(_double, 21) == 42


async def test_the_childs_error_is_raised_here() -> None:
    with pytest.raises(ValueError, match="bad page"):
        await run_killable(_fail, "bad page")


async def test_a_child_that_dies_is_said_to() -> None:
    with pytest.raises(ChildDied, match="exit code -9"):
        await run_killable(_die)


def _written(path: Path) -> str:
    return path.read_text() if path.exists() else ""


async def test_cancelling_the_wait_kills_the_child(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    task = asyncio.create_task(run_killable(_pid_then_sleep, str(pid_file)))
    for _ in range(3000):  # the child writes its pid once it runs (generous: a busy machine)
        if _written(pid_file):
            break
        await asyncio.sleep(0.01)
    pid = int(_written(pid_file))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with pytest.raises(ProcessLookupError):  # killed and reaped: no such process any more
        os.kill(pid, 0)
