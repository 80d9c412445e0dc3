import hashlib
from pathlib import Path

import pytest

from engine.documents.parse import DocumentKind, ParsedFile
from engine.sources.library.cache import (
    ParsedTextCache,
    default_cache_dir,
    file_sha256,
)

SHA = "a" * 64


def test_file_sha256_matches_hashlib(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    data = bytes(range(256)) * 10_000
    path.write_bytes(data)
    assert file_sha256(path) == hashlib.sha256(data).hexdigest()


def test_default_cache_dir_honours_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("FONTE_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("FONTE_CACHE_DIR")
    assert default_cache_dir() == Path.home() / ".cache" / "fonte"


def test_parsed_text_round_trips(tmp_path: Path) -> None:
    cache = ParsedTextCache(tmp_path)
    parsed = ParsedFile(DocumentKind.pdf, ("page one", "página dois"), "")
    assert cache.get(SHA, DocumentKind.pdf) is None
    cache.put(SHA, DocumentKind.pdf, parsed)
    assert cache.get(SHA, DocumentKind.pdf) == parsed
    assert cache.get(SHA, DocumentKind.text) is None


def test_unreadable_reason_round_trips(tmp_path: Path) -> None:
    cache = ParsedTextCache(tmp_path)
    cache.put(SHA, DocumentKind.text, "binary content")
    assert cache.get(SHA, DocumentKind.text) == "binary content"


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{trunc",
        b"[]",
        b'{"title": "t"}',
        b'{"title": "t", "texts": []}',
        b'{"title": 1, "texts": ["x"]}',
        b'{"title": "t", "texts": [1]}',
    ],
)
def test_damaged_entry_is_a_miss(tmp_path: Path, content: bytes) -> None:
    cache = ParsedTextCache(tmp_path)
    cache.put(SHA, DocumentKind.markdown, ParsedFile(DocumentKind.markdown, ("x",), "t"))
    (entry,) = tmp_path.iterdir()
    entry.write_bytes(content)
    assert cache.get(SHA, DocumentKind.markdown) is None
