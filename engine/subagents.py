"""The subagent runner: one Assignment run with its Toolbox, one claim checked by the verifier.

The lead (engine/orchestrator.py) decides what is researched and when; an executor decides
where; this is what runs there, in the lead's process (`InProcessExecutor`) or in a worker's
job (bot/jobs.py), over the report's shared board, budget and snapshots. It knows nothing of
plans, criteria or writing, so a worker builds one from the report's stores and its sources,
never a whole lead. What a subagent found and what went wrong on the way (its notes) travel
back in its `SubagentOutcome`, so a worker's notes reach the report as an in-process
subagent's do.

A runner built with `check_as_posted` (the lead's, so the in-process executor's) starts
checking each claim the moment its subagent posts it, while that subagent and its siblings
still wait on their model calls, so the seen check's renders and OCR (off the event loop,
in threads and child processes) overlap the research instead of following it. The lead
still asks for every verdict before it writes (`check_claim` joins the check under way):
a claim is never verified but by the verifier, and a pending one is never published.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from engine.agents.toolbox import Assignment, Toolbox
from engine.board import Board
from engine.budget import Budget, StepRefused
from engine.contracts import Claim, ClaimStatus
from engine.events import (
    ClaimRejected,
    ClaimVerified,
    EventSink,
    SubagentFinished,
    SubagentStarted,
    ignore_events,
)
from engine.executor import SubagentOutcome
from engine.models.protocol import Model
from engine.snapshots import SnapshotStore
from engine.sources.protocols import Fetcher, Search
from engine.verify.seen import seen_check
from engine.verify.service import ClaimVerifier


@dataclass(eq=False)
class SubagentRunner:
    """Runs subagents and checks claims for one report, over its shared stores."""

    model: Model
    searcher: Search
    fetcher: Fetcher
    _: KW_ONLY
    board: Board
    budget: Budget
    snapshots: SnapshotStore
    events: EventSink = ignore_events
    check_as_posted: bool = False
    """Check each claim the moment it is posted (the lead's runner), so the checks overlap
    the research still running; the verdict the lead asks for joins the check running."""
    verifier: ClaimVerifier = field(init=False)
    shared_reads: list[str] = field(init=False, default_factory=list)
    """Pages any subagent this runner ran has read (in the snapshot store): its siblings are
    told, and read them again for free."""
    _checks: dict[str, asyncio.Task[Claim]] = field(init=False, default_factory=dict)
    """Checks started as claims were posted, by claim id, until the lead asks."""

    def __post_init__(self) -> None:
        self.verifier = ClaimVerifier(self.snapshots, self.fetcher, seeing=seen_check(self.fetcher))

    async def run(self, assignment: Assignment) -> SubagentOutcome:
        """The subagent's research, always an outcome: a refused step stops it (stopped by
        the budget), a failure is its `error`; neither sinks the report."""
        self.events(
            SubagentStarted(assignment.subagent, assignment.subquestion.id, gap=assignment.gap)
        )
        board = _CheckingBoard(self.board, self._start_check) if self.check_as_posted else None
        tools = Toolbox(
            assignment,
            self.searcher,
            self.fetcher,
            self.snapshots,
            board or self.board,
            self.budget,
            shared_reads=self.shared_reads,
        )
        stopped, error = False, None
        try:
            await self.model.research(assignment, tools)
        except StepRefused:
            stopped = True
        except Exception as failure:  # a broken subagent must not sink the report
            error = f"{type(failure).__name__}: {failure}"
        self.events(
            SubagentFinished(
                assignment.subagent, assignment.subquestion.id, len(tools.posted), stopped, error
            )
        )
        return SubagentOutcome(
            assignment.subagent,
            assignment.subquestion.id,
            claims=list(tools.posted),
            stopped_by_budget=stopped,
            error=error,
            read_urls=tuple(tools.read_urls),
            summary=tools.summary,
            refused=tools.refused,
            figure_gaps=tuple(tools.figure_gaps),
            notes=tuple(f"{assignment.subagent}: {note}" for note in tools.notes),
        )

    async def check_claim(self, claim: Claim) -> Claim:
        """The verifier's verdict on `claim`: the check started when it was posted, if one
        was, else a check now."""
        started = self._checks.pop(claim.id, None)
        if started is not None:
            return await started
        return await check_on_board(claim, self.verifier, self.board, self.events)

    def _start_check(self, claim: Claim) -> None:
        if claim.id not in self._checks:
            check = check_on_board(claim, self.verifier, self.board, self.events)
            self._checks[claim.id] = asyncio.create_task(check)

    async def seconds_left(self) -> float:
        spent = await self.budget.spend()
        return self.budget.limits.seconds - spent.seconds


async def check_on_board(
    claim: Claim, verifier: ClaimVerifier, board: Board, events: EventSink = ignore_events
) -> Claim:
    """The verifier's verdict on a posted claim, kept on the board and told as an event."""
    checked = await verifier.verify(claim)
    await board.update(checked)
    if checked.status is ClaimStatus.verified:
        events(ClaimVerified(checked))
    else:
        events(ClaimRejected(checked))
    return checked


class _CheckingBoard:
    """The report's board as a subagent posts to it, each new claim handed to `on_post`."""

    def __init__(self, inner: Board, on_post: Callable[[Claim], None]) -> None:
        self._inner = inner
        self._on_post = on_post

    async def post(self, claim: Claim | dict[str, Any]) -> Claim | None:
        posted = await self._inner.post(claim)
        if posted is not None and posted.status is ClaimStatus.pending:
            self._on_post(posted)
        return posted

    async def update(self, claim: Claim) -> None:
        await self._inner.update(claim)

    async def claims(self) -> list[Claim]:
        return await self._inner.claims()
