"""How subagents and verifications run: the Executor protocol and its in-process version.

The lead (engine/orchestrator.py) only says what to run; an executor decides where.
In-process runs the subagent runner's work (engine/subagents.py) as asyncio tasks; the arq
executor (bot/) runs the same work as jobs on workers, each job building its own runner.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.agents.toolbox import Assignment
from engine.contracts import Claim, Subquestion

GRACE_SECONDS = 2.0


@dataclass(frozen=True)
class SubagentOutcome:
    subagent: str
    subquestion: str
    claims: list[Claim] = field(default_factory=list)
    stopped_by_budget: bool = False
    error: str | None = None
    read_urls: tuple[str, ...] = ()
    summary: str = ""
    """The subagent's closing word to the lead: what it found, what not, and why."""
    refused: str | None = None
    """Why the model declined the subquestion, when it did."""
    figure_gaps: tuple[tuple[str, str], ...] = ()
    """(page URL with #page=N, the gap as the report says it): the answer may be in a
    figure there that the subagent could not read."""
    notes: tuple[str, ...] = ()
    """What went wrong on the way (a page it could not read), each naming the subagent, in
    the report's language: the lead adds them to the report's notes."""


def waves(subquestions: Sequence[Subquestion]) -> list[list[Subquestion]]:
    """The subquestions in the order their `depends_on` allows: each wave runs at once,
    after every wave holding a subquestion it depends on. An id outside `subquestions`
    (already researched, or unknown) holds nothing back; a cycle runs together, last."""
    ids = {s.id for s in subquestions}
    done: set[str] = set()
    left = list(subquestions)
    ordered: list[list[Subquestion]] = []
    while left:
        ready = [
            s for s in left if all(d in done or d not in ids or d == s.id for d in s.depends_on)
        ]
        wave = ready or left
        ordered.append(wave)
        done.update(s.id for s in wave)
        left = [s for s in left if s.id not in done]
    return ordered


class SubagentWork(Protocol):
    """What the in-process executor runs: a subagent runner (engine.subagents)."""

    async def run(self, assignment: Assignment) -> SubagentOutcome: ...

    async def check_claim(self, claim: Claim) -> Claim: ...

    async def seconds_left(self) -> float: ...


OutcomeCallback = Callable[[SubagentOutcome], Awaitable[None]]


class Executor(Protocol):
    async def run_subagents(
        self, assignments: Sequence[Assignment], on_outcome: OutcomeCallback
    ) -> list[SubagentOutcome]:
        """Run the assignments concurrently; call `on_outcome` as each one finishes."""
        ...

    async def verify_claims(self, claims: Sequence[Claim]) -> list[Claim]: ...

    def cancel(self) -> None:
        """Stop waiting: running work is cancelled and reported as stopped."""
        ...


class InProcessExecutor:
    def __init__(self, work: SubagentWork) -> None:
        self._work = work
        self._cancelled = asyncio.Event()

    async def _run_and_report(
        self, assignment: Assignment, on_outcome: OutcomeCallback
    ) -> SubagentOutcome:
        outcome = await self._work.run(assignment)
        await on_outcome(outcome)
        return outcome

    async def run_subagents(
        self, assignments: Sequence[Assignment], on_outcome: OutcomeCallback
    ) -> list[SubagentOutcome]:
        tasks = [asyncio.create_task(self._run_and_report(a, on_outcome)) for a in assignments]
        if not tasks:
            return []
        await self._wait(tasks)
        outcomes: list[SubagentOutcome] = []
        for assignment, task in zip(assignments, tasks, strict=True):
            if not task.done():
                task.cancel()
                outcome = SubagentOutcome(
                    assignment.subagent, assignment.subquestion.id, stopped_by_budget=True
                )
                await on_outcome(outcome)
                outcomes.append(outcome)
            else:
                outcomes.append(task.result())
        return outcomes

    async def _wait(self, tasks: list[asyncio.Task[SubagentOutcome]]) -> None:
        await wait_within_cap(tasks, await self._work.seconds_left(), self._cancelled)

    async def verify_claims(self, claims: Sequence[Claim]) -> list[Claim]:
        return list(await asyncio.gather(*(self._work.check_claim(c) for c in claims)))

    def cancel(self) -> None:
        self._cancelled.set()


async def wait_within_cap(
    tasks: Sequence[asyncio.Task[SubagentOutcome]], seconds_left: float, cancelled: asyncio.Event
) -> None:
    """Until every task is done, `cancelled` is set, or the time cap (plus a grace) passes:
    a subagent stuck in one long step must not hold the report past its cap. Tasks still
    running are left to the caller, which reports them as stopped."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(0.0, seconds_left) + GRACE_SECONDS
    cancel_watch = asyncio.create_task(cancelled.wait())
    pending: set[asyncio.Task[object]] = set(tasks)
    try:
        while pending and not cancelled.is_set():
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            _, pending = await asyncio.wait(
                pending | {cancel_watch}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
            )
            pending.discard(cancel_watch)
    finally:
        cancel_watch.cancel()
