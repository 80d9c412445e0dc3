"""Run a suite under the final architecture and v1 on the same plans, and score each report.

Per case: plan once with the final planner, hand that plan to each architecture, time the
run, then re-check every claim against a fresh read of its source (the run's verdicts are
not trusted) and score the report. Writes results.json, results.md and chart.png.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from engine import (
    BadInput,
    Brief,
    Claim,
    ClaimStatus,
    ExtractiveModel,
    InMemoryBudget,
    Limits,
    Meter,
    Model,
    Orchestrator,
    Plan,
    Report,
    Snapshot,
    split_page,
)
from engine.planning import PriceList, make_brief, prices_from_env
from engine.sources import Fetcher, FetchError
from engine.text import collapse_whitespace
from engine.v1 import OfflineV1Roles, V1Pipeline, V1Roles
from engine.verify import verify_on_page
from engine.verify.seen import SHARED_LOG
from evals.cases import Case
from evals.charts import write_chart
from evals.latency import (
    CallClock,
    ResearcherTurns,
    SimulatedLatency,
    SimulatedModel,
    SimulatedV1Roles,
)
from evals.metrics import Row, measure
from evals.pricing import SimulatedPricing
from evals.shares import DEFAULT_TEMPLATE, template_shares
from evals.suites import Source, Suite
from evals.tables import results_markdown
from evals.totals import simulated_usd_mean, totals

Arch = Literal["final", "v1"]
ARCHS: tuple[Arch, ...] = ("final", "v1")
Progress = Callable[[str], None]


@dataclass(frozen=True)
class ModelPair:
    """The final architecture's model and v1's roles on the same model."""

    final: Model
    v1: V1Roles


@dataclass(frozen=True)
class Models:
    """What the architectures run on, opened once for a suite (a Claude client is closed at
    the end). Offline models get notional calls counted (and, with a latency, slept for) by
    the wrappers in `evals.latency`; real models count their own."""

    name: str
    offline: bool
    open: Callable[[], AbstractAsyncContextManager[ModelPair]]


def fixed_models(name: str, final: Model, v1: V1Roles, *, offline: bool) -> Models:
    @asynccontextmanager
    async def pair() -> AsyncIterator[ModelPair]:
        yield ModelPair(final, v1)

    return Models(name, offline, pair)


OFFLINE = fixed_models("offline", ExtractiveModel(), OfflineV1Roles(), offline=True)


@dataclass(frozen=True)
class RunOptions:
    archs: tuple[Arch, ...] = ARCHS
    limit: int | None = None
    latency: SimulatedLatency | None = None
    pricing: SimulatedPricing | None = None
    """For offline runs: the list prices their notional tokens are shown at."""
    limits: Limits | None = None
    """The same limits for every case; None: each case's template price gives them."""
    prices: PriceList = field(default_factory=lambda: prices_from_env({}))
    """What each template's report sells for: its limits and the cost's share of it."""
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def limits_for(self, template: str | None) -> Limits:
        price = self.prices.for_template(template).price_usd
        if self.limits is None:
            return self.prices.limits_for(template)
        return self.limits.model_copy(update={"price_usd": price})


@dataclass(frozen=True)
class Outputs:
    results_json: Path
    results_md: Path
    chart_png: Path


def print_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def run_suite(
    suite: Suite,
    options: RunOptions,
    models: Models = OFFLINE,
    *,
    progress: Progress = print_progress,
    reports_dir: Path | None = None,
) -> list[Row]:
    """One row per case and architecture; each report saved in `reports_dir` when given."""
    cases = suite.cases[: options.limit] if options.limit is not None else suite.cases
    rows: list[Row] = []
    async with suite.open_source() as source, models.open() as pair:
        for number, case in enumerate(cases, start=1):
            brief = brief_for(case)
            plan = await _plan(pair.final, brief)
            for arch in options.archs:
                row, report = await run_case(case, arch, brief, plan, source, models, pair, options)
                rows.append(row)
                progress(progress_line(number, len(cases), row))
                if reports_dir is not None and report is not None:
                    _save_report(report, reports_dir, case.id, arch)
    return rows


async def run_case(
    case: Case,
    arch: Arch,
    brief: Brief,
    plan: Plan | None,
    source: Source,
    models: Models,
    pair: ModelPair,
    options: RunOptions,
) -> tuple[Row, Report | None]:
    simulated = options.latency is not None
    started = time.perf_counter()
    seen_before = len(SHARED_LOG.seconds)
    try:
        if plan is None:
            raise RuntimeError("the planner failed, so neither architecture ran")
        report = await run_architecture(arch, brief, plan, source, models, pair, options)
    except Exception as failure:  # one broken run must not end the suite
        seconds = time.perf_counter() - started
        error = f"{type(failure).__name__}: {failure}"
        return _priced(Row.failed(case, arch, error, seconds, simulated), brief, options), None
    seconds = time.perf_counter() - started
    passing = await recheck(report.claims, source.fetcher)
    row = Row.of(case, arch, measure(report, case, passing), seconds, simulated)
    seen_seconds = round(sum(SHARED_LOG.seconds[seen_before:]), 3)
    return _priced(replace(row, seen_seconds=seen_seconds), brief, options), report


def _priced(row: Row, brief: Brief, options: RunOptions) -> Row:
    """The row with its template and that template's price."""
    price = options.prices.for_template(brief.template).price_usd
    return replace(row, template=brief.template or DEFAULT_TEMPLATE, price_usd=price)


async def run_architecture(
    arch: Arch,
    brief: Brief,
    plan: Plan,
    source: Source,
    models: Models,
    pair: ModelPair,
    options: RunOptions,
) -> Report:
    clock = CallClock(options.latency, options.sleep)
    if arch == "final":
        model = pair.final
        if models.offline:
            model = SimulatedModel(model, clock)
        orchestrator = Orchestrator(
            model,
            source.searcher,
            source.fetcher,
            limits=options.limits_for(brief.template),
            source_labels=source.labels,
        )
        return await orchestrator.run(brief, plan=plan)
    roles = pair.v1
    searcher, fetcher = source.searcher, source.fetcher
    if models.offline:
        turns = ResearcherTurns(clock)
        roles = SimulatedV1Roles(roles, clock, turns)
        searcher, fetcher = turns.searcher(searcher), turns.fetcher(fetcher)
    pipeline = V1Pipeline(
        roles,
        searcher,
        fetcher,
        limits=options.limits_for(brief.template),
        source_labels=source.labels,
    )
    return await pipeline.run(brief, plan=plan)


async def recheck(claims: Iterable[Claim], fetcher: Fetcher) -> frozenset[str]:
    """Ids of the claims whose excerpt is on a fresh read of the cited page and whose
    numbers are in the excerpt; each source read once, whatever the run saw."""
    reads: dict[str, Snapshot | None] = {}
    passing: set[str] = set()
    for claim in claims:
        document = split_page(claim.url)[0]
        if document not in reads:
            try:
                reads[document] = await fetcher.fetch(document)
            except FetchError:
                reads[document] = None
        snapshot = reads[document]
        if snapshot is not None and verify_on_page(claim, snapshot).status is ClaimStatus.verified:
            passing.add(claim.id)
    return frozenset(passing)


def brief_for(case: Case) -> Brief:
    try:
        return make_brief(case.question, template=case.template)
    except BadInput:  # longer than a user may type (a company brief): asked as it is
        return Brief(question=collapse_whitespace(case.question), language="en")


async def _plan(model: Model, brief: Brief) -> Plan | None:
    """The final planner's plan, which both architectures then follow; its cost is neither's."""
    try:
        return await model.plan(brief, Meter(InMemoryBudget(Limits())))
    except Exception:
        return None


def progress_line(number: int, total: int, row: Row) -> str:
    head = f"[{number}/{total}] {row.case_id} {row.arch}:"
    if row.error is not None:
        return f"{head} FAILED {row.error}"
    return (
        f"{head} required {row.required_found}/{row.required_total}, "
        f"claims {row.verified_claims}/{row.published_claims} hold, "
        f"{row.unsupported_numbers} unsupported numbers, "
        f"gaps {row.gaps_declared}/{row.gaps_expected}, "
        + (f"answer {row.answers_stated}/{row.answers_numeric}, " if row.answers_numeric else "")
        + f"{row.seconds:.2f} s, ${row.usd:.4f}, {row.model_calls} calls"
    )


# -- outputs ------------------------------------------------------------------------------


def write_outputs(
    rows: Sequence[Row], out: Path, *, suite: str, model: str, options: RunOptions
) -> Outputs:
    out.mkdir(parents=True, exist_ok=True)
    latency = options.latency.describe() if options.latency is not None else None
    outputs = Outputs(out / "results.json", out / "results.md", out / "chart.png")
    document = {
        "suite": suite,
        "model": model,
        "archs": list(options.archs),
        "simulated_latency": latency,
        "simulated_cost": _simulated_cost(rows, options.pricing),
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "limits": None if options.limits is None else options.limits.model_dump(),
        "cost_share_of_price": [
            asdict(share) | {"share": share.share, "simulated_share": share.simulated_share}
            for share in template_shares(rows, options.pricing)
        ],
        "rows": [asdict(row) for row in rows],
    }
    outputs.results_json.write_text(
        json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    outputs.results_md.write_text(
        results_markdown(rows, suite=suite, model=model, latency=latency, pricing=options.pricing),
        encoding="utf-8",
    )
    write_chart(
        rows, outputs.chart_png, suite=suite, model=model, latency=latency, pricing=options.pricing
    )
    return outputs


def _simulated_cost(
    rows: Sequence[Row], pricing: SimulatedPricing | None
) -> dict[str, object] | None:
    if pricing is None:
        return None
    archs = list(dict.fromkeys(row.arch for row in rows))
    return {
        "pricing": pricing.describe(),
        "usd_per_report": {arch: simulated_usd_mean(totals(rows, arch), pricing) for arch in archs},
    }


def _save_report(report: Report, folder: Path, case_id: str, arch: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", case_id)
    (folder / f"{name}.{arch}.json").write_text(report.model_dump_json(indent=2), encoding="utf-8")
