"""The I/O boundary for sources: one method to search, one to read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from engine.errors import SourceError
from engine.snapshots import Snapshot
from engine.sources.kinds import Origin, SourceKind


@dataclass(frozen=True)
class SearchHit:
    """One ranked result. `passage` holds the matching text when the source has it locally
    (the library); web providers only give a `snippet`."""

    url: str
    title: str
    snippet: str
    rank: int
    provider: str
    passage: str = ""
    score: float = 0.0


class SearchError(SourceError):
    """A provider could not answer (quota, 5xx, timeout, bad configuration)."""


class FetchError(SourceError):
    """A source could not be read; the message says why in one line."""


class DocumentGone(FetchError):
    """The source holds no such document any more: a file no longer in its library, a page
    its server says is not there (HTTP 404, 410). Other failures (a timeout, a refusal) say
    nothing of whether the document is there."""


@runtime_checkable
class PdfFinder(Protocol):
    """A source that holds the PDFs it cites as files (a library): the file a URL names."""

    def pdf_path(self, url: str) -> Path | None: ...


@runtime_checkable
class Originals(Protocol):
    """A source that keeps each document as it served it: the file a URL names (`#page=N`
    ignored), so the seen check can render it as a reader sees it; None for a URL whose
    original it does not keep (an HTML page before its bodies are kept, a PDF too large)."""

    def original(self, url: str) -> Path | None: ...


class Search(Protocol):
    """A source's search. `name` is for people (labels, logs); `kind` says what it reads,
    and is what code asks (engine/sources/kinds.py)."""

    name: str
    kind: SourceKind

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]: ...


@runtime_checkable
class OriginFinder(Protocol):
    """A fetcher over several parts (a combination): which part a URL is read from, None
    when no part would read it."""

    def origin_of(self, url: str) -> Origin | None: ...


class Fetcher(Protocol):
    async def fetch(self, url: str) -> Snapshot: ...
