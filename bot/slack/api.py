"""The bot's I/O boundary with Slack: the few Web API calls it makes, behind a protocol.

`SlackWebApi` is the real one (slack_sdk's AsyncWebClient). Rate-limit answers (429 with
Retry-After) are retried by the client's retry handlers, so they are never fatal; so are
connection errors and 5xx answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.slack.blockkit import Block, Message

RATE_LIMIT_RETRIES = 5
DEFAULT_API_URL = "https://slack.com/api/"


@dataclass(frozen=True)
class Upload:
    filename: str
    content: bytes
    title: str


class SlackApi(Protocol):
    async def post(self, channel: str, message: Message, thread_ts: str | None = None) -> str:
        """Post a message; returns its ts."""
        ...

    async def update(self, channel: str, ts: str, message: Message) -> None: ...

    async def post_ephemeral(
        self, channel: str, user: str, text: str, thread_ts: str | None = None
    ) -> None: ...

    async def open_view(self, trigger_id: str, view: Block) -> None: ...

    async def respond(self, response_url: str, text: str) -> None:
        """An ephemeral answer through a slash command's response_url (works where the bot
        is not a member of the channel)."""
        ...

    async def upload(
        self, channel: str, thread_ts: str, files: Sequence[Upload], comment: str
    ) -> None:
        """files.getUploadURLExternal, the upload, files.completeUploadExternal (v2)."""
        ...


def build_web_client(token: str, api_url: str | None = None) -> AsyncWebClient:
    return AsyncWebClient(
        token=token,
        base_url=api_url or DEFAULT_API_URL,
        retry_handlers=[
            AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
            AsyncConnectionErrorRetryHandler(max_retry_count=2),
            AsyncServerErrorRetryHandler(max_retry_count=2),
        ],
    )


class SlackWebApi:
    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def post(self, channel: str, message: Message, thread_ts: str | None = None) -> str:
        kwargs: dict[str, Any] = {"channel": channel, "text": message.text}
        if message.blocks:
            kwargs["blocks"] = message.blocks
        if thread_ts is not None:
            kwargs["thread_ts"] = thread_ts
        response = await self.client.chat_postMessage(**kwargs)
        return str(response["ts"])

    async def update(self, channel: str, ts: str, message: Message) -> None:
        await self.client.chat_update(
            channel=channel, ts=ts, text=message.text, blocks=message.blocks
        )

    async def post_ephemeral(
        self, channel: str, user: str, text: str, thread_ts: str | None = None
    ) -> None:
        kwargs: dict[str, Any] = {"channel": channel, "user": user, "text": text}
        if thread_ts is not None:
            kwargs["thread_ts"] = thread_ts
        await self.client.chat_postEphemeral(**kwargs)

    async def open_view(self, trigger_id: str, view: Block) -> None:
        await self.client.views_open(trigger_id=trigger_id, view=view)

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
