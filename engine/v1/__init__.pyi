from engine.v1.choice import v1_roles_for
from engine.v1.claude_roles import ClaudeV1Roles
from engine.v1.extract import Extraction, extract_report
from engine.v1.metering import estimated_tokens
from engine.v1.notes import V1_RESEARCHER, ResearchNotes, SourceEntry
from engine.v1.offline_roles import OfflineV1Roles
from engine.v1.pipeline import V1Pipeline
from engine.v1.roles import V1Roles
from engine.v1.tools import ResearchTools

__all__ = [
    "V1_RESEARCHER",
    "ClaudeV1Roles",
    "Extraction",
    "OfflineV1Roles",
    "ResearchNotes",
    "ResearchTools",
    "SourceEntry",
    "V1Pipeline",
    "V1Roles",
    "estimated_tokens",
    "extract_report",
    "v1_roles_for",
]
