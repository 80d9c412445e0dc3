"""The slack-sdk and slack-bolt floors in pyproject.toml hold every method and argument the bot
uses: each `SlackWebApi` method (and the two calls outside it, users.info and files.info) is
made through the real AsyncWebClient against the loopback Slack stand-in, so an SDK without
the method (AttributeError) or with another signature (TypeError) fails here, not in a
report after its research was paid for; Bolt's AsyncAssistant is the real one.

The floors, from the SDKs' own histories (python-slack-sdk and bolt-python tags):
- slack-sdk 3.40.0: chat.startStream takes `chunks` and `task_display_mode`, and
  chat.appendStream `chunks` without `markdown_text` (3.37.0 added the stream methods with
  `markdown_text` required on appendStream; 3.36 has none of them). The floor is 3.42.0:
  before it the aiohttp Socket Mode client passes `ssl=None`, which aiohttp 3.14 deprecates
  with a warning at every connect (and which hangs test_app's Socket Mode test, warnings
  being errors there).
- slack-bolt 1.21.0: the first with `AsyncAssistant` (thread_started,
  thread_context_changed, user_message).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.api.protocol import Upload
from bot.slack.blockkit import Message
from bot.slack.locales import _fetch_locale
from tests.support.bot_env import BOT_TOKEN
from tests.support.sdk_imports import imported_from, missing_names
from tests.support.slack_stub import SlackStub

CHANNEL, THREAD, USER = "D1", "100.1", "U1"
VIEW = {"type": "modal", "title": {"type": "plain_text", "text": "T"}, "blocks": []}
FILE = Upload("a.txt", b"oi", "A")

Step = Callable[[SlackWebApi, SlackStub], Awaitable[object]]


async def _views(api: SlackWebApi, slack: SlackStub) -> object:
    opened = await api.open_view("trigger-1", VIEW)
    return await api.update_view(opened.id, VIEW, opened.hash)


async def _stream(api: SlackWebApi, slack: SlackStub) -> object:
    chunks = [{"type": "markdown_text", "text": "a"}]
    ts = await api.start_stream(CHANNEL, THREAD, chunks, recipient_user_id=USER)
    await api.append_stream(CHANNEL, ts, [{"type": "markdown_text", "text": "b"}])
    await api.stop_stream(CHANNEL, ts)
    return ts


async def _server_error_retried(api: SlackWebApi, slack: SlackStub) -> object:
    """bot.slack.api.retry's handler (an AsyncRetryHandler subclass) retries a 5xx."""
    slack.fail_next("chat.postMessage", status=502, retry_after=0)
    await api.post(CHANNEL, Message("t"))
    tries = len(slack.calls_to("chat.postMessage", ok_only=False))
    if tries != 2:
        raise TypeError(f"the 502 was tried {tries} times, not retried once")
    return tries


async def _users_info(api: SlackWebApi, slack: SlackStub) -> object:
    return await _fetch_locale(api.client, USER)


async def _files_info(api: SlackWebApi, slack: SlackStub) -> object:
    return await api.client.files_info(file="F1")


# Each SlackWebApi method, what it is asked, and the Slack methods it must reach.
STEPS: dict[str, tuple[Step, tuple[str, ...]]] = {
    "post": (
        lambda a, s: a.post(CHANNEL, Message("t", metadata=None), THREAD),
        ("chat.postMessage",),
    ),
    "thread_messages": (
        lambda a, s: a.thread_messages(CHANNEL, THREAD),
        ("conversations.replies",),
    ),
    "update": (lambda a, s: a.update(CHANNEL, "1.1", Message("t")), ("chat.update",)),
    "post_ephemeral": (
        lambda a, s: a.post_ephemeral(CHANNEL, USER, "t", THREAD, []),
        ("chat.postEphemeral",),
    ),
    "open_view": (_views, ("views.open", "views.update")),
    "update_view": (_views, ("views.open", "views.update")),
    "upload_private": (
        lambda a, s: a.upload_private(FILE, "alt"),
        ("files.getUploadURLExternal", "files.completeUploadExternal"),
    ),
    "upload_in_thread": (
        lambda a, s: a.upload_in_thread(CHANNEL, THREAD, FILE, "alt", "c"),
        ("files.getUploadURLExternal", "files.completeUploadExternal"),
    ),
    "upload": (
        lambda a, s: a.upload(CHANNEL, THREAD, [FILE, FILE], "c"),
        ("files.getUploadURLExternal", "files.completeUploadExternal"),
    ),
    "set_status": (
        lambda a, s: a.set_status(CHANNEL, THREAD, "a pesquisar", ["lendo"]),
        ("assistant.threads.setStatus",),
    ),
    "start_stream": (_stream, ("auth.test", "chat.startStream")),
    "append_stream": (_stream, ("chat.appendStream",)),
    "stop_stream": (_stream, ("chat.stopStream",)),
    "set_title": (lambda a, s: a.set_title(CHANNEL, THREAD, "T"), ("assistant.threads.setTitle",)),
    "team_id": (lambda a, s: a.team_id(), ("auth.test",)),
    "set_session_status": (
        lambda a, s: a.set_session_status(CHANNEL, THREAD, "processing", "T"),
        ("agents.sessions.setStatus",),
    ),
    "create_canvas": (lambda a, s: a.create_canvas(CHANNEL, "T", "# oi"), ("canvases.create",)),
    "set_suggested_prompts": (
        lambda a, s: a.set_suggested_prompts(CHANNEL, "T", [("a", "b")]),
        ("assistant.threads.setSuggestedPrompts",),
    ),
    "respond": (lambda a, s: a.respond(s.response_url(), "t"), ("response_url",)),
    "retry handler (bot.slack.api.retry)": (_server_error_retried, ("chat.postMessage",)),
    "users_info (bot.slack.locales)": (_users_info, ("users.info",)),
    "files_info (bot.conversation.shared_files)": (_files_info, ("files.info",)),
}


async def sdk_gaps(slack: SlackStub, steps: dict[str, tuple[Step, tuple[str, ...]]]) -> list[str]:
    """What the installed SDK cannot do of `steps`: a method it lacks, an argument it does
    not take or one it requires that the bot does not pass. Slack's own answers (an error
    the stand-in gives) are not the SDK's and pass."""
    gaps: list[str] = []
    for name, (step, methods) in steps.items():
        api = SlackWebApi(build_web_client(BOT_TOKEN, slack.api_url))
        slack.calls.clear()
        try:
            await step(api, slack)
        except SlackApiError:
            pass
        except (TypeError, AttributeError) as error:
            gaps.append(f"{name}: {type(error).__name__}: {error}")
            continue
        reached = {call.method for call in slack.calls}
        missing = [m for m in methods if m not in reached]
        if missing:
            gaps.append(f"{name}: never reached {', '.join(missing)}")
    return gaps


def test_every_method_of_the_bots_slack_api_is_exercised() -> None:
    public = {
        name
        for name, member in inspect.getmembers(SlackWebApi, inspect.iscoroutinefunction)
        if not name.startswith("_")
    }
    assert public <= set(STEPS), f"add these to STEPS: {sorted(public - set(STEPS))}"


@pytest.mark.parametrize("package", ["slack_sdk", "slack_bolt"])
def test_every_name_the_bot_imports_from_the_slack_sdks_is_there(package: str) -> None:
    assert imported_from(package)  # the scan found the bot's imports
    assert missing_names(package) == []


async def test_the_installed_slack_sdk_has_every_method_and_argument_the_bot_uses(
    slack: SlackStub,
) -> None:
    assert await sdk_gaps(slack, STEPS) == []


async def test_an_sdk_whose_append_stream_requires_markdown_text_fails_the_floor(
    slack: SlackStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """slack-sdk 3.37–3.39's signature: the first progress append would raise."""

    async def chat_appendStream(
        self: AsyncWebClient, *, channel: str, ts: str, markdown_text: str, **kwargs: Any
    ) -> Any:
        return await self.api_call(
            "chat.appendStream", json={"channel": channel, "ts": ts, "markdown_text": markdown_text}
        )

    monkeypatch.setattr(AsyncWebClient, "chat_appendStream", chat_appendStream)
    gaps = await sdk_gaps(slack, {"append_stream": STEPS["append_stream"]})
    assert len(gaps) == 1
    assert "markdown_text" in gaps[0]


async def test_an_sdk_without_chat_start_stream_fails_the_floor(
    slack: SlackStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """slack-sdk 3.36 and older: the report job would die before its research."""
    monkeypatch.delattr(AsyncWebClient, "chat_startStream")
    gaps = await sdk_gaps(slack, {"start_stream": STEPS["start_stream"]})
    assert len(gaps) == 1  # whichever client class the bot wraps the SDK's in
    assert re.fullmatch(
        r"start_stream: AttributeError: '\w+' object has no attribute 'chat_startStream'", gaps[0]
    )


def test_the_bolt_installed_has_the_agent_surface_the_bot_starts_with() -> None:
    from slack_bolt.async_app import AsyncApp, AsyncAssistant

    assistant = AsyncAssistant()
    for listener in ("thread_started", "thread_context_changed", "user_message"):
        assert callable(getattr(assistant, listener)), listener
    app = AsyncApp(
        client=AsyncWebClient(token=BOT_TOKEN),
        signing_secret="",
        request_verification_enabled=False,
    )
    app.use(assistant)
    handler_takes = inspect.signature(AsyncSocketModeHandler.__init__).parameters
    assert "web_client" in handler_takes
