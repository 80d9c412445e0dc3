"""What the seen check rendered and read, kept per (document sha, page) for the process.

A report cites a page many times, and `fonte verify` or a worker checks the claims of many
reports on the same documents: a page's OCR, or the strips read for one excerpt, are
computed once and looked up after. Keys hold the document's SHA-256 (of its bytes, so a
file changed in place is read again), the 1-based page, and for strips the boxes cut.
Least recently used entries go first past `size`; the cache is safe across threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Generic, TypeVar

from engine.sources.library.cache import file_sha256

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A bounded, thread-safe map of computed values, least recently used out first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._values:
                self.misses += 1
                return None
            self.hits += 1
            self._values.move_to_end(key)
            return self._values[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self._size:
                self._values.popitem(last=False)

    def computed(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept for `key`, else `compute()` kept (two threads may both compute)."""
        with self._lock:
            if key in self._values:
                self.hits += 1
                self._values.move_to_end(key)
                return self._values[key]
            self.misses += 1
        value = compute()
        self.put(key, value)
        return value


class FileShas:
    """Each file's SHA-256, hashed again only when its size or modification time changes."""

    def __init__(self, size: int = 1024) -> None:
        self._memo: Memo[tuple[str, int, int], str] = Memo(size)

    def sha(self, path: Path) -> str:
        status = path.stat()
        key = (str(path.resolve()), status.st_size, status.st_mtime_ns)
        return self._memo.computed(key, lambda: file_sha256(path))
