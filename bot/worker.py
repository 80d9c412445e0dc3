"""The arq workers of one `fonte worker` process: one on the reports queue (orchestrators,
which wait on other jobs) and one on the tasks queue (conversation steps, subagents,
verifications, which never wait). Two queues, so orchestrators holding every slot can never
starve the jobs they wait for. Scale by running more processes (`--scale worker=N`)."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from arq.connections import RedisSettings
from arq.constants import in_progress_key_prefix
from arq.cron import cron
from arq.utils import timestamp_ms
from arq.worker import Worker, func
from redis.exceptions import ResponseError, WatchError

from bot import jobs
from bot.recovery.attempts import REPORT_ATTEMPTS
from bot.redis.connection import awaited, client
from bot.redis.outage import Outage, is_outage
from bot.redis.runs import LEASE_SECONDS
from bot.runtime import Runtime
from engine import RECANCEL_SECONDS, unless_cancelled

log = logging.getLogger(__name__)

HEALTH_INTERVAL_SECONDS = 30
STEP_TIMEOUT_SECONDS = 300
VERIFY_TIMEOUT_SECONDS = 300
MAX_TRIES = 3
ROUTINE_TICK_SECOND = 7
"""The second of each minute the routines' tick is enqueued at (arq's cron; every worker
enqueues the same job id for one minute, so one tick runs)."""
FINISH_PATIENCE_SECONDS = 120.0
"""How long a worker keeps trying to record a job's end (its result, or its retry) while
Redis is down; past it the job's lease expires and the job runs again elsewhere."""


class FonteWorker(Worker):
    """arq's Worker with two changes for crashes and outages.

    A job's in-progress key (which keeps other workers off it) is a lease of `lease_seconds`
    that this worker renews while the job runs, instead of arq's fixed job timeout + 10 s:
    a worker killed with SIGKILL stops renewing, and another worker picks its jobs up from
    the queue within the lease. The job's own timeout still bounds how long it may run.

    When Redis stops answering (killed, restarting, loading its AOF, failed over to a
    read-only replica: `bot.redis.outage.is_outage`), nothing ends the worker: the poll loop
    waits and tries again with backoff (one log line when the outage starts, one when it
    ends), a job start that failed gives its slot back and is tried again later, a job's end
    is written once Redis answers, and the main loop starts its poll again if an outage
    escapes it (at start, or burst mode's queue count).
    """

    def __init__(
        self,
        *args: Any,
        lease_seconds: float = LEASE_SECONDS,
        finish_patience: float = FINISH_PATIENCE_SECONDS,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.in_progress_timeout_s = lease_seconds
        self.finish_patience = finish_patience
        self.outage = Outage(f"worker {self.queue_name}")
        self._renewed_at = 0.0

    async def main(self) -> None:
        """arq's main loop, run again (same pool, same jobs) when an outage escapes it
        instead of ending the worker. arq would run `on_startup` again; FonteWorker has none."""
        while True:
            try:
                await super().main()
                return
            except Exception as error:
                if not is_outage(error):
                    raise
                unless_cancelled(error)
                await asyncio.sleep(self.outage.failed(error))

    async def _poll_iteration(self) -> None:
        unless_cancelled()
        try:
            await super()._poll_iteration()
            await self._renew_leases()
        except Exception as error:
            if not is_outage(error):
                raise
            unless_cancelled(error)
            await asyncio.sleep(self.outage.failed(error))
            return
        self.outage.answered()

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        """arq's `start_jobs`, whose slot (job counter and semaphore) is given back however
        the start fails: arq's leaked one on each error outside its EXEC, until the worker
        took no jobs at all. A WatchError (another worker took the job, its keys moved, or
        the connection dropped while watching them) skips the job for now; another outage
        ends this poll, which the poll loop waits out."""
        for raw_id in job_ids:
            await self.sem.acquire()
            if self.job_counter >= self.max_jobs:
                self.sem.release()
                return
            self.job_counter += 1
            job_id = raw_id.decode()
            try:
                score = await self._claim(job_id)
            except WatchError:
                score = None
            except BaseException:
                self._release_sem_dec_counter_on_complete()
                raise
            if score is None:
                self._release_sem_dec_counter_on_complete()
                continue
            task = self.loop.create_task(self.run_job(job_id, score))
            task.add_done_callback(lambda _: self._release_sem_dec_counter_on_complete())
            self.tasks[job_id] = task

    async def _claim(self, job_id: str) -> int | None:
        """Set the job's in-progress key (its lease) if the job is due and no one holds it,
        in a WATCH/MULTI transaction; the job's score, or None when it is not ours to run."""
        in_progress_key = in_progress_key_prefix + job_id
        async with self.pool.pipeline(transaction=True) as pipe:
            await pipe.watch(in_progress_key)
            ongoing = await pipe.exists(in_progress_key)
            score = await pipe.zscore(self.queue_name, job_id)
            if ongoing or not score or score > timestamp_ms():
                return None
            pipe.multi()  # type: ignore[no-untyped-call]
            pipe.psetex(in_progress_key, int(self.in_progress_timeout_s * 1000), b"1")
            try:
                await pipe.execute()
            except ResponseError as error:
                if is_outage(error):
                    raise
                return None  # as arq: the job started elsewhere meanwhile
        return int(score)

    async def run_job(self, job_id: str, score: int) -> None:
        """arq's `run_job`; Redis lost while it reads the job before running it ends the
        start quietly, not the worker: the job's lease expires and it runs again."""
        try:
            await super().run_job(job_id, score)
        except Exception as error:
            if not is_outage(error):
                raise
            log.warning("job %s: Redis went away as it started (%s); it runs again", job_id, error)

    async def finish_job(
        self,
        job_id: str,
        finish: bool,
        result_data: bytes | None,
        result_timeout_s: float | None,
        keep_result_forever: bool,
        incr_score: int | None,
        keep_in_progress: float | None,
    ) -> None:
        """arq's, tried again while Redis is down: a job that ran (or must run again) during
        an outage has its end recorded once Redis answers, instead of running again."""
        await self._when_redis_answers(
            lambda: super(FonteWorker, self).finish_job(
                job_id,
                finish,
                result_data,
                result_timeout_s,
                keep_result_forever,
                incr_score,
                keep_in_progress,
            )
        )

    async def finish_failed_job(self, job_id: str, result_data: bytes | None) -> None:
        await self._when_redis_answers(
            lambda: super(FonteWorker, self).finish_failed_job(job_id, result_data)
        )

    async def _when_redis_answers(self, write: Callable[[], Awaitable[None]]) -> None:
        """Run `write` (idempotent), again with the worker's backoff while Redis is down,
        for `finish_patience` seconds at most."""
        deadline = time.monotonic() + self.finish_patience
        while True:
            try:
                await write()
            except Exception as error:
                if not is_outage(error) or time.monotonic() > deadline:
                    raise
                unless_cancelled(error)
                await asyncio.sleep(self.outage.failed(error))
            else:
                return

    async def record_health(self) -> None:
        """arq's; a health check Redis did not take is tried again at the next poll, not
        an interval later (arq counts the interval from the try)."""
        tried_at = self._last_health_check
        try:
            await super().record_health()
        except Exception:
            self._last_health_check = tried_at
            raise

    async def _renew_leases(self) -> None:
        """Push back the expiry of every running job's in-progress key, three times a lease."""
        now = time.monotonic()
        if now - self._renewed_at < self.in_progress_timeout_s / 3:
            return
        self._renewed_at = now
        running = [job_id for job_id, task in self.tasks.items() if not task.done()]
        if not running:
            return
        lease_ms = int(self.in_progress_timeout_s * 1000)
        async with self.pool.pipeline(transaction=False) as pipe:
            for job_id in running:
                pipe.pexpire(in_progress_key_prefix + job_id, lease_ms)
            await pipe.execute()

    async def close(self) -> None:
        """arq's `Worker.close` with redis-py 5's `aclose` (its `close` is deprecated). The
        pool is closed however the rest ends: jobs cancelled with the worker made the gather
        raise, and the pool's connections were left open."""
        if not self._handle_signals:
            self.handle_sig(signal.SIGUSR1)
        if not self._pool:
            return
        try:
            await asyncio.gather(*self.tasks.values(), return_exceptions=True)
            await self.pool.delete(self.health_check_key)
            if self.on_shutdown:
                await self.on_shutdown(self.ctx)
        finally:
            await self.pool.aclose(close_connection_pool=True)
            self._pool = None


@dataclass(frozen=True)
class WorkerSettings:
    """What the two arq workers are given; from the bot's Settings by `for_runtime`."""

    redis_url: str
    reports_queue: str
    tasks_queue: str
    reports_jobs: int
    tasks_jobs: int
    poll_delay: float
    report_timeout: float
    subagent_timeout: float
    host: str
    redis_timeout: float

    @classmethod
    def for_runtime(cls, rt: Runtime, host: str | None = None) -> WorkerSettings:
        settings = rt.settings
        if settings.redis_url is None:
            raise ValueError("workers need REDIS_URL")
        return cls(
            redis_url=settings.redis_url,
            reports_queue=rt.keys.reports_queue,
            tasks_queue=rt.keys.tasks_queue,
            reports_jobs=settings.reports_per_worker,
            tasks_jobs=settings.tasks_per_worker,
            poll_delay=settings.poll_interval,
            # A report may be deepened, so allow twice the cap; the run cancels itself at its
            # own cap, this only catches a job that hangs.
            report_timeout=settings.max_report_seconds * 2 + 120,
            subagent_timeout=settings.max_report_seconds + 60,
            host=host or socket.gethostname(),
            redis_timeout=settings.redis_timeout,
        )


def build_workers(
    rt: Runtime,
    *,
    burst: bool = False,
    host: str | None = None,
    lease_seconds: float = LEASE_SECONDS,
) -> list[Worker]:
    config = WorkerSettings.for_runtime(rt, host)
    redis = RedisSettings.from_dsn(config.redis_url)
    redis.conn_retries = 0  # FonteWorker.main waits out a Redis that is down at start
    common = {
        "redis_settings": redis,
        "burst": burst,
        "handle_signals": False,
        "poll_delay": config.poll_delay,
        "health_check_interval": HEALTH_INTERVAL_SECONDS,
        "max_tries": MAX_TRIES,
        "lease_seconds": lease_seconds,
    }
    reports = FonteWorker(
        functions=[
            func(
                jobs.report_job,
                name="report_job",
                timeout=config.report_timeout,
                max_tries=REPORT_ATTEMPTS + 1,  # the last start ends the report (give_up)
            ),
            func(
                jobs.routine_job,
                name="routine_job",
                timeout=config.report_timeout,
                max_tries=jobs.ROUTINE_ATTEMPTS + 1,  # the last start ends the run (failed)
            ),
            func(jobs.routine_tick, name="routine_tick", timeout=STEP_TIMEOUT_SECONDS),
        ],
        # arq's cron: https://arq-docs.helpmanual.io/#cron-jobs ("unique": one job per time
        # however many workers enqueue it). The tick itself claims each due routine once.
        cron_jobs=[
            cron(
                jobs.routine_tick,
                name=rt.keys.routine_cron,
                second=ROUTINE_TICK_SECOND,
                microsecond=0,
                unique=True,
                timeout=STEP_TIMEOUT_SECONDS,
            )
        ],
        queue_name=config.reports_queue,
        max_jobs=config.reports_jobs,
        health_check_key=rt.keys.health(config.reports_queue, config.host),
        redis_pool=client(config.redis_url, config.redis_timeout),
        ctx={jobs.RUNTIME: rt},
        **common,  # type: ignore[arg-type]
    )
    tasks = FonteWorker(
        functions=[
            func(jobs.converse, name="converse", timeout=STEP_TIMEOUT_SECONDS),
            func(jobs.subagent_job, name="subagent_job", timeout=config.subagent_timeout),
            func(jobs.verification_job, name="verification_job", timeout=VERIFY_TIMEOUT_SECONDS),
        ],
        queue_name=config.tasks_queue,
        max_jobs=config.tasks_jobs,
        allow_abort_jobs=True,
        health_check_key=rt.keys.health(config.tasks_queue, config.host),
        redis_pool=client(config.redis_url, config.redis_timeout),
        ctx={jobs.RUNTIME: rt},
        **common,  # type: ignore[arg-type]
    )
    return [reports, tasks]


STOP_GRACE_SECONDS = 10.0
"""How long the jobs running when a worker stops get to end once cancelled. arq's close
waits for every one of them, so a job stuck where no cancel reaches it (seen once: a
report job whose retry Redis refused mid-pipeline, while full) kept a worker alive after
SIGTERM until it was killed. Past this grace such jobs are left to their leases, which
another worker takes over (docs/slack.md, workers), as after a SIGKILL."""


async def run_workers(
    workers: list[Worker],
    grace: float = STOP_GRACE_SECONDS,
    on_stuck: Callable[[], None] | None = None,
) -> None:
    """Run until cancelled (or, in burst mode, until the queues are empty). Jobs running at
    the end are cancelled, and arq runs them again on another worker. When they have not
    ended `grace` seconds later, closing is given up and `on_stuck` called (the worker
    process exits: `bot.serve`)."""
    try:
        await asyncio.gather(*(worker.async_run() for worker in workers))
    finally:
        await _close(workers, grace, on_stuck)


async def _close(workers: list[Worker], grace: float, on_stuck: Callable[[], None] | None) -> None:
    # Every worker is closed, even when closing another one fails.
    closing = asyncio.gather(*(w.close() for w in workers), return_exceptions=True)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    while not closing.done() and (left := deadline - loop.time()) > 0:
        await asyncio.wait({closing}, timeout=min(RECANCEL_SECONDS, left))
        for worker in workers:
            for task in list(worker.tasks.values()):
                if not task.done():
                    task.cancel()
    if not closing.done():
        closing.cancel()
        running = sum(len(w.tasks) for w in workers)
        log.warning(
            "%d job(s) still running %.0f s after the stop: left to their leases", running, grace
        )
        if on_stuck is not None:
            on_stuck()
        return
    for worker, outcome in zip(workers, closing.result(), strict=True):
        if isinstance(outcome, Exception):
            log.warning("closing worker %s failed: %s", worker.queue_name, outcome)


async def workers_alive(rt: Runtime, host: str | None = None) -> bool:
    """Both workers of `host` wrote their health key within the last interval."""
    if rt.redis is None:
        return False
    host = host or socket.gethostname()
    names = [rt.keys.health(q, host) for q in (rt.keys.reports_queue, rt.keys.tasks_queue)]
    return int(await awaited(rt.redis.exists(*names))) == len(names)
