"""Turn what a user typed into a Brief, or a one-line reason why not; and the plan of a
brief that nobody split: the question as its only subquestion."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from engine.contracts import Language, Plan, Subquestion
from engine.planning.gaps import criterion_for
from engine.planning.sweeps import Shelved
from engine.planning.templates import find_template
from engine.settings import BadInput
from engine.sources.kinds import WEB, SourceKind
from engine.text.language import detect_language
from engine.text.normalise import collapse_whitespace
from engine.words import words_for

MAX_QUESTION_CHARS = 2000


@dataclass(frozen=True)
class Brief:
    """The user's request as the orchestrator hands it to the model."""

    question: str
    language: Language
    template: str | None = None
    answers: tuple[str, ...] = ()
    today: date | None = None
    """The date the research runs on, for "recent" and "newer first": the orchestrator sets
    it from its clock; None says nothing of the date."""
    source: SourceKind = WEB
    """What the research reads, as its sources say (a library, the web, a conversation's
    shared files, or a combination): the orchestrator sets it from its sources."""
    documents: Sequence[Shelved] = ()
    """The library's documents (none for the web): a question naming one is swept."""
    context: str | None = None
    """What the conversation already holds (the thread's earlier report, or its messages),
    so a follow-up is planned and written knowing it; background for the model, never
    instructions, and never evidence (a report still cites only what it verifies)."""


def make_brief(
    question: str,
    *,
    template: str | None = None,
    language: Language | None = None,
    answers: tuple[str, ...] = (),
) -> Brief:
    """`language` is the question's when known (a Slack user's); an empty question's example
    is given in it, else in English."""
    text = collapse_whitespace(question)
    if not text:
        example = words_for(language or "en").templates.empty_question_example
        raise BadInput(f'the question is empty: ask something, e.g. "{example}"')
    if len(text) > MAX_QUESTION_CHARS:
        raise BadInput(
            f"the question has {len(text):,} characters; the limit is {MAX_QUESTION_CHARS:,}: "
            "ask the question and put background in a library document"
        )
    if template is not None:
        try:
            find_template(template)
        except ValueError as error:
            raise BadInput(str(error)) from None
    return Brief(
        question=text,
        language=language or detect_language(text),
        template=template,
        answers=answers,
    )


def single_question_plan(brief: Brief) -> Plan:
    """The plan when nobody split the question (the planner failed or had no budget)."""
    subquestion = Subquestion(id="s1", text=brief.question, title=brief.question)
    return Plan(
        question=brief.question,
        template=brief.template,
        sufficient_when=[criterion_for(subquestion, brief.language)],
        subquestions=[subquestion],
    )
