"""Fonte's research engine: every statement carries a source and an excerpt really on it.

The front door for what builds on the engine (`bot/`, `evals/`): the report contracts, the
core a run shares (board, budget, snapshots, events, progress), the orchestrator and its
executor hooks, the model protocol with the offline model, and the one bad-input error.
Heavier layers have their own doors, imported only where used: `engine.assembly` (library or
web sources), `engine.models.claude`, `engine.sources.*`, `engine.render`, `engine.v1`,
`engine.planning`, `engine.text`, `engine.verify`. docs/architecture.md maps them.
"""

from engine.agents.toolbox import Assignment, Toolbox
from engine.board import Board, InMemoryBoard, as_posted, validate_claim
from engine.budget import Budget, InMemoryBudget, Meter, Refusal, Reservation
from engine.contracts import (
    Claim,
    ClaimStatus,
    ClarifyingQuestion,
    Draft,
    DroppedSentence,
    Language,
    Limits,
    Plan,
    Report,
    Sentence,
    Spend,
    Subquestion,
    Usage,
    utc_now,
)
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
from engine.planning import make_brief
from engine.progress import ProgressState
from engine.render import write_report
from engine.settings import BadInput, env_flag, env_number, env_text
from engine.snapshots import InMemorySnapshotStore, Snapshot, SnapshotStore, split_page
from engine.verify import verify_on_page

__all__ = [
    "GRACE_SECONDS",
    "Assignment",
    "BadInput",
    "Board",
    "Brief",
    "Budget",
    "Claim",
    "ClaimRejected",
    "ClaimStatus",
    "ClaimVerified",
    "ClarifyingQuestion",
    "Draft",
    "DroppedSentence",
    "Event",
    "EventSink",
    "ExecutorFactory",
    "InMemoryBoard",
    "InMemoryBudget",
    "InMemorySnapshotStore",
    "Language",
    "Limits",
    "Meter",
    "Model",
    "ExtractiveModel",
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
    "SubagentStarted",
    "Subquestion",
    "Toolbox",
    "Usage",
    "as_posted",
    "env_flag",
    "env_number",
    "env_text",
    "make_brief",
    "split_page",
    "utc_now",
    "validate_claim",
    "verify_on_page",
    "wait_within_cap",
    "write_report",
]
