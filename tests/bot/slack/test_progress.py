"""One progress message, edited at most every interval; events coalesce; 429s are retried."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.slack.api import SlackWebApi, Upload, build_web_client
from bot.slack.blockkit import Block, Message
from bot.slack.progress import ProgressReporter
from engine.contracts import Limits, Spend
from engine.events import ClaimVerified, SpendUpdated, SubagentStarted
from tests.support.slack_samples import claim
from tests.support.slack_stub import SlackStub


@dataclass
class RecordingSlack:
    updates: list[tuple[float, Message]] = field(default_factory=list)
    fail: bool = False

    async def post(self, channel: str, message: Message, thread_ts: str | None = None) -> str:
        return "1.1"

    async def update(self, channel: str, ts: str, message: Message) -> None:
        if self.fail:
            raise OSError("connection reset")
        self.updates.append((asyncio.get_running_loop().time(), message))

    async def post_ephemeral(
        self,
        channel: str,
        user: str,
        text: str,
        thread_ts: str | None = None,
        blocks: Sequence[Block] | None = None,
    ) -> None:
        return None

    async def open_view(self, trigger_id: str, view: Block) -> None:
        return None

    async def respond(self, response_url: str, text: str) -> None:
        return None

    async def upload(
        self, channel: str, thread_ts: str, files: Sequence[Upload], comment: str
    ) -> None:
        return None


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
