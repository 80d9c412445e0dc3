"""The texts of library documents, loaded when a search hit or a fetch needs them.

A library of thousands of documents keeps none of their text in memory: each is read on
first use (a PDF's or HTML file's from the parsed-text cache, as a Markdown or text file's
too when it is large enough to be paged, else from the file itself), and the last few used
are kept. A text read from the file (or parsed
again, when the cache lacks it) is used only if the file still has the bytes that were
indexed.

A library kept in a shared store (`index.postgres_texts`) reads every document's texts from
the store (`every_kind`): the worker may have no copy of the folder.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Protocol

from engine.documents.parse import DocumentKind, ParsedFile, UnreadableFile, parse_bytes
from engine.sources.library.documents import LibraryDocument
from engine.sources.library.index.reading import CACHED_KINDS
from engine.sources.protocols import FetchError

RECENT_DOCUMENTS = 32


class ParsedTexts(Protocol):
    """Parsed texts by file sha256 and kind (`ParsedTextCache`, a store's texts)."""

    def get(self, sha256: str, kind: DocumentKind) -> ParsedFile | str | None: ...


class DocumentTexts:
    def __init__(
        self,
        cache: ParsedTexts,
        in_memory: dict[str, tuple[str, ...]] | None = None,
        *,
        every_kind: bool = False,
    ) -> None:
        self._cache = cache
        self._every_kind = every_kind
        self._in_memory = in_memory or {}
        self._recent: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._ocr: dict[str, frozenset[int]] = {}
        """Per document read, the pages (0-based) whose text OCR read."""

    def texts(self, document: LibraryDocument) -> tuple[str, ...]:
        """The page texts of `document` (one entry for an unpaged document)."""
        key = document.sha256
        found = self._in_memory.get(key) or self._recent.get(key)
        if found is None:
            found = self._load(document)
        self._recent[key] = found
        self._recent.move_to_end(key)
        while len(self._recent) > RECENT_DOCUMENTS:
            self._recent.popitem(last=False)
        return found

    def ocr_pages(self, document: LibraryDocument) -> frozenset[int]:
        """The pages (0-based) of `document` whose text OCR read (after `texts`)."""
        return self._ocr.get(document.sha256, frozenset())

    def _load(self, document: LibraryDocument) -> tuple[str, ...]:
        # A paged Markdown or text file was cached when indexed (`worth_caching`).
        if self._every_kind or document.kind in CACHED_KINDS or document.page_count is not None:
            cached = self._cache.get(document.sha256, document.kind)
            if cached is not None and not isinstance(cached, str):
                self._ocr[document.sha256] = frozenset(cached.ocr_pages)
                return cached.texts
        try:
            data = document.path.read_bytes()
        except OSError as error:
            raise FetchError(f"{document.path}: cannot read ({error})") from error
        if hashlib.sha256(data).hexdigest() != document.sha256:
            raise FetchError(f"{document.path} changed since the library was opened")
        try:
            parsed = parse_bytes(data, document.kind)
        except UnreadableFile as error:
            raise FetchError(f"{document.path}: {error}") from error
        self._ocr[document.sha256] = frozenset(parsed.ocr_pages)
        return parsed.texts
