"""Worker configuration: two queues, abortable tasks, timeouts from the report cap; jobs held
by a lease the worker renews; a Redis outage ridden out."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from arq.connections import RedisSettings
from arq.constants import in_progress_key_prefix
from arq.worker import func
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import WatchError

from bot.redis.connection import connect
from bot.redis.runs import LEASE_SECONDS
from bot.worker import FonteWorker, WorkerSettings, build_workers, run_workers
from tests.support.bot_env import REDIS_URL
from tests.support.sick_redis import running


async def test_two_workers_one_per_queue(make_settings: Any, runtimes: Any) -> None:
    rt = await runtimes(make_settings(max_report_seconds=100.0))
    reports, tasks = build_workers(rt, host="h1")
    assert reports.queue_name == rt.keys.reports_queue
    assert tasks.queue_name == rt.keys.tasks_queue
    # Routines' runs wait on their research like reports; the tick is arq's cron job.
    cron = rt.keys.routine_cron  # arq's job ids for it carry the prefix, as ours do
    assert set(reports.functions) == {"report_job", "routine_job", "routine_tick", cron}
    [tick] = reports.cron_jobs
    assert (tick.name, tick.second, tick.unique) == (f"{rt.keys.prefix}:routine_cron", 7, True)
    assert set(tasks.functions) == {"converse", "subagent_job", "verification_job"}
    assert tasks.allow_abort_jobs
    assert not reports.allow_abort_jobs
    assert reports.functions["report_job"].timeout_s == 320
    assert tasks.functions["subagent_job"].timeout_s == 160
    assert reports.health_check_key == rt.keys.health(rt.keys.reports_queue, "h1")


async def test_workers_need_redis(make_settings: Any, runtimes: Any) -> None:
    rt = await runtimes(make_settings(redis=False))
    with pytest.raises(ValueError, match="REDIS_URL"):
        WorkerSettings.for_runtime(rt)


async def test_a_worker_closes_its_redis_pool_even_when_its_jobs_were_cancelled(
    make_settings: Any, runtimes: Any
) -> None:
    rt = await runtimes(make_settings())
    reports, tasks = build_workers(rt, host="h1")
    run = asyncio.create_task(run_workers([reports, tasks]))
    pools = [reports.pool.connection_pool, tasks.pool.connection_pool]
    for _ in range(1000):  # until both run and are connected (their pools are given ready)
        if all(p._available_connections or p._in_use_connections for p in pools):
            break
        await asyncio.sleep(0.01)

    async def job_in_flight() -> None:
        await asyncio.sleep(60)

    stuck = asyncio.create_task(job_in_flight())
    reports.tasks["job"] = stuck  # a job under way when the process is told to stop
    stuck.cancel()
    run.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await run

    assert reports._pool is None
    assert tasks._pool is None
    for pool in pools:  # no connection left open for the garbage collector to warn about
        assert not pool._in_use_connections
        assert all(not conn.is_connected for conn in pool._available_connections)


# -- leases: a killed worker lets its jobs go within seconds -----------------------------------


async def slow_job(ctx: dict[str, Any], seconds: float) -> str:
    await asyncio.sleep(seconds)
    return "done"


@contextlib.asynccontextmanager
async def one_worker(
    redis_url: str, queue: str, lease_seconds: float = LEASE_SECONDS
) -> AsyncIterator[FonteWorker]:
    worker = FonteWorker(
        functions=[func(slow_job, name="slow_job", timeout=600)],
        queue_name=queue,
        redis_settings=RedisSettings.from_dsn(redis_url),
        handle_signals=False,
        poll_delay=0.05,
        health_check_key=f"{queue}:health",
        lease_seconds=lease_seconds,
    )
    async with running(worker):
        yield worker


async def test_a_running_job_is_held_by_a_short_lease_its_worker_keeps_renewing(
    redis_prefix: str,
) -> None:
    queue = f"{redis_prefix}:queue:lease"
    job_id = f"{redis_prefix}:job:slow"
    client = await connect(REDIS_URL)
    try:
        async with one_worker(REDIS_URL, queue, lease_seconds=0.9):
            job = await client.enqueue_job("slow_job", 2.5, _job_id=job_id, _queue_name=queue)
            assert job is not None
            key = in_progress_key_prefix + job_id
            ttls: list[int] = []
            for _ in range(2000):
                ttl = int(await client.pttl(key))
                if ttl > 0:
                    ttls.append(ttl)
                if await job.result_info() is not None:
                    break
                await asyncio.sleep(0.01)
            info = await job.result_info()
        assert info is not None
        assert info.success
        assert info.job_try == 1
        # A job timeout of 600 s used to hold the key for 610 s after a SIGKILL; now no
        # longer than the lease, renewed while the job ran far past its first lease.
        assert ttls
        assert max(ttls) <= 900
        # The job ran far past its first lease: the key's TTL went back up at each renewal
        # (read from the TTLs themselves, not from wall times a busy machine stretches).
        renewals = sum(1 for before, after in itertools.pairwise(ttls) if after > before)
        assert renewals >= 2, f"the lease was not renewed while the job ran: {ttls[:20]}"
        assert not await client.exists(key)
    finally:
        await client.aclose(close_connection_pool=True)


async def test_both_workers_of_a_process_hold_their_jobs_by_lease(
    make_settings: Any, runtimes: Any
) -> None:
    rt = await runtimes(make_settings(max_report_seconds=3600.0))
    for worker in build_workers(rt, host="h1"):
        assert worker.in_progress_timeout_s == LEASE_SECONDS <= 20


# -- a Redis outage: the worker waits it out -------------------------------------------------

OUTAGE_PORT = 6390


def start_redis(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
            return server
        time.sleep(0.02)
    server.kill()
    raise AssertionError(f"redis-server did not start on port {port}")


def stop_redis(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture
def own_redis() -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """A redis-server of the test's own on a loopback port, which the test may stop."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: the outage test needs one it can stop")
    servers: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        servers.append(start_redis(OUTAGE_PORT))
        return servers[-1]

    try:
        yield start
    finally:
        for server in servers:
            if server.poll() is None:
                stop_redis(server)


async def test_a_worker_rides_out_a_redis_outage_and_says_so_once_each_way(
    own_redis: Callable[[], subprocess.Popen[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    url = f"redis://127.0.0.1:{OUTAGE_PORT}/0"
    server = own_redis()
    queue = "outage:queue"
    caplog.set_level(logging.INFO)
    async with one_worker(url, queue) as worker:
        for _ in range(500):
            if worker._pool is not None:
                break
            await asyncio.sleep(0.01)
        stop_redis(server)
        await asyncio.sleep(3)  # several polls and backoffs against a closed port
        assert worker.main_task is not None
        assert not worker.main_task.done(), "the worker ended"
        own_redis()
        client = await connect(url)
        try:
            job = await client.enqueue_job("slow_job", 0.01, _queue_name=queue)
            assert job is not None
            for _ in range(2000):
                if await job.result_info() is not None:
                    break
                await asyncio.sleep(0.01)
            info = await job.result_info()
        finally:
            await client.aclose(close_connection_pool=True)
        assert info is not None
        assert info.success, "the worker did not take jobs again"
        for _ in range(1000):  # its poll loop may still be in a backoff: one full poll more
            if not worker.outage.down:
                break
            await asyncio.sleep(0.01)
    outage = [r.getMessage() for r in caplog.records if r.name == "bot.redis.outage"]
    assert len(outage) == 2, outage
    assert "unreachable" in outage[0]
    assert "answers again" in outage[1]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


async def test_a_job_start_redis_fails_gives_its_slot_back_and_ends_no_worker(
    redis_prefix: str,
) -> None:
    """arq's start_jobs let a WatchError (a connection dropped while watching the job's
    keys) out of the job start, which ended the worker, and leaked the job's slot."""
    async with one_worker(REDIS_URL, f"{redis_prefix}:queue:start") as worker:
        for _ in range(500):
            if worker._pool is not None:
                break
            await asyncio.sleep(0.01)
        free = worker.sem._value
        dropped = WatchError("A ConnectionError occurred on while watching one or more keys")

        async def watch_fails(job_id: str) -> int | None:
            raise dropped

        async def redis_fails(job_id: str) -> int | None:
            raise RedisConnectionError("Connection closed by server.")

        worker._claim = watch_fails  # type: ignore[method-assign]
        await worker.start_jobs([b"j1", b"j2"])  # skipped for now, not raised
        assert (worker.job_counter, worker.sem._value) == (0, free)
        worker._claim = redis_fails  # type: ignore[method-assign]
        with pytest.raises(RedisConnectionError):
            await worker.start_jobs([b"j1"])  # an outage: the poll loop waits it out
        assert (worker.job_counter, worker.sem._value) == (0, free)
        assert worker.main_task is not None
        assert not worker.main_task.done()


class _StuckWorker:
    """A worker whose one job ignores every cancel, as arq's close waits for it."""

    queue_name = "stuck"

    def __init__(self) -> None:
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.released = False
        self.started = asyncio.Event()

    async def async_run(self) -> None:
        self.tasks["j1"] = asyncio.create_task(self._job())
        self.started.set()
        await asyncio.Event().wait()

    async def _job(self) -> None:
        while not self.released:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.Event().wait()

    async def close(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values())


async def _stopped(worker: _StuckWorker, grace: float) -> list[str]:
    """Run `worker` as `fonte worker` does, stop it once its job runs, and return what
    `on_stuck` was told (["given up"] when closing was given up after `grace`)."""
    stuck: list[str] = []
    run = asyncio.create_task(
        run_workers([worker], grace=grace, on_stuck=lambda: stuck.append("given up"))  # type: ignore[list-item]
    )
    await worker.started.wait()
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(run, 60)  # a bound for a hang, not a speed
    return stuck


async def test_a_job_that_will_not_stop_does_not_keep_its_worker_alive() -> None:
    """Before: closing waited for every job, so one stuck where no cancel reaches kept the
    worker process alive after SIGTERM until it was killed."""
    worker = _StuckWorker()
    assert await _stopped(worker, grace=0.05) == ["given up"]
    worker.released = True  # the test's loop must end: the job stops ignoring cancels
    worker.tasks["j1"].cancel()
    await asyncio.gather(worker.tasks["j1"], return_exceptions=True)


async def test_a_stop_that_redis_py_turned_into_a_timeout_still_stops_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker cancelled while a Redis call times out: the call may raise the timeout in
    place of the cancellation, and the poll loop, which waits out an outage, must not wait
    that one out (seen as a worker that never stopped, its test stuck for minutes)."""

    async def cancelled_into_a_timeout(self: Any) -> None:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            raise TimeoutError("Timeout reading from 127.0.0.1:6379") from None

    monkeypatch.setattr("arq.worker.Worker._poll_iteration", cancelled_into_a_timeout)
    worker = FonteWorker(
        functions=[func(slow_job, name="slow_job", timeout=600)],
        queue_name="q:cancelled",
        redis_settings=RedisSettings.from_dsn(REDIS_URL),
        handle_signals=False,
    )
    monkeypatch.setattr(worker.outage, "failed", lambda error: 3600.0)  # an hour's backoff
    polling = asyncio.create_task(worker._poll_iteration())
    done, _ = await asyncio.wait({polling}, timeout=60)  # a stop takes no backoff at all
    polling.cancel()
    assert done, "the poll waited the outage out instead of stopping"
    with pytest.raises(asyncio.CancelledError):
        polling.result()


async def test_a_stop_swallowed_inside_a_poll_still_stops_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker cancelled inside a call that swallowed the cancellation (Python 3.11's
    `wait_for` returns the result that landed as it was cancelled): the poll ends normally,
    and the next one must not start (seen in CI as a worker polling on, its test stuck)."""
    polls = 0

    async def swallowed(self: Any) -> None:
        nonlocal polls
        polls += 1
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(1)

    monkeypatch.setattr("arq.worker.Worker._poll_iteration", swallowed)
    monkeypatch.setattr(FonteWorker, "_renew_leases", lambda self: asyncio.sleep(0))
    worker = FonteWorker(
        functions=[func(slow_job, name="slow_job", timeout=600)],
        queue_name="q:swallowed",
        redis_settings=RedisSettings.from_dsn(REDIS_URL),
        handle_signals=False,
    )
    polling = asyncio.create_task(worker.main())
    done, _ = await asyncio.wait({polling}, timeout=60)
    polling.cancel()
    await worker.close()
    assert done, f"the worker polled on ({polls} polls) after it was told to stop"
    with pytest.raises(asyncio.CancelledError):
        polling.result()
    assert polls == 1


class _DeafOnceWorker(_StuckWorker):
    """A worker whose one job swallows the first cancel it gets, as a callee of Python
    3.11's `wait_for` may, and stops at the next."""

    async def _job(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.Event().wait()
        await asyncio.Event().wait()


async def test_a_job_that_swallowed_its_cancel_is_cancelled_again_and_its_worker_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: one cancel was sent; a job that lost it ran on, and after the grace was left
    to its lease (seen in CI: a killed worker's report job never handed over)."""
    monkeypatch.setattr("bot.worker.RECANCEL_SECONDS", 0.01)
    worker = _DeafOnceWorker()
    assert await _stopped(worker, grace=60) == []
    assert worker.tasks["j1"].cancelled()
