"""A run's progress as the bot shows it: the engine's ProgressState plus what it needs to say
each subagent's state in the user's language, count finished subquestions for the
assistant's status line ("Pesquisando… 3 de 5 subperguntas"), and show the plan as tasks.

Both displays of a run read this one state (the streamed plan and task cards of
`bot.slack.stream`, the edited message of `bot.slack.progress`), so they never disagree:
a task is a subquestion of the plan, with the sources its verified claims cite, in the order
they were verified.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

from engine import (
    ClaimRejected,
    ClaimVerified,
    Event,
    Limits,
    Plan,
    PlanReady,
    ProgressState,
    SubagentFinished,
    SubagentStarted,
)

RunKind = Literal["running", "done", "stopped", "failed"]
TaskStatus = Literal["pending", "running", "done", "gap", "failed"]
"""pending: planned, not started; running: a subagent on it, or its claims being verified;
done: at least one claim verified; gap: it ended with nothing verified (the report lists it
as a gap); failed: its subagent broke and nothing was verified."""


@dataclass
class Task:
    """One subquestion of the plan as the user follows it."""

    id: str
    title: str
    started: bool = False
    running: set[str] = field(default_factory=set)
    """Its subagents still at work (a gap subagent reopens a task)."""
    posted: int = 0
    verified: int = 0
    rejected: int = 0
    failed: bool = False
    sources: dict[str, str] = field(default_factory=dict)
    """URL -> its title, for each source a verified claim cites, first verified first."""

    def status(self, *, finished: bool = False) -> TaskStatus:
        """Its state now; once the run `finished`, a task never started or cut short is a
        gap unless something of it was verified."""
        if self.verified:
            return "running" if self.running and not finished else "done"
        if not finished:
            if self.running or self.posted > self.rejected:  # still verifying its claims
                return "running"
            if not self.started:
                return "pending"
        return "failed" if self.failed else "gap"


@dataclass
class SlackProgress(ProgressState):
    runs: dict[str, tuple[RunKind, int]] = field(default_factory=dict)
    """Subagent -> (its state, claims it posted)."""
    finished: set[str] = field(default_factory=set)
    """Subquestion ids whose subagent finished (any way)."""
    planned: list[str] = field(default_factory=list)
    """The subquestion ids this run researches."""
    tasks: dict[str, Task] = field(default_factory=dict)
    """The researched subquestions as tasks, in the plan's order."""
    only: frozenset[str] | None = None
    """A deepening researches these subquestions only: the others are no tasks of this run."""

    @classmethod
    def for_plan(
        cls, plan: Plan | None, limits: Limits, only: Collection[str] | None = None
    ) -> SlackProgress:
        """The state before the first event: every researched subquestion pending. A display
        opened before the run starts shows the plan at once."""
        state = cls(limits=limits, only=frozenset(only) if only else None)
        if plan is not None:
            state.apply(PlanReady(plan))
        return state

    def apply(self, event: Event) -> None:
        super().apply(event)
        match event:
            case PlanReady(plan=plan):
                self.planned = [s.id for s in plan.subquestions]
                wanted = [s for s in plan.subquestions if self.only is None or s.id in self.only]
                self.tasks = {
                    s.id: self.tasks.get(s.id) or Task(s.id, s.title or s.text) for s in wanted
                }
            case SubagentStarted(subagent=name, subquestion=subquestion):
                self.runs[name] = ("running", 0)
                task = self._task(subquestion)
                task.started = True
                task.running.add(name)
            case SubagentFinished(
                subagent=name,
                subquestion=subquestion,
                claims_posted=n,
                stopped_by_budget=stopped,
                error=error,
            ):
                kind: RunKind = "failed" if error else "stopped" if stopped else "done"
                self.runs[name] = (kind, n)
                self.finished.add(subquestion)
                task = self._task(subquestion)
                task.started = True
                task.running.discard(name)
                task.posted += n
                task.failed = task.failed or bool(error)
            case ClaimVerified(claim=claim):
                task = self._task(claim.subquestion)
                task.verified += 1
                task.sources.setdefault(claim.url, claim.title or claim.url)
            case ClaimRejected(claim=claim):
                self._task(claim.subquestion).rejected += 1

    def _task(self, subquestion: str) -> Task:
        """The subquestion's task; one outside the plan (an event the plan never named)
        still gets one, so nothing verified goes unshown."""
        task = self.tasks.get(subquestion)
        if task is None:
            task = self.tasks[subquestion] = Task(
                subquestion, self.subquestions.get(subquestion, subquestion)
            )
        return task

    def subquestions_done(self, among: list[str] | None = None) -> tuple[int, int]:
        """(finished, total) over `among` (default: the plan's subquestions)."""
        wanted = among if among is not None else self.planned
        return len(self.finished & set(wanted)), len(wanted)

    def running_titles(self) -> list[str]:
        """The titles of the tasks under way, in the plan's order."""
        return [t.title for t in self.tasks.values() if t.status() == "running"]
