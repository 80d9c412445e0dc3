"""Citation URLs of library files, from a manifest in the folder or in its parent.

Two formats are read (one JSON object per line):
- `index.jsonl`: `{"file": "docs/x.md", "url": ..., "title"?: ...}`, `file` relative to the
  manifest's folder;
- `documents.jsonl`: `{"doc_name": "3M_2018_10K", "doc_link": ...}`, `doc_name` = file stem.
A manifest in the library folder wins over one in its parent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.sources.library.files import worded
from engine.text.escapes import escaped

INDEX_MANIFEST = "index.jsonl"
DOCUMENTS_MANIFEST = "documents.jsonl"


@dataclass(frozen=True)
class ManifestEntry:
    url: str
    title: str = ""


class Manifest:
    """Looks up the citation URL (and title, when given) of a library file."""

    def __init__(
        self,
        by_path: dict[Path, ManifestEntry] | None = None,
        by_stem: dict[str, ManifestEntry] | None = None,
    ) -> None:
        self._by_path = by_path or {}
        self._by_stem = by_stem or {}

    def __len__(self) -> int:
        return len(self._by_path) + len(self._by_stem)

    def entries_by_path(self) -> dict[Path, ManifestEntry]:
        """The `index.jsonl` entries, by resolved file path."""
        return dict(self._by_path)

    def entry_for(self, path: Path, *, resolved: bool = False) -> ManifestEntry | None:
        """The entry of `path` (`resolved`: the caller vouches `path` is already resolved,
        which spares a system call per path component)."""
        key = path if resolved else path.resolve()
        return self._by_path.get(key) or self._by_stem.get(path.stem)


def load_manifest(folder: Path, on_warning: Callable[[str], None]) -> Manifest:
    """The manifests of `folder` and of its parent, merged (the folder's entries first)."""
    by_path: dict[Path, ManifestEntry] = {}
    by_stem: dict[str, ManifestEntry] = {}
    folder = folder.resolve()
    for directory in dict.fromkeys((folder, folder.parent)):
        where = "" if directory == folder else "../"  # named from the library: no server path
        index_rows = _rows(directory / INDEX_MANIFEST, where, ("file", "url"), on_warning)
        for row in index_rows:
            entry = ManifestEntry(row["url"], row.get("title", ""))
            by_path.setdefault((directory / row["file"]).resolve(), entry)
        required = ("doc_name", "doc_link")
        for row in _rows(directory / DOCUMENTS_MANIFEST, where, required, on_warning):
            by_stem.setdefault(row["doc_name"], ManifestEntry(row["doc_link"]))
    return Manifest(by_path, by_stem)


def _rows(
    path: Path, where: str, required: tuple[str, str], on_warning: Callable[[str], None]
) -> list[dict[str, str]]:
    """Rows of a JSONL manifest whose `required` fields are non-empty strings; `where` is
    its folder as the library names it ("" for the library's own, "../" for its parent)."""
    name = escaped(where + path.name)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as error:
        why = error.reason if isinstance(error, UnicodeDecodeError) else error.strerror
        on_warning(worded(lambda words: words.manifest_unreadable, name=name, error=why))
        return []
    rows: list[dict[str, str]] = []
    bad_lines: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        row = _parse_row(line, required)
        if row is None:
            bad_lines.append(number)
        else:
            rows.append(row)
    if bad_lines:
        shown = ", ".join(map(str, bad_lines[:5])) + ("…" if len(bad_lines) > 5 else "")
        count = len(bad_lines)
        on_warning(
            worded(lambda words: words.manifest_bad_lines, name=name, count=count, lines=shown)
        )
    return rows


def _parse_row(line: str, required: tuple[str, str]) -> dict[str, str] | None:
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict):
        return None
    row = {key: item for key, item in value.items() if isinstance(item, str)}
    if not all(row.get(key, "").strip() for key in required):
        return None
    return row
