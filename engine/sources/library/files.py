"""Finding the files of a library folder, with the size and modification time that tell
whether a file changed since it was indexed."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.sources.library.parse import DocumentKind, kind_of


@dataclass(frozen=True)
class ScannedFile:
    path: Path
    relative: str
    kind: DocumentKind
    size: int
    mtime_ns: int


def scan_folder(folder: Path) -> list[ScannedFile]:
    """Supported files under `folder`, recursively, in path order, with size and mtime;
    hidden files and folders skipped."""
    found: list[ScannedFile] = []
    for directory, subdirectories, names in os.walk(folder):
        subdirectories[:] = sorted(name for name in subdirectories if not name.startswith("."))
        for name in names:
            path = Path(directory, name)
            kind = kind_of(path)
            if kind is None or name.startswith("."):
                continue
            try:
                status = path.stat()
            except OSError:
                continue
            if os.path.isfile(path):
                relative = path.relative_to(folder).as_posix()
                found.append(ScannedFile(path, relative, kind, status.st_size, status.st_mtime_ns))
    return sorted(found, key=lambda file: file.relative)


def find_library_files(folder: Path) -> list[tuple[Path, DocumentKind]]:
    """Supported files under `folder` with their kind, in path order."""
    return [(file.path, file.kind) for file in scan_folder(folder)]
