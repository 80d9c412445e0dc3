"""Bringing a folder's index up to date: only new, changed and retitled files are read.

A file whose size and modification time match its catalog entry keeps that entry without
being hashed; one whose bytes did not change (same sha256) keeps its passages; the rest are
read (parsed text from the cache when it has them), tokenized, and their passages handed
to the store's writer under a fresh document key. The caller commits them, then saves the
new catalog, then removes the passages of keys it no longer names (`backend`).

A refresh stopped before the end (its `Deadline` passed, or Ctrl-C) keeps every file read
by then: the catalog names them, and the files not read are left out of it, listed as
`pending`, so the next refresh reads only those. That rule lives here, where files are
handed to the index, whatever the index's format.
"""

from __future__ import annotations

import dataclasses
import uuid
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import eq, is_not, ne, or_

from engine.sources.library.cache import file_sha256
from engine.sources.library.deadline import Deadline, passed
from engine.sources.library.files import FolderScan, ScannedFile
from engine.sources.library.index.backend import Notify, PassageWriter
from engine.sources.library.index.catalog import Catalog, CatalogColumns, CatalogEntry
from engine.sources.library.index.reading import TOO_LARGE, FileOutcome, FileTask
from engine.sources.library.ranking import title_tokens


@dataclass
class RefreshSummary:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    """Every unreadable file of the folder, with its reason (known ones included)."""
    pending: list[str] = field(default_factory=list)
    """Files not read because the refresh stopped first (its deadline, Ctrl-C): left out of
    the index, read by the next refresh."""
    pending_bytes: int = 0
    interrupted: bool = False
    """Ctrl-C (or SIGTERM made one) stopped the reading: the caller saves what was read,
    then raises KeyboardInterrupt again."""

    @property
    def any_change(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    @property
    def unfinished(self) -> bool:
        """The refresh stopped before every file was read."""
        return bool(self.pending)


@dataclass
class IndexState:
    """A catalog; `texts` holds the texts that could not be cached (by sha256), for an
    index whose cache is not writable."""

    catalog: Catalog
    texts: dict[str, tuple[str, ...]] = field(default_factory=dict)


def effective_title(manifest_title: str, own_title: str, file: ScannedFile) -> str:
    return manifest_title.strip() or own_title or file.stem


def is_current(catalog: Catalog, scan: FolderScan, titles: dict[str, str]) -> bool:
    """Whether `catalog` describes exactly the files of `scan`, unchanged, with these
    titles. Every opening asks it of every file: with the manifest titles the catalog was
    titled with, the columns are compared whole (`Catalog.same_files`); with other titles,
    each file's title is checked."""
    if len(scan) != len(catalog):
        return False
    if not catalog.same_files(scan.relatives, scan.kinds, scan.sizes, scan.mtimes):
        return False
    return catalog.titles == titles or _titled_alike(catalog, scan.files(), titles)


def _titled_alike(catalog: Catalog, files: list[ScannedFile], titles: dict[str, str]) -> bool:
    """Whether each indexed file of `catalog` (the same files as `files`) has the title
    these manifest `titles` give it."""
    entries = catalog.entries
    for file in files:
        entry = entries[file.relative]
        if entry.reason:  # unreadable: indexed with no title
            continue
        listed = titles.get(file.relative) if titles else None
        if listed is None and entry.own_title:  # its own title, as `effective_title` says
            if entry.title != entry.own_title:
                return False
        elif entry.title != effective_title(listed or "", entry.own_title, file):
            return False
    return True


def saved_part(state: IndexState, files: list[ScannedFile]) -> tuple[IndexState, RefreshSummary]:
    """What `state` (a saved index) says of `files` as they are, without reading any: the
    entries of unchanged files; every other file pending. For a run whose deadline passed
    before it could refresh (another process held the index meanwhile)."""
    entries: dict[str, CatalogEntry] = {}
    summary = RefreshSummary()
    unread: list[ScannedFile] = []
    for file in files:
        entry = state.catalog.entries.get(file.relative)
        if entry is None or _moved(entry, file):
            unread.append(file)
            continue
        entries[file.relative] = entry
        if not entry.indexed:
            summary.unreadable.append((file.relative, entry.reason))
    _left_for_next(unread, summary)
    catalog = Catalog(dict(sorted(entries.items())), state.catalog.titles)
    return dataclasses.replace(state, catalog=catalog), summary


def refresh(
    state: IndexState,
    scan: FolderScan,
    titles: dict[str, str],
    *,
    writer: PassageWriter,
    parsed_dir: str,
    on_progress: Notify,
    on_cache_error: Notify,
    deadline: Deadline | None = None,
) -> RefreshSummary:
    """Update `state` in place to describe the files of `scan`, the passages of the files
    read added to `writer` (the caller commits them, then saves the catalog). Returns what
    changed. Once `deadline` passes, or at Ctrl-C, no more file is read: the state
    describes the files read by then.

    The files whose path, kind, size and modification time the catalog holds already
    (titled with the same manifest titles) are found by comparing the scan's columns with
    the catalog's (`_moved_rows`), and keep their rows as they are: only the others are
    looked at one by one (at 100,000 files and one added, that is one)."""
    old = state.catalog
    kept = old.columns()
    position = dict(zip(kept.relative, range(len(kept.relative)), strict=True))
    folder = set(scan.relatives)
    rows: list[int] = list(map(position.get, scan.relatives, repeat(-1)))  # -1: a new file
    slots: list[int | str] = [*rows]
    """Each file's place in the new catalog, in path order: the old row kept as it is (its
    position), or the file's path, its entry in `entries` once made."""
    if old.titles == titles and kept.relative:  # so an unchanged file keeps its title
        looked_at = {scan.relatives[i] for i in _moved_rows(scan, kept, rows)}
    else:
        looked_at = folder
    for relative in looked_at:
        slots[bisect_left(scan.relatives, relative)] = relative
    summary = RefreshSummary()
    summary.unreadable = [
        (relative, why)
        for relative, why in old.unreadable()
        if relative in folder and relative not in looked_at
    ]
    entries: dict[str, CatalogEntry] = {}
    tasks: list[FileTask] = []
    unread: list[ScannedFile] = []
    scanned = {relative: _file(scan, relative) for relative in sorted(looked_at)}
    for relative, file in scanned.items():
        at = position.get(relative)
        previous = None if at is None else kept.row(at)
        title = titles.get(relative, "")
        entry = _keep(previous, file, title, summary)
        if entry is not None:
            entries[relative] = entry
            continue
        if passed(deadline):  # not even hashed: the next refresh reads it
            unread.append(file)
            continue
        sha = _sha256(file)
        if sha is None:
            entries[relative] = CatalogEntry(
                relative, file.kind, file.size, file.mtime_ns, "", "cannot read"
            )
            summary.unreadable.append((relative, "cannot read"))
            continue
        (summary.added if previous is None else summary.changed).append(relative)
        task = FileTask(str(file.path), relative, file.kind, sha, title, parsed_dir)
        tasks.append(dataclasses.replace(task, size=file.size))
    summary.removed = sorted(set(kept.relative) - folder)
    read: set[str] = set()
    # The parse workers (a process pool) are imported by the refresh that reads a file.
    from engine.sources.library.index.workers import read_files

    outcomes = read_files(tasks, on_progress, deadline)
    try:
        for outcome in outcomes:
            if outcome.cache_error:
                on_cache_error(outcome.cache_error)
            _take(outcome, scanned[outcome.task.relative], writer, state, entries, summary)
            read.add(outcome.task.relative)
    except KeyboardInterrupt:  # what was read is kept; the caller raises it again
        summary.interrupted = True
    finally:
        outcomes.close()
    unread += [scanned[task.relative] for task in tasks if task.relative not in read]
    _left_for_next(unread, summary)
    state.catalog = Catalog.of_columns(kept.merged(slots, entries), titles)
    summary.unreadable.sort()
    return summary


def _moved_rows(scan: FolderScan, kept: CatalogColumns, rows: list[int]) -> list[int]:
    """The files of `scan` (by position) that are not in `kept` as they are now: new (row
    -1), or of another kind, size or modification time than their row there. Every
    refresh asks it of every file: the columns are compared by `map`, at C speed."""
    new = map(eq, rows, repeat(-1))
    kinds = map(is_not, scan.kinds, map(kept.kind.__getitem__, rows))
    sizes = map(ne, scan.sizes, map(kept.size.__getitem__, rows))
    mtimes = map(ne, scan.mtimes, map(kept.mtime_ns.__getitem__, rows))
    moved = map(or_, map(or_, new, kinds), map(or_, sizes, mtimes))
    return list(compress(range(len(rows)), moved))


def _file(scan: FolderScan, relative: str) -> ScannedFile:
    """The file of `scan` at `relative` (its paths are sorted)."""
    at = bisect_left(scan.relatives, relative)
    return ScannedFile(
        scan.locations[at], relative, scan.kinds[at], scan.sizes[at], scan.mtimes[at]
    )


def _left_for_next(unread: list[ScannedFile], summary: RefreshSummary) -> None:
    """`unread` as the summary's pending files, no longer counted as added or changed."""
    left = {file.relative for file in unread}
    summary.pending = sorted(left)
    summary.pending_bytes = sum(file.size for file in unread)
    summary.added = [relative for relative in summary.added if relative not in left]
    summary.changed = [relative for relative in summary.changed if relative not in left]


def _take(
    outcome: FileOutcome,
    file: ScannedFile,
    writer: PassageWriter,
    state: IndexState,
    entries: dict[str, CatalogEntry],
    summary: RefreshSummary,
) -> None:
    """Hand one file's outcome to the index: its entry, or its reason for being unread."""
    try:
        entry = _entry_of(outcome, file, writer, state)
    except MemoryError:  # this file's passages did not fit: skipped, the rest goes on
        # Any of them the writer took are under a key no catalog names: removed with those.
        outcome = FileOutcome(outcome.task, reason=TOO_LARGE)
        entry = _entry_of(outcome, file, writer, state)
    if entry is not None:
        entries[file.relative] = entry
    if outcome.reason:
        summary.unreadable.append((file.relative, outcome.reason))
        for listed in (summary.added, summary.changed):
            if file.relative in listed:
                listed.remove(file.relative)


def _keep(
    previous: CatalogEntry | None,
    file: ScannedFile,
    manifest_title: str,
    summary: RefreshSummary,
) -> CatalogEntry | None:
    """The entry to keep for `file` without reading it, or None when it must be read."""
    if previous is None or previous.kind is not file.kind:
        return None
    if _moved(previous, file):
        try:
            sha = file_sha256(file.path)
        except OSError:
            return None
        if sha != previous.sha256:
            return None
        previous = previous._replace(size=file.size, mtime_ns=file.mtime_ns)
    if not previous.indexed:
        summary.unreadable.append((file.relative, previous.reason))
        return previous
    title = effective_title(manifest_title, previous.own_title, file)
    if previous.title != title:
        return None
    return previous


def _moved(entry: CatalogEntry, file: ScannedFile) -> bool:
    return entry.kind is not file.kind or (entry.size, entry.mtime_ns) != (file.size, file.mtime_ns)


def _sha256(file: ScannedFile) -> str | None:
    try:
        return file_sha256(file.path)
    except OSError:
        return None


def _entry_of(
    outcome: FileOutcome, file: ScannedFile, writer: PassageWriter, state: IndexState
) -> CatalogEntry | None:
    task = outcome.task
    base = CatalogEntry(file.relative, file.kind, file.size, file.mtime_ns, task.sha256, "")
    if outcome.reason:
        # A crashed worker's files are not remembered: the next open tries them again.
        return base._replace(reason=outcome.reason) if outcome.cacheable else None
    key = new_key()
    writer.add(key, outcome.passages)
    if outcome.texts is not None:
        state.texts[task.sha256] = outcome.texts
    return base._replace(
        own_title=outcome.own_title,
        title=outcome.title,
        page_count=outcome.page_count,
        key=key,
        passages=len(outcome.passages),
        length=sum(passage.tokens.count(" ") + 1 for passage in outcome.passages),
        title_tokens=" ".join(title_tokens(outcome.title)),
    )


def new_key() -> str:
    """A document key no other version of any file has had."""
    return uuid.uuid4().hex
