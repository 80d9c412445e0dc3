"""The arq job functions. Each rebuilds what it needs from the runtime in `ctx` and Redis,
and is safe to run more than once (arq runs jobs at least once).

A subagent job builds a `SubagentRunner` and a verification job a `ClaimVerifier`, over the
report's shared board, budget and snapshots and its conversation's sources: what one job
needs, never a whole lead (the orchestrator job's, bot.report_runner)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any

from arq.worker import Retry

from bot import flows, report_runner
from bot.config import Settings
from bot.queue import InProcessQueue
from bot.recovery.attempts import give_up, out_of_attempts
from bot.redis.codec import decode_assignment, decode_claim, encode_claim, encode_outcome
from bot.redis.outage import is_outage
from bot.redis.stores import ResearchContext
from bot.routines.run import give_up_routine, run_routine, tick
from bot.runtime import Runtime, build_runtime
from bot.steps import decode_step
from engine import (
    GRACE_SECONDS,
    Assignment,
    Claim,
    ClaimStatus,
    SubagentOutcome,
    SubagentRunner,
    check_on_board,
    utc_now,
)
from engine.assembly import Sources
from engine.verify import ClaimVerifier
from engine.verify.seen import seen_check

RUNTIME = "fonte_runtime"
"""The key of the Runtime in an arq worker's ctx."""
OUTAGE_RETRY_SECONDS = 5.0

log = logging.getLogger(__name__)


def runtime_of(ctx: dict[str, Any]) -> Runtime:
    runtime = ctx[RUNTIME]
    assert isinstance(runtime, Runtime)
    return runtime


@contextlib.contextmanager
def again_when_redis_is_down(ctx: dict[str, Any]) -> Iterator[None]:
    """A job that lost Redis mid-way runs again later (arq's Retry, within its max tries)
    rather than failing with a traceback: Redis being down (restarting, loading, failed
    over: `is_outage`) is no fault of the job."""
    try:
        yield
    except Exception as error:
        if not is_outage(error):
            raise
        log.warning("job %s: Redis is unreachable (%s); it runs again", ctx.get("job_id"), error)
        raise Retry(defer=OUTAGE_RETRY_SECONDS) from None


async def converse(ctx: dict[str, Any], raw_step: str) -> None:
    with again_when_redis_is_down(ctx):
        await flows.handle_step(runtime_of(ctx), decode_step(raw_step))


async def report_job(ctx: dict[str, Any], report_id: str, version: int) -> None:
    with again_when_redis_is_down(ctx):
        if out_of_attempts(int(ctx.get("job_try") or 1)):
            await give_up(runtime_of(ctx), report_id, version)
            return
        await report_runner.run_report(runtime_of(ctx), report_id, version)


ROUTINE_ATTEMPTS = 3
"""Starts of one period's run of a routine (its workers killed under it) before it counts as
a failed run."""


async def routine_job(ctx: dict[str, Any], routine_id: str, period: str) -> None:
    with again_when_redis_is_down(ctx):
        if int(ctx.get("job_try") or 1) > ROUTINE_ATTEMPTS:
            await give_up_routine(runtime_of(ctx), routine_id, period)
            return
        await run_routine(runtime_of(ctx), routine_id, period)


async def routine_tick(ctx: dict[str, Any], at: str | None = None) -> None:
    """The routines' schedule (bot.routines.run.tick) at `at` (ISO 8601), or now: arq's cron
    calls it every minute on every worker."""
    moment = datetime.fromisoformat(at) if at else utc_now()
    with again_when_redis_is_down(ctx):
        await tick(runtime_of(ctx), moment)


async def subagent_job(
    ctx: dict[str, Any], report_id: str, version: int, raw_assignment: str
) -> str:
    with again_when_redis_is_down(ctx):
        outcome = await run_assignment(
            runtime_of(ctx),
            report_id,
            decode_assignment(raw_assignment),
            scope=str(ctx["job_id"]),
        )
    return encode_outcome(outcome)


async def verification_job(ctx: dict[str, Any], report_id: str, raw_claim: str) -> str:
    with again_when_redis_is_down(ctx):
        checked = await verify_posted_claim(
            runtime_of(ctx), report_id, decode_claim(raw_claim), scope=str(ctx["job_id"])
        )
    return encode_claim(checked)


async def _research_of(rt: Runtime, report_id: str, scope: str) -> tuple[ResearchContext, Sources]:
    """The report's shared board, budget and snapshots, and its conversation's sources, for
    one job; `scope` (the job id) keys its budget reservations so a replay is not charged
    twice. LookupError for a report whose state is gone."""
    state = await rt.states.get(report_id)
    if state is None:
        raise LookupError(f"report {report_id} has no state (expired?)")
    context = await rt.stores.open(report_id, state.limits, scope)
    return context, await rt.sources_for(state)


async def run_assignment(
    rt: Runtime, report_id: str, assignment: Assignment, scope: str
) -> SubagentOutcome:
    """One subagent of a report, run on this worker within the report's time cap."""
    context, sources = await _research_of(rt, report_id, scope)
    runner = SubagentRunner(
        rt.model,
        sources.searcher,
        sources.fetcher,
        board=context.board,
        budget=context.budget,
        snapshots=context.snapshots,
    )
    left = max(0.0, await runner.seconds_left())
    try:
        async with asyncio.timeout(left + GRACE_SECONDS):  # not wait_for: 3.11 drops cancels
            outcome = await runner.run(assignment)
    except TimeoutError:
        outcome = SubagentOutcome(
            assignment.subagent, assignment.subquestion.id, stopped_by_budget=True
        )
    # Claims an earlier attempt of this job posted are duplicates now, so the subagent did
    # not report them; hand them over too, so they are verified with the rest.
    reported = {c.id for c in outcome.claims}
    earlier = [
        claim
        for claim in await context.board.claims()
        if claim.subagent == assignment.subagent
        and claim.status is ClaimStatus.pending
        and claim.id not in reported
    ]
    return replace(outcome, claims=[*outcome.claims, *earlier]) if earlier else outcome


async def verify_posted_claim(rt: Runtime, report_id: str, claim: Claim, scope: str) -> Claim:
    """The verifier's verdict on one posted claim, kept on the report's board."""
    context, sources = await _research_of(rt, report_id, scope)
    verifier = ClaimVerifier(context.snapshots, sources.fetcher, seeing=seen_check(sources.fetcher))
    return await check_on_board(claim, verifier, context.board)


async def open_runtime(settings: Settings, **overrides: Any) -> Runtime:
    """`build_runtime`, with the embedded queue bound to these same flows."""
    runtime = await build_runtime(settings, **overrides)
    if isinstance(runtime.queue, InProcessQueue):
        runtime.queue.bind(
            lambda step: flows.handle_step(runtime, step),
            lambda report_id, version: report_runner.run_report(runtime, report_id, version),
            lambda routine_id, period: run_routine(runtime, routine_id, period),
        )
    return runtime
