"""Job functions: a job that loses Redis mid-way asks arq to run it again, with one log line
and no traceback; other failures stay failures; a report whose job ran out of starts ends."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from arq.worker import Retry
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.flows import handle_step
from bot.jobs import OUTAGE_RETRY_SECONDS, again_when_redis_is_down
from bot.recovery.attempts import REPORT_ATTEMPTS
from bot.steps import Ask
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
