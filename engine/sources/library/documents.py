"""Library documents: a readable file with its citation URL and title."""

from __future__ import annotations

import os
import string
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol
from urllib.parse import quote_from_bytes, unquote_to_bytes

from engine.documents.parse import CONTENT_TYPE_BY_KIND, DocumentKind
from engine.errors import SourceError
from engine.snapshots import split_page
from engine.sources.library.files import worded
from engine.sources.library.index.catalog import CatalogColumns, CatalogEntry
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


class Documents(Protocol):
    """A library's documents, by number (their files' path order), and the number of the
    document a URL cites."""

    def __len__(self) -> int: ...

    def __getitem__(self, number: int) -> LibraryDocument: ...

    def __iter__(self) -> Iterator[LibraryDocument]: ...

    def number_of(self, url: str) -> int:
        """The number of the document whose URL is `url` (no page fragment); -1 for none."""
        ...

    def page_counts(self) -> Sequence[int | None]:
        """Each document's page count, in order (no document made for it)."""
        ...


class ListedDocuments:
    """Documents made whole (those a manifest lists may have any URL)."""

    def __init__(self, documents: list[LibraryDocument]) -> None:
        self._documents = documents
        self._by_url = {document.url: number for number, document in enumerate(documents)}

    def __len__(self) -> int:
        return len(self._documents)

    def __getitem__(self, number: int) -> LibraryDocument:
        return self._documents[number]

    def __iter__(self) -> Iterator[LibraryDocument]:
        return iter(self._documents)

    def number_of(self, url: str) -> int:
        return self._by_url.get(url, -1)

    def page_counts(self) -> Sequence[int | None]:
        return [document.page_count for document in self._documents]


class FileDocuments:
    """The documents of a folder no manifest lists, each made when first asked for: its
    URL is its file's, so a URL's document is found from the path the URL quotes, and a
    warm opening of 100,000 files makes none but its hits."""

    def __init__(self, folder: Path, files: CatalogColumns) -> None:
        self._folder_url = folder.as_uri().rstrip("/") + "/"  # as `Path.as_uri` spells each
        self._inside = str(folder).rstrip("/") + "/"  # as `folder / relative` spells it
        self._files = files
        self._made: dict[int, LibraryDocument] = {}
        self._numbers: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self._files.relative)

    def __getitem__(self, number: int) -> LibraryDocument:
        document = self._made.get(number)
        if document is None:
            files = self._files
            relative = files.relative[number]  # IndexError past the end, as a list's
            number %= len(files.relative)
            document = LibraryDocument(
                self._folder_url + file_url_path(relative),
                files.title[number],
                self._inside + relative,
                files.kind[number],
                files.page_count[number],
                files.sha256[number],
            )
            self._made[number] = document
        return document

    def __iter__(self) -> Iterator[LibraryDocument]:
        return (self[number] for number in range(len(self)))

    def number_of(self, url: str) -> int:
        if not url.startswith(self._folder_url):
            return -1
        if self._numbers is None:
            relatives = self._files.relative
            self._numbers = dict(zip(relatives, range(len(relatives)), strict=True))
        relative = os.fsdecode(unquote_to_bytes(url[len(self._folder_url) :]))
        number = self._numbers.get(relative, -1)
        return number if number >= 0 and self[number].url == url else -1  # our spelling

    def page_counts(self) -> Sequence[int | None]:
        return self._files.page_count


def library_documents(
    folder: Path, files: CatalogColumns, manifest: Manifest, on_warning: Callable[[str], None]
) -> Documents:
    """The documents of the indexed `files` (in path order) of `folder` (resolved): made
    on demand when no manifest lists any file, else whole (`build_documents`)."""
    if not len(manifest):
        return FileDocuments(folder, files)
    return ListedDocuments(build_documents(folder, files.rows(), manifest, on_warning))
