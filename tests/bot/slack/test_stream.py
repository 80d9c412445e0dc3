"""The streamed plan card: the chunks it is made of (pure), the stand-in's streams refusing
what Slack refuses, and `StreamedProgress` against them, lifetime included."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError

from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.progress import edited_message
from bot.slack.progress_state import SlackProgress
from bot.slack.stream import (
    STREAM_LIFETIME,
    WRITING,
    ChunkDiff,
    end_stream,
    open_stream,
    plan_chunks,
)
from engine.contracts import Limits, Plan, Subquestion
from engine.events import ClaimVerified, SubagentFinished, SubagentStarted
from tests.support.clock import FakeClock
from tests.support.slack_samples import claim
from tests.support.slack_streams import _chunk_error
from tests.support.slack_stub import SlackStub

CHANNEL, THREAD, USER = "C1", "100.1", "U1"
PLAN = Plan(
    question="Q",
    subquestions=[Subquestion(id="s1", text="Preços"), Subquestion(id="s2", text="Fabricantes")],
)


def verified(n: int, subquestion: str = "s1", url: str | None = None) -> ClaimVerified:
    found = claim(n).model_copy(update={"subquestion": subquestion})
    if url is not None:
        found = found.model_copy(update={"url": url, "title": f"arquivo{n}.md"})
    return ClaimVerified(found)


def api(slack: SlackStub) -> SlackWebApi:
    return SlackWebApi(build_web_client("xoxb-test", slack.api_url))


def tasks_of(chunks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in chunks if c["type"] == "task_update"}


# -- the chunks -------------------------------------------------------------------------------


def test_the_plan_card_is_its_title_a_task_per_subquestion_and_the_writing_task() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    chunks = plan_chunks(state, "pt", finished=False)
    assert chunks[0] == {"type": "plan_update", "title": "Plano de pesquisa"}
    assert [(c["id"], c["status"]) for c in chunks[1:]] == [
        ("s1", "pending"),
        ("s2", "pending"),
        (WRITING, "pending"),
    ]
    assert all(_chunk_error(c) is None for c in chunks)  # Slack's own shape, as the stand-in checks


def test_tasks_map_to_slack_statuses_with_their_sources_as_url_elements() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    state.apply(SubagentStarted("s1", "s1"))
    state.apply(verified(1))
    state.apply(verified(2, url="file:///library/arquivo2.md"))
    state.apply(SubagentStarted("s2", "s2"))
    state.apply(SubagentFinished("s2", "s2", claims_posted=0, stopped_by_budget=False))
    running = tasks_of(plan_chunks(state, "en", finished=False))
    assert running["s1"]["status"] == "in_progress"
    assert running["s1"]["sources"] == [
        {"type": "url", "url": "https://example.org/doc1.pdf#page=2", "text": "Documento 1"}
    ]  # a file:// path is no link a reader could open
    assert running["s2"]["status"] == "error"  # a gap
    assert running["s2"]["output"] == "Nothing verified: left as a gap in the report"
    assert running[WRITING]["status"] == "pending"  # s1 is still under way
    state.apply(SubagentFinished("s1", "s1", claims_posted=2, stopped_by_budget=False))
    assert tasks_of(plan_chunks(state, "en", finished=False))[WRITING]["status"] == "in_progress"
    final = plan_chunks(state, "en", finished=True)
    assert final[0]["title"] == "Research done: 2 claims verified"
    done = tasks_of(final)
    assert done["s1"]["status"] == "complete"
    assert done["s1"]["output"] == "2 verified in 2 sources: arquivo2.md"  # the file named
    assert done[WRITING]["status"] == "complete"
    assert all(_chunk_error(c) is None for c in final)


def test_each_append_carries_only_what_changed_since_slack_accepted_it() -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    diff = ChunkDiff()
    opening = plan_chunks(state, "pt", finished=False)
    assert len(diff.changes(opening)) == 4
    assert len(diff.changes(opening)) == 4  # not sent yet: still to send
    diff.sent(opening)
    assert diff.changes(plan_chunks(state, "pt", finished=False)) == []
    state.apply(SubagentStarted("s2", "s2"))
    assert [c.get("id") for c in diff.changes(plan_chunks(state, "pt", finished=False))] == ["s2"]


class HangingAppends(SlackWebApi):
    """The real client, whose appends never get an answer (a request on its way)."""

    async def append_stream(self, channel: str, ts: str, chunks: Any) -> None:
        await asyncio.Event().wait()


async def test_an_append_cancelled_in_flight_is_sent_again_with_the_stop(slack: SlackStub) -> None:
    web = HangingAppends(build_web_client("xoxb-test", slack.api_url))
    state = SlackProgress.for_plan(PLAN, Limits())
    stream = await open_stream(web, CHANNEL, THREAD, USER, state, "pt")
    assert stream is not None
    state.apply(SubagentStarted("s1", "s1"))
    state.apply(verified(1))
    state.apply(SubagentFinished("s1", "s1", claims_posted=1, stopped_by_budget=False))
    showing = asyncio.ensure_future(stream.show(state))  # s1 as final as the stop would send
    for _ in range(5):
        await asyncio.sleep(0)  # the append is on its way…
    showing.cancel()  # …when the run ends
    with contextlib.suppress(asyncio.CancelledError):
        await showing
    assert await stream.stop(state, finished=True)
    shown = slack.streams.messages[stream.ts]
    assert shown.tasks["s1"]["status"] == "complete"
    assert shown.task_sources("s1") == ["https://example.org/doc1.pdf#page=2"]


def test_long_titles_and_many_sources_stay_within_the_card() -> None:
    plan = Plan(question="Q", subquestions=[Subquestion(id="s1", text="x" * 3000)])
    state = SlackProgress.for_plan(plan, Limits())
    for n in range(30):
        state.apply(verified(n, url=f"https://example.org/{n}"))
    (task,) = [c for c in plan_chunks(state, "pt", finished=False) if c.get("id") == "s1"]
    assert len(task["title"]) <= 256
    assert len(task["sources"]) == 10


# -- the stand-in refuses what Slack refuses ---------------------------------------------------


async def test_a_channel_stream_needs_its_recipient_and_team(slack: SlackStub) -> None:
    client = build_web_client("xoxb-test", slack.api_url)
    with pytest.raises(SlackApiError, match="missing_recipient_user_id"):
        await client.chat_startStream(channel=CHANNEL, thread_ts=THREAD, markdown_text="oi")
    with pytest.raises(SlackApiError, match="missing_recipient_team_id"):
        await client.chat_startStream(
            channel=CHANNEL, thread_ts=THREAD, markdown_text="oi", recipient_user_id=USER
        )
    # The bot's client sends the token's team (auth.test) when it names none.
    ts = await api(slack).start_stream(CHANNEL, THREAD, [], recipient_user_id=USER)
    assert slack.streams.messages[ts].recipient == (USER, "T1")


async def test_the_stand_in_refuses_bad_chunks_long_text_and_a_change_of_mode(
    slack: SlackStub,
) -> None:
    client = build_web_client("xoxb-test", slack.api_url)
    who = {"recipient_user_id": USER, "recipient_team_id": "T1"}
    bad_status = [{"type": "task_update", "id": "t", "title": "T", "status": "done"}]
    with pytest.raises(SlackApiError, match="invalid_chunks"):
        await client.chat_startStream(channel=CHANNEL, thread_ts=THREAD, chunks=bad_status, **who)
    with pytest.raises(SlackApiError, match="msg_too_long"):
        await client.chat_startStream(
            channel=CHANNEL, thread_ts=THREAD, markdown_text="a" * 12_001, **who
        )
    bad_source = [
        {"type": "task_update", "id": "t", "title": "T", "status": "pending", "sources": [{}]}
    ]
    with pytest.raises(SlackApiError, match="invalid_chunks"):
        await client.chat_startStream(channel=CHANNEL, thread_ts=THREAD, chunks=bad_source, **who)
    opened = await client.chat_startStream(
        channel=CHANNEL, thread_ts=THREAD, chunks=[{"type": "plan_update", "title": "P"}], **who
    )
    ts = opened["ts"]
    with pytest.raises(SlackApiError, match="streaming_mode_mismatch"):
        await client.chat_appendStream(channel=CHANNEL, ts=ts, markdown_text="texto")
    with pytest.raises(SlackApiError, match="message_not_found"):
        await client.chat_appendStream(channel=CHANNEL, ts="1.2", chunks=[])
    with pytest.raises(SlackApiError, match="msg_blocks_too_many"):
        await client.chat_stopStream(channel=CHANNEL, ts=ts, blocks=[{"type": "divider"}] * 51)
    with pytest.raises(SlackApiError, match="streaming_state_conflict"):
        await client.chat_update(channel=CHANNEL, ts=ts, text="edit")  # still streaming
    await client.chat_stopStream(channel=CHANNEL, ts=ts)
    with pytest.raises(SlackApiError, match="message_not_in_streaming_state"):
        await client.chat_appendStream(channel=CHANNEL, ts=ts, chunks=[])
    await client.chat_update(channel=CHANNEL, ts=ts, text="edit")  # a stopped stream edits


async def test_a_stream_expires_on_the_stand_in_clock_and_shows_in_the_thread(
    slack: SlackStub,
) -> None:
    clock = FakeClock()
    slack.streams.clock = clock
    web = api(slack)
    ts = await web.start_stream(
        CHANNEL, THREAD, [{"type": "plan_update", "title": "P"}], recipient_user_id=USER
    )
    replies = await web.thread_messages(CHANNEL, THREAD)
    assert [m["ts"] for m in replies] == [ts]
    assert replies[0]["blocks"][0]["type"] == "plan"
    clock.advance(299)
    await web.append_stream(CHANNEL, ts, [{"type": "markdown_text", "text": "ainda"}])
    clock.advance(1)
    with pytest.raises(SlackApiError, match="message_not_in_streaming_state"):
        await web.append_stream(CHANNEL, ts, [{"type": "markdown_text", "text": "tarde"}])
    assert slack.streams.messages[ts].ended_by == "expiry"


async def test_a_workspace_without_streaming_refuses_the_start(slack: SlackStub) -> None:
    slack.streams.enabled = False
    state = SlackProgress.for_plan(PLAN, Limits())
    assert await open_stream(api(slack), CHANNEL, THREAD, USER, state, "pt") is None
    assert slack.calls_to("chat.startStream", ok_only=False)[0].error == (
        "channel_type_not_supported"
    )


# -- StreamedProgress ----------------------------------------------------------------------------


async def test_the_stream_opens_with_the_plan_appends_changes_and_stops_final(
    slack: SlackStub,
) -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    stream = await open_stream(api(slack), CHANNEL, THREAD, USER, state, "pt")
    assert stream is not None
    opened = slack.calls_to("chat.startStream")[0].params
    assert opened["task_display_mode"] == "plan"
    assert opened["recipient_user_id"] == USER
    state.apply(SubagentStarted("s1", "s1"))
    state.apply(verified(1))
    assert await stream.show(state)
    assert await stream.show(state)  # nothing changed: nothing sent
    assert len(slack.calls_to("chat.appendStream")) == 1
    assert [c["id"] for c in slack.calls_to("chat.appendStream")[0].params["chunks"]] == ["s1"]
    assert await stream.stop(state, finished=True)
    shown = slack.streams.messages[stream.ts]
    assert shown.ended_by == "stop"
    assert shown.plan_title == "Pesquisa concluída: 1 afirmações verificadas"
    assert shown.tasks["s1"]["status"] == "complete"
    assert shown.task_sources("s1") == ["https://example.org/doc1.pdf#page=2"]
    assert shown.tasks["s2"]["status"] == "error"  # never researched: a gap
    assert shown.text == "O relatório vem na próxima mensagem."


async def test_the_stream_is_stopped_at_its_lifetime_before_slack_would_end_it(
    slack: SlackStub,
) -> None:
    clock = FakeClock()
    slack.streams.clock = clock  # Slack's ~5 minutes
    state = SlackProgress.for_plan(PLAN, Limits())
    stream = await open_stream(api(slack), CHANNEL, THREAD, USER, state, "pt", clock=clock)
    assert stream is not None
    clock.advance(STREAM_LIFETIME - 1)
    state.apply(SubagentStarted("s1", "s1"))
    assert await stream.show(state)
    clock.advance(1)
    state.apply(verified(1))
    assert not await stream.show(state)  # over: the caller edits the message from now on
    shown = slack.streams.messages[stream.ts]
    assert shown.ended_by == "stop"  # ours, not Slack's expiry
    assert shown.task_sources("s1") == ["https://example.org/doc1.pdf#page=2"]  # sent at stop
    assert slack.streams.lifetime > STREAM_LIFETIME


async def test_a_stream_slack_ended_sooner_hands_over_without_raising(slack: SlackStub) -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    stream = await open_stream(api(slack), CHANNEL, THREAD, USER, state, "pt")
    assert stream is not None
    slack.streams.stop_by_user(stream.ts)
    state.apply(SubagentStarted("s1", "s1"))
    assert not await stream.show(state)
    assert slack.calls_to("chat.appendStream", ok_only=False)[0].error == "stopped_by_user"
    assert not await stream.stop(state, finished=True)  # refused, logged, not raised
    await end_stream(api(slack), CHANNEL, stream.ts)  # best effort too


async def test_every_chunk_the_bot_sends_is_json_slack_accepts(slack: SlackStub) -> None:
    state = SlackProgress.for_plan(PLAN, Limits())
    stream = await open_stream(api(slack), CHANNEL, THREAD, USER, state, "en")
    assert stream is not None
    for n in range(1, 6):
        state.apply(SubagentStarted(f"s{n % 2 + 1}", f"s{n % 2 + 1}"))
        state.apply(verified(n, f"s{n % 2 + 1}"))
        await stream.show(state)
    await stream.stop(state, finished=True)
    calls = [c for c in slack.calls if c.method.startswith("chat.") and "Stream" in c.method]
    assert len(calls) == 7  # start, five appends, stop
    assert all(c.ok for c in calls)
    assert json.dumps(slack.streams.messages[stream.ts].rendered())


async def test_a_crashed_attempts_stream_is_stopped_so_the_next_can_edit_it(
    slack: SlackStub,
) -> None:
    web = api(slack)
    state = SlackProgress.for_plan(PLAN, Limits())
    stream = await open_stream(web, CHANNEL, THREAD, USER, state, "pt")
    assert stream is not None  # and the attempt that opened it died
    await end_stream(web, CHANNEL, stream.ts)
    assert slack.streams.messages[stream.ts].ended_by == "stop"
    await web.update(CHANNEL, stream.ts, edited_message(state, Limits(), "pt"))
    await end_stream(web, CHANNEL, stream.ts)  # already over: logged, not raised
