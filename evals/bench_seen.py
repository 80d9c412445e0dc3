"""What the seen check costs: its time per claim, per report, and a report's wall time with
and without it, on FinanceBench filings.

    python -m evals.bench_seen [--corpus DIR] [--questions N] [--cache-dir DIR]

A library of the filings the first N FinanceBench questions cite (hard links, or copies in a
temporary folder, never in the project) is opened once (parsed into
`--cache-dir`, so a second run starts warm); then each question is researched by the offline
model twice, without the seen check and with it (a fresh render cache each time: a report
pays its own renders), in alternating order so neither run always finds the disk warm.
Prints per report the claims checked, the wall times and the overhead, then the seen check's
time per checked claim (median, 95th percentile) and per report. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from engine import ExtractiveModel, Limits, Orchestrator, Report
from engine.documents import DocumentKind
from engine.planning import make_brief
from engine.sources.library import Library
from engine.verify import ClaimVerifier
from engine.verify.seen import PdfSeer, SeenCheck, SeenDispatcher, SeenLog, SightCache
from evals.suites import CORPUS


def _library_folder(corpus: Path, count: int) -> tuple[Path, list[str]]:
    """A folder linking the filings of the first `count` questions, and those questions."""
    folder = Path(tempfile.mkdtemp(prefix="fonte-bench-seen-"))
    questions = []
    lines = (corpus / "financebench" / "questions.jsonl").read_text("utf-8").splitlines()
    for line in lines[:count]:
        question = json.loads(line)
        name = question["doc_name"]
        target = folder / f"{name}.pdf"
        if not target.exists():  # the library reads no symbolic link out of its folder
            _link_or_copy(corpus / "financebench" / "pdfs" / f"{name}.pdf", target)
        questions.append(question["question"])
    return folder, questions


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


async def _run(library: Library, question: str, log: SeenLog | None) -> tuple[Report, float]:
    orchestrator = Orchestrator(ExtractiveModel(), library, library, limits=Limits(steps=200))
    if log is None:  # the text check only, as before the seen check
        orchestrator.runner.verifier = ClaimVerifier(orchestrator.runner.snapshots, library)
    else:
        seers = SeenDispatcher({DocumentKind.pdf: PdfSeer(SightCache())})
        seeing = SeenCheck(library, seers, log)
        runner = orchestrator.runner
        runner.verifier = ClaimVerifier(runner.snapshots, library, seeing=seeing)
    started = time.perf_counter()
    report = await orchestrator.run(make_brief(question))
    return report, time.perf_counter() - started


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


async def _main(corpus: Path, count: int, cache_dir: Path) -> None:
    folder, questions = _library_folder(corpus, count)
    opened = time.perf_counter()
    library = Library.open(folder, cache_dir=cache_dir)
    seconds = time.perf_counter() - opened
    print(f"library: {len(library.documents())} filings, opened in {seconds:.1f} s")
    per_claim: list[float] = []
    walls: list[tuple[float, float]] = []
    for number, question in enumerate(questions):
        log = SeenLog()
        if number % 2 == 0:
            _, without = await _run(library, question, None)
            report, with_check = await _run(library, question, log)
        else:
            report, with_check = await _run(library, question, log)
            _, without = await _run(library, question, None)
        verified = sum(1 for c in report.claims if c.status.value == "verified")
        per_claim += log.seconds
        walls.append((without, with_check))
        overhead = (with_check - without) / without if without else 0.0
        print(
            f"  q{number + 1}: {len(report.claims)} claims, {log.rendered} checked by rendering "
            f"({log.rejected} rejected, {verified} verified); wall {without:.1f} s without, "
            f"{with_check:.1f} s with ({overhead:+.0%}); seen check {sum(log.seconds):.1f} s"
        )
    if not per_claim:
        print("no claim was checked")
        return
    without_total = sum(w for w, _ in walls)
    with_total = sum(w for _, w in walls)
    print(
        f"seen check per checked claim: median {statistics.median(per_claim):.2f} s, "
        f"p95 {_p95(per_claim):.2f} s, over {len(per_claim)} claims"
    )
    print(f"seen check per report: mean {sum(per_claim) / len(walls):.1f} s")
    mean_claims = len(per_claim) / len(walls)
    print(
        f"wall time per report: {without_total / len(walls):.1f} s without, "
        f"{with_total / len(walls):.1f} s with ({with_total / without_total - 1:+.0%}),"
        f" {mean_claims:.0f} claims checked per report"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--questions", type=int, default=6)
    parser.add_argument(
        "--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "fonte-bench-seen-cache"
    )
    args = parser.parse_args(argv)
    asyncio.run(_main(args.corpus, args.questions, args.cache_dir))


if __name__ == "__main__":
    main()
