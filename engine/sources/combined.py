"""Several sources researched as one: a team library, the web and the files shared in a
conversation, each searched, each read only for the URLs that are its own.

Why one combination rather than a choice: a research question is often answered half by the
team's documents and half by the public web, and a file someone shared in the thread is the
most relevant source of all. The parts stay apart where it matters:

- search asks every part and merges their hits fairly: round-robin over the parts in their
  order, each part's hits in its own rank order, one hit per URL (the first part to serve it
  keeps it). With `limit` hits and n parts, each part that has hits gets about limit/n of
  them, whatever the other parts' scores: a web that returns fifty results never pushes
  the library's passages out. A part that fails is left out (its failure noted once); only
  all of them failing fails the search.
- fetch dispatches a URL to the part it belongs to: a local part (a library, a conversation's
  files) that holds it, else the part whose search served it, else the open part (the web),
  unless the URL must never reach it (a library file's `file://` address, or what
  `keep_off_open` names: a private file's). A URL no part can read fails as `FetchError`,
  `DocumentGone` for such a local address (a library file removed, a shared file expired):
  a library's or a shared file's address is never sent to the web fetcher. Ownership is
  asked before memory, so a worker that never ran the search (a verification job)
  dispatches the same way.
- page evidence (boxes and crops) comes from the parts that can show pages; labels and
  notes are the union of the parts'.

`origin_of(url)` says which part a cited URL came from (an `Origin`: library, web,
conversation); `with_origins` records it on a report, by document, for the renderers to
show. The combination's `kind` is the union of its parts' origins, so a research over a
library and a conversation's files is told it reads documents, not the web.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlsplit

from engine.contracts import Claim, Report
from engine.errors import SourceError
from engine.render import PageEvidence
from engine.snapshots import Snapshot, split_page
from engine.sources.kinds import Origin, SourceKind
from engine.sources.library import Library
from engine.sources.protocols import (
    DocumentGone,
    Fetcher,
    FetchError,
    Originals,
    Search,
    SearchError,
    SearchHit,
)

Owns = Callable[[str], bool]


@dataclass
class SourcePart:
    """One source of a combination: its search, fetcher and page evidence, its labels and
    notes, its `origin` (what it is to the research: a library's folder opened for a
    conversation's files is `Origin.conversation`), and `owns`, which URLs are its own
    (None: an open source, the web, which reads any URL nobody else holds)."""

    origin: Origin
    searcher: Search
    fetcher: Fetcher
    labels: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    evidence: PageEvidence | None = None
    owns: Owns | None = None


def library_owns(library: Library) -> Owns:
    """The URLs of `library`'s documents (a `#page=N` accepted, a `file://` URL in any
    spelling), as the library itself recognises them."""
    return library.owns


class Router:
    """Which part a URL belongs to (see the module's docstring for the order)."""

    def __init__(self, parts: Sequence[SourcePart], keep_off_open: Owns | None = None) -> None:
        self.parts = list(parts)
        self._keep_off_open = keep_off_open
        self._served: dict[str, int] = {}

    def served(self, url: str, part: int) -> None:
        self._served.setdefault(split_page(url.strip())[0], part)

    def part_for(self, url: str) -> SourcePart | None:
        for part in self.parts:
            if part.owns is not None and part.owns(url):
                return part
        index = self._served.get(split_page(url.strip())[0])
        if index is not None:
            return self.parts[index]
        if self.kept_off_open(url):
            return None
        return next((part for part in self.parts if part.owns is None), None)

    def kept_off_open(self, url: str) -> bool:
        """A local document's address, never the web's to read: a file of a library (a
        `file://` URL, which the web fetcher refuses anyway) or what `keep_off_open` names."""
        if urlsplit(url.strip()).scheme.lower() == "file":
            return True
        return self._keep_off_open is not None and self._keep_off_open(url)

    def origin_of(self, url: str) -> Origin | None:
        part = self.part_for(url)
        return None if part is None else part.origin

    @property
    def kind(self) -> SourceKind:
        return SourceKind.of(*(part.origin for part in self.parts))


class CombinedSearch:
    """Every part's search, merged fairly (round-robin, one hit per URL)."""

    def __init__(self, router: Router, notes: list[str]) -> None:
        self._router = router
        self._notes = notes
        self.name = "+".join(part.searcher.name for part in router.parts)
        self.kind = router.kind

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        parts = self._router.parts
        answers = await asyncio.gather(
            *(part.searcher.search(query, limit) for part in parts), return_exceptions=True
        )
        lists: list[list[SearchHit]] = []
        failures: list[str] = []
        for part, answer in zip(parts, answers, strict=True):
            if isinstance(answer, SourceError):
                failures.append(f"{part.searcher.name}: {answer}")
                lists.append([])
            elif isinstance(answer, BaseException):
                raise answer  # a bug or a cancellation is not a source's failure
            else:
                lists.append(sorted(answer, key=lambda hit: hit.rank))
        self._gather_notes(failures)
        if failures and len(failures) == len(parts):
            raise SearchError("; ".join(failures))
        return self._merged(lists, limit)

    def _merged(self, lists: list[list[SearchHit]], limit: int) -> list[SearchHit]:
        merged: list[SearchHit] = []
        seen: set[str] = set()
        depth = max((len(hits) for hits in lists), default=0)
        for position in range(depth):
            for index, hits in enumerate(lists):
                if position >= len(hits) or len(merged) >= limit:
                    continue
                hit = hits[position]
                if hit.url in seen:
                    continue
                seen.add(hit.url)
                self._router.served(hit.url, index)
                merged.append(replace(hit, rank=len(merged) + 1))
        return merged

    def _gather_notes(self, failures: list[str]) -> None:
        fresh = [note for part in self._router.parts for note in part.notes]
        for note in [*fresh, *failures]:
            if note not in self._notes:
                self._notes.append(note)


class CombinedFetcher:
    """Each URL read by the part it belongs to; a URL no part may read fails. An
    `OriginFinder`: a toolbox asks it which part a read came from (what the read costs)."""

    def __init__(self, router: Router) -> None:
        self._router = router

    def origin_of(self, url: str) -> Origin | None:
        return self._router.origin_of(url)

    async def fetch(self, url: str) -> Snapshot:
        part = self._router.part_for(url)
        if part is None and self._router.kept_off_open(url):
            # a local document no part holds: a library file removed, a shared file expired
            raise DocumentGone(f"no source of this research holds {url}")
        if part is None:
            raise FetchError(f"no source of this research holds {url}")
        return await part.fetcher.fetch(url)

    def original(self, url: str) -> Path | None:
        """The document as served by the part `url` belongs to (`Originals`)."""
        part = self._router.part_for(url)
        if part is None or not isinstance(part.fetcher, Originals):
            return None
        return part.fetcher.original(url)


class CombinedEvidence:
    """The page evidence of the parts that can show pages, each claim asked of its own
    part first (a PDF of the library is never looked for among the web's)."""

    def __init__(self, router: Router) -> None:
        self._router = router

    def _evidences(self, url: str) -> list[PageEvidence]:
        owner = self._router.part_for(url)
        ordered = [owner] if owner is not None else []
        ordered += [part for part in self._router.parts if part is not owner]
        return [part.evidence for part in ordered if part.evidence is not None]

    def with_boxes(self, report: Report) -> Report:
        for part in self._router.parts:
            if part.evidence is not None:
                report = part.evidence.with_boxes(report)
        return report

    def crops(self, report: Report) -> Mapping[str, bytes]:
        found: dict[str, bytes] = {}
        by_part = [
            (part, part.evidence.crops(report))
            for part in self._router.parts
            if part.evidence is not None
        ]
        for claim_id in report.cited_claim_ids():
            owner = self._router.part_for(report.claim(claim_id).url)
            ranked = sorted(by_part, key=lambda pair: pair[0] is not owner)
            crop = next((crops[claim_id] for _, crops in ranked if claim_id in crops), None)
            if crop is not None:
                found[claim_id] = crop
        return found

    def crop_png(self, claim: Claim) -> bytes | None:
        for evidence in self._evidences(claim.url):
            crop = evidence.crop_png(claim)
            if crop is not None:
                return crop
        return None


@dataclass
class Combination:
    """The parts as one search, one fetcher and one page evidence, with their labels and
    notes united; `origin_of` says which part a URL belongs to."""

    searcher: CombinedSearch
    fetcher: CombinedFetcher
    evidence: CombinedEvidence | None
    labels: tuple[str, ...]
    notes: list[str]
    router: Router

    def origin_of(self, url: str) -> Origin | None:
        return self.router.origin_of(url)


def combine(parts: Sequence[SourcePart], keep_off_open: Owns | None = None) -> Combination:
    """The `parts`, in the order their hits take turns, as one source. Raises ValueError
    for no part at all (a research needs something to search)."""
    if not parts:
        raise ValueError("a combination needs at least one source")
    router = Router(parts, keep_off_open)
    notes = list(dict.fromkeys(note for part in parts for note in part.notes))
    labels = tuple(dict.fromkeys(label for part in parts for label in part.labels))
    evidence = CombinedEvidence(router) if any(p.evidence for p in parts) else None
    return Combination(
        CombinedSearch(router, notes), CombinedFetcher(router), evidence, labels, notes, router
    )


def with_origins(report: Report, origin_of: Callable[[str], Origin | None]) -> Report:
    """`report` with the origin of each claim's document (its URL without `#page`) recorded
    in `Report.origins`, for the renderers to say which claims came from which source."""
    origins: dict[str, str] = {}
    for claim in report.claims:
        base = split_page(claim.url)[0]
        if base not in origins and (origin := origin_of(claim.url)) is not None:
            origins[base] = origin.value
    return report.model_copy(update={"origins": origins})


__all__ = [
    "Combination",
    "CombinedEvidence",
    "CombinedFetcher",
    "CombinedSearch",
    "Router",
    "SourcePart",
    "combine",
    "library_owns",
    "with_origins",
]
