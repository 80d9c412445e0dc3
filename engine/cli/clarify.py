"""Clarifying questions at the terminal: up to three, asked before research starts.

The Slack bot posts the same questions as buttons; here they are read from stdin. The
questions' model call is paid like any other and carried into the report's budget (its
steps and money, not the minutes the user spent answering).
"""

from __future__ import annotations

import asyncio
import dataclasses

from engine.budget import Budget, InMemoryBudget, Meter, Refusal
from engine.cli.console import say
from engine.contracts import MAX_CLARIFYING_QUESTIONS, ClarifyingQuestion, Limits, Spend
from engine.models.protocol import Brief, Model


async def clarify_at_terminal(model: Model, brief: Brief, limits: Limits) -> tuple[Brief, Spend]:
    """The brief with the user's answers, and what asking cost."""
    budget = InMemoryBudget(limits)
    questions = await model.clarify(brief, Meter(budget))
    answers: list[str] = []
    for question in questions[:MAX_CLARIFYING_QUESTIONS]:
        answer = choose(question, await asyncio.to_thread(_ask, question))
        if answer:
            answers.append(f"{question.question} {answer}")
    return dataclasses.replace(brief, answers=tuple(answers)), await budget.spend()


def choose(question: ClarifyingQuestion, typed: str) -> str:
    """An option's number picks that option; anything else is the user's own answer."""
    typed = typed.strip()
    if typed.isdigit() and 1 <= int(typed) <= len(question.options):
        return question.options[int(typed) - 1]
    return typed


def _ask(question: ClarifyingQuestion) -> str:
    say(f"? {question.question}")
    for number, option in enumerate(question.options, start=1):
        say(f"  {number}. {option}")
    try:
        return input("> (number, your own answer, or Enter to skip) ")
    except EOFError:
        return ""


async def carry_spend(budget: Budget, spend: Spend) -> None:
    """Charge what was spent before the report's budget existed to that budget."""
    if spend.steps == 0 and spend.usd == 0:
        return
    reservation = await budget.reserve(steps=spend.steps, usd=spend.usd)
    if not isinstance(reservation, Refusal):
        await budget.settle(reservation, spend.usd, spend.usage)
