"""Reaching the PostgreSQL database a fleet keeps its libraries in (`FONTE_LIBRARY_STORE`).

psycopg is imported here only, when a `postgresql://` store is used: `fonte --help` and a
library kept on this machine never import it. The tables are created on first use, in the
connection's schema (its `search_path`: `?options=-csearch_path%3Dname` picks another):

    fonte_libraries  one row per library (its folder's identity, `name`): the catalog, its
                     generation (drawn from a sequence by each save: never the same twice,
                     even for a library reset and indexed again) and its citation URLs
    fonte_passages   the passages of every library, by library and document key
    fonte_texts      the page texts of every library's documents, by library and sha256
    fonte_term_counts  how many of a library's passages hold each term (its passage
                     frequency, for BM25), kept by the refresh that adds or removes them
                     when the library says `counted` (a library indexed before the table
                     existed is counted by its next refresh, and searched meanwhile by
                     counting the matching passages)

A store that cannot be reached is a `LibraryStoreError`: one line, the URL's password hidden.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from engine.errors import SourceError

if TYPE_CHECKING:
    import psycopg

STORE_VARIABLE = "FONTE_LIBRARY_STORE"
SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT_SECONDS = 10

SCHEMA = """
CREATE SEQUENCE IF NOT EXISTS fonte_generations;
CREATE TABLE IF NOT EXISTS fonte_libraries (
    id bigserial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    catalog bytea,
    generation bigint NOT NULL DEFAULT 0,
    urls jsonb NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS fonte_passages (
    library bigint NOT NULL REFERENCES fonte_libraries (id) ON DELETE CASCADE,
    key text NOT NULL,
    page integer NOT NULL,
    start_at integer NOT NULL,
    end_at integer NOT NULL,
    tokens text NOT NULL,
    terms tsvector NOT NULL
);
CREATE INDEX IF NOT EXISTS fonte_passages_key ON fonte_passages (library, key);
CREATE INDEX IF NOT EXISTS fonte_passages_terms ON fonte_passages USING gin (terms);
CREATE TABLE IF NOT EXISTS fonte_texts (
    library bigint NOT NULL REFERENCES fonte_libraries (id) ON DELETE CASCADE,
    sha256 text NOT NULL,
    kind text NOT NULL,
    title text NOT NULL,
    texts text[] NOT NULL,
    ocr_pages integer[] NOT NULL,
    PRIMARY KEY (library, sha256, kind)
);
ALTER TABLE fonte_libraries ADD COLUMN IF NOT EXISTS counted boolean NOT NULL DEFAULT false;
CREATE TABLE IF NOT EXISTS fonte_term_counts (
    library bigint NOT NULL REFERENCES fonte_libraries (id) ON DELETE CASCADE,
    term text NOT NULL,
    passages bigint NOT NULL,
    PRIMARY KEY (library, term)
);
"""
NEWEST_TABLE = "fonte_term_counts"
"""The table the latest schema added: a store that has it has them all."""


class LibraryStoreError(SourceError):
    """The library store cannot be reached or used; one line, the URL's password hidden."""


def is_store_url(value: str) -> bool:
    return urlsplit(value.strip()).scheme in SCHEMES


def without_password(url: str) -> str:
    """`url` with its password, if any, as `***`."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    netloc = f"{parts.username or ''}:***@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def connect_store(url: str, *, autocommit: bool = True) -> psycopg.Connection[tuple[object, ...]]:
    """A connection to the store at `url`, its tables created if missing."""
    try:
        import psycopg
    except ImportError:
        raise LibraryStoreError(
            f"{STORE_VARIABLE}={without_password(url)} needs psycopg: pip install 'fonte[postgres]'"
        ) from None
    try:
        connection = psycopg.connect(
            url, autocommit=autocommit, connect_timeout=CONNECT_TIMEOUT_SECONDS
        )
    except psycopg.Error as error:
        reason = _line(error)
        raise LibraryStoreError(
            f"library store {without_password(url)} cannot be reached: {reason}"
        ) from None
    return connection


def ensure_schema(url: str) -> None:
    """The store's tables, created when missing (concurrent creators wait for one another;
    a role that may only read and write them never needs to create anything)."""
    with connect_store(url) as connection, failing_as_store_error(url):
        row = connection.execute(f"SELECT to_regclass('{NEWEST_TABLE}') IS NOT NULL").fetchone()
        if row is not None and row[0]:
            return
        with connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(7315001)")
            connection.execute(SCHEMA)


@contextmanager
def failing_as_store_error(url: str) -> Iterator[None]:
    """A database failure inside raised as one `LibraryStoreError` line."""
    import psycopg

    try:
        yield
    except psycopg.Error as error:
        raise LibraryStoreError(f"library store {without_password(url)}: {_line(error)}") from error


def _line(error: Exception) -> str:
    text = str(error).strip()
    for secret in _passwords_in(text):
        text = text.replace(secret, "***")
    return text.splitlines()[0] if text else type(error).__name__


def _passwords_in(text: str) -> list[str]:
    return [word.split("password=", 1)[1] for word in text.split() if word.startswith("password=")]
