"""Children the stop tests start: a command that writes its pid, then would run a minute, and
whether a pid still runs."""

from __future__ import annotations

import time
from pathlib import Path


def long_command(pid_file: Path) -> str:
    """A shell script that writes its pid to `pid_file` and then sleeps a minute."""
    return f"echo $$ > {pid_file}\nexec sleep 60\n"


def started_pid(pid_file: Path) -> int:
    """The pid a child wrote once it runs (waiting for it to start, not timing it)."""
    for _ in range(3000):
        if pid_file.exists() and pid_file.read_text().strip():
            return int(pid_file.read_text())
        time.sleep(0.01)
    raise AssertionError("the child never started")


def running(pid: int) -> bool:
    """Whether `pid` is a live process (neither gone nor a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
