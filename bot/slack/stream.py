"""The run's progress streamed into its thread as one plan card: the research plan's title,
a task per researched subquestion (pending, in progress, complete, or error for a gap or a
failure) listing the sources its verified claims cite as they are verified, and a last task
for writing the report.

Slack's streaming methods (docs.slack.dev/messaging/sending-and-scheduling-messages#text-streaming):
chat.startStream opens the message with `task_display_mode: "plan"` and the first chunks,
chat.appendStream sends `plan_update` and `task_update` chunks, chat.stopStream ends it.
startStream and stopStream are Tier 2 (20+ a minute), appendStream Tier 4 (100+) per
workspace: five reports appending every three seconds already reach it, so appends are
progress calls the pacer coalesces when the window is full (`bot.slack.api.tiers`).

A stream does not live for ever, and Slack does not document for how long: its methods'
pages name no lifetime, and a stream past it answers `message_not_in_streaming_state`
(python-slack-sdk#1859, closed by exposing the stream's ts "to call chat.update as a fallback
when the server closes a stream due to undocumented timeouts", #1880). Developers measured
it at about five minutes from the start, appends or not (vercel/chat#637). So a stream is
never held past STREAM_LIFETIME, four minutes: then it is stopped with the tasks as they are,
and the same message goes on as today's edited one (chat.update works on a stopped stream).
A stream Slack ends sooner (expired, `stopped_by_user`) or refuses is handled the same way.

The chunks are pure (`plan_chunks`, `ChunkDiff`); `StreamedProgress` is the I/O.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.slack.api import DELIVERY_ERRORS, SlackApi, progress_call
from bot.slack.blockkit import escape, link
from bot.slack.progress_state import SlackProgress, Task, TaskStatus
from bot.slack.texts import Texts, texts_for
from engine import Language
from engine.render import shown_url
from engine.text import clip, escaped

log = logging.getLogger(__name__)

Chunk = dict[str, Any]

STREAM_LIFETIME = 240.0
"""Seconds a stream is kept open at most: a minute below the ~5 minutes Slack was measured to
keep one (vercel/chat#637), so a slow append or a clock skew never meets the server's end."""
SLACK_STATUS: dict[TaskStatus, str] = {
    "pending": "pending",
    "running": "in_progress",
    "done": "complete",
    "gap": "error",
    "failed": "error",
}
"""A task_update's status is one of pending, in_progress, complete, error
(docs.slack.dev/reference/methods/chat.appendStream, "task_update chunks")."""
MAX_TASK_TITLE = 256
"""Task and plan titles are plain text; kept short enough for the card's one line."""
MAX_SOURCES = 10
"""Sources listed per task: the first verified; the report cites them all."""
MAX_SOURCE_TEXT = 150
MAX_OUTPUT = 1000
WRITING = "write"
"""The id of the plan's last task, writing the report (no subquestion has it: theirs are the
planner's s1, s2, …)."""


def _host(url: str) -> str:
    rest = url.split("://", 1)[-1]
    return rest.split("/", 1)[0] or url


def _is_web(url: str) -> bool:
    return url.startswith(("https://", "http://"))


def sources_of(task: Task) -> list[Chunk]:
    """The task's web sources as url source elements
    (docs.slack.dev/reference/block-kit/block-elements/url-source-element)."""
    found = []
    for url, title in task.sources.items():
        if _is_web(url):
            text = escaped(title) if title and title != url else _host(url)
            found.append({"type": "url", "url": url, "text": clip(text, MAX_SOURCE_TEXT)})
    return found[:MAX_SOURCES]


def named_sources(task: Task) -> list[str]:
    """The names of its other sources (a library's files): a file:// path is no link
    anyone in Slack could open, so they are named in the task's output instead."""
    names = [
        clip(escaped(title) if title and title != url else shown_url(url), MAX_SOURCE_TEXT)
        for url, title in task.sources.items()
        if not _is_web(url)
    ]
    return names[:MAX_SOURCES]


def _output(t: Texts, task: Task, status: TaskStatus) -> str | None:
    if status == "done":
        done = t.task_verified.format(count=task.verified, sources=len(task.sources))
        named = named_sources(task)
        return clip(f"{done}: {', '.join(named)}" if named else done, MAX_OUTPUT)
    if status == "gap":
        return t.task_gap
    if status == "failed":
        return t.task_failed
    return None


def task_chunk(t: Texts, task: Task, *, finished: bool) -> Chunk:
    status = task.status(finished=finished)
    chunk: Chunk = {
        "type": "task_update",
        "id": task.id,
        "title": clip(task.title, MAX_TASK_TITLE),
        "status": SLACK_STATUS[status],
    }
    output = _output(t, task, status)
    if output is not None:
        chunk["output"] = output
    sources = sources_of(task)
    if sources:
        chunk["sources"] = sources
    return chunk


def writing_status(state: SlackProgress, *, finished: bool) -> TaskStatus:
    """Writing starts once no subquestion is pending or under way; the report is written
    when the run ended."""
    if finished:
        return "done"
    busy = any(task.status() in ("pending", "running") for task in state.tasks.values())
    return "pending" if busy or not state.tasks else "running"


def plan_chunks(state: SlackProgress, language: Language, *, finished: bool) -> list[Chunk]:
    """The whole plan card as chunks: its title, every task, the writing task."""
    t = texts_for(language)
    title = t.stream_plan_done.format(verified=state.verified) if finished else t.stream_plan_title
    chunks: list[Chunk] = [{"type": "plan_update", "title": clip(title, MAX_TASK_TITLE)}]
    chunks += [task_chunk(t, task, finished=finished) for task in state.tasks.values()]
    chunks.append(
        {
            "type": "task_update",
            "id": WRITING,
            "title": t.task_writing,
            "status": SLACK_STATUS[writing_status(state, finished=finished)],
        }
    )
    return chunks


def closing_chunk(language: Language) -> Chunk:
    return {"type": "markdown_text", "text": texts_for(language).stream_closing}


class ChunkDiff:
    """What Slack has, so each append carries only the plan title and the tasks that changed
    (a task_update replaces the task's title, status, output and sources). Chunks count as
    sent once Slack accepted them: an append refused, or cancelled in flight when the run
    ends, is sent again with the stop."""

    def __init__(self) -> None:
        self._sent: dict[str, Chunk] = {}

    @staticmethod
    def _key(chunk: Chunk) -> str:
        return f"{chunk['type']}:{chunk.get('id', '')}"

    def changes(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        return [c for c in chunks if self._sent.get(self._key(c)) != c]

    def sent(self, chunks: Sequence[Chunk]) -> None:
        self._sent.update((self._key(c), c) for c in chunks if c["type"] != "markdown_text")


def status_word(t: Texts, status: TaskStatus) -> str:
    return {
        "pending": t.task_pending,
        "running": t.task_running,
        "done": t.task_done,
        "gap": t.task_gap_word,
        "failed": t.task_failed_word,
    }[status]


def task_lines(state: SlackProgress, language: Language, *, finished: bool) -> list[str]:
    """The same tasks as mrkdwn lines, for the edited message where streaming is off or
    over: "• *title* — done · <url|source>, …"."""
    t = texts_for(language)
    lines = []
    for task in state.tasks.values():
        status = task.status(finished=finished)
        title = escape(clip(task.title, MAX_TASK_TITLE))
        line = f"• *{title}* — {status_word(t, status)}"
        sources = [link(s["url"], s["text"]) for s in sources_of(task)]
        sources += [escape(name) for name in named_sources(task)]
        lines.append(line + (f" · {', '.join(sources)}" if sources else ""))
    return lines


class StreamedProgress:
    """One open stream of a run's plan card, in the thread's message `ts`."""

    def __init__(
        self,
        slack: SlackApi,
        channel: str,
        ts: str,
        language: Language,
        *,
        sent: ChunkDiff,
        opened_at: float,
        lifetime: float = STREAM_LIFETIME,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ts = ts
        self.appends = 0
        self._slack = slack
        self._channel = channel
        self._language = language
        self._sent = sent
        self._opened_at = opened_at
        self._lifetime = lifetime
        self._clock = clock

    @property
    def expiring(self) -> bool:
        return self._clock() - self._opened_at >= self._lifetime

    async def show(self, state: SlackProgress) -> bool:
        """Append what changed. False when the stream takes no more: at its lifetime (then
        it is stopped first), or when Slack refused the append (ended by Slack or the user,
        or anything else): the caller goes on with edits of the same message."""
        if self.expiring:
            await self.stop(state, finished=False)
            return False
        chunks = self._sent.changes(plan_chunks(state, self._language, finished=False))
        if not chunks:
            return True
        try:
            with progress_call():  # coalesced (raises Coalesced) when its window is full
                await self._slack.append_stream(self._channel, self.ts, chunks)
        except DELIVERY_ERRORS as error:
            log.warning("progress: chat.appendStream failed, editing instead: %s", error)
            await self._stop_quietly()
            return False
        self._sent.sent(chunks)
        self.appends += 1
        return True

    async def stop(self, state: SlackProgress, *, finished: bool) -> bool:
        """Stop the stream with the tasks as they are (and, when the run `finished`, their
        final states and a closing line); False when Slack refused the stop."""
        chunks = self._sent.changes(plan_chunks(state, self._language, finished=finished))
        if finished:
            chunks.append(closing_chunk(self._language))
        try:
            await self._slack.stop_stream(self._channel, self.ts, chunks)
        except DELIVERY_ERRORS as error:
            log.warning("progress: chat.stopStream failed: %s", error)
            return False
        self._sent.sent(chunks)
        return True

    async def _stop_quietly(self) -> None:
        await end_stream(self._slack, self._channel, self.ts)


async def open_stream(
    slack: SlackApi,
    channel: str,
    thread_ts: str,
    user: str,
    state: SlackProgress,
    language: Language,
    *,
    lifetime: float = STREAM_LIFETIME,
    clock: Callable[[], float] = time.monotonic,
) -> StreamedProgress | None:
    """The plan card streamed into the thread for `user` (the requester), its tasks pending;
    None when Slack refuses the stream (a workspace or conversation without streaming, a
    missing scope, …): the run then shows its progress as an edited message."""
    sent = ChunkDiff()
    chunks = plan_chunks(state, language, finished=False)
    try:
        ts = await slack.start_stream(channel, thread_ts, chunks, recipient_user_id=user)
    except DELIVERY_ERRORS as error:
        log.info("progress: no stream here (%s); an edited message instead", error)
        return None
    sent.sent(chunks)
    return StreamedProgress(
        slack, channel, ts, language, sent=sent, opened_at=clock(), lifetime=lifetime, clock=clock
    )


async def end_stream(slack: SlackApi, channel: str, ts: str) -> None:
    """Stop a stream that may still be open (a crashed attempt's), so its message can be
    edited: Slack answers chat.update on a streaming message with streaming_state_conflict.
    Best effort: one already ended answers message_not_in_streaming_state, which is fine."""
    try:
        await slack.stop_stream(channel, ts)
    except DELIVERY_ERRORS as error:
        log.info("progress: the earlier stream was already over: %s", error)
