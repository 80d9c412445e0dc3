"""SIGTERM to a worker while a job's thread waits for Tesseract: the signal's handler kills
Tesseract at once (by pid), so the thread, which no cancel reaches, returns, and the worker
can end instead of waiting minutes for the page to be read."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.serve import _stop_on_signals
from engine.documents import children, ocr
from engine.documents.ocr import PageImage
from tests.support.child_processes import long_command, running, started_pid


@pytest.fixture
def slow_tesseract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A `tesseract` that writes its pid and takes a minute over a page."""
    pid_file = tmp_path / "pid"
    program = tmp_path / "tesseract"
    program.write_text("#!/bin/sh\n" + long_command(pid_file))
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(ocr, "TESSERACT", str(program))
    monkeypatch.setattr(ocr, "ocr_languages", lambda: "por")
    yield pid_file
    children.resume_children()


async def test_sigterm_kills_the_tesseract_a_job_thread_waits_for(slow_tesseract: Path) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    _stop_on_signals(stop)
    try:
        page = PageImage(b"P5\n1 1\n255\n\x00", 300, 0.0, 0.0)
        reading = asyncio.ensure_future(asyncio.to_thread(ocr.read_image, page))
        pid = await asyncio.to_thread(started_pid, slow_tesseract)

        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(stop.wait(), timeout=30)

        done, _ = await asyncio.wait({reading}, timeout=30)  # it would sleep 60 s
        assert done == {reading}
        assert reading.result() is None
        assert not running(pid)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        if not reading.done():
            os.kill(pid, signal.SIGKILL)
            await reading
