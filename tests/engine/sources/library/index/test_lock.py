import subprocess
import sys
from pathlib import Path

import pytest

from engine.sources.library.deadline import Deadline
from engine.sources.library.index import lock as lock_module
from engine.sources.library.index.lock import exclusive
from tests.support.clock import FakeClock
from tests.support.library_files import Recorder

_TAKE_LOCK = """
import sys
from pathlib import Path
from engine.sources.library.index.lock import exclusive
with exclusive(Path(sys.argv[1]), lambda message: print(message, flush=True)):
    print("acquired", flush=True)
"""


def test_a_second_process_waits_until_the_holder_releases(tmp_path: Path) -> None:
    lock = tmp_path / "index" / "lock"
    waits = Recorder()
    with exclusive(lock, waits):
        other = subprocess.Popen(
            [sys.executable, "-c", _TAKE_LOCK, str(lock)], stdout=subprocess.PIPE, text=True
        )
        assert other.stdout is not None
        # It says it waits, and can say nothing more while the lock is held here.
        assert other.stdout.readline().strip().startswith("waiting for another process")
    with other:
        assert other.stdout.readline().strip() == "acquired"
        assert other.wait() == 0
    assert waits.messages == []


def test_the_lock_is_free_again_after_use(tmp_path: Path) -> None:
    waits = Recorder()
    with exclusive(tmp_path / "lock", waits):
        pass
    with exclusive(tmp_path / "lock", waits):
        pass
    assert waits.messages == []


def test_a_wait_for_the_lock_ends_at_the_deadline_without_holding_it(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    waits, clock = Recorder(), FakeClock()
    with exclusive(lock, Recorder()), exclusive(lock, waits, Deadline(clock.now, clock)) as held:
        assert held is False
    assert waits.messages == ["waiting for another process refreshing this index"]
    with exclusive(lock, Recorder(), Deadline(clock.now, clock)) as held:
        assert held is True  # free: taken, whatever the deadline


def test_a_lock_released_before_the_deadline_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = tmp_path / "lock"
    holder = exclusive(lock, Recorder())
    holder.__enter__()
    clock = FakeClock()

    def released_meanwhile(seconds: float) -> None:  # the other process finishes
        holder.__exit__(None, None, None)

    monkeypatch.setattr(lock_module.time, "sleep", released_meanwhile)
    with exclusive(lock, Recorder(), Deadline(clock.now + 60.0, clock)) as held:
        assert held is True
