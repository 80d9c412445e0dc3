"""Worker configuration: two queues, abortable tasks, timeouts from the report cap."""

from __future__ import annotations

from typing import Any

import pytest

from bot.worker import WorkerSettings, build_workers


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
