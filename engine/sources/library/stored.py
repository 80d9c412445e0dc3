"""A library whose index and page texts are kept in a shared store (`FONTE_LIBRARY_STORE`,
a `postgresql://` URL): which store a process uses, and the documents of a library opened
from the store alone, on a host without its folder (their citation URLs as saved by the
host that indexed it, their paths the folder's, which such a host cannot open: a page crop
of a PDF says so, `Library.missing_original`).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote_from_bytes

from engine.errors import BadInput
from engine.sources.library.documents import LibraryDocument
from engine.sources.library.index.catalog import CatalogEntry
from engine.sources.library.index.postgres_connection import (
    STORE_VARIABLE,
    is_store_url,
    without_password,
)


def default_store_url() -> str | None:
    """`$FONTE_LIBRARY_STORE` (a `postgresql://` URL), else None: the index on this machine.
    Raises BadInput for a value that is no store URL."""
    configured = os.environ.get(STORE_VARIABLE, "").strip()
    if not configured:
        return None
    return checked_store_url(configured, STORE_VARIABLE)


def checked_store_url(url: str, where: str) -> str:
    if not is_store_url(url):
        raise BadInput(f"{where}={without_password(url)!r}: give a postgresql://… URL")
    return url.strip()


def library_name(folder: Path) -> str:
    """The library's identity in a store: its folder's absolute path, resolved as far as
    it exists on this host."""
    return str(folder.expanduser().resolve())


def stored_library_problem(url: str, folder: Path) -> str | None:
    """Why the library of `folder` (not on this host) cannot be read from the store at
    `url` (one line), or None: a quick look, its catalog is there."""
    from engine.sources.library.index.postgres_connection import LibraryStoreError
    from engine.sources.library.index.postgres_store import PostgresStore

    try:
        store = PostgresStore(url, library_name(folder))
        catalog = store.load_catalog()
        store.close()
    except LibraryStoreError as error:
        return f"{folder}: {error}"
    if catalog is None:
        shown = without_password(url)
        return f"{folder}: no such folder, and the library store {shown} holds no index of it"
    return None


def stored_documents(
    folder: Path, entries: list[CatalogEntry], urls: dict[str, str]
) -> list[LibraryDocument]:
    """The documents of `entries`, each cited by the URL the store saved for it (its
    `file://` URL under `folder` when none was)."""
    folder_url = folder.as_uri().rstrip("/") + "/"
    documents: list[LibraryDocument] = []
    for entry in entries:
        url = urls.get(entry.relative) or folder_url + quote_from_bytes(os.fsencode(entry.relative))
        path = folder / entry.relative
        documents.append(
            LibraryDocument(url, entry.title, path, entry.kind, entry.page_count, entry.sha256)
        )
    return documents
