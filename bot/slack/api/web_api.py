"""`SlackWebApi`: the `SlackApi` protocol over slack_sdk's AsyncWebClient (built with its
retries by `retry.build_web_client`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.errors import SlackRequestError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.slack.api.protocol import OpenedView, Prompts, Upload
from bot.slack.blockkit import Block, Message


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
            recipient_team_id=recipient_team_id or await self.team_id(),
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

    async def team_id(self) -> str:
        """The bot token's workspace (auth.test), asked once: a one-workspace app's users'."""
        if self._team is None:
            response = await self.client.auth_test()
            self._team = str(response.get("team_id") or "")
        return self._team

    async def set_title(self, channel: str, thread_ts: str, title: str) -> None:
        await self.client.assistant_threads_setTitle(
            channel_id=channel, thread_ts=thread_ts, title=title
        )

    async def create_canvas(self, channel: str, title: str, markdown: str) -> str:
        answer = await self.client.api_call(
            "canvases.create",
            json={
                "title": title,
                "document_content": {"type": "markdown", "markdown": markdown},
                "channel_id": channel,
            },
        )
        canvas_id = str(answer.get("canvas_id") or "")
        if not canvas_id:
            raise SlackRequestError("canvases.create answered no canvas_id")
        return canvas_id

    async def set_suggested_prompts(
        self, channel: str, title: str, prompts: Prompts, thread_ts: str | None = None
    ) -> None:
        # thread_ts only for an assistant thread: with agent_view Slack silently ignores a
        # call that names one
        # (docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts).
        body: dict[str, Any] = {
            "channel_id": channel,
            "title": title,
            "prompts": [{"title": t, "message": m} for t, m in prompts[:4]],
        }
        if thread_ts is not None:
            body["thread_ts"] = thread_ts
        await self.client.api_call("assistant.threads.setSuggestedPrompts", json=body)

    async def set_session_status(
        self, channel: str, thread_ts: str, status: str, title: str | None = None
    ) -> None:
        # api_call, not the client's method: slack_sdk has it only since its agent sessions.
        body = {"channel_id": channel, "thread_ts": thread_ts, "status": status}
        await self.client.api_call(
            "agents.sessions.setStatus", json=body | ({"title": title} if title else {})
        )
