"""A folder's index kept on this machine: its passages in a tantivy index, its catalog in a
file of columns, its refresh lock a `flock` (`lock`), all in the cache, shared by every process.

    <cache>/library/index/<folder key>/
        catalog        the current catalog (see `catalog`), replaced atomically
        passages/      the tantivy index of the passages (committed before the catalog)
        lock           held while a process refreshes the index

Each passage is one tantivy document: its document key (untokenized, to remove a
document's passages by it), its tokens (ours, space-joined, split on spaces again: tantivy
adds no tokenizing of its own, so a query term is one of our tokens), stored to read term
counts back, and its page, start and end. Readers open the committed index without the
lock and keep the snapshot they opened (no reload). A damaged or partly written passages
folder, or one of another tantivy format, fails to open: `DamagedIndex`, and the index is
rebuilt.

`TantivyStore(None)` keeps everything in memory, for a process whose cache is not writable.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

import tantivy

from engine.sources.library.deadline import Deadline
from engine.sources.library.index.backend import (
    CandidatePassage,
    DamagedIndex,
    Notify,
    PassageTokens,
    read_back,
)
from engine.sources.library.index.catalog import Catalog
from engine.sources.library.index.lock import exclusive

_CATALOG = "catalog"
_PASSAGES = "passages"
_LOCK = "lock"
_TOKENIZER = "fonte_tokens"
WRITER_HEAP_BYTES = 128_000_000
"""What tantivy's writer buffers before it writes a segment (its memory while indexing)."""
_WRITER_THREADS = 1  # the reading workers have the cores


def folder_directory(index_root: Path, folder: Path) -> Path:
    """Where the index of `folder` lives under `index_root`."""
    return index_root / hashlib.sha256(str(folder).encode()).hexdigest()[:16]


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("key", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("tokens", stored=True, tokenizer_name=_TOKENIZER, index_option="freq")
    for name in ("page", "start", "end"):
        builder.add_unsigned_field(name, stored=True)
    return builder.build()


_SCHEMA = _schema()
_ANALYZER = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build()


@contextmanager
def _failing_as_damage() -> Iterator[None]:
    """Any failure of tantivy inside (a Rust panic included) raised as `DamagedIndex`."""
    try:
        yield
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # pyo3's PanicException derives from BaseException
        raise DamagedIndex(f"passages index unusable: {error}") from error


class TantivyStore:
    """The `IndexBackend` of one folder in `directory`, or in memory when it is None."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._memory_catalog: Catalog | None = None
        self._memory_index: tantivy.Index | None = None

    @property
    def passages_dir(self) -> Path | None:
        return self.directory / _PASSAGES if self.directory is not None else None

    @property
    def catalog_path(self) -> Path | None:
        return self.directory / _CATALOG if self.directory is not None else None

    def catalog_generation(self) -> tuple[int, int, int] | None:
        """The catalog file saved now (inode, size, mtime: a save replaces the file)."""
        if self.catalog_path is None:
            return None
        try:
            status = self.catalog_path.stat()
        except OSError:
            return None
        return status.st_ino, status.st_size, status.st_mtime_ns

    def load_catalog(self) -> Catalog | None:
        if self.catalog_path is None:
            return self._memory_catalog
        return Catalog.load(self.catalog_path)

    def save_catalog(self, catalog: Catalog) -> None:
        if self.catalog_path is None:
            self._memory_catalog = Catalog(dict(catalog.entries), catalog.titles)
            return
        catalog.save(self.catalog_path)

    def refreshing(
        self, on_wait: Notify, deadline: Deadline | None
    ) -> AbstractContextManager[bool]:
        if self.directory is None:
            return nullcontext(True)
        return exclusive(self.directory / _LOCK, on_wait, deadline)

    def reader(self) -> TantivyReader:
        index = self._open(create=False)
        with _failing_as_damage():
            return TantivyReader(_snapshot(index))

    @contextmanager
    def writing(self) -> Iterator[TantivyWriter]:
        index = self._open(create=True)
        with _failing_as_damage():
            writer = index.writer(WRITER_HEAP_BYTES, _WRITER_THREADS)
        with writer:  # leaving releases tantivy's own writer lock
            yield TantivyWriter(writer)

    def reset(self) -> None:
        self._memory_catalog = None
        self._memory_index = None
        if self.directory is None:
            return
        if self.catalog_path is not None:
            self.catalog_path.unlink(missing_ok=True)
        if self.passages_dir is not None:
            shutil.rmtree(self.passages_dir, ignore_errors=True)

    def _open(self, *, create: bool) -> tantivy.Index:
        if self.passages_dir is None:
            if self._memory_index is None:
                if not create:
                    raise DamagedIndex("no passages indexed yet")
                self._memory_index = _registered(tantivy.Index(_SCHEMA))
            return self._memory_index
        path = self.passages_dir
        if not create and not (path.is_dir() and tantivy.Index.exists(str(path))):
            raise DamagedIndex("no passages indexed yet")
        path.mkdir(parents=True, exist_ok=True)
        with _failing_as_damage():
            return _registered(tantivy.Index(_SCHEMA, path=str(path), reuse=True))


def _registered(index: tantivy.Index) -> tantivy.Index:
    index.register_tokenizer(_TOKENIZER, _ANALYZER)
    return index


def _snapshot(index: tantivy.Index) -> tantivy.Searcher:
    index.config_reader("manual")  # the snapshot opened stays the one searched
    index.reload()
    return index.searcher()


class TantivyReader:
    """The `PassageReader` over one tantivy snapshot."""

    def __init__(self, searcher: tantivy.Searcher) -> None:
        self._searcher = searcher

    def candidates(
        self, terms: Sequence[str], limit: int, keys: Sequence[str] = ()
    ) -> list[CandidatePassage]:
        distinct = list(dict.fromkeys(terms))
        if not distinct or limit < 1:
            return []
        matching = tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, _term(term)) for term in distinct]
        )
        if keys:
            within = tantivy.Query.term_set_query(_SCHEMA, "key", list(keys))
            matching = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, within), (tantivy.Occur.Must, matching)]
            )
        with _failing_as_damage():
            hits = self._searcher.search(matching, limit, count=False).hits
            return [self._candidate(address, distinct) for _score, address in hits]

    def _candidate(self, address: tantivy.DocAddress, terms: list[str]) -> CandidatePassage:
        stored = self._searcher.doc(address)
        return read_back(
            str(stored.get_first("key")),
            int(stored.get_first("page") or 0),
            int(stored.get_first("start") or 0),
            int(stored.get_first("end") or 0),
            str(stored.get_first("tokens") or ""),
            terms,
        )

    def passage_frequencies(self, terms: Sequence[str]) -> list[int]:
        # A term query's count skips removed passages (tantivy's doc_freq counts them until
        # their segment is merged). The wheel's stub leaves `SearchResult.count` out.
        with _failing_as_damage():
            results = [self._searcher.search(_term(term), 1, count=True) for term in terms]
        return [int(result.count or 0) for result in results]  # type: ignore[attr-defined]

    def passage_total(self) -> int:
        with _failing_as_damage():
            return int(self._searcher.num_docs)  # a segment's documents less its removed

    def keys(self) -> set[str]:
        """The keys of the snapshot's passages (a removed key may be listed until tantivy
        merges its segment away: removing it again does nothing)."""
        with _failing_as_damage():
            listed = self._searcher.terms_with_prefix("key", "")
        return {str(term) for term, _frequency in listed}


def _term(token: str) -> tantivy.Query:
    return tantivy.Query.term_query(_SCHEMA, "tokens", token)


class TantivyWriter:
    """The `PassageWriter` over a tantivy index writer."""

    def __init__(self, writer: tantivy.IndexWriter) -> None:
        self._writer = writer

    def add(self, key: str, passages: Sequence[PassageTokens]) -> None:
        with _failing_as_damage():
            for page, start, end, tokens in passages:
                document = tantivy.Document(key=key, tokens=tokens, page=page, start=start, end=end)
                self._writer.add_document(document)

    def remove(self, keys: Iterable[str]) -> None:
        with _failing_as_damage():
            for key in keys:
                self._writer.delete_documents_by_term("key", key)

    def commit(self) -> None:
        with _failing_as_damage():
            self._writer.commit()
