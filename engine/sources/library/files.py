"""Finding the files of a library folder, with the size and modification time that tell
whether a file changed since it was indexed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

from engine.documents.parse import KIND_BY_SUFFIX, DocumentKind
from engine.sources.library.walking import FolderWalk, start_walk, walk
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


def scan_columns(
    folder: Path,
    on_refused: Callable[[str, str], None] | None = None,
    ahead: FolderWalk[DocumentKind] | None = None,
) -> FolderScan:
    """Supported files under `folder`, recursively, in path order, with size and mtime
    (`walking.walk`: hidden files and folders skipped, links to folders not followed).
    `on_refused` hears of each path the walk refused and why: a link to a file outside
    the folder (the library never leaves it), a folder that cannot be listed (its path
    ending in "/"). `ahead` is this folder's walk begun already (`start_scan`), else
    the folder is walked here."""
    if ahead is not None and ahead.folder == folder.resolve():
        walked = ahead.result()
    else:
        if ahead is not None:
            ahead.cancel()
        walked = walk(folder, KIND_BY_SUFFIX)
    if on_refused is not None:
        for relative, reason in walked.refused:
            on_refused(relative, reason)
    return FolderScan(walked.locations, walked.relatives, walked.kinds, walked.sizes, walked.mtimes)


def start_scan(folder: Path) -> FolderWalk[DocumentKind]:
    """`folder`'s walk begun in a process of its own, for `scan_columns` to take (`ahead`)
    once the command has imported what it runs."""
    return start_walk(folder, KIND_BY_SUFFIX)


def find_library_files(folder: Path) -> list[tuple[Path, DocumentKind]]:
    """Supported files under `folder` with their kind, in path order."""
    return [(file.path, file.kind) for file in scan_folder(folder)]
