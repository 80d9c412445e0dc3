"""Snapshots kept on disk, one JSON file per URL, and a fetcher that reads them first.

Beside a PDF's snapshot the store keeps the PDF itself (same name, `.pdf`), so a report can
show the pages it cites (`kept_pdfs.py`), and beside an HTML page's its HTML (`.html`), so the
seen check renders the page the subagent read (`kept_html.py`). Files are written to a
temporary name and renamed into place, so a reader sees the old file or the new one, never
half of one; a file that cannot be read back is a miss.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from engine.contracts import utc_now
from engine.disk import write_atomically
from engine.snapshots import Snapshot, SnapshotStore, split_page
from engine.sources.library.cache import default_cache_dir
from engine.sources.protocols import Fetcher
from engine.sources.web.config import MAX_BYTES
from engine.sources.web.kept_html import HtmlStore, InMemoryHtmlStore, read_html_file
from engine.sources.web.kept_pdfs import (
    Fetched,
    InMemoryPdfStore,
    PdfFetcher,
    PdfStore,
    keepable,
    original_file,
    read_pdf_file,
)
from engine.sources.web.page import check_page

_FORMAT = 1


def default_snapshot_dir() -> Path:
    """`$FONTE_CACHE_DIR/snapshots`, else `~/.cache/fonte/snapshots`."""
    return default_cache_dir() / "snapshots"


class DiskSnapshotStore:
    """A SnapshotStore in `folder` (default `default_snapshot_dir()`), keyed by URL sans `#page`,
    and the `PdfStore` of the PDFs among them (each at most `max_pdf_bytes`)."""

    def __init__(self, folder: Path | None = None, max_pdf_bytes: int = MAX_BYTES) -> None:
        self.folder = folder if folder is not None else default_snapshot_dir()
        self.max_pdf_bytes = max_pdf_bytes

    def path_for(self, url: str) -> Path:
        return self.folder / f"{_digest(url)}.json"

    def pdf_path_for(self, url: str) -> Path:
        return self.folder / f"{_digest(url)}.pdf"

    def pdf(self, url: str) -> bytes | None:
        return read_pdf_file(self.pdf_path_for(url), self.max_pdf_bytes)

    def keep_pdf(self, url: str, body: bytes) -> None:
        """Keep `body` as the PDF at `url`; a body too large (or not a PDF) is not kept, and
        a disk that refuses it costs the crops only, not the fetch."""
        if not keepable(body, self.max_pdf_bytes):
            self.forget_pdf(url)
            return
        try:
            write_atomically(self.pdf_path_for(url), body)
        except OSError:
            self.forget_pdf(url)

    def forget_pdf(self, url: str) -> None:
        with contextlib.suppress(OSError):
            self.pdf_path_for(url).unlink(missing_ok=True)

    def html_path_for(self, url: str) -> Path:
        return self.folder / f"{_digest(url)}.html"

    def html(self, url: str) -> bytes | None:
        return read_html_file(self.html_path_for(url), self.max_pdf_bytes)

    def keep_html(self, url: str, body: bytes) -> None:
        """Keep `body` as the HTML at `url`; one too large is not kept (its claims then fail
        the seen check closed), and a disk that refuses it costs the same."""
        if len(body) > self.max_pdf_bytes:
            self.forget_html(url)
            return
        try:
            write_atomically(self.html_path_for(url), body)
        except OSError:
            self.forget_html(url)

    def forget_html(self, url: str) -> None:
        with contextlib.suppress(OSError):
            self.html_path_for(url).unlink(missing_ok=True)

    async def get(self, url: str) -> Snapshot | None:
        return await asyncio.to_thread(self._read, split_page(url)[0])

    async def put(self, snapshot: Snapshot) -> None:
        record = snapshot_record(snapshot)
        data = json.dumps(record, ensure_ascii=False).encode("utf-8")
        await asyncio.to_thread(write_atomically, self.path_for(snapshot.url), data)

    def _read(self, url: str) -> Snapshot | None:
        try:
            record = json.loads(self.path_for(url).read_bytes())
            snapshot = snapshot_from_record(record)
        except (OSError, ValueError, TypeError, KeyError):
            return None
        return snapshot if split_page(snapshot.url)[0] == url else None


def snapshot_record(snapshot: Snapshot) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": _FORMAT,
        "url": snapshot.url,
        "final_url": snapshot.final_url,
        "fetched_at": snapshot.fetched_at.isoformat(),
        "status": snapshot.status,
        "content_type": snapshot.content_type,
        "title": snapshot.title,
        "sha256": snapshot.sha256,
        "text": snapshot.text,
        "pages": None if snapshot.pages is None else list(snapshot.pages),
        "published": snapshot.published,
        "ocr_pages": sorted(snapshot.ocr_pages),
    }
    return record


def snapshot_from_record(record: object) -> Snapshot:
    """The snapshot a record holds; ValueError/TypeError/KeyError when it is not one."""
    if not isinstance(record, dict) or record.get("format") != _FORMAT:
        raise ValueError("unknown snapshot format")
    fetched_at = datetime.fromisoformat(record["fetched_at"])
    if fetched_at.tzinfo is None:
        raise ValueError("fetched_at without a timezone")
    pages = record["pages"]
    fields: dict[str, Any] = {
        "url": _string(record["url"]),
        "final_url": _string(record["final_url"]),
        "fetched_at": fetched_at,
        "status": int(record["status"]),
        "content_type": _string(record["content_type"]),
        "title": _string(record["title"]),
        "sha256": _string(record["sha256"]),
        "text": _string(record["text"]),
        "pages": None if pages is None else tuple(_string(p) for p in pages),
        "published": _string(record.get("published", "")),
        "ocr_pages": frozenset(int(page) for page in record.get("ocr_pages", ())),
    }
    return Snapshot(**fields)


def _digest(url: str) -> str:
    return hashlib.sha256(split_page(url)[0].encode("utf-8")).hexdigest()


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


Admit = Callable[[Snapshot], Awaitable[None]]
"""Raises FetchError when a stored page may no longer be served (`WebFetcher.admit`: the
address policy as it is now)."""


class CachingFetcher:
    """A fetcher that answers from `store` when it holds the URL (younger than `max_age`),
    if `admit` lets the stored page through: a page read while its host was allowlisted is
    not served once the allowlist no longer opens it.

    The bytes of each PDF read live are kept in `pdfs`: `store` itself when it keeps PDFs
    (`DiskSnapshotStore`), else memory for the life of this fetcher."""

    def __init__(
        self,
        fetcher: Fetcher,
        store: SnapshotStore,
        max_age: timedelta | None = None,
        admit: Admit | None = None,
        read_since: datetime | None = None,
    ) -> None:
        self.fetcher = fetcher
        self.store = store
        self.max_age = max_age
        self.admit = admit
        self.read_since = read_since
        """A snapshot fetched before it is read live again: a run that watches for changes
        (`fonte ask --since`) reads each page as it is today, once."""
        self.pdfs: PdfStore = store if isinstance(store, PdfStore) else InMemoryPdfStore()
        self.htmls: HtmlStore = store if isinstance(store, HtmlStore) else InMemoryHtmlStore()

    def original(self, url: str) -> Path | None:
        """The PDF or HTML kept for `url`, as a file (`Originals`); None for a page whose
        body is not kept (text, one too large, one cached before bodies were kept)."""
        body = self.pdfs.pdf(url)
        if body is not None:
            return original_file(body, ".pdf")
        page = self.htmls.html(url)
        return None if page is None else original_file(page, ".html")

    async def fetch(self, url: str, *, fresh: bool = False) -> Snapshot:
        """The stored snapshot of `url`, else (or with `fresh`) a live read, which is stored."""
        if not fresh:
            stored = await self.store.get(url)
            if stored is not None and self._still_fresh(stored):
                check_page(stored, split_page(url)[1])
                if self.admit is not None:
                    await self.admit(stored)
                return stored
        fetched = await self._fetch_live(url)
        snapshot = fetched.snapshot
        if fetched.pdf is not None:
            await asyncio.to_thread(self.pdfs.keep_pdf, snapshot.url, fetched.pdf)
        else:  # the URL is no longer the PDF kept for it, if it ever was one
            await asyncio.to_thread(self.pdfs.forget_pdf, snapshot.url)
        if fetched.html is not None:
            await asyncio.to_thread(self.htmls.keep_html, snapshot.url, fetched.html)
        else:
            await asyncio.to_thread(self.htmls.forget_html, snapshot.url)
        await self.store.put(snapshot)
        return snapshot

    def _still_fresh(self, stored: Snapshot) -> bool:
        if self.read_since is not None and stored.fetched_at < self.read_since:
            return False
        return self.max_age is None or utc_now() - stored.fetched_at <= self.max_age

    async def _fetch_live(self, url: str) -> Fetched:
        if isinstance(self.fetcher, PdfFetcher):
            return await self.fetcher.fetch_with_pdf(url)
        return Fetched(await self.fetcher.fetch(url))
