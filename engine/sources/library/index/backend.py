"""What a store of a library's index must do: the contract between the index's rules
(`refresh`, `opening`, `passage_index`) and where the index is kept (`tantivy_store` on
this machine; a database next).

A store keeps three things for one folder:

- the catalog (`catalog.Catalog`): the files seen, each with its document key and its
  passages' count and total length (so the live passage count and mean length come from
  it), the one truth of which documents the index holds;
- the passages of each indexed document, under its document key, with their tokens
  (`engine.text.tokens`, the title's in front, space-joined): searched for candidates, and
  their term counts read back so that BM25 is computed here, exactly, whatever the store;
- an exclusive refresh lock: one process at a time writes.

The order of a refresh keeps every reader sound without a lock on reading: passages of
new or changed documents are added under fresh keys and committed, then the catalog naming
them is saved, then the passages of the keys the catalog no longer names are removed and
committed. A reader therefore never holds a catalog naming passages the store lacks; it may
see passages of keys its catalog does not name (written by a refresh that saved no catalog
yet, or crashed), and ignores them (`PassageReader.candidates` returns keys, the caller
keeps its catalog's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import NamedTuple, Protocol

from engine.errors import SourceError
from engine.sources.library.deadline import Deadline
from engine.sources.library.index.catalog import Catalog

Notify = Callable[[str], None]
"""Where the index says a line of progress or a warning."""


class PassageTokens(NamedTuple):
    """One passage to index: `text[start:end]` of page `page` (0-based; 0 for unpaged),
    and its tokens space-joined, its document title's first (titles rank too)."""

    page: int
    start: int
    end: int
    tokens: str


class CandidatePassage(NamedTuple):
    """A passage a search found: where it is, its length in tokens, and how often each of
    the query's terms occurs in it (terms it lacks are absent)."""

    key: str
    page: int
    start: int
    end: int
    length: int
    counts: dict[str, int]


def read_back(
    key: str, page: int, start: int, end: int, tokens: str, terms: Sequence[str]
) -> CandidatePassage:
    """A stored passage (its `tokens` space-joined, as `PassageTokens` holds them) as a
    candidate: its length and each of `terms`' counts, read from the tokens themselves, so
    every store gives BM25 the same figures."""
    words = tokens.split(" ")
    counted = Counter(words)
    counts = {term: counted[term] for term in terms if term in counted}
    return CandidatePassage(key, page, start, end, len(words), counts)


class DamagedIndex(SourceError):
    """The stored passages cannot be read (damaged, partly written, another format): the
    caller treats the index as absent and rebuilds it."""


class PassageReader(Protocol):
    """The committed passages as of when it was opened; never blocks a writer."""

    def candidates(
        self, terms: Sequence[str], limit: int, keys: Sequence[str] = ()
    ) -> list[CandidatePassage]:
        """Up to `limit` passages holding any of `terms`, the most relevant first by the
        store's own measure (only which are returned matters: the caller scores them);
        with `keys`, only passages of those documents."""
        ...

    def passage_frequencies(self, terms: Sequence[str]) -> list[int]:
        """For each term, how many live passages hold it (removed ones not counted)."""
        ...

    def keys(self) -> set[str]:
        """The document keys that have passages, so a refresh can remove those no catalog
        names; a store may still list a key just removed (removing it again is harmless)."""
        ...

    def passage_total(self) -> int:
        """How many live passages are stored (removed ones not counted): when the catalog
        names as many, no passage is left of a key it does not name, and a refresh need
        not list the keys."""
        ...


class PassageWriter(Protocol):
    """Changes to the passages, seen by readers only once committed. Used under the lock."""

    def add(self, key: str, passages: Sequence[PassageTokens]) -> None: ...

    def remove(self, keys: Iterable[str]) -> None: ...

    def commit(self) -> None: ...


class IndexBackend(Protocol):
    """Where one folder's index is kept."""

    def load_catalog(self) -> Catalog | None:
        """The saved catalog; None when absent, damaged or of another format."""
        ...

    def save_catalog(self, catalog: Catalog) -> None:
        """Replace the catalog at once: a reader loads the old one or the new one."""
        ...

    def catalog_generation(self) -> Hashable:
        """Which catalog is saved now: changes with every `save_catalog`. A reader compares
        it before and after opening the passages to know the two belong together."""
        ...

    def refreshing(
        self, on_wait: Notify, deadline: Deadline | None
    ) -> AbstractContextManager[bool]:
        """Hold the refresh lock (waiting for its holder until `deadline`): True inside
        when held, False when the deadline passed first."""
        ...

    def reader(self) -> PassageReader:
        """The committed passages; raises `DamagedIndex` when they cannot be read."""
        ...

    def writing(self) -> AbstractContextManager[PassageWriter]:
        """A writer of the passages, for the time inside (the lock held); raises
        `DamagedIndex` when the stored passages cannot be opened for writing (the caller
        then starts afresh: `reset`). What is not committed when it ends may be lost."""
        ...

    def reset(self) -> None:
        """Drop every stored passage and the catalog (the lock held): a fresh index."""
        ...
