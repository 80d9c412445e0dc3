"""What the index of a folder holds: one entry per file seen.

An entry remembers a file's size and modification time with its sha256, so a file whose
size and mtime are unchanged is not hashed again; an unreadable file is remembered with its
reason. An indexed file's entry names the key its passages are stored under (a fresh key
each time the file is read again, so a reader's catalog never names another version's
passages) and how many passages and tokens it has: the live passage count and mean length
BM25 needs come from the catalog. The catalog is the index's single point of truth: saved
whole, after the passages it names are committed (see `backend`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from operator import attrgetter
from pathlib import Path

from engine.disk import write_atomically
from engine.documents.parse import PARSER_VERSION, DocumentKind
from engine.sources.library.passages import MAX_PASSAGE_CHARS, MIN_PASSAGE_CHARS
from engine.text.tokens import TOKENIZER_VERSION

INDEX_FORMAT_VERSION = 6  # 5: passages kept by a search engine; 6: title tokens kept
FORMAT = [INDEX_FORMAT_VERSION, TOKENIZER_VERSION, PARSER_VERSION, MIN_PASSAGE_CHARS]
FORMAT += [MAX_PASSAGE_CHARS]


@dataclass(frozen=True)
class CatalogEntry:
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
        record = {
            "format": FORMAT,
            "entries": [_row(entry) for entry in self.entries.values()],
        }
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
            entries = [_entry(row) for row in record["entries"]]
        except (ValueError, KeyError, TypeError):
            return None
        return cls({entry.relative: entry for entry in entries})

    @classmethod
    def load(cls, path: Path) -> Catalog | None:
        """The catalog at `path`; None when absent, damaged or of another format."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return cls.decode(data)


_row = attrgetter(*(entry_field.name for entry_field in fields(CatalogEntry)))
"""An entry's fields as a tuple (`dataclasses.astuple` deep-copies each, some 20 times
slower: a refresh saves every entry of the catalog)."""
_KINDS = {kind.value: kind for kind in DocumentKind}
_ROW_TYPES = (str, str, int, int, str, str, str, str, int, str, int, int, str)
"""The type of each field of an entry's row (its page count may be None too)."""
_UNPAGED_ROW_TYPES = (*_ROW_TYPES[:8], type(None), *_ROW_TYPES[9:])


def _entry(row: list[object]) -> CatalogEntry:
    """The entry a row holds: fields of their exact types (a bool is no integer), checked
    at once, since a warm opening decodes every row."""
    types = tuple(map(type, row))
    if types != _ROW_TYPES and types != _UNPAGED_ROW_TYPES:
        raise ValueError("catalog entry with a field of the wrong type")
    kind = _KINDS.get(row[1])  # type: ignore[call-overload]
    if kind is None:
        raise ValueError("catalog entry of an unknown kind")
    return CatalogEntry(row[0], kind, *row[2:])  # type: ignore[arg-type]
