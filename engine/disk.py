"""Writing a file so that a crash leaves the old file or the new one, never half of it.

Every file Fonte writes for later (reports, parsed texts, page snapshots that the verifier
checks excerpts against) goes through `write_atomically`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, content: bytes, *, mode: int = 0o644) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`.

    The folder is created when missing. `mode`: mkstemp makes owner-only files, while a report
    or a cache entry is an ordinary readable file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX: the directory entry lives in the folder)."""
    with contextlib.suppress(OSError):  # some filesystems cannot open or sync a folder
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
