"""Soak: concurrent reports on two real `fonte worker` processes, one SIGKILLed mid-way and
restarted (offline model, a Slack stand-in on loopback).

    python -m bot.bench.soak [--reports 20] [--library DIR] [--redis URL] [--restart-after 0]

Starts the reports at once through the same flows a Start button runs. Once a quarter of
them hold verified claims, the worker holding the most runs is SIGKILLed (no clean-up of any
kind), and a new worker is started `--restart-after` seconds later, as a supervisor would.
Prints reports completed, duplicates (a report message or file posted twice), lost claims
(verified before the kill, missing from the delivered report), the slowest report's time,
and for the killed worker's reports the time from the kill and from the restart to delivery.
Not a test: figures, not assertions. Needs Redis; sends traffic to loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.bench.concurrency import QUESTIONS
from bot.bench.processes import (
    DEFAULT_LIBRARY,
    SlackCalls,
    bench_settings,
    clean,
    slack_stand_in,
    start_worker,
    stop_workers,
    worker_environment,
)
from bot.bench.reports import BENCH_LIMITS, posted_reports, start_reports, workers_started
from bot.jobs import open_runtime
from bot.runtime import Runtime
from engine import ClaimStatus

_CHANNEL = "CSOAK"


@dataclass
class Soak:
    report_ids: list[str]
    started: float
    delivered_at: dict[str, float] = field(default_factory=dict)
    verified_before: dict[str, set[str]] = field(default_factory=dict)
    killed_runs: set[str] = field(default_factory=set)
    killed_at: float | None = None
    restarted_at: float | None = None


async def verified_ids(rt: Runtime, report_id: str) -> set[str]:
    board = (await rt.stores.open(report_id, BENCH_LIMITS, "soak")).board
    return {c.id for c in await board.claims() if c.status is ClaimStatus.verified}


async def holders(rt: Runtime, report_ids: list[str]) -> dict[str, int]:
    """The process id holding each report's run (bot.recovery.heartbeat's token)."""
    held = {}
    for report_id in report_ids:
        token = await rt.leases.holder(report_id)
        if token is not None:
            held[report_id] = int(token.split(":")[1])
    return held


async def note_deliveries(rt: Runtime, soak: Soak) -> None:
    for report_id in soak.report_ids:
        if report_id in soak.delivered_at:
            continue
        state = await rt.states.get(report_id)
        if state is not None and state.delivered >= 1:
            soak.delivered_at[report_id] = time.monotonic()


async def kill_mid_way(
    rt: Runtime,
    soak: Soak,
    workers: list[subprocess.Popen[bytes]],
) -> subprocess.Popen[bytes] | None:
    """Wait until a quarter of the reports hold verified claims, then SIGKILL the worker
    holding the most runs still under way; returns it (None if all ended first)."""
    while len(soak.delivered_at) < len(soak.report_ids):
        await note_deliveries(rt, soak)
        verified = {r: await verified_ids(rt, r) for r in soak.report_ids}
        held = await holders(rt, soak.report_ids)
        running = {r: pid for r, pid in held.items() if r not in soak.delivered_at}
        if sum(1 for ids in verified.values() if ids) * 4 >= len(soak.report_ids) and running:
            pid, _ = Counter(running.values()).most_common(1)[0]
            victim = next(w for w in workers if w.pid == pid)
            victim.send_signal(signal.SIGKILL)
            victim.wait(timeout=30)
            soak.killed_at = time.monotonic()
            soak.killed_runs = {r for r, p in running.items() if p == pid}
            # Read after the kill: nothing the dead worker did can change them any more.
            soak.verified_before = {r: await verified_ids(rt, r) for r in soak.report_ids}
            return victim
        await asyncio.sleep(0.1)
    return None


async def soak_run(
    library: Path, redis_url: str, reports: int, restart_after: float, logs: Path
) -> None:
    prefix = f"fonte-soak-{uuid.uuid4().hex[:8]}"
    calls = SlackCalls()
    async with slack_stand_in(calls) as api_url:
        # At most half the reports per worker, so the one killed holds about half the runs.
        per_worker = str(max(1, (reports + 1) // 2))
        env = worker_environment(
            api_url, redis_url, prefix, library, FONTE_REPORTS_PER_WORKER=per_worker
        )
        first = [logs / f"worker-{n}.log" for n in (1, 2)]
        workers = [start_worker(env, log) for log in first]
        settings = bench_settings(api_url, redis_url, prefix, library, BENCH_LIMITS)
        rt = await open_runtime(settings)
        try:
            await workers_started(first, 120)  # workers open and index the library
            soak = Soak(
                await start_reports(
                    rt, _CHANNEL, "soak", [QUESTIONS[n % len(QUESTIONS)] for n in range(reports)]
                ),
                time.monotonic(),
            )
            victim = await kill_mid_way(rt, soak, workers)
            if victim is not None:
                await asyncio.sleep(restart_after)
                workers.append(start_worker(env, logs / "worker-3.log"))
                soak.restarted_at = time.monotonic()
            while len(soak.delivered_at) < len(soak.report_ids):
                await note_deliveries(rt, soak)
                await asyncio.sleep(0.05)
            await _print_figures(rt, soak, calls, library, victim)
        finally:
            await rt.aclose()
            stop_workers(workers)
            await clean(redis_url, prefix)
    print(f"worker logs: {logs}")


async def _print_figures(
    rt: Runtime,
    soak: Soak,
    calls: SlackCalls,
    library: Path,
    victim: subprocess.Popen[bytes] | None,
) -> None:
    statuses: Counter[str] = Counter()
    lost: dict[str, set[str]] = {}
    posted = 0
    charged: list[tuple[float, float]] = []
    for report_id in soak.report_ids:
        state = await rt.states.get(report_id)
        report = await rt.states.load_report(report_id, 1)
        statuses[state.status if state else "gone"] += 1
        posted += len(state.posted) if state else 0
        verified = {c.id for c in report.verified_claims()} if report else set()
        missing = soak.verified_before.get(report_id, set()) - verified
        if missing:
            lost[report_id] = missing
        if report is not None and report_id in soak.killed_runs:
            charged.append((report.spend.seconds, soak.delivered_at[report_id] - soak.started))
    messages = posted_reports(calls)
    twice = sum(n - 1 for n in messages.values() if n > 1)
    files = Counter(str(f.get("thread_ts")) for f in calls.of("files.completeUploadExternal"))
    files_twice = sum(n - 1 for n in files.values() if n > 1)
    slowest = max(at - soak.started for at in soak.delivered_at.values())
    before = sum(len(ids) for ids in soak.verified_before.values())
    print(f"soak: {len(soak.report_ids)} concurrent reports, 2 `fonte worker` processes, offline")
    print(f"model, library {library}")
    print(
        f"{'reports completed':<26}{statuses['delivered']}/{len(soak.report_ids)} {dict(statuses)}"
    )
    print(
        f"{'duplicates':<26}{twice + files_twice} (report messages posted twice: {twice}, "
        f"file sets uploaded twice: {files_twice}; Slack got {sum(messages.values())} report "
        f"messages and {sum(files.values())} file sets, the states record {posted} messages)"
    )
    print(
        f"{'lost claims':<26}{sum(len(m) for m in lost.values())} of {before} "
        "verified before the kill"
    )
    print(f"{'slowest report':<26}{slowest:.1f} s from Start to delivery")
    if victim is None or soak.killed_at is None or soak.restarted_at is None:
        print("no worker was killed: every report ended before a quarter held verified claims")
        return
    kill = soak.killed_at - soak.started
    print(
        f"{'killed':<26}worker pid {victim.pid} at {kill:.1f} s, holding "
        f"{len(soak.killed_runs)} runs; restarted {soak.restarted_at - soak.killed_at:.1f} s later"
    )
    if soak.killed_runs:
        after_kill = [soak.delivered_at[r] - soak.killed_at for r in soak.killed_runs]
        after_restart = [soak.delivered_at[r] - soak.restarted_at for r in soak.killed_runs]
        print(
            f"{'killed runs delivered':<26}{min(after_kill):.1f}–{max(after_kill):.1f} s after "
            f"the kill; at most {max(after_restart):.1f} s after the restart"
        )
        uncharged = [wall - spent for spent, wall in charged]
        print(
            f"{'budget of killed runs':<26}seconds charged {min(s for s, _ in charged):.1f}–"
            f"{max(s for s, _ in charged):.1f}, from Start to delivery "
            f"{min(w for _, w in charged):.1f}–{max(w for _, w in charged):.1f}: "
            f"{min(uncharged):.1f}–{max(uncharged):.1f} s not charged"
        )
        held = (
            max(after_restart) <= 60
            and statuses["delivered"] == len(soak.report_ids)
            and twice + files_twice == 0
            and not lost
        )
        print(
            "acceptance (killed runs delivered once, with the claims verified before the kill, "
            f"within 60 s of the restart): {'held' if held else 'NOT held'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=20)
    parser.add_argument("--library", type=Path, default=DEFAULT_LIBRARY)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--restart-after", type=float, default=0.0)
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="fonte-soak-"))
    asyncio.run(soak_run(args.library, args.redis, args.reports, args.restart_after, logs))


if __name__ == "__main__":
    main()
