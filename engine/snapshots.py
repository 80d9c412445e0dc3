"""What a subagent read: the text of one source at one moment, and where it is kept.

The verifier checks excerpts against these very snapshots, so a claim is judged against the
text its author saw, and the report can say "as accessed on".
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from engine.contracts import utc_now

_PAGE_FRAGMENT = re.compile(r"#page=(\d+)$")


def split_page(url: str) -> tuple[str, int | None]:
    """`https://x/doc.pdf#page=60` -> (`https://x/doc.pdf`, 60); other fragments are kept."""
    match = _PAGE_FRAGMENT.search(url)
    if match is None:
        return url, None
    return url[: match.start()], int(match.group(1))


def with_page(url: str, page: int | None) -> str:
    base, _ = split_page(url)
    return base if page is None else f"{base}#page={page}"


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Snapshot:
    """The text of a source as read at `fetched_at`.

    `pages` holds one text per page for paged sources (PDF); page N is `pages[N - 1]`.
    For unpaged sources `pages` is None and `text` is the whole text.
    """

    url: str
    text: str
    title: str = ""
    final_url: str = ""
    fetched_at: datetime = field(default_factory=utc_now)
    status: int = 200
    content_type: str = "text/plain"
    pages: tuple[str, ...] | None = None
    sha256: str = ""
    published: str = ""
    """The source's own publication date (ISO 8601) when it states one, else ""."""
    ocr_pages: frozenset[int] = frozenset()
    """The pages (1-based, as `#page=N` cites them) whose text OCR read from an image."""

    def __post_init__(self) -> None:
        if not self.final_url:
            object.__setattr__(self, "final_url", self.url)
        if not self.sha256:
            object.__setattr__(self, "sha256", sha256_text(self.text))

    @classmethod
    def from_pages(cls, url: str, pages: list[str] | tuple[str, ...], **fields: object) -> Snapshot:
        return cls(url=url, text="\n\n".join(pages), pages=tuple(pages), **fields)  # type: ignore[arg-type]

    @property
    def is_paged(self) -> bool:
        return self.pages is not None

    def page_texts(self) -> tuple[str, ...]:
        """Texts to search, one per page (a single entry for unpaged sources)."""
        return self.pages if self.pages is not None else (self.text,)


class SnapshotStore(Protocol):
    """Keeps snapshots so a re-read within a run costs nothing and the verifier sees them."""

    async def get(self, url: str) -> Snapshot | None: ...

    async def put(self, snapshot: Snapshot) -> None: ...


class InMemorySnapshotStore:
    def __init__(self) -> None:
        self._by_url: dict[str, Snapshot] = {}

    async def get(self, url: str) -> Snapshot | None:
        return self._by_url.get(split_page(url)[0])

    async def put(self, snapshot: Snapshot) -> None:
        self._by_url[split_page(snapshot.url)[0]] = snapshot
