"""The five v1 roles, as a protocol, implemented offline (`offline_roles`) and on Claude
(`claude_roles`).

Every role is text in, text out; only the researcher has tools. Downstream of the researcher
no role sees page text: the analyst gets the summary, the writer the analysis and the source
list, the reviewer and editor the draft. Each role pays for its model calls through `meter`
(reserve before, settle after), as the final architecture's models do.
"""

from __future__ import annotations

from typing import Protocol

from engine.budget import Meter
from engine.contracts import Plan
from engine.models.protocol import Brief
from engine.v1.notes import ResearchNotes, SourceEntry
from engine.v1.tools import ResearchTools


class V1Roles(Protocol):
    name: str
    """Recorded as the report's `model`."""

    async def research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        """Work through the subquestions in order (calling `tools.begin` for each), and return
        one prose summary of everything read plus the numbered list of sources consulted."""
        ...

    async def analyse(self, brief: Brief, notes: ResearchNotes, meter: Meter) -> str:
        """The summary as an analysis: prose, no sources added."""
        ...

    async def write(
        self, brief: Brief, plan: Plan, analysis: str, sources: list[SourceEntry], meter: Meter
    ) -> str:
        """Markdown: an optional `# Title`, `## Section` headings, and sentences that each end
        with `[n]` markers naming entries of `sources`."""
        ...

    async def review(self, brief: Brief, draft: str, meter: Meter) -> str:
        """The draft reviewed: the same Markdown shape, no sources added."""
        ...

    async def edit(self, brief: Brief, text: str, meter: Meter) -> str:
        """The final text: the same Markdown shape, no sources added."""
        ...
