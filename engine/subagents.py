"""The subagent runner: one Assignment run with its Toolbox, one claim checked by the verifier.

The lead (engine/orchestrator.py) decides what is researched and when; an executor decides
where; this is what runs there, in the lead's process (`InProcessExecutor`) or in a worker's
job (bot/jobs.py), over the report's shared board, budget and snapshots. It knows nothing of
plans, criteria or writing, so a worker builds one from the report's stores and its sources,
never a whole lead. What a subagent found and what went wrong on the way (its notes) travel
back in its `SubagentOutcome`, so a worker's notes reach the report as an in-process
subagent's do.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

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
    verifier: ClaimVerifier = field(init=False)
    shared_reads: list[str] = field(init=False, default_factory=list)
    """Pages any subagent this runner ran has read (in the snapshot store): its siblings are
    told, and read them again for free."""

    def __post_init__(self) -> None:
        self.verifier = ClaimVerifier(self.snapshots, self.fetcher, seeing=seen_check(self.fetcher))

    async def run(self, assignment: Assignment) -> SubagentOutcome:
        """The subagent's research, always an outcome: a refused step stops it (stopped by
        the budget), a failure is its `error`; neither sinks the report."""
        self.events(
            SubagentStarted(assignment.subagent, assignment.subquestion.id, gap=assignment.gap)
        )
        tools = Toolbox(
            assignment,
            self.searcher,
            self.fetcher,
            self.snapshots,
            self.board,
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
        return await check_on_board(claim, self.verifier, self.board, self.events)

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
