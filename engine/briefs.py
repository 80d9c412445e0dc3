"""Turn what a user typed into a Brief, or a one-line reason why not."""

from __future__ import annotations

from engine.contracts import Language
from engine.language import detect_language
from engine.models.protocol import Brief
from engine.templates import find_template

MAX_QUESTION_CHARS = 2000


class BadRequest(ValueError):
    """Input a user must fix; the message is one line, fit to print as is."""


def make_brief(
    question: str,
    *,
    template: str | None = None,
    language: Language | None = None,
    answers: tuple[str, ...] = (),
) -> Brief:
    text = " ".join(question.split())
    if not text:
        raise BadRequest(
            'the question is empty: ask something, e.g. "Qual é o tamanho do mercado?"'
        )
    if len(text) > MAX_QUESTION_CHARS:
        raise BadRequest(
            f"the question has {len(text):,} characters; the limit is {MAX_QUESTION_CHARS:,}: "
            "ask the question and put background in a library document"
        )
    if template is not None:
        try:
            find_template(template)
        except ValueError as error:
            raise BadRequest(str(error)) from None
    return Brief(
        question=text,
        language=language or detect_language(text),
        template=template,
        answers=answers,
    )
