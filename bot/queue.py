"""How a listener hands work on: arq jobs in Redis, or tasks in the bot's own process.

Listeners acknowledge Slack and call `step`; flows call `enqueue_report`. The arq queue names
each job after its origin (the Slack event or action), so a request Slack delivers twice
runs once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Protocol

from arq.connections import ArqRedis
from arq.constants import job_key_prefix, result_key_prefix

from bot.redis.connection import awaited
from bot.redis.keys import Keys
from bot.redis.outage import is_outage
from bot.steps import Step, encode_step

log = logging.getLogger(__name__)

StepHandler = Callable[[Step], Awaitable[None]]
RunHandler = Callable[[str, int], Awaitable[None]]
RoutineHandler = Callable[[str, str], Awaitable[None]]


class JobQueue(Protocol):
    async def step(self, step: Step, origin: str) -> None:
        """Enqueue a conversation step; `origin` identifies the Slack request behind it."""
        ...

    async def enqueue_report(self, report_id: str, version: int) -> None: ...

    async def enqueue_routine(self, routine_id: str, period: str) -> None:
        """One period's run of a routine (bot.routines.run), once per routine and period."""
        ...


class Ledger(Protocol):
    """What follows the work a process hands on (bot.recovery.in_flight.InFlight)."""

    def handed_on(self, step: Step, job_id: str) -> None: ...

    def run_enqueued(self, report_id: str, job_id: str) -> None: ...

    def not_enqueued(self, job_id: str) -> None:
        """Redis refused job `job_id`: its requester is to be told (they wait on nothing)."""
        ...


class ArqQueue:
    def __init__(self, redis: ArqRedis, keys: Keys) -> None:
        self._redis = redis
        self._keys = keys
        self.in_flight: Ledger | None = None
        """Told of each step and run before it is enqueued, where the bot watches them."""

    async def step(self, step: Step, origin: str) -> None:
        job_id = self._keys.step_job(origin)
        if self.in_flight is None:
            await self._enqueue("converse", encode_step(step), job_id=job_id, queue="tasks")
            return
        self.in_flight.handed_on(step, job_id)
        try:
            await self._enqueue("converse", encode_step(step), job_id=job_id, queue="tasks")
        except Exception as error:
            if not is_outage(error):
                raise
            # Redis is down: the bot's watch tells the requester, in one line.
            log.warning("step %s: Redis is unreachable (%s); not enqueued", step.kind, error)
            self.in_flight.not_enqueued(job_id)

    async def enqueue_report(self, report_id: str, version: int) -> None:
        job_id = self._keys.report_job_id(report_id, version)
        if self.in_flight is not None:
            self.in_flight.run_enqueued(report_id, job_id)
        await self._enqueue("report_job", report_id, version, job_id=job_id, queue="reports")

    async def enqueue_routine(self, routine_id: str, period: str) -> None:
        job_id = self._keys.routine_job_id(routine_id, period)
        await self._enqueue("routine_job", routine_id, period, job_id=job_id, queue="reports")

    async def _enqueue(self, function: str, *args: object, job_id: str, queue: str) -> None:
        """Enqueue once per job id. arq answers None both for a job already enqueued (or
        done) and for a WatchError on its EXEC, which redis-py also raises when the
        connection dropped mid-transaction: then the job may be missing, so look, and
        enqueue again. An outage raises (the caller's to handle), never passes silently."""
        name = self._keys.tasks_queue if queue == "tasks" else self._keys.reports_queue
        for _ in range(3):
            job = await self._redis.enqueue_job(function, *args, _job_id=job_id, _queue_name=name)
            if job is not None:
                return
            keys = (job_key_prefix + job_id, result_key_prefix + job_id)
            if int(await awaited(self._redis.exists(*keys))):
                return
        raise RuntimeError(f"job {job_id} could not be enqueued")


class InProcessQueue:
    """The embedded bot's queue: each job is an asyncio task of this process."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: set[str] = set()
        self._on_step: StepHandler | None = None
        self._on_run: RunHandler | None = None
        self._on_routine: RoutineHandler | None = None
        self._routines_running: set[str] = set()

    def bind(
        self, on_step: StepHandler, on_run: RunHandler, on_routine: RoutineHandler | None = None
    ) -> None:
        self._on_step, self._on_run, self._on_routine = on_step, on_run, on_routine

    def _spawn(self, work: Awaitable[None], name: str) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("job %s failed", name)

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if isinstance(work, Coroutine):
            # A task cancelled before it ran (the bot closing) never starts `work`: close it,
            # or Python warns that it was never awaited. Closing a finished one does nothing.
            task.add_done_callback(lambda _: work.close())

    async def step(self, step: Step, origin: str) -> None:
        if origin in self._seen or self._on_step is None:
            return
        self._seen.add(origin)
        self._spawn(self._on_step(step), f"step {step.kind}")

    async def enqueue_report(self, report_id: str, version: int) -> None:
        key = f"run:{report_id}:{version}"
        if key in self._seen or self._on_run is None:
            return
        self._seen.add(key)
        self._spawn(self._on_run(report_id, version), key)

    async def enqueue_routine(self, routine_id: str, period: str) -> None:
        """Once while it runs; again after it ended without ending its period (it broke),
        as a worker runs a job again: the next tick finds it claimed and not ended."""
        key = f"routine:{routine_id}:{period}"
        if key in self._routines_running or self._on_routine is None:
            return
        self._routines_running.add(key)
        self._spawn(self._routine(key, self._on_routine(routine_id, period)), key)

    async def _routine(self, key: str, work: Awaitable[None]) -> None:
        try:
            await work
        finally:
            self._routines_running.discard(key)

    async def drain(self) -> None:
        """Wait until no job is left, including jobs the jobs enqueue."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    async def aclose(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
