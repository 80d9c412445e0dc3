"""The planner: clarifying questions for an ambiguous brief, then the plan as validated JSON.

A template's fixed sections are the skeleton of the plan: Claude writes one subquestion and
one criterion per section and the section titles stay ours. An invalid plan gets one repair;
after that the planner fails with the reason and the orchestrator plans the question as is.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.budget import Meter
from engine.contracts import MAX_CLARIFYING_QUESTIONS, ClarifyingQuestion, Plan, Subquestion
from engine.models.claude.ask import ask_json, user_turn
from engine.models.claude.client import ClaudeClient
from engine.models.claude.config import ClaudeConfig
from engine.models.claude.prompts import (
    CLARIFIER_SYSTEM,
    PLANNER_SYSTEM,
    clarify_prompt,
    plan_prompt,
)
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.structured import InvalidJson, Text, describe_validation_error, validated
from engine.models.protocol import Brief
from engine.planning.sweeps import (
    Shelved,
    named_document,
    parts_allowed,
    sweep_parts,
    sweep_problems,
    sweep_subquestions,
)
from engine.planning.templates import find_template

MAX_SUBQUESTIONS = 10
MIN_STEPS = 3
CHECK_STEPS = 3
MAX_STEPS = 30


class ClarifyAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    questions: list[ClarifyingQuestion] = Field(
        default_factory=list, max_length=MAX_CLARIFYING_QUESTIONS
    )


class PlanAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sufficient_when: list[Text] = Field(min_length=1, max_length=MAX_SUBQUESTIONS)
    subquestions: list[Subquestion] = Field(min_length=1, max_length=MAX_SUBQUESTIONS)


def fixed_sections(brief: Brief) -> tuple[str | None, list[str]]:
    """The template id and its section titles in the brief's language ([] for a free plan)."""
    if not brief.template:
        return None, []
    template = find_template(brief.template)
    return template.id, [aspect.title(brief.language) for aspect in template.aspects]


def parse_plan(text: str, brief: Brief) -> Plan:
    template, sections = fixed_sections(brief)
    answer = validated(PlanAnswer, text)
    subquestions = answer.subquestions
    problems = sweep_problems(subquestions, _named(brief))
    swept = all(s.document for s in subquestions) and len(answer.sufficient_when) == 1
    if len(answer.sufficient_when) != len(subquestions) and not swept:
        problems.append(
            f"sufficient_when has {len(answer.sufficient_when)} criteria for "
            f"{len(subquestions)} subquestions: give exactly one per subquestion, in order"
        )
    if sections and len(subquestions) != len(sections):
        problems.append(
            f"{len(subquestions)} subquestions for {len(sections)} fixed sections: give "
            "exactly one per section, in order"
        )
    problems += dependency_problems(subquestions)
    if problems:
        raise InvalidJson("; ".join(problems))
    if sections:
        subquestions = [
            s.model_copy(update={"title": title})
            for s, title in zip(subquestions, sections, strict=True)
        ]
    try:
        return Plan(
            question=brief.question,
            template=template,
            sufficient_when=answer.sufficient_when,
            subquestions=subquestions,
        )
    except ValidationError as error:
        raise InvalidJson(describe_validation_error(error)) from None


def dependency_problems(subquestions: list[Subquestion]) -> list[str]:
    """A subquestion may depend only on subquestions listed before it: no unknown id, no
    cycle, and the orchestrator's waves follow the plan's order."""
    problems, earlier = [], set()
    for subquestion in subquestions:
        wrong = [d for d in subquestion.depends_on if d not in earlier]
        if wrong:
            problems.append(
                f"{subquestion.id}.depends_on names {', '.join(wrong)}: only ids of "
                "subquestions listed before it"
            )
        earlier.add(subquestion.id)
    return problems


def _named(brief: Brief) -> Shelved | None:
    """The one long document the brief names, when no template fixes the sections."""
    text = " ".join((brief.question, *brief.answers))
    return None if brief.template else named_document(text, brief.documents)


async def sweep_of(brief: Brief, steps: int) -> list[Subquestion]:
    """The parts of the document the brief names (chapters from its outline, else even page
    ranges), as many as `steps` run at once, for the planner to ask of; [] for no sweep."""
    document = _named(brief)
    if document is None or document.page_count is None:
        return []
    from engine.documents.outline import pdf_chapters  # pdfium, for a sweep of a PDF only

    chapters = await asyncio.to_thread(pdf_chapters, document.path)
    parts = sweep_parts(document.page_count, chapters, parts_allowed(steps))
    return sweep_subquestions(brief.question, document, parts, brief.language)


async def research_steps(meter: Meter) -> int:
    """Steps the subagents can have: the budget's steps left (the plan's and the writer's
    are already reserved) less the criteria checks' and the judge's."""
    spend = await meter.budget.spend()
    return max(MIN_STEPS, meter.budget.limits.steps - spend.steps - CHECK_STEPS)


def fit_steps(plan: Plan, available: int) -> Plan:
    """Each subquestion's steps within [MIN_STEPS, MAX_STEPS], scaled down together when
    they add up to more than `available`. A subquestion the planner did not size keeps None
    (the orchestrator's default)."""
    sized = [s.steps for s in plan.subquestions if s.steps is not None]
    total = sum(min(MAX_STEPS, max(MIN_STEPS, n)) for n in sized)
    scale = min(1.0, available / total) if total else 1.0
    subquestions = [
        s
        if s.steps is None
        else s.model_copy(
            update={"steps": max(MIN_STEPS, int(min(MAX_STEPS, max(MIN_STEPS, s.steps)) * scale))}
        )
        for s in plan.subquestions
    ]
    return plan.model_copy(update={"subquestions": subquestions})


def parse_questions(text: str) -> list[ClarifyingQuestion]:
    return validated(ClarifyAnswer, text).questions


class Planner:
    def __init__(self, config: ClaudeConfig, client: ClaudeClient) -> None:
        self._config = config
        self._client = client

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        """Up to 3 questions; none once the user has answered some (no second round)."""
        if brief.answers:
            return []
        request = self._request("clarifier", CLARIFIER_SYSTEM, clarify_prompt(brief))
        return await ask_json(self._client, meter, request, parse_questions)

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        _, sections = fixed_sections(brief)
        steps = await research_steps(meter)
        prompt = plan_prompt(brief, sections, steps, await sweep_of(brief, steps))
        request = self._request("planner", PLANNER_SYSTEM, prompt)
        plan = await ask_json(self._client, meter, request, lambda text: parse_plan(text, brief))
        return fit_steps(plan, steps)

    def _request(self, role: str, system: str, prompt: str) -> ClaudeRequest:
        return ClaudeRequest(
            role=role,
            model=self._config.model,
            system=system,
            messages=[user_turn(prompt)],
            max_tokens=self._config.planner_max_tokens,
            effort=self._config.planner_effort,
        )
