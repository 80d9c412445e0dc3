"""Routines on two real `fonte worker` processes and a moved clock: every worker's cron
ticks, yet each period runs once; the worker running a routine is SIGKILLed mid-run and the
other one finishes it, posting its changes once; and a Redis SIGKILLed mid-run and started
again from its append-only file loses and duplicates nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.bench.processes import start_worker, until
from bot.bench.redis_restart import RedisServer
from bot.flows import handle_step
from bot.redis.outage import is_outage
from bot.routines.notices import ROUTINE_EVENT
from bot.routines.run import run_id_of
from bot.runtime import Runtime
from bot.steps import Watch
from engine import utc_now
from tests.support.slack_runs import CHANNEL, USER, finished_report
from tests.support.slack_stub import SlackStub
from tests.support.worker_processes import killed_at_the_end, worker_env

THREAD = "800.1"
MADE = (utc_now() + timedelta(days=400)).replace(hour=12, minute=0, second=0, microsecond=0)
"""When the routine is made, on the moved clock: far past the workers' own, so their cron,
which ticks at the real time, never finds it due; only the ticks the test enqueues do."""
FIRST, SECOND, THIRD = (f"{MADE + timedelta(days=n):%Y-%m-%d}" for n in range(3))


class Fixed:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def marks(tmp_path: Path) -> Path:
    folder = tmp_path / "marks"
    folder.mkdir()
    return folder


@dataclass
class Scene:
    """What a test of routines on worker processes is given: the bot side's settings and
    runtimes, the Slack stand-in, the library, its folder and Redis prefix, the marks slow
    searches leave, and the worker processes it starts (killed at the end)."""

    settings: Any
    runtimes: Any
    slack: SlackStub
    library: Path
    tmp: Path
    prefix: str
    marks: Path
    processes: list[subprocess.Popen[bytes]]

    async def watched(self, redis_url: str | None = None) -> tuple[Runtime, str]:
        """The bot side's runtime (on `redis_url`, else the tests' Redis) and a routine made
        from a report delivered earlier; the law then changes, so its next run has news."""
        settings = self.settings()
        rt = await self.runtimes(replace(settings, redis_url=redis_url or settings.redis_url))
        routine_id = await watched_report(self.runtimes, self.settings, rt)
        changed_law(self.library)
        return rt, routine_id

    def start_workers(self, **extra: str) -> None:
        env = slow_env(
            self.slack, self.prefix, self.library, self.tmp / "cache", self.marks, **extra
        )
        self.processes.extend(start_worker(env, self.tmp / f"worker-{n}.log") for n in (1, 2))


@pytest.fixture
def scene(
    make_settings: Any,
    runtimes: Any,
    slack: SlackStub,
    library: Path,
    tmp_path: Path,
    redis_prefix: str,
    marks: Path,
) -> Iterator[Scene]:
    with killed_at_the_end() as started:
        yield Scene(make_settings, runtimes, slack, library, tmp_path, redis_prefix, marks, started)


def slow_env(
    slack: SlackStub, prefix: str, library: Path, cache: Path, marks: Path, **extra: str
) -> dict[str, str]:
    """Workers whose first search of the question waits a minute in the first process that
    makes it (the one a test kills), and no time in any other."""
    settings = {
        "FONTE_SOURCE": "tests.support.slow_library:open_slow_library",
        "FONTE_TEST_SLOW_WORD": "microgeração",
        "FONTE_TEST_SLOW_SECONDS": "60",
        "FONTE_TEST_MARK_DIR": str(marks),
        **extra,
    }
    return worker_env(slack.api_url, prefix, library, cache, **settings)


async def watched_report(runtimes: Any, make_settings: Any, rt: Runtime) -> str:
    """A report delivered earlier (researched in this process, kept in `rt`'s Redis) and
    made a daily routine by its requester: the routine's id."""
    embedded = await runtimes(make_settings(redis=False))
    state = await finished_report(embedded, THREAD)
    report = await embedded.states.load_report(state.report_id, state.reported)
    assert report is not None
    assert await rt.states.create(state)
    await rt.states.save_report(state.report_id, state.reported, report)
    rt.now = Fixed(MADE)
    await handle_step(
        rt, Watch(report_id=state.report_id, user=USER, channel=CHANNEL, frequency="daily")
    )
    return state.report_id


def slow_searches(marks: Path) -> list[str]:
    """The marks slow searches left: `slow-search-<pid>` of the process making one."""
    return [mark.name for mark in marks.iterdir()]


def changed_law(library: Path) -> None:
    law = library / "lei-14300.md"
    law.write_text(law.read_text().replace("75 kW", "100 kW"), encoding="utf-8")


async def ticks(rt: Runtime, at: datetime, count: int = 2) -> None:
    """`count` ticks at `at`, as every worker's cron enqueues one (arq names a cron job
    after its time; these are named apart, as clocks that disagree would)."""
    assert rt.redis is not None
    for _ in range(count):
        await rt.redis.enqueue_job(
            "routine_tick",
            at.isoformat(),
            _queue_name=rt.keys.reports_queue,
            _job_id=f"{rt.keys.prefix}:tick:{uuid.uuid4().hex[:8]}",
        )


def posted_runs(slack: SlackStub) -> list[dict[str, Any]]:
    found = []
    for call in slack.calls_to("chat.postMessage"):
        metadata = call.params.get("metadata")
        if isinstance(metadata, str):
            metadata = json.loads(metadata)
        if isinstance(metadata, dict) and metadata.get("event_type") == ROUTINE_EVENT:
            found.append(metadata["event_payload"])
    return found


async def test_two_workers_run_each_period_once_and_a_killed_run_is_finished_once(
    scene: Scene,
) -> None:
    rt, routine_id = await scene.watched()
    scene.start_workers()
    slack, marks = scene.slack, scene.marks

    day, period = MADE + timedelta(days=1), SECOND
    await ticks(rt, day)

    async def slow_search_started() -> bool:
        return (
            bool(slow_searches(marks))
            and await rt.leases.holder(run_id_of(routine_id, period)) is not None
        )

    await until(slow_search_started, 120, "the run under way, slowly, on one worker")
    [mark] = slow_searches(marks)
    killed = int(mark.rsplit("-", 1)[1])
    holder = await rt.leases.holder(run_id_of(routine_id, period))
    assert holder is not None
    assert f":{killed}:" in holder  # the worker running it
    os.kill(killed, signal.SIGKILL)
    await ticks(rt, day + timedelta(hours=1))  # a later tick finds it claimed, not ended

    async def ended(wanted: str) -> bool:
        routine = await rt.routines.get(routine_id)
        return routine is not None and routine.done == wanted

    await until(lambda: ended(period), 120, "the other worker finishing the killed run")
    assert posted_runs(slack) == [{"routine": routine_id, "period": period}]  # once
    history = await rt.routines.history(routine_id)
    assert [(r.period, r.result) for r in history] == [(period, "changed"), (FIRST, "first")]

    # The same day again, from both workers: nothing; the next day: no change, nothing posted.
    await ticks(rt, day + timedelta(hours=5))
    next_day = day + timedelta(days=1)
    await ticks(rt, next_day)
    await until(lambda: ended(THIRD), 120, "the next day's run")
    await ticks(rt, next_day + timedelta(hours=1))
    history = await rt.routines.history(routine_id)
    assert [(r.period, r.result) for r in history] == [
        (THIRD, "no_change"),
        (period, "changed"),
        (FIRST, "first"),
    ]
    assert len(posted_runs(slack)) == 1
    files = [
        c
        for c in slack.calls_to("files.completeUploadExternal")
        if c.params.get("initial_comment") == "Arquivos atualizados"
    ]
    assert len(files) == 1


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
async def test_a_redis_restarted_mid_run_loses_and_duplicates_nothing(scene: Scene) -> None:
    slack, marks, processes = scene.slack, scene.marks, scene.processes
    server = RedisServer(scene.tmp / "redis")  # its append-only file fsynced on every write
    server.start()
    try:
        rt, routine_id = await scene.watched(server.url)
        # The run outlives the outage, then goes on.
        scene.start_workers(REDIS_URL=server.url, FONTE_TEST_SLOW_SECONDS="10")
        day, period = MADE + timedelta(days=1), SECOND
        await ticks(rt, day)

        async def under_way() -> bool:
            holder = await rt.leases.holder(run_id_of(routine_id, period))
            return bool(slow_searches(marks)) and holder is not None

        await until(under_way, 120, "the run under way")
        server.kill()  # SIGKILL: only what the append-only file holds comes back
        server.start()
        redis = rt.redis
        assert redis is not None
        await until(lambda: redis.ping(), 60, "Redis answering again", not_yet=is_outage)
        await ticks(rt, day + timedelta(hours=1))

        async def ended() -> bool:
            routine = await rt.routines.get(routine_id)
            return routine is not None and routine.done == period

        await until(ended, 180, "the run ended after the restart", not_yet=is_outage)
        assert [p.poll() for p in processes] == [None, None]  # both workers rode it out
        assert posted_runs(slack) == [{"routine": routine_id, "period": period}]
        history = await rt.routines.history(routine_id)
        assert [(r.period, r.result) for r in history] == [
            (period, "changed"),
            (FIRST, "first"),
        ]
    finally:
        server.stop()
