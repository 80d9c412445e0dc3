"""The terminal's live view of a run: subagents, verdicts, budget, gaps."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

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


def render_progress(state: ProgressState) -> RenderableType:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("subagent")
    table.add_column("subquestion", overflow="ellipsis", max_width=60, no_wrap=True)
    table.add_column("state")
    for name, status in state.subagents.items():
        base = name.split("-gap")[0]
        table.add_row(name, state.subquestions.get(base, ""), status)
    limits, spend = state.limits, state.spend
    budget = Text(
        f"claims: {state.verified} verified, {state.rejected} rejected   "
        f"budget: {spend.steps}/{limits.steps} steps, {spend.seconds:.0f}/{limits.seconds:.0f} s, "
        f"${spend.usd:.4f}/${limits.usd:.2f}"
    )
    parts: list[RenderableType] = [table, budget]
    parts += [Text(f"rejected: {reason}", style="yellow") for reason in state.last_rejections]
    parts += [Text(f"gap: {gap}", style="magenta") for gap in state.gaps]
    parts += [Text(f"note: {notice}", style="dim") for notice in state.notices]
    return Group(*parts)


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
