"""The arq executor against real workers: results come back, failures become outcomes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.arq_executor import ArqExecutor
from engine.agents.toolbox import Assignment
from engine.contracts import Claim, ClaimStatus, Subquestion
from engine.events import Event, SubagentFinished, SubagentStarted
from engine.executor import SubagentOutcome
from tests.support.bot_env import running_workers


async def test_a_job_that_fails_on_the_worker_becomes_an_outcome_with_its_error(
    make_settings: Any, runtimes: Any
) -> None:
    rt = await runtimes(make_settings())
    assert rt.redis is not None
    events: list[Event] = []

    async def seconds_left() -> float:
        return 20.0

    executor = ArqExecutor(
        rt.redis, rt.keys, "no-such-report", 1, events.append, seconds_left, poll_interval=0.02
    )
    outcomes: list[SubagentOutcome] = []

    async def on_outcome(outcome: SubagentOutcome) -> None:
        outcomes.append(outcome)

    assignment = Assignment("s1", Subquestion(id="s1", text="Q"), "Q", "pt")
    claim = Claim(
        id="c000000000001",
        statement="s",
        url="https://x",
        excerpt="um trecho qualquer de teste",
        accessed_at=datetime(2025, 1, 1, tzinfo=UTC),
        source_sha256="c" * 64,
        subagent="s1",
        subquestion="s1",
    )
    async with running_workers(rt):
        result = await executor.run_subagents([assignment], on_outcome)
        checked = await executor.verify_claims([claim])
    assert result == outcomes
    assert result[0].error is not None
    assert "LookupError" in result[0].error
    assert [type(e) for e in events] == [SubagentStarted, SubagentFinished]
    assert checked == [claim]
    assert checked[0].status is ClaimStatus.pending
