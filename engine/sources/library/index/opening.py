"""Opening a folder's index: as saved when it still describes the folder (no lock, no
writes), else refreshed under the folder's lock and saved for every other process.

When the cache cannot be written, the index is built in memory for this process only.

A refresh stopped by its deadline or by Ctrl-C is saved all the same: the files it read are
indexed for every later opening, which reads only the rest (`refresh`). After saving,
Ctrl-C goes on as the KeyboardInterrupt it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.sources.library.deadline import Deadline
from engine.sources.library.files import ScannedFile, scan_folder
from engine.sources.library.index.catalog import Catalog, CatalogEntry
from engine.sources.library.index.lock import exclusive
from engine.sources.library.index.passage_index import PassageIndex
from engine.sources.library.index.refresh import (
    IndexState,
    RefreshSummary,
    is_current,
    refresh,
    saved_part,
)
from engine.sources.library.index.store import IndexStore
from engine.sources.library.index.vocabulary import Vocabulary
from engine.sources.library.index.workers import Notify


@dataclass
class OpenedIndex:
    state: IndexState
    summary: RefreshSummary
    from_cache: bool
    """True when the saved index described the folder as it is (nothing was read)."""

    def documents(self) -> list[CatalogEntry]:
        """The indexed files, in path order: their position is their document number."""
        return [entry for entry in self.state.catalog.entries.values() if entry.indexed]

    def passage_index(self) -> PassageIndex:
        numbers: dict[str, npt.NDArray[np.int64]] = {
            name: np.full(segment.document_count, -1, dtype=np.int64)
            for name, segment in self.state.segments.items()
        }
        for number, entry in enumerate(self.documents()):
            numbers[entry.segment][entry.local] = number
        segments = list(self.state.segments.values())
        return PassageIndex(
            self.state.vocabulary.ids, segments, [numbers[s.name] for s in segments]
        )


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
) -> OpenedIndex:
    """The index of `folder` as it is now; `titles` are the manifest's titles by path;
    `on_refused` hears of each file the scan would not take (a link leading outside).
    Once `deadline` passes no more file is read: the index then holds the files read by
    then (`summary.pending` names the rest), and is saved so the next opening goes on."""
    files = scan_folder(folder, on_refused)
    store = IndexStore(index_root, folder)
    state = _load(store, whole=True)
    if state is not None and is_current(state.catalog, files, titles):
        on_progress(f"index loaded from cache ({len(state.catalog.entries)} files)")
        return OpenedIndex(state, _known(state.catalog), from_cache=True)
    # Stale, absent, or a file it names just removed by a concurrent refresh: under the
    # lock, the catalog read is the latest, and its files stay until the lock is released.
    saved = state
    try:
        with exclusive(store.lock_path, on_progress, deadline) as held:
            if not held:  # the deadline passed while another process refreshed it
                return OpenedIndex(*saved_part(saved or _empty(), files), from_cache=True)
            state = _load(store, whole=False) or _empty()
            if len(state.segments) == len(state.catalog.segments) and is_current(
                state.catalog, files, titles
            ):  # another process refreshed it while this one waited
                return OpenedIndex(state, _known(state.catalog), from_cache=True)
            summary = _refresh(
                state, files, titles, store, parsed_dir, on_progress, on_cache_error, deadline
            )
            store.commit(state.catalog, state.vocabulary)
    except OSError as error:
        on_cache_error(error)
    else:
        return _opened(state, summary)
    state = _empty()
    summary = _refresh(
        state, files, titles, None, parsed_dir, on_progress, on_cache_error, deadline
    )
    return _opened(state, summary)


def _opened(state: IndexState, summary: RefreshSummary) -> OpenedIndex:
    """The refreshed index; Ctrl-C, once what it read is saved, goes on as it was."""
    if summary.interrupted:
        raise KeyboardInterrupt
    return OpenedIndex(state, summary, from_cache=False)


def _refresh(
    state: IndexState,
    files: list[ScannedFile],
    titles: dict[str, str],
    store: IndexStore | None,
    parsed_dir: Path,
    on_progress: Notify,
    on_cache_error: Callable[[OSError], None],
    deadline: Deadline | None,
) -> RefreshSummary:
    return refresh(
        state,
        files,
        titles,
        store=store,
        parsed_dir=str(parsed_dir),
        on_progress=on_progress,
        on_cache_error=lambda message: on_cache_error(OSError(message)),
        deadline=deadline,
    )


def _load(store: IndexStore, *, whole: bool) -> IndexState | None:
    """The saved index; with `whole`, None unless every segment it names opens."""
    catalog = store.load_catalog()
    if catalog is None:
        return None
    vocabulary = store.load_vocabulary(catalog)
    if vocabulary is None:
        return None
    segments = store.open_segments(catalog.segments)
    if whole and len(segments) != len(catalog.segments):
        return None
    return IndexState(catalog, vocabulary, segments)


def _empty() -> IndexState:
    return IndexState(Catalog(), Vocabulary(), {})


def _known(catalog: Catalog) -> RefreshSummary:
    unreadable = [(e.relative, e.reason) for e in catalog.entries.values() if not e.indexed]
    return RefreshSummary(unreadable=unreadable)
