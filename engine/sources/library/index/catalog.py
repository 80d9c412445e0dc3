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
from dataclasses import astuple, dataclass, field
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
            "entries": [astuple(entry) for entry in self.entries.values()],
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


def _entry(row: list[object]) -> CatalogEntry:
    relative, kind, size, mtime, sha, reason, own_title, title, pages, key, passages, *rest = row
    length, tokens = rest
    if pages is not None and not isinstance(pages, int):
        raise ValueError("catalog entry with a bad page count")
    return CatalogEntry(
        _text(relative),
        DocumentKind(_text(kind)),
        _integer(size),
        _integer(mtime),
        _text(sha),
        _text(reason),
        _text(own_title),
        _text(title),
        pages,
        _text(key),
        _integer(passages),
        _integer(length),
        _text(tokens),
    )


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("catalog entry with a non-text field")
    return value


def _integer(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError("catalog entry with a non-integer field")
    return value
