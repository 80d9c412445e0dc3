import subprocess
import sys
from pathlib import Path

from engine.sources.library.index.lock import exclusive
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
