"""The conversation: brief -> clarifying questions -> plan -> Start / Edit / Cancel, and
follow-ups that deepen a delivered report. Each step runs as a job (or a task when embedded);
each is safe to run twice, because state changes are transitions checked atomically."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from slack_sdk.errors import SlackApiError

from bot.redis.state import Change, ReportState
from bot.runtime import Runtime
from bot.slack.blockkit import Message
from bot.slack.blocks import Estimate, answered_questions, clarifying_questions, plan_message
from bot.slack.texts import texts_for
from bot.steps import Answer, Ask, Cancel, Deepen, EditPlan, Start, Step
from engine.budget import Meter
from engine.contracts import ClarifyingQuestion, Limits, Plan, Subquestion
from engine.models.protocol import Brief
from engine.planning.briefs import make_brief, single_question_plan
from engine.planning.gaps import criterion_for, gap_question
from engine.planning.templates import find_template, topic_of
from engine.settings import BadInput

# What chat.postMessage answers in a channel the bot was not invited to.
_NOT_A_MEMBER = {"not_in_channel", "channel_not_found"}

log = logging.getLogger(__name__)

MAX_QUESTIONS = 3


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


def report_id_for(origin: str) -> str:
    return hashlib.sha256(origin.encode()).hexdigest()[:16]


def brief_of(state: ReportState) -> Brief:
    return Brief(
        question=state.question,
        language=state.language,
        template=state.template,
        answers=tuple(a for a in state.answers if a),
    )


def needs_clarifying(brief: Brief) -> bool:
    """A fixed-section template already says what to cover: ask only when the subject itself
    is unclear (a word or two)."""
    if brief.template is None or not find_template(brief.template).aspects:
        return True
    return len(topic_of(brief.question).split()) < 2


def estimate_run(plan: Plan, limits: Limits, rt: Runtime) -> Estimate:
    """Subagents run in parallel: time is about one subagent's steps, twice with a gap
    round, plus planning and writing; money is the writer's price per subagent and report."""
    steps = rt.settings.subagent_max_steps * 2 + 2
    seconds = min(limits.seconds, steps * rt.settings.seconds_per_step)
    usd = min(limits.usd, rt.model.write_cost_estimate_usd * (len(plan.subquestions) + 1))
    return Estimate(minutes=seconds / 60, usd=usd)


async def _meter(rt: Runtime, state: ReportState, scope: str) -> Meter:
    context = await rt.stores.open(state.report_id, state.limits, scope)
    return Meter(context.budget)


async def _state_to_act_on(
    rt: Runtime,
    report_id: str,
    user: str,
    relevant: Callable[[ReportState], bool] = lambda state: True,
) -> ReportState | None:
    """The report a button or follow-up acts on: None when it is gone or the step no longer
    applies, and None (after telling them) when `user` may not act on it."""
    state = await rt.states.get(report_id)
    if state is None or not relevant(state):
        return None
    if not state.may_act(user):
        await _refuse(rt, state, user, texts_for(state.language).not_yours)
        return None
    return state


async def _refuse(rt: Runtime, state: ReportState, user: str, text: str) -> None:
    await rt.slack.post_ephemeral(state.channel, user, text, thread_ts=state.thread_ts)


async def ask(rt: Runtime, step: Ask) -> None:
    try:
        brief = make_brief(step.text, template=step.template)
    except BadInput as error:
        await rt.slack.post_ephemeral(
            step.channel, step.user, f":warning: {error}", thread_ts=step.thread_ts
        )
        return
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
        limits=rt.settings.limits,
    )
    if not await rt.states.create(state):
        return
    await rt.states.link_thread(step.channel, thread_ts, report_id)
    questions = await _clarify(rt, state, brief) if needs_clarifying(brief) else []
    if not questions:
        await post_plan(rt, report_id)
        return
    # State first, message second: an answer may arrive the moment the message shows.
    if step.is_dm:
        await rt.states.set_dm_open(step.channel, report_id)
    await rt.states.update(
        report_id,
        lambda s: s.model_copy(update={"questions": questions, "answers": [""] * len(questions)}),
    )
    ts = await rt.slack.post(
        step.channel, clarifying_questions(report_id, questions, brief.language), thread_ts
    )
    await rt.states.update(report_id, lambda s: s.model_copy(update={"questions_ts": ts}))


async def _clarify(rt: Runtime, state: ReportState, brief: Brief) -> list[ClarifyingQuestion]:
    try:
        questions = await rt.model.clarify(brief, await _meter(rt, state, "clarify"))
    except Exception as failure:  # no questions is a fine answer: plan from the brief
        log.warning("clarify failed for %s: %s", state.report_id, failure)
        return []
    return questions[:MAX_QUESTIONS]


async def post_plan(rt: Runtime, report_id: str) -> None:
    state = await rt.states.get(report_id)
    if state is None:
        return
    brief = brief_of(state)
    try:
        plan = await rt.model.plan(brief, await _meter(rt, state, "plan"))
    except Exception as failure:
        log.warning("planning failed for %s: %s", report_id, failure)
        plan = single_question_plan(brief)
    await rt.states.update(
        report_id, lambda s: s.model_copy(update={"plan": plan, "status": "planned"})
    )
    message = plan_message(
        report_id, plan, state.limits, estimate_run(plan, state.limits, rt), state.language
    )
    ts = await rt.slack.post(state.channel, message, state.thread_ts)
    await rt.states.update(report_id, lambda s: s.model_copy(update={"plan_ts": ts}))
    if state.is_dm:
        await rt.states.set_dm_open(state.channel, None)


async def answer(rt: Runtime, step: Answer) -> None:
    state = await _state_to_act_on(
        rt, step.report_id, step.user, lambda s: s.status == "clarifying"
    )
    if state is None:
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
        return current.model_copy(update={"answers": answers, "status": status})

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


def _transition(expected: tuple[str, ...], **changes: object) -> tuple[list[ReportState], Change]:
    """A state change applied only from one of the `expected` statuses; the list receives the
    state before the change when it happened (so a replayed step does nothing)."""
    happened: list[ReportState] = []

    def change(current: ReportState) -> ReportState | None:
        if current.status not in expected:
            return None
        happened.append(current)
        return current.model_copy(update=changes)

    return happened, change


async def start(rt: Runtime, step: Start) -> None:
    state = await _state_to_act_on(rt, step.report_id, step.user, lambda s: s.plan is not None)
    if state is None:
        return
    happened, change = _transition(("planned",), status="running", cancel_reason=None)
    await rt.states.update(step.report_id, change)
    if not happened:
        return
    await _close_plan(rt, state, texts_for(state.language).started_by.format(user=step.user))
    await rt.queue.run_report(state.report_id, state.version)


async def _close_plan(rt: Runtime, state: ReportState, footer: str) -> None:
    """The plan message without its buttons, saying who chose what."""
    if state.plan is None or state.plan_ts is None:
        return
    message = plan_message(
        state.report_id,
        state.plan,
        state.limits,
        estimate_run(state.plan, state.limits, rt),
        state.language,
        footer=footer,
    )
    await rt.slack.update(state.channel, state.plan_ts, message)


async def cancel(rt: Runtime, step: Cancel) -> None:
    state = await _state_to_act_on(rt, step.report_id, step.user)
    if state is None:
        return
    t = texts_for(state.language)
    why = t.cancelled_by.format(user=step.user)
    happened, change = _transition(("clarifying", "planned"), status="cancelled")
    await rt.states.update(step.report_id, change)
    if happened:
        await _close_plan(rt, state, why)
        if state.is_dm:
            await rt.states.set_dm_open(state.channel, None)
        return
    happened, change = _transition(("running",), cancel_reason=why)
    await rt.states.update(step.report_id, change)
    if happened and happened[0].cancel_reason is None:
        await rt.slack.post(state.channel, Message(t.cancelling), state.thread_ts)


async def edit_plan(rt: Runtime, step: EditPlan) -> None:
    state = await _state_to_act_on(
        rt, step.report_id, step.user, lambda s: s.plan is not None and s.status == "planned"
    )
    if state is None or state.plan is None:
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
    happened, change = _transition(("planned",), plan=plan, limits=step.limits)
    updated = await rt.states.update(step.report_id, change)
    if not happened or updated is None:
        return
    await rt.stores.set_limits(step.report_id, step.limits)
    if updated.plan_ts is not None:
        message = plan_message(
            updated.report_id,
            plan,
            step.limits,
            estimate_run(plan, step.limits, rt),
            state.language,
        )
        await rt.slack.update(updated.channel, updated.plan_ts, message)


async def deepen(rt: Runtime, step: Deepen) -> None:
    state = await _state_to_act_on(rt, step.report_id, step.user)
    if state is None:
        return
    t = texts_for(state.language)
    if state.status != "done" or state.plan is None:
        if state.status == "running":
            await _refuse(rt, state, step.user, t.busy)
        return
    question = gap_question(step.gap)
    version = state.version + 1
    subquestion = Subquestion(id=f"d{version}", text=question, title=question[:120])
    plan = state.plan.model_copy(
        update={
            "subquestions": [*state.plan.subquestions, subquestion],
            "sufficient_when": [
                *state.plan.sufficient_when,
                criterion_for(subquestion, state.language),
            ],
        }
    )
    happened, change = _transition(
        ("done",),
        status="running",
        version=version,
        plan=plan,
        research=[subquestion.id],
        cancel_reason=None,
    )
    await rt.states.update(step.report_id, change)
    if not happened or happened[0].version != state.version:
        return
    context = await rt.stores.open(state.report_id, state.limits, f"v{version}:top-up")
    await context.budget.extend(rt.settings.top_up)
    notice = t.deepening.format(version=version, gap=question)
    await rt.slack.post(state.channel, Message(notice), state.thread_ts)
    await rt.queue.run_report(state.report_id, version)
