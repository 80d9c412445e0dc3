"""A Redis that fails under the bot and its workers, on loopback: one that accepts connections
and never answers (or answers LOADING) at start, one that answers READONLY as a replica
does, and one whose traffic is black-holed mid-run (a proxy that stops forwarding without
closing). Outages are ridden out with bounded timeouts and logged at least once a minute
(by an injected clock); a process that cannot reach Redis at start says so in one line."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio
from arq.worker import func

from bot.bench.redis_restart import RedisServer
from bot.redis.connection import client
from bot.redis.outage import Outage
from bot.worker import FonteWorker
from tests.support.bot_env import BOT_TOKEN
from tests.support.sick_redis import (
    LOADING,
    READONLY,
    BlackHole,
    FakeRedis,
    HandClock,
    running,
)

ROOT = Path(__file__).resolve().parents[2]
SMALL_TIMEOUT = 0.3


async def echo_job(ctx: dict[str, object], value: int) -> int:
    return value


@contextlib.asynccontextmanager
async def one_worker(url: str, queue: str, clock: HandClock) -> AsyncIterator[FonteWorker]:
    """A FonteWorker on `url` whose connection waits SMALL_TIMEOUT at most for Redis, and
    whose outage log runs on `clock`."""
    worker = FonteWorker(
        functions=[func(echo_job, name="echo_job", timeout=60)],
        queue_name=queue,
        redis_pool=client(url, SMALL_TIMEOUT),
        handle_signals=False,
        poll_delay=0.05,
        health_check_key=f"{queue}:health",
    )
    worker.outage = Outage(f"worker {queue}", clock=clock)
    async with running(worker):
        yield worker


async def until(check: object, what: str, within: float = 60) -> None:
    """Until `check()` holds; `within` only bounds a hang (conditions are waited for)."""
    assert callable(check)
    async with asyncio.timeout(within):
        while True:
            if check():
                return
            await asyncio.sleep(0.02)


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.redis.outage"]


@pytest.mark.parametrize("role", ["bot", "worker"])
@pytest.mark.parametrize("answer", [None, LOADING], ids=["silent", "loading"])
async def test_bot_and_worker_refuse_a_redis_that_does_not_answer_at_start_in_one_line(
    role: str, answer: str | None, library: Path, tmp_path: Path
) -> None:
    """Before: a Redis that accepted connections and never answered hung `fonte bot` and
    `fonte worker` at start with empty logs."""
    fake = await FakeRedis(error=answer).start()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_APP_TOKEN": "xapp-test",
        "REDIS_URL": fake.url,
        "FONTE_LIBRARY": str(library),
        "FONTE_CACHE_DIR": str(tmp_path / "cache"),
        "FONTE_MODEL": "offline",
        "FONTE_REDIS_TIMEOUT": "0.5",
    }
    command = f"import sys; from engine.cli import main; sys.exit(main([{role!r}]))"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", command, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        # Generous: only a hang fails here; the deadline the process keeps is 0.5 s.
        _, stderr = await asyncio.wait_for(process.communicate(), 120)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await fake.stop()
    lines = stderr.decode().strip().splitlines()
    assert process.returncode == 2, lines
    assert len(lines) == 1, lines
    assert "no answer within 0.5 s" in lines[0], lines
    assert fake.url.removesuffix("/0") in lines[0]
    if answer is not None:
        assert "is loading the dataset" in lines[0]


async def test_a_worker_rides_out_a_replica_answering_readonly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    fake = await FakeRedis(error=READONLY).start()
    try:
        async with one_worker(fake.url, "readonly:queue", HandClock()) as worker:
            await until(lambda: worker.outage.failures >= 3, "three refused polls")
            assert worker.main_task is not None
            assert not worker.main_task.done(), "the worker ended"
    finally:
        await fake.stop()
    lines = outage_lines(caplog)
    assert len(lines) == 1, lines
    assert "read only replica" in lines[0]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


async def test_a_worker_rides_out_black_holed_traffic_saying_so_each_minute(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: with its traffic black-holed the worker waited on a reply for ever, and
    logged nothing; jobs enqueued meanwhile never ran."""
    caplog.set_level(logging.INFO)
    server = RedisServer(tmp_path / "redis", persistent=False)
    server.start()
    hole = await BlackHole(upstream=server.port).start()
    direct = redis.asyncio.Redis(port=server.port)
    clock = HandClock()
    queue = "blackhole:queue"
    try:
        async with one_worker(hole.url, queue, clock) as worker:
            await until(lambda: worker._pool is not None, "the worker's pool")
            await asyncio.sleep(0.2)  # a few polls through the proxy
            hole.held = True
            await until(lambda: worker.outage.down, "the black hole seen as an outage")
            clock.advance(61)
            await until(
                lambda: any("still unreachable" in line for line in outage_lines(caplog)),
                "a reminder a minute later",
            )
            assert worker.main_task is not None
            assert not worker.main_task.done(), "the worker ended"
            pool = client(server.url)
            job = await pool.enqueue_job("echo_job", 7, _queue_name=queue)
            assert job is not None
            hole.held = False
            async with asyncio.timeout(60):
                while True:
                    info = await job.result_info()
                    if info is not None:
                        break
                    await asyncio.sleep(0.05)
            await pool.aclose(close_connection_pool=True)
            assert info.success
            assert info.result == 7
            await until(lambda: not worker.outage.down, "the outage's end")
    finally:
        await direct.aclose()
        await hole.stop()
        server.stop()
    lines = outage_lines(caplog)
    assert "unreachable" in lines[0]
    assert "answers again" in lines[-1]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
