"""Redis restart: concurrent reports on two real `fonte worker` processes while the Redis
under them is SIGKILLed and started again on the same port (offline model, a Slack
stand-in on loopback).

    python -m bot.bench.redis_restart [--reports 8] [--down 5] [--library DIR]

Starts a redis-server of its own on a free loopback port, with an append-only file fsynced
on every write (as a deployment with AOF: a restart reloads what was acknowledged), and the
workers against it. Once every report runs (its orchestrator holds the run), Redis is
SIGKILLed, left down `--down` seconds and started again from the same directory. Prints
reports delivered, duplicated (a report message or file set posted twice to Slack) and lost
(never delivered), and whether both workers lived through it. Not a test: figures, not
assertions (tests/bot/test_redis_restart.py holds those). Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import redis

from bot.bench.concurrency import QUESTIONS
from bot.bench.processes import (
    DEFAULT_LIBRARY,
    SlackCalls,
    bench_settings,
    slack_stand_in,
    start_worker,
    stop_workers,
    tasks_of,
    until,
    worker_environment,
)
from bot.bench.reports import BENCH_LIMITS, posted_reports, start_reports, workers_started
from bot.jobs import open_runtime
from bot.queue import ArqQueue
from bot.recovery.in_flight import RUN_AGAIN, InFlight, watch_in_flight
from bot.redis.outage import is_outage
from bot.redis.state import FINAL_STATUSES

_CHANNEL = "CRESTART"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """A redis-server of one's own on loopback, persisted to an AOF in `folder` (fsync on
    every write), which can be SIGKILLed and started again from the same data; with
    `persistent=False` it keeps nothing on disk (a restart starts empty), and `options`
    are more of redis-server's (`--maxmemory 2mb`, say)."""

    def __init__(
        self,
        folder: Path,
        port: int | None = None,
        *,
        persistent: bool = True,
        options: Sequence[str] = (),
    ) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server is not installed")
        self.folder = folder
        self.port = port or free_port()
        self.persistent = persistent
        self.options = list(options)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, within: float = 60) -> None:
        """Start it and wait until it answers PING (after loading its AOF)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - the child owns it
        try:
            self.process = subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--dir",
                    str(self.folder),
                    "--save",
                    "",
                    *(
                        ["--appendonly", "yes", "--appendfsync", "always"]
                        if self.persistent
                        else ["--appendonly", "no"]
                    ),
                    *self.options,
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        finally:
            log.close()
        deadline = time.monotonic() + within
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.5)
        try:
            while True:
                try:
                    if client.ping():
                        return
                except redis.RedisError:
                    pass
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start: see {self.folder}")
                time.sleep(0.05)
        finally:
            client.close()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last save; only what the AOF fsynced survives."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


@dataclass
class Restart:
    """What a run saw: each report's end, what Slack was sent, and the workers' fate."""

    report_ids: list[str]
    statuses: Counter[str] = field(default_factory=Counter)
    messages: Counter[tuple[str, str]] = field(default_factory=Counter)
    files: Counter[str] = field(default_factory=Counter)
    running_at_kill: int = 0
    exit_codes: list[int | None] = field(default_factory=list)
    tracebacks: int = 0
    told: Counter[str] = field(default_factory=Counter)
    """Threads told their report was lost, and how many times."""

    @property
    def delivered(self) -> int:
        return self.statuses["delivered"]

    @property
    def duplicated(self) -> int:
        """Report messages and file sets posted more than once, past the first."""
        twice = sum(n - 1 for n in self.messages.values() if n > 1)
        return twice + sum(n - 1 for n in self.files.values() if n > 1)

    @property
    def lost(self) -> int:
        """Reports neither delivered nor their requester told: ended in silence."""
        return len(self.report_ids) - self.delivered - len(self.told)

    @property
    def threads_delivered(self) -> int:
        """Threads that got a report message."""
        return len({thread for thread, _ in self.messages})

    @property
    def workers_alive(self) -> bool:
        return bool(self.exit_codes) and all(code is None for code in self.exit_codes)


Fault = Callable[[RedisServer], Awaitable[None]]
"""What befalls Redis once every report runs: a SIGKILL and restart, a full memory, …"""


def restart_after(down_seconds: float, times: int = 1) -> Fault:
    """SIGKILL Redis and start it again `down_seconds` later, `times` times."""

    async def fault(server: RedisServer) -> None:
        for _ in range(times):
            server.kill()
            await asyncio.sleep(down_seconds)
            server.start()

    return fault


async def restart_run(
    library: Path,
    folder: Path,
    *,
    questions: list[str],
    down_seconds: float,
    within: float = 300,
    **worker_env: str,
) -> Restart:
    """Run `questions` as reports on two workers, SIGKILL Redis once they all run, start it
    again `down_seconds` later, and wait (up to `within` s) until every report ended."""
    server = RedisServer(folder / "redis")
    return await fault_run(
        library,
        folder,
        server,
        restart_after(down_seconds),
        questions=questions,
        within=within,
        env=worker_env,
    )


async def fault_run(
    library: Path,
    folder: Path,
    server: RedisServer,
    fault: Fault,
    *,
    questions: list[str],
    within: float = 300,
    redis_url: str | None = None,
    redis_timeout: float = 5.0,
    env: Mapping[str, str] | None = None,
) -> Restart:
    """Run `questions` as reports on two workers against `server` (through `redis_url`, a
    proxy, when given), let `fault` befall it once they all run, and wait (up to `within` s)
    until every report ended or its requester was told Redis lost it (the bot's watch)."""
    server.start()
    url = redis_url or server.url
    prefix = f"fonte-restart-{uuid.uuid4().hex[:8]}"
    calls = SlackCalls()
    workers: list[subprocess.Popen[bytes]] = []
    try:
        async with slack_stand_in(calls) as api_url:
            per_worker = str(max(1, len(questions)))
            environment = worker_environment(
                api_url,
                url,
                prefix,
                library,
                FONTE_REPORTS_PER_WORKER=per_worker,
                FONTE_CACHE_DIR=str(folder / "cache"),
                FONTE_REDIS_TIMEOUT=str(redis_timeout),
                **(env or {}),
            )
            logs = [folder / f"worker-{n}.log" for n in (1, 2)]
            workers.extend(start_worker(environment, log) for log in logs)
            settings = bench_settings(api_url, url, prefix, library, BENCH_LIMITS)
            rt = await open_runtime(replace(settings, redis_timeout=redis_timeout))
            watch = asyncio.create_task(watch_in_flight(rt, every=0.2))
            try:
                await workers_started(logs, within)
                outcome = Restart(await start_reports(rt, _CHANNEL, "restart", questions))

                async def all_running() -> bool:
                    ledger = rt.queue.in_flight if isinstance(rt.queue, ArqQueue) else None
                    assert ledger is None or isinstance(ledger, InFlight)
                    for report_id in outcome.report_ids:
                        state = await rt.states.get(report_id)
                        if state is None or state.status != "running":
                            return False
                        if await rt.leases.holder(report_id) is None:
                            return False
                        flight = ledger.flights.get(report_id) if ledger else None
                        if ledger is not None and (flight is None or flight.state is None):
                            return False  # the bot has not seen it running yet
                    return True

                await until(
                    all_running, within, "every report's orchestrator running", not_yet=is_outage
                )
                outcome.running_at_kill = len(outcome.report_ids)
                await fault(server)

                async def all_ended() -> bool:  # delivering is not an end: wait past it
                    told = _told(calls)
                    for report_id in outcome.report_ids:
                        state = await rt.states.get(report_id)
                        if state is None and _thread_of(outcome, report_id) in told:
                            continue
                        if state is None or state.status not in FINAL_STATUSES:
                            return False
                    return True

                try:
                    await until(
                        all_ended,
                        within,
                        "every report ended or its requester told",
                        not_yet=is_outage,
                    )
                except AssertionError as stuck:
                    raise AssertionError(f"{stuck}\n{await tasks_of(workers, logs)}") from None
                for report_id in outcome.report_ids:
                    state = await rt.states.get(report_id)
                    outcome.statuses[state.status if state else "gone"] += 1
                outcome.exit_codes = [worker.poll() for worker in workers]
            finally:
                watch.cancel()
                await asyncio.gather(watch, return_exceptions=True)
                await rt.aclose()
                stop_workers(workers)
            outcome.messages = posted_reports(calls)
            outcome.told = _told(calls)
            outcome.files = Counter(
                str(f.get("thread_ts")) for f in calls.of("files.completeUploadExternal")
            )
            outcome.tracebacks = sum(
                log.read_text(errors="replace").count("Traceback") for log in logs
            )
            return outcome
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait(timeout=30)
        server.stop()


def _thread_of(outcome: Restart, report_id: str) -> str:
    return f"restart.{outcome.report_ids.index(report_id)}"


def _told(calls: SlackCalls) -> Counter[str]:
    """Threads told their report was lost (the line with its "run it again" button)."""
    told: Counter[str] = Counter()
    for fields in calls.of("chat.postMessage"):
        blocks = fields.get("blocks")
        text = blocks if isinstance(blocks, str) else json.dumps(blocks, ensure_ascii=False)
        if RUN_AGAIN in text:
            told[str(fields.get("thread_ts"))] += 1
    return told


def _print_figures(outcome: Restart, down: float, library: Path, folder: Path) -> None:
    total = len(outcome.report_ids)
    print(f"redis restart: {total} concurrent reports, 2 `fonte worker` processes, offline")
    print(f"model, library {library}; Redis (AOF, fsync always) SIGKILLed with all {total}")
    print(f"running, started again {down:.0f} s later on the same port")
    print(f"{'delivered':<22}{outcome.delivered}/{total} {dict(outcome.statuses)}")
    print(
        f"{'duplicated':<22}{outcome.duplicated} (Slack got {sum(outcome.messages.values())} "
        f"report messages in {outcome.threads_delivered} threads, "
        f"{sum(outcome.files.values())} file sets)"
    )
    print(f"{'told it was lost':<22}{len(outcome.told)}")
    print(f"{'lost in silence':<22}{outcome.lost}")
    print(
        f"{'workers':<22}{'both alive' if outcome.workers_alive else 'NOT alive'} "
        f"(exit codes {outcome.exit_codes}; {outcome.tracebacks} tracebacks in their logs)"
    )
    print(f"logs: {folder}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=8)
    parser.add_argument("--down", type=float, default=5.0, help="seconds Redis stays down")
    parser.add_argument("--library", type=Path, default=DEFAULT_LIBRARY)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="fonte-redis-restart-"))
    questions = [QUESTIONS[n % len(QUESTIONS)] for n in range(args.reports)]
    with contextlib.suppress(KeyboardInterrupt):
        outcome = asyncio.run(
            restart_run(args.library, folder, questions=questions, down_seconds=args.down)
        )
        _print_figures(outcome, args.down, args.library, folder)


if __name__ == "__main__":
    os.environ.setdefault("FONTE_MODEL", "offline")
    main()
