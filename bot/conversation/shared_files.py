"""Files a user shares in a thread or a DM become sources of that conversation.

Slack sends a `message` of subtype `file_share` with the file objects
(https://docs.slack.dev/reference/events/message/file_share). `share_step` reads it into a
`ShareFiles` step, with whatever its text asks (a question to the bot, an answer in a
report's thread) as the step to run once the files are kept, so the research sees them.
`share_files` downloads each file with the bot token (`bot.files.download`), keeps it for
the conversation alone (`bot.files.store`) and replies once in the thread, in the user's
language: what was kept, and each file not kept with its one-line reason.

Which shares are the bot's business: every file in a DM (the user and the bot alone); in a
channel, a message that mentions the bot or that is posted in a thread holding a report. A
file dropped in channel chatter is none of its business, and is never downloaded.
"""

from __future__ import annotations

import asyncio
import logging

from slack_sdk.errors import SlackApiError

from bot.conversation.routing import step_for_message
from bot.files import (
    Conversation,
    ConversationFiles,
    Downloaded,
    FileRefusal,
    Reason,
    SharedFile,
    conversation_files,
    conversation_of,
    download,
    trusted_origins,
)
from bot.runtime import Runtime
from bot.slack.blockkit import Message, escape
from bot.slack.locales import BOTH, Languages, UserLocales
from bot.slack.payloads import Payload, in_dm
from bot.slack.texts import Texts, texts_for
from bot.steps import Answer, Ask, Deepen, ShareFiles, strip_mentions
from engine.text import detect_language, escaped

log = logging.getLogger(__name__)


MB = 1024 * 1024


async def share_step(
    rt: Runtime, event: Payload, origin: str, mentioned: bool
) -> ShareFiles | None:
    """The step a `file_share` message asks for; None when its files are not the bot's."""
    channel, user = str(event.get("channel", "")), str(event.get("user", ""))
    files = [SharedFile.from_slack(f) for f in event.get("files") or [] if isinstance(f, dict)]
    if not channel or not user or not files:
        return None
    is_dm = in_dm(event)
    ts = str(event.get("ts", ""))
    thread_ts = str(event.get("thread_ts") or ts)
    report_id = await rt.states.by_thread(channel, thread_ts) if event.get("thread_ts") else None
    if not (is_dm or mentioned or report_id is not None):
        return None
    text = str(event.get("text") or "")
    then = None
    if strip_mentions(text):  # a question, or an answer in a report's thread
        asked = await step_for_message(
            rt, {k: v for k, v in event.items() if k != "files"}, origin, mentioned
        )
        then = asked if isinstance(asked, Ask | Answer | Deepen) else None
    state = await rt.states.get(report_id) if report_id is not None else None
    return ShareFiles(
        origin=origin,
        channel=channel,
        user=user,
        thread_ts=thread_ts,
        ts=ts,
        is_dm=is_dm,
        files=files,
        text=text,
        then=then,
        language=state.language if state is not None else None,
    )


async def share_files(rt: Runtime, step: ShareFiles) -> None:
    """Keep the step's files for its conversation and say what was kept."""
    settings = rt.settings
    store = conversation_files(settings)
    conversation = conversation_of(step.channel, step.thread_ts, step.ts, step.is_dm)
    origins = trusted_origins(settings.slack_api_url)
    max_bytes = int(settings.slack_file_mb * MB)
    kept: list[str] = []
    refused: list[FileRefusal] = []
    for listed in step.files:
        file = await _described(rt, listed)
        got = await download(file, settings.slack_bot_token, origins=origins, max_bytes=max_bytes)
        if isinstance(got, FileRefusal):
            log.info("shared file %s not kept: %s", file.id, got.reason)
            refused.append(got)
            continue
        kept.append(await _keep(store, conversation, got))
    replies = [
        shared_files_reply(kept, refused, texts_for(language), settings.slack_file_mb).text
        for language in await _languages(rt, step)
    ]
    await rt.slack.post(step.channel, Message("\n\n".join(replies)), step.thread_ts)


async def _languages(rt: Runtime, step: ShareFiles) -> Languages:
    """The conversation's language (its report's), else the text's, else the user's Slack
    locale; both languages when none says."""
    if step.language is not None:
        return (step.language,)
    words = strip_mentions(step.text)
    if words:
        return (detect_language(words),)
    if rt.web_client is None:
        return BOTH
    return await UserLocales().languages(rt.web_client, step.user)


async def _described(rt: Runtime, file: SharedFile) -> SharedFile:
    """The file object in full. A Slack Connect share lists only the file's id ("file_access":
    "check_file_info", https://docs.slack.dev/reference/events/message/file_share, "Slack
    Connect files"): files.info (files:read) tells the rest. Any failure leaves the file as
    listed, which is then refused as not downloadable."""
    if file.url_private_download or rt.web_client is None or not file.id:
        return file
    try:
        answer = await rt.web_client.files_info(file=file.id)
    except SlackApiError as error:
        log.info("files.info %s: %s", file.id, error.response.get("error"))
        return file
    described = answer.get("file")
    return SharedFile.from_slack(described) if isinstance(described, dict) else file


async def _keep(store: ConversationFiles, conversation: Conversation, got: Downloaded) -> str:
    """Keep a downloaded file (off the event loop: it writes and syncs); its shown name."""
    file = got.file
    title = file.title or file.name
    # The permalink is what the report cites: anyone in the conversation can open it.
    permalink = file.permalink or file.url_private_download
    await asyncio.to_thread(store.add, conversation, file.name, got.content, permalink, title)
    return title


def shared_files_reply(
    kept: list[str], refused: list[FileRefusal], t: Texts, limit_mb: float
) -> Message:
    """One message: the files kept, then each file refused with its reason."""
    lines = []
    if kept:
        names = ", ".join(f"*{escape(escaped(name))}*" for name in kept)
        lines.append(t.files_kept.format(files=names))
    if refused:
        lines.append(t.files_refused)
        for refusal in refused:
            name = escape(escaped(refusal.file.title or refusal.file.name))
            reason = reason_line(refusal.reason, t, limit_mb)
            lines.append(f"• {name}: {reason}")
    return Message("\n".join(lines))


def reason_line(reason: Reason, t: Texts, limit_mb: float) -> str:
    if reason is Reason.too_big:
        return t.file_too_big.format(limit=f"{limit_mb:g}")
    if reason is Reason.not_supported:
        return t.file_not_supported
    if reason is Reason.login_page:
        return t.file_login_page
    if reason is Reason.over_limit:
        return t.file_over_limit
    return t.file_not_downloaded
