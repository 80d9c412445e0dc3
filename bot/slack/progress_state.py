"""A run's progress as the bot shows it: the engine's ProgressState plus what it needs to say
each subagent's state in the user's language and count finished subquestions for the
assistant's status line ("Pesquisando… 3 de 5 subperguntas")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine import Event, PlanReady, ProgressState, SubagentFinished, SubagentStarted

RunKind = Literal["running", "done", "stopped", "failed"]


@dataclass
class SlackProgress(ProgressState):
    runs: dict[str, tuple[RunKind, int]] = field(default_factory=dict)
    """Subagent -> (its state, claims it posted)."""
    finished: set[str] = field(default_factory=set)
    """Subquestion ids whose subagent finished (any way)."""
    planned: list[str] = field(default_factory=list)
    """The subquestion ids this run researches."""

    def apply(self, event: Event) -> None:
        super().apply(event)
        match event:
            case PlanReady(plan=plan):
                self.planned = [s.id for s in plan.subquestions]
            case SubagentStarted(subagent=name):
                self.runs[name] = ("running", 0)
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

    def subquestions_done(self, among: list[str] | None = None) -> tuple[int, int]:
        """(finished, total) over `among` (default: the plan's subquestions)."""
        wanted = among if among is not None else self.planned
        return len(self.finished & set(wanted)), len(wanted)
