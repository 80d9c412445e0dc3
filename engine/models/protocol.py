"""The Model protocol: what the orchestrator asks of a model, Claude or offline.

`Brief` and `Draft` are re-exported: what a model reads and what its writer returns."""

from __future__ import annotations

from typing import Protocol

from engine.agents.toolbox import Assignment, Toolbox
from engine.budget import Meter
from engine.contracts import Claim, ClarifyingQuestion, Draft, Plan
from engine.planning.briefs import Brief


class Model(Protocol):
    """What the orchestrator asks of a model. Every call that costs money goes through the
    `Meter` (or the subagent's `Toolbox`): reserved before, settled after."""

    name: str
    write_cost_estimate_usd: float
    """The worst-case price of one `write` call, reserved when the report starts."""

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        """Up to 3 questions when the brief is ambiguous; [] when it is clear."""
        ...

    async def plan(self, brief: Brief, meter: Meter) -> Plan: ...

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        """Use the tools until the subquestion is answered or a step is refused."""
        ...

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        """The `sufficient_when` criteria the verified claims do not yet satisfy."""
        ...

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        """Each claim with `support` set (entails/neutral/contradicts against its excerpt);
        None when this model does not judge."""
        ...

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        """Compose the report from verified claims only; every sentence cites claim ids."""
        ...


__all__ = ["Brief", "Draft", "Model"]
