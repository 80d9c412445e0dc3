"""Clarifying questions at the terminal: up to three, asked before research starts.

The Slack bot posts the same questions as buttons; here they are read from stdin. The
questions' model call is paid on the run's one budget, the one the research then spends
from: its steps and money, and not the minutes the user spends answering (the budget's
clock is paused while the terminal waits).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable
from contextlib import AbstractContextManager

from engine.budget import Budget, Meter
from engine.cli.console import say
from engine.contracts import MAX_CLARIFYING_QUESTIONS, ClarifyingQuestion
from engine.models.protocol import Brief, Model


async def clarify_at_terminal(
    model: Model,
    brief: Brief,
    budget: Budget,
    waiting: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
) -> Brief:
    """The brief with the user's answers. Asking is paid on `budget`, the run's; `waiting`
    is held while the user types (`PausableClock.paused`, so answering takes no seconds)."""
    questions = await model.clarify(brief, Meter(budget))
    answers: list[str] = []
    for question in questions[:MAX_CLARIFYING_QUESTIONS]:
        with waiting():
            typed = await asyncio.to_thread(_ask, question)
        answer = choose(question, typed)
        if answer:
            answers.append(f"{question.question} {answer}")
    return dataclasses.replace(brief, answers=tuple(answers))


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
