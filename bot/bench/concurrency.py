"""How many concurrent reports two arq workers sustain on this machine (offline model).

    python -m bot.bench.concurrency [--library DIR] [--loads 1,2,4,8,16] [--redis URL]

Starts a Slack Web API stand-in on 127.0.0.1 and two `fonte worker` processes, then for each
load N starts N reports at once (through the same flows a Start button runs) and waits until
all are delivered. Prints per-load wall time, throughput and report latency (median, p95).
Not a test: figures, not assertions. Needs Redis; sends traffic to loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
import uuid
from pathlib import Path

from bot.bench.processes import (
    DEFAULT_LIBRARY,
    bench_settings,
    clean,
    slack_stand_in,
    start_workers,
    stop_workers,
    worker_environment,
)
from bot.flows import handle_step
from bot.jobs import open_runtime
from bot.runtime import Runtime
from bot.steps import Ask, Start
from engine import Limits

QUESTIONS = [
    "Quais são as competências da Anatel?",
    "Quais são as atribuições da Anvisa?",
    "Como funciona a aposentadoria da pessoa com deficiência?",
    "Quais são as competências da ANTT?",
]


async def run_load(rt: Runtime, load: int, round_number: int) -> tuple[float, list[float]]:
    """Start `load` reports at once; returns the wall time and each report's latency."""
    report_ids = []
    for n in range(load):
        origin = f"bench-{round_number}-{n}"
        thread = f"{round_number}.{n}"
        question = QUESTIONS[n % len(QUESTIONS)]
        await handle_step(
            rt, Ask(origin=origin, channel="CBENCH", thread_ts=thread, user="U", text=question)
        )
        report_id = await rt.states.by_thread("CBENCH", thread)
        assert report_id is not None
        report_ids.append(report_id)
    started = time.monotonic()
    await asyncio.gather(*(handle_step(rt, Start(report_id=r, user="U")) for r in report_ids))
    done: dict[str, float] = {}
    while len(done) < load:
        for report_id in report_ids:
            if report_id in done:
                continue
            state = await rt.states.get(report_id)
            if state is not None and state.delivered >= 1:
                done[report_id] = time.monotonic() - started
        await asyncio.sleep(0.05)
    return time.monotonic() - started, list(done.values())


async def bench_concurrency(library: Path, loads: list[int], redis_url: str, workers: int) -> None:
    prefix = f"fonte-bench-{uuid.uuid4().hex[:8]}"
    async with slack_stand_in() as api_url:
        env = worker_environment(api_url, redis_url, prefix, library)
        processes = start_workers(env, workers)
        limits = Limits(steps=60, seconds=300, usd=2.0)
        settings = bench_settings(api_url, redis_url, prefix, library, limits)
        rt = await open_runtime(settings)
        try:
            await asyncio.sleep(3)  # workers open and index the library
            await run_load(rt, 2, 0)  # warm-up: first jobs pay for imports and caches
            print(f"{workers} workers, offline model, library {library}")
            print(f"{'reports':>8} {'wall s':>8} {'reports/min':>12} {'median s':>9} {'p95 s':>7}")
            single = None
            sustained = 0
            for round_number, load in enumerate(loads, start=1):
                wall, latencies = await run_load(rt, load, round_number)
                latencies.sort()
                median = statistics.median(latencies)
                p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
                single = single or median
                print(
                    f"{load:>8} {wall:>8.2f} {60 * load / wall:>12.1f} {median:>9.2f} {p95:>7.2f}"
                )
                if p95 <= 3 * single:
                    sustained = load
            print(
                f"sustained: {sustained} concurrent reports with p95 latency within 3x of a "
                f"single report ({single:.2f} s)"
            )
        finally:
            await rt.aclose()
            stop_workers(processes)
            await clean(redis_url, prefix)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, default=DEFAULT_LIBRARY)
    parser.add_argument("--loads", default="1,2,4,8,16,32,64")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    loads = [int(n) for n in args.loads.split(",") if n.strip()]
    asyncio.run(bench_concurrency(args.library, loads, args.redis, args.workers))


if __name__ == "__main__":
    main()
