"""The processes that reading documents starts (Tesseract, LibreOffice, the index's pool of
parsers), stopped all at once when the process is asked to stop.

A page read by OCR takes seconds, a LibreOffice print tens of seconds, a 300-page scan
minutes, and all of it runs in threads or worker processes that no signal reaches: Python
runs signal handlers in the main thread only, and a thread waiting for a child waits until
the child ends. So every such child is started through here (`run_child`, or `stopped_by`
for anything with its own way to stop, such as a process pool), and a signal handler (the
CLI's, the bot worker's) calls `stop_children`: each one running is killed at once, by
pid, and none starts after it. The threads that waited for them return within moments
(`run_child` gives None, as for a child that failed), and loops over pages look at
`stopping` before each page, so nothing long is started again.

Each child runs in a session of its own, killed with its group (LibreOffice's launcher starts
the office as a child), so a terminal's Ctrl-C does not reach it: the process stops it, at
its exit too (`atexit`). One process is stopped once: `stop_children` is for a process on its
way out. Tests, which stop and carry on in one process, call `resume_children` afterwards.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

_LOCK = threading.Lock()
_STOPPED = threading.Event()
_RUNNING: dict[int, Callable[[], object]] = {}
"""What stops each child or pool running, by a key of its own (a child's pid)."""


@dataclass(frozen=True)
class ChildOutput:
    """What a child wrote, and how it ended."""

    returncode: int
    stdout: bytes
    stderr: bytes


def run_child(
    command: Sequence[str],
    *,
    input: bytes | None = None,
    timeout: float,
    env: Mapping[str, str] | None = None,
) -> ChildOutput | None:
    """Run `command` to its end, feeding it `input`, within `timeout` seconds; None when it
    cannot start, runs past its timeout or is stopped (`stop_children`), the child killed
    then. However the caller is left (KeyboardInterrupt too), the child does not outlive
    the call."""
    if _STOPPED.is_set():
        return None
    try:
        child = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=None if env is None else dict(env),
            start_new_session=True,  # a group of its own: what it starts dies with it
        )
    except OSError:
        return None
    kill = functools.partial(_kill_group, child)
    with stopped_by(kill, key=child.pid) as registered:
        try:
            if not registered:
                return None
            stdout, stderr = child.communicate(input, timeout=timeout)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            return None
        finally:
            if child.poll() is None:
                kill()
            with contextlib.suppress(subprocess.TimeoutExpired, OSError, ValueError):
                child.communicate(timeout=1.0)
    if _STOPPED.is_set():  # killed by a stop: what it wrote is not its answer
        return None
    return ChildOutput(child.returncode, stdout, stderr)


@contextlib.contextmanager
def stopped_by(stop: Callable[[], object], *, key: int | None = None) -> Iterator[bool]:
    """While inside, `stop_children` calls `stop` (it must not wait for what it stops).
    Yields False, having called `stop` already, when the process was stopped first."""
    key = id(stop) if key is None else key
    with _LOCK:
        registered = not _STOPPED.is_set()
        if registered:
            _RUNNING[key] = stop
    if not registered:
        stop()
    try:
        yield registered
    finally:
        with _LOCK:
            _RUNNING.pop(key, None)


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    """Kill `child` and every process of its group (LibreOffice's launcher starts the office
    as a child of its own), by pid."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:  # gone already, or not a group leader yet
        child.kill()


def stop_children() -> int:
    """Stop every child and pool running now and refuse new ones; how many were stopped.
    Safe from a signal handler run on an event loop (`loop.add_signal_handler`)."""
    with _LOCK:
        _STOPPED.set()
        stops = list(_RUNNING.values())
        _RUNNING.clear()
    for stop in stops:
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            stop()
    return len(stops)


atexit.register(stop_children)  # each in a session of its own: no terminal's Ctrl-C reaches it


def stopping() -> bool:
    """Whether `stop_children` was called: a loop over pages reads no further page."""
    return _STOPPED.is_set()


def resume_children() -> None:
    """Allow children again after `stop_children` (for a process that carries on: tests)."""
    _STOPPED.clear()
