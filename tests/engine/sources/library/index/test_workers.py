import dataclasses
import multiprocessing
import multiprocessing.connection
import os
import re
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from engine.documents import ocr
from engine.documents.parse import DocumentKind
from engine.sources.library.cache import file_sha256
from engine.sources.library.deadline import Deadline
from engine.sources.library.index import workers as workers_module
from engine.sources.library.index.reading import TOO_LARGE, FileOutcome, FileTask, read_for_index
from engine.sources.library.index.workers import CRASHED, abandon, read_files
from tests.support.clock import FakeClock
from tests.support.library_files import Recorder, TimedReads, write_pdf, write_text
from tests.support.pdfs import pdf_bytes
from tests.support.scans import with_page_scanned


def _tasks(folder: Path, cache: Path) -> list[FileTask]:
    kinds = {".pdf": DocumentKind.pdf, ".md": DocumentKind.markdown}
    return [
        FileTask(str(p), p.name, kinds[p.suffix], file_sha256(p), "", str(cache))
        for p in sorted(folder.iterdir())
    ]


def test_outcomes_come_in_task_order_with_progress(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    for n in range(20):  # more than a few text files: read in the pool
        write_text(folder / f"n{n:02d}.md", f"Note number {n}.\n")
    write_pdf(folder / "z.pdf", ["A page."])
    progress = Recorder()
    tasks = _tasks(folder, tmp_path / "parsed")
    outcomes = list(read_files(tasks, progress))
    assert [o.task.relative for o in outcomes] == [t.relative for t in tasks]
    assert all(o.reason == "" for o in outcomes)
    # A file said as it is read; while the pool works, a line every few seconds of real
    # time, which a loaded machine may print here: those are checked for their form only.
    said = [m for m in progress.messages if not m.startswith("reading: ")]
    assert said == [f"indexing {n}/21 files" for n in range(1, 22)]
    waits = [m for m in progress.messages if m not in said]
    assert all(
        re.fullmatch(r"reading: \d+/21 files \(\d+ of \d+ MB\) indexed so far", m) for m in waits
    )


def test_a_few_text_files_are_read_without_a_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    write_text(folder / "a.md", "Alpha.\n")

    def no_pool(*args: object) -> None:
        raise AssertionError("pool started")

    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", no_pool)
    (outcome,) = read_files(_tasks(folder, tmp_path / "parsed"), Recorder())
    assert outcome.reason == ""


_READ_BATCH = workers_module._read_batch


def _crash_on_b(batch: list[FileTask]) -> list[FileOutcome]:
    if any(task.relative == "b.pdf" for task in batch):
        os._exit(1)  # what a segfault in pdfium, or the kernel's OOM killer, looks like
    return _READ_BATCH(batch)


def test_a_crashed_workers_files_are_read_again_alone_and_the_culprit_is_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    for name in "abc":
        write_pdf(folder / f"{name}.pdf", [f"Page {name}"])
    monkeypatch.setattr(workers_module, "_read_batch", _crash_on_b)
    outcomes = list(read_files(_tasks(folder, tmp_path / "parsed"), Recorder()))
    assert [(o.task.relative, o.reason, o.cacheable) for o in outcomes] == [
        ("a.pdf", "", True),
        ("b.pdf", CRASHED, True),  # remembered: the next run does not crash on it again
        ("c.pdf", "", True),
    ]


def test_files_submitted_after_a_worker_died_are_read_by_a_new_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    for name in "abcd":
        write_pdf(folder / f"{name}.pdf", [f"Page {name}"])
    monkeypatch.setattr(workers_module, "_read_batch", _crash_on_b)
    monkeypatch.setattr(workers_module, "_FILES_PER_TASK", 1)
    # No batch waits: each is taken as soon as submitted, so the next submit meets a
    # broken pool.
    monkeypatch.setattr(workers_module, "_BATCHES_IN_FLIGHT_PER_WORKER", 0)
    outcomes = list(read_files(_tasks(folder, tmp_path / "parsed"), Recorder()))
    assert [(o.task.relative, o.reason) for o in outcomes] == [
        ("a.pdf", ""),
        ("b.pdf", CRASHED),
        ("c.pdf", ""),
        ("d.pdf", ""),
    ]


def test_reading_while_other_threads_run_uses_spawned_workers(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    write_pdf(folder / "a.pdf", ["Alpha page"])
    release = threading.Event()
    bystander = threading.Thread(target=release.wait)
    bystander.start()
    try:
        assert workers_module._pool_context().get_start_method() == "spawn"
        (outcome,) = read_files(_tasks(folder, tmp_path / "parsed"), Recorder())
    finally:
        release.set()
        bystander.join()
    assert outcome.reason == ""
    # Fork again once the bystander is gone, unless a thread of another test lives on in this
    # process (the browser seer keeps one for the process): the rule is the thread count.
    alone = threading.active_count() == 1
    assert workers_module._pool_context().get_start_method() == ("fork" if alone else "spawn")


def _never_done(batch: list[FileTask]) -> list[FileOutcome]:
    threading.Event().wait()  # a parse that would outlast any signal's grace
    return []


def test_abandoning_a_pool_terminates_its_busy_workers() -> None:
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
    future = pool.submit(_never_done, [])
    (worker,) = pool._processes.values()
    abandon(pool)
    # The sentinel closes when the worker's process ends, whoever reaps it: the pool's own
    # thread may join it at the same moment, and `is_alive()` in between would say True.
    assert multiprocessing.connection.wait([worker.sentinel], 30) == [worker.sentinel]
    assert future.cancelled() or isinstance(future.exception(timeout=30), BrokenProcessPool)


@pytest.fixture
def abandoned(monkeypatch: pytest.MonkeyPatch) -> list[ProcessPoolExecutor]:
    """The pools the reader abandons, recorded as they really are abandoned."""
    pools: list[ProcessPoolExecutor] = []

    def recorded(pool: ProcessPoolExecutor) -> None:
        pools.append(pool)
        abandon(pool)

    monkeypatch.setattr(workers_module, "abandon", recorded)
    return pools


def test_a_reader_stopped_mid_way_abandons_its_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, abandoned: list[ProcessPoolExecutor]
) -> None:
    folder = tmp_path / "docs"
    write_pdf(folder / "a.pdf", ["Alpha page"])
    write_pdf(folder / "b.pdf", ["Beta page"])
    monkeypatch.setattr(workers_module, "_FILES_PER_TASK", 1)
    reading = read_files(_tasks(folder, tmp_path / "parsed"), Recorder())
    next(reading)
    reading.close()  # what KeyboardInterrupt raised in the caller's loop does too
    assert len(abandoned) == 1


def test_a_reader_that_finishes_shuts_its_pool_down_gracefully(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    write_pdf(folder / "a.pdf", ["Alpha page"])

    def not_abandoned(pool: ProcessPoolExecutor) -> None:
        raise AssertionError("abandoned")

    monkeypatch.setattr(workers_module, "abandon", not_abandoned)
    (outcome,) = read_files(_tasks(folder, tmp_path / "parsed"), Recorder())
    assert outcome.reason == ""


_ORPHAN_MAKER = """
import multiprocessing, os, sys, threading
from concurrent.futures import ProcessPoolExecutor
from engine.sources.library.index.workers import die_with_parent

def wait_forever():
    threading.Event().wait()

if __name__ == "__main__":
    pool = ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("fork"),
        initializer=die_with_parent, initargs=(os.getpid(),),
    )
    pool.submit(wait_forever)
    (worker,) = pool._processes.values()
    print(worker.pid, flush=True)
    threading.Event().wait()
"""


def _gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in status  # a zombie waiting for init to reap it has exited


@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_dies_with_its_parent_when_the_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "orphan_maker.py"
    script.write_text(_ORPHAN_MAKER)
    with subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=Path.cwd()
    ) as parent:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        parent.kill()  # SIGKILL: no handler, no cleanup, as SIGTERM's default action
    for _ in range(500):  # polled: the kernel signals the worker as the parent exits
        if _gone(worker):
            break
        time.sleep(0.02)
    assert _gone(worker)


def _sized(task: FileTask, size: int) -> FileTask:
    return dataclasses.replace(task, size=size)


def test_a_deadline_already_passed_reads_nothing_and_starts_no_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    write_text(folder / "a.md", "Alpha.\n")
    write_pdf(folder / "b.pdf", ["Beta page"])

    def no_pool(*args: object, **options: object) -> None:
        raise AssertionError("pool started")

    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", no_pool)
    tasks = _tasks(folder, tmp_path / "parsed")
    clock = FakeClock()
    passed = Deadline(clock.now, clock)
    assert list(read_files(tasks, Recorder(), passed)) == []  # a PDF: the pooled way
    assert list(read_files(tasks[:1], Recorder(), passed)) == []  # one text file: inline


def test_files_read_here_stop_at_the_deadline_between_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    for name in "abcde":
        write_text(folder / f"{name}.md", f"Note {name}.\n")
    clock = FakeClock(0.0)
    reads = TimedReads(monkeypatch, clock, seconds=1.0)
    outcomes = list(
        read_files(_tasks(folder, tmp_path / "parsed"), Recorder(), Deadline(2.5, clock))
    )
    # a, b, c read by 3.0 s; the deadline is seen passed before d
    assert [o.task.relative for o in outcomes] == ["a.md", "b.md", "c.md"] == reads.read


def test_a_file_over_a_megabyte_is_batched_alone() -> None:
    task = FileTask("/docs/x", "x", DocumentKind.text, "", "", "/parsed")
    small, big = _sized(task, 10), _sized(task, workers_module.INLINE_BYTES + 1)
    batches = workers_module._batches([small, big, small, small])
    assert [[t.size for t in batch] for batch in batches] == [[10], [big.size], [10, 10]]


def test_a_large_text_file_alone_is_read_in_a_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a worker a deadline or a signal can cut it short; read here, only between files."""
    folder = tmp_path / "docs"
    write_text(folder / "big.md", "Alpha.\n")
    (task,) = _tasks(folder, tmp_path / "parsed")
    pooled: list[list[str]] = []
    real = workers_module._pooled

    def recorded(
        tasks: list[FileTask], deadline: Deadline | None, waiting: Callable[[], None]
    ) -> Generator[FileOutcome, None, None]:
        pooled.append([t.relative for t in tasks])
        return real(tasks, deadline, waiting)

    monkeypatch.setattr(workers_module, "_pooled", recorded)
    (outcome,) = read_files([_sized(task, workers_module.INLINE_BYTES + 1)], Recorder())
    assert outcome.reason == ""
    assert pooled == [["big.md"]]
    assert [o.reason for o in read_files([task], Recorder())] == [""]
    assert pooled == [["big.md"]]  # small: read here


def _slow_then_real(batch: list[FileTask]) -> list[FileOutcome]:
    if any(task.relative.startswith("slow") for task in batch):
        threading.Event().wait()  # a 200 MB file's parse, as far as the deadline cares
    return [read_for_index(task) for task in batch]


def test_a_file_still_read_at_the_deadline_is_abandoned_and_those_read_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, abandoned: list[ProcessPoolExecutor]
) -> None:
    folder = tmp_path / "docs"
    write_pdf(folder / "a.pdf", ["Alpha page"])
    write_text(folder / "slow.md", "Never read.\n")
    first, slow = _tasks(folder, tmp_path / "parsed")
    monkeypatch.setattr(workers_module, "_read_batch", _slow_then_real)
    monkeypatch.setattr(workers_module, "PROGRESS_POLL_SECONDS", 0.01)
    clock = FakeClock(0.0)
    progress = Recorder()

    def on_progress(message: str) -> None:
        progress(message)
        if message.startswith("reading: 1/2"):  # waiting for slow.md: time goes by
            clock.advance(10.0)

    tasks = [_sized(first, 1_000), _sized(slow, 3_000_000)]
    outcomes = list(read_files(tasks, on_progress, Deadline(5.0, clock)))
    assert [(o.task.relative, o.reason) for o in outcomes] == [("a.pdf", "")]
    assert len(abandoned) == 1  # the worker reading slow.md is killed, not waited for
    # While a file takes long, a line every PROGRESS_POLL_SECONDS says how far reading got.
    said = [m for m in progress.messages if not m.startswith("reading: 0/2")]
    assert said == ["indexing 1/2 files", "reading: 1/2 files (0 of 3 MB) indexed so far"]


def _done(outcomes: list[FileOutcome]) -> Future[list[FileOutcome]]:
    future: Future[list[FileOutcome]] = Future()
    future.set_result(outcomes)
    return future


def _in_flight(tmp_path: Path) -> tuple[workers_module._InFlight, list[FileTask]]:
    tasks = [FileTask(str(tmp_path / n), n, DocumentKind.text, "", "", "") for n in ("a", "b", "c")]
    pending: workers_module._InFlight = deque(
        [
            ([tasks[0]], Future()),  # still being read
            ([tasks[1]], _done([FileOutcome(tasks[1])])),
            ([tasks[2]], Future()),
        ]
    )
    return pending, tasks


def test_at_the_deadline_the_batches_done_behind_one_still_read_are_kept(
    tmp_path: Path,
) -> None:
    pending, tasks = _in_flight(tmp_path)
    clock = FakeClock()
    taking = workers_module._first(pending, Deadline(clock.now, clock), Recorder())
    taken, more = _drained(taking)
    assert more is False  # the deadline: no more reading
    assert [o.task for o in taken] == [tasks[1]]


def _drained(taking: Generator[FileOutcome, None, bool]) -> tuple[list[FileOutcome], bool]:
    """What the generator yields, and what it returns."""
    taken: list[FileOutcome] = []
    while True:
        try:
            taken.append(next(taking))
        except StopIteration as stopped:
            return taken, bool(stopped.value)


def test_at_ctrl_c_the_batches_done_are_kept_and_the_interrupt_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pending, tasks = _in_flight(tmp_path)
    monkeypatch.setattr(workers_module, "PROGRESS_POLL_SECONDS", 0.0)

    def interrupted() -> None:
        raise KeyboardInterrupt

    taking = workers_module._first(pending, None, interrupted)
    assert next(taking).task == tasks[1]
    with pytest.raises(KeyboardInterrupt):
        next(taking)


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is capped on Linux only")
def test_a_file_past_the_workers_memory_cap_fails_alone_and_is_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    write_text(folder / "big.md", "word " * 12_000_000)  # 60 MB: over 100 MB once decoded
    write_text(folder / "small.md", "A small note.\n")
    monkeypatch.setenv("FONTE_PARSE_MEMORY_MB", "100")
    tasks = [
        dataclasses.replace(task, size=Path(task.path).stat().st_size)
        for task in _tasks(folder, tmp_path / "parsed")
    ]
    big, small = read_files(tasks, Recorder())
    assert big.reason == TOO_LARGE
    assert big.cacheable  # the file's own reason: the next run does not read it again
    assert small.reason == ""


def test_progress_counts_the_pages_ocr_read(tmp_path: Path) -> None:
    """Scanned PDFs are what make an index build slow: a log hears how many pages OCR read."""
    tasks = [
        FileTask(str(tmp_path / name), name, DocumentKind.pdf, name, "", str(tmp_path))
        for name in ("scan.pdf", "text.pdf")
    ]
    progress = Recorder()
    counted = workers_module._Counted(tasks, progress)
    counted.read(FileOutcome(tasks[0], page_count=1_200, ocr_pages=1_180))
    counted.waiting()
    counted.read(FileOutcome(tasks[1], page_count=3))
    assert progress.messages == [
        "indexing 1/2 files, 1,180 pages read by OCR",
        "reading: 1/2 files (0 of 0 MB), 1,180 pages read by OCR indexed so far",
        "indexing 2/2 files, 1,180 pages read by OCR",
    ]


def test_a_scanned_page_is_counted_in_the_outcome(tmp_path: Path) -> None:
    if not ocr.ocr_available():
        pytest.skip("tesseract with por or eng data is not installed (.ci/run installs it)")
    path = tmp_path / "usina.pdf"
    pages = ["A usina entrou em operacao em 2021.", "A usina produziu 1.204 MWh em 2023."]
    path.write_bytes(with_page_scanned(pdf_bytes(pages), 1, dpi=200))
    task = FileTask(str(path), path.name, DocumentKind.pdf, file_sha256(path), "", str(tmp_path))
    assert read_for_index(task).ocr_pages == 1
