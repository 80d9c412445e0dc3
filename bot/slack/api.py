"""The bot's I/O boundary with Slack: the few Web API calls it makes, behind a protocol.

`SlackWebApi` is the real one (slack_sdk's AsyncWebClient). Transient answers are retried by
the client's retry handlers: 429 after its Retry-After (docs.slack.dev/apis/web-api/rate-limits),
5xx after its Retry-After when given, else with backoff, and connection errors. Permanent
errors (`ok: false` with `missing_scope`, `not_in_channel`, `msg_blocks_too_long`, ...) come
back on HTTP 200 and are never retried: they raise SlackApiError, which `SlackFailure` reads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from slack_sdk.errors import SlackApiError, SlackClientError, SlackRequestError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.slack.blockkit import Block, Message

RATE_LIMIT_RETRIES = 5
SERVER_ERROR_RETRIES = 3
MAX_RETRY_AFTER_SECONDS = 60.0
DEFAULT_API_URL = "https://slack.com/api/"


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

    async def set_title(self, channel: str, thread_ts: str, title: str) -> None:
        """assistant.threads.setTitle."""
        ...

    async def set_suggested_prompts(
        self, channel: str, title: str, prompts: Sequence[tuple[str, str]]
    ) -> None:
        """assistant.threads.setSuggestedPrompts: (title, message) pairs, at most four."""
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


def retry_after(response: HttpResponse) -> float | None:
    for name, values in response.headers.items():
        if name.lower() == "retry-after" and values:
            try:
                return min(MAX_RETRY_AFTER_SECONDS, max(0.0, float(values[0])))
            except ValueError:
                return None
    return None


class ServerErrorRetryHandler(AsyncRetryHandler):
    """Any 5xx is retried: after its Retry-After when Slack sends one, else with backoff.
    (slack_sdk's own handler retries 500 and 503 only, and ignores Retry-After.)"""

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        return response is not None and response.status_code >= 500

    async def prepare_for_next_attempt_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        wait = None if response is None else retry_after(response)
        if wait is None:
            wait = self.interval_calculator.calculate_sleep_duration(state.current_attempt)
        state.next_attempt_requested = True
        await asyncio.sleep(wait)
        state.increment_current_attempt()


def build_web_client(token: str, api_url: str | None = None) -> AsyncWebClient:
    return AsyncWebClient(
        token=token,
        base_url=api_url or DEFAULT_API_URL,
        retry_handlers=[
            AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
            AsyncConnectionErrorRetryHandler(max_retry_count=2),
            ServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES),
        ],
    )


@dataclass(frozen=True)
class SlackFailure:
    """What a failed call tells the user: Slack's error code, the scope it needed (for
    missing_scope) and whether it was transient (retries ran out) or permanent."""

    error: str
    needed: str | None = None
    transient: bool = False

    @classmethod
    def of(cls, failure: BaseException) -> SlackFailure:
        if isinstance(failure, SlackApiError):
            response = failure.response
            status = int(getattr(response, "status_code", 200) or 200)
            data = response.data if isinstance(response.data, dict) else {}
            error = str(data.get("error") or f"http_{status}")
            needed = data.get("needed")
            return cls(error, str(needed) if needed else None, status == 429 or status >= 500)
        return cls(type(failure).__name__, transient=True)


DELIVERY_ERRORS = (SlackApiError, SlackClientError, OSError, asyncio.TimeoutError)
"""What a Slack call may raise once its retries are spent."""


def _opened(view: Any) -> OpenedView:
    view = view if isinstance(view, dict) else {}
    return OpenedView(str(view.get("id", "")), str(view.get("hash", "")))


class SlackWebApi:
    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client
        self._team: str | None = None

    async def post(self, channel: str, message: Message, thread_ts: str | None = None) -> str:
        kwargs: dict[str, Any] = {"channel": channel, "text": message.text}
        if message.blocks:
            kwargs["blocks"] = message.blocks
        if thread_ts is not None:
            kwargs["thread_ts"] = thread_ts
        if message.metadata is not None:
            kwargs["metadata"] = message.metadata
        response = await self.client.chat_postMessage(**kwargs)
        return str(response["ts"])

    async def thread_messages(self, channel: str, thread_ts: str) -> list[dict[str, Any]]:
        response = await self.client.conversations_replies(
            channel=channel, ts=thread_ts, include_all_metadata=True, limit=1000
        )
        messages = response.get("messages") or []
        return [m for m in messages if isinstance(m, dict)]

    async def update(self, channel: str, ts: str, message: Message) -> None:
        await self.client.chat_update(
            channel=channel, ts=ts, text=message.text, blocks=message.blocks
        )

    async def post_ephemeral(
        self,
        channel: str,
        user: str,
        text: str,
        thread_ts: str | None = None,
        blocks: Sequence[Block] | None = None,
    ) -> None:
        kwargs: dict[str, Any] = {"channel": channel, "user": user, "text": text}
        if thread_ts is not None:
            kwargs["thread_ts"] = thread_ts
        if blocks is not None:
            kwargs["blocks"] = list(blocks)
        await self.client.chat_postEphemeral(**kwargs)

    async def open_view(self, trigger_id: str, view: Block) -> OpenedView:
        response = await self.client.views_open(trigger_id=trigger_id, view=view)
        return _opened(response.get("view"))

    async def update_view(self, view_id: str, view: Block, hash: str) -> OpenedView:
        response = await self.client.views_update(view_id=view_id, view=view, hash=hash)
        return _opened(response.get("view"))

    async def upload_private(self, upload: Upload, alt_text: str) -> str:
        response = await self.client.files_upload_v2(
            filename=upload.filename, file=upload.content, title=upload.title, alt_txt=alt_text
        )
        uploaded = response.get("file") or {}
        if not uploaded.get("id"):
            raise SlackRequestError("files.completeUploadExternal answered no file id")
        return str(uploaded["id"])

    async def upload_in_thread(
        self, channel: str, thread_ts: str, upload: Upload, alt_text: str, comment: str
    ) -> str:
        response = await self.client.files_upload_v2(
            filename=upload.filename,
            file=upload.content,
            title=upload.title,
            alt_txt=alt_text,
            channel=channel,
            thread_ts=thread_ts,
            initial_comment=comment,
        )
        uploaded = response.get("file") or {}
        if not uploaded.get("id"):
            raise SlackRequestError("files.completeUploadExternal answered no file id")
        return str(uploaded["id"])

    async def respond(self, response_url: str, text: str) -> None:
        await AsyncWebhookClient(response_url).send(text=text, response_type="ephemeral")

    async def upload(
        self, channel: str, thread_ts: str, files: Sequence[Upload], comment: str
    ) -> None:
        await self.client.files_upload_v2(
            file_uploads=[
                {"filename": f.filename, "content": f.content, "title": f.title} for f in files
            ],
            channel=channel,
            thread_ts=thread_ts,
            initial_comment=comment,
        )

    async def set_status(
        self,
        channel: str,
        thread_ts: str,
        status: str,
        loading_messages: Sequence[str] | None = None,
    ) -> None:
        await self.client.assistant_threads_setStatus(
            channel_id=channel,
            thread_ts=thread_ts,
            status=status,
            loading_messages=list(loading_messages) if loading_messages else None,
        )

    async def start_stream(
        self,
        channel: str,
        thread_ts: str,
        chunks: Sequence[dict[str, Any]],
        *,
        recipient_user_id: str,
        recipient_team_id: str | None = None,
    ) -> str:
        response = await self.client.chat_startStream(
            channel=channel,
            thread_ts=thread_ts,
            chunks=list(chunks),
            recipient_user_id=recipient_user_id,
            recipient_team_id=recipient_team_id or await self._team_id(),
            task_display_mode="plan",
        )
        return str(response["ts"])

    async def append_stream(self, channel: str, ts: str, chunks: Sequence[dict[str, Any]]) -> None:
        await self.client.chat_appendStream(channel=channel, ts=ts, chunks=list(chunks))

    async def stop_stream(
        self, channel: str, ts: str, chunks: Sequence[dict[str, Any]] | None = None
    ) -> None:
        await self.client.chat_stopStream(
            channel=channel, ts=ts, chunks=list(chunks) if chunks else None
        )

    async def _team_id(self) -> str:
        """The bot token's workspace (auth.test), asked once: a one-workspace app's users'."""
        if self._team is None:
            response = await self.client.auth_test()
            self._team = str(response.get("team_id") or "")
        return self._team

    async def set_title(self, channel: str, thread_ts: str, title: str) -> None:
        await self.client.assistant_threads_setTitle(
            channel_id=channel, thread_ts=thread_ts, title=title
        )

    async def set_suggested_prompts(
        self, channel: str, title: str, prompts: Sequence[tuple[str, str]]
    ) -> None:
        # No thread_ts: with the manifest's agent_view Slack silently ignores a call that
        # names one (docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts).
        await self.client.api_call(
            "assistant.threads.setSuggestedPrompts",
            json={
                "channel_id": channel,
                "title": title,
                "prompts": [{"title": t, "message": m} for t, m in prompts[:4]],
            },
        )
