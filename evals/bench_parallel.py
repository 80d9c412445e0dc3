"""Benchmark: do independent subquestions really run at the same time?

    python -m evals.bench_parallel [--latency 0.5] [--corpus ../shared/corpus/hotpotqa]

Serves the HotpotQA pages on the offline web with the given latency on every request (search
and fetch), builds one 4-subquestion plan (four HotpotQA questions), and runs it through the
final architecture and through the five-role v1 on the same plan, with the real SearXNG
provider and the real guarded fetcher. Prints the final architecture's wall time against its
slowest subagent plus planning and writing, and v1's wall time. Asserts nothing.

All pages live on one host here, so the fetcher's per-host limit is raised to let four
subagents read at once, as four sites would on the real web.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine import (
    Event,
    ExtractiveModel,
    Limits,
    Orchestrator,
    Plan,
    Report,
    SubagentFinished,
    SubagentStarted,
    Subquestion,
)
from engine.assembly import web_sources
from engine.planning import criterion_for, make_brief
from engine.v1 import OfflineV1Roles, V1Pipeline
from evals.defaults import CORPUS
from evals.offline_web import OfflineWeb
from evals.web_pages import load_hotpotqa

HOTPOTQA = CORPUS / "hotpotqa"
SUBQUESTIONS = 4


@dataclass
class SubagentClock:
    """Start and end time of every subagent, from the progress events."""

    started: dict[str, float] = field(default_factory=dict)
    finished: dict[str, float] = field(default_factory=dict)

    def __call__(self, event: Event) -> None:
        if isinstance(event, SubagentStarted):
            self.started[event.subagent] = time.perf_counter()
        elif isinstance(event, SubagentFinished):
            self.finished[event.subagent] = time.perf_counter()

    def durations(self) -> dict[str, float]:
        return {name: self.finished[name] - self.started[name] for name in self.finished}

    def research_window(self) -> float:
        return max(self.finished.values()) - min(self.started.values())


def four_question_plan(corpus: Path) -> Plan:
    questions = json.loads((corpus / "questions.json").read_text("utf-8"))[:SUBQUESTIONS]
    subquestions = [
        Subquestion(id=f"s{i}", title=q["question"], text=q["question"])
        for i, q in enumerate(questions, start=1)
    ]
    return Plan(
        question="; ".join(s.text for s in subquestions),
        sufficient_when=[criterion_for(s, "en") for s in subquestions],
        subquestions=subquestions,
    )


async def run_final(plan: Plan, env: dict[str, str], cache: Path) -> tuple[float, SubagentClock]:
    clock = SubagentClock()
    async with web_sources(cache, env) as web:
        orchestrator = Orchestrator(
            ExtractiveModel(),
            web.searcher,
            web.fetcher,
            limits=Limits(),
            events=clock,
            gap_rounds=0,
        )
        started = time.perf_counter()
        await orchestrator.run(make_brief(plan.question), plan=plan)
        return time.perf_counter() - started, clock


async def run_v1(plan: Plan, env: dict[str, str], cache: Path) -> tuple[float, Report]:
    async with web_sources(cache, env) as web:
        pipeline = V1Pipeline(OfflineV1Roles(), web.searcher, web.fetcher, limits=Limits())
        started = time.perf_counter()
        report = await pipeline.run(make_brief(plan.question), plan=plan)
        return time.perf_counter() - started, report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--latency", type=float, default=0.5, help="seconds added per request")
    parser.add_argument("--corpus", type=Path, default=HOTPOTQA)
    args = parser.parse_args(argv)
    plan = four_question_plan(args.corpus)
    with OfflineWeb(load_hotpotqa(args.corpus), latency=args.latency) as web:
        env = {
            "FONTE_SEARCH": "searxng",
            "SEARXNG_URL": web.base_url,
            "FONTE_FETCH_ALLOWLIST": "127.0.0.2/32",
            "FONTE_FETCH_DELAY": "0",
            "FONTE_FETCH_PER_HOST": "16",
        }
        cache_root = Path(f"/tmp/fonte-bench-parallel-{time.time_ns()}")
        final_seconds, clock = asyncio.run(run_final(plan, env, cache_root / "final"))
        v1_seconds, _ = asyncio.run(run_v1(plan, env, cache_root / "v1"))
    durations = clock.durations()
    slowest = max(durations.values())
    outside = final_seconds - clock.research_window()  # planning, verification, writing
    bound = slowest + outside
    print(f"parallel benchmark: {SUBQUESTIONS} subquestions, {args.latency:.2f} s per request")
    for name, seconds in sorted(durations.items()):
        print(f"  subagent {name}: {seconds:6.2f} s")
    print(f"final   {final_seconds:6.2f} s wall")
    print(f"        slowest subagent {slowest:.2f} s + planning/verifying/writing {outside:.2f} s")
    print(f"        = {bound:.2f} s; wall / that = {final_seconds / bound:.2f} (target <= ~1.5)")
    print(f"        sum of subagents {sum(durations.values()):.2f} s (what a sequential run pays)")
    print(f"v1      {v1_seconds:6.2f} s wall (five roles in sequence, one researcher)")
    print(f"v1 / final = {v1_seconds / final_seconds:.2f}")


if __name__ == "__main__":
    main()
