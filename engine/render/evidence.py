"""Page evidence a renderer can be handed: where excerpts sit on their pages, as boxes and
as ready-made crops of the page image.

Rendering stays pure: it never opens a source. Whoever holds the sources (the CLI with a
library, the bot) passes a `PageEvidence`; the renderers receive PNG bytes by claim id and
embed them as `data:` URIs, so a report stays one self-contained file.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Protocol

from engine.contracts import Claim, Report

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PageEvidence(Protocol):
    """Boxes and crops for the claims a report cites (implemented by the page evidence of
    library PDFs and of PDFs the web fetcher kept)."""

    def with_boxes(self, report: Report) -> Report:
        """The report with each cited claim's locator carrying its boxes on the page."""
        ...

    def crops(self, report: Report) -> Mapping[str, bytes]:
        """A PNG of the page around each cited claim's excerpt, highlighted, by claim id;
        claims without one (web pages) are absent."""
        ...

    def crop_png(self, claim: Claim) -> bytes | None:
        """The same crop for one claim (a display that shows a single excerpt); None when it
        has none."""
        ...


def png_data_uri(png: bytes) -> str | None:
    """`data:image/png;base64,…` for PNG bytes; None for anything that is not a PNG, so
    only an image can ever reach an `src` attribute."""
    if not png.startswith(PNG_SIGNATURE):
        return None
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
