"""Job functions: a job that loses Redis mid-way asks arq to run it again, with one log line
and no traceback; other failures stay failures; a report whose job ran out of starts ends;
a subagent job runs its subagent with a runner over the report's stores and hands back
what it noted, and a verification job's verdict lands on the report's board."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from arq.worker import Retry
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.flows import handle_step
from bot.jobs import (
    OUTAGE_RETRY_SECONDS,
    again_when_redis_is_down,
    run_assignment,
    verify_posted_claim,
)
from bot.recovery.attempts import REPORT_ATTEMPTS
from bot.runtime import Runtime
from bot.steps import Ask
from engine import Assignment, ClaimStatus, Subquestion
from engine.models.scripted import Post, ScriptedModel
from tests.support.bot_env import LIMITS_QUESTION, running_workers, wait_state
from tests.support.slack_stub import SlackStub


def test_a_job_that_lost_redis_is_retried_later(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    with pytest.raises(Retry) as retry, again_when_redis_is_down({"job_id": "j1"}):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")
    assert retry.value.defer_score == OUTAGE_RETRY_SECONDS * 1000
    assert retry.value.__cause__ is None
    assert [r.getMessage() for r in caplog.records] == [
        "job j1: Redis is unreachable (Error 111 connecting to 127.0.0.1:6390. Connection "
        "refused.); it runs again"
    ]


def test_other_failures_are_not_retried() -> None:
    with pytest.raises(ValueError, match="bad"), again_when_redis_is_down({"job_id": "j1"}):
        raise ValueError("bad")


async def test_a_report_whose_job_ran_out_of_starts_ends_failed_instead_of_running_forever(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings())
    assert rt.redis is not None
    ask = Ask(origin="a2", channel="C8", thread_ts="8.1", user="U1", text=LIMITS_QUESTION)
    await handle_step(rt, ask)
    report_id = await rt.states.by_thread("C8", "8.1")
    assert report_id is not None
    await rt.states.update(report_id, lambda s: s.model_copy(update={"status": "running"}))
    # Its workers were killed under it at every start so far (arq counts the starts).
    await rt.redis.enqueue_job(
        "report_job",
        report_id,
        1,
        _job_id=rt.keys.report_job_id(report_id, 1),
        _queue_name=rt.keys.reports_queue,
        _job_try=REPORT_ATTEMPTS + 1,
    )
    async with running_workers(rt):
        state = await wait_state(rt, report_id, lambda s: s.status != "running", within=20)
    assert state.status == "failed"
    assert any("RepeatedCrashes" in c.all_text() for c in slack.calls_to("chat.postMessage"))


MICRO = (
    "microgeração distribuída: central geradora de energia elétrica, com potência instalada "
    "menor ou igual a 75 kW"
)


async def asked(rt: Runtime) -> str:
    await handle_step(rt, Ask(origin="a9", channel="C9", thread_ts="9.1", user="U1", text="q?"))
    report_id = await rt.states.by_thread("C9", "9.1")
    assert report_id is not None
    return report_id


async def test_a_subagent_job_hands_back_its_claims_and_its_notes_and_its_verdicts_land(
    make_settings: Any, runtimes: Any, library: Any
) -> None:
    law = (library / "lei-14300.md").resolve().as_uri()
    missing = (library / "apagado.md").resolve().as_uri()
    model = ScriptedModel(
        posts=[
            Post("A microgeração vai até 75 kW.", law, MICRO),
            Post("Um arquivo apagado diz algo.", missing, "texto que ninguém lê"),
        ]
    )
    rt = await runtimes(make_settings(), model=model)
    report_id = await asked(rt)
    subquestion = Subquestion(id="s1", text=LIMITS_QUESTION)
    assignment = Assignment("s1", subquestion, LIMITS_QUESTION, "pt")

    outcome = await run_assignment(rt, report_id, assignment, scope="job-s1")
    (claim,) = outcome.claims
    assert claim.status is ClaimStatus.pending
    # What the subagent noted on the worker reaches the lead in its outcome, in the
    # report's language: a worker's notes are no longer lost with a throwaway lead.
    (note,) = outcome.notes
    assert note.startswith(f"s1: não foi possível ler {missing}")

    checked = await verify_posted_claim(rt, report_id, claim, scope="job-v1")
    assert checked.status is ClaimStatus.verified
    state = await rt.states.get(report_id)
    assert state is not None
    board = (await rt.stores.open(report_id, state.limits, "check")).board
    assert [c.status for c in await board.claims()] == [ClaimStatus.verified]
