"""The stuck-test dump (tests/support/task_dump.py) names each unfinished task's await."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from tests.support.task_dump import dump_tasks, tasks_dumped_if_stuck


async def _waits_forever(event: asyncio.Event) -> None:
    await event.wait()


async def test_an_unfinished_task_is_written_with_the_line_it_awaits() -> None:
    event = asyncio.Event()
    task = asyncio.create_task(_waits_forever(event), name="stuck-one")
    await asyncio.sleep(0)
    out = io.StringIO()
    count = dump_tasks("a test", out)
    event.set()
    await task
    assert count >= 1
    assert "stuck-one" in out.getvalue()
    assert "await event.wait()" in out.getvalue()


def test_the_timer_fires_only_while_the_body_runs() -> None:
    quick, stuck = io.StringIO(), io.StringIO()
    with tasks_dumped_if_stuck("quick", after=3600, out=quick) as timer:
        pass
    timer.join(5)
    with tasks_dumped_if_stuck("stuck", after=0.0, out=stuck) as timer:
        timer.join(5)  # the body outlives its limit
    assert quick.getvalue() == ""
    assert "--- stuck:" in stuck.getvalue()


def test_a_descriptor_is_written_to_when_the_dump_fires(tmp_path: Path) -> None:
    path = tmp_path / "dump.txt"
    with (
        path.open("w") as file,
        tasks_dumped_if_stuck("by fd", after=0.0, out=file.fileno()) as timer,
    ):
        timer.join(5)
    assert "--- by fd:" in path.read_text()
