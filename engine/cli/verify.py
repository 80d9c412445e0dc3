"""`fonte verify`: re-check a saved report's published claims against their sources.

It opens only what the user names: `--library DIR` (a library report never makes verify open
the folder it records, unless that folder is the report's own), the web snapshot cache, or
the live pages with `--refetch`. `--judge` asks Claude whether each sentence follows from
its excerpts, the one thing code cannot check. A report compared with its previous one
(`fonte ask --since`) has its changes checked too (`engine.changes.check_changes`), against
that previous report when `--since` names it."""

from __future__ import annotations

import argparse
import asyncio
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from engine.assembly import is_web_report, recorded_library, snapshot_store
from engine.budget import InMemoryBudget, Meter
from engine.changes import ChangesCheck, check_changes
from engine.cli.opening import open_library
from engine.cli.printable import printable
from engine.contracts import Limits, Report
from engine.settings import BadInput
from engine.sources.library import Library
from engine.verify import (
    CheckResult,
    recheck_report,
    refetch_claims,
    sentence_pairs,
    unsupported_sentences,
)
from engine.verify.seen import seen_check

if TYPE_CHECKING:  # the Claude SDK loads only for --judge
    from engine.models.claude import ClaudeConfig


def load_report(path: Path) -> Report:
    try:
        return Report.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise BadInput(f"no such report: {path}") from None
    except ValueError as error:
        first_line = str(error).splitlines()[0]
        raise BadInput(f"{path} is not a Fonte report.json: {first_line}") from None


def run_verify(args: argparse.Namespace) -> int:
    report = load_report(args.report)
    previous = load_report(args.since) if args.since is not None else None
    judge = _judge_config() if args.judge else None  # no key: fail now, before any work
    folder = args.library or _own_library(report, args.report)
    if folder is not None:
        library, _ = open_library(folder, args.cache_dir)
        result = asyncio.run(_recheck_library(report, library, args.allow_unsealed, previous))
    elif is_web_report(report.sources):
        result = asyncio.run(
            _recheck_web(report, args.cache_dir, args.refetch, args.allow_unsealed, previous)
        )
    else:
        raise BadInput("the report records no source; pass --library DIR")
    if judge is not None:
        failures = asyncio.run(_judge(report, judge, args.judge_max_usd))
        result = replace(result, sentence_failures=(*result.sentence_failures, *failures))
    for line in result.lines():
        print(printable(line))
    return 0 if result.ok else 1


def _own_library(report: Report, report_path: Path) -> Path | None:
    """The library a report records, only when it is the report's own folder or inside it: a
    report file must not be able to make verify open (and index) any folder it names."""
    recorded = recorded_library(report.sources)
    if recorded is None:
        return None
    own = report_path.resolve().parent
    if recorded.resolve() == own or recorded.resolve().is_relative_to(own):
        return recorded
    raise BadInput(f"this report cites the library {recorded}: pass --library DIR to re-check it")


def _judge_config() -> ClaudeConfig:
    from engine.models.claude import ClaudeConfig

    return ClaudeConfig.from_env(os.environ)


async def _judge(report: Report, config: ClaudeConfig, max_usd: float) -> list[str]:
    """Sentences no cited excerpt entails, as Claude's support judge sees them."""
    pairs = sentence_pairs(report)
    if not pairs:
        return []
    budget = InMemoryBudget(Limits(steps=10_000, seconds=3600.0, usd=max_usd))
    from engine.models.claude import claude_model_from_config

    async with claude_model_from_config(config) as model:
        judged = await model.judge(pairs, Meter(budget))
    if judged is None:
        raise BadInput("the support judge is off (FONTE_JUDGE=off): --judge needs it on")
    return unsupported_sentences(report, judged)


async def _recheck_library(
    report: Report, library: Library, allow_unsealed: bool, previous: Report | None
) -> CheckResult:
    """Against the library's files as they are now; its changes too (`with_changes_checked`)."""
    result = await recheck_report(
        report, library, allow_unsealed=allow_unsealed, seeing=seen_check(library)
    )
    return with_changes_checked(result, await check_changes(report, library, previous))


async def _recheck_web(
    report: Report,
    cache_dir: Path | None,
    live: bool,
    allow_unsealed: bool,
    previous: Report | None = None,
) -> CheckResult:
    """Against the snapshots the run read (a page missing from the cache is read live), or,
    with --refetch, against the live pages, saying which changed since access. Why a gone
    change is gone is told again from the live page: a snapshot of a page since removed
    would still show it."""
    # The web client and its HTML reader are imported by the report that reads the web only.
    from engine.sources.web import CachingFetcher, FetchConfig, WebFetcher

    async with WebFetcher(FetchConfig.from_env()) as web:
        if live:  # straight from the web: the run's snapshots stay as they were read
            result = await refetch_claims(report, web.fetch, allow_unsealed=allow_unsealed)
        else:
            cached = CachingFetcher(web, snapshot_store(cache_dir), admit=web.admit)
            result = await recheck_report(
                report, cached, allow_unsealed=allow_unsealed, seeing=seen_check(cached)
            )
        return with_changes_checked(result, await check_changes(report, web, previous))


def with_changes_checked(result: CheckResult, changes: ChangesCheck) -> CheckResult:
    """`result` with what `check_changes` found of the report's changes."""
    return replace(
        result,
        change_failures=(*result.change_failures, *changes.failures),
        warnings=(*result.warnings, *changes.warnings),
    )
