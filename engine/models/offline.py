"""The offline extractive model: runs with no API key and never invents a sentence."""

from __future__ import annotations

from engine.agents.toolbox import Assignment, Toolbox
from engine.contracts import Claim, Plan
from engine.models.offline_plan import plan_offline
from engine.models.offline_research import research_offline
from engine.models.offline_write import write_offline
from engine.models.protocol import Brief, Draft


class OfflineModel:
    name = "offline"

    async def plan(self, brief: Brief) -> Plan:
        return plan_offline(brief)

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        await research_offline(assignment, tools)

    async def unmet_criteria(self, plan: Plan, verified: list[Claim]) -> list[str]:
        # Criterion i belongs to subquestion i (the offline planner builds them in pairs); a
        # claim is only quoted when it covers its subquestion, so one verified claim meets it.
        answered = {c.subquestion for c in verified}
        return [
            criterion
            for subquestion, criterion in zip(plan.subquestions, plan.sufficient_when, strict=False)
            if subquestion.id not in answered
        ]

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim]) -> Draft:
        return write_offline(brief, plan, verified)
