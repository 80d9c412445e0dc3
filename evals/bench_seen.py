"""What the seen check costs: its time per claim and per report, and a report's wall time
with and without it, on FinanceBench filings.

    python -m evals.bench_seen [--corpus DIR] [--questions 0,5,...] [--filings N]
                               [--repeats N] [--latency-tps X] [--latency-overhead S]
                               [--cache-dir DIR]

The library: the filings the chosen FinanceBench questions cite, and as many more of the
first questions' filings as make `--filings` (hard links, or copies in a temporary folder,
never in the project), opened once (parsed into `--cache-dir`, so a second run starts warm).

The report: one brief asking every chosen question (by default five questions of five
companies), planned as the offline planner plans each question alone, the subquestions put
together; each subagent quotes up to six claims, so a report checks about 30. It is written
by the offline model twice per mode, without the seen check (the text check alone, as
before it) and with it (a fresh render cache each time: a report pays its own renders), in
alternating order so neither always finds the disk warm, in two modes:

(a) under the evals' simulated latency (`evals.latency.SimulatedLatency`, the model that
    `fonte eval --latency-tps` uses for its time per report: every notional model call
    really sleeps; by default 100 output tokens/s and 0.5 s per call, `docs/evals.md`);
(b) with the bare offline model, which answers in microseconds, so the seen check is
    nearly all of the work.

Prints, per run, the claims checked, the wall times and the CPU seconds of the process and
its Tesseract calls; per mode, the mean wall time without and with the check and the
overhead, the CPU it adds per claim (steadier than wall time on a machine other work
shares); then the seen check's time per checked claim (median, 95th percentile: a claim's
share of its batch's wall time) and per report. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import engine
from engine import ExtractiveModel, Limits, Orchestrator, Plan, Report
from engine.documents import DocumentKind
from engine.planning import make_brief
from engine.sources.library import Library
from engine.verify import ClaimVerifier
from engine.verify.seen import PdfSeer, SeenCheck, SeenDispatcher, SeenLog, SightCache
from evals.defaults import CORPUS, DEFAULT_OVERHEAD_SECONDS
from evals.latency import CallClock, SimulatedLatency, SimulatedModel

REPORT_QUESTIONS = (0, 5, 20, 24, 32)
"""3M's 2018 capital expenditure, Amazon's 2017 DPO, American Express's tax rate, Best
Buy's 2019 inventories, Block's revenue growth: five companies, one filing each, seven
subquestions; the offline model finds 30 claims for them."""
LATENCY_TPS = 100.0
"""Output tokens per second of the simulated model, as `docs/evals.md`'s examples run it."""


@dataclass
class Mode:
    """One way of running the model: its name and its simulated latency (None: bare)."""

    name: str
    latency: SimulatedLatency | None
    walls: list[tuple[float, float]] = field(default_factory=list)
    cpus: list[tuple[float, float]] = field(default_factory=list)
    """CPU seconds of the process and the Tesseract it ran, without and with the check."""
    per_claim: list[float] = field(default_factory=list)
    per_report: list[float] = field(default_factory=list)


def _library_folder(corpus: Path, chosen: list[int], filings: int) -> tuple[Path, list[str]]:
    """A folder linking the chosen questions' filings and then the first questions' up to
    `filings` in all, and the chosen questions."""
    folder = Path(tempfile.mkdtemp(prefix="fonte-bench-seen-"))
    lines = (corpus / "financebench" / "questions.jsonl").read_text("utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    names = list(dict.fromkeys(rows[i]["doc_name"] for i in chosen))
    names += [r["doc_name"] for r in rows if r["doc_name"] not in names]
    for name in list(dict.fromkeys(names))[: max(filings, len(chosen))]:
        target = folder / f"{name}.pdf"
        if not target.exists():  # the library reads no symbolic link out of its folder
            _link_or_copy(corpus / "financebench" / "pdfs" / f"{name}.pdf", target)
    return folder, [rows[i]["question"] for i in chosen]


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


async def merged_plan(questions: list[str]) -> Plan:
    """One plan for a brief asking every question: each planned as the offline planner
    plans it alone, its subquestions renamed so the ids stay unique."""
    subquestions, criteria = [], []
    meter = engine.Meter(engine.InMemoryBudget(Limits()))
    for number, question in enumerate(questions, start=1):
        plan = await ExtractiveModel().plan(make_brief(question), meter)
        for sub in plan.subquestions:
            subquestions.append(sub.model_copy(update={"id": f"q{number}{sub.id}"}))
        criteria += plan.sufficient_when
    asked = " ".join(questions)
    return Plan(question=asked, sufficient_when=criteria, subquestions=subquestions)


def _cpu() -> float:
    """CPU seconds this process and the children it waited for (Tesseract) have used."""
    own, children = (
        resource.getrusage(r) for r in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


async def _run(
    library: Library, plan: Plan, latency: SimulatedLatency | None, log: SeenLog | None
) -> tuple[Report, float, float]:
    model: engine.Model = ExtractiveModel()
    if latency is not None:
        model = SimulatedModel(model, CallClock(latency))
    orchestrator = Orchestrator(model, library, library, limits=Limits(steps=400))
    runner = orchestrator.runner
    if log is None:  # the text check only, as before the seen check
        runner.verifier = ClaimVerifier(runner.snapshots, library)
    else:
        seers = SeenDispatcher({DocumentKind.pdf: PdfSeer(SightCache())})
        runner.verifier = ClaimVerifier(
            runner.snapshots, library, seeing=SeenCheck(library, seers, log)
        )
    started, cpu = time.perf_counter(), _cpu()
    report = await orchestrator.run(make_brief(plan.question), plan=plan)
    return report, time.perf_counter() - started, _cpu() - cpu


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


async def _measure(library: Library, plan: Plan, mode: Mode, repeats: int) -> None:
    for number in range(repeats):
        log = SeenLog()
        if number % 2 == 0:
            _, without, cpu_without = await _run(library, plan, mode.latency, None)
            report, with_check, cpu_with = await _run(library, plan, mode.latency, log)
        else:
            report, with_check, cpu_with = await _run(library, plan, mode.latency, log)
            _, without, cpu_without = await _run(library, plan, mode.latency, None)
        verified = sum(1 for c in report.claims if c.status.value == "verified")
        mode.per_claim += log.seconds
        mode.per_report.append(sum(log.seconds))
        mode.walls.append((without, with_check))
        mode.cpus.append((cpu_without, cpu_with))
        print(
            f"  {mode.name} run {number + 1}: {len(report.claims)} claims, {log.rendered} "
            f"checked by rendering ({log.rejected} rejected, {verified} verified); wall "
            f"{without:.1f} s without, {with_check:.1f} s with "
            f"({with_check / without - 1:+.0%}); CPU {cpu_without:.1f} s without, "
            f"{cpu_with:.1f} s with; seen check {sum(log.seconds):.1f} s",
            flush=True,
        )


def _summary(mode: Mode) -> None:
    without = statistics.mean(w for w, _ in mode.walls)
    with_check = statistics.mean(w for _, w in mode.walls)
    claims = len(mode.per_claim) / len(mode.walls)
    print(
        f"{mode.name}: wall time per report {without:.1f} s without, {with_check:.1f} s with "
        f"the seen check ({with_check / without - 1:+.0%}), {claims:.0f} claims checked"
    )
    cpu_without = statistics.mean(c for c, _ in mode.cpus)
    cpu_with = statistics.mean(c for _, c in mode.cpus)
    print(
        f"  CPU per report (the process and its Tesseract calls, whatever else the machine "
        f"runs): {cpu_without:.1f} s without, {cpu_with:.1f} s with, "
        f"{(cpu_with - cpu_without) / max(1.0, claims):.2f} s per claim checked"
    )
    if mode.per_claim:
        print(
            f"  seen check per checked claim: median {statistics.median(mode.per_claim):.2f} s,"
            f" p95 {_p95(mode.per_claim):.2f} s; per report {statistics.mean(mode.per_report):.1f}"
            f" s of work (its claims' shares), {with_check - without:+.1f} s of wall time"
        )


async def _main(args: argparse.Namespace) -> None:
    chosen = [int(n) for n in args.questions.split(",")]
    folder, questions = _library_folder(args.corpus, chosen, args.filings)
    opened = time.perf_counter()
    library = Library.open(folder, cache_dir=args.cache_dir)
    seconds = time.perf_counter() - opened
    print(f"library: {len(library.documents())} filings, opened in {seconds:.1f} s")
    plan = await merged_plan(questions)
    print(f"report: {len(questions)} questions, {len(plan.subquestions)} subquestions")
    latency = SimulatedLatency(args.latency_tps, args.latency_overhead)
    modes = [Mode(f"(a) {latency.describe()}", latency), Mode("(b) bare offline model", None)]
    try:
        for mode in modes:
            await _measure(library, plan, mode, args.repeats)
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # its links; the parsed cache stays
    for mode in modes:
        _summary(mode)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--questions",
        default=",".join(map(str, REPORT_QUESTIONS)),
        help="0-based FinanceBench question numbers the report asks",
    )
    parser.add_argument("--filings", type=int, default=8, help="filings in the library")
    parser.add_argument("--repeats", type=int, default=2, help="reports per mode and check")
    parser.add_argument("--latency-tps", type=float, default=LATENCY_TPS)
    parser.add_argument("--latency-overhead", type=float, default=DEFAULT_OVERHEAD_SECONDS)
    parser.add_argument(
        "--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "fonte-bench-seen-cache"
    )
    args = parser.parse_args(argv)
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
