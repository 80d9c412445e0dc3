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
    [b"", b"{", b"[]", b'{"format": [0]}', "other-format", "bad-entry", "bool-entry"],
)
def test_absent_damaged_or_other_format_loads_as_none(tmp_path: Path, content: object) -> None:
    path = tmp_path / "catalog.json"
    assert Catalog.load(path) is None
    record = json.loads(Catalog({INDEXED.relative: INDEXED}).encode())
    if content == "other-format":
        record["format"][0] += 1
        data = json.dumps(record).encode()
    elif content in ("bad-entry", "bool-entry"):
        record["entries"][0][2] = "120" if content == "bad-entry" else True
        data = json.dumps(record).encode()
    else:
        assert isinstance(content, bytes)
        data = content
    path.write_bytes(data)
    assert Catalog.load(path) is None


def test_an_entry_is_saved_as_the_tuple_of_its_fields() -> None:
    from dataclasses import astuple

    catalog = Catalog({e.relative: e for e in (INDEXED, UNREADABLE)})
    rows = json.loads(catalog.encode())["entries"]
    assert rows == [list(astuple(INDEXED)), list(astuple(UNREADABLE))]
