"""`fonte verify`: re-check a saved report's published claims against their sources."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from engine.assembly import is_web_report, recorded_library, snapshot_store
from engine.cli.ask import open_library
from engine.cli.printable import printable
from engine.contracts import Report
from engine.settings import BadInput
from engine.sources.protocols import Fetcher
from engine.sources.web import CachingFetcher, FetchConfig, WebFetcher
from engine.verify import recheck_report, refetch_claims


def add_verify_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser("verify", help="re-check a report's claims against the sources")
    verify.add_argument("report", type=Path)
    verify.add_argument("--library", type=Path, help="library folder (default: as recorded)")
    verify.add_argument(
        "--refetch",
        action="store_true",
        help="re-read each cited web page live and say which changed since access",
    )
    verify.add_argument("--cache-dir", type=Path)
    verify.set_defaults(handler=run_verify)


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
    folder = args.library or recorded_library(report.sources)
    if folder is not None:
        library, _ = open_library(folder, args.cache_dir)
        lines, ok = asyncio.run(_recheck(report, library))
    elif is_web_report(report.sources):
        lines, ok = asyncio.run(_recheck_web(report, args.cache_dir, live=args.refetch))
    else:
        raise BadInput("the report records no source; pass --library DIR")
    for line in lines:
        print(printable(line))
    return 0 if ok else 1


async def _recheck(report: Report, fetcher: Fetcher) -> tuple[list[str], bool]:
    result = await recheck_report(report, fetcher)
    return result.lines(), result.ok


async def _recheck_web(
    report: Report, cache_dir: Path | None, live: bool
) -> tuple[list[str], bool]:
    """Against the snapshots the run read (a page missing from the cache is read live), or,
    with --refetch, against the live pages, saying which changed since access."""
    async with WebFetcher(FetchConfig.from_env()) as web:
        if live:  # straight from the web: the run's snapshots stay as they were read
            result = await refetch_claims(report, web.fetch)
            return result.lines(), result.ok
        return await _recheck(report, CachingFetcher(web, snapshot_store(cache_dir)))
