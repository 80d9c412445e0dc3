import json
import struct
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
    catalog.save(tmp_path / "catalog")
    loaded = Catalog.load(tmp_path / "catalog")
    assert loaded == catalog
    assert loaded is not None
    assert loaded.entries["docs/lei.md"].indexed
    assert not loaded.entries["scan.pdf"].indexed
    assert loaded.documents() == [INDEXED]
    assert loaded.keys() == {INDEXED.key}


def _damaged(data: bytes, how: str) -> bytes:
    """`data` (an encoded catalog) damaged as `how` says, the header re-encoded."""
    magic = b"fonte catalog\n"
    (length,) = struct.unpack_from("<Q", data, len(magic))
    start = len(magic) + 8
    header = json.loads(data[start : start + length])
    body = data[start + length :]
    if how == "truncated":
        return data[:-3]
    if how == "trailing":
        return data + b"x"
    if how == "magic":
        return b"fonte catalog?" + data[len(magic) :]
    if how == "bad-utf8":  # the first block is the paths, NUL-joined UTF-8
        return data[: start + length] + b"\xd4" + body[1:]
    if how == "other-format":
        header["format"][0] += 1
    elif how == "count":
        header["count"] += 1
    elif how == "negative-count":
        header["count"] = -1
    elif how == "column-missing":
        header["columns"].pop()
    elif how == "wrong-encoding":  # an integer column said to be text
        header["columns"][2][0] = "text"
    elif how == "block-lengths":  # the same bytes, cut elsewhere
        header["columns"][0][1] += 1
        header["columns"][1][1] -= 1
    elif how == "titles":
        header["titles"] = {"a.md": 3}
    elif how == "unknown-kind":  # the kinds' block: "markdown\0pdf"
        body = body.replace(b"markdown", b"markdoww", 1)
    head = json.dumps(header).encode()
    return magic + struct.pack("<Q", len(head)) + head + body


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b"[]",
        b'{"format": [0]}',
        b"fonte catalog\n",
        b"fonte catalog\n\xff\xff\xff\xff\xff\xff\xff\xff{}",
        "truncated",
        "trailing",
        "magic",
        "bad-utf8",
        "other-format",
        "count",
        "negative-count",
        "column-missing",
        "wrong-encoding",
        "block-lengths",
        "titles",
        "unknown-kind",
    ],
)
def test_absent_damaged_or_other_format_loads_as_none(tmp_path: Path, content: object) -> None:
    path = tmp_path / "catalog"
    assert Catalog.load(path) is None
    encoded = Catalog({e.relative: e for e in (INDEXED, UNREADABLE)}).encode()
    assert Catalog.decode(encoded) is not None
    data = content if isinstance(content, bytes) else _damaged(encoded, str(content))
    path.write_bytes(data)
    assert Catalog.load(path) is None


def test_an_empty_catalog_round_trips() -> None:
    assert Catalog.decode(Catalog().encode()) == Catalog()
    assert Catalog.decode(Catalog(titles={"a.md": "A"}).encode()) == Catalog(titles={"a.md": "A"})


def test_the_manifest_titles_are_kept_with_the_entries() -> None:
    catalog = Catalog({INDEXED.relative: INDEXED}, {"docs/lei.md": "Lei listada", "x.md": ""})
    decoded = Catalog.decode(catalog.encode())
    assert decoded is not None
    assert decoded.titles == {"docs/lei.md": "Lei listada", "x.md": ""}
    assert decoded != Catalog({INDEXED.relative: INDEXED})


def test_decoding_gives_back_every_entry_of_hostile_values() -> None:
    """Each field's column against the entries it came from: names and titles with
    quotes, separators, NULs and non-BMP characters; page counts of None and 0; 64-bit
    modification times; empty strings in any position."""
    names = [
        "a b.md",
        "ação #1.md",
        "50% off?.txt",
        'x/\u00e9"q".pdf',
        "\u2028.txt",
        "z\U0001f600.md",
    ]
    titles = ["", "Título\x00oculto", "a\nb", "\\u0000", "\x00", "\U0001f600"]
    entries = [
        INDEXED._replace(
            relative=name,
            title=title,
            own_title=title[::-1],
            page_count=[None, 0, 1, 2**31, None, 7][number],
            passages=number,
            mtime_ns=2**63 - 1 - number,
            size=2**40 + number,
        )
        for number, (name, title) in enumerate(zip(names, titles, strict=True))
    ] + [UNREADABLE]
    catalog = Catalog({entry.relative: entry for entry in entries})
    decoded = Catalog.decode(catalog.encode())
    assert decoded is not None
    assert list(decoded.entries.values()) == entries
    assert all(type(entry.kind) is DocumentKind for entry in decoded.entries.values())
    assert decoded.columns() == catalog.columns()
    assert decoded.unreadable() == [(UNREADABLE.relative, UNREADABLE.reason)]
    assert decoded.indexed().rows() == entries[:-1]


def test_a_decoded_catalog_makes_no_entry_until_one_is_asked_for() -> None:
    catalog = Catalog({e.relative: e for e in (INDEXED, UNREADABLE)})
    decoded = Catalog.decode(catalog.encode())
    assert decoded is not None
    assert len(decoded) == 2
    assert decoded.keys() == {INDEXED.key}
    assert decoded.indexed().key == [INDEXED.key]
    assert decoded._entries is None  # columns only
    assert decoded.entries == catalog.entries


def test_same_files_compares_every_column() -> None:
    catalog = Catalog({e.relative: e for e in (INDEXED, UNREADABLE)})
    files = (["docs/lei.md", "scan.pdf"], [DocumentKind.markdown, DocumentKind.pdf])
    sizes, mtimes = [120, 9], [1_700_000_000_123_456_789, 5]
    assert catalog.same_files(*files, sizes, mtimes)
    assert not catalog.same_files(files[0], [DocumentKind.markdown] * 2, sizes, mtimes)
    assert not catalog.same_files(*files, [120, 10], mtimes)
    assert not catalog.same_files(*files, sizes, [1_700_000_000_123_456_788, 5])
    assert not catalog.same_files(["docs/lei.md", "scan2.pdf"], files[1], sizes, mtimes)
    assert not catalog.same_files(files[0][:1], files[1][:1], sizes[:1], mtimes[:1])


def test_merged_keeps_rows_and_places_new_entries_in_order() -> None:
    a, c = INDEXED._replace(relative="a.md"), INDEXED._replace(relative="c.md", key="c" * 32)
    columns = Catalog({e.relative: e for e in (a, c, UNREADABLE)}).columns()
    b = INDEXED._replace(relative="b.md", title="Bê", page_count=4)
    merged = columns.merged([0, "b.md", "pending.md", 2], {"b.md": b})
    assert merged.rows() == [a, b, UNREADABLE]
    assert columns.merged([1], {}).rows() == [c]
    assert columns.merged([], {}).rows() == []
