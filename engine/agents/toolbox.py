"""What a subagent may do: search, read, record a claim. Nothing else.

Every search and read is a step reserved on the shared budget before it starts, and counted
against the subagent's own step cap, also when a model runs several at once. Page text stays
in the subagent: the only thing that leaves is a claim posted to the board. `check_claim`
tells the subagent at once what the verifier will say of a claim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from engine.board import Board
from engine.budget import Budget, Refusal, Reservation, StepRefused
from engine.contracts import Claim, ClaimStatus, Language, Subquestion, Usage
from engine.snapshots import Snapshot, SnapshotStore, split_page
from engine.sources.protocols import Fetcher, Search, SearchHit
from engine.text.normalise import collapse_whitespace
from engine.verify.excerpts import Verdict, verify_on_page
from engine.words import NoteWords, words_for


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
    source: Literal["library", "web"] = "web"
    """What the subagent searches: the user's document library or the web."""
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
        reservation = await self._take_step()
        try:
            return await self.searcher.search(query, limit=limit)
        finally:
            await self.budget.settle(reservation, 0.0)

    async def read(self, url: str) -> Snapshot:
        """The text of a source; a source already read in this report costs no step."""
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
        return snapshot

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
