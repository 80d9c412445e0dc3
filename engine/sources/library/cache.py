"""On-disk cache of parsed texts, keyed by the sha256 of the file bytes.

Every write goes to a temporary file first and is then renamed into place, so an
interrupted run leaves either the old entry or the new one; an entry that cannot be read
back is treated as missing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from engine.disk import write_atomically
from engine.documents.parse import PARSER_VERSION, DocumentKind, ParsedFile

CACHE_DIR_VARIABLE = "FONTE_CACHE_DIR"
_HASH_CHUNK_BYTES = 1 << 20


def default_cache_dir() -> Path:
    """`$FONTE_CACHE_DIR`, else `~/.cache/fonte`."""
    configured = os.environ.get(CACHE_DIR_VARIABLE, "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "fonte"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(_HASH_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


class ParsedTextCache:
    """Parsed files (or the reason a file is unreadable) by file sha256 and kind."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def get(self, sha256: str, kind: DocumentKind) -> ParsedFile | str | None:
        """The cached result, or None when absent or unreadable."""
        try:
            record = json.loads(self._path(sha256, kind).read_bytes())
        except (OSError, ValueError):
            return None
        return _from_record(record, kind)

    def put(self, sha256: str, kind: DocumentKind, result: ParsedFile | str) -> None:
        if isinstance(result, str):
            record: dict[str, object] = {"error": result}
        else:
            record = {"title": result.title, "texts": list(result.texts)}
            if result.ocr_pages:
                record["ocr_pages"] = sorted(result.ocr_pages)
        data = json.dumps(record, ensure_ascii=False).encode("utf-8")
        write_atomically(self._path(sha256, kind), data)

    def _path(self, sha256: str, kind: DocumentKind) -> Path:
        return self.directory / f"{sha256}.{kind.value}.v{PARSER_VERSION}.json"


def _from_record(record: object, kind: DocumentKind) -> ParsedFile | str | None:
    if not isinstance(record, dict):
        return None
    error = record.get("error")
    if isinstance(error, str):
        return error
    title, texts = record.get("title"), record.get("texts")
    if not isinstance(title, str) or not isinstance(texts, list) or not texts:
        return None
    if not all(isinstance(text, str) for text in texts):
        return None
    read = record.get("ocr_pages", [])
    if not isinstance(read, list) or not all(isinstance(page, int) for page in read):
        return None
    return ParsedFile(kind, tuple(texts), title, frozenset(read))
