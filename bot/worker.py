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
from dataclasses import dataclass
from typing import Any

from arq.connections import RedisSettings
from arq.constants import in_progress_key_prefix
from arq.worker import Worker, func

from bot import jobs
from bot.recovery.attempts import REPORT_ATTEMPTS
from bot.redis.connection import awaited
from bot.redis.outage import REDIS_DOWN, Outage
from bot.redis.runs import LEASE_SECONDS
from bot.runtime import Runtime

log = logging.getLogger(__name__)

HEALTH_INTERVAL_SECONDS = 30
STEP_TIMEOUT_SECONDS = 300
VERIFY_TIMEOUT_SECONDS = 300
MAX_TRIES = 3


class FonteWorker(Worker):
    """arq's Worker with two changes for crashes and outages.

    A job's in-progress key (which keeps other workers off it) is a lease of `lease_seconds`
    that this worker renews while the job runs, instead of arq's fixed job timeout + 10 s:
    a worker killed with SIGKILL stops renewing, and another worker picks its jobs up from
    the queue within the lease. The job's own timeout still bounds how long it may run.

    When Redis stops answering, the poll loop waits and tries again with backoff (one log
    line when the outage starts, one when it ends) instead of ending the worker.
    """

    def __init__(self, *args: Any, lease_seconds: float = LEASE_SECONDS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_progress_timeout_s = lease_seconds
        self.outage = Outage(f"worker {self.queue_name}")
        self._renewed_at = 0.0

    async def _poll_iteration(self) -> None:
        try:
            await super()._poll_iteration()
            await self._renew_leases()
        except REDIS_DOWN as error:
            await asyncio.sleep(self.outage.failed(error))
            return
        self.outage.answered()

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
                jobs.run_report,
                name="run_report",
                timeout=config.report_timeout,
                max_tries=REPORT_ATTEMPTS + 1,  # the last start ends the report (give_up)
            )
        ],
        queue_name=config.reports_queue,
        max_jobs=config.reports_jobs,
        health_check_key=rt.keys.health(config.reports_queue, config.host),
        ctx={jobs.RUNTIME: rt},
        **common,  # type: ignore[arg-type]
    )
    tasks = FonteWorker(
        functions=[
            func(jobs.converse, name="converse", timeout=STEP_TIMEOUT_SECONDS),
            func(jobs.run_subagent, name="run_subagent", timeout=config.subagent_timeout),
            func(jobs.verify_claim, name="verify_claim", timeout=VERIFY_TIMEOUT_SECONDS),
        ],
        queue_name=config.tasks_queue,
        max_jobs=config.tasks_jobs,
        allow_abort_jobs=True,
        health_check_key=rt.keys.health(config.tasks_queue, config.host),
        ctx={jobs.RUNTIME: rt},
        **common,  # type: ignore[arg-type]
    )
    return [reports, tasks]


async def run_workers(workers: list[Worker]) -> None:
    """Run until cancelled (or, in burst mode, until the queues are empty). Jobs running at
    the end are cancelled, and arq runs them again on another worker."""
    try:
        await asyncio.gather(*(worker.async_run() for worker in workers))
    finally:
        # Every worker is closed, even when closing another one fails.
        closed = await asyncio.gather(*(w.close() for w in workers), return_exceptions=True)
        for worker, outcome in zip(workers, closed, strict=True):
            if isinstance(outcome, Exception):
                log.warning("closing worker %s failed: %s", worker.queue_name, outcome)


async def workers_alive(rt: Runtime, host: str | None = None) -> bool:
    """Both workers of `host` wrote their health key within the last interval."""
    if rt.redis is None:
        return False
    host = host or socket.gethostname()
    names = [rt.keys.health(q, host) for q in (rt.keys.reports_queue, rt.keys.tasks_queue)]
    return int(await awaited(rt.redis.exists(*names))) == len(names)
