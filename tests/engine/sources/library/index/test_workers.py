import os
import threading
from pathlib import Path

import pytest

from engine.sources.library.cache import file_sha256
from engine.sources.library.index import workers as workers_module
from engine.sources.library.index.reading import FileOutcome, FileTask
from engine.sources.library.index.workers import read_files
from engine.sources.library.parse import DocumentKind
from tests.engine.sources.library.conftest import Recorder, write_pdf, write_text


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
    assert progress.messages == [f"indexing {n}/21 files" for n in range(1, 22)]


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


def _crash(batch: list[FileTask]) -> list[FileOutcome]:
    os._exit(1)  # what a segfault in pdfium looks like to the pool


def test_a_crashed_worker_skips_its_files_for_this_run_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    write_pdf(folder / "a.pdf", ["Alpha page"])
    write_pdf(folder / "b.pdf", ["Beta page"])
    monkeypatch.setattr(workers_module, "_read_batch", _crash)
    outcomes = list(read_files(_tasks(folder, tmp_path / "parsed"), Recorder()))
    assert [(o.reason, o.cacheable) for o in outcomes] == [
        ("parser failed (BrokenProcessPool)", False),
        ("parser failed (BrokenProcessPool)", False),
    ]


def test_files_submitted_after_a_worker_died_are_skipped_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    for name in "abc":
        write_pdf(folder / f"{name}.pdf", [f"Page {name}"])
    monkeypatch.setattr(workers_module, "_read_batch", _crash)
    monkeypatch.setattr(workers_module, "_FILES_PER_TASK", 1)
    # No batch waits: each is taken as soon as submitted, so the next submit meets a
    # broken pool.
    monkeypatch.setattr(workers_module, "_BATCHES_IN_FLIGHT_PER_WORKER", 0)
    outcomes = list(read_files(_tasks(folder, tmp_path / "parsed"), Recorder()))
    assert [(o.task.relative, o.reason, o.cacheable) for o in outcomes] == [
        (name, "parser failed (BrokenProcessPool)", False) for name in ("a.pdf", "b.pdf", "c.pdf")
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
    assert workers_module._pool_context().get_start_method() == "fork"
