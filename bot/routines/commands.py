"""What people do with routines in Slack: make one from a report (its Watch button, or
`/research watch FREQUENCY QUESTION`), list a channel's (`/research routines`), pause,
resume, change the frequency or delete one (the requester's and the admins' only), and
forget a channel's when its data goes.

A routine made from a report has that report as its first run: the period it is made in is
claimed at once, and the next run is the next period's (bot.routines.schedule)."""

from __future__ import annotations

import logging

from bot.conversation.common import whisper
from bot.redis.state import ReportState
from bot.routines.notices import frequency_word, how_often, routine_list, when, words
from bot.routines.schedule import FREQUENCIES, Frequency, month_of, period_of
from bot.routines.store import Routine, RunRecord
from bot.runtime import Runtime
from bot.slack.admins import is_admin
from bot.slack.texts import texts_for
from bot.steps import ForgetChannel, ListRoutines, SteerRoutine, Watch

__all__ = ["forget_channel", "list_routines", "make_routine", "steer_routine", "watch"]

log = logging.getLogger(__name__)


_FREQUENCY_OF: dict[str, Frequency] = {f: f for f in FREQUENCIES}


def routine_of(state: ReportState, frequency: Frequency, rt: Runtime) -> Routine:
    """The routine `state`'s report becomes: its brief, template, plan, place and requester;
    this period's run is that report."""
    now = rt.now()
    period = period_of(frequency, now)
    return Routine(
        routine_id=state.report_id,
        channel=state.channel,
        thread_ts=state.thread_ts,
        requester=state.requester,
        is_dm=state.is_dm,
        question=state.question,
        language=state.language,
        template=state.template,
        frequency=frequency,
        report_id=state.report_id,
        plan=state.plan,
        created_at=now,
        claimed_at=now,
        period=period,
        done=period,
        last=RunRecord(period=period, result="first", at=now),
        version=max(1, state.reported),
    )


async def make_routine(rt: Runtime, state: ReportState, frequency: Frequency, user: str) -> None:
    """Make `state`'s report a routine and say so in its thread (once: a report is watched
    by one routine, and pressing again says how it is watched)."""
    routine = routine_of(state, frequency, rt)
    w = words(state.language)
    if not await rt.routines.create(routine):
        existing = await rt.routines.get(routine.routine_id)
        shown = frequency_word(w, existing.frequency if existing else frequency)
        await whisper(rt, state.channel, user, w.already.format(frequency=shown), state.thread_ts)
        return
    if routine.last is not None:
        await rt.routines.record(routine.routine_id, routine.last)
    if state.reported >= 1:  # kept with the routine: the report's own retention is shorter
        report = await rt.states.load_report(state.report_id, state.reported)
        if report is not None:
            await rt.routines.save_baseline(routine.routine_id, report)
    line = w.created.format(
        question=state.question,
        frequency=frequency_word(w, frequency),
        next=when(routine.next_run),
    )
    await whisper(rt, state.channel, user, line, state.thread_ts)


async def watch(rt: Runtime, step: Watch) -> None:
    """The Watch button (asks how often), or a frequency chosen under it."""
    state = await rt.states.get(step.report_id)
    if state is None:
        await whisper(rt, step.channel, step.user, texts_for("pt").not_found)
        return
    if not state.may_act(step.user):
        await whisper(rt, state.channel, step.user, texts_for(state.language).not_yours)
        return
    if step.frequency is None:
        message = how_often(state.report_id, state.language)
        await whisper(rt, state.channel, step.user, message.text, state.thread_ts, message.blocks)
        return
    await make_routine(rt, state, step.frequency, step.user)


async def list_routines(rt: Runtime, step: ListRoutines) -> None:
    now = rt.now()
    routines = await rt.routines.of_channel(step.channel)
    spent = await rt.routines.spent(step.channel, month_of(now))
    message = routine_list(routines, step.language, now, spent, rt.settings.routine_monthly_usd)
    await whisper(rt, step.channel, step.user, message.text, blocks=message.blocks)


async def steer_routine(rt: Runtime, step: SteerRoutine) -> None:
    """Pause, resume, a new frequency or delete: the requester's and the admins' only."""
    routine = await rt.routines.get(step.routine_id)
    if routine is None:
        await whisper(rt, step.channel, step.user, words("pt").not_found)
        return
    w = words(routine.language)
    admin = step.user != routine.requester and await is_admin(
        rt.web_client, step.user, rt.settings.slack_admins
    )
    if not routine.may_change(step.user, {step.user} if admin else ()):
        await whisper(rt, routine.channel, step.user, w.not_yours, routine.thread_ts)
        return
    question = routine.question
    if step.action == "delete":
        if await rt.routines.delete(routine.routine_id):
            said = w.deleted.format(question=question, user=step.user)
            await whisper(rt, routine.channel, step.user, said, routine.thread_ts)
        return
    if step.action in ("pause", "resume"):
        paused = step.action == "pause"
        updated, changed = await rt.routines.update(
            routine.routine_id,
            lambda r: (
                None
                if r.paused == paused
                else r.model_copy(update={"paused": paused, "failures": 0, "told_paused": False})
            ),
        )
        said = (w.paused if paused else w.resumed).format(question=question, user=step.user)
    else:
        frequency = _FREQUENCY_OF[step.action]
        updated, changed = await rt.routines.update(
            routine.routine_id,
            lambda r: (
                None if r.frequency == frequency else r.model_copy(update={"frequency": frequency})
            ),
        )
        said = w.frequency_changed.format(
            question=question, frequency=frequency_word(w, frequency), user=step.user
        )
    if updated is not None and changed:
        await whisper(rt, routine.channel, step.user, said, routine.thread_ts)


async def forget_channel(rt: Runtime, step: ForgetChannel) -> None:
    removed = await rt.routines.forget_channel(step.channel)
    if removed:
        log.info("channel %s: its data went; %d routine(s) removed", step.channel, removed)
