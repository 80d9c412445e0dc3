"""The Bolt app: listeners acknowledge Slack at once and enqueue a step; nothing slow runs
here. What a message asks for is read in `bot.conversation.routing`; the buttons that must
open a modal at once (a trigger_id expires three seconds after the click) are in
`bot.conversation.opening`.

Slack's two messaging experiences of AI apps both arrive here. The agent experience (the
manifest's `agent_view`) sends app_home_opened with tab "messages" when the DM opens, plain
message events after it, and agent_session_stopped for its sessions' stop button. The older
one (`assistant_view`) sends assistant_thread_started, which Bolt's `AsyncAssistant`
middleware takes with every user message in a DM thread; all go through the same routing as
any message. Workspaces without either feature send plain DM message events, as before."""

from __future__ import annotations

import json
import logging
import re
from typing import get_args

from slack_bolt.async_app import AsyncApp, AsyncAssistant
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.conversation.opening import open_excerpt, open_plan_editor, run_as_mine
from bot.conversation.routing import step_for_message
from bot.conversation.shared_files import share_step
from bot.conversation.slack_search_consent import CONSENT_ACTION, keep_answer
from bot.recovery.in_flight import RUN_AGAIN, LostBrief, run_again, tell_brief
from bot.redis.outage import is_outage
from bot.routines.schedule import frequency_named
from bot.runtime import Runtime
from bot.slack import assistant
from bot.slack.agent_session import set_session
from bot.slack.blockkit import feedback_pressed, selected_value
from bot.slack.blocks import (
    ANSWER,
    CANCEL,
    CITATIONS,
    DEEPEN,
    EDIT,
    EDIT_VIEW,
    EXCERPT,
    EXPORT,
    FEEDBACK,
    FEEDBACK_BUTTONS,
    ROUTINE,
    RUN_AS_MINE,
    START,
    WATCH,
    help_message,
    read_edit_plan,
)
from bot.slack.locales import UserLocales
from bot.slack.payloads import (
    Payload,
    action_origin,
    action_value,
    channel_of,
    in_dm,
    report_of,
)
from bot.slack.texts import texts_for
from bot.steps import (
    Answer,
    Ask,
    Cancel,
    Deepen,
    EditPlan,
    Export,
    ForgetChannel,
    ListRoutines,
    Rate,
    RoutineAction,
    Say,
    Start,
    SteerRoutine,
    Step,
    Watch,
    mentions,
    parse_research_command,
    strip_mentions,
)
from engine.text import detect_language
from engine.words import words_for

log = logging.getLogger(__name__)

_ROUTINE_ACTIONS: dict[str, RoutineAction] = {a: a for a in get_args(RoutineAction)}


def build_app(
    rt: Runtime, client: AsyncWebClient, *, signing_secret: str | None = None
) -> AsyncApp:
    app = AsyncApp(
        client=client,
        signing_secret=signing_secret or "",
        request_verification_enabled=signing_secret is not None,
    )
    listeners = Listeners(rt)
    app.event("app_mention")(listeners.on_mention)
    app.event("message")(listeners.on_message)
    app.event("app_home_opened")(listeners.on_home_opened)
    app.event("agent_session_stopped")(listeners.on_session_stopped)
    app.command("/research")(listeners.on_research)
    app.action(re.compile(f"^{ANSWER}_"))(listeners.on_answer)
    app.action(START)(listeners.on_start)
    app.action(CANCEL)(listeners.on_cancel)
    app.action(EDIT)(listeners.on_edit)
    app.action(EXCERPT)(listeners.on_excerpt)
    app.action(EXPORT)(listeners.on_export)
    app.action(RUN_AS_MINE)(listeners.on_run_as_mine)
    app.action(RUN_AGAIN)(listeners.on_run_again)
    app.action(re.compile(f"^{DEEPEN}_"))(listeners.on_deepen)
    app.action(re.compile(f"^{FEEDBACK}_"))(listeners.on_feedback)  # older reports' buttons
    app.action(FEEDBACK_BUTTONS)(listeners.on_rating)
    app.action(CITATIONS)(listeners.on_citation)
    app.action(re.compile(f"^{CONSENT_ACTION}_"))(listeners.on_slack_search_consent)
    app.view(EDIT_VIEW)(listeners.on_edit_submitted)
    app.action(WATCH)(listeners.on_watch)
    app.action(ROUTINE)(listeners.on_routine)
    # A channel's data goes with it: its routines (bot.routines). The events carry the
    # channel's id (https://docs.slack.dev/reference/events/channel_deleted, /group_deleted:
    # a private channel).
    app.event("channel_deleted")(listeners.on_channel_gone)
    app.event("group_deleted")(listeners.on_channel_gone)
    agent = AsyncAssistant()
    agent.thread_started(listeners.on_assistant_thread)
    # Bolt's default saves the channel the user is viewing into the thread's first message
    # (conversations.replies + chat.update); Fonte does not use that context.
    agent.thread_context_changed(listeners.on_assistant_context)
    agent.user_message(listeners.on_assistant_message)
    app.use(agent)
    return app


class Listeners:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.locales = UserLocales()

    async def _enqueue(self, step: Step, origin: str) -> None:
        await self.rt.queue.step(step, origin)

    # -- messages ---------------------------------------------------------------------------

    async def on_mention(
        self, ack: AsyncAck, body: Payload, event: Payload, context: AsyncBoltContext
    ) -> None:
        await ack()
        if event.get("files"):
            return  # a file_share message: its message event brings the files and the text
        await self._route(event, f"event:{body.get('event_id') or event.get('ts')}", True)

    async def on_assistant_thread(
        self, body: Payload, event: Payload, client: AsyncWebClient
    ) -> None:
        """assistant_thread_started: remember the thread, greet the user and offer the
        templates as prompts, in the language of their Slack locale (both when unknown)."""
        thread = event.get("assistant_thread") or {}
        channel, thread_ts = str(thread.get("channel_id", "")), str(thread.get("thread_ts", ""))
        if not channel or not thread_ts:
            return
        await self.rt.states.mark_assistant_thread(channel, thread_ts)
        languages = await self.locales.languages(client, str(thread.get("user_id") or ""))
        await assistant.open_thread(self.rt.slack, channel, thread_ts, languages)

    async def on_home_opened(self, ack: AsyncAck, event: Payload, client: AsyncWebClient) -> None:
        """app_home_opened: with tab "messages", a user opened the DM of the agent
        messaging experience, which replaces assistant_thread_started there
        (https://docs.slack.dev/ai/migrating-to-agent-messaging/). The DM is remembered as
        the agent experience's, greeted the first time and offered the prompts."""
        await ack()
        channel = str(event.get("channel") or "")
        if event.get("tab") != "messages" or not channel:
            return  # the Home tab (home_tab_enabled is off) or no DM named
        try:
            first = await self.rt.states.mark_agent_dm(channel)
        except Exception as error:
            if not is_outage(error):
                raise
            log.warning("app_home_opened in %s: Redis is unreachable (%s)", channel, error)
            return
        languages = await self.locales.languages(client, str(event.get("user") or ""))
        await assistant.open_dm(self.rt.slack, channel, languages, first=first)

    async def on_session_stopped(self, ack: AsyncAck, body: Payload, event: Payload) -> None:
        """agent_session_stopped: the user pressed the stop button of a thread's agent
        session (https://docs.slack.dev/reference/events/agent_session_stopped). Its report
        is cancelled as the plan's Cancel does (the Cancel step: who may, the partial
        report); the session then leaves processing when the run ends."""
        await ack()
        channel, thread_ts = str(event.get("channel") or ""), str(event.get("thread_ts") or "")
        user = str(event.get("user") or "")
        if not channel or not thread_ts or not user:
            return
        report_id = await self.rt.states.by_thread(channel, thread_ts)
        if report_id is None:  # nothing of Fonte's runs there: the session ends
            await set_session(self.rt.slack, channel, thread_ts, "closed")
            return
        origin = f"event:{body.get('event_id') or event.get('event_ts')}"
        await self._enqueue(Cancel(report_id=report_id, user=user, channel=channel), origin)

    async def on_assistant_context(self, body: Payload) -> None:
        """assistant_thread_context_changed: nothing to do (acknowledged by Bolt)."""

    async def on_assistant_message(
        self, body: Payload, event: Payload, context: AsyncBoltContext
    ) -> None:
        """A user's message in a DM thread (an assistant thread or not): routed as any DM."""
        origin = f"event:{body.get('event_id') or event.get('ts')}"
        if _shared_by_user(event) and event.get("user") != context.bot_user_id:
            await self._share({**event, "channel_type": "im"}, origin, False)
            return
        if event.get("subtype") or event.get("bot_id") or not event.get("user"):
            return
        await self._route({**event, "channel_type": "im"}, origin, False)

    async def on_message(
        self, ack: AsyncAck, body: Payload, event: Payload, context: AsyncBoltContext
    ) -> None:
        await ack()
        if _shared_by_user(event) and event.get("user") != context.bot_user_id:
            mentioned = mentions(event.get("text", ""), context.bot_user_id)
            origin = f"event:{body.get('event_id') or event.get('ts')}"
            await self._share(event, origin, mentioned)
            return
        if event.get("subtype") or event.get("bot_id") or not event.get("user"):
            return
        is_dm = event.get("channel_type") == "im"
        if not is_dm and mentions(event.get("text", ""), context.bot_user_id):
            return  # app_mention brings the same message
        await self._route(event, f"event:{body.get('event_id') or event.get('ts')}", False)

    async def _share(self, event: Payload, origin: str, mentioned: bool) -> None:
        """Files a user shared (bot.conversation.shared_files), then what the text asks."""
        try:
            step = await share_step(self.rt, event, origin, mentioned)
        except Exception as error:
            await self._told_down(error, event, mentioned)
            return
        if step is not None:
            await self._enqueue(step, origin)

    async def _route(self, event: Payload, origin: str, mentioned: bool) -> None:
        try:
            step = await step_for_message(self.rt, event, origin, mentioned)
        except Exception as error:
            await self._told_down(error, event, mentioned)
            return
        if step is not None:
            await self._enqueue(step, origin)

    async def _told_down(self, error: Exception, event: Payload, mentioned: bool) -> None:
        """Redis failed while a message was read (which report its thread is, the files it
        shares), before anything was handed on: its sender, when it spoke to the bot, is told
        in one line with a button to ask again, as for a request Redis refused. Any other
        error is raised again."""
        if not is_outage(error):
            raise error
        channel = str(event.get("channel", ""))
        is_dm = in_dm(event)
        log.warning("a message in %s: Redis is unreachable (%s); not read", channel, error)
        if not channel or not (mentioned or is_dm):
            return
        question = strip_mentions(str(event.get("text") or ""))
        thread_ts = event.get("thread_ts") or (None if is_dm else event.get("ts"))
        brief = LostBrief(channel, thread_ts, question, None, detect_language(question), is_dm)
        await tell_brief(self.rt, brief, refused=True)

    async def on_research(self, ack: AsyncAck, command: Payload) -> None:
        parsed = parse_research_command(str(command.get("text", "")))
        language = parsed.language
        if parsed.help:
            message = help_message(language)
            await ack(text=message.text, blocks=message.blocks, response_type="ephemeral")
            return
        channel = str(command["channel_id"])
        if parsed.watch_usage:
            await ack(text=words_for(language).routines.watch_usage, response_type="ephemeral")
            return
        if parsed.routines:
            await ack()
            step = ListRoutines(channel=channel, user=str(command["user_id"]), language=language)
            await self._enqueue(step, f"command:{command.get('trigger_id')}")
            return
        await ack(text=f"{texts_for(language).researching} {parsed.question}")
        ask = Ask(
            origin=f"command:{command.get('trigger_id')}",
            channel=channel,
            thread_ts=None,
            user=str(command["user_id"]),
            text=parsed.question,
            is_dm=channel.startswith("D") or command.get("channel_name") == "directmessage",
            template=parsed.template,
            response_url=command.get("response_url"),
            language=language,
            watch=parsed.watch,
        )
        await self._enqueue(ask, ask.origin)

    # -- buttons ----------------------------------------------------------------------------

    async def _stale(self, body: Payload) -> None:
        """A button whose value names no report: say so, to its presser only."""
        step = Say(channel=channel_of(body), user=body["user"]["id"], what="stale_button")
        await self._enqueue(step, action_origin(body))

    async def on_answer(self, ack: AsyncAck, body: Payload) -> None:
        await ack()
        report_id = report_of(body)
        if report_id is None:
            await self._stale(body)
            return
        value = action_value(body)
        step = Answer(
            report_id=report_id,
            user=body["user"]["id"],
            question=int(value.get("q", 0)),
            option=int(value.get("o", -1)),
            channel=channel_of(body),
        )
        await self._enqueue(step, action_origin(body))

    async def on_start(self, ack: AsyncAck, body: Payload) -> None:
        await ack()
        report_id = report_of(body)
        if report_id is None:
            await self._stale(body)
            return
        step = Start(report_id=report_id, user=body["user"]["id"], channel=channel_of(body))
        await self._enqueue(step, action_origin(body))

    async def on_cancel(self, ack: AsyncAck, body: Payload) -> None:
        await ack()
        report_id = report_of(body)
        if report_id is None:
            await self._stale(body)
            return
        step = Cancel(report_id=report_id, user=body["user"]["id"], channel=channel_of(body))
        await self._enqueue(step, action_origin(body))

    async def on_deepen(self, ack: AsyncAck, body: Payload) -> None:
        await ack()
        report_id, gap = report_of(body), str(action_value(body).get("gap", "")).strip()
        if report_id is None or not gap:
            await self._stale(body)
            return
        step = Deepen(
            report_id=report_id, user=body["user"]["id"], gap=gap, channel=channel_of(body)
        )
        await self._enqueue(step, action_origin(body))

    async def on_feedback(self, ack: AsyncAck, body: Payload) -> None:
        await ack()
        value = action_value(body)
        report_id, rating = report_of(body), value.get("f")
        if report_id is None or rating not in ("up", "down"):
            await self._stale(body)
            return
        step = Rate(
            report_id=report_id,
            user=body["user"]["id"],
            version=int(value.get("v", 1)),
            rating=rating,
            channel=channel_of(body),
        )
        await self._enqueue(step, action_origin(body))

    async def on_rating(self, ack: AsyncAck, body: Payload) -> None:
        """Slack's native feedback buttons (context_actions): the same Rate step."""
        pressed = feedback_pressed(body["actions"][0], FEEDBACK_BUTTONS) or {}
        action = {**body["actions"][0], "value": json.dumps(pressed)}
        await self.on_feedback(ack, {**body, "actions": [action]})

    async def on_slack_search_consent(self, ack: AsyncAck, body: Payload) -> None:
        """The requester's answer to the offer to search Slack as them: kept at once (one
        Redis write), then told back to them alone."""
        await ack()
        chosen = action_value(body)
        user, allowed = body["user"]["id"], chosen.get("a") == 1
        await keep_answer(self.rt, user, allowed)
        message = body.get("message") or {}
        thread_ts = message.get("thread_ts") or body.get("container", {}).get("thread_ts")
        step = Say(
            channel=channel_of(body),
            user=user,
            thread_ts=str(thread_ts) if thread_ts else None,
            what="slack_search_allowed" if allowed else "slack_search_declined",
            language="en" if chosen.get("l") == "en" else "pt",
        )
        await self._enqueue(step, action_origin(body))

    async def on_citation(self, ack: AsyncAck, body: Payload) -> None:
        """A citation picked in a report's select: its excerpt modal, as its button opens."""
        action = {**body["actions"][0], "value": selected_value(body["actions"][0])}
        await self.on_excerpt(ack, {**body, "actions": [action]})

    async def on_edit(self, ack: AsyncAck, body: Payload) -> None:
        await ack()
        await open_plan_editor(self.rt, body)

    async def on_run_as_mine(self, ack: AsyncAck, body: Payload) -> None:
        """ "Run this brief as mine": the same question and template, as the clicker's."""
        await ack()
        report_id = report_of(body)
        if report_id is None:
            await self._stale(body)
            return
        step = await run_as_mine(self.rt, body, report_id)
        if step is not None:
            await self._enqueue(step, step.origin)

    async def on_run_again(self, ack: AsyncAck, body: Payload) -> None:
        """The button under a report Redis lost: the same brief, asked again."""
        await ack()
        step = run_again(body)
        await (self._stale(body) if step is None else self._enqueue(step, step.origin))

    async def on_export(self, ack: AsyncAck, body: Payload) -> None:
        """The report message's Files button: that version's files again, in the thread."""
        await ack()
        report_id = report_of(body)
        if report_id is None:
            await self._stale(body)
            return
        version = action_value(body).get("v")
        message = body.get("message") or {}
        thread_ts = message.get("thread_ts") or body.get("container", {}).get("thread_ts")
        step = Export(
            report_id=report_id,
            user=body["user"]["id"],
            version=int(version) if version else None,
            channel=channel_of(body),
            thread_ts=str(thread_ts or message.get("ts") or "") or None,
        )
        await self._enqueue(step, action_origin(body))

    async def on_watch(self, ack: AsyncAck, body: Payload) -> None:
        """A report's Watch button (asks how often), or a frequency chosen under it."""
        await ack()
        report_id = report_of(body)
        frequency = frequency_named(str(action_value(body).get("f") or ""))
        if report_id is None:
            await self._stale(body)
            return
        step = Watch(
            report_id=report_id,
            user=body["user"]["id"],
            channel=channel_of(body),
            frequency=frequency,
        )
        await self._enqueue(step, action_origin(body))

    async def on_routine(self, ack: AsyncAck, body: Payload) -> None:
        """A routine's button in `/research routines`."""
        await ack()
        value = action_value(body)
        routine_id, action = str(value.get("i") or ""), _ROUTINE_ACTIONS.get(str(value.get("a")))
        if not routine_id or action is None:
            await self._stale(body)
            return
        step = SteerRoutine(
            routine_id=routine_id, user=body["user"]["id"], channel=channel_of(body), action=action
        )
        await self._enqueue(step, action_origin(body))

    async def on_channel_gone(self, body: Payload, event: Payload) -> None:
        """A channel deleted: its routines, their history and its spend go (ForgetChannel)."""
        channel = event.get("channel")
        channel_id = channel.get("id") if isinstance(channel, dict) else channel
        if channel_id:
            step = ForgetChannel(channel=str(channel_id))
            await self._enqueue(step, f"event:{body.get('event_id') or channel_id}")

    async def on_excerpt(self, ack: AsyncAck, body: Payload) -> None:
        await ack()
        step = await open_excerpt(self.rt, body)
        if step is not None:
            await self._enqueue(step, f"view:{step.view_id}:page")

    # -- modal ------------------------------------------------------------------------------

    async def on_edit_submitted(self, ack: AsyncAck, body: Payload, view: Payload) -> None:
        report_id = str(view.get("private_metadata", ""))
        state = await self.rt.states.get(report_id)
        language = state.language if state is not None else "en"
        read = read_edit_plan(view, language)
        if isinstance(read, dict):
            await ack(response_action="errors", errors=read)
            return
        await ack()
        subquestions, limits = read
        step = EditPlan(
            report_id=report_id, user=body["user"]["id"], subquestions=subquestions, limits=limits
        )
        await self._enqueue(step, f"view:{view.get('id')}:{view.get('hash')}")


def _shared_by_user(event: Payload) -> bool:
    """A `file_share` message of a person (https://docs.slack.dev/reference/events/message/
    file_share); the bot's own uploads (files_upload_v2 into a thread) carry its bot_id."""
    return (
        event.get("subtype") == "file_share"
        and not event.get("bot_id")
        and bool(event.get("user"))
        and bool(event.get("files"))
    )
