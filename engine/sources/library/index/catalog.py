"""What the index of a folder holds: one entry per file seen, and the segments in use.

An entry remembers a file's size and modification time with its sha256, so a file whose
size and mtime are unchanged is not hashed again; an unreadable file is remembered with its
reason. The catalog is the index's single point of truth: it is replaced atomically after
the segments it names are on disk, so a reader sees the old index or the new one.
"""

from __future__ import annotations

import json
from dataclasses import astuple, dataclass, field
from pathlib import Path

from engine.disk import write_atomically
from engine.documents.parse import PARSER_VERSION, DocumentKind
from engine.sources.library.passages import MAX_PASSAGE_CHARS, MIN_PASSAGE_CHARS
from engine.text.tokens import TOKENIZER_VERSION

INDEX_FORMAT_VERSION = 4  # 4: running headers and footers left out of the indexed words
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
    segment: str = ""
    local: int = -1
    """Its document number within `segment`."""

    @property
    def indexed(self) -> bool:
        return not self.reason


@dataclass
class Catalog:
    entries: dict[str, CatalogEntry] = field(default_factory=dict)
    segments: list[str] = field(default_factory=list)
    vocabulary: str = ""
    """The vocabulary file's name (each refresh writes a new one)."""
    vocabulary_size: int = 0

    def encode(self) -> bytes:
        record = {
            "format": FORMAT,
            "segments": self.segments,
            "vocabulary": self.vocabulary,
            "vocabulary_size": self.vocabulary_size,
            "entries": [astuple(entry) for entry in self.entries.values()],
        }
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def save(self, path: Path) -> None:
        write_atomically(path, self.encode())

    @classmethod
    def load(cls, path: Path) -> Catalog | None:
        """The catalog at `path`; None when absent, damaged or of another format."""
        try:
            record = json.loads(path.read_bytes())
            if record["format"] != FORMAT:
                return None
            entries = [_entry(row) for row in record["entries"]]
            segments = [str(name) for name in record["segments"]]
            vocabulary, size = str(record["vocabulary"]), int(record["vocabulary_size"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return cls({entry.relative: entry for entry in entries}, segments, vocabulary, size)


def _entry(row: list[object]) -> CatalogEntry:
    relative, kind, size, mtime, sha, reason, own_title, title, pages, segment, local = row
    if not all(isinstance(v, str) for v in (relative, kind, sha, reason, own_title, title)):
        raise ValueError("catalog entry with a non-text field")
    if not isinstance(size, int) or not isinstance(mtime, int) or not isinstance(local, int):
        raise ValueError("catalog entry with a non-integer field")
    if pages is not None and not isinstance(pages, int):
        raise ValueError("catalog entry with a bad page count")
    return CatalogEntry(
        str(relative),
        DocumentKind(str(kind)),
        size,
        mtime,
        str(sha),
        str(reason),
        str(own_title),
        str(title),
        pages,
        str(segment),
        local,
    )
