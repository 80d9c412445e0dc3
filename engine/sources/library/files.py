"""Finding the files of a library folder, with the size and modification time that tell
whether a file changed since it was indexed."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from stat import S_ISREG
from typing import NamedTuple

from engine.documents.parse import KIND_BY_SUFFIX, DocumentKind
from engine.words import ENGLISH, PORTUGUESE, LibraryWords


class Note(str):
    """A warning for the reports, in English (the string itself, which a terminal shows too)
    and in Portuguese (`pt`), so that a report's notes follow its language (`in_language`);
    both are worded by `engine.words` (`worded`). Names in it are
    library-relative and escaped (`engine.text.escapes`): no server path, no forged line."""

    pt: str

    def __new__(cls, en: str, pt: str) -> Note:
        note = super().__new__(cls, en)
        note.pt = pt
        return note

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]  # for pickle
        return str(self), self.pt

    def in_language(self, language: str) -> str:
        return self.pt if language == "pt" else str(self)


def worded(pick: Callable[[LibraryWords], str], **fields: object) -> Note:
    """A `Note` in both languages: the string `pick` takes from each table's library part
    (`engine.words`), filled in with the same `fields`."""
    return Note(pick(ENGLISH.library).format(**fields), pick(PORTUGUESE.library).format(**fields))


def in_language(note: str, language: str) -> str:
    """`note` in `language` when it is a `Note`; any other note as it is."""
    return note.in_language(language) if isinstance(note, Note) else note


class ScannedFile(NamedTuple):
    """A file the scan found: a tuple, made by the thousand on every opening (a frozen
    dataclass costs several times more to make)."""

    location: str
    """The file's path, as the scan found it (`path` makes a `Path` of it when asked: a
    warm opening asks for few, and a `Path` costs more than the `stat`)."""
    relative: str
    kind: DocumentKind
    size: int
    mtime_ns: int

    @property
    def path(self) -> Path:
        return Path(self.location)

    @property
    def stem(self) -> str:
        """`path.stem`, without making the `Path`."""
        name = self.relative.rpartition("/")[2]
        dot = name.rfind(".")
        return name[:dot] if 0 < dot < len(name) - 1 else name


@dataclass(frozen=True, slots=True)
class FolderScan:
    """The supported files under a folder, as columns in path order (position i of each
    list is one file): what every opening compares with the catalog, column by column,
    without a tuple made per file (`files` makes them, for a refresh)."""

    locations: list[str]
    relatives: list[str]
    kinds: list[DocumentKind]
    sizes: list[int]
    mtimes: list[int]

    @classmethod
    def of(cls, files: Sequence[ScannedFile]) -> FolderScan:
        columns = [list(map(itemgetter(field), files)) for field in range(5)]
        return cls(*columns)

    def __len__(self) -> int:
        return len(self.relatives)

    def files(self) -> list[ScannedFile]:
        columns = (self.locations, self.relatives, self.kinds, self.sizes, self.mtimes)
        return list(map(ScannedFile._make, zip(*columns, strict=True)))


def scan_folder(
    folder: Path, on_refused: Callable[[str, str], None] | None = None
) -> list[ScannedFile]:
    """Supported files under `folder` (see `scan_columns`), one tuple each."""
    return scan_columns(folder, on_refused).files()


def scan_columns(folder: Path, on_refused: Callable[[str, str], None] | None = None) -> FolderScan:
    """Supported files under `folder`, recursively, in path order, with size and mtime;
    hidden files and folders skipped, symbolic links to folders not followed. A link to a
    file outside the folder is refused (`on_refused` gets its path and why): the library
    never leaves its folder. A folder that cannot be listed (permission denied) is reported
    the same way, its path ending in "/". One `stat` per file: this runs on every open,
    over every file, so the loop does no more than it must."""
    inside = folder.resolve()
    found: list[tuple[str, str, DocumentKind, int, int]] = []
    kinds = KIND_BY_SUFFIX
    pending = [""]
    while pending:
        prefix = pending.pop()
        try:
            entries = list(os.scandir(folder / prefix if prefix else folder))
        except OSError as error:
            if on_refused is not None:
                reason = error.strerror or type(error).__name__
                on_refused(prefix or "./", f"folder not readable ({reason})")
            continue
        here: list[tuple[str, str, DocumentKind, int, int]] = []
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
                    if on_refused is not None:
                        on_refused(prefix + name, "a link to a file outside the library, not read")
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
    return FolderScan(locations, relatives, found_kinds, sizes, mtimes)


def find_library_files(folder: Path) -> list[tuple[Path, DocumentKind]]:
    """Supported files under `folder` with their kind, in path order."""
    return [(file.path, file.kind) for file in scan_folder(folder)]


def _resolves_inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve(strict=True).is_relative_to(folder)
    except (OSError, RuntimeError):  # a dangling or looping link
        return False
