"""The bot's progress state counts finished subquestions for the assistant's status line."""

from __future__ import annotations

from bot.slack.progress_state import SlackProgress
from engine.contracts import Limits, Plan, Subquestion
from engine.events import PlanReady, SubagentFinished, SubagentStarted


def test_finished_subquestions_are_counted_whichever_way_they_ended() -> None:
    state = SlackProgress(limits=Limits())
    plan = Plan(question="Q", subquestions=[Subquestion(id=f"s{n}", text="q") for n in range(5)])
    state.apply(PlanReady(plan))
    for n in range(3):
        state.apply(SubagentStarted(subagent=f"a{n}", subquestion=f"s{n}"))
    state.apply(SubagentFinished("a0", "s0", claims_posted=2, stopped_by_budget=False))
    state.apply(SubagentFinished("a1", "s1", claims_posted=0, stopped_by_budget=True))
    state.apply(SubagentFinished("a2", "s2", claims_posted=0, stopped_by_budget=False, error="x"))
    assert state.subquestions_done() == (3, 5)
    assert state.subquestions_done(["s2", "s4"]) == (1, 2)  # a deepening researches a few
    assert state.runs == {"a0": ("done", 2), "a1": ("stopped", 0), "a2": ("failed", 0)}
