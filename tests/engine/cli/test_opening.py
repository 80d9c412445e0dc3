import threading
from pathlib import Path

import pytest

from engine.cli import opening as opening_module
from engine.cli.opening import open_library
from engine.sources.library import Deadline, Library
from engine.sources.library.index import workers as workers_module
from tests.support.clock import FakeClock


class _Opened:
    """Stands in for `Library.open`: says what it was given, and progress three times."""

    def __init__(self) -> None:
        self.start_method = ""
        self.threads = 0
        self.deadline: Deadline | None = None

    def open(self, folder: Path, **options: object) -> Library:
        self.start_method = workers_module._pool_context().get_start_method()
        self.threads = threading.active_count()
        self.deadline = options["deadline"]  # type: ignore[assignment]
        on_progress = options["on_progress"]
        for message in ("reading /docs", "indexing 1/3 files", "indexing 2/3 files"):
            on_progress(message)  # type: ignore[operator]
        return Library.__new__(Library)


def test_without_a_terminal_progress_is_a_line_every_few_seconds_and_workers_fork(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    opened = _Opened()
    monkeypatch.setattr(opening_module, "Library", opened)
    clock = FakeClock()
    deadline = Deadline(clock.now + 6.0, clock)
    threads = threading.active_count()
    open_library(tmp_path, None, deadline)
    assert opened.deadline is deadline  # the run's deadline reaches the index build
    # No status line: its refresh thread would make the index's workers spawned, slow (a
    # thread another test left in this process, the browser seer's, does the same).
    assert opened.threads == threads
    assert opened.start_method == ("fork" if threads == 1 else "spawn")
    assert capsys.readouterr().err.splitlines() == ["library: reading /docs"]
