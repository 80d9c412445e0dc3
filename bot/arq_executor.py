"""The Executor that runs subagents and verifications as arq jobs on any worker.

Job ids are derived from the report, its version and the subagent (or claim), so an
orchestrator job that is itself retried finds the jobs its first attempt enqueued (running,
or finished with their result kept) instead of starting them again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from arq.connections import ArqRedis
from arq.constants import abort_jobs_ss
from arq.jobs import Job, JobResult, JobStatus
from arq.utils import timestamp_ms

from bot.redis.codec import decode_claim, decode_outcome, encode_assignment, encode_claim
from bot.redis.keys import Keys
from engine import (
    Assignment,
    Claim,
    ClaimRejected,
    ClaimStatus,
    ClaimVerified,
    DeliveryError,
    EventSink,
    OutcomeCallback,
    SubagentFinished,
    SubagentOutcome,
    SubagentStarted,
    wait_within_cap,
)

VERIFY_WAIT_SECONDS = 120.0


class JobLost(DeliveryError):
    """A job whose key and result are both gone (expired, or its queue was flushed)."""


class ArqExecutor:
    def __init__(
        self,
        redis: ArqRedis,
        keys: Keys,
        report_id: str,
        version: int,
        events: EventSink,
        seconds_left: Callable[[], Awaitable[float]],
        *,
        poll_interval: float = 0.5,
        verify_timeout: float = VERIFY_WAIT_SECONDS,
    ) -> None:
        self._redis = redis
        self._keys = keys
        self._report_id = report_id
        self._version = version
        self._events = events
        self._seconds_left = seconds_left
        self._poll = poll_interval
        self._verify_timeout = verify_timeout
        self._cancelled = asyncio.Event()
        self._waiting: set[asyncio.Task[object]] = set()

    # -- subagents ----------------------------------------------------------------------------

    def _subagent_job_id(self, assignment: Assignment) -> str:
        return self._keys.subagent_job_id(self._report_id, self._version, assignment.subagent)

    async def run_subagents(
        self, assignments: Sequence[Assignment], on_outcome: OutcomeCallback
    ) -> list[SubagentOutcome]:
        if not assignments:
            return []
        tasks = [asyncio.create_task(self._run_one(a, on_outcome)) for a in assignments]
        self._waiting.update(tasks)
        for task in tasks:
            task.add_done_callback(self._waiting.discard)
        try:
            await self._wait(tasks)
        except asyncio.CancelledError:
            for task in tasks:
                task.cancel()
            raise
        outcomes: list[SubagentOutcome] = []
        for assignment, task in zip(assignments, tasks, strict=True):
            if task.done():
                outcomes.append(task.result())
                continue
            task.cancel()
            await self._abort(self._subagent_job_id(assignment))
            outcome = SubagentOutcome(
                assignment.subagent, assignment.subquestion.id, stopped_by_budget=True
            )
            self._finished(outcome)
            await on_outcome(outcome)
            outcomes.append(outcome)
        return outcomes

    async def _run_one(
        self, assignment: Assignment, on_outcome: OutcomeCallback
    ) -> SubagentOutcome:
        job_id = self._subagent_job_id(assignment)
        await self._redis.enqueue_job(
            "subagent_job",
            self._report_id,
            self._version,
            encode_assignment(assignment),
            _job_id=job_id,
            _queue_name=self._keys.tasks_queue,
        )
        self._events(
            SubagentStarted(assignment.subagent, assignment.subquestion.id, gap=assignment.gap)
        )
        try:
            result = await self._result(job_id)
        except JobLost as lost:
            result = None
            error = str(lost)
        if result is not None and result.success:
            outcome = decode_outcome(result.result)
        else:
            if result is not None:
                error = f"job failed: {type(result.result).__name__}: {result.result}"
            outcome = SubagentOutcome(assignment.subagent, assignment.subquestion.id, error=error)
        self._finished(outcome)
        await on_outcome(outcome)
        return outcome

    def _finished(self, outcome: SubagentOutcome) -> None:
        self._events(
            SubagentFinished(
                outcome.subagent,
                outcome.subquestion,
                len(outcome.claims),
                outcome.stopped_by_budget,
                outcome.error,
            )
        )

    async def _wait(self, tasks: list[asyncio.Task[SubagentOutcome]]) -> None:
        await wait_within_cap(tasks, await self._seconds_left(), self._cancelled)

    # -- verification -------------------------------------------------------------------------

    async def verify_claims(self, claims: Sequence[Claim]) -> list[Claim]:
        current = asyncio.current_task()
        if current is not None:
            self._waiting.add(current)
        try:
            return list(await asyncio.gather(*(self._verify_one(c) for c in claims)))
        finally:
            if current is not None:
                self._waiting.discard(current)

    async def _verify_one(self, claim: Claim) -> Claim:
        job_id = self._keys.verification_job_id(self._report_id, self._version, claim.id)
        await self._redis.enqueue_job(
            "verification_job",
            self._report_id,
            encode_claim(claim),
            _job_id=job_id,
            _queue_name=self._keys.tasks_queue,
        )
        try:
            async with asyncio.timeout(self._verify_timeout):  # not wait_for: 3.11 drops cancels
                result = await self._result(job_id)
        except (TimeoutError, JobLost):
            return claim  # stays pending: a pending claim is never published
        if not result.success:
            return claim
        checked = decode_claim(result.result)
        if checked.status is ClaimStatus.verified:
            self._events(ClaimVerified(checked))
        elif checked.status is ClaimStatus.rejected:
            self._events(ClaimRejected(checked))
        return checked

    # -- arq plumbing -------------------------------------------------------------------------

    async def _result(self, job_id: str) -> JobResult:
        """Poll for the job's result. arq's own `Job.result` re-raises a failed job's
        exception, a CancelledError included, which must not pass for our cancellation."""
        job = Job(job_id, self._redis, _queue_name=self._keys.tasks_queue)
        while True:
            info = await job.result_info()
            if info is not None:
                return info
            if await job.status() is JobStatus.not_found:
                raise JobLost(f"job {job_id} vanished from Redis")
            await asyncio.sleep(self._poll)

    async def _abort(self, job_id: str) -> None:
        await self._redis.zadd(abort_jobs_ss, {job_id: timestamp_ms()})

    def cancel(self) -> None:
        self._cancelled.set()

    def shutdown(self) -> None:
        """Stop every wait this executor still has going (the orchestrator job itself was
        cancelled: its worker is stopping, and the job will run again elsewhere)."""
        self._cancelled.set()
        for task in list(self._waiting):
            if task is not asyncio.current_task() and not task.done():
                task.cancel()
