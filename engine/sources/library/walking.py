"""Walking a library folder: every supported file with its size and modification time, in
path order, and what the walk refused. The standard library only, so that the walk can run
in a process of its own started before a command imports anything else (`start_walk`).

A warm question over a large library spends most of its opening on this walk (a `stat` per
file: 100,000 of them take over half a second), and a command spends as long importing
what it runs. `start_walk` runs this module as a script, `python -I -S walking.py FOLDER
SUFFIX…`, which starts in milliseconds (no site, no engine), walks, and writes the
`Walk` to its standard output (`marshal`: the same interpreter reads it); `FolderWalk`
reads it when the opening needs it. Whatever goes wrong there (no interpreter, a signal,
a torn output) only means the walk is done again in the process that asked.
"""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from operator import itemgetter
from pathlib import Path
from stat import S_ISREG
from typing import Generic, NamedTuple, TypeVar

_Kind = TypeVar("_Kind")
"""A kind of document: the engine's `DocumentKind`, or a suffix as the walk's process writes it."""
_OUTSIDE = "a link to a file outside the library, not read"


class Walk(NamedTuple, Generic[_Kind]):
    """The supported files under a folder as columns in path order (position i of each
    list is one file), and the refused paths with why (`walk`)."""

    relatives: list[str]
    locations: list[str]
    kinds: list[_Kind]
    sizes: list[int]
    mtimes: list[int]
    refused: list[tuple[str, str]]


def walk(folder: Path, kinds: Mapping[str, _Kind]) -> Walk[_Kind]:
    """Files under `folder` whose lower-case suffix `kinds` maps, recursively, in path
    order, each with its kind, size and mtime; hidden files and folders skipped, symbolic
    links to folders not followed. A link to a file outside the folder is refused: the
    library never leaves its folder. A folder that cannot be listed (permission denied) is
    refused the same way, its path ending in "/". One `stat` per file: this runs on every
    open, over every file, so the loop does no more than it must."""
    inside = folder.resolve()
    found: list[tuple[str, str, _Kind, int, int]] = []
    refused: list[tuple[str, str]] = []
    pending = [""]
    while pending:
        prefix = pending.pop()
        try:
            entries = list(os.scandir(folder / prefix if prefix else folder))
        except OSError as error:
            reason = error.strerror or type(error).__name__
            refused.append((prefix or "./", f"folder not readable ({reason})"))
            continue
        here: list[tuple[str, str, _Kind, int, int]] = []
        add = here.append
        folders: list[str] = []
        for entry in entries:
            name = entry.name
            if name[0] == ".":
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(f"{prefix}{name}/")
                    continue
                # `os.path.splitext`'s suffix: a name here has no leading dot
                dot = name.rfind(".")
                kind = kinds.get(name[dot:].lower()) if dot > 0 else None
                if kind is None:
                    continue
                if entry.is_symlink() and not _resolves_inside(Path(entry.path), inside):
                    refused.append((prefix + name, _OUTSIDE))
                    continue
                status = entry.stat()
            except OSError:
                continue
            if S_ISREG(status.st_mode):
                add((prefix + name, entry.path, kind, status.st_size, status.st_mtime_ns))
        here.sort()  # each folder's files, and the folders, in order: the whole nearly in
        found += here  # path order already, which the sort below then takes in one pass
        pending += sorted(folders, reverse=True)
    found.sort()  # by path: no two files have the same one
    relatives, locations, found_kinds, sizes, mtimes = (
        list(map(itemgetter(field), found)) for field in range(5)
    )
    return Walk(relatives, locations, found_kinds, sizes, mtimes, refused)


class FolderWalk(Generic[_Kind]):
    """A walk of `folder` started in a process of its own (`start_walk`): `result` waits
    for it, or walks here when that process could not give it."""

    def __init__(self, folder: Path, kinds: Mapping[str, _Kind]) -> None:
        self.folder = folder
        self._kinds = dict(kinds)
        self._child: subprocess.Popen[bytes] | None = None
        try:
            self._child = subprocess.Popen(
                [sys.executable, "-I", "-S", __file__, str(folder), *self._kinds],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            self._child = None

    def result(self) -> Walk[_Kind]:
        """The walk, as the child wrote it (its suffixes given their kinds again), or made
        here when the child failed."""
        walked = self._from_child()
        if walked is None:
            return walk(self.folder, self._kinds)
        kinds = list(map(self._kinds.__getitem__, walked.kinds))
        return Walk(walked.relatives, walked.locations, kinds, *walked[3:])

    def cancel(self) -> None:
        """Stop the child (its walk is not wanted)."""
        child, self._child = self._child, None
        if child is not None:
            if child.poll() is None:
                child.kill()
            child.communicate()  # its pipe closed, its status collected

    def _from_child(self) -> Walk[str] | None:
        child, self._child = self._child, None
        if child is None:
            return None
        output, _ = child.communicate()
        if child.returncode != 0:
            return None
        try:
            loaded = marshal.loads(output)
            walked: Walk[str] = Walk(*loaded)
        except (EOFError, ValueError, TypeError):
            return None
        if not _well_formed(walked, self._kinds):
            return None
        return walked


def start_walk(folder: Path, kinds: Mapping[str, _Kind]) -> FolderWalk[_Kind]:
    """The walk of `folder` (resolved) begun in a process of its own, for `kinds`' suffixes."""
    return FolderWalk(folder.resolve(), kinds)


def _well_formed(walked: Walk[str], kinds: Mapping[str, object]) -> bool:
    columns = walked[:5]
    return (
        all(isinstance(column, list) for column in (*columns, walked.refused))
        and len({len(column) for column in columns}) == 1
        and all(suffix in kinds for suffix in set(walked.kinds))
    )


def _resolves_inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve(strict=True).is_relative_to(folder)
    except (OSError, RuntimeError):  # a dangling or looping link
        return False


def _main(arguments: list[str], write: Callable[[bytes], object]) -> int:
    folder, *suffixes = arguments
    walked = walk(Path(folder), {suffix: suffix for suffix in suffixes})
    write(marshal.dumps(tuple(walked)))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:], sys.stdout.buffer.write))
