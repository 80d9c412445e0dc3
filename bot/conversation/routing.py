"""Which step a user's message asks for: an answer or a deepening in a report's thread, a
new brief where the bot was mentioned (or in a DM), or nothing (chatter between people).
Read from the message and the conversation state; nothing is enqueued here.

A thread converses: once its report is done (delivered, failed or cancelled), a new question
to the bot there is a new research in the same thread with that report as its context, or a
deepening of it when the question names one of its gaps ("aprofunde: …" always does). While
its research is under way, the question gets an answer saying so (`followups.out_of_turn`).
A picked suggested prompt arrives as its message, a question: the template it stands for is
looked up among the prompts offered, never parsed from the words. A DM brief is of the older
experience's assistant thread when its thread was opened as one (assistant_thread_started),
and of the agent experience when its DM was opened in it (app_home_opened): there, "messages
received in the DM channel will not have a root message with subtype =
assistant_app_thread" (docs.slack.dev/ai/migrating-to-agent-messaging/), the user's first
message being its thread's root. "exportar [pdf|docx|…]"
in a report's thread uploads its files again (`export.export_request`)."""

from __future__ import annotations

from bot.conversation.export import export_step
from bot.conversation.thread_context import named_gap
from bot.redis.state import FINAL_STATUSES
from bot.runtime import Runtime
from bot.slack.assistant import prompt_template
from bot.slack.payloads import Payload, action_token_of, in_dm
from bot.steps import Answer, Ask, Deepen, Say, Step, deepen_request, strip_mentions


async def step_for_message(
    rt: Runtime, event: Payload, origin: str, mentioned: bool
) -> Step | None:
    """The step a message event asks for; None when it asks nothing of the bot."""
    channel, user = str(event["channel"]), str(event.get("user", ""))
    text = str(event.get("text", ""))
    is_dm = in_dm(event)
    thread_ts = event.get("thread_ts")
    to_bot = mentioned or is_dm
    in_assistant = bool(
        is_dm and thread_ts and await rt.states.is_assistant_thread(channel, thread_ts)
    )
    # The agent experience has no assistant thread: its DM was marked when it opened.
    in_agent = is_dm and not in_assistant and await rt.states.is_agent_dm(channel)
    report_id = None
    if thread_ts:
        report_id = await rt.states.by_thread(channel, str(thread_ts))
    elif is_dm:
        report_id = await rt.states.dm_open(channel)
    question = strip_mentions(text)
    follows = None
    if report_id is not None:
        state = await rt.states.get(report_id)
        done = state is not None and state.status in FINAL_STATUSES
        gap = deepen_request(text)
        if gap is None and done and to_bot and state is not None:
            gap = named_gap(state.gaps, question)
        if gap is not None:
            return Deepen(report_id=report_id, user=user, gap=gap, channel=channel)
        export = export_step(question, report_id, user, channel, thread_ts)
        if export is not None:  # "exportar pdf": its strict wording needs no mention
            return export
        if not (done and to_bot and question and thread_ts):
            return Answer(
                report_id=report_id,
                user=user,
                text=question,
                mentioned=to_bot,
                channel=channel,
                action_token=action_token_of(event),
            )
        follows = report_id  # a new question in a finished report's thread
    if not to_bot:
        return None
    if not question:
        where = str(thread_ts or event.get("ts") or "") or None
        return Say(channel=channel, user=user, thread_ts=where, what="empty_mention")
    template = language = None
    picked = prompt_template(question) if is_dm else None
    if picked is not None:
        template, language = picked
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
        agent=in_agent,
        follows=follows,
        in_thread=bool(thread_ts) and follows is None and not is_dm,
        action_token=action_token_of(event),
    )
