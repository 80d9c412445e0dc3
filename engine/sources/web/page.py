"""Checks on a fetched page that do not depend on how it was fetched."""

from __future__ import annotations

from engine.snapshots import Snapshot
from engine.sources.protocols import FetchError


def check_page(snapshot: Snapshot, page: int | None) -> None:
    """FetchError when `#page=N` names no page of a paged snapshot (unpaged ones have none)."""
    pages = snapshot.pages
    if page is not None and pages is not None and not 1 <= page <= len(pages):
        raise FetchError(f"page {page} out of range: the document has {len(pages)} pages")
