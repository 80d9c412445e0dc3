"""A scripted model, for tests of what runs around a model (the orchestrator, executors,
the bot): it plans, researches, judges and writes exactly what it is told, through the same
toolbox and meter as a real model, so every step it takes is budgeted and every claim it
posts goes through the verifier.

It stands beside the real models as pydantic-ai's `TestModel` does: small, predictable, and
never offered to users (`--model` knows only `offline` and Claude). Tests of the extractive
model's own rules use `ExtractiveModel`; tests of the orchestration use this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.agents.toolbox import Assignment, Toolbox
from engine.budget import Meter
from engine.contracts import (
    Claim,
    ClarifyingQuestion,
    Draft,
    Plan,
    Section,
    Sentence,
    Subquestion,
    Support,
)
from engine.errors import ModelError
from engine.planning.briefs import Brief
from engine.sources.protocols import FetchError


@dataclass(frozen=True)
class Post:
    """A claim a subagent records: its statement, the page, the excerpt (and context).
    `subquestion` names the subquestion id it belongs to; None posts it from every one."""

    statement: str
    url: str
    excerpt: str
    context: str | None = None
    subquestion: str | None = None


class ScriptedFailure(ModelError):
    """The failure a script asked a subagent to raise (`fail_research`)."""


@dataclass
class ScriptedModel:
    """Plans `subquestions` (default: the question itself, one criterion per subquestion),
    and each subagent searches its subquestion, reads the pages of its posts and records
    them; the writer publishes `sentences`, or each verified claim's statement."""

    posts: Sequence[Post | tuple[str, str, str]] = ()
    subquestions: Sequence[str] = ()
    depends_on: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """Subquestion id → the ids it depends on, as a planner marks them (`s2` on `s1`)."""
    sentences: list[Sentence] | None = None
    verdicts: Mapping[str, Support] | None = None
    """Statement → support, for the judge; None: this model does not judge."""
    fail_research: str | None = None
    """A message: every subagent raises `ScriptedFailure` with it."""
    questions: list[ClarifyingQuestion] = field(default_factory=list)
    name: str = "scripted"
    write_cost_estimate_usd: float = 0.0
    write_calls: int = 0
    researched: list[str] = field(default_factory=list)
    """The subagents that ran, in the order they started."""
    assignments: list[Assignment] = field(default_factory=list)
    """What each subagent was told, in the order they started."""

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        return list(self.questions)

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        texts = list(self.subquestions) or [brief.question]
        return Plan(
            question=brief.question,
            sufficient_when=[f"a verified claim for: {text}" for text in texts],
            subquestions=[
                Subquestion(
                    id=f"s{number}",
                    text=text,
                    depends_on=list(self.depends_on.get(f"s{number}", ())),
                )
                for number, text in enumerate(texts, start=1)
            ],
        )

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        self.researched.append(assignment.subagent)
        self.assignments.append(assignment)
        if self.fail_research is not None:
            raise ScriptedFailure(self.fail_research)
        await tools.search(assignment.subquestion.text)
        for post in self._posts_for(assignment.subquestion.id):
            try:
                await tools.read(post.url)
            except FetchError as error:  # as the real models do: noted, and on to the next
                tools.note_unreadable(post.url, error)
                continue
            await tools.record_claim(post.statement, post.url, post.excerpt, post.context)
        tools.summary = f"recorded {len(tools.posted)} claims"  # the lead reads it

    def _posts_for(self, subquestion: str) -> list[Post]:
        posts = [p if isinstance(p, Post) else Post(*p) for p in self.posts]
        return [p for p in posts if p.subquestion in (None, subquestion)]

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        answered = {claim.subquestion for claim in verified}
        return [
            criterion
            for subquestion, criterion in zip(plan.subquestions, plan.sufficient_when, strict=False)
            if subquestion.id not in answered
        ]

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        if self.verdicts is None:
            return None
        verdicts = self.verdicts
        return [c.model_copy(update={"support": verdicts[c.statement]}) for c in claims]

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        """Spends half its reservation, as a model whose answer came in under its cap."""
        reservation = await meter.model_step(self.write_cost_estimate_usd)
        await meter.settle(reservation, self.write_cost_estimate_usd / 2)
        self.write_calls += 1
        sentences = self.sentences or [
            Sentence(text=c.statement, claim_ids=[c.id]) for c in verified
        ]
        return Draft(title=brief.question, sections=[Section(title="s", sentences=sentences)])


__all__ = ["Post", "ScriptedFailure", "ScriptedModel"]
