"""Files shared with the bot are sources of their conversation only (issue 24, point 4), in
HTTP and Socket Mode, embedded and with Redis and a worker: a PDF shared in a DM thread is
downloaded with the bot token and kept for that DM, the reply lists it; an oversized file
and an .exe are refused with their reasons; a file shared in a channel is kept for its
thread only."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from arq.constants import in_progress_key_prefix

from bot.files import Conversation, conversation_files
from tests.support.bot_env import BOT_TOKEN
from tests.support.pdfs import pdf_bytes
from tests.support.slack_stub import SlackStub
from tests.support.slack_surface import Surface

PDF = pdf_bytes(["Relatorio anual da Acme.", "A receita da Acme foi de 42 milhoes em 2024."])
USER = "U1"


async def reply_in(slack: SlackStub, channel: str, thread_ts: str) -> str:
    def found() -> str | None:
        for call in slack.calls_to("chat.postMessage"):
            params = call.params
            if params.get("channel") == channel and params.get("thread_ts") == thread_ts:
                return str(params["text"])
        return None

    return str(await slack.wait_for(found, what=f"the reply in {channel}/{thread_ts}"))


async def worker_idle(s: Surface, within: float = 20) -> None:
    """With Redis: every step job has run to its end (a worker cancelled mid-job would leave
    its Redis connection open at teardown)."""
    if s.rt.redis is None:
        return
    redis, prefix = s.rt.redis, s.rt.keys.prefix
    deadline = time.monotonic() + within
    while True:
        queued = await redis.zcard(s.rt.keys.tasks_queue)
        running = [k async for k in redis.scan_iter(match=f"{in_progress_key_prefix}{prefix}*")]
        if not queued and not running:
            return
        assert time.monotonic() < deadline, f"jobs still queued or running: {running}"
        await asyncio.sleep(0.05)


async def test_shared_files_are_kept_for_their_conversation_alone(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface(slack_file_mb=1)
    store = conversation_files(s.rt.settings)

    # The bot's own upload into a DM thread (a report's files) is not a source (Bolt drops
    # the app's own events; the listeners check too).
    own = s.slack.share_file("UBOT", "D1", "report.pdf", PDF, "application/pdf", thread_ts="1.1")
    await s.event(own)
    # A PDF shared in a DM thread (Bolt's assistant path), no question.
    pdf = s.slack.share_file(
        USER,
        "D1",
        "acme.pdf",
        PDF,
        "application/pdf",
        thread_ts="1700000100.000100",
        ts="1700000101.000100",
    )
    await s.event(pdf)
    reply = await reply_in(s.slack, "D1", "1700000100.000100")
    assert "*acme.pdf*" in reply
    [fetch] = s.slack.calls_to("file_download")  # acme.pdf's, never report.pdf's
    assert fetch.params["token"] == BOT_TOKEN
    [kept] = store.files(Conversation("D1"))
    assert kept.url == pdf["files"][0]["permalink"]
    assert kept.path.read_bytes() == PDF

    # An oversized PDF and an .exe at the DM's top level: both refused, neither downloaded.
    big = s.slack.files.share(USER, "big.pdf", b"%PDF-1.4" + b"0" * 1_200_000, "application/pdf")
    exe = s.slack.files.share(USER, "tool.exe", b"MZ\x90\x00", "application/x-msdownload")
    refused = s.slack.share_file(USER, "D1", "x.md", b"# x", "text/plain", ts="1700000200.000100")
    refused["files"] = [big.answer(), exe.answer()]
    refused["text"] = "here are two more"
    await s.event(refused)
    reply = await reply_in(s.slack, "D1", "1700000200.000100")
    assert "• big.pdf: larger than 1 MB" in reply
    assert "• tool.exe: a type I do not read" in reply
    assert len(s.slack.calls_to("file_download")) == 1
    assert [k.file for k in store.files(Conversation("D1"))] == ["acme.pdf"]

    # A file shared in a channel, mentioning the bot: kept for that thread only.
    shared = s.slack.share_file(
        USER,
        "C1",
        "notes.md",
        b"# Notas\nA receita foi 42.",
        "text/plain",
        text="<@UBOT>",
        ts="1700000300.000100",
    )
    # Slack may send the app_mention too, files and all: the message event alone counts.
    await s.event({**shared, "type": "app_mention", "subtype": None})
    await s.event(shared)
    reply = await reply_in(s.slack, "C1", "1700000300.000100")
    assert "*notes.md*" in reply
    assert s.slack.calls_to("chat.postEphemeral") == [], "no empty-mention answer"
    assert [k.file for k in store.files(Conversation("C1", "1700000300.000100"))] == ["notes.md"]
    assert store.files(Conversation("C1", "1700000400.000100")) == []
    assert [k.file for k in store.files(Conversation("D1"))] == ["acme.pdf"]
    await worker_idle(s)
