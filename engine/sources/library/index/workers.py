"""Reading a batch of files for the index, in a process pool when there is more than a
little to read: pypdfium2 is not thread-safe (another thread of the caller may be reading a
PDF too), and the pool spreads the work over every core. A worker that dies (a PDF crashing
pdfium) skips its files for this run only: they are not remembered as unreadable.

Reading stops at once when the caller stops taking outcomes (Ctrl-C raising
KeyboardInterrupt in the reading loop, a closed iterator): the workers are killed, not
waited for, so a signal is answered within a second even while a worker parses a 20 MB page.
On Linux a worker also dies with its parent (killed outright: SIGKILL, or SIGTERM with no
handler) instead of parsing on alone.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext

from engine.documents.parse import DocumentKind
from engine.sources.library.index.reading import FileOutcome, FileTask, read_for_index

Notify = Callable[[str], None]
"""Where the index says a line of progress or a warning."""

_POOLED_KINDS = frozenset({DocumentKind.pdf, DocumentKind.html})
# Below this many text files, a pool costs more to start than it saves.
_INLINE_TEXT_FILES = 16
_FILES_PER_TASK = 8
_BATCHES_IN_FLIGHT_PER_WORKER = 4
_JOIN_SECONDS = 1.0


def read_files(tasks: list[FileTask], on_progress: Notify) -> Generator[FileOutcome, None, None]:
    """The outcome of each task, in task order, reporting progress as files are read."""
    total = len(tasks)
    pooled = any(task.kind in _POOLED_KINDS for task in tasks) or total > _INLINE_TEXT_FILES
    if not pooled:
        for number, outcome in enumerate(map(read_for_index, tasks), 1):
            yield outcome
            on_progress(f"indexing {number}/{total} files")
        return
    outcomes = _pooled(tasks)
    try:
        for number, outcome in enumerate(outcomes, 1):
            yield outcome
            on_progress(f"indexing {number}/{total} files")
    finally:
        outcomes.close()  # the pool is abandoned when the caller stops before the end


def _pooled(tasks: list[FileTask]) -> Generator[FileOutcome, None, None]:
    batches = [tasks[i : i + _FILES_PER_TASK] for i in range(0, len(tasks), _FILES_PER_TASK)]
    workers = min(os.cpu_count() or 1, len(batches))
    window = workers * _BATCHES_IN_FLIGHT_PER_WORKER
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_pool_context(),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )
    finished = False
    try:
        # A bounded window of batches in flight: finished ones wait in memory until taken.
        pending: deque[tuple[list[FileTask], Future[list[FileOutcome]]]] = deque()
        for batch in batches:
            pending.append((batch, _submit(pool, batch)))
            if len(pending) >= window:
                yield from _outcomes(*pending.popleft())
        while pending:
            yield from _outcomes(*pending.popleft())
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            abandon(pool)


def abandon(pool: ProcessPoolExecutor) -> None:
    """Stop `pool` without waiting for the work it is doing: its workers are killed."""
    workers = list((pool._processes or {}).values())  # private: no public way
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        # SIGKILL, not SIGTERM: a forked worker inherits its parent's signal handlers, and
        # one that catches SIGTERM would parse on; an abandoned worker has nothing to save.
        worker.kill()
    for worker in workers:
        worker.join(_JOIN_SECONDS)


def _submit(pool: ProcessPoolExecutor, batch: list[FileTask]) -> Future[list[FileOutcome]]:
    try:
        return pool.submit(_read_batch, batch)
    except BrokenProcessPool as error:  # a worker died (or could not start): no more work
        failed: Future[list[FileOutcome]] = Future()
        failed.set_exception(error)
        return failed


def _read_batch(batch: list[FileTask]) -> list[FileOutcome]:
    return [read_for_index(task) for task in batch]


def _outcomes(batch: list[FileTask], future: Future[list[FileOutcome]]) -> list[FileOutcome]:
    try:
        return future.result()
    except Exception as error:  # a dead worker breaks the pool: skipped for this run only
        reason = f"parser failed ({type(error).__name__})"
        return [FileOutcome(task, reason=reason, cacheable=False) for task in batch]


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (a pool worker's initializer)."""
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
