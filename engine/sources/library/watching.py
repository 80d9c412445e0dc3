"""Whether anything under a library folder changed since a process opened it, told by the
file system (Linux's inotify) rather than by walking the folder.

A process that keeps a library open (the bot, a worker) would otherwise walk the whole folder
before every research to learn that nothing changed: a `stat` per file, over half a second
at 100,000 files. A `FolderWatch` begun before the opening's walk (so that a change made
while it walks is seen too) watches every folder of the tree and every folder a link in it
points into; `changed` then reads what the kernel queued, without waiting. The kernel queues
an event inside the very call that changes the file, so a change made before `changed` is
asked is always seen: nothing is missed for having come a moment too early. Any event at all
(a file written, touched, created, removed or renamed, a folder made, the queue overflowing)
counts as a change, and the library is opened again, which walks the folder and reads only
the files that changed; so no event needs to be understood, only noticed.

Where inotify is missing (another system) or refuses (its limit on watches reached), there
is no watch (`watch_folder` gives None) and the library is walked before each research as
before. A folder on a network file system sees only this host's changes through inotify:
`FONTE_LIBRARY_WATCH=0` turns watching off for such a deployment.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
import weakref
from pathlib import Path

_IN_MODIFY = 0x002
_IN_ATTRIB = 0x004
_IN_CLOSE_WRITE = 0x008
_IN_MOVED_FROM = 0x040
_IN_MOVED_TO = 0x080
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_DELETE_SELF = 0x400
_IN_MOVE_SELF = 0x800
_IN_ONLYDIR = 0x01000000
_IN_DONT_FOLLOW = 0x02000000
_CHANGES = (
    _IN_MODIFY
    | _IN_ATTRIB
    | _IN_CLOSE_WRITE
    | _IN_MOVED_FROM
    | _IN_MOVED_TO
    | _IN_CREATE
    | _IN_DELETE
    | _IN_DELETE_SELF
    | _IN_MOVE_SELF
    | _IN_ONLYDIR
    | _IN_DONT_FOLLOW
)
_READ_BYTES = 65_536
_GONE = {errno.ENOENT, errno.ENOTDIR}
WATCH_SWITCH = "FONTE_LIBRARY_WATCH"


class FolderWatch:
    """The inotify instance watching a folder's tree (`watch_folder`), closed by `close` or
    when the watch is dropped (a library that failed to open, a library replaced)."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor = descriptor
        self._changed = False
        self._closing = weakref.finalize(self, os.close, descriptor)

    def changed(self) -> bool:
        """Whether anything under the folder changed since the watch began (once True,
        always True: the library it belongs to is then opened again, with a new watch)."""
        if not self._changed and self._descriptor >= 0:
            try:
                self._changed = bool(os.read(self._descriptor, _READ_BYTES))
            except BlockingIOError:  # nothing queued: nothing changed
                pass
            except OSError:  # the watch broke: nothing can be promised any more
                self._changed = True
        return self._changed or self._descriptor < 0

    def close(self) -> None:
        self._closing()  # once: a finalizer runs at most once
        self._descriptor = -1


def watch_folder(folder: Path) -> FolderWatch | None:
    """A watch of every folder under `folder` (itself included; hidden ones too: a link may
    point into them) and of the folders its links to files point into; None when the system
    cannot keep one (not Linux, the watch limit reached, `FONTE_LIBRARY_WATCH=0`)."""
    if os.environ.get(WATCH_SWITCH, "1").strip().lower() in {"0", "false", "no", "off"}:
        return None
    library = _libc()
    if library is None:
        return None
    descriptor = library.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    if descriptor < 0:
        return None
    watch = FolderWatch(descriptor)
    try:
        for watched in _folders_to_watch(folder):
            if library.inotify_add_watch(descriptor, os.fsencode(watched), _CHANGES) < 0:
                if ctypes.get_errno() in _GONE:  # its parent's watch saw it go
                    continue
                watch.close()  # the limit on watches, or no right to read it
                return None
    except OSError:
        watch.close()
        return None
    return watch


def _folders_to_watch(folder: Path) -> list[Path]:
    """`folder` and every folder under it (links to folders not followed, as the walk does
    not follow them), and the folder holding each linked file's target inside `folder`
    (hidden, or reached through a link to a folder)."""
    inside = folder.resolve()
    found = [folder]
    targets: set[Path] = set()
    pending = [folder]
    while pending:
        here = pending.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue  # the walk reports it; its parent's watch sees it made readable
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    found.append(Path(entry.path))
                    pending.append(Path(entry.path))
                elif entry.is_symlink():
                    target = Path(entry.path).resolve()
                    if target.is_relative_to(inside):  # one outside is never read
                        targets.add(target.parent)
            except OSError:
                continue
    return found + sorted(targets - set(found))


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        library = ctypes.CDLL(None, use_errno=True)  # the C library the process runs on
        library.inotify_init1.argtypes = [ctypes.c_int]
        library.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    except (OSError, AttributeError):
        return None
    return library
