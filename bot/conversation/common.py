"""Helpers every conversation step uses: the brief of a state, the plan's estimate, the
state a step acts on (telling the user when there is none, or it is not theirs to act on or
to steer), atomic transitions, and short replies only the user sees."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from bot.redis.state import Change, ReportState
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS
from bot.slack.blockkit import Block
from bot.slack.blocks import Estimate, plan_message, steer_refusal
from bot.slack.texts import texts_for
from engine import Brief, Limits, Plan


def report_id_for(origin: str) -> str:
    return hashlib.sha256(origin.encode()).hexdigest()[:16]


def brief_of(state: ReportState) -> Brief:
    return Brief(
        question=state.question,
        language=state.language,
        template=state.template,
        answers=tuple(a for a in state.answers if a),
        context=state.context,
    )


def estimate_run(plan: Plan, limits: Limits, rt: Runtime) -> Estimate:
    """Subagents run in parallel: time is about one subagent's steps, twice with a gap
    round, plus planning and writing; money is the writer's price per subagent and report."""
    steps = rt.settings.subagent_max_steps * 2 + 2
    seconds = min(limits.seconds, steps * rt.settings.seconds_per_step)
    usd = min(limits.usd, rt.model.write_cost_estimate_usd * (len(plan.subquestions) + 1))
    return Estimate(minutes=seconds / 60, usd=usd)


async def whisper(
    rt: Runtime,
    channel: str,
    user: str,
    text: str,
    thread_ts: str | None = None,
    blocks: Sequence[Block] | None = None,
) -> None:
    """A reply only `user` sees; best effort (a refused ephemeral must not fail the step)."""
    if not channel:
        return
    try:
        await rt.slack.post_ephemeral(channel, user, text, thread_ts=thread_ts, blocks=blocks)
    except DELIVERY_ERRORS:
        return


async def reply(rt: Runtime, state: ReportState, user: str, text: str) -> None:
    await whisper(rt, state.channel, user, text, state.thread_ts)


async def refuse_steering(rt: Runtime, state: ReportState, user: str, channel: str = "") -> None:
    """Someone else's Start / Edit / Cancel: one line, and a button to run the brief as theirs."""
    message = steer_refusal(state.report_id, state.language)
    await whisper(rt, channel or state.channel, user, message.text, state.thread_ts, message.blocks)


async def state_to_act_on(
    rt: Runtime, report_id: str, user: str, channel: str = "", *, steer: bool = False
) -> ReportState | None:
    """The report a button or follow-up acts on. None, after telling the user, when it is
    gone (expired, or a value that names no report) or when `user` may not act on it; with
    `steer` (Start, Edit, Cancel), when `user` may not steer it (`ReportState.may_steer`)."""
    state = await rt.states.get(report_id) if report_id else None
    if state is None:
        await whisper(rt, channel, user, texts_for("pt").not_found)
        return None
    if not state.may_act(user):
        await reply(rt, state, user, texts_for(state.language).not_yours)
        return None
    if steer and not state.may_steer(user, rt.settings.slack_admins):
        await refuse_steering(rt, state, user, channel)
        return None
    return state


def transition(expected: tuple[str, ...], **changes: object) -> tuple[list[ReportState], Change]:
    """A state change applied only from one of the `expected` statuses; the list receives the
    state before the change when it happened (so a replayed step does nothing)."""
    happened: list[ReportState] = []

    def change(current: ReportState) -> ReportState | None:
        if current.status not in expected:
            return None
        happened.append(current)
        return current.model_copy(update=changes)

    return happened, change


async def close_plan(rt: Runtime, state: ReportState, footer: str) -> None:
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


Relevant = Callable[[ReportState], bool]
