"""Where a piece of a text lies: `text[start:end]`, the one span type of the engine (a
library passage of a page, a sentence or unit the extractive model may quote). Pure."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    start: int
    end: int

    def text(self, page: str) -> str:
        return page[self.start : self.end]
