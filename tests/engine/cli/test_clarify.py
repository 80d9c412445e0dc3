"""Clarifying questions at the terminal are paid on the run's one budget, and the minutes
the user spends answering are not the run's."""

from __future__ import annotations

import pytest

from engine.budget import InMemoryBudget, PausableClock
from engine.cli.clarify import choose, clarify_at_terminal
from engine.contracts import Limits
from engine.planning.briefs import make_brief
from tests.support.cli_pages import QUESTION
from tests.support.clock import FakeClock
from tests.support.paying_models import QUESTION as ASKED
from tests.support.paying_models import PayingModel


async def test_the_questions_are_paid_on_the_budget_they_are_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budget = InMemoryBudget(Limits(steps=10, seconds=60, usd=1.0))
    monkeypatch.setattr("builtins.input", lambda prompt="": "2")
    brief = await clarify_at_terminal(PayingModel(clarify_cost=0.05), make_brief(QUESTION), budget)
    assert brief.answers == ("Qual período? 2024",)
    spend = await budget.spend()
    assert (spend.steps, spend.usage.model_calls) == (1, 1)
    assert spend.usd == pytest.approx(0.05)


async def test_the_minutes_spent_answering_are_not_spent_from_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    time = FakeClock()
    clock = PausableClock(time)
    budget = InMemoryBudget(Limits(steps=10, seconds=60, usd=1.0), clock=clock)
    time.advance(2)  # the run had begun

    def typing(prompt: str = "") -> str:
        time.advance(300)  # five minutes of thinking, well past the run's minute
        return "my own answer"

    monkeypatch.setattr("builtins.input", typing)
    brief = await clarify_at_terminal(PayingModel(), make_brief(QUESTION), budget, clock.paused)
    assert brief.answers == ("Qual período? my own answer",)
    assert (await budget.spend()).seconds == pytest.approx(2)
    assert await budget.exhausted() is None
    time.advance(1)  # and after the answer the run's clock goes on
    assert (await budget.spend()).seconds == pytest.approx(3)


def test_a_number_picks_an_option_and_anything_else_is_the_answer() -> None:
    assert choose(ASKED, " 1 ") == "2023"
    assert choose(ASKED, "3") == "3"
    assert choose(ASKED, "o último ano") == "o último ano"
