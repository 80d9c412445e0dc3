"""One progress message, edited at most every interval; events coalesce; 429s are retried. A
streamed plan card shows the same state, and hands over to edits when its stream is over."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from dataclasses import dataclass, field

from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.blockkit import Message
from bot.slack.progress import ProgressReporter, edited_message
from bot.slack.progress_state import SlackProgress
from bot.slack.stream import STREAM_LIFETIME, open_stream
from engine.contracts import Limits, Plan, Spend, Subquestion
from engine.events import ClaimVerified, SpendUpdated, SubagentStarted
from tests.support.clock import FakeClock
from tests.support.slack_samples import assert_within_limits, claim
from tests.support.slack_stub import SlackStub


@dataclass
class RecordingSlack:
    """The one call a progress reporter without a stream makes: chat.update, recorded."""

    updates: list[tuple[float, Message]] = field(default_factory=list)
    fail: bool = False

    async def update(self, channel: str, ts: str, message: Message) -> None:
        if self.fail:
            raise OSError("connection reset")
        self.updates.append((asyncio.get_running_loop().time(), message))


async def test_bursts_of_events_coalesce_into_throttled_edits() -> None:
    slack = RecordingSlack()
    reporter = ProgressReporter(slack, "C1", "1.1", "pt", lambda: Limits(), interval=0.2)
    loop = asyncio.get_running_loop()
    started = loop.time()
    reporter.start()
    for n in range(40):
        reporter.sink(ClaimVerified(claim(n + 1)))
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.25)
    elapsed = loop.time() - started  # 0.65 s on an idle machine, more on a busy one
    await reporter.close()
    times = [at for at, _ in slack.updates]
    # At most one edit per interval while the events came (5 on an idle machine), and the
    # final one: never one edit per event.
    most = 2 + int(elapsed / 0.2)
    assert 2 <= len(times) <= most, f"{len(times)} edits for 40 events in {elapsed:.2f} s"
    assert all(later - earlier >= 0.19 for earlier, later in itertools.pairwise(times[:-1]))
    final = slack.updates[-1][1]
    assert "40 verificadas" in final.text
    assert "concluída" in final.text


async def test_spend_is_read_at_each_edit_and_failures_do_not_stop_the_run() -> None:
    slack = RecordingSlack(fail=True)

    async def spend() -> Spend:
        return Spend(steps=3, seconds=30, usd=0.25)

    reporter = ProgressReporter(slack, "C1", "1.1", "en", lambda: Limits(), interval=0, spend=spend)
    reporter.start()
    reporter.sink(SubagentStarted("s1", "s1"))
    await asyncio.sleep(0.05)
    slack.fail = False
    reporter.sink(SpendUpdated(Spend()))
    await reporter.close()
    assert "US$ 0.25 of US$ 2.00" in str(slack.updates[-1][1].blocks)
    await reporter.close(final=False)


async def test_a_429_on_chat_update_is_retried_not_fatal(slack: SlackStub) -> None:
    slack.fail_next("chat.update", times=2, status=429, retry_after=0)
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    reporter = ProgressReporter(api, "C1", "1.1", "pt", lambda: Limits(), interval=0)
    reporter.start()
    reporter.sink(SubagentStarted("s1", "s1"))
    await slack.wait_for(lambda: reporter.updates, what="update after 429s")
    await reporter.close()
    attempts = slack.calls_to("chat.update", ok_only=False)
    assert [c.status for c in attempts] == [429, 429, 200, 200]
    assert reporter.updates == 2


# -- streamed: the same state as a plan card, handed over to edits when the stream is over ----

PLAN = Plan(
    question="Q",
    subquestions=[Subquestion(id="s1", text="Preços"), Subquestion(id="s2", text="Fabricantes")],
)


async def streamed(
    slack: SlackStub, clock: FakeClock | None = None
) -> tuple[ProgressReporter, str]:
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    state = SlackProgress.for_plan(PLAN, Limits())
    stream = await open_stream(
        api, "C1", "100.1", "U1", state, "pt", **({"clock": clock} if clock else {})
    )
    assert stream is not None
    reporter = ProgressReporter(
        api, "C1", None, "pt", lambda: Limits(), interval=0, stream=stream, state=state
    )
    return reporter, stream.ts


async def test_a_streamed_run_appends_its_tasks_and_stops_before_the_report(
    slack: SlackStub,
) -> None:
    reporter, ts = await streamed(slack)
    reporter.start()
    reporter.sink(SubagentStarted("s1", "s1"))
    reporter.sink(ClaimVerified(claim(1)))
    await slack.wait_for(
        lambda: slack.streams.messages[ts].task_sources("s1"), what="the source streamed"
    )
    await reporter.close()
    shown = slack.streams.messages[ts]
    assert shown.ended_by == "stop"
    assert shown.calls[-1] == "chat.stopStream"
    assert shown.tasks["s1"]["status"] == "complete"
    assert slack.calls_to("chat.update") == []  # one message, never edited
    assert reporter.updates == 0


async def test_past_its_lifetime_the_stream_stops_and_the_same_message_is_edited(
    slack: SlackStub,
) -> None:
    clock = FakeClock()
    slack.streams.clock = clock
    reporter, ts = await streamed(slack, clock)
    reporter.start()
    clock.advance(STREAM_LIFETIME)
    reporter.sink(SubagentStarted("s1", "s1"))
    await slack.wait_for(lambda: slack.calls_to("chat.update"), what="the edit after the stream")
    assert slack.streams.messages[ts].ended_by == "stop"  # stopped by us, before Slack's end
    reporter.sink(ClaimVerified(claim(1)))
    await reporter.close()
    edits = slack.calls_to("chat.update")
    assert {c.params["ts"] for c in edits} == {ts}
    assert not reporter.streaming
    final = edits[-1].all_text()
    assert "concluída" in final
    assert "Preços" in final
    assert "doc1.pdf" in final  # the task's source, as the card showed it
    assert slack.calls_to("chat.appendStream", ok_only=False) == []


async def test_a_stream_slack_ended_early_goes_on_as_edits(slack: SlackStub) -> None:
    clock = FakeClock()
    slack.streams.clock = clock
    slack.streams.lifetime = 60  # Slack ends it sooner than the bot's bound
    reporter, ts = await streamed(slack)
    reporter.start()
    clock.advance(61)
    reporter.sink(SubagentStarted("s1", "s1"))
    await slack.wait_for(lambda: slack.calls_to("chat.update"), what="edits after the expiry")
    await reporter.close()
    assert slack.calls_to("chat.appendStream", ok_only=False)[0].error == (
        "message_not_in_streaming_state"
    )
    assert {c.params["ts"] for c in slack.calls_to("chat.update")} == {ts}
    assert "concluída" in slack.calls_to("chat.update")[-1].params["text"]


async def test_an_interrupted_run_still_stops_its_stream(slack: SlackStub) -> None:
    reporter, ts = await streamed(slack)
    reporter.start()
    reporter.sink(SubagentStarted("s1", "s1"))
    await reporter.close(final=False)
    shown = slack.streams.messages[ts]
    assert shown.ended_by == "stop"
    assert shown.text == ""  # no closing line: the run did not finish
    assert shown.tasks["s1"]["status"] == "in_progress"


def test_the_edited_message_lists_the_tasks_with_their_sources() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    state.apply(SubagentStarted("s1", "s1"))
    state.apply(ClaimVerified(claim(1)))
    message = edited_message(state, Limits(), "en")
    text = json.dumps(message.blocks, ensure_ascii=False)
    assert "*Preços* — under way" in text
    assert "<https://example.org/doc1.pdf#page=2|Documento 1>" in text
    assert "*Fabricantes* — to do" in text
    assert_within_limits(message.blocks)


async def test_close_ends_even_when_a_flush_swallowed_its_cancel() -> None:
    """Before: a spend read (or a Slack call) that swallowed close()'s cancel sent the loop
    back to waiting for the next change; close() waited on it forever and the report was
    never delivered (seen under a full Redis, tests/bot/test_redis_faults.py)."""
    slack = RecordingSlack()
    reading = asyncio.Event()
    reads = 0

    async def spend() -> Spend:
        nonlocal reads
        reads += 1
        if reads == 1:
            reading.set()
            with contextlib.suppress(asyncio.CancelledError):  # as 3.11's wait_for may
                await asyncio.Event().wait()
        return Spend(steps=1)

    reporter = ProgressReporter(slack, "C1", "1.1", "en", lambda: Limits(), interval=0, spend=spend)
    reporter.start()
    reporter.sink(SubagentStarted("s1", "s1"))
    await reading.wait()
    async with asyncio.timeout(10) as guard:  # a hang guard only: it takes a few turns
        await reporter.close()
    # The old close() swallowed the guard's cancel too, so the guard must not have fired.
    assert not guard.expired(), "close() hung on a loop that swallowed its cancel"
    assert reads == 2  # the final state read its spend once more, and went out
    assert slack.updates
