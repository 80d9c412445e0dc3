"""Reading a batch of files for the index, in a process pool when there is more than a
little to read: pypdfium2 is not thread-safe (another thread of the caller may be reading a
PDF too), and the pool spreads the work over every core. A worker that dies (a PDF crashing
pdfium) skips its files for this run only: they are not remembered as unreadable.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext

from engine.sources.library.index.reading import FileOutcome, FileTask, read_for_index
from engine.sources.library.parse import DocumentKind

Report = Callable[[str], None]

_POOLED_KINDS = frozenset({DocumentKind.pdf, DocumentKind.html})
# Below this many text files, a pool costs more to start than it saves.
_INLINE_TEXT_FILES = 16
_FILES_PER_TASK = 8
_BATCHES_IN_FLIGHT_PER_WORKER = 4


def read_files(tasks: list[FileTask], on_progress: Report) -> Iterator[FileOutcome]:
    """The outcome of each task, in task order, reporting progress as files are read."""
    total = len(tasks)
    pooled = any(task.kind in _POOLED_KINDS for task in tasks) or total > _INLINE_TEXT_FILES
    outcomes = _pooled(tasks) if pooled else map(read_for_index, tasks)
    for number, outcome in enumerate(outcomes, 1):
        yield outcome
        on_progress(f"indexing {number}/{total} files")


def _pooled(tasks: list[FileTask]) -> Iterator[FileOutcome]:
    batches = [tasks[i : i + _FILES_PER_TASK] for i in range(0, len(tasks), _FILES_PER_TASK)]
    workers = min(os.cpu_count() or 1, len(batches))
    window = workers * _BATCHES_IN_FLIGHT_PER_WORKER
    with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
        # A bounded window of batches in flight: finished ones wait in memory until taken.
        pending: deque[tuple[list[FileTask], Future[list[FileOutcome]]]] = deque()
        for batch in batches:
            pending.append((batch, _submit(pool, batch)))
            if len(pending) >= window:
                yield from _outcomes(*pending.popleft())
        while pending:
            yield from _outcomes(*pending.popleft())


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


def _pool_context() -> BaseContext:
    # fork starts fast and needs no importable __main__, but a child forked while other
    # threads run may inherit locks they hold: then spawn.
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")
