"""Progress events the orchestrator emits; the CLI panel and the Slack progress message
show them (through `engine.progress`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.contracts import Claim, Plan, Spend


@dataclass(frozen=True)
class PlanReady:
    plan: Plan


@dataclass(frozen=True)
class SubagentStarted:
    subagent: str
    subquestion: str
    gap: bool = False


@dataclass(frozen=True)
class SubagentFinished:
    subagent: str
    subquestion: str
    claims_posted: int
    stopped_by_budget: bool
    error: str | None = None


@dataclass(frozen=True)
class ClaimVerified:
    claim: Claim


@dataclass(frozen=True)
class ClaimRejected:
    claim: Claim


@dataclass(frozen=True)
class SpendUpdated:
    spend: Spend


@dataclass(frozen=True)
class GapsUpdated:
    gaps: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Notice:
    message: str


Event = (
    PlanReady
    | SubagentStarted
    | SubagentFinished
    | ClaimVerified
    | ClaimRejected
    | SpendUpdated
    | GapsUpdated
    | Notice
)

EventSink = Callable[[Event], None]


def ignore_events(event: Event) -> None:
    """The sink for callers that do not watch progress."""
