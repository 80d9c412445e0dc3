import json
from pathlib import Path

import pytest

from engine.documents.parse import DocumentKind
from engine.sources.library.index.catalog import Catalog, CatalogEntry

INDEXED = CatalogEntry(
    "docs/lei.md",
    DocumentKind.markdown,
    120,
    1_700_000_000_123_456_789,
    "a" * 64,
    "",
    "Lei",
    "LEI 1",
    None,
    "0f" * 16,
    3,
    41,
    "lei 1",
)
UNREADABLE = CatalogEntry("scan.pdf", DocumentKind.pdf, 9, 5, "b" * 64, "no text in file")


def test_round_trip(tmp_path: Path) -> None:
    catalog = Catalog({e.relative: e for e in (INDEXED, UNREADABLE)})
    catalog.save(tmp_path / "catalog.json")
    loaded = Catalog.load(tmp_path / "catalog.json")
    assert loaded == catalog
    assert loaded is not None
    assert loaded.entries["docs/lei.md"].indexed
    assert not loaded.entries["scan.pdf"].indexed
    assert loaded.documents() == [INDEXED]
    assert loaded.keys() == {INDEXED.key}


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b"[]",
        b'{"format": [0]}',
        "other-format",
        "bad-entry",
        "bool-entry",
        "unknown-kind",
        "ragged",
        "missing-column",
        "rows",
    ],
)
def test_absent_damaged_or_other_format_loads_as_none(tmp_path: Path, content: object) -> None:
    path = tmp_path / "catalog.json"
    assert Catalog.load(path) is None
    record = json.loads(Catalog({INDEXED.relative: INDEXED}).encode())
    if content == "other-format":
        record["format"][0] += 1
        data = json.dumps(record).encode()
    elif content in ("bad-entry", "bool-entry"):
        record["columns"][2][0] = "120" if content == "bad-entry" else True
        data = json.dumps(record).encode()
    elif content in ("unknown-kind", "ragged", "missing-column", "rows"):
        if content == "unknown-kind":
            record["columns"][1][0] = "no-such-kind"
        elif content == "ragged":
            record["columns"][3].append(5)
        elif content == "missing-column":
            record["columns"].pop()
        else:
            record["columns"] = [list(INDEXED)]
        data = json.dumps(record).encode()
    else:
        assert isinstance(content, bytes)
        data = content
    path.write_bytes(data)
    assert Catalog.load(path) is None


def test_the_entries_are_saved_as_one_column_per_field() -> None:
    catalog = Catalog({e.relative: e for e in (INDEXED, UNREADABLE)})
    columns = json.loads(catalog.encode())["columns"]
    assert columns == [list(pair) for pair in zip(INDEXED, UNREADABLE, strict=True)]
    assert len(columns) == len(CatalogEntry._fields)


def test_an_empty_catalog_round_trips() -> None:
    assert Catalog.decode(Catalog().encode()) == Catalog()


def test_decoding_makes_the_entries_a_row_by_row_decoding_would() -> None:
    """The columnar decoding against the plain one: an entry per row, of hostile names."""
    names = ["a b.md", "ação #1.md", "50% off?.txt", 'x/\u00e9"q".pdf', "\u2028.txt"]
    entries = [
        INDEXED._replace(relative=name, page_count=number or None, passages=number)
        for number, name in enumerate(names)
    ] + [UNREADABLE]
    catalog = Catalog({entry.relative: entry for entry in entries})
    columns = json.loads(catalog.encode())["columns"]
    plain = [
        CatalogEntry(row[0], DocumentKind(row[1]), *row[2:]) for row in zip(*columns, strict=True)
    ]
    decoded = Catalog.decode(catalog.encode())
    assert decoded is not None
    assert list(decoded.entries.values()) == plain == entries
    assert all(type(entry.kind) is DocumentKind for entry in decoded.entries.values())
