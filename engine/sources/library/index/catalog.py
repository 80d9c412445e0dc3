"""What the index of a folder holds: one entry per file seen.

An entry remembers a file's size and modification time with its sha256, so a file whose
size and mtime are unchanged is not hashed again; an unreadable file is remembered with its
reason. An indexed file's entry names the key its passages are stored under (a fresh key
each time the file is read again, so a reader's catalog never names another version's
passages) and how many passages and tokens it has: the live passage count and mean length
BM25 needs come from the catalog. The catalog also keeps the manifest titles its entries
were titled with (`titles`): with those unchanged, an unchanged file keeps its title, so
a warm opening compares the folder with the catalog column by column (`same_files`)
without a title made. The catalog is the index's single point of truth: saved whole,
after the passages it names are committed (see `backend`).

It is saved in columns, one per field, each a block of bytes: the integers as 64-bit
little-endian words, the strings as UTF-8 joined by NUL (a column holding a NUL in a value
is saved as a JSON list instead), behind a JSON header that gives the format, the count,
the titles and each block's encoding and length. A warm opening at 100,000 files decodes
the columns (a decode and a split per column, at C speed) and makes no entry: the entries,
one tuple per file, are made on first need (a refresh, a slow check), and the columns a
search needs are read as they are (`columns`, `indexed`).
"""

from __future__ import annotations

import json
import struct
import sys
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from engine.disk import write_atomically
from engine.documents.parse import PARSER_VERSION, DocumentKind
from engine.sources.library.passages import MAX_PASSAGE_CHARS, MIN_PASSAGE_CHARS
from engine.text.tokens import TOKENIZER_VERSION

INDEX_FORMAT_VERSION = 8  # 5: passages kept by a search engine; 6: title tokens kept;
# 7: the catalog saved as columns; 8: in binary columns, with the manifest titles it used
FORMAT = [INDEX_FORMAT_VERSION, TOKENIZER_VERSION, PARSER_VERSION, MIN_PASSAGE_CHARS]
FORMAT += [MAX_PASSAGE_CHARS]


class CatalogEntry(NamedTuple):
    """One file of the catalog: a tuple (change a field with `_replace`)."""

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


class CatalogColumns(NamedTuple):
    """Entries as one list per field, in path order (position i of every list is one
    file): what a warm opening reads, with no tuple made per file."""

    relative: list[str]
    kind: list[DocumentKind]
    size: list[int]
    mtime_ns: list[int]
    sha256: list[str]
    reason: list[str]
    own_title: list[str]
    title: list[str]
    page_count: list[int | None]
    key: list[str]
    passages: list[int]
    length: list[int]
    title_tokens: list[str]

    @classmethod
    def of(cls, entries: Sequence[CatalogEntry]) -> CatalogColumns:
        if not entries:
            return cls(*([] for _ in CatalogEntry._fields))
        columns: list[list[Any]] = [list(column) for column in zip(*entries, strict=True)]
        return cls(*columns)

    def rows(self) -> list[CatalogEntry]:
        return list(map(CatalogEntry._make, zip(*self, strict=True)))

    def row(self, position: int) -> CatalogEntry:
        return CatalogEntry._make(column[position] for column in self)

    def merged(self, slots: Sequence[int | str], made: dict[str, CatalogEntry]) -> CatalogColumns:
        """Columns of one row per slot, in order: a position is that row of these columns, a
        path the entry `made` holds for it (none: no row, a file left unread)."""
        base = len(self.relative)  # entry n of `fresh` is row base + n, the columns extended
        positions: list[int] = []
        fresh: list[CatalogEntry] = []
        for slot in slots:
            if isinstance(slot, int):
                positions.append(slot)
            elif (entry := made.get(slot)) is not None:
                positions.append(base + len(fresh))
                fresh.append(entry)
        if not fresh:
            return self.at(positions)
        olds: list[list[Any]] = list(self)
        added: list[list[Any]] = list(CatalogColumns.of(fresh))
        columns = [
            list(map((old + new).__getitem__, positions))
            for old, new in zip(olds, added, strict=True)
        ]
        return CatalogColumns(*columns)

    def at(self, positions: list[int]) -> CatalogColumns:
        """The rows at `positions` only."""
        columns: list[list[Any]] = [list(map(column.__getitem__, positions)) for column in self]
        return CatalogColumns(*columns)


class Catalog:
    """The entries by path, in path order, and the manifest `titles` they were titled
    with; made from entries, or from saved columns (the entries then made on first need)."""

    def __init__(
        self,
        entries: dict[str, CatalogEntry] | None = None,
        titles: dict[str, str] | None = None,
    ) -> None:
        self._entries: dict[str, CatalogEntry] | None = entries if entries is not None else {}
        self._columns: CatalogColumns | None = None
        self._indexed: CatalogColumns | None = None
        self.titles = dict(titles) if titles else {}

    @classmethod
    def of_columns(cls, columns: CatalogColumns, titles: dict[str, str]) -> Catalog:
        catalog = cls(None, titles)
        catalog._entries = None  # made from the columns on first need
        catalog._columns = columns
        return catalog

    @property
    def entries(self) -> dict[str, CatalogEntry]:
        """Every entry, by path (made from the columns on first need)."""
        if self._entries is None:
            assert self._columns is not None
            self._entries = dict(zip(self._columns.relative, self._columns.rows(), strict=True))
        return self._entries

    def columns(self) -> CatalogColumns:
        """Every entry, as columns (made from the entries on first need)."""
        if self._columns is None:
            self._columns = CatalogColumns.of(list(self.entries.values()))
        return self._columns

    def __len__(self) -> int:
        return len(self.columns().relative) if self._entries is None else len(self._entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Catalog):
            return NotImplemented
        return self.titles == other.titles and self.columns() == other.columns()

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass would be

    def __repr__(self) -> str:
        return f"Catalog({len(self)} entries)"

    def indexed(self) -> CatalogColumns:
        """The indexed files, in path order: their position is their document number
        (picked once: a catalog is not changed in place)."""
        if self._indexed is None:
            columns = self.columns()
            if any(columns.reason):
                columns = columns.at([i for i, why in enumerate(columns.reason) if not why])
            self._indexed = columns
        return self._indexed

    def documents(self) -> list[CatalogEntry]:
        """The indexed files as entries, in path order (see `indexed`)."""
        return [entry for entry in self.entries.values() if entry.indexed]

    def unreadable(self) -> list[tuple[str, str]]:
        """The unreadable files, with why, in path order."""
        columns = self.columns()
        if not any(columns.reason):
            return []
        return [(r, why) for r, why in zip(columns.relative, columns.reason, strict=True) if why]

    def keys(self) -> set[str]:
        return {key for key in self.columns().key if key}

    def same_files(
        self, relatives: list[str], kinds: list[DocumentKind], sizes: list[int], mtimes: list[int]
    ) -> bool:
        """Whether the catalog holds exactly these files (path order), of these kinds,
        sizes and modification times: list comparisons, at C speed."""
        columns = self.columns()
        return (
            relatives == columns.relative
            and sizes == columns.size
            and mtimes == columns.mtime_ns
            and kinds == columns.kind
        )

    def encode(self) -> bytes:
        columns = self.columns()
        fields: list[list[Any]] = list(columns)
        blocks = [_encoded(field, column) for field, column in zip(_FIELDS, fields, strict=True)]
        header = {
            "format": FORMAT,
            "count": len(columns.relative),
            "titles": self.titles,
            "columns": [[encoding, len(block)] for encoding, block in blocks],
        }
        head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return b"".join([_MAGIC, struct.pack("<Q", len(head)), head, *(b for _, b in blocks)])

    def save(self, path: Path) -> None:
        write_atomically(path, self.encode())

    @classmethod
    def decode(cls, data: bytes) -> Catalog | None:
        """The catalog `data` holds; None when damaged or of another format."""
        try:
            return _decoded(memoryview(data))
        except (ValueError, KeyError, TypeError, struct.error, UnicodeDecodeError):
            return None

    @classmethod
    def load(cls, path: Path) -> Catalog | None:
        """The catalog at `path`; None when absent, damaged or of another format."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return cls.decode(data)


_MAGIC = b"fonte catalog\n"
_TEXT, _LIST, _INTS, _PAGES = "text", "json", "int64", "pages"
_STR, _INT, _PAGE = "str", "int", "page"
_FIELDS = (_STR, _STR, _INT, _INT, _STR, _STR, _STR, _STR, _PAGE, _STR, _INT, _INT, _STR)
"""Each field's type, in `CatalogEntry` order (the kind is saved as its value)."""
_ENCODINGS = {_STR: (_TEXT, _LIST), _INT: (_INTS,), _PAGE: (_PAGES,)}
_KINDS = {kind.value: kind for kind in DocumentKind}
_NO_PAGES = -1
_SEPARATOR = "\x00"


def _encoded(field: str, column: list[Any]) -> tuple[str, bytes]:
    if field == _INT:
        return _INTS, _words(column)
    if field == _PAGE:
        return _PAGES, _words([_NO_PAGES if value is None else value for value in column])
    text = _SEPARATOR.join(column)
    if text.count(_SEPARATOR) != max(len(column) - 1, 0):  # a value holds a NUL
        return _LIST, json.dumps(column, ensure_ascii=False).encode("utf-8")
    return _TEXT, text.encode("utf-8")


def _words(values: list[int]) -> bytes:
    words = array("q", values)
    if sys.byteorder != "little":
        words.byteswap()
    return words.tobytes()


def _decoded(data: memoryview) -> Catalog | None:
    if data[: len(_MAGIC)] != _MAGIC:
        return None
    (head_length,) = struct.unpack_from("<Q", data, len(_MAGIC))
    start = len(_MAGIC) + 8
    header = json.loads(bytes(data[start : start + head_length]))
    if type(header) is not dict or header.get("format") != FORMAT:
        return None
    count, titles, layout = header["count"], header["titles"], header["columns"]
    if type(count) is not int or count < 0 or type(titles) is not dict:
        raise ValueError("catalog header of the wrong shape")
    if not all(type(k) is str and type(v) is str for k, v in titles.items()):
        raise ValueError("catalog titles of the wrong type")
    if type(layout) is not list or len(layout) != len(_FIELDS):
        raise ValueError("catalog of the wrong shape")
    offset = start + head_length
    columns: list[list[Any]] = []
    for field, block in zip(_FIELDS, layout, strict=True):
        if type(block) is not list or len(block) != 2 or type(block[1]) is not int:
            raise ValueError("catalog column of the wrong shape")
        encoding, length = block
        if encoding not in _ENCODINGS[field] or length < 0 or offset + length > len(data):
            raise ValueError("catalog column of the wrong shape")
        columns.append(_column(encoding, data[offset : offset + length], count))
        offset += length
    if offset != len(data):
        raise ValueError("catalog of the wrong length")
    columns[1] = list(map(_KINDS.__getitem__, columns[1]))  # KeyError: an unknown kind
    return Catalog.of_columns(CatalogColumns(*columns), titles)


def _column(encoding: str, block: memoryview, count: int) -> list[Any]:
    if encoding in (_INTS, _PAGES):
        if len(block) != 8 * count:
            raise ValueError("catalog column of the wrong length")
        words = array("q")
        words.frombytes(block)
        if sys.byteorder != "little":
            words.byteswap()
        numbers: list[int] = words.tolist()
        if encoding == _PAGES:
            return [None if value == _NO_PAGES else value for value in numbers]
        return numbers
    if encoding == _LIST:
        listed = json.loads(bytes(block))
        if type(listed) is not list or not all(type(value) is str for value in listed):
            raise ValueError("catalog column of the wrong type")
        values: list[str] = listed
    else:
        values = str(block, "utf-8").split(_SEPARATOR) if count else []
        if not count and len(block):
            raise ValueError("catalog column of the wrong length")
    if len(values) != count:
        raise ValueError("catalog column of the wrong length")
    return values
