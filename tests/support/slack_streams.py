"""Slack's streamed messages in the stand-in: chat.startStream, chat.appendStream and
chat.stopStream, each with the arguments, limits and errors its reference page lists
(https://docs.slack.dev/reference/methods/chat.startStream, …/chat.appendStream,
…/chat.stopStream; the chunks in https://docs.slack.dev/messaging/sending-and-scheduling-messages#text-streaming).

What the pages do not say, and what the stand-in does there:
- How long a stream lives. Developers measured about five minutes from its start, appends
  or not (vercel/chat#637; python-slack-sdk#1859, "undocumented timeouts"): past
  `lifetime` (300 s, on an injectable clock) a stream is over, and appending to or stopping
  it answers `message_not_in_streaming_state`, the error both pages list for that.
- chat.update of a message still streaming: Slack answers `streaming_state_conflict`
  (measured by developers; on no page). After the stream stopped it edits as any message
  (python-slack-sdk#1880 exposes the stream's ts for exactly that fallback).
- A workspace without streaming (`enabled = False`): no page says what Slack answers there.
  The stand-in answers `channel_type_not_supported`, the error chat.startStream lists for a
  conversation it cannot stream into; the bot must treat any refusal the same way, so the
  code chosen does not matter to it.
Rate tiers (startStream and stopStream Tier 2, appendStream Tier 4) are not modelled: tests
inject 429s with `SlackStub.fail_next`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from tests.support.slack_limits import MAX_BLOCKS, block_errors

STREAM_METHODS = ("chat.startStream", "chat.appendStream", "chat.stopStream")
MAX_MARKDOWN_TEXT = 12_000  # markdown_text: "Limit this field to 12,000 characters"
LIFETIME = 300.0
DISPLAY_MODES = ("timeline", "plan")  # task_display_mode: "Acceptable values: timeline plan"
TASK_STATUSES = ("pending", "in_progress", "complete", "error")  # task_update chunks
CHUNK_TYPES = ("markdown_text", "task_update", "plan_update", "blocks")
DISABLED_ERROR = "channel_type_not_supported"

State = Literal["in_progress", "completed"]


@dataclass
class StreamedMessage:
    ts: str
    channel: str
    thread_ts: str
    display: str
    started_at: float
    message: dict[str, Any]
    """The message as conversations.replies returns it (shared with SlackStub.threads)."""
    recipient: tuple[str, str] | None = None
    mode: Literal["chunks", "markdown"] | None = None
    """What the stream was opened with: it takes only that from then on."""
    state: State = "in_progress"
    ended_by: Literal["stop", "expiry", "user"] | None = None
    chunks: list[dict[str, Any]] = field(default_factory=list)
    """Every chunk received, in order (markdown_text arguments as markdown_text chunks)."""
    calls: list[str] = field(default_factory=list)
    text: str = ""
    plan_title: str | None = None
    tasks: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Task id -> the task as shown: a task_update replaces its title, status, details,
    output and sources."""
    blocks: int = 0
    """Blocks received through blocks chunks (50 at most, apart from stopStream's own 50)."""

    def rendered(self) -> list[dict[str, Any]]:
        """The message's blocks as a reader sees them: the plan card, when there are tasks
        (https://docs.slack.dev/reference/block-kit/blocks/plan-block)."""
        if not self.tasks and self.plan_title is None:
            return []
        cards = [{"type": "task_card", "task_id": k, **v} for k, v in self.tasks.items()]
        return [{"type": "plan", "title": self.plan_title or "", "tasks": cards}]

    def task_sources(self, task_id: str) -> list[str]:
        return [s["url"] for s in self.tasks.get(task_id, {}).get("sources", [])]


def _listed(raw: Any) -> Any:
    return json.loads(raw) if isinstance(raw, str) else raw


def _chunk_error(chunk: Any) -> str | None:
    """Why Slack refuses one chunk (`invalid_chunks`; a markdown text over 12,000 characters
    is `msg_too_long`), else None."""
    if not isinstance(chunk, dict) or chunk.get("type") not in CHUNK_TYPES:
        return "invalid_chunks"
    kind = chunk["type"]
    if kind == "markdown_text":
        text = chunk.get("text")
        if not isinstance(text, str):
            return "invalid_chunks"
        return "msg_too_long" if len(text) > MAX_MARKDOWN_TEXT else None
    if kind == "plan_update":
        return None if isinstance(chunk.get("title"), str) and chunk["title"] else "invalid_chunks"
    if kind == "blocks":
        blocks = chunk.get("blocks")
        if not isinstance(blocks, list) or block_errors(blocks, max_blocks=10_000):
            return "invalid_blocks"
        return None
    for key in ("id", "title"):  # task_update: "id", "title" and "status" are its fields
        if not isinstance(chunk.get(key), str) or not chunk[key]:
            return "invalid_chunks"
    if chunk.get("status") not in TASK_STATUSES:
        return "invalid_chunks"
    for key in ("details", "output"):
        if key in chunk and not isinstance(chunk[key], str):
            return "invalid_chunks"
    sources = chunk.get("sources", [])
    if not isinstance(sources, list):
        return "invalid_chunks"
    for source in sources:  # url source elements: type "url", a url and its text
        if (
            not isinstance(source, dict)
            or source.get("type") != "url"
            or not str(source.get("url", "")).startswith(("https://", "http://"))
            or not source.get("text")
        ):
            return "invalid_chunks"
    return None


class StreamStore:
    def __init__(
        self,
        threads: dict[tuple[str, str], list[dict[str, Any]]],
        clock: Callable[[], float] = time.monotonic,
        lifetime: float = LIFETIME,
    ) -> None:
        self.threads = threads
        self.clock = clock
        self.lifetime = lifetime
        self.enabled = True
        """False: a workspace without streaming (see the module's docstring)."""
        self.messages: dict[str, StreamedMessage] = {}

    # -- what tests set up and read ----------------------------------------------------------

    def stop_by_user(self, ts: str) -> None:
        """The user pressed Stop on the streaming message: no further appends are accepted
        (`stopped_by_user`, https://docs.slack.dev/reference/methods/chat.appendStream)."""
        self._end(self.messages[ts], "user")

    def in_thread(self, channel: str, thread_ts: str) -> list[StreamedMessage]:
        return [
            m for m in self.messages.values() if (m.channel, m.thread_ts) == (channel, thread_ts)
        ]

    # -- the Web API ---------------------------------------------------------------------------

    def refusal(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """Slack's `ok: false` answer for a streaming call (or a chat.update of a message still
        streaming), else None."""
        if method == "chat.update":
            found = self._current(str(params.get("ts")))
            if found is not None and found.state == "in_progress":
                return {"error": "streaming_state_conflict"}
            return None
        if not params.get("channel"):
            return {"error": "channel_not_found"}
        if method == "chat.startStream":
            return self._start_refusal(params)
        found = self._current(str(params.get("ts")))
        if found is None or found.channel != params["channel"]:
            return {"error": "message_not_found"}
        if found.state != "in_progress":
            if found.ended_by == "user" and method == "chat.appendStream":
                return {"error": "stopped_by_user"}
            return {"error": "message_not_in_streaming_state"}
        has_text, chunks = "markdown_text" in params, _listed(params.get("chunks"))
        if has_text and chunks is not None:
            return {"error": "cannot_provide_both_markdown_text_and_chunks"}
        if method == "chat.appendStream" and not has_text and chunks is None:
            return {"error": "markdown_text_or_chunks_required"}
        mode = "markdown" if has_text else "chunks" if chunks is not None else None
        if mode is not None and found.mode is not None and mode != found.mode:
            return {"error": "streaming_mode_mismatch"}
        problem = self._content_refusal(params, found.blocks)
        if problem is None and method == "chat.stopStream":
            blocks = _listed(params.get("blocks")) or []
            # "The blocks array has a limit of 50, which is a separate limit from the blocks
            # sent via the chunks parameter" (chat.stopStream, "blocks").
            if len(blocks) > MAX_BLOCKS:
                return {"error": "msg_blocks_too_many"}
            if block_errors(blocks):
                return {"error": "invalid_blocks"}
        return problem

    def _start_refusal(self, params: dict[str, Any]) -> dict[str, Any] | None:
        if not self.enabled:
            return {"error": DISABLED_ERROR}
        if not str(params["channel"]).startswith("D"):
            # recipient_user_id / recipient_team_id: "Required when streaming to channels".
            if not params.get("recipient_user_id"):
                return {"error": "missing_recipient_user_id"}
            if not params.get("recipient_team_id"):
                return {"error": "missing_recipient_team_id"}
        if params.get("task_display_mode", "timeline") not in DISPLAY_MODES:
            return {"error": "invalid_arguments"}  # outside the page's acceptable values
        return self._content_refusal(params, 0)

    def _content_refusal(self, params: dict[str, Any], blocks_so_far: int) -> dict[str, Any] | None:
        text = params.get("markdown_text")
        if isinstance(text, str) and len(text) > MAX_MARKDOWN_TEXT:
            return {"error": "msg_too_long"}
        chunks = _listed(params.get("chunks"))
        if chunks is None:
            return None
        if not isinstance(chunks, list):
            return {"error": "invalid_chunks"}
        for chunk in chunks:
            problem = _chunk_error(chunk)
            if problem is not None:
                return {"error": problem}
        blocks = sum(len(c["blocks"]) for c in chunks if c["type"] == "blocks")
        if blocks_so_far + blocks > MAX_BLOCKS:  # "blocks are limited to 50 per message"
            return {"error": "msg_blocks_too_many"}
        return None

    def answer(self, method: str, params: dict[str, Any], number: int) -> dict[str, Any]:
        """The answer to a call `refusal` let through (the shape of each page's example)."""
        channel = str(params["channel"])
        if method == "chat.startStream":
            ts = f"{1_700_000_000 + number}.000400"
            thread = str(params.get("thread_ts") or ts)
            message: dict[str, Any] = {"type": "message", "ts": ts, "text": ""}
            message["streaming_state"] = "in_progress"
            self.threads.setdefault((channel, thread), []).append(message)
            found = StreamedMessage(
                ts,
                channel,
                thread,
                str(params.get("task_display_mode", "timeline")),
                self.clock(),
                message,
            )
            if params.get("recipient_user_id"):
                found.recipient = (
                    str(params["recipient_user_id"]),
                    str(params.get("recipient_team_id")),
                )
            self.messages[ts] = found
        else:
            found = self.messages[str(params["ts"])]
        found.calls.append(method)
        self._receive(found, params)
        if method == "chat.stopStream":
            self._end(found, "stop")
            return {"ok": True, "channel": channel, "ts": found.ts, "message": dict(found.message)}
        return {"ok": True, "channel": channel, "ts": found.ts}

    # -- what a stream holds ---------------------------------------------------------------------

    def _current(self, ts: str) -> StreamedMessage | None:
        """The stream `ts` names, ended first if it outlived its lifetime."""
        found = self.messages.get(ts)
        late = found is not None and self.clock() - found.started_at >= self.lifetime
        if found is not None and found.state == "in_progress" and late:
            self._end(found, "expiry")
        return found

    def _end(self, found: StreamedMessage, how: Literal["stop", "expiry", "user"]) -> None:
        if found.state == "in_progress":
            found.state, found.ended_by = "completed", how
            found.message["streaming_state"] = "completed"

    def _receive(self, found: StreamedMessage, params: dict[str, Any]) -> None:
        chunks = _listed(params.get("chunks"))
        if "markdown_text" in params:
            found.mode = found.mode or "markdown"
            chunks = [{"type": "markdown_text", "text": params["markdown_text"]}]
        elif chunks is not None:
            found.mode = found.mode or "chunks"
        for chunk in chunks or []:
            found.chunks.append(chunk)
            if chunk["type"] == "markdown_text":
                found.text += chunk["text"]
            elif chunk["type"] == "plan_update":
                found.plan_title = chunk["title"]
            elif chunk["type"] == "blocks":
                found.blocks += len(chunk["blocks"])
            else:
                shown = found.tasks.setdefault(chunk["id"], {})
                shown.update({k: v for k, v in chunk.items() if k not in ("type", "id")})
        found.message["text"] = found.text
        rendered = found.rendered()
        if rendered:
            found.message["blocks"] = rendered
