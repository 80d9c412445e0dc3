"""Redis SIGKILLed under two real `fonte worker` processes while 8 reports run, and started
again on the same port from its append-only file: both workers ride it out (no exit), and
every report is delivered to Slack exactly once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.bench.redis_restart import restart_run
from tests.support.bot_env import LIMITS_QUESTION

ROOT = Path(__file__).resolve().parents[2]
REPORTS = 8


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
async def test_workers_ride_out_a_redis_restart_and_deliver_every_report_once(
    library: Path, tmp_path: Path
) -> None:
    outcome = await restart_run(
        library,
        tmp_path / "run",
        questions=[LIMITS_QUESTION] * REPORTS,
        down_seconds=3,
        # Generous: conditions are waited for, times never compared.
        within=300,
        PYTHONPATH=str(ROOT),
        FONTE_MODEL="offline",
        # Each search takes a second, so every report still runs when Redis is killed.
        FONTE_SOURCE="tests.support.slow_library:open_slow_library",
        FONTE_TEST_SLOW_WORD="microgeração",
        FONTE_TEST_SLOW_SECONDS="1",
    )
    logs = tmp_path / "run"
    assert outcome.running_at_kill == REPORTS
    assert outcome.workers_alive, f"a worker exited {outcome.exit_codes}: see {logs}"
    assert outcome.statuses == {"delivered": REPORTS}, outcome.statuses
    assert outcome.lost == 0
    # Exactly once: each thread got its report pages once and its files once.
    assert outcome.threads_delivered == REPORTS
    assert outcome.duplicated == 0, (outcome.messages, outcome.files)
    assert sorted(outcome.files.values()) == [1] * REPORTS
