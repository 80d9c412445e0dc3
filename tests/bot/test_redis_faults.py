"""Redis full, restarted without persistence, and black-holed under two real `fonte worker`
processes while 4 reports run, on the Slack stand-in: both workers live through it, and
every report is delivered once or its requester told, in one line with a button to run it
again, that Redis lost it; nothing ends in silence."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
import redis.asyncio

from bot.bench.redis_restart import RedisServer, Restart, fault_run, free_port, restart_after
from tests.support.bot_env import LIMITS_QUESTION
from tests.support.sick_redis import BlackHole

ROOT = Path(__file__).resolve().parents[2]
REPORTS = 4
SLOW = {
    "PYTHONPATH": str(ROOT),
    "FONTE_MODEL": "offline",
    # Each search takes a second, so every report still runs when the fault comes.
    "FONTE_SOURCE": "tests.support.slow_library:open_slow_library",
    "FONTE_TEST_SLOW_WORD": "microgeração",
    "FONTE_TEST_SLOW_SECONDS": "1",
}

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


async def until_true(check: object, what: str, within: float = 120) -> None:
    assert callable(check)
    async with asyncio.timeout(within):
        while True:
            if await check():
                return
            await asyncio.sleep(0.1)


def assert_nothing_silent(outcome: Restart, logs: Path) -> None:
    assert outcome.running_at_kill == REPORTS
    assert outcome.workers_alive, f"a worker exited {outcome.exit_codes}: see {logs}"
    assert outcome.lost == 0, (outcome.statuses, outcome.told)
    assert outcome.duplicated == 0, (outcome.messages, outcome.files)
    assert all(n == 1 for n in outcome.told.values()), outcome.told
    delivered = {thread for thread, _ in outcome.messages}
    assert not delivered & set(outcome.told), "a report delivered and also told lost"


async def test_a_full_redis_delays_reports_and_all_are_delivered_once_space_is_freed(
    library: Path, tmp_path: Path
) -> None:
    """Before: with maxmemory reached (noeviction), the workers exited on the first refused
    write and no report was delivered, even after space was freed."""
    server = RedisServer(tmp_path / "run" / "redis", persistent=False)

    async def fill(server: RedisServer) -> None:
        admin = redis.asyncio.Redis(port=server.port)
        try:
            await admin.config_set("maxmemory-policy", "noeviction")
            await admin.config_set("maxmemory", "1")  # every write refused with OOM

            async def refused() -> bool:
                stats = await admin.info("errorstats")
                return int(stats.get("errorstat_OOM", {}).get("count", 0)) >= 20

            await until_true(refused, "twenty writes refused as OOM")
            await admin.config_set("maxmemory", "0")  # space freed
        finally:
            await admin.aclose()

    outcome = await fault_run(
        library, tmp_path / "run", server, fill, questions=[LIMITS_QUESTION] * REPORTS, env=SLOW
    )
    assert_nothing_silent(outcome, tmp_path / "run")
    assert outcome.statuses == {"delivered": REPORTS}, outcome.statuses


async def test_reports_redis_restarted_twice_without_persistence_lost_are_told(
    library: Path, tmp_path: Path
) -> None:
    """Before: restarted without persistence, no report was delivered and nobody told."""
    server = RedisServer(tmp_path / "run" / "redis", persistent=False)
    outcome = await fault_run(
        library,
        tmp_path / "run",
        server,
        restart_after(1, times=2),
        questions=[LIMITS_QUESTION] * REPORTS,
        env=SLOW,
    )
    assert_nothing_silent(outcome, tmp_path / "run")
    assert len(outcome.told) == REPORTS, outcome.told  # none could finish: Redis forgot them


async def test_reports_through_black_holed_redis_traffic_are_delivered_once_it_flows(
    library: Path, tmp_path: Path
) -> None:
    """Before: with Redis's traffic black-holed, nothing was delivered and nothing logged."""
    port = free_port()
    server = RedisServer(tmp_path / "run" / "redis", port=port, persistent=False)
    hole = await BlackHole(upstream=port).start()
    logs = [tmp_path / "run" / f"worker-{n}.log" for n in (1, 2)]

    async def black_hole(server: RedisServer) -> None:
        hole.held = True

        async def both_say_so() -> bool:
            return all("Redis is unreachable" in log.read_text(errors="replace") for log in logs)

        await until_true(both_say_so, "both workers log the outage")
        hole.held = False

    try:
        outcome = await fault_run(
            library,
            tmp_path / "run",
            server,
            black_hole,
            questions=[LIMITS_QUESTION] * REPORTS,
            redis_url=hole.url,
            redis_timeout=1.0,
            env=SLOW,
        )
    finally:
        await hole.stop()
    assert_nothing_silent(outcome, tmp_path / "run")
    assert outcome.statuses == {"delivered": REPORTS}, outcome.statuses
