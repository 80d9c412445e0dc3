"""The offline extractive model: runs with no API key and never invents a sentence."""

from __future__ import annotations

from engine.agents.toolbox import Assignment, Toolbox
from engine.budget import Meter
from engine.contracts import Claim, ClarifyingQuestion, Plan, Subquestion
from engine.models.extractive.planner import extractive_plan, sweep_plan
from engine.models.extractive.ranking import speaks_of_aspect
from engine.models.extractive.research import extractive_research
from engine.models.protocol import Brief, Draft
from engine.text.comparisons import compared_periods
from engine.text.tokens import tokenize
from engine.writing.verbatim import verbatim_draft


def _answers(claim: Claim, subquestion: Subquestion, years: list[str]) -> bool:
    if claim.subquestion != subquestion.id:
        return False
    side = [year for year in years if year in tokenize(subquestion.text)]
    if len(side) != 1:
        return True
    said = tokenize(f"{claim.statement} {claim.excerpt} {claim.context or ''}")
    return side[0] in said


def _aspect_met(subquestion: Subquestion, verified: list[Claim]) -> bool:
    """Whether a section's aspect ("Prazos e validade: …") is stated by a claim another
    section quoted: the board keeps one claim per excerpt, so the provision that states a
    time limit may be cited under the answer and still meet that aspect's criterion."""
    aspect = subquestion.title
    if not aspect or not subquestion.text.startswith(f"{aspect}:"):
        return False
    return any(
        speaks_of_aspect(aspect, subquestion.text, f"{c.context or ''} {c.excerpt}")
        for c in verified
    )


class ExtractiveModel:
    name = "offline"
    write_cost_estimate_usd = 0.0

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        return []  # it cannot tell a clear brief from an ambiguous one: it asks nothing

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        return await sweep_plan(brief, meter) or extractive_plan(brief)

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        await extractive_research(assignment, tools)

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        # Criterion i belongs to subquestion i (the offline planner builds them in pairs); a
        # claim is only quoted when it covers its subquestion, so one verified claim meets it.
        # A side of a comparison of periods is met by a claim that names its year: a row of
        # FY2023 and FY2022 answers nothing of FY2019.
        years = compared_periods(plan.question)
        if plan.subquestions[0].document:  # a sweep: one criterion, any part's claim meets it
            return [] if verified else list(plan.sufficient_when)
        return [
            criterion
            for subquestion, criterion in zip(plan.subquestions, plan.sufficient_when, strict=False)
            if not any(_answers(claim, subquestion, years) for claim in verified)
            and not _aspect_met(subquestion, verified)
        ]

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        return None  # extractive statements are their excerpts: nothing to judge

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        return verbatim_draft(brief, plan, verified)
