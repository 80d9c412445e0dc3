"""The conversation: brief -> clarifying questions -> plan -> Start / Edit / Cancel, and
follow-ups that deepen a delivered report. Each step runs as a job (or a task when embedded);
each is safe to run twice, because state changes are transitions checked atomically."""

from __future__ import annotations

import logging
from dataclasses import replace

from slack_sdk.errors import SlackApiError

from bot.conversation.common import (
    brief_of,
    close_plan,
    estimate_run,
    reply,
    report_id_for,
    state_to_act_on,
    transition,
    whisper,
)
from bot.conversation.excerpt_page import show_page
from bot.conversation.export import export
from bot.conversation.followups import cancel, deepen, out_of_turn, rate, say_to_user
from bot.conversation.shared_files import share_files
from bot.conversation.slack_search_consent import offer_slack_search
from bot.conversation.thread_context import conversation_context
from bot.redis.state import ReportState
from bot.routines.commands import (
    forget_channel,
    list_routines,
    make_routine,
    steer_routine,
    watch,
)
from bot.runtime import Runtime
from bot.slack import assistant
from bot.slack.agent_session import session_title, set_session
from bot.slack.blockkit import Message
from bot.slack.blocks import answered_questions, clarifying_questions, plan_message
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
    Say,
    ShareFiles,
    ShowPage,
    Start,
    SteerRoutine,
    Step,
    Watch,
)
from engine import MAX_CLARIFYING_QUESTIONS, Brief, ClarifyingQuestion, Meter, Subquestion
from engine.planning import (
    MAX_QUESTION_CHARS,
    criterion_for,
    find_template,
    make_brief,
    single_question_plan,
    topic_of,
)
from engine.text import collapse_whitespace, detect_language

# What chat.postMessage answers in a channel the bot was not invited to.
_NOT_A_MEMBER = {"not_in_channel", "channel_not_found"}

log = logging.getLogger(__name__)


__all__ = ["brief_of", "estimate_run", "handle_step", "report_id_for"]


async def handle_step(rt: Runtime, step: Step) -> None:
    match step:
        case Ask():
            await ask(rt, step)
        case Answer():
            await answer(rt, step)
        case Start():
            await start(rt, step)
        case Cancel():
            await cancel(rt, step)
        case EditPlan():
            await edit_plan(rt, step)
        case Deepen():
            await deepen(rt, step)
        case Rate():
            await rate(rt, step)
        case Say():
            await say_to_user(rt, step)
        case ShowPage():
            await show_page(rt, step)
        case Export():
            await export(rt, step)
        case ShareFiles():
            await share_files(rt, step)  # the files first: what the text asks then sees them
            if step.then is not None:
                await handle_step(rt, step.then)
        case Watch():
            await watch(rt, step)
        case ListRoutines():
            await list_routines(rt, step)
        case SteerRoutine():
            await steer_routine(rt, step)
        case ForgetChannel():
            await forget_channel(rt, step)


def needs_clarifying(brief: Brief) -> bool:
    """A fixed-section template already says what to cover: ask only when the subject itself
    is unclear (a word or two)."""
    if brief.template is None or not find_template(brief.template).aspects:
        return True
    return len(topic_of(brief.question).split()) < 2


async def _meter(rt: Runtime, state: ReportState, scope: str) -> Meter:
    context = await rt.stores.open(state.report_id, state.limits, scope)
    return Meter(context.budget)


def _question_problem(step: Ask) -> str | None:
    """Why the question cannot be researched, in the user's language; None when it can."""
    text = collapse_whitespace(step.text)
    t = texts_for(step.language or detect_language(text))
    if not text:
        return t.question_empty
    if len(text) > MAX_QUESTION_CHARS:
        return t.question_too_long.format(length=f"{len(text):,}", limit=f"{MAX_QUESTION_CHARS:,}")
    return None


async def ask(rt: Runtime, step: Ask) -> None:
    problem = _question_problem(step)
    if problem is not None:
        await whisper(rt, step.channel, step.user, problem, step.thread_ts)
        return
    brief = make_brief(step.text, template=step.template, language=step.language)
    report_id = report_id_for(step.origin)
    if await rt.states.get(report_id) is not None:
        return  # a replayed job: this brief is under way
    thread_ts = step.thread_ts
    if thread_ts is None:  # a slash command has no message to thread under: post one
        asked = texts_for(brief.language).asked_by.format(user=step.user, question=brief.question)
        try:
            thread_ts = await rt.slack.post(step.channel, Message(asked))
        except SlackApiError as error:
            if error.response.get("error") not in _NOT_A_MEMBER or not step.response_url:
                raise
            await rt.slack.respond(step.response_url, texts_for(brief.language).not_in_channel)
            return
    state = ReportState(
        report_id=report_id,
        channel=step.channel,
        thread_ts=thread_ts,
        requester=step.user,
        is_dm=step.is_dm,
        question=brief.question,
        language=brief.language,
        template=brief.template,
        limits=rt.settings.limits_for(brief.template),
        assistant=step.assistant,
        agent=step.agent,
        follows=step.follows,
        context=await conversation_context(rt, step),
        action_token=step.action_token,
    )
    if not await rt.states.create(state):
        return
    await rt.states.link_thread(step.channel, thread_ts, report_id)
    await offer_slack_search(rt, state)
    if step.watch is not None:  # `/research watch`: this report is the routine's first run
        await make_routine(rt, state, step.watch, step.user)
    if step.assistant:
        if step.follows is None:  # a follow-up keeps the thread's title
            await assistant.set_title(rt.slack, step.channel, thread_ts, brief.question)
        await assistant.planning(rt.slack, step.channel, thread_ts, brief.language)
    if step.agent:  # the session, titled on creation (a follow-up's already has its title)
        title = session_title(brief.question) if step.follows is None else None
        await set_session(rt.slack, step.channel, thread_ts, "processing", title)
        await assistant.planning(rt.slack, step.channel, thread_ts, brief.language)
    # A follow-up is asked with its thread's report in view: no clarifying round again.
    clarify = step.follows is None and needs_clarifying(brief)
    questions = await _clarify(rt, state) if clarify else []
    if not questions:
        await post_plan(rt, report_id)
        return
    # State first, message second: an answer may arrive the moment the message shows.
    happened, change = transition(
        ("clarifying",), questions=questions, answers=[""] * len(questions)
    )
    await rt.states.update(report_id, change)
    if not happened:  # cancelled while the questions were thought of
        return
    if step.is_dm:
        await rt.states.set_dm_open(step.channel, report_id)
    ts = await rt.slack.post(
        step.channel, clarifying_questions(report_id, questions, brief.language), thread_ts
    )
    await rt.states.update(report_id, lambda s: s.model_copy(update={"questions_ts": ts}))
    if step.agent:  # waiting for the user's answers
        await set_session(rt.slack, step.channel, thread_ts, "suspended")


async def _brief_told_sources(rt: Runtime, state: ReportState) -> Brief:
    """The report's brief with what its sources read, for the clarifier and the planner
    (asked before the orchestrator, which tells the rest); as it is when they cannot open."""
    brief, kind = brief_of(state), await rt.reads(state)
    return brief if kind is None else replace(brief, source=kind)


async def _clarify(rt: Runtime, state: ReportState) -> list[ClarifyingQuestion]:
    brief = await _brief_told_sources(rt, state)
    try:
        questions = await rt.model.clarify(brief, await _meter(rt, state, "clarify"))
    except Exception as failure:  # no questions is a fine answer: plan from the brief
        log.warning("clarify failed for %s: %s", state.report_id, failure)
        return []
    return questions[:MAX_CLARIFYING_QUESTIONS]


async def post_plan(rt: Runtime, report_id: str) -> None:
    state = await rt.states.get(report_id)
    if state is None:
        return
    brief = await _brief_told_sources(rt, state)
    try:
        plan = await rt.model.plan(brief, await _meter(rt, state, "plan"))
    except Exception as failure:
        log.warning("planning failed for %s: %s", report_id, failure)
        plan = single_question_plan(brief)
    # Only a brief still being planned gets its plan: one cancelled meanwhile (the agent
    # session's stop button shows while the plan is made) stays cancelled.
    happened, change = transition(("clarifying", "planned"), plan=plan, status="planned")
    await rt.states.update(report_id, change)
    if not happened:
        return
    message = plan_message(
        report_id, plan, state.limits, estimate_run(plan, state.limits, rt), state.language
    )
    ts = await rt.slack.post(state.channel, message, state.thread_ts)
    await rt.states.update(report_id, lambda s: s.model_copy(update={"plan_ts": ts}))
    if state.is_dm:
        await rt.states.set_dm_open(state.channel, None)
    if state.agent:  # waiting for Start
        await set_session(rt.slack, state.channel, state.thread_ts, "suspended")


async def answer(rt: Runtime, step: Answer) -> None:
    state = await rt.states.get(step.report_id)
    if state is None:
        return
    if state.status == "clarifying" and step.question is None and not step.text.strip():
        return
    if state.status != "clarifying":
        if step.question is not None:  # a clarifying button pressed after the questions
            await reply(rt, state, step.user, texts_for(state.language).stale_button)
        else:
            await out_of_turn(rt, state, step)
        return
    if not state.may_act(step.user):
        await reply(rt, state, step.user, texts_for(state.language).not_yours)
        return
    completed = False

    def record(current: ReportState) -> ReportState | None:
        nonlocal completed
        if current.status != "clarifying":
            return None
        answers = list(current.answers) + [""] * (len(current.questions) - len(current.answers))
        index = step.question
        if index is None or not 0 <= index < len(answers):
            index = next((n for n, a in enumerate(answers) if not a), None)
        if index is None:
            return None
        text = step.text
        if step.option is not None and step.question is not None:
            options = current.questions[index].options
            text = options[step.option] if 0 <= step.option < len(options) else text
        if not text.strip():
            return None
        answers[index] = text.strip()
        completed = all(answers)
        status = "planned" if completed else "clarifying"
        # Only the requester's own token: the search is made as them, never as whoever
        # answered in the channel.
        own = step.action_token and step.user == current.requester
        fresher = {"action_token": step.action_token} if own else {}
        return current.model_copy(update={"answers": answers, "status": status, **fresher})

    updated = await rt.states.update(step.report_id, record)
    if not completed or updated is None:
        return
    if updated.questions_ts is not None:
        await rt.slack.update(
            updated.channel,
            updated.questions_ts,
            answered_questions(updated.questions, updated.answers, updated.language),
        )
    await post_plan(rt, step.report_id)


async def start(rt: Runtime, step: Start) -> None:
    state = await state_to_act_on(rt, step.report_id, step.user, step.channel, steer=True)
    if state is None:
        return
    happened, change = transition(("planned",), status="running", cancel_reason=None)
    await rt.states.update(step.report_id, change)
    if not happened:
        await reply(rt, state, step.user, texts_for(state.language).already_started)
        return
    await close_plan(rt, state, texts_for(state.language).started_by.format(user=step.user))
    await rt.queue.enqueue_report(state.report_id, state.version)


async def edit_plan(rt: Runtime, step: EditPlan) -> None:
    state = await state_to_act_on(rt, step.report_id, step.user, steer=True)
    if state is None:
        return
    if state.plan is None or state.status != "planned":
        await reply(rt, state, step.user, texts_for(state.language).already_started)
        return
    titles = {s.text: s.title for s in state.plan.subquestions}
    subquestions = [
        Subquestion(id=f"s{n}", text=text, title=titles.get(text) or text[:120])
        for n, text in enumerate(step.subquestions, start=1)
    ]
    plan = state.plan.model_copy(
        update={
            "subquestions": subquestions,
            "sufficient_when": [criterion_for(s, state.language) for s in subquestions],
        }
    )
    # The modal edits the limits; the price they are measured against stays the report's.
    limits = step.limits.model_copy(update={"price_usd": state.limits.price_usd})
    happened, change = transition(("planned",), plan=plan, limits=limits)
    updated = await rt.states.update(step.report_id, change)
    if not happened or updated is None:
        return
    await rt.stores.set_limits(step.report_id, limits)
    if updated.plan_ts is not None:
        message = plan_message(
            updated.report_id, plan, limits, estimate_run(plan, limits, rt), state.language
        )
        await rt.slack.update(updated.channel, updated.plan_ts, message)
