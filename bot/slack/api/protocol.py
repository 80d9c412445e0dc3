"""What the bot asks of Slack, behind a protocol (`SlackApi`), the values its calls trade in
(`Upload`, `OpenedView`), and what a failed call tells the user (`SlackFailure`, its `Cause`).
Permanent errors (`ok: false` with `missing_scope`, `not_in_channel`, `msg_blocks_too_long`,
...) come back on HTTP 200 and are never retried: they raise SlackApiError, which
`SlackFailure` reads. Rate-limited answers are retried by the client, and reach here only
once its retries ran out."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from slack_sdk.errors import SlackApiError, SlackClientError

from bot.slack.blockkit import Block, Message


@dataclass(frozen=True)
class Upload:
    filename: str
    content: bytes
    title: str


@dataclass(frozen=True)
class OpenedView:
    """A modal as Slack holds it: its id, and the hash that changes with every update
    (docs.slack.dev/reference/methods/views.open, "Response")."""

    id: str
    hash: str


Prompts = Sequence[tuple[str, str]]
"""Suggested prompts: (title, message) pairs."""


class SlackApi(Protocol):
    async def post(self, channel: str, message: Message, thread_ts: str | None = None) -> str:
        """Post a message; returns its ts."""
        ...

    async def update(self, channel: str, ts: str, message: Message) -> None: ...

    async def post_ephemeral(
        self,
        channel: str,
        user: str,
        text: str,
        thread_ts: str | None = None,
        blocks: Sequence[Block] | None = None,
    ) -> None: ...

    async def open_view(self, trigger_id: str, view: Block) -> OpenedView: ...

    async def update_view(self, view_id: str, view: Block, hash: str) -> OpenedView:
        """views.update of an open modal; Slack refuses it (hash_conflict) when the view
        changed since `hash` was read, and (not_found) once the user closed it."""
        ...

    async def upload_private(self, upload: Upload, alt_text: str) -> str:
        """Upload a file shared nowhere: without a channel it stays private to the bot
        (docs.slack.dev/reference/methods/files.completeUploadExternal); returns its id.
        Real workspaces refuse such a file in image blocks ("invalid slack file",
        slackapi/bolt-python#1251): to show one, use `upload_in_thread`."""
        ...

    async def upload_in_thread(
        self, channel: str, thread_ts: str, upload: Upload, alt_text: str, comment: str
    ) -> str:
        """One file shared in a thread as a message of its own (files.completeUploadExternal
        with channel_id and thread_ts), so everyone in the conversation can see it and image
        blocks may show it; returns its id."""
        ...

    async def respond(self, response_url: str, text: str) -> None:
        """An ephemeral answer through a slash command's response_url (works where the bot
        is not a member of the channel)."""
        ...

    async def upload(
        self, channel: str, thread_ts: str, files: Sequence[Upload], comment: str
    ) -> None:
        """files.getUploadURLExternal, the upload, files.completeUploadExternal (v2)."""
        ...

    async def set_status(
        self,
        channel: str,
        thread_ts: str,
        status: str,
        loading_messages: Sequence[str] | None = None,
    ) -> None:
        """assistant.threads.setStatus: the status line ("" clears it) and up to ten
        `loading_messages` rotating under it; in channel threads too, with chat:write
        (docs.slack.dev/changelog/2026/03/05/set-status-scope-update)."""
        ...

    async def thread_messages(self, channel: str, thread_ts: str) -> list[dict[str, Any]]:
        """The thread's messages with their metadata and files (conversations.replies with
        include_all_metadata)."""
        ...

    async def team_id(self) -> str:
        """The workspace the bot's token belongs to (auth.test's team_id), asked once."""
        ...

    async def set_title(self, channel: str, thread_ts: str, title: str) -> None:
        """assistant.threads.setTitle."""
        ...

    async def create_canvas(self, channel: str, title: str, markdown: str) -> str:
        """canvases.create with markdown `document_content`, tabbed in `channel` (free
        workspaces require a channel: docs.slack.dev/reference/methods/canvases.create);
        returns its id. Needs canvases:write."""
        ...

    async def set_suggested_prompts(
        self, channel: str, title: str, prompts: Prompts, thread_ts: str | None = None
    ) -> None:
        """assistant.threads.setSuggestedPrompts: (title, message) pairs, at most four; an
        assistant thread's with `thread_ts`, which only the older experience takes (an agent
        app's call naming one silently fails: docs.slack.dev/reference/methods/
        assistant.threads.setSuggestedPrompts)."""
        ...

    async def set_session_status(
        self, channel: str, thread_ts: str, status: str, title: str | None = None
    ) -> None:
        """agents.sessions.setStatus: the thread's agent session (created if need be, with
        `title`) is now `status`: processing, active, suspended or closed
        (docs.slack.dev/reference/methods/agents.sessions.setStatus)."""
        ...

    async def start_stream(
        self,
        channel: str,
        thread_ts: str,
        chunks: Sequence[dict[str, Any]],
        *,
        recipient_user_id: str,
        recipient_team_id: str | None = None,
    ) -> str:
        """chat.startStream in `plan` task display mode; returns the message's ts. Outside
        DMs Slack requires the recipient and their team (docs.slack.dev/reference/methods/
        chat.startStream); without a team, the token's own (auth.test) is sent."""
        ...

    async def append_stream(self, channel: str, ts: str, chunks: Sequence[dict[str, Any]]) -> None:
        """chat.appendStream: chunks only, as the stream was opened with chunks."""
        ...

    async def stop_stream(
        self, channel: str, ts: str, chunks: Sequence[dict[str, Any]] | None = None
    ) -> None:
        """chat.stopStream: the message is final; chat.update edits it from then on."""
        ...


class Cause(StrEnum):
    """What a failure means for the user: each has its one line (`bot.slack.delivery`)."""

    missing_scope = "missing_scope"
    not_a_member = "not_a_member"
    archived = "archived"
    restricted = "restricted"
    too_long = "too_long"
    rate_limited = "rate_limited"
    auth = "auth"
    unavailable = "unavailable"
    other = "other"


CAUSES: dict[str, Cause] = {
    # https://docs.slack.dev/reference/methods/chat.postMessage, "Errors" (chat.update,
    # chat.postEphemeral and the streaming methods answer the same codes where they apply).
    "missing_scope": Cause.missing_scope,
    "not_in_channel": Cause.not_a_member,
    "channel_not_found": Cause.not_a_member,
    "is_archived": Cause.archived,
    "restricted_action": Cause.restricted,
    "restricted_action_read_only_channel": Cause.restricted,
    "restricted_action_thread_only_channel": Cause.restricted,
    "restricted_action_non_threadable_channel": Cause.restricted,
    "ekm_access_denied": Cause.restricted,
    "msg_too_long": Cause.too_long,
    "msg_blocks_too_long": Cause.too_long,
    # "Application has posted too many messages" (chat.postMessage), and HTTP 429's
    # `ratelimited` (https://docs.slack.dev/apis/web-api/rate-limits).
    "rate_limited": Cause.rate_limited,
    "ratelimited": Cause.rate_limited,
    "http_429": Cause.rate_limited,
    "not_authed": Cause.auth,
    "invalid_auth": Cause.auth,
    "account_inactive": Cause.auth,
    "token_revoked": Cause.auth,
    "token_expired": Cause.auth,
    "internal_error": Cause.unavailable,
    "fatal_error": Cause.unavailable,
    "service_unavailable": Cause.unavailable,
    "request_timeout": Cause.unavailable,
}
"""Slack's documented error codes and what each means for the user. Refused blocks
(`invalid_blocks`, `invalid_blocks_format`) are read by the delivery's blocks fallback."""
TRANSIENT_CAUSES = frozenset({Cause.rate_limited, Cause.unavailable})


@dataclass(frozen=True)
class SlackFailure:
    """What a failed call tells the user: Slack's error code, the scope it needed (for
    missing_scope) and whether it was transient (retries ran out) or permanent."""

    error: str
    needed: str | None = None
    transient: bool = False

    @property
    def cause(self) -> Cause:
        known = CAUSES.get(self.error)
        if known is not None:
            return known
        return Cause.unavailable if self.transient else Cause.other

    @classmethod
    def of(cls, failure: BaseException) -> SlackFailure:
        if isinstance(failure, SlackApiError):
            response = failure.response
            status = int(getattr(response, "status_code", 200) or 200)
            data = response.data if isinstance(response.data, dict) else {}
            error = str(data.get("error") or f"http_{status}")
            needed = data.get("needed")
            transient = status == 429 or status >= 500 or CAUSES.get(error) in TRANSIENT_CAUSES
            return cls(error, str(needed) if needed else None, transient)
        return cls(type(failure).__name__, transient=True)


DELIVERY_ERRORS = (SlackApiError, SlackClientError, OSError, asyncio.TimeoutError)
"""What a Slack call may raise once its retries are spent."""
