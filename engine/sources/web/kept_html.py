"""The HTML of the pages the web source fetched, kept beside their snapshots so the seen check
(and a later `fonte verify`) renders in a browser the very page the subagent read.

The body is kept decoded (UTF-8, from the charset the page was read with), each at most
`max_bytes`: on disk beside the snapshot (`DiskSnapshotStore`, `.html`), or in memory for a
run without one (`InMemoryHtmlStore`). The style sheets it links are inlined in it when it is
fetched (`kept_sheets`); one that could not be read stays a link, which fails the seen check
closed (engine/verify/seen/browser/resources.py). Images and fonts are not kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from engine.snapshots import split_page
from engine.sources.web.config import MAX_BYTES


@runtime_checkable
class HtmlStore(Protocol):
    """The HTML last fetched at a URL (`#page` ignored), if it was HTML and small enough."""

    def html(self, url: str) -> bytes | None: ...

    def keep_html(self, url: str, body: bytes) -> None: ...

    def forget_html(self, url: str) -> None: ...


class InMemoryHtmlStore:
    """An `HtmlStore` for one run that keeps nothing on disk."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._by_url: dict[str, bytes] = {}

    def html(self, url: str) -> bytes | None:
        return self._by_url.get(split_page(url)[0])

    def keep_html(self, url: str, body: bytes) -> None:
        if len(body) <= self.max_bytes:
            self._by_url[split_page(url)[0]] = body
        else:
            self.forget_html(url)

    def forget_html(self, url: str) -> None:
        self._by_url.pop(split_page(url)[0], None)


def read_html_file(path: Path, max_bytes: int) -> bytes | None:
    """The kept HTML at `path`; None when it is missing, unreadable or too large."""
    try:
        with path.open("rb") as handle:
            body = handle.read(max_bytes + 1)
    except OSError:
        return None
    return body if len(body) <= max_bytes else None
