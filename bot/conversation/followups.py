"""What can happen once a plan is on the table: cancel (before or during the run), deepen a
report into its next version, rate it, and a short answer to anything else that would
otherwise go unanswered (a new question in a report's thread, a stale button)."""

from __future__ import annotations

from bot.conversation.common import close_plan, reply, state_to_act_on, transition, whisper
from bot.redis.ratings import Rating, ratings_store
from bot.redis.state import Feedback, ReportState
from bot.runtime import Runtime
from bot.slack.agent_session import set_session
from bot.slack.blockkit import Message
from bot.slack.blocks import bot_gap_text
from bot.slack.texts import texts_for
from bot.steps import Answer, Cancel, Deepen, Rate, Say
from engine import Subquestion
from engine.planning import criterion_for, gap_question

BUSY = ("clarifying", "planned", "running", "delivering")


async def cancel(rt: Runtime, step: Cancel) -> None:
    state = await state_to_act_on(rt, step.report_id, step.user, step.channel, steer=True)
    if state is None:
        return
    t = texts_for(state.language)
    why = t.cancelled_by.format(user=step.user)
    happened, change = transition(("clarifying", "planned"), status="cancelled")
    await rt.states.update(step.report_id, change)
    if happened:
        await close_plan(rt, state, why)
        if state.is_dm:
            await rt.states.set_dm_open(state.channel, None)
        if state.agent:  # nothing runs in the thread any more
            await set_session(rt.slack, state.channel, state.thread_ts, "closed")
        return
    happened, change = transition(("running",), cancel_reason=why)
    await rt.states.update(step.report_id, change)
    if not happened:
        await reply(rt, state, step.user, t.nothing_to_cancel)
    elif happened[0].cancel_reason is None:
        await rt.slack.post(state.channel, Message(t.cancelling), state.thread_ts)


async def deepen(rt: Runtime, step: Deepen) -> None:
    state = await state_to_act_on(rt, step.report_id, step.user, step.channel or "")
    if state is None:
        return
    t = texts_for(state.language)
    if not state.deepenable or state.plan is None:
        why = (
            t.busy
            if state.status in BUSY
            else t.failed_not_deepenable
            if state.status == "failed"
            else t.not_deepenable
        )
        await reply(rt, state, step.user, why)
        return
    question = gap_question(bot_gap_text(step.gap))
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
    happened, change = transition(
        ("delivered", "delivery_failed", "cancelled"),
        status="running",
        version=version,
        plan=plan,
        research=[subquestion.id],
        cancel_reason=None,
    )
    await rt.states.update(step.report_id, change)
    if not happened or happened[0].version != state.version:
        return
    if state.status == "cancelled":  # the cancel stopped its budget: deepening lifts that
        await rt.stores.resume(state.report_id)
    context = await rt.stores.open(state.report_id, state.limits, f"v{version}:top-up")
    await context.budget.extend(rt.settings.top_up)
    notice = t.deepening.format(version=version, gap=question)
    await rt.slack.post(state.channel, Message(notice), state.thread_ts)
    await rt.queue.enqueue_report(state.report_id, version)


async def out_of_turn(rt: Runtime, state: ReportState, step: Answer) -> None:
    """A message in a report's thread that is no answer to a clarifying question, nor a new
    question routing could start (`bot.conversation.routing`): a message to the bot while
    the report's research is under way is told so (ask again once it is done); any other
    gets told what the thread is for; chatter between people is left alone."""
    if not step.mentioned:
        return
    t = texts_for(state.language)
    await reply(rt, state, step.user, t.busy if state.status in BUSY else t.thread_has_report)


async def rate(rt: Runtime, step: Rate) -> None:
    state = await state_to_act_on(rt, step.report_id, step.user, step.channel)
    if state is None:
        return
    t = texts_for(state.language)
    if step.version > state.reported:
        await reply(rt, state, step.user, t.stale_button)
        return
    feedback = Feedback(user=step.user, version=step.version, rating=step.rating)

    def record(current: ReportState) -> ReportState:
        kept = [
            f
            for f in current.feedback
            if not (f.user == feedback.user and f.version == feedback.version)
        ]
        return current.model_copy(update={"feedback": [*kept, feedback]})

    await rt.states.update(step.report_id, record)
    # Kept on its own too, for FONTE_RATINGS_DAYS: the report's state lapses much sooner.
    ratings = ratings_store(
        rt.redis, rt.keys, rt.settings.ratings_retention_seconds, owner=rt.states
    )
    await ratings.record(
        Rating(
            report_id=step.report_id,
            version=step.version,
            user=step.user,
            rating=step.rating,
            at=feedback.at,
            question=state.question,
            template=state.template,
        )
    )
    await reply(rt, state, step.user, t.feedback_thanks)


async def say_to_user(rt: Runtime, step: Say) -> None:
    text = getattr(texts_for(step.language), step.what)
    await whisper(rt, step.channel, step.user, str(text), step.thread_ts)
