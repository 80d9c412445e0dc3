"""The bytes of the PDFs the web source fetched, kept so a report can show the pages it cites.

A snapshot holds a page's text, which is all the verifier needs. A crop of a PDF page with
the excerpt highlighted needs the PDF itself, so the fetcher hands its bytes on beside the
snapshot (`Fetched`), and the caching fetcher keeps them in a `PdfStore`: on disk beside
the snapshot (`DiskSnapshotStore`), or in memory for a run without one (`InMemoryPdfStore`).
Only PDFs are kept, each at most `max_bytes`; HTML and text pages stay text-only.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from engine.disk import write_atomically
from engine.snapshots import Snapshot, split_page
from engine.sources.web.config import MAX_BYTES

PDF_SIGNATURE = b"%PDF-"


@dataclass(frozen=True)
class Fetched:
    """A page as fetched: its snapshot, and the body as it came when it is a PDF, or as it
    was decoded (UTF-8) when it is HTML (`kept_html`)."""

    snapshot: Snapshot
    pdf: bytes | None = None
    html: bytes | None = None


@runtime_checkable
class PdfFetcher(Protocol):
    """A fetcher that can hand on a PDF's bytes with its snapshot (`WebFetcher`)."""

    async def fetch_with_pdf(self, url: str) -> Fetched: ...


@runtime_checkable
class PdfStore(Protocol):
    """The PDF last fetched at a URL (`#page` ignored), if it was a PDF and small enough."""

    def pdf(self, url: str) -> bytes | None: ...

    def keep_pdf(self, url: str, body: bytes) -> None: ...

    def forget_pdf(self, url: str) -> None: ...


def keepable(body: bytes, max_bytes: int) -> bool:
    return body.startswith(PDF_SIGNATURE) and len(body) <= max_bytes


class InMemoryPdfStore:
    """A `PdfStore` for one run that keeps nothing on disk."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._by_url: dict[str, bytes] = {}

    def pdf(self, url: str) -> bytes | None:
        return self._by_url.get(split_page(url)[0])

    def keep_pdf(self, url: str, body: bytes) -> None:
        if keepable(body, self.max_bytes):
            self._by_url[split_page(url)[0]] = body
        else:
            self.forget_pdf(url)

    def forget_pdf(self, url: str) -> None:
        self._by_url.pop(split_page(url)[0], None)


def original_file(body: bytes, suffix: str) -> Path:
    """`body` as a file named by its SHA-256 in this process's folder of originals, written
    once: what the seen check renders."""
    folder = Path(tempfile.gettempdir()) / f"fonte-originals-{os.getpid()}"
    path = folder / f"{hashlib.sha256(body).hexdigest()}{suffix}"
    if not path.exists():
        write_atomically(path, body)
    return path


def read_pdf_file(path: Path, max_bytes: int) -> bytes | None:
    """The PDF at `path`; None when it is missing, unreadable, too large or not a PDF."""
    try:
        with path.open("rb") as handle:
            body = handle.read(max_bytes + 1)
    except OSError:
        return None
    return body if keepable(body, max_bytes) else None
