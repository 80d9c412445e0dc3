"""Fonte's research engine: every statement carries a source and an excerpt really on it.

The front door for what builds on the engine (`bot/`, `evals/`, the CLI), holding exactly
what they take from it (tests/test_architecture.py keeps it so): the report contracts, the
core a run shares (board, budget, snapshots, events, progress), the orchestrator (the
lead), the subagent runner a worker runs one subagent or one claim check with, the executor
hooks, the model protocol with the extractive model, and the errors callers catch
(`FonteError`, `BadInput`, `DeliveryError`; the whole family is in `engine.errors`).
Heavier layers have their own doors, imported only where used: `engine.assembly` (library or
web sources), `engine.models.claude`, `engine.sources.*`, `engine.render`, `engine.v1`,
`engine.planning`, `engine.text`, `engine.verify`. docs/architecture.md maps them.
"""

from engine.agents.toolbox import Assignment, Toolbox
from engine.board import Board, InMemoryBoard, as_posted, validate_claim
from engine.budget import Budget, InMemoryBudget, Meter, Refusal, Reservation
from engine.contracts import (
    MAX_CLARIFYING_QUESTIONS,
    Calculation,
    Claim,
    ClaimStatus,
    ClarifyingQuestion,
    Draft,
    DroppedSentence,
    FiguresTable,
    Language,
    Limits,
    Plan,
    Report,
    Sentence,
    Spend,
    Subquestion,
    TableCell,
    Usage,
    utc_now,
)
from engine.errors import DeliveryError, FonteError
from engine.events import (
    ClaimRejected,
    ClaimVerified,
    Event,
    EventSink,
    PlanReady,
    SubagentFinished,
    SubagentStarted,
)
from engine.executor import GRACE_SECONDS, OutcomeCallback, SubagentOutcome, wait_within_cap
from engine.models import Brief, ExtractiveModel, Model
from engine.orchestrator import ExecutorFactory, Orchestrator
from engine.progress import ProgressState
from engine.settings import BadInput, env_number, env_text
from engine.snapshots import InMemorySnapshotStore, Snapshot, SnapshotStore, split_page
from engine.subagents import SubagentRunner, check_on_board

__all__ = [
    "GRACE_SECONDS",
    "MAX_CLARIFYING_QUESTIONS",
    "Assignment",
    "BadInput",
    "Board",
    "Brief",
    "Budget",
    "Calculation",
    "Claim",
    "ClaimRejected",
    "ClaimStatus",
    "ClaimVerified",
    "ClarifyingQuestion",
    "DeliveryError",
    "Draft",
    "DroppedSentence",
    "Event",
    "EventSink",
    "ExecutorFactory",
    "ExtractiveModel",
    "FiguresTable",
    "FonteError",
    "InMemoryBoard",
    "InMemoryBudget",
    "InMemorySnapshotStore",
    "Language",
    "Limits",
    "Meter",
    "Model",
    "Orchestrator",
    "OutcomeCallback",
    "Plan",
    "PlanReady",
    "ProgressState",
    "Refusal",
    "Report",
    "Reservation",
    "Sentence",
    "Snapshot",
    "SnapshotStore",
    "Spend",
    "SubagentFinished",
    "SubagentOutcome",
    "SubagentRunner",
    "SubagentStarted",
    "Subquestion",
    "TableCell",
    "Toolbox",
    "Usage",
    "as_posted",
    "check_on_board",
    "env_number",
    "env_text",
    "split_page",
    "utc_now",
    "validate_claim",
    "wait_within_cap",
]
