"""What a subagent may do: search, read, record a claim. Nothing else.

Every search and read is a step reserved on the shared budget before it starts, and counted
against the subagent's own step cap, also when a model runs several at once. Page text stays
in the subagent: the only thing that leaves is a claim posted to the board. `check_claim`
tells the subagent at once what the verifier will say of a claim.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from engine.board import Board
from engine.budget import Budget, Refusal, Reservation, StepRefused
from engine.contracts import Claim, ClaimStatus, Language, Locator, Subquestion, Usage
from engine.snapshots import Snapshot, SnapshotStore, split_page, with_page
from engine.sources.kinds import WEB, Origin, SourceKind
from engine.sources.protocols import Fetcher, OriginFinder, PdfFinder, Search, SearchHit
from engine.text.normalise import collapse_whitespace
from engine.verify.excerpts import Verdict, verify_on_page
from engine.words import NoteWords, words_for

if TYPE_CHECKING:  # pdfium loads only for a subagent that looks at a figure
    from engine.documents.images import PageFigure, PdfSource

SWEEP_WIDENING = 8
"""A sweep subagent's search asks for this many times its limit, then keeps its own pages."""


@dataclass(frozen=True)
class Assignment:
    """One subagent's task: a subquestion of the brief, with its own step cap."""

    subagent: str
    subquestion: Subquestion
    question: str
    language: Language
    max_steps: int = 8
    gap: bool = False
    avoid_urls: tuple[str, ...] = ()
    """Pages (URL with #page=N where paged) another subagent already read for this subquestion."""
    siblings: tuple[Subquestion, ...] = ()
    """The plan's other subquestions, researched by other subagents at the same time."""
    source: SourceKind = WEB
    """What the subagent searches, as the report's sources say: a library, the web, the
    files shared in the conversation, or several of them (its prompt's wording)."""
    today: date | None = None
    """The date the research runs on (the orchestrator's clock), for "recent" figures."""
    prior_claims: tuple[Claim, ...] = ()
    """Verified claims of the subquestions this one depends on (an earlier wave's)."""
    unmet_criterion: str = ""
    """A gap subagent's: the criterion earlier research left unmet."""
    found: tuple[str, ...] = ()
    """A gap subagent's: the statements already verified for this subquestion."""
    failed: str = ""
    """A gap subagent's: how the earlier subagent ended (its summary, or its failure)."""
    document: str = ""
    """A sweep subagent's: the one document (URL without #page) it reads a part of."""
    pages: tuple[int, int] | None = None
    """A sweep subagent's: the first and last page (1-based, inclusive) of `document` it
    reads; its searches return hits on those pages only."""

    def in_scope(self, url: str) -> bool:
        """Whether a hit on `url` is within this subagent's part (always, unless a sweep)."""
        if not self.document:
            return True
        base, page = split_page(url)
        if base != self.document:
            return False
        if self.pages is None:
            return True
        return page is not None and self.pages[0] <= page <= self.pages[1]


@dataclass
class Toolbox:
    assignment: Assignment
    searcher: Search
    fetcher: Fetcher
    snapshots: SnapshotStore
    board: Board
    budget: Budget
    steps_used: int = 0
    posted: list[Claim] = field(default_factory=list)
    read_urls: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What went wrong along the way (a page that could not be read), for the report, in its
    language (`words`)."""
    shared_reads: list[str] = field(default_factory=list)
    """Pages any subagent of the report has read (one list shared by their toolboxes): in
    the snapshot store, so reading one again costs no step and no fetch."""
    summary: str = ""
    """The subagent's closing word to the lead: what it found, what not, and why."""
    refused: str | None = None
    """Set when the model declined the subquestion: the lead does not send it again as is."""
    free_retries: int = 0
    """Model calls that ask a turn again (`retry_step`): reserved, but no step of the cap."""
    find_pdf: Callable[[str], PdfSource | None] | None = None
    """The PDF a read URL (without #page) names, for its figures; None when there is none.
    By default the fetcher's own (`PdfFinder`: a library knows its files), else a `file://`
    URL's file."""
    shown_figures: dict[str, PageFigure] = field(default_factory=dict)
    """Figures this subagent was shown as images, by page URL: only those can be read."""
    figure_gaps: list[tuple[str, str]] = field(default_factory=list)
    """(page URL with #page=N, the gap worded): the answer may be in a figure there that no
    one could read. Each becomes a declared gap of the report unless a claim cites it."""

    @property
    def kind(self) -> SourceKind:
        """What this subagent's sources read, as their search says: its tools follow."""
        return self.searcher.kind

    def origin_of(self, url: str) -> Origin | None:
        """The part `url` is read from: a combination's fetcher says; one source's is its
        one part (None only for a combination that would read it nowhere)."""
        if isinstance(self.fetcher, OriginFinder):
            return self.fetcher.origin_of(url)
        return self.kind.sole

    @property
    def words(self) -> NoteWords:
        """The wording of this subagent's notes, in its report's language."""
        return words_for(self.assignment.language).notes

    def note_unreadable(self, url: str, error: object) -> None:
        """Note, for the report, a page that could not be read."""
        self.notes.append(self.words.unreadable_page.format(url=url, error=error))

    async def model_step(self, usd_estimate: float) -> Reservation:
        """Reserve one model call at its worst-case cost; settle it with `settle` after."""
        free = self.free_retries > 0
        if free:
            self.free_retries -= 1
        return await self._take_step(usd_estimate, counted=not free)

    async def settle(self, reservation: Reservation, usd: float, usage: Usage) -> None:
        await self.budget.settle(reservation, usd, usage)

    def retry_step(self) -> None:
        """The next model call asks the same turn again (with room after a `max_tokens`
        stop): reserved on the budget like any call, but not a step of the subagent's cap."""
        self.free_retries += 1

    async def _take_step(self, usd: float = 0.0, *, counted: bool = True) -> Reservation:
        if counted and self.steps_used >= self.assignment.max_steps:
            raise StepRefused(
                Refusal("subagent_steps", f"{self.assignment.max_steps} steps per subagent")
            )
        taken = 1 if counted else 0
        self.steps_used += taken  # held while the budget answers: parallel calls see it taken
        outcome = await self.budget.reserve(steps=1, usd=usd)
        if isinstance(outcome, Refusal):
            self.steps_used -= taken
            raise StepRefused(outcome)
        return outcome

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        """Ranked hits; a sweep subagent's only on its pages of its document (asked for
        `SWEEP_WIDENING` times as many, so its part still gets `limit`)."""
        reservation = await self._take_step()
        scoped = bool(self.assignment.document)
        try:
            hits = await self.searcher.search(
                query, limit=limit * SWEEP_WIDENING if scoped else limit
            )
        finally:
            await self.budget.settle(reservation, 0.0)
        if not scoped:
            return hits
        return [h for h in hits if self.assignment.in_scope(h.url)][:limit]

    async def read(self, url: str) -> Snapshot:
        """The text of a source; a source already read in this report costs no step.

        A web PDF whose pages were read by OCR as it was fetched (`Snapshot.ocr_pages`)
        costs one step more per such page (`_charge_ocr`): OCR is seconds of work a page.
        A library's scans (and a conversation's shared files') are read by OCR when it is
        indexed, once for every report that reads them, so such a read costs its one step
        however its pages were read (`Origin.indexed`, asked of the part `url` is read
        from: in a library plus the web, only the web's pages are charged)."""
        cached = await self.snapshots.get(url)
        if cached is not None:
            self._remember(url)
            return cached
        reservation = await self._take_step()
        try:
            snapshot = await self.fetcher.fetch(url)
        finally:
            await self.budget.settle(reservation, 0.0)
        await self.snapshots.put(snapshot)
        self._remember(url)
        if not self._read_when_indexed(url):
            await self._charge_ocr(len(snapshot.ocr_pages))
        return snapshot

    def _read_when_indexed(self, url: str) -> bool:
        origin = self.origin_of(url)
        return origin.indexed if origin is not None else self.kind.indexed

    async def _charge_ocr(self, pages: int) -> None:
        """`pages` steps of work done already (OCR while fetching): counted on this
        subagent's cap and reserved on the shared budget as far as it has room. The read
        keeps what it read either way; a cap or budget this fills refuses the subagent's
        next step, as any step that finds no room is refused."""
        if pages <= 0:
            return
        self.steps_used += pages
        outcome = await self.budget.reserve(steps=pages)
        if isinstance(outcome, Refusal):  # less room than pages: take what room is left
            for _ in range(pages):
                one = await self.budget.reserve(steps=1)
                if isinstance(one, Refusal):
                    return
                await self.budget.settle(one, 0.0)
            return
        await self.budget.settle(outcome, 0.0)

    def _remember(self, url: str) -> None:
        """Read URLs as asked, page included: a gap subagent skips the pages already read,
        not the whole 200-page filing they belong to."""
        if url not in self.read_urls:
            self.read_urls.append(url)
        if url not in self.shared_reads:
            self.shared_reads.append(url)

    def has_read(self, url: str) -> bool:
        document = split_page(url)[0]
        return any(split_page(read)[0] == document for read in self.read_urls)

    async def cited_snapshot(self, url: str) -> Snapshot:
        """The text of a source this subagent has read; ValueError for any other."""
        snapshot = await self.snapshots.get(url)
        if snapshot is None or not self.has_read(url):
            raise ValueError(f"read {url} before citing it")
        return snapshot

    async def check_claim(
        self, statement: str, url: str, excerpt: str, context: str | None = None
    ) -> Verdict:
        """What the verifier will say of this claim, against the page this subagent read
        (the same `verify_on_page` the orchestrator runs), before it is posted."""
        snapshot = await self.cited_snapshot(url)
        fields = self._claim_fields(statement, url, excerpt, snapshot, context)
        draft = Claim.model_validate(fields)
        checked = verify_on_page(draft, snapshot)
        verified = checked.status is ClaimStatus.verified
        return Verdict(verified, checked.reason or "", checked.locator)

    def _claim_fields(
        self, statement: str, url: str, excerpt: str, snapshot: Snapshot, context: str | None
    ) -> dict[str, object]:
        return {
            "id": "pending",
            "statement": collapse_whitespace(statement),
            "url": url,
            "title": snapshot.title,
            "excerpt": excerpt,
            "context": context or None,
            "accessed_at": snapshot.fetched_at,
            "source_sha256": snapshot.sha256,
            "subagent": self.assignment.subagent,
            "subquestion": self.assignment.subquestion.id,
        }

    async def record_claim(
        self, statement: str, url: str, excerpt: str, context: str | None = None
    ) -> Claim | None:
        """Post a claim about a source this subagent has read; `context` is a second quote
        from the same page that the excerpt means with (a list item's lead-in, a table row's
        column header). Returns None for a duplicate."""
        snapshot = await self.cited_snapshot(url)
        fields = self._claim_fields(statement, url, excerpt, snapshot, context)
        posted = await self.board.post(fields)
        if posted is not None:
            self.posted.append(posted)
        return posted

    def _pdf_of(self, base: str) -> PdfSource | None:
        if self.find_pdf is not None:
            return self.find_pdf(base)
        if isinstance(self.fetcher, PdfFinder):
            return self.fetcher.pdf_path(base)
        from engine.documents.images import local_pdf

        return local_pdf(base)

    async def figures(self, url: str) -> list[PageFigure]:
        """The figures of the page `url` names (#page=N), of a document this subagent has
        read; [] for an unpaged source or one whose PDF is not at hand. Finding them is CPU
        work: off the event loop, no step (the page is read already)."""
        await self.cited_snapshot(url)
        base, page = split_page(url)
        source = self._pdf_of(base)
        if source is None or page is None:
            return []
        from engine.documents.images import page_figures

        return await asyncio.to_thread(page_figures, source, page)

    async def show_figure(self, url: str, figure: PageFigure) -> bytes | None:
        """`figure` cut out of its page as a PNG, to show a vision model: a step of work
        (rendering is CPU, off the event loop). None when it cannot be rendered."""
        base = split_page(url)[0]
        source = self._pdf_of(base)
        if source is None:
            return None
        from engine.documents.images import figure_png

        reservation = await self._take_step()
        try:
            png = await asyncio.to_thread(figure_png, source, figure)
        finally:
            await self.budget.settle(reservation, 0.0)
        if png is not None:
            self.shown_figures[with_page(base, figure.page)] = figure
        return png

    def note_figure_gap(self, url: str, title: str) -> None:
        """The answer may be in the figure on this page (of the document `title`), which
        nothing here could read: a gap for the report, in its language."""
        page = split_page(url)[1]
        wording = words_for(self.assignment.language).gaps.in_figure
        gap = (url, wording.format(page=page, document=title or split_page(url)[0]))
        if gap not in self.figure_gaps:
            self.figure_gaps.append(gap)

    async def record_figure_reading(self, statement: str, url: str, reading: str) -> Claim | None:
        """Post what a figure this subagent was shown says (`reading`, the data as read from
        the image): a claim of its own kind (`read_by="figure"`), never a quote. ValueError
        for a page whose figure it was not shown."""
        base, page = split_page(url)
        figure = self.shown_figures.get(with_page(base, page))
        if figure is None:
            raise ValueError(f"look at the figure on {url} (view_figure) before reading it")
        snapshot = await self.cited_snapshot(url)
        fields = self._claim_fields(statement, with_page(base, page), reading, snapshot, None)
        fields["read_by"] = "figure"
        fields["locator"] = Locator(
            page=figure.page, char_start=0, char_end=0, boxes=[figure.box]
        ).model_dump()
        posted = await self.board.post(fields)
        if posted is not None:
            self.posted.append(posted)
        return posted
