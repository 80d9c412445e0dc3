"""Fonte's research engine: every statement carries a source and an excerpt really on it."""

from engine.board import Board, InMemoryBoard
from engine.budget import Budget, InMemoryBudget
from engine.contracts import Claim, ClaimStatus, Limits, Plan, Report
from engine.models import Brief, Model, OfflineModel
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.render import write_report
from engine.settings import BadInput
from engine.verify.excerpts import verify_claim

__all__ = [
    "BadInput",
    "Board",
    "Brief",
    "Budget",
    "Claim",
    "ClaimStatus",
    "InMemoryBoard",
    "InMemoryBudget",
    "Limits",
    "Model",
    "OfflineModel",
    "Orchestrator",
    "Plan",
    "Report",
    "make_brief",
    "verify_claim",
    "write_report",
]
