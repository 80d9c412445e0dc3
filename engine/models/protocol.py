"""The Model protocol: what the orchestrator asks of a model, Claude or offline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from engine.agents.toolbox import Assignment, Toolbox
from engine.contracts import Claim, Language, Plan, Section


@dataclass(frozen=True)
class Brief:
    """The user's request as the orchestrator hands it to the model."""

    question: str
    language: Language
    template: str | None = None
    answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Draft:
    """What a writer returns: a title and sections whose sentences cite claim ids."""

    title: str
    sections: list[Section] = field(default_factory=list)


class Model(Protocol):
    name: str

    async def plan(self, brief: Brief) -> Plan: ...

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        """Use the tools until the subquestion is answered or a step is refused."""
        ...

    async def unmet_criteria(self, plan: Plan, verified: list[Claim]) -> list[str]:
        """The `sufficient_when` criteria the verified claims do not yet satisfy."""
        ...

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim]) -> Draft:
        """Compose the report from verified claims only; every sentence cites claim ids."""
        ...
