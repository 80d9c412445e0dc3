"""What a page links (style sheets, `@import`, images, fonts), served to the browser by Fonte:
the browser itself fetches nothing (engine/verify/seen/browser_seer.py aborts every other request).

`Resources` answers for one kind of source. `FolderResources` serves a library file's links
from its own folder, never outside it: a link that leaves the folder, or names another
host, has no answer, and a style sheet without an answer makes the page unseen (its rules
could hide the excerpt), while a missing image or font only renders as missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol
from urllib.parse import quote, unquote, urlsplit

DOCUMENT_ORIGIN = "https://document.fonte.invalid"
"""Where a document without an address of its own is loaded from: a name that never resolves."""
KEPT_FOLDERS = "fonte-originals-"
"""The start of the folders where a source writes the documents it kept as files
(engine/sources/web/kept_pdfs.py): a page kept there has no folder of its own, so nothing
it links is served and a style sheet it links fails closed."""
FOLDER_PATH = "/folder/"
"""The document's folder under `DOCUMENT_ORIGIN`: a link that climbs out of it lands outside."""
MAX_RESOURCE_BYTES = 5_000_000


class Resources(Protocol):
    """The links of the documents of one source."""

    def address(self, document: Path) -> str | None:
        """The URL `document` was served from, which its relative links resolve against; None
        for a document without one (it is loaded from `DOCUMENT_ORIGIN`)."""
        ...

    async def resource(self, document: Path, url: str) -> bytes | None:
        """What `document` links at `url` (absolute): its bytes, b"" when it is missing (as
        a reader's browser would find it), None when Fonte has no way to it."""
        ...


class FolderResources:
    """A document's links read from its own folder (a library file)."""

    def address(self, document: Path) -> str | None:
        return None

    async def resource(self, document: Path, url: str) -> bytes | None:
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != DOCUMENT_ORIGIN:
            return None
        if not parts.path.startswith(FOLDER_PATH) or document.parent.name.startswith(KEPT_FOLDERS):
            return None
        folder = document.parent.resolve()
        target = (folder / unquote(parts.path.removeprefix(FOLDER_PATH))).resolve()
        if not target.is_relative_to(folder):
            return None
        try:
            with target.open("rb") as handle:
                body = handle.read(MAX_RESOURCE_BYTES + 1)
        except FileNotFoundError:
            return b""
        except OSError:
            return None
        return body if len(body) <= MAX_RESOURCE_BYTES else None


def document_url(document: Path, resources: Resources) -> str:
    address = resources.address(document)
    if address:
        return address.split("#", 1)[0]
    return f"{DOCUMENT_ORIGIN}{FOLDER_PATH}{quote(document.name)}"
