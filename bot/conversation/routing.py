"""Which step a user's message asks for: an answer or a deepening in a report's thread, a
new brief where the bot was mentioned (or in a DM), or nothing (chatter between people).
Read from the message and the conversation state; nothing is enqueued here."""

from __future__ import annotations

from typing import Any

from bot.runtime import Runtime
from bot.steps import (
    Answer,
    Ask,
    Deepen,
    Say,
    Step,
    deepen_request,
    parse_research_command,
    strip_mentions,
)

Payload = dict[str, Any]


async def step_for_message(
    rt: Runtime, event: Payload, origin: str, mentioned: bool
) -> Step | None:
    """The step a message event asks for; None when it asks nothing of the bot."""
    channel, user = str(event["channel"]), str(event.get("user", ""))
    text = str(event.get("text", ""))
    is_dm = event.get("channel_type") == "im" or channel.startswith("D")
    thread_ts = event.get("thread_ts")
    in_assistant = bool(
        is_dm and thread_ts and await rt.states.is_assistant_thread(channel, thread_ts)
    )
    report_id = None
    if thread_ts:
        report_id = await rt.states.by_thread(channel, str(thread_ts))
    elif is_dm:
        report_id = await rt.states.dm_open(channel)
    if report_id is not None:
        gap = deepen_request(text)
        if gap is not None:
            return Deepen(report_id=report_id, user=user, gap=gap)
        return Answer(
            report_id=report_id,
            user=user,
            text=strip_mentions(text),
            mentioned=mentioned or is_dm,
            channel=channel,
        )
    if not (mentioned or is_dm):
        return None
    question = strip_mentions(text)
    if not question:
        where = str(thread_ts or event.get("ts") or "") or None
        return Say(channel=channel, user=user, thread_ts=where, what="empty_mention")
    template = language = None
    if in_assistant:  # the suggested prompts read as `/research <template> <subject>`
        parsed = parse_research_command(question)
        if parsed.template is not None and not parsed.help:
            template, question, language = parsed.template, parsed.question, parsed.language
    return Ask(
        origin=origin,
        channel=channel,
        thread_ts=str(thread_ts or event["ts"]),
        user=user,
        text=question,
        is_dm=is_dm,
        template=template,
        language=language,
        assistant=in_assistant,
    )
