"""Offline models whose calls cost money, as Claude's do: for tests of where a run's spend
lands (the clarifying questions' and the plan's call in the report's one budget) and of
caps that only money reaches (`--max-usd` under `--arch v1`).

Each call reserves its estimate through the meter and settles at its cost with one model
call of usage, exactly as `engine.models.claude.client` does; what the call returns is the
offline model's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.budget import Meter
from engine.contracts import ClarifyingQuestion, Plan, Usage
from engine.models.extractive import ExtractiveModel
from engine.models.protocol import Brief
from engine.v1 import OfflineV1Roles, ResearchNotes, ResearchTools
from engine.v1.notes import SourceEntry

QUESTION = ClarifyingQuestion(question="Qual período?", options=["2023", "2024"])


async def pay(meter: Meter, estimate: float, cost: float) -> None:
    """One model call: `estimate` reserved before, `cost` settled after."""
    reservation = await meter.model_step(estimate)
    await meter.settle(reservation, cost, Usage(model_calls=1, input_tokens=100))


class PayingModel(ExtractiveModel):
    """The offline model, asking one clarifying question; the questions and the plan are
    each one model call of the given estimate and cost."""

    def __init__(
        self,
        *,
        clarify_estimate: float = 0.05,
        clarify_cost: float = 0.05,
        plan_cost: float = 0.02,
    ) -> None:
        self.clarify_estimate = clarify_estimate
        self.clarify_cost = clarify_cost
        self.plan_cost = plan_cost

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        await pay(meter, self.clarify_estimate, self.clarify_cost)
        return [QUESTION]

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        await pay(meter, self.plan_cost, self.plan_cost)
        return await super().plan(brief, meter)


@dataclass
class PayingV1Roles:
    """The offline v1 roles, each role one model call of `cost` (estimated at its cost)
    paid before it works; `called` lists the roles that got to work."""

    cost: float = 0.10
    called: list[str] = field(default_factory=list)
    inner: OfflineV1Roles = field(default_factory=OfflineV1Roles)
    name: str = "paying"

    async def _paid(self, role: str, meter: Meter) -> None:
        await pay(meter, self.cost, self.cost)
        self.called.append(role)

    async def research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        await self._paid("research", meter)
        return await self.inner.research(brief, plan, tools, meter)

    async def analyse(self, brief: Brief, notes: ResearchNotes, meter: Meter) -> str:
        await self._paid("analyse", meter)
        return await self.inner.analyse(brief, notes, meter)

    async def write(
        self, brief: Brief, plan: Plan, analysis: str, sources: list[SourceEntry], meter: Meter
    ) -> str:
        await self._paid("write", meter)
        return await self.inner.write(brief, plan, analysis, sources, meter)

    async def review(self, brief: Brief, draft: str, meter: Meter) -> str:
        await self._paid("review", meter)
        return await self.inner.review(brief, draft, meter)

    async def edit(self, brief: Brief, text: str, meter: Meter) -> str:
        await self._paid("edit", meter)
        return await self.inner.edit(brief, text, meter)
