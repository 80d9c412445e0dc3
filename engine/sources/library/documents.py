"""Library documents: a readable file with its citation URL and title."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from engine.snapshots import split_page
from engine.sources.library.files import LibraryFile
from engine.sources.library.manifest import Manifest
from engine.sources.library.parse import CONTENT_TYPE_BY_KIND, DocumentKind, ParsedFile


class LibraryError(Exception):
    """The library cannot be opened (missing folder, nothing readable); one-line message."""


@dataclass(frozen=True)
class LibraryDocument:
    """One document of the library. `page_count` is None for unpaged documents."""

    url: str
    title: str
    path: Path
    kind: DocumentKind
    page_count: int | None
    sha256: str

    @property
    def content_type(self) -> str:
        return CONTENT_TYPE_BY_KIND[self.kind]

    def page_url(self, page: int) -> str:
        """The URL a passage on `page` (1-based) cites: `url#page=N` for paged documents."""
        return self.url if self.page_count is None else f"{self.url}#page={page}"


class DocumentText(NamedTuple):
    document: LibraryDocument
    texts: tuple[str, ...]


def build_documents(
    readable: list[tuple[LibraryFile, ParsedFile]],
    manifest: Manifest,
    on_warning: Callable[[str], None],
) -> list[DocumentText]:
    """Documents in file order; URL and title from the manifest when it lists the file."""
    documents: list[DocumentText] = []
    owner_of_url: dict[str, str] = {}
    for file, parsed in readable:
        entry = manifest.entry_for(file.path)
        file_url = file.path.resolve().as_uri()
        url = split_page(entry.url.strip())[0] if entry else file_url
        if url in owner_of_url:
            on_warning(
                f"{file.relative}: citation URL {url} already belongs to "
                f"{owner_of_url[url]}; citing {file_url} instead"
            )
            url = file_url
        owner_of_url[url] = file.relative
        title = (entry.title.strip() if entry else "") or parsed.title or file.path.stem
        page_count = len(parsed.texts) if parsed.is_paged else None
        document = LibraryDocument(url, title, file.path, file.kind, page_count, file.sha256)
        documents.append(DocumentText(document, parsed.texts))
    return documents
