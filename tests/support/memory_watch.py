"""A memory limit as a container imposes it, for tests: a command run as a child, the
resident memory of its whole process tree read every few milliseconds, the tree killed once
it holds more than the limit (what a cgroup's OOM killer does). A test then asserts what
the command wrote and that it was not killed, never how long it took.

`python -m tests.support.memory_watch parse FILE` parses one file as the library does
(`parse_file_or_reason`) and prints its pages' count or its one-line reason: what a test of
a reader runs under the watch.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

GIGABYTE = 1 << 30
_POLL_SECONDS = 0.02
_SAFETY_SECONDS = 900.0
"""Only so that a hung child cannot hang the suite; no test asserts a duration."""


@dataclass(frozen=True)
class Watched:
    returncode: int
    stdout: str
    stderr: str
    peak: int
    """The largest resident memory of the tree seen, in bytes."""
    killed: bool
    """Whether the tree went over the limit and was killed."""


def run_watched(
    command: list[str], limit: int, *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Watched:
    """Run `command`, killing its process tree once its resident memory passes `limit`."""
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    peak, killed = 0, False
    started = time.monotonic()
    while child.poll() is None:
        peak = max(peak, tree_rss(child.pid))
        if peak > limit or time.monotonic() - started > _SAFETY_SECONDS:
            killed = peak > limit
            os.killpg(child.pid, signal.SIGKILL)
            break
        time.sleep(_POLL_SECONDS)
    stdout, stderr = child.communicate()
    return Watched(child.wait(), stdout.decode(), stderr.decode(), peak, killed)


def tree_rss(root: int) -> int:
    """The resident bytes of `root` and every process descending from it."""
    sizes = _processes()
    return sum(sizes.get(pid, (0, 0))[1] for pid in _tree(root, sizes))


def _tree(root: int, sizes: dict[int, tuple[int, int]] | None = None) -> set[int]:
    """`root` and its descendants."""
    known = _processes() if sizes is None else sizes
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, (parent, _) in known.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return tree & set(known) | {root}


def _processes() -> dict[int, tuple[int, int]]:
    """Each process's parent and resident bytes."""
    parents: dict[int, int] = {}
    sizes: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        parents[int(entry)] = int(fields.get("PPid", "0").strip() or 0)
        sizes[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0]) * 1024
    return {pid: (parents[pid], sizes[pid]) for pid in parents}


class Watchdog:
    """A container's limit on processes already running: each pid's tree is read every few
    milliseconds on a thread, and killed (`killed` names the pid) once past `limit`."""

    def __init__(self, pids: list[int], limit: int) -> None:
        self.killed: list[int] = []
        self.peak = 0
        self._pids, self._limit = pids, limit
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Watchdog:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._stop.wait(_POLL_SECONDS):
            for pid in self._pids:
                if pid in self.killed:
                    continue
                held = tree_rss(pid)
                self.peak = max(self.peak, held)
                if held > self._limit:
                    self.killed.append(pid)
                    for member in _tree(pid):
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(member, signal.SIGKILL)


def parse_command(path: Path) -> list[str]:
    """The command that parses `path` as the library does, for `run_watched`."""
    return [sys.executable, "-m", "tests.support.memory_watch", "parse", str(path)]


def _parse(path: str) -> None:
    from engine.documents import parse_file_or_reason

    parsed = parse_file_or_reason(path)
    print(parsed if isinstance(parsed, str) else f"read {len(parsed.texts)} pages")


if __name__ == "__main__":
    _parse(sys.argv[2])
