"""Worker configuration: two queues, abortable tasks, timeouts from the report cap."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from bot.worker import WorkerSettings, build_workers, run_workers


async def test_two_workers_one_per_queue(make_settings: Any, runtimes: Any) -> None:
    rt = await runtimes(make_settings(max_report_seconds=100.0))
    reports, tasks = build_workers(rt, host="h1")
    assert reports.queue_name == rt.keys.reports_queue
    assert tasks.queue_name == rt.keys.tasks_queue
    assert set(reports.functions) == {"run_report"}
    assert set(tasks.functions) == {"converse", "run_subagent", "verify_claim"}
    assert tasks.allow_abort_jobs
    assert not reports.allow_abort_jobs
    assert reports.functions["run_report"].timeout_s == 320
    assert tasks.functions["run_subagent"].timeout_s == 160
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
    for _ in range(500):  # until both are connected
        if reports._pool and tasks._pool:
            break
        await asyncio.sleep(0.01)
    pools = [reports.pool.connection_pool, tasks.pool.connection_pool]

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
