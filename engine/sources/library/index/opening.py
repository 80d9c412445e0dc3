"""Opening a folder's index: as saved when it still describes the folder (no lock, no
writes), else refreshed under the folder's lock and saved for every other process.

When the cache cannot be written, the index is built in memory for this process only.

A refresh stopped by its deadline or by Ctrl-C is saved all the same: the files it read are
indexed for every later opening, which reads only the rest (`refresh`). After saving,
Ctrl-C goes on as the KeyboardInterrupt it was.

A refresh commits the new passages, then saves the catalog, then removes the passages of
the keys it no longer names (those of changed and removed files, and any a crashed refresh
left): a process that loaded the catalog then opened the passages, and found the catalog
unchanged meanwhile, has passages for every document its catalog names (`backend`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

from engine.documents.parse import DocumentKind
from engine.sources.library.deadline import Deadline
from engine.sources.library.files import FolderScan, scan_columns
from engine.sources.library.index.backend import (
    DamagedIndex,
    IndexBackend,
    Notify,
    PassageReader,
)
from engine.sources.library.index.catalog import Catalog, CatalogColumns, CatalogEntry
from engine.sources.library.index.passage_index import PassageIndex
from engine.sources.library.index.refresh import (
    IndexState,
    RefreshSummary,
    is_current,
    refresh,
    saved_part,
)
from engine.sources.library.index.tantivy_store import TantivyStore, folder_directory
from engine.sources.library.walking import FolderWalk

_CONSISTENT_TRIES = 3
"""Times a reader loads the catalog and opens the passages before it takes the lock
instead (each time a refresh replaced the catalog meanwhile)."""


@dataclass
class OpenedIndex:
    state: IndexState
    summary: RefreshSummary
    from_cache: bool
    """True when the saved index described the folder as it is (nothing was read)."""
    reader: PassageReader | None = None
    """The committed passages (None when none are: nothing indexed yet)."""

    def documents(self) -> list[CatalogEntry]:
        """The indexed files, in path order: their position is their document number."""
        return self.state.catalog.documents()

    def indexed(self) -> CatalogColumns:
        """The indexed files as columns (`documents`, with no entry made)."""
        return self.state.catalog.indexed()

    def passage_index(self) -> PassageIndex:
        return PassageIndex(self.reader, self.indexed())


@dataclass(frozen=True)
class _Saved:
    catalog: Catalog
    reader: PassageReader
    generation: Hashable = None


def open_index(
    folder: Path,
    index_root: Path,
    parsed_dir: Path,
    titles: dict[str, str],
    *,
    on_progress: Notify,
    on_cache_error: Callable[[OSError], None],
    on_refused: Callable[[str, str], None] | None = None,
    deadline: Deadline | None = None,
    store: IndexBackend | None = None,
    scan_ahead: FolderWalk[DocumentKind] | None = None,
) -> OpenedIndex:
    """The index of `folder` as it is now (kept in `store`, by default on this machine
    under `index_root`); `titles` are the manifest's titles by path;
    `on_refused` hears of each file the scan would not take (a link leading outside).
    Once `deadline` passes no more file is read: the index then holds the files read by
    then (`summary.pending` names the rest), and is saved so the next opening goes on.
    `scan_ahead` is the folder's walk begun already (`files.scan_columns`)."""
    scan = scan_columns(folder, on_refused, scan_ahead)
    if store is None:
        store = TantivyStore(folder_directory(index_root, folder))
    saved = _load(store)
    if saved is not None and is_current(saved.catalog, scan, titles):
        on_progress(f"index loaded from cache ({len(saved.catalog)} files)")
        return _as_saved(saved)
    try:
        with store.refreshing(on_progress, deadline) as held:
            if not held:  # the deadline passed while another process refreshed it
                state, summary = saved_part(
                    IndexState(saved.catalog if saved else Catalog()), scan.files()
                )
                return OpenedIndex(state, summary, True, saved.reader if saved else None)
            # Under the lock, the saved index is the latest and nobody else writes it: the
            # catalog loaded already, unless another process saved one since.
            current = _reloaded(store, saved)
            if current is not None and is_current(current.catalog, scan, titles):
                return _as_saved(current)  # another process refreshed it while this one waited
            args = (scan, titles, parsed_dir, on_progress, on_cache_error, deadline)
            return _refreshed(store, current, *args)
    except (OSError, DamagedIndex) as error:
        on_cache_error(error if isinstance(error, OSError) else OSError(str(error)))
    return _refreshed(
        TantivyStore(None),
        None,
        scan,
        titles,
        parsed_dir,
        on_progress,
        on_cache_error,
        deadline,
    )


def open_saved(store: IndexBackend) -> OpenedIndex | None:
    """The index `store` holds, as saved (no folder looked at: a worker without it);
    None when it holds none."""
    saved = _load(store)
    return None if saved is None else _as_saved(saved)


def _refreshed(
    store: IndexBackend,
    current: _Saved | None,
    scan: FolderScan,
    titles: dict[str, str],
    parsed_dir: Path,
    on_progress: Notify,
    on_cache_error: Callable[[OSError], None],
    deadline: Deadline | None,
) -> OpenedIndex:
    """`store` brought up to date from `current` (its saved index; None: start afresh),
    committed and saved; Ctrl-C, once what was read is saved, goes on as it was."""
    if current is None:
        store.reset()
        state, stored_keys = IndexState(Catalog()), set[str]()
    else:
        state, stored_keys = IndexState(current.catalog), _unnamed_keys(current)
    stored_keys |= state.catalog.keys()
    with store.writing() as writer:
        summary = refresh(
            state,
            scan,
            titles,
            writer=writer,
            parsed_dir=str(parsed_dir),
            on_progress=on_progress,
            on_cache_error=lambda message: on_cache_error(OSError(message)),
            deadline=deadline,
        )
        writer.commit()
        store.save_catalog(state.catalog)
        writer.remove(stored_keys - state.catalog.keys())
        writer.commit()
    opened = OpenedIndex(state, summary, from_cache=False, reader=store.reader())
    if summary.interrupted:
        raise KeyboardInterrupt
    return opened


def _unnamed_keys(saved: _Saved) -> set[str]:
    """The stored keys `saved`'s catalog may not name (a crashed refresh's): none when
    the store holds as many passages as the catalog names, else every stored key."""
    named = sum(saved.catalog.indexed().passages)
    return set() if saved.reader.passage_total() == named else saved.reader.keys()


def _load(store: IndexBackend) -> _Saved | None:
    """The saved catalog with the passages it names; None when either is absent, damaged
    or of another format, or refreshes kept replacing the catalog while this looked."""
    for _ in range(_CONSISTENT_TRIES):
        generation = store.catalog_generation()
        catalog = store.load_catalog()
        if catalog is None:
            return None
        try:
            reader = store.reader()
        except DamagedIndex:
            return None
        if store.catalog_generation() == generation:
            return _Saved(catalog, reader, generation)
    return None


def _reloaded(store: IndexBackend, saved: _Saved | None) -> _Saved | None:
    """The saved index as it is now (the lock held): `saved`'s catalog when it is still
    the one saved (not decoded again: a catalog names every file), with the passages
    opened afresh (what a refresh that saved no catalog left is listed too)."""
    if saved is None or saved.generation is None:
        return _load(store)
    if store.catalog_generation() != saved.generation:
        return _load(store)
    try:
        return _Saved(saved.catalog, store.reader(), saved.generation)
    except DamagedIndex:
        return None


def _as_saved(saved: _Saved) -> OpenedIndex:
    catalog = saved.catalog
    summary = RefreshSummary(unreadable=catalog.unreadable())
    return OpenedIndex(IndexState(catalog), summary, True, saved.reader)
