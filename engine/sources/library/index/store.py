"""Where a folder's index lives on disk, shared by every process using that cache.

    <cache>/library/index/<folder key>/
        catalog.json          the current index (see `catalog`), replaced atomically
        vocabulary-<id>.txt   the vocabulary it names
        segments/<id>.seg     the segments it names (immutable once written)
        lock                  held while a process refreshes the index

A refresh writes new segments and a new vocabulary file under fresh names, then replaces
the catalog, then removes the files no catalog names any more. A reader that loaded the
previous catalog keeps its memory-mapped files (removing a file does not unmap it); one that
finds a named file already gone takes the lock and reads the catalog again.
"""

from __future__ import annotations

import hashlib
import shutil
import uuid
from pathlib import Path

from engine.sources.library.index.catalog import Catalog
from engine.sources.library.index.segment import Segment
from engine.sources.library.index.segment_file import DamagedFile
from engine.sources.library.index.vocabulary import Vocabulary

_SEGMENTS = "segments"
_CATALOG = "catalog.json"
_VOCABULARY_PREFIX = "vocabulary-"


def new_name(suffix: str) -> str:
    return f"{uuid.uuid4().hex}{suffix}"


class IndexStore:
    def __init__(self, index_root: Path, folder: Path) -> None:
        self.directory = index_root / hashlib.sha256(str(folder).encode()).hexdigest()[:16]
        self.catalog_path = self.directory / _CATALOG
        self.lock_path = self.directory / "lock"
        self.segments_dir = self.directory / _SEGMENTS

    def load_catalog(self) -> Catalog | None:
        return Catalog.load(self.catalog_path)

    def open_segments(self, names: list[str]) -> dict[str, Segment]:
        """The segments named that open soundly (a missing or damaged one is left out)."""
        segments: dict[str, Segment] = {}
        for name in names:
            try:
                segments[name] = Segment.open(self.segments_dir / name)
            except DamagedFile:
                continue
        return segments

    def load_vocabulary(self, catalog: Catalog) -> Vocabulary | None:
        if not catalog.vocabulary:
            return Vocabulary() if catalog.vocabulary_size == 0 else None
        return Vocabulary.load(self.directory / catalog.vocabulary, catalog.vocabulary_size)

    def save_segment(self, segment: Segment) -> Segment:
        """Write `segment`; returns it mapped from its file, so its arrays leave the heap."""
        path = self.segments_dir / segment.name
        segment.save(path)
        try:
            return Segment.open(path)
        except DamagedFile:
            return segment

    def commit(self, catalog: Catalog, vocabulary: Vocabulary) -> None:
        """Make `catalog` (its segments already saved) the index, then drop what it left."""
        catalog.vocabulary = f"{_VOCABULARY_PREFIX}{new_name('.txt')}"
        catalog.vocabulary_size = len(vocabulary)
        vocabulary.save(self.directory / catalog.vocabulary)
        catalog.save(self.catalog_path)
        self._remove_unused(catalog)

    def _remove_unused(self, catalog: Catalog) -> None:
        """Files no current catalog names: old segments and vocabularies, temporary files a
        killed writer left, indexes of older formats. Called with the lock held."""
        keep = set(catalog.segments)
        for entry in self.segments_dir.glob("*"):
            if entry.name not in keep:
                entry.unlink(missing_ok=True)
        for entry in self.directory.iterdir():
            if entry.name in {_CATALOG, _SEGMENTS, self.lock_path.name, catalog.vocabulary}:
                continue
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
