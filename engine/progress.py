"""What a run's progress looks like, folded from its events: pure, for any display (the
terminal panel, Slack's progress message, log lines)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.contracts import Limits, Spend
from engine.events import (
    ClaimRejected,
    ClaimVerified,
    Event,
    GapsUpdated,
    Notice,
    PlanReady,
    SpendUpdated,
    SubagentFinished,
    SubagentStarted,
)


@dataclass
class ProgressState:
    """Everything the view shows, folded from events (pure: no terminal here)."""

    limits: Limits
    subagents: dict[str, str] = field(default_factory=dict)
    subquestions: dict[str, str] = field(default_factory=dict)
    verified: int = 0
    rejected: int = 0
    last_rejections: list[str] = field(default_factory=list)
    spend: Spend = field(default_factory=Spend)
    gaps: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def apply(self, event: Event) -> None:
        match event:
            case PlanReady(plan=plan):
                self.subquestions = {s.id: s.text for s in plan.subquestions}
            case SubagentStarted(subagent=name):
                self.subagents[name] = "running"
            case SubagentFinished(
                subagent=name, claims_posted=n, stopped_by_budget=stopped, error=error
            ):
                state = "failed" if error else "stopped by budget" if stopped else "done"
                self.subagents[name] = f"{state}, {n} claims"
            case ClaimVerified():
                self.verified += 1
            case ClaimRejected(claim=claim):
                self.rejected += 1
                self.last_rejections = [*self.last_rejections[-2:], claim.reason or "rejected"]
            case SpendUpdated(spend=spend):
                self.spend = spend
            case GapsUpdated(gaps=gaps):
                self.gaps = list(gaps)
            case Notice(message=message):
                self.notices = [*self.notices[-2:], message]


def describe_event(event: Event) -> str | None:
    """One log line per event, for terminals that cannot redraw (pipes, CI logs)."""
    match event:
        case PlanReady(plan=plan):
            return f"plan: {len(plan.subquestions)} subquestions"
        case SubagentStarted(subagent=name, subquestion=subquestion, gap=gap):
            return f"{name}: started{' (gap)' if gap else ''} on {subquestion}"
        case SubagentFinished(
            subagent=name, claims_posted=n, stopped_by_budget=stopped, error=error
        ):
            state = f"failed: {error}" if error else "stopped by budget" if stopped else "done"
            return f"{name}: {state}, {n} claims posted"
        case ClaimVerified(claim=claim):
            return f"verified {claim.id}: {claim.statement[:70]}"
        case ClaimRejected(claim=claim):
            return f"rejected {claim.id}: {claim.reason}"
        case GapsUpdated(gaps=gaps):
            return f"gaps: {len(gaps)}" if gaps else None
        case Notice(message=message):
            return f"note: {message}"
        case SpendUpdated():
            return None
