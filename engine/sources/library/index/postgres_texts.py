"""The page texts of a library's documents in its PostgreSQL store, by sha256 and kind: what
the parsed-text cache and the files give on the host that indexed the folder, for a worker
on any host (`DocumentTexts` reads them through `get`, as from `ParsedTextCache`).

A refresh stores the texts of the documents its catalog names before saving that catalog
(from this host's parsed-text cache, else the file itself, parsed again, when it still has
the bytes that were indexed); the texts no saved catalog names are removed with the
passages of removed documents.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from engine.documents.parse import DocumentKind, ParsedFile, UnreadableFile, parse_bytes
from engine.sources.library.cache import ParsedTextCache
from engine.sources.library.index.catalog import Catalog, CatalogEntry
from engine.sources.library.index.postgres_connection import failing_as_store_error

if TYPE_CHECKING:
    import psycopg


class PostgresTexts:
    """The page texts of one library, on `connection` (the store's, or a reader's: `of`)."""

    def __init__(
        self,
        url: str,
        connection: psycopg.Connection[tuple[object, ...]],
        folder: Path | None,
        parsed_dir: Path | None,
    ) -> None:
        self._url = url
        self._connection = connection
        self._folder = folder
        self._cache = ParsedTextCache(parsed_dir) if parsed_dir is not None else None
        self.library: int | None = None

    def of(self, connection: psycopg.Connection[tuple[object, ...]]) -> PostgresTexts:
        """These texts read on `connection`: a reader's, so a library keeps the texts of
        the snapshot it searches while a refresh removes a document."""
        texts = PostgresTexts(self._url, connection, self._folder, None)
        texts.library = self.library
        return texts

    def get(self, sha256: str, kind: DocumentKind) -> ParsedFile | None:
        """The stored texts of the document with these bytes; None when not stored."""
        if self.library is None:
            return None
        with failing_as_store_error(self._url):
            row = self._connection.execute(
                "SELECT title, texts, ocr_pages FROM fonte_texts "
                "WHERE library = %s AND sha256 = %s AND kind = %s",
                (self.library, sha256, kind.value),
            ).fetchone()
        if row is None:
            return None
        title, texts, ocr = row
        if not isinstance(texts, list) or not isinstance(ocr, list):
            return None
        return ParsedFile(kind, tuple(map(str, texts)), str(title), frozenset(map(int, ocr)))

    def store_missing(self, library: int, catalog: Catalog) -> None:
        """The texts of `catalog`'s documents the store lacks, stored (in the caller's
        transaction); those this host cannot read are left out (a fetch then says so)."""
        self.library = library
        rows = self._connection.execute(
            "SELECT sha256, kind FROM fonte_texts WHERE library = %s", (library,)
        ).fetchall()
        stored = {(str(sha), str(kind)) for sha, kind in rows}
        for entry in catalog.documents():
            if (entry.sha256, entry.kind.value) in stored:
                continue
            parsed = self._read(entry)
            if parsed is None:
                continue
            self._connection.execute(
                "INSERT INTO fonte_texts (library, sha256, kind, title, texts, ocr_pages) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (
                    library,
                    entry.sha256,
                    entry.kind.value,
                    parsed.title,
                    list(parsed.texts),
                    sorted(parsed.ocr_pages),
                ),
            )
            stored.add((entry.sha256, entry.kind.value))

    def remove_unnamed(
        self, connection: psycopg.Connection[tuple[object, ...]], library: int
    ) -> None:
        """The texts of documents the saved catalog does not name removed (on `connection`,
        in its transaction)."""
        row = connection.execute(
            "SELECT catalog FROM fonte_libraries WHERE id = %s", (library,)
        ).fetchone()
        data = row[0] if row is not None else None
        catalog = Catalog.decode(bytes(data)) if isinstance(data, bytes | memoryview) else None
        if catalog is None:
            return
        named = sorted({entry.sha256 for entry in catalog.documents()})
        connection.execute(
            "DELETE FROM fonte_texts WHERE library = %s AND NOT (sha256 = ANY(%s))",
            (library, named),
        )

    def _read(self, entry: CatalogEntry) -> ParsedFile | None:
        if self._cache is not None:
            cached = self._cache.get(entry.sha256, entry.kind)
            if isinstance(cached, ParsedFile):
                return cached
        if self._folder is None:
            return None
        try:
            data = (self._folder / entry.relative).read_bytes()
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != entry.sha256:
            return None  # changed since it was read: the next refresh reads it again
        try:
            return parse_bytes(data, entry.kind)
        except UnreadableFile:
            return None
