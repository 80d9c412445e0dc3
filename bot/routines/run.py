"""Running routines on the workers: the schedule's tick and one period's run.

The tick (arq's cron, every minute, on every worker: bot.worker) walks the routines and
claims each due one for its new period in one atomic change of the routine (WATCH/MULTI:
of two workers ticking at once, one claims), then enqueues that period's run as a job named
after the routine and the period (arq takes one job per id). A routine claimed but whose
run never ended (its job lost with a Redis that restarted from an older file, say) is
enqueued again by the next tick under the same id. So a period runs at most once, and a
claimed period is not lost.

A run holds the run lease (bot.recovery.heartbeat) for its routine and period, so two
copies of its job never research at once; a worker killed mid-run lets the lease expire
and the job runs again on another worker (arq's in-progress lease, bot.worker), which finds
what the first one kept: the budget it reserved, the report it made (kept before it is
posted), the message it posted (found in the thread by its metadata) and the files.

A run reserves its budget (its template's price per run) against the channel's monthly cap
before it researches; one that does not fit does not run (`over_cap`), and its requester is
told once that month. It compares its report with the baseline (the last run's report, at
first the report the routine was made from: `engine.changes.with_changes`); no change posts
nothing and records `no_change`; changes post one message in the report's thread, and the
report's files below it. Three failed runs in a row pause the routine and tell its
requester once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from bot.conversation.delivery import posted_files, posted_marked, report_uploads
from bot.recovery.heartbeat import RunHeartbeat
from bot.redis.outage import REDIS_DOWN
from bot.report_runner import lead
from bot.routines.notices import ROUTINE_EVENT, changes_message, run_marker, words
from bot.routines.schedule import is_due, month_of, period_of
from bot.routines.store import Result, Routine, RunRecord
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS
from bot.slack.delivery import tell
from bot.sources.catalog import origins_marked
from engine import Brief, Report, unless_cancelled
from engine.assembly import Sources
from engine.changes import explain_gone, with_changes

__all__ = [
    "FAILURES_TO_PAUSE",
    "TICK_SECONDS",
    "give_up_routine",
    "run_id_of",
    "run_routine",
    "tick",
    "ticking",
]

log = logging.getLogger(__name__)

FAILURES_TO_PAUSE = 3
"""Failed runs in a row that pause a routine."""


TICK_SECONDS = 60.0
"""How often the embedded bot ticks (workers tick on arq's cron, every minute)."""


async def ticking(
    rt: Runtime,
    every: float = TICK_SECONDS,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """The embedded bot's schedule, which has no workers and no cron: `tick` at the
    runtime's clock every `every` seconds until cancelled; a tick that fails is logged and
    the next one comes."""
    while True:
        try:
            await tick(rt, rt.now())
        except Exception as error:
            unless_cancelled(error)
            log.exception("the routines' tick failed; the next one is in %.0f s", every)
        await sleep(every)


def run_id_of(routine_id: str, period: str) -> str:
    """The id one period's run keeps its lease, budget, board and snapshots under."""
    return f"routine-{routine_id}-{period}"


async def tick(rt: Runtime, now: datetime) -> list[tuple[str, str]]:
    """Claim every due routine for the period `now` falls in and enqueue its run; enqueue
    again a claimed run that never ended. The (routine, period) runs enqueued."""
    enqueued = []
    for routine in await rt.routines.every():
        if routine.paused:
            continue
        if routine.done != routine.period:
            enqueued.append((routine.routine_id, routine.period))
            continue
        if not is_due(routine.frequency, routine.claimed_at, now):
            continue
        period = period_of(routine.frequency, now)

        def claim(current: Routine, period: str = period) -> Routine | None:
            due = is_due(current.frequency, current.claimed_at, now)
            if current.paused or current.done != current.period or not due:
                return None  # another worker claimed it, or it changed meanwhile
            return current.model_copy(update={"period": period, "claimed_at": now})

        claimed, happened = await rt.routines.update(routine.routine_id, claim)
        if claimed is not None and happened:
            enqueued.append((routine.routine_id, period))
    for routine_id, period in enqueued:
        await rt.queue.enqueue_routine(routine_id, period)
    return enqueued


@dataclass(frozen=True)
class _Where:
    """Where a routine researches: its conversation (bot.sources.catalog.InConversation)."""

    channel: str
    thread_ts: str
    is_dm: bool


async def run_routine(rt: Runtime, routine_id: str, period: str) -> None:
    """One period's run; a no-op when that period ended, or is not the routine's claim."""

    async def unfinished() -> bool:
        current = await rt.routines.get(routine_id)
        return current is not None and current.period == period and current.done != period

    if not await unfinished():
        return
    heartbeat = RunHeartbeat(rt.leases, run_id_of(routine_id, period))
    if not await heartbeat.take(unfinished):
        return
    await heartbeat.while_held(_attempt(rt, routine_id, period))


async def give_up_routine(rt: Runtime, routine_id: str, period: str) -> None:
    """The run's job was started too often (its workers kept dying): a failed run."""
    routine = await rt.routines.get(routine_id)
    if routine is not None and routine.period == period and routine.done != period:
        await _end(rt, routine, period, "failed")


async def _attempt(rt: Runtime, routine_id: str, period: str) -> None:
    routine = await rt.routines.get(routine_id)
    if routine is None or routine.period != period or routine.done == period:
        return
    run_id = run_id_of(routine_id, period)
    where = _Where(routine.channel, routine.thread_ts or "", routine.is_dm)
    sources = await rt.sources_for(where, fresh=True)
    report = await rt.routines.run_report(routine_id, period)
    if report is None:
        limits = rt.settings.limits_for(routine.template)
        month = month_of(routine.claimed_at)
        cap = rt.settings.routine_monthly_usd
        if not await rt.routines.reserve(routine.channel, month, run_id, limits.usd, cap):
            await _over_cap(rt, routine, period, month)
            return
        try:
            report = await _research(rt, routine, run_id, sources)
        except REDIS_DOWN:
            raise  # not the run's fault: the job runs again once Redis answers (bot.jobs)
        except Exception:
            log.exception("routine %s %s: the research broke", routine_id, period)
            await rt.routines.settle(routine.channel, month, run_id, await _spent(rt, run_id))
            await _end(rt, routine, period, "failed")
            return
        await rt.routines.settle(routine.channel, month, run_id, report.spend.usd)
        await rt.routines.save_run_report(routine_id, period, report)
    try:
        await _compare_and_post(rt, routine, period, report, sources)
    except REDIS_DOWN:
        raise
    except Exception:  # a bug, or a source that broke the comparison: a failed run, once
        log.exception("routine %s %s: the comparison or its posting broke", routine_id, period)
        await _end(rt, routine, period, "failed", usd=report.spend.usd)


async def _compare_and_post(
    rt: Runtime, routine: Routine, period: str, report: Report, sources: Sources
) -> None:
    """The run's report against the baseline: no change recorded, or changes posted."""
    routine_id, usd = routine.routine_id, report.spend.usd
    previous = await _baseline(rt, routine)
    if previous is None:  # the report it was made from is gone: this run is the first
        await rt.routines.save_baseline(routine_id, report)
        await _end(rt, routine, period, "first", usd=usd)
        return
    compared = await explain_gone(with_changes(report, previous), sources.fetcher)
    if not compared.changes:
        await rt.routines.save_baseline(routine_id, compared)
        await _end(rt, routine, period, "no_change", usd=usd)
        return
    try:
        await _post(rt, routine, period, compared)
    except DELIVERY_ERRORS as error:
        log.warning("routine %s %s: Slack refused its message: %s", routine_id, period, error)
        await _end(rt, routine, period, "failed", usd=usd)
        return
    await rt.routines.save_baseline(routine_id, compared)
    await _end(rt, routine, period, "changed", usd=usd, changes=len(compared.changes))


async def _research(rt: Runtime, routine: Routine, run_id: str, sources: Sources) -> Report:
    """The routine's brief researched again, in its conversation's sources, within its
    template's price per run; its subagents run in this job (no Slack progress)."""
    limits = rt.settings.limits_for(routine.template)
    context = await rt.stores.open(run_id, limits, "routine")
    await rt.stores.begin_run(run_id, 1)
    plan = routine.plan
    if plan is None:  # made by the slash command before its report was planned
        state = await rt.states.get(routine.report_id)
        plan = state.plan if state is not None else None
    orchestrator = lead(rt, context, sources)  # its subagents run in this job
    brief = Brief(question=routine.question, language=routine.language, template=routine.template)
    report = await orchestrator.run(brief, plan=plan)
    await rt.stores.end_run(run_id, 1)
    return origins_marked(report, sources)


async def _spent(rt: Runtime, run_id: str) -> float:
    context = await rt.stores.open(run_id, rt.settings.limits_for(None), "routine")
    return (await context.budget.spend()).usd


async def _baseline(rt: Runtime, routine: Routine) -> Report | None:
    """The report the run is compared with: the last run's, else the one it was made from."""
    kept = await rt.routines.baseline(routine.routine_id)
    if kept is not None:
        return kept
    state = await rt.states.get(routine.report_id)
    if state is None or state.reported < 1:
        return None
    return await rt.states.load_report(routine.report_id, state.reported)


async def _post(rt: Runtime, routine: Routine, period: str, report: Report) -> None:
    """The run's message, then the report's files, each once: a run again after a crash
    between a post and its record finds it in the thread instead of posting it again."""
    message = changes_message(routine, report, period)
    version = routine.version + 1
    thread = routine.thread_ts
    found: list[dict[str, object]] = []
    if thread is not None and (routine.posting == period or routine.files_posting == period):
        found = await rt.slack.thread_messages(routine.channel, thread)
    if routine.posted != period:
        marker = run_marker(routine.routine_id, period)
        if routine.posting != period or posted_marked(found, ROUTINE_EVENT, marker) is None:
            await _mark(rt, routine, posting=period)
            await rt.slack.post(routine.channel, message, thread)
        await _mark(rt, routine, posting=None, posted=period)
    if routine.files_posting == period and posted_files(found, version):
        return
    uploads, _ = await report_uploads(rt, report, run_id_of(routine.routine_id, period), version)
    if uploads and thread is not None:
        await _mark(rt, routine, files_posting=period)
        comment = words(report.language).files_updated
        await rt.slack.upload(routine.channel, thread, uploads, comment)


async def _mark(rt: Runtime, routine: Routine, **fields: object) -> None:
    await rt.routines.update(routine.routine_id, lambda r: r.model_copy(update=fields))


async def _over_cap(rt: Runtime, routine: Routine, period: str, month: str) -> None:
    await _end(rt, routine, period, "over_cap")
    if routine.told_cap == month:
        return
    w = words(routine.language)
    line = w.over_cap.format(question=routine.question, cap=rt.settings.routine_monthly_usd)
    await tell(rt.slack, routine.channel, routine.thread_ts or "", routine.requester, line)
    await _mark(rt, routine, told_cap=month)


async def _end(
    rt: Runtime,
    routine: Routine,
    period: str,
    result: Result,
    *,
    usd: float = 0.0,
    changes: int = 0,
) -> None:
    """Record the period's run, once: its result, its spend, the failures in a row (three
    pause the routine, and its requester is told once)."""
    at = routine.claimed_at
    record = RunRecord(period=period, result=result, changes=changes, usd=usd, at=at)
    month = month_of(routine.claimed_at)
    ended: list[Routine] = []

    def end(current: Routine) -> Routine | None:
        if current.period != period or current.done == period:
            return None
        failures = current.failures + 1 if result == "failed" else 0
        spend = {**current.spend, month: round(current.spend.get(month, 0.0) + usd, 6)}
        ended.append(
            current.model_copy(
                update={
                    "done": period,
                    "last": record,
                    "failures": failures,
                    "paused": current.paused or failures >= FAILURES_TO_PAUSE,
                    "spend": spend,
                    "version": current.version + (1 if result == "changed" else 0),
                    "posting": None,
                    "files_posting": None,
                }
            )
        )
        return ended[-1]

    await rt.routines.update(routine.routine_id, end)
    if not ended:
        return  # a replay: the period's end was recorded already
    await rt.routines.record(routine.routine_id, record)
    after = ended[-1]
    if after.failures >= FAILURES_TO_PAUSE and not after.told_paused:
        line = words(after.language).paused_failures.format(question=after.question)
        await tell(rt.slack, after.channel, after.thread_ts or "", after.requester, line)
        await _mark(rt, after, told_paused=True)
