"""A library's index kept in PostgreSQL (`FONTE_LIBRARY_STORE=postgresql://…`), shared by
every worker of a fleet, on any host: the `IndexBackend` of one library, its namespace the
library's folder identity (`name`), so the libraries of many channels share one database and
none is read through another's name. Tables: `postgres_connection`.

- The catalog is one row per library, replaced in one transaction that also bumps its
  `generation` (the counter `catalog_generation` reads) and, first, stores the page texts of
  the documents it names that the store lacks (`postgres_texts`): a worker without the
  folder fetches and cites them.
- Each passage is a row: its document key, page, start, end, its tokens (space-joined, read
  back for their counts) and a `tsvector` of them with their positions, built here from our
  tokens (no PostgreSQL parsing: a query term is one of our tokens), under a GIN index.
  Candidates are the passages matching any term, ranked by `ts_rank` (by term frequency:
  passages are of bounded length, and our BM25 scores them again);
  a term's passage frequency is a row of `fonte_term_counts`, changed by the transaction
  that adds or removes its passages (counting the rows holding a term took seconds at
  millions of passages, on every search).
- The refresh lock is a session `pg_advisory_lock` on the library's name, on a connection of
  its own: released when its holder ends, even killed (the server sees the connection go).
- A reader is a read-only REPEATABLE READ transaction on a connection of its own: the
  committed passages as of its opening, whatever refreshes commit later; a writer is a
  transaction, `commit` its commit. The price of the snapshot: while a library stays open,
  the server keeps the rows later refreshes replaced (vacuum waits for the oldest open
  snapshot), and a server with `idle_in_transaction_session_timeout` ends the reader (its
  next search then fails as a `LibraryStoreError`): reopen a library kept for days.
"""

from __future__ import annotations

import hashlib
import json
import time
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from engine.sources.library.deadline import Deadline
from engine.sources.library.index.backend import (
    CandidatePassage,
    DamagedIndex,
    Notify,
    PassageTokens,
    read_back,
)
from engine.sources.library.index.catalog import Catalog
from engine.sources.library.index.lock import LOCK_POLL_SECONDS
from engine.sources.library.index.postgres_connection import (
    connect_store,
    ensure_schema,
    failing_as_store_error,
)
from engine.sources.library.index.postgres_texts import PostgresTexts

MAX_POSITION = 16383
"""PostgreSQL's largest tsvector position; later tokens are counted at it."""
MAX_POSITIONS = 255
"""Positions kept per lexeme (PostgreSQL keeps 256): enough for ts_rank's measure."""
MAX_LEXEME_BYTES = 2046
"""PostgreSQL's longest lexeme: a longer token is kept in the passage's tokens (its counts
read back) but not searchable (reading never indexes one: `reading.MAX_TOKEN_CHARS`)."""


def lexeme(token: str) -> str:
    """`token` as a quoted tsvector or tsquery lexeme."""
    if "'" in token or "\\" in token:
        token = token.replace("\\", "\\\\").replace("'", "''")
    return f"'{token}'"


def tsvector_literal(tokens: str) -> str:
    """The tsvector of space-joined `tokens`, each at its positions (1-based; past
    `MAX_POSITION`, at it). Called for every passage indexed: kept to plain loops."""
    positions: dict[str, list[int]] = {}
    for position, token in enumerate(tokens.split(" "), 1):
        held = positions.get(token)
        if held is None:
            positions[token] = [position]
        elif len(held) < MAX_POSITIONS:
            held.append(position)
    lexemes: list[str] = []
    for token, held in positions.items():
        if not token or (
            len(token) * 4 > MAX_LEXEME_BYTES and len(token.encode()) > MAX_LEXEME_BYTES
        ):
            continue
        if held[-1] > MAX_POSITION:
            held = sorted({min(place, MAX_POSITION) for place in held})
        lexemes.append(f"{lexeme(token)}:{','.join(map(str, held))}")
    return " ".join(lexemes)


def any_of(terms: Sequence[str]) -> str:
    """The tsquery matching a passage holding any of `terms`."""
    return " | ".join(lexeme(term) for term in terms)


RANKED_PASSAGES = 50_000
"""Passages a search ranks at most before its rarer terms alone choose them (`candidates`):
well past what a question's passages need, well short of a common word's share of a large
library."""


def _rarer_terms(terms: list[str], counts: list[int]) -> list[str]:
    """The rarest of `terms` (by their passage `counts`, none of them absent) whose
    passages add up to at most `RANKED_PASSAGES`, the rarest one always; every term held
    when all of them fit."""
    held = sorted((count, term) for term, count in zip(terms, counts, strict=True) if count)
    chosen: list[str] = []
    total = 0
    for count, term in held:
        if chosen and total + count > RANKED_PASSAGES:
            break
        chosen.append(term)
        total += count
    return chosen if len(chosen) < len(held) else terms


def lock_key(name: str) -> int:
    """The advisory lock's key of library `name` (a signed 64-bit integer)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


class PostgresStore:
    """The `IndexBackend` of library `name` in the database at `url`. `folder` and
    `parsed_dir` are where a refresh on this host finds the page texts of the documents it
    read, to store them with the catalog (None on a worker that only reads)."""

    def __init__(
        self, url: str, name: str, folder: Path | None = None, parsed_dir: Path | None = None
    ) -> None:
        self.url = url
        self.name = name
        ensure_schema(url)
        self._connection = connect_store(url)
        weakref.finalize(self, self._connection.close)  # closed with its owner, never leaked
        self.texts = PostgresTexts(url, self._connection, folder, parsed_dir)

    def close(self) -> None:
        self._connection.close()

    def library_id(self, *, create: bool = False) -> int | None:
        """The library's row (None when it has none; `create`: made if missing). Looked up
        each time: another process's `reset` removes it."""
        with failing_as_store_error(self.url):
            if create:
                self._connection.execute(  # a new library's term counts are kept from its start
                    "INSERT INTO fonte_libraries (name, counted) VALUES (%s, true) "
                    "ON CONFLICT DO NOTHING",
                    (self.name,),
                )
            row = self._connection.execute(
                "SELECT id FROM fonte_libraries WHERE name = %s", (self.name,)
            ).fetchone()
        library = None if row is None else int(str(row[0]))
        self.texts.library = library
        return library

    def catalog_generation(self) -> int | None:
        with failing_as_store_error(self.url):
            row = self._connection.execute(
                "SELECT generation FROM fonte_libraries WHERE name = %s", (self.name,)
            ).fetchone()
        return None if row is None else int(str(row[0]))

    def load_catalog(self) -> Catalog | None:
        with failing_as_store_error(self.url):
            row = self._connection.execute(
                "SELECT catalog FROM fonte_libraries WHERE name = %s", (self.name,)
            ).fetchone()
        if row is None or row[0] is None:
            return None
        data = row[0]
        return Catalog.decode(bytes(data) if isinstance(data, bytes | memoryview) else b"")

    def save_catalog(self, catalog: Catalog) -> None:
        library = self.library_id(create=True)
        with failing_as_store_error(self.url), self._connection.transaction():
            self.texts.store_missing(library or 0, catalog)
            self._connection.execute(
                "UPDATE fonte_libraries "
                "SET catalog = %s, generation = nextval('fonte_generations') WHERE id = %s",
                (catalog.encode(), library),
            )

    def load_urls(self) -> dict[str, str]:
        """The citation URL of each document, by its path in the folder (as last saved)."""
        with failing_as_store_error(self.url):
            row = self._connection.execute(
                "SELECT urls FROM fonte_libraries WHERE name = %s", (self.name,)
            ).fetchone()
        urls = row[0] if row is not None else None
        if not isinstance(urls, dict):
            return {}
        return {str(relative): str(url) for relative, url in urls.items()}

    def save_urls(self, urls: dict[str, str]) -> None:
        library = self.library_id(create=True)
        with failing_as_store_error(self.url):
            self._connection.execute(
                "UPDATE fonte_libraries SET urls = %s::jsonb WHERE id = %s",
                (json.dumps(urls, ensure_ascii=False), library),
            )

    @contextmanager
    def refreshing(self, on_wait: Notify, deadline: Deadline | None) -> Iterator[bool]:
        key = lock_key(self.name)
        with connect_store(self.url) as connection, failing_as_store_error(self.url):

            def took() -> bool:
                row = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
                return bool(row and row[0])

            if took():
                yield True
                return
            on_wait("waiting for another process refreshing this index")
            if deadline is None:
                connection.execute("SELECT pg_advisory_lock(%s)", (key,))
                yield True
                return
            while not deadline.passed():
                time.sleep(min(LOCK_POLL_SECONDS, deadline.remaining()))
                if took():
                    yield True
                    return
            yield False
        # closing the connection released the lock

    def snapshot_texts(self, reader: object) -> PostgresTexts:
        """The page texts as `reader` (one of this store's) sees them; the latest for None."""
        return reader.texts(self.texts) if isinstance(reader, PostgresReader) else self.texts

    def reader(self) -> PostgresReader:
        library = self.library_id()
        if library is None:
            raise DamagedIndex("no passages indexed yet")
        connection = connect_store(self.url, autocommit=False)
        with failing_as_store_error(self.url):
            connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            row = connection.execute(  # the snapshot begins
                "SELECT counted FROM fonte_libraries WHERE id = %s", (library,)
            ).fetchone()
        return PostgresReader(self.url, connection, library, counted=bool(row and row[0]))

    @contextmanager
    def writing(self) -> Iterator[PostgresWriter]:
        library = self.library_id(create=True)
        with connect_store(self.url, autocommit=False) as connection:
            writer = PostgresWriter(self.url, connection, library or 0, self.texts)
            writer.count_terms()
            yield writer

    def reset(self) -> None:
        library = self.library_id()
        if library is None:
            return
        with failing_as_store_error(self.url):  # its passages and texts go with it
            self._connection.execute("DELETE FROM fonte_libraries WHERE id = %s", (library,))


class PostgresReader:
    """The `PassageReader` over one REPEATABLE READ snapshot of a library's passages."""

    def __init__(self, url: str, connection: object, library: int, *, counted: bool = True) -> None:
        import psycopg

        assert isinstance(connection, psycopg.Connection)
        self._url = url
        self._connection: psycopg.Connection[tuple[object, ...]] = connection
        self._library = library
        self._counted = counted
        """Whether the library's term counts are kept (`fonte_term_counts`)."""
        self._counts: dict[str, int] = {}
        """The counts read so far: the snapshot's, so a search's candidates and its BM25
        read each term's once."""
        weakref.finalize(self, connection.close)  # its snapshot ends with it

    def close(self) -> None:
        self._connection.close()

    def texts(self, texts: PostgresTexts) -> PostgresTexts:
        """`texts` as of this reader's snapshot."""
        return texts.of(self._connection)

    def candidates(
        self, terms: Sequence[str], limit: int, keys: Sequence[str] = ()
    ) -> list[CandidatePassage]:
        """The `limit` passages holding any of `terms` that `ts_rank` ranks first (within
        `keys`' documents when given). `ts_rank` ranks every passage the query matches, and
        a common word matches a good part of a large library (290,650 of 8 million
        passages hold "limite"): so, where the term counts are kept, the passages ranked are
        those holding the query's rarer terms, as many of them as `RANKED_PASSAGES` allows
        (one term at least), ranked by all of its terms; a passage holding only common
        terms is one BM25 ranks low. When those are fewer than `limit`, every passage the
        query matches is ranked, as it always is for `keys`."""
        distinct = list(dict.fromkeys(terms))
        if not distinct or limit < 1:
            return []
        if not keys and self._counted:
            rarer = _rarer_terms(distinct, self.passage_frequencies(distinct))
            if len(rarer) < len(distinct):
                found = self._ranked(distinct, rarer, limit, ())
                if len(found) >= limit:
                    return found
        return self._ranked(distinct, distinct, limit, keys)

    def _ranked(
        self, terms: list[str], matching: list[str], limit: int, keys: Sequence[str]
    ) -> list[CandidatePassage]:
        """The `limit` passages holding any of `matching`, ranked by `terms`."""
        within = " AND key = ANY(%(keys)s)" if keys else ""
        query = (
            "SELECT key, page, start_at, end_at, tokens FROM fonte_passages "
            "WHERE library = %(library)s AND terms @@ %(matching)s::tsquery" + within + " "
            "ORDER BY ts_rank(terms, %(query)s::tsquery) DESC LIMIT %(limit)s"
        )
        values = {
            "library": self._library,
            "matching": any_of(matching),
            "query": any_of(terms),
            "limit": limit,
            "keys": list(keys),
        }
        with failing_as_store_error(self._url):
            rows = self._connection.execute(query, values).fetchall()
        return [
            read_back(str(key), _int(page), _int(start), _int(end), str(tokens), terms)
            for key, page, start, end, tokens in rows
        ]

    def passage_frequencies(self, terms: Sequence[str]) -> list[int]:
        """Each term's passage count: kept by the refreshes (a lookup of one row a term),
        or, for a library its refreshes have not counted yet, counted here over every
        passage holding any of them (seconds at millions of passages)."""
        if not terms:
            return []
        if self._counted:
            unread = [term for term in dict.fromkeys(terms) if term not in self._counts]
            if unread:
                with failing_as_store_error(self._url):
                    rows = self._connection.execute(
                        "SELECT term, passages FROM fonte_term_counts "
                        "WHERE library = %s AND term = ANY(%s)",
                        (self._library, unread),
                    ).fetchall()
                self._counts |= dict.fromkeys(unread, 0)
                self._counts |= {str(term): _int(passages) for term, passages in rows}
            return [self._counts[term] for term in terms]
        counted = ", ".join(
            f"count(*) FILTER (WHERE terms @@ %(t{n})s::tsquery)" for n in range(len(terms))
        )
        values: dict[str, object] = {f"t{n}": lexeme(term) for n, term in enumerate(terms)}
        values |= {"library": self._library, "any": any_of(terms)}
        query = (
            f"SELECT {counted} FROM fonte_passages "
            "WHERE library = %(library)s AND terms @@ %(any)s::tsquery"
        )
        with failing_as_store_error(self._url):
            row = self._connection.execute(query, values).fetchone()
        return [_int(value) for value in row or ()]

    def passage_total(self) -> int:
        with failing_as_store_error(self._url):
            row = self._connection.execute(
                "SELECT count(*) FROM fonte_passages WHERE library = %s", (self._library,)
            ).fetchone()
        return _int(row[0]) if row else 0

    def keys(self) -> set[str]:
        with failing_as_store_error(self._url):
            rows = self._connection.execute(
                "SELECT DISTINCT key FROM fonte_passages WHERE library = %s", (self._library,)
            ).fetchall()
        return {str(row[0]) for row in rows}


_COUNT_ADDED = """
INSERT INTO fonte_term_counts (library, term, passages)
SELECT %(library)s, held.lexeme, count(*)
FROM fonte_passages AS passage, unnest(passage.terms) AS held
WHERE passage.library = %(library)s AND passage.key = ANY(%(keys)s)
GROUP BY held.lexeme
ON CONFLICT (library, term) DO UPDATE
SET passages = fonte_term_counts.passages + EXCLUDED.passages
"""
_REMOVE_COUNTED = """
WITH gone AS (
    DELETE FROM fonte_passages WHERE library = %(library)s AND key = ANY(%(keys)s)
    RETURNING terms
), dropped AS (
    SELECT held.lexeme AS term, count(*) AS passages
    FROM gone, unnest(gone.terms) AS held GROUP BY held.lexeme
)
UPDATE fonte_term_counts AS counts SET passages = counts.passages - dropped.passages
FROM dropped WHERE counts.library = %(library)s AND counts.term = dropped.term
"""
_COUNT_ALL = """
INSERT INTO fonte_term_counts (library, term, passages)
SELECT %(library)s, held.lexeme, count(*)
FROM fonte_passages AS passage, unnest(passage.terms) AS held
WHERE passage.library = %(library)s
GROUP BY held.lexeme
"""


class PostgresWriter:
    """The `PassageWriter` over one transaction at a time (each `commit` ends one). Each
    term's passage count changes in the transaction that adds or removes its passages, so
    a reader's snapshot holds the counts of the passages it sees."""

    def __init__(self, url: str, connection: object, library: int, texts: PostgresTexts) -> None:
        import psycopg

        assert isinstance(connection, psycopg.Connection)
        self._url = url
        self._connection: psycopg.Connection[tuple[object, ...]] = connection
        self._library = library
        self._texts = texts
        self._added: list[str] = []
        """The keys added since the last commit, counted at the commit (by the server)."""

    def count_terms(self) -> None:
        """The library's term counts made from its passages when its refreshes did not
        keep them yet (one indexed before the counts existed), in this transaction."""
        values = {"library": self._library}
        with failing_as_store_error(self._url):
            row = self._connection.execute(
                "SELECT counted FROM fonte_libraries WHERE id = %(library)s", values
            ).fetchone()
            if row is None or row[0]:
                return
            self._connection.execute(
                "DELETE FROM fonte_term_counts WHERE library = %(library)s", values
            )
            self._connection.execute(_COUNT_ALL, values)
            self._connection.execute(
                "UPDATE fonte_libraries SET counted = true WHERE id = %(library)s", values
            )

    def add(self, key: str, passages: Sequence[PassageTokens]) -> None:
        copying = (
            "COPY fonte_passages (library, key, page, start_at, end_at, tokens, terms) FROM STDIN"
        )
        cursor = self._connection.cursor()
        with failing_as_store_error(self._url), cursor, cursor.copy(copying) as copy:
            for page, start, end, tokens in passages:
                row = (self._library, key, page, start, end, tokens)
                copy.write_row((*row, tsvector_literal(tokens)))
        self._added.append(key)

    def remove(self, keys: Iterable[str]) -> None:
        """The passages of `keys` removed, and the page texts of the documents the saved
        catalog no longer names."""
        removed = list(keys)
        with failing_as_store_error(self._url):
            self._count_added()  # a key added then removed in one transaction: both counted
            if removed:
                values = {"library": self._library, "keys": removed}
                self._connection.execute(_REMOVE_COUNTED, values)
            self._texts.remove_unnamed(self._connection, self._library)

    def commit(self) -> None:
        with failing_as_store_error(self._url):
            self._count_added()
            self._connection.commit()

    def _count_added(self) -> None:
        if self._added:
            values = {"library": self._library, "keys": self._added}
            self._connection.execute(_COUNT_ADDED, values)
            self._added = []


def _int(value: object) -> int:
    return int(str(value))
