"""Heavy extraction in a child process that a cancel kills at once.

Extracting the text of a large body (lxml and trafilatura on an HTML page of many megabytes,
pdfium on a long PDF) holds the CPU for tens of seconds, and a thread cannot be interrupted:
Ctrl-C, SIGTERM and the run's time cap would wait for it, past Docker's 10 s grace. So a body
over `engine.documents.parse.INLINE_BYTES` is extracted in a child process (forkserver: safe
beside the event loop's threads); the event loop waits on the child's pipe, and cancelling the
wait kills the child. The child's memory is capped (`limits.cap_memory`): a body that still
needs more fails there (MemoryError, sent back) instead of growing the worker's container
until the kernel kills a process.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from engine.documents.limits import cap_memory
from engine.errors import SourceError

_T = TypeVar("_T")

_CONTEXT = multiprocessing.get_context("forkserver")


class ChildDied(SourceError):
    """The child process ended without an answer (killed, out of memory)."""


async def run_killable(function: Callable[..., _T], *args: Any) -> _T:
    """`function(*args)` in a child process; its exception is raised here. Cancelling the
    caller kills the child. `function` and its arguments must be picklable (top-level)."""
    receiving, sending = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_serve, args=(sending, function, args), daemon=True)
    child.start()
    sending.close()
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()
    loop.add_reader(receiving.fileno(), ready.set)
    try:
        await ready.wait()
        try:
            ok, value = receiving.recv()
        except EOFError:
            await asyncio.to_thread(child.join)
            raise ChildDied(f"the extraction process died (exit code {child.exitcode})") from None
    finally:
        loop.remove_reader(receiving.fileno())
        receiving.close()
        if child.is_alive():
            child.kill()
        await asyncio.to_thread(child.join)
    if not ok:
        raise value
    result: _T = value
    return result


def _serve(sending: Connection, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    cap_memory()
    try:
        outcome: tuple[bool, Any] = (True, function(*args))
    except BaseException as error:  # sent back to be raised in the caller
        outcome = (False, error)
    try:
        sending.send(outcome)
    except Exception as error:  # an unpicklable result or error: say what it was
        sending.send((False, RuntimeError(f"{type(error).__name__}: {error}")))
    finally:
        sending.close()
