"""Turn what a user typed into a Brief, or a one-line reason why not; and the plan of a
brief that nobody split: the question as its only subquestion."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contracts import Language, Plan, Subquestion
from engine.planning.gaps import criterion_for
from engine.planning.templates import find_template
from engine.settings import BadInput
from engine.text.language import detect_language

MAX_QUESTION_CHARS = 2000


@dataclass(frozen=True)
class Brief:
    """The user's request as the orchestrator hands it to the model."""

    question: str
    language: Language
    template: str | None = None
    answers: tuple[str, ...] = ()


EMPTY_QUESTION_EXAMPLES: dict[Language, str] = {
    "pt": "Qual é o tamanho do mercado de energia solar no Brasil?",
    "en": "What is the size of the solar energy market in Brazil?",
}


def make_brief(
    question: str,
    *,
    template: str | None = None,
    language: Language | None = None,
    answers: tuple[str, ...] = (),
) -> Brief:
    """`language` is the question's when known (a Slack user's); an empty question's example
    is given in it, else in English."""
    text = " ".join(question.split())
    if not text:
        example = EMPTY_QUESTION_EXAMPLES[language or "en"]
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
