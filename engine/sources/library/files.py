"""Finding the files of a library folder and reading them, from the cache when it has them.

PDFs and HTML files not in the cache are parsed in a process pool: pypdfium2 is not
thread-safe (another thread of the caller may be reading a PDF too), and the pool spreads
the work over every core. Unreadable files are skipped with a warning, remembered in the
cache so they are not retried until their bytes change.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from pathlib import Path

from engine.sources.library.cache import ParsedTextCache, file_sha256
from engine.sources.library.parse import (
    DocumentKind,
    ParsedFile,
    kind_of,
    parse_file_or_reason,
)

Report = Callable[[str], None]

_POOLED_KINDS = frozenset({DocumentKind.pdf, DocumentKind.html})


@dataclass(frozen=True)
class LibraryFile:
    path: Path
    relative: str
    kind: DocumentKind
    sha256: str


def find_library_files(folder: Path) -> list[tuple[Path, DocumentKind]]:
    """Supported files under `folder`, recursively, sorted; hidden files and folders skipped."""
    found: list[tuple[str, Path, DocumentKind]] = []
    for directory, subdirectories, names in os.walk(folder):
        subdirectories[:] = sorted(name for name in subdirectories if not name.startswith("."))
        for name in names:
            path = Path(directory, name)
            kind = kind_of(path)
            if kind is not None and not name.startswith(".") and path.is_file():
                found.append((path.relative_to(folder).as_posix(), path, kind))
    return [(path, kind) for _, path, kind in sorted(found)]


def read_library_files(
    folder: Path,
    cache: ParsedTextCache,
    *,
    on_warning: Report,
    on_progress: Report,
    on_cache_error: Callable[[OSError], None],
) -> list[tuple[LibraryFile, ParsedFile]]:
    """The readable files of `folder` with their text, in path order."""
    files: list[LibraryFile] = []
    for path, kind in find_library_files(folder):
        relative = path.relative_to(folder).as_posix()
        try:
            files.append(LibraryFile(path, relative, kind, file_sha256(path)))
        except OSError as error:
            on_warning(f"skipped {relative}: cannot read ({error.strerror or error})")
    results: dict[str, ParsedFile | str] = {}
    missing: list[LibraryFile] = []
    for file in files:
        cached = cache.get(file.sha256, file.kind)
        if cached is None:
            missing.append(file)
        else:
            results[file.relative] = cached
    if missing:
        for file, result, keep in _parse_all(missing, on_progress):
            results[file.relative] = result
            if not keep:
                continue
            try:
                cache.put(file.sha256, file.kind, result)
            except OSError as error:
                on_cache_error(error)
    readable: list[tuple[LibraryFile, ParsedFile]] = []
    for file in files:
        result = results[file.relative]
        if isinstance(result, str):
            on_warning(f"skipped {file.relative}: {result}")
        else:
            readable.append((file, result))
    return readable


def _parse_all(
    files: list[LibraryFile], on_progress: Report
) -> list[tuple[LibraryFile, ParsedFile | str, bool]]:
    """(file, text or reason, whether the outcome may be cached) for each file."""
    pooled = [file for file in files if file.kind in _POOLED_KINDS]
    inline = [file for file in files if file.kind not in _POOLED_KINDS]
    done: list[tuple[LibraryFile, ParsedFile | str, bool]] = []

    def record(file: LibraryFile, result: ParsedFile | str, cacheable: bool = True) -> None:
        done.append((file, result, cacheable))
        on_progress(f"parsing {len(done)}/{len(files)} files")

    for file in inline:
        record(file, parse_file_or_reason(str(file.path)))
    if pooled:
        workers = min(os.cpu_count() or 1, len(pooled))
        with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
            # Largest first, so one big PDF does not start last and run alone.
            by_size = sorted(pooled, key=lambda file: -file.path.stat().st_size)
            futures = {pool.submit(parse_file_or_reason, str(f.path)): f for f in by_size}
            for future in as_completed(futures):
                try:
                    record(futures[future], future.result())
                # A worker that dies (a PDF crashing pdfium) breaks the pool: those files
                # are skipped for this run only, not remembered as unreadable.
                except Exception as error:
                    record(futures[future], f"parser failed ({type(error).__name__})", False)
    return done


def _pool_context() -> BaseContext:
    # fork starts fast and needs no importable __main__, but a child forked while other
    # threads run may inherit locks they hold: then spawn.
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")
