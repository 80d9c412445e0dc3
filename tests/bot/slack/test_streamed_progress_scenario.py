"""Issue 24, point 1, in the four set-ups (HTTP or Socket Mode; embedded, or Redis and a
worker): while a report runs, its thread shows the plan as a streamed plan card, a task per
subquestion with its sources as they are verified; the stream is stopped on the final states
before the report is posted as a message of its own. Where the workspace has no streaming,
the same progress is today's edited message."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from bot.redis.state import ReportState
from bot.slack.blocks import START
from bot.slack.stream import WRITING
from tests.support.bot_env import mention
from tests.support.slack_runs import QUESTION
from tests.support.slack_stub import Call
from tests.support.slack_surface import Surface

CHANNEL, USER, THREAD = "C100", "U1", "700.1"
LIBRARY = ("Lei 14.300", "Mercado de energia solar")  # tests/bot/conftest.py's files


async def run_report(s: Surface) -> ReportState:
    """Mention -> plan -> Start -> delivered."""
    await s.event(mention(CHANNEL, USER, QUESTION, THREAD))
    planned = await s.wait_report(CHANNEL, THREAD, lambda st: st.plan_ts is not None)
    await s.action(USER, CHANNEL, START, json.dumps({"r": planned.report_id}))
    return await s.wait_report(CHANNEL, THREAD, lambda st: st.delivered >= 1, within=90)


def index(calls: list[Call], method: str, ts: str | None = None) -> int:
    return next(
        n
        for n, c in enumerate(calls)
        if c.method == method and c.ok and (ts is None or c.params.get("ts") == ts)
    )


async def test_the_plan_and_its_tasks_stream_then_the_report_is_its_own_message(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface()
    state = await run_report(s)
    assert state.plan is not None
    (stream,) = s.slack.streams.in_thread(CHANNEL, THREAD)
    assert (stream.display, stream.recipient) == ("plan", (USER, "T1"))
    assert stream.ended_by == "stop"  # stopped by the bot, never left to expire
    assert state.progress_ts == stream.ts
    assert state.progress_streamed

    planned = [sub.id for sub in state.plan.subquestions]
    assert list(stream.tasks) == [*planned, WRITING]
    assert stream.tasks[WRITING]["status"] == "complete"
    done = [t for t in stream.tasks.values() if t["status"] == "complete"]
    assert any(name in t.get("output", "") for t in done for name in LIBRARY)
    assert {t["status"] for t in stream.tasks.values()} <= {"complete", "error"}
    assert "Pesquisa concluída" in (stream.plan_title or "")
    assert stream.text == "O relatório vem na próxima mensagem."
    # The card opened with every task pending (how many updates followed depends on how
    # fast the run went: events between two updates coalesce).
    opening = stream.chunks[: len(planned) + 2]
    assert [c.get("status") for c in opening[1:]] == ["pending"] * (len(planned) + 1)

    calls = s.slack.calls
    started, stopped = index(calls, "chat.startStream"), index(calls, "chat.stopStream")
    assert not [c for c in calls[started:stopped] if c.method == "chat.postMessage"]
    report = [c for c in calls[stopped:] if c.method == "chat.postMessage" and c.ok]
    assert report, "the report was not posted after the stream stopped"
    assert not [c for c in s.slack.calls_to("chat.update") if c.params["ts"] == stream.ts]
    thread = [m["ts"] for m in s.slack.threads[(CHANNEL, THREAD)]]
    assert stream.ts in thread
    assert thread.index(stream.ts) < len(thread) - 1  # the report came after, apart

    # The channel thread had a status line too, with loading messages under it.
    statuses = [c for c in s.slack.calls_to("assistant.threads.setStatus")]
    assert statuses
    assert statuses[-1].params["status"] == ""  # cleared when the report came
    assert any(len(c.params.get("loading_messages") or []) >= 2 for c in statuses)


async def test_without_streaming_the_progress_is_the_edited_message(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface()
    s.slack.streams.enabled = False  # a workspace where Slack refuses chat.startStream
    state = await run_report(s)
    assert [c.ok for c in s.slack.calls_to("chat.startStream", ok_only=False)] == [False]
    assert s.slack.streams.messages == {}
    assert state.progress_ts is not None
    assert not state.progress_streamed
    edits = [c for c in s.slack.calls_to("chat.update") if c.params["ts"] == state.progress_ts]
    assert edits
    final = edits[-1].all_text()
    assert "concluída" in final
    assert any(name in final for name in LIBRARY)  # the same sources the card lists
    [message] = [m for m in s.slack.threads[(CHANNEL, THREAD)] if m["ts"] == state.progress_ts]
    assert message["text"] == "Pesquisando…"  # posted, then edited
