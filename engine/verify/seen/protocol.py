"""The seen check's contract: what a reader's screen shows of one excerpt (docs/design.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class Sight:
    """What a reader sees of one excerpt where it sits on its page."""

    seen: bool
    reason: str
    """One line. A claim not seen is rejected with "not what the page shows: " and this."""
    method: str
    """How it was seen: "pdf-ocr", "browser", "office", "text"."""
    seconds: float = 0.0
    markers: tuple[str, ...] = ()
    """The footnote markers of the excerpt, as written ("(2)", "1,3"): small raised digits after
    a word (`footnote_markers`), which OCR may not read. No statement may use their numbers."""


class Seer(Protocol):
    """Reads an excerpt back from a document as it is rendered for a reader."""

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        """`document`: the file as its source served it; `page`: the 1-based page, slide or
        sheet the claim cites, or None for an unpaged document."""
        ...
