"""A stop kills what reading documents started, by pid, from whichever thread waits for it,
and starts nothing after it; pages left to OCR are left unread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.documents import children, ocr
from engine.documents.children import ChildOutput, resume_children, run_child, stop_children
from engine.documents.parse import parse_pdf
from tests.support.child_processes import long_command, running, started_pid
from tests.support.pdfs import pdf_bytes
from tests.support.scans import scanned_pdf


@pytest.fixture(autouse=True)
def resumed() -> Iterator[None]:
    yield
    resume_children()


def long_child(tmp_path: Path) -> tuple[threading.Thread, list[ChildOutput | None], int]:
    """A child that would run a minute, waited for in a thread, as an OCR's Tesseract is."""
    pid_file = tmp_path / "pid"
    outcome: list[ChildOutput | None] = []
    command = ["sh", "-c", long_command(pid_file)]
    waiting = threading.Thread(target=lambda: outcome.append(run_child(command, timeout=120)))
    waiting.start()
    return waiting, outcome, started_pid(pid_file)


def test_a_stop_kills_a_running_child_and_its_waiting_thread_returns(tmp_path: Path) -> None:
    waiting, outcome, pid = long_child(tmp_path)

    assert stop_children() == 1

    waiting.join(timeout=30)  # the child would sleep 60 s: only the stop ends it sooner
    assert not waiting.is_alive()
    assert outcome == [None]
    assert not running(pid)


def test_no_child_starts_once_stopped(tmp_path: Path) -> None:
    stop_children()

    assert run_child(["sh", "-c", f"touch {tmp_path / 'ran'}"], timeout=10) is None
    assert not (tmp_path / "ran").exists()


def test_a_child_that_ends_gives_its_output() -> None:
    done = run_child(["sh", "-c", "cat; echo err >&2"], input=b"page", timeout=30)

    assert done == ChildOutput(0, b"page", b"err\n")


def test_a_pool_registered_is_stopped_and_one_registered_late_at_once() -> None:
    stopped: list[str] = []
    with children.stopped_by(lambda: stopped.append("first")) as registered:
        assert registered
        stop_children()
        assert stopped == ["first"]
    with children.stopped_by(lambda: stopped.append("late")) as registered:
        assert not registered
    assert stopped == ["first", "late"]


def test_pages_left_to_ocr_once_stopped_are_not_read() -> None:
    if not ocr.ocr_available():
        pytest.skip("tesseract with por or eng data is not installed (.ci/run installs it)")
    scan = scanned_pdf(pdf_bytes(["A usina produziu 1.204 MWh em 2023, segundo a ANEEL."]))
    stop_children()

    assert parse_pdf(scan).ocr_pages == frozenset()
