"""A report whose orchestrator job used up its attempts ends `failed`, and its user is told."""

from __future__ import annotations

from bot.flows import handle_step
from bot.recovery.attempts import REPORT_ATTEMPTS, give_up, out_of_attempts
from bot.runtime import Runtime
from bot.steps import Ask
from tests.support.bot_env import LIMITS_QUESTION
from tests.support.slack_stub import SlackStub


def test_the_start_past_the_attempts_is_the_one_that_gives_up() -> None:
    assert not out_of_attempts(1)
    assert not out_of_attempts(REPORT_ATTEMPTS)
    assert out_of_attempts(REPORT_ATTEMPTS + 1)


async def test_giving_up_ends_a_running_report_once_and_tells_its_user(
    rt: Runtime, slack: SlackStub
) -> None:
    ask = Ask(origin="a1", channel="C9", thread_ts="9.1", user="U1", text=LIMITS_QUESTION)
    await handle_step(rt, ask)
    report_id = await rt.states.by_thread("C9", "9.1")
    assert report_id is not None
    await give_up(rt, report_id, 1)  # not running yet: nothing to end
    state = await rt.states.get(report_id)
    assert state is not None
    assert state.status == "planned"
    await rt.states.update(report_id, lambda s: s.model_copy(update={"status": "running"}))
    await give_up(rt, report_id, 1)
    await give_up(rt, report_id, 1)  # a replay says nothing more
    state = await rt.states.get(report_id)
    assert state is not None
    assert state.status == "failed"
    assert state.delivered == 1
    told = [c for c in slack.calls_to("chat.postMessage") if "RepeatedCrashes" in c.all_text()]
    assert len(told) == 1
    assert told[0].params.get("thread_ts") == "9.1"
