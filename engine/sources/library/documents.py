"""Library documents: a readable file with its citation URL and title."""

from __future__ import annotations

import os
import string
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote_from_bytes

from engine.documents.parse import CONTENT_TYPE_BY_KIND, DocumentKind
from engine.errors import SourceError
from engine.snapshots import split_page
from engine.sources.library.files import worded
from engine.sources.library.index.catalog import CatalogEntry
from engine.sources.library.manifest import Manifest
from engine.text.escapes import escaped


class LibraryError(SourceError):
    """The library cannot be opened (missing folder, nothing readable); one-line message."""


class LibraryDocument(NamedTuple):
    """One document of the library. `page_count` is None for unpaged documents. A tuple: a
    warm opening makes one of every file, and a frozen dataclass costs several times more."""

    url: str
    title: str
    location: str | Path
    """The file: its path, or the string of it (`path` makes the `Path` when asked: a warm
    opening makes a document of every file, and a `Path` costs more than the rest)."""
    kind: DocumentKind
    page_count: int | None
    sha256: str

    @property
    def path(self) -> Path:
        return Path(self.location)

    @property
    def file_name(self) -> str:
        """`path.name`, without making the `Path`."""
        return os.path.basename(self.location)

    @property
    def content_type(self) -> str:
        return CONTENT_TYPE_BY_KIND[self.kind]

    def page_url(self, page: int) -> str:
        """The URL a passage on `page` (1-based) cites: `url#page=N` for paged documents."""
        return self.url if self.page_count is None else f"{self.url}#page={page}"


_URL_SAFE = (string.ascii_letters + string.digits + "_.-~/").encode("ascii")
"""What `Path.as_uri` leaves unquoted (`urllib.parse.quote`'s safe characters and "/")."""


def file_url_path(relative: str) -> str:
    """`relative` quoted as `Path.as_uri` quotes a path; most names need no quoting, and
    telling so of an ASCII name (`bytes.rstrip` of the safe characters, as `quote` does)
    skips the rest."""
    if relative.isascii() and not relative.encode("ascii").rstrip(_URL_SAFE):
        return relative
    return quote_from_bytes(os.fsencode(relative))


def build_documents(
    folder: Path,
    entries: list[CatalogEntry],
    manifest: Manifest,
    on_warning: Callable[[str], None],
) -> list[LibraryDocument]:
    """Documents in the order of `entries`; the URL from the manifest when it lists the file.
    `folder` is resolved, and so are the paths of the files found under it."""
    documents: list[LibraryDocument] = []
    owner_of_url: dict[str, str] = {}
    folder_url = folder.as_uri().rstrip("/") + "/"  # as `Path.as_uri` spells each file's
    listing = len(manifest) > 0  # else no file is listed: no lookup (a `Path` hash each)
    inside = str(folder).rstrip("/") + "/"  # as `folder / entry.relative` spells it
    for entry in entries:
        path: str | Path = inside + entry.relative  # a `Path` only when looked up
        listed = None
        if listing:
            path = Path(path)
            listed = manifest.entry_for(path, resolved=True)
        file_url = folder_url + file_url_path(entry.relative)
        url = split_page(listed.url.strip())[0] if listed else file_url
        if url in owner_of_url:
            name, owner = escaped(entry.relative), escaped(owner_of_url[url])
            on_warning(worded(lambda words: words.duplicate_url, name=name, url=url, owner=owner))
            url = file_url
        owner_of_url[url] = entry.relative
        document = LibraryDocument(
            url, entry.title, path, entry.kind, entry.page_count, entry.sha256
        )
        documents.append(document)
    return documents
