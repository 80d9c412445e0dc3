"""What the index of a folder holds: one entry per file seen.

An entry remembers a file's size and modification time with its sha256, so a file whose
size and mtime are unchanged is not hashed again; an unreadable file is remembered with its
reason. An indexed file's entry names the key its passages are stored under (a fresh key
each time the file is read again, so a reader's catalog never names another version's
passages) and how many passages and tokens it has: the live passage count and mean length
BM25 needs come from the catalog. The catalog is the index's single point of truth: saved
whole, after the passages it names are committed (see `backend`).

It is saved as JSON of columns, one list per field, not of one row per entry: a warm
opening decodes every entry, and parallel lists decode with a list per field rather than
one per file; the entries are then made by `map` (see `Catalog.decode`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from engine.disk import write_atomically
from engine.documents.parse import PARSER_VERSION, DocumentKind
from engine.sources.library.passages import MAX_PASSAGE_CHARS, MIN_PASSAGE_CHARS
from engine.text.tokens import TOKENIZER_VERSION

INDEX_FORMAT_VERSION = 7  # 5: passages kept by a search engine; 6: title tokens kept;
# 7: the catalog saved as columns
FORMAT = [INDEX_FORMAT_VERSION, TOKENIZER_VERSION, PARSER_VERSION, MIN_PASSAGE_CHARS]
FORMAT += [MAX_PASSAGE_CHARS]


class CatalogEntry(NamedTuple):
    """One file of the catalog: a tuple, made by the thousand on every opening (change a
    field with `_replace`)."""

    relative: str
    kind: DocumentKind
    size: int
    mtime_ns: int
    sha256: str
    reason: str
    """Why the file is unreadable; "" for an indexed file."""
    own_title: str = ""
    """The title the file states itself ("" when none)."""
    title: str = ""
    """The title indexed with its passages (manifest, own title or file stem)."""
    page_count: int | None = None
    key: str = ""
    """The document key its passages are stored under ("" for an unreadable file)."""
    passages: int = 0
    length: int = 0
    """Its passages' tokens, all told (each passage's title tokens included)."""
    title_tokens: str = ""
    """The title's tokens (`ranking.title_tokens`), space-joined: kept so that opening the
    library tokenizes no title."""

    @property
    def indexed(self) -> bool:
        return not self.reason


@dataclass
class Catalog:
    entries: dict[str, CatalogEntry] = field(default_factory=dict)

    def documents(self) -> list[CatalogEntry]:
        """The indexed files, in path order: their position is their document number."""
        return [entry for entry in self.entries.values() if entry.indexed]

    def keys(self) -> set[str]:
        return {entry.key for entry in self.entries.values() if entry.indexed}

    def encode(self) -> bytes:
        rows = self.entries.values()
        columns = [list(column) for column in zip(*rows, strict=True)] if rows else []
        record = {"format": FORMAT, "columns": columns or [[] for _ in _COLUMN_TYPES]}
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def save(self, path: Path) -> None:
        write_atomically(path, self.encode())

    @classmethod
    def decode(cls, data: bytes) -> Catalog | None:
        """The catalog `data` holds; None when damaged or of another format."""
        try:
            record = json.loads(data)
            if record["format"] != FORMAT:
                return None
            entries = _entries(record["columns"])
        except (ValueError, KeyError, TypeError):
            return None
        return cls(entries)

    @classmethod
    def load(cls, path: Path) -> Catalog | None:
        """The catalog at `path`; None when absent, damaged or of another format."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return cls.decode(data)


_KINDS = {kind.value: kind for kind in DocumentKind}
_STR: frozenset[type] = frozenset({str})
_INT: frozenset[type] = frozenset({int})
_PAGES: frozenset[type] = frozenset({int, type(None)})
_COLUMN_TYPES = (_STR, _STR, _INT, _INT, _STR, _STR, _STR, _STR, _PAGES, _STR, _INT, _INT, _STR)
"""The types each field's column may hold: exact types (a bool is no integer); the page
count may be None too."""


def _entries(columns: object) -> dict[str, CatalogEntry]:
    """The entries, by path, that `columns` hold: each column checked whole for its type
    (one set of the types in it, at C speed), then the entries made by `map`, since a warm
    opening decodes every one."""
    if type(columns) is not list or len(columns) != len(_COLUMN_TYPES):
        raise ValueError("catalog of the wrong shape")
    count = len(columns[0]) if type(columns[0]) is list else -1
    for column, types in zip(columns, _COLUMN_TYPES, strict=True):
        if type(column) is not list or len(column) != count:
            raise ValueError("catalog column of the wrong shape")
        if not types.issuperset(map(type, column)):
            raise ValueError("catalog entry with a field of the wrong type")
    try:
        kinds = list(map(_KINDS.__getitem__, columns[1]))
    except KeyError:
        raise ValueError("catalog entry of an unknown kind") from None
    rows = zip(columns[0], kinds, *columns[2:], strict=True)
    return dict(zip(columns[0], map(CatalogEntry._make, rows), strict=True))
