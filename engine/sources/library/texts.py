"""The texts of library documents, loaded when a search hit or a fetch needs them.

A library of thousands of documents keeps none of their text in memory: each is read from
the parsed-text cache on first use, and the last few used are kept. A text that is missing
from the cache (evicted, or the cache could not be written) is parsed from the file again,
provided the file still has the bytes that were indexed.
"""

from __future__ import annotations

from collections import OrderedDict

from engine.sources.library.cache import ParsedTextCache, file_sha256
from engine.sources.library.documents import LibraryDocument
from engine.sources.library.parse import parse_file_or_reason
from engine.sources.protocols import FetchError

RECENT_DOCUMENTS = 32


class DocumentTexts:
    def __init__(
        self, cache: ParsedTextCache, in_memory: dict[str, tuple[str, ...]] | None = None
    ) -> None:
        self._cache = cache
        self._in_memory = in_memory or {}
        self._recent: OrderedDict[str, tuple[str, ...]] = OrderedDict()

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

    def _load(self, document: LibraryDocument) -> tuple[str, ...]:
        cached = self._cache.get(document.sha256, document.kind)
        if cached is not None and not isinstance(cached, str):
            return cached.texts
        try:
            unchanged = file_sha256(document.path) == document.sha256
        except OSError:
            unchanged = False
        if not unchanged:
            raise FetchError(f"{document.path} changed since the library was opened")
        parsed = parse_file_or_reason(str(document.path))
        if isinstance(parsed, str):
            raise FetchError(f"{document.path}: {parsed}")
        return parsed.texts
