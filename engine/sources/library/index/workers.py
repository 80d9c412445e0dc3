"""Reading a batch of files for the index, in a process pool when there is more than a
little to read: pypdfium2 is not thread-safe (another thread of the caller may be reading a
PDF too), and the pool spreads the work over every core. A worker that dies (a PDF crashing
pdfium, the kernel's OOM killer) breaks the pool: a new one reads on, and the files that were
in flight are read again one at a time, each in a worker of its own, so the one that kills
its worker again is remembered as unreadable (`CRASHED`) and the others are read.

Reading stops at once when the caller stops taking outcomes (Ctrl-C raising
KeyboardInterrupt in the reading loop, a closed iterator): the workers are killed, not
waited for, so a signal is answered within a second even while a worker parses a 20 MB page.
On Linux a worker also dies with its parent (killed outright: SIGKILL, or SIGTERM with no
handler) instead of parsing on alone.

Reading also stops at a `Deadline` (the run's time cap): the outcomes taken by then are
what was read, the rest is not, and the workers are killed the same way. A file over
`INLINE_BYTES` is read in a worker of its own, even alone: seconds of parsing that a
deadline or a signal must be able to cut (a loop in this process could only be left between
files). PDF, HTML and Office files are read in the pool whatever their size, and a worker's
memory is capped (`prepare_reader`): a file that needs more fails alone, `TOO_LARGE`,
remembered as unreadable. While a file takes long, a progress line still comes every
`PROGRESS_POLL_SECONDS`.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext

from engine.documents.children import stopped_by, stopping
from engine.documents.limits import PARSE_MEMORY_BYTES, cap_memory
from engine.documents.parse import INLINE_BYTES, OFFICE_KINDS, DocumentKind
from engine.settings import env_number
from engine.sources.library.deadline import Deadline, passed
from engine.sources.library.index.backend import Notify
from engine.sources.library.index.reading import FileOutcome, FileTask, read_for_index

_POOLED_KINDS = frozenset({DocumentKind.pdf, DocumentKind.html}) | OFFICE_KINDS
"""Kinds read in the pool whatever their size: a small PDF or Office package may still
inflate or render to far more than it weighs, and only a worker has a memory cap."""
PARSE_MEMORY_MB = "FONTE_PARSE_MEMORY_MB"
"""The address space a worker may add to what it starts with (`limits.PARSE_MEMORY_BYTES`)."""
# Below this many text files, a pool costs more to start than it saves.
_INLINE_TEXT_FILES = 16
_FILES_PER_TASK = 8
_BATCHES_IN_FLIGHT_PER_WORKER = 4
_JOIN_SECONDS = 1.0
PROGRESS_POLL_SECONDS = 2.0
"""How often a wait for a worker looks at the deadline and says how far reading got."""


def read_files(
    tasks: list[FileTask], on_progress: Notify, deadline: Deadline | None = None
) -> Generator[FileOutcome, None, None]:
    """The outcome of each task, in task order, reporting progress as files are read. Once
    `deadline` passes no more is read: the tasks without an outcome are left unread."""
    total = len(tasks)
    pooled = any(task.kind in _POOLED_KINDS or task.size > INLINE_BYTES for task in tasks)
    if not (pooled or total > _INLINE_TEXT_FILES):
        for number, task in enumerate(tasks, 1):
            if passed(deadline):
                return
            yield read_for_index(task)
            on_progress(f"indexing {number}/{total} files")
        return
    counted = _Counted(tasks, on_progress)
    outcomes = _pooled(tasks, deadline, counted.waiting)
    try:
        for outcome in outcomes:
            yield outcome
            counted.read(outcome)
    finally:
        outcomes.close()  # the pool is abandoned when the caller stops before the end


class _Counted:
    """The files and bytes read so far, said after each file and while waiting for one."""

    def __init__(self, tasks: list[FileTask], on_progress: Notify) -> None:
        self._on_progress = on_progress
        self._total = len(tasks)
        self._bytes = sum(task.size for task in tasks)
        self._files_read = 0
        self._bytes_read = 0
        self._ocr_pages = 0

    def read(self, outcome: FileOutcome) -> None:
        self._files_read += 1
        self._bytes_read += outcome.task.size
        self._ocr_pages += outcome.ocr_pages
        self._on_progress(f"indexing {self._files_read}/{self._total} files{self._ocr()}")

    def waiting(self) -> None:
        megabytes = f"{self._bytes_read / 1e6:,.0f} of {self._bytes / 1e6:,.0f} MB"
        self._on_progress(
            f"reading: {self._files_read}/{self._total} files ({megabytes}){self._ocr()}"
            " indexed so far"
        )

    def _ocr(self) -> str:
        """ ", N pages read by OCR" once any were: a log says why scanned files take long."""
        return f", {self._ocr_pages:,} pages read by OCR" if self._ocr_pages else ""


def _batches(tasks: list[FileTask]) -> list[list[FileTask]]:
    """Up to `_FILES_PER_TASK` files a batch; a file over `INLINE_BYTES` alone in its own,
    so that what a deadline cuts short is that file, not the small ones batched with it."""
    batches: list[list[FileTask]] = []
    for task in tasks:
        alone = task.size > INLINE_BYTES
        if alone or not batches or len(batches[-1]) >= _FILES_PER_TASK:
            batches.append([task])
        else:
            batches[-1].append(task)
        if alone:
            batches.append([])
    return [batch for batch in batches if batch]


_InFlight = deque[tuple[list[FileTask], Future[list[FileOutcome]]]]


def _pooled(
    tasks: list[FileTask], deadline: Deadline | None, waiting: Callable[[], None]
) -> Generator[FileOutcome, None, None]:
    batches = _batches(tasks)
    if not batches or passed(deadline):
        return
    workers = min(os.cpu_count() or 1, len(batches))
    window = workers * _BATCHES_IN_FLIGHT_PER_WORKER
    pools = _Pools(workers)
    finished = False
    try:
        finished = yield from _run_pool(pools, batches, window, deadline, waiting)
    finally:
        pools.close(finished)


class _Pools:
    """The pool batches are sent to, started again when a worker's death broke it: the
    batches in flight then fail, and are read again a file at a time (`_outcomes`)."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._current = _reading_pool(workers)
        self._broken: list[ProcessPoolExecutor] = []

    def submit(self, batch: list[FileTask]) -> Future[list[FileOutcome]]:
        try:
            return self._current.submit(_read_batch, batch)
        except BrokenProcessPool:
            self._broken.append(self._current)
            self._current = _reading_pool(self._workers)
        return _submit(self._current, batch)

    def kill(self) -> None:
        """Kill every worker of every pool started so far (a stop: `children.stopped_by`)."""
        for pool in [*self._broken, self._current]:
            _kill_workers(pool)

    def close(self, finished: bool) -> None:
        for broken in self._broken:
            abandon(broken)
        if finished:
            self._current.shutdown(wait=True)
        else:
            abandon(self._current)


def _reading_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_pool_context(),
        initializer=prepare_reader,
        initargs=(os.getpid(), parse_memory()),
    )


def _run_pool(
    pools: _Pools,
    batches: list[list[FileTask]],
    window: int,
    deadline: Deadline | None,
    waiting: Callable[[], None],
) -> Generator[FileOutcome, None, bool]:
    """The outcomes of `batches` read in `pools`: True once all are taken, False when the
    deadline passed or the process is stopping (`children.stop_children` kills the pools'
    workers from whichever thread it runs in, and no batch is sent after it)."""
    with stopped_by(pools.kill):
        # A bounded window of batches in flight: finished ones wait in memory until taken.
        pending: _InFlight = deque()
        for batch in batches:
            if stopping():
                return False
            pending.append((batch, pools.submit(batch)))
            if len(pending) >= window and not (yield from _first(pending, deadline, waiting)):
                return False
        while pending:
            if stopping() or not (yield from _first(pending, deadline, waiting)):
                return False
        return True


def _first(
    pending: _InFlight, deadline: Deadline | None, waiting: Callable[[], None]
) -> Generator[FileOutcome, None, bool]:
    """The outcomes of the first batch in flight, once it is done (True). At the deadline
    (False) or Ctrl-C (raised again), those of the batches already done instead: read
    already, they are kept; the rest is dropped with the pool."""
    try:
        done = _waited(pending[0][1], deadline, waiting)
    except KeyboardInterrupt:
        yield from _finished(pending)
        raise
    if not done:
        yield from _finished(pending)
        return False
    yield from _outcomes(*pending.popleft(), deadline)
    return True


def _waited(
    future: Future[list[FileOutcome]], deadline: Deadline | None, waiting: Callable[[], None]
) -> bool:
    """Wait until `future` is done (True) or `deadline` passed (False), calling `waiting`
    every `PROGRESS_POLL_SECONDS` meanwhile."""
    while True:
        timeout = (
            PROGRESS_POLL_SECONDS
            if deadline is None
            else min(PROGRESS_POLL_SECONDS, deadline.remaining())
        )
        if wait([future], timeout=timeout).done:
            return True
        if passed(deadline):
            return False
        waiting()


def _finished(pending: _InFlight) -> Generator[FileOutcome, None, None]:
    """The outcomes of the batches in flight that are done already."""
    for batch, future in pending:
        if future.done():
            yield from _outcomes(batch, future, None, alone=False)


def abandon(pool: ProcessPoolExecutor) -> None:
    """Stop `pool` without waiting for the work it is doing: its workers are killed."""
    workers = _kill_workers(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.join(_JOIN_SECONDS)


def _kill_workers(pool: ProcessPoolExecutor) -> list[multiprocessing.Process]:
    """Kill `pool`'s workers now, each with what it started (its process group: Tesseract
    reading a page), without waiting for them; the workers killed."""
    workers = list((pool._processes or {}).values())  # private: no public way
    for worker in workers:
        # SIGKILL, not SIGTERM: a forked worker inherits its parent's signal handlers, and
        # one that catches SIGTERM would parse on; an abandoned worker has nothing to save.
        try:
            os.killpg(worker.pid, signal.SIGKILL) if worker.pid else worker.kill()
        except OSError:  # not yet its own group (still starting), or gone already
            worker.kill()
    return workers


def _submit(pool: ProcessPoolExecutor, batch: list[FileTask]) -> Future[list[FileOutcome]]:
    try:
        return pool.submit(_read_batch, batch)
    except BrokenProcessPool as error:  # a worker died (or could not start): no more work
        failed: Future[list[FileOutcome]] = Future()
        failed.set_exception(error)
        return failed


def _read_batch(batch: list[FileTask]) -> list[FileOutcome]:
    return [read_for_index(task) for task in batch]


CRASHED = "the parser crashed on it (out of memory?)"
"""A file whose worker died while it was read alone: remembered, not read again."""


def _outcomes(
    batch: list[FileTask],
    future: Future[list[FileOutcome]],
    deadline: Deadline | None,
    *,
    alone: bool = True,
) -> list[FileOutcome]:
    """The batch's outcomes. When a worker's death broke the pool (a file past its memory
    cap that the kernel killed, a parser crashing), each file of the batch is read again in
    a worker of its own (unless `alone` is False or `deadline` passed): the one that kills
    it too is `CRASHED`, the others are read."""
    try:
        return future.result()
    except BrokenProcessPool:
        if alone and not passed(deadline):
            return [_alone(task, deadline) for task in batch]
        failed = "parser failed (BrokenProcessPool)"
    except Exception as error:  # skipped for this run only
        failed = f"parser failed ({type(error).__name__})"
    return [FileOutcome(task, reason=failed, cacheable=False) for task in batch]


def _alone(task: FileTask, deadline: Deadline | None) -> FileOutcome:
    """`task` read in a pool of one worker; `CRASHED` when that worker dies too."""
    pool = _reading_pool(1)
    try:
        with stopped_by(lambda: _kill_workers(pool)):
            future = _submit(pool, [task])
            done = _waited(future, deadline, lambda: None)
        if not done:
            return FileOutcome(task, reason="not read before the deadline", cacheable=False)
        try:
            (outcome,) = future.result()
        except BrokenProcessPool:
            return FileOutcome(task, reason=CRASHED)
        except Exception as error:
            return FileOutcome(
                task, reason=f"parser failed ({type(error).__name__})", cacheable=False
            )
        return outcome
    finally:
        abandon(pool)


_PR_SET_PDEATHSIG = 1


def parse_memory() -> int:
    """The bytes a worker may add to its address space (`FONTE_PARSE_MEMORY_MB`); read by
    the parent, so that a bad value is one line there, not a pool that cannot start."""
    megabytes = env_number(os.environ, PARSE_MEMORY_MB, PARSE_MEMORY_BYTES / 1e6, minimum=1)
    return int(megabytes * 1e6)


def prepare_reader(parent: int, memory: int) -> None:
    """A pool worker's initializer: it dies with its parent (`die_with_parent`), and its
    address space may grow by `memory` bytes at most (`limits.cap_memory`), so that a file
    needing more fails in the worker as `TOO_LARGE` instead of the kernel killing a process
    for it."""
    die_with_parent(parent)
    cap_memory(memory)


def die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (a pool worker's initializer),
    and lead a process group of its own, so that what it starts (Tesseract) is killed with
    it (`_kill_workers`), and a terminal's Ctrl-C reaches the parent alone, which stops it."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    if sys.platform == "linux":
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl: the worker ends when its queue breaks
            return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _pool_context() -> BaseContext:
    # fork starts fast and needs no importable __main__, but a child forked while other
    # threads run may inherit locks they hold: then spawn.
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")
