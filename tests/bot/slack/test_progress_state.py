"""The bot's progress state: finished subquestions for the status line, and the plan's tasks
(pending, running, done, gap, failed) with the sources of their verified claims."""

from __future__ import annotations

from bot.slack.progress_state import SlackProgress
from engine.contracts import Limits, Plan, Subquestion
from engine.events import (
    ClaimRejected,
    ClaimVerified,
    PlanReady,
    SubagentFinished,
    SubagentStarted,
)
from tests.support.slack_samples import claim

PLAN = Plan(
    question="Q",
    subquestions=[
        Subquestion(id="s1", text="Quanto custa um painel?", title="Preços"),
        Subquestion(id="s2", text="Quem fabrica?"),
        Subquestion(id="s3", text="Qual a capacidade instalada?"),
    ],
)


def on(subquestion: str, n: int, url: str | None = None) -> ClaimVerified:
    verified = claim(n).model_copy(update={"subquestion": subquestion})
    if url is not None:
        verified = verified.model_copy(update={"url": url, "title": ""})
    return ClaimVerified(verified)


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


def test_the_plan_is_tasks_pending_until_a_subagent_takes_one() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    assert [(t.id, t.title) for t in state.tasks.values()] == [
        ("s1", "Preços"),  # the section heading when the planner gave one
        ("s2", "Quem fabrica?"),
        ("s3", "Qual a capacidade instalada?"),
    ]
    assert {t.status() for t in state.tasks.values()} == {"pending"}
    state.apply(SubagentStarted("s1", "s1"))
    assert state.tasks["s1"].status() == "running"
    assert state.running_titles() == ["Preços"]


def test_a_task_is_done_with_a_verified_claim_and_lists_its_sources_once_in_order() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    state.apply(SubagentStarted("s1", "s1"))
    state.apply(on("s1", 1))
    state.apply(on("s1", 2))
    state.apply(on("s1", 3, url="https://example.org/doc2.pdf#page=3"))  # claim 2's URL again
    state.apply(on("s1", 4, url="https://example.org/doc1.pdf#page=2"))  # claim 1's URL again
    state.apply(SubagentFinished("s1", "s1", claims_posted=4, stopped_by_budget=False))
    task = state.tasks["s1"]
    assert task.status() == "done"
    assert list(task.sources) == [
        "https://example.org/doc1.pdf#page=2",
        "https://example.org/doc2.pdf#page=3",
    ]
    assert task.sources["https://example.org/doc1.pdf#page=2"] == "Documento 1"  # first title
    assert task.verified == 4


def test_claims_still_being_verified_keep_a_finished_task_running_then_gap_or_done() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    state.apply(SubagentStarted("s2", "s2"))
    state.apply(SubagentFinished("s2", "s2", claims_posted=2, stopped_by_budget=False))
    assert state.tasks["s2"].status() == "running"  # its two claims are being checked
    rejected = claim(1).model_copy(update={"subquestion": "s2", "reason": "not on page"})
    state.apply(ClaimRejected(rejected))
    assert state.tasks["s2"].status() == "running"
    state.apply(ClaimRejected(rejected))
    assert state.tasks["s2"].status() == "gap"  # nothing verified: a gap in the report


def test_a_gap_subagent_reopens_its_task_and_a_failure_without_claims_is_failed() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    state.apply(SubagentStarted("s3", "s3"))
    state.apply(SubagentFinished("s3", "s3", claims_posted=0, stopped_by_budget=False, error="x"))
    assert state.tasks["s3"].status() == "failed"
    state.apply(SubagentStarted("s3-1", "s3", gap=True))
    assert state.tasks["s3"].status() == "running"
    state.apply(on("s3", 7))
    state.apply(SubagentFinished("s3-1", "s3", claims_posted=1, stopped_by_budget=False))
    assert state.tasks["s3"].status() == "done"


def test_when_the_run_ends_what_was_never_finished_is_a_gap() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    state.apply(SubagentStarted("s1", "s1"))  # cut short by the time cap
    state.apply(SubagentStarted("s2", "s2"))
    state.apply(on("s2", 1))
    statuses = {t.id: t.status(finished=True) for t in state.tasks.values()}
    assert statuses == {"s1": "gap", "s2": "done", "s3": "gap"}


def test_a_deepening_shows_only_the_subquestions_it_researches() -> None:
    state = SlackProgress.for_plan(PLAN, Limits(), only=["s2"])
    assert list(state.tasks) == ["s2"]
    state.apply(PlanReady(PLAN))  # the orchestrator's own PlanReady keeps the same tasks
    assert list(state.tasks) == ["s2"]


def test_a_claim_for_a_subquestion_outside_the_plan_still_gets_a_task() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    state.apply(on("s9", 1))
    assert state.tasks["s9"].status() == "done"
