"""`fonte eval`: run a suite under the final architecture, v1, or both, and write the figures.

fonte eval --suite br-laws|financebench|hotpotqa|DIR [--arch final|v1|both] [--model NAME]
           [--limit N] [--out DIR] [--latency-tps X] [--latency-overhead S]

Registered through the `fonte.commands` entry point group (`register`); `python -m
evals.cli` runs the same command without the entry point.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from engine import BadInput, FonteError
from engine.cli import EXIT_OK, error_line, exit_code_for
from evals.defaults import CORPUS, DEFAULT_OVERHEAD_SECONDS, SUITE_NAMES

if TYPE_CHECKING:
    from evals.latency import SimulatedLatency
    from evals.runner import Arch, ModelPair, Models

KEY_VARIABLE = "ANTHROPIC_API_KEY"


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "eval", help="evaluate the final architecture against v1 on a suite of cases"
    )
    parser.add_argument(
        "--suite", required=True, help=f"{', '.join(SUITE_NAMES)}, or a folder with cases.jsonl"
    )
    parser.add_argument("--arch", choices=["final", "v1", "both"], default="both")
    parser.add_argument(
        "--model", help=f"offline, or claude-… (default: claude when {KEY_VARIABLE} is set)"
    )
    parser.add_argument("--limit", type=int, help="first N cases only")
    parser.add_argument("--out", type=Path, help="output folder (default reports/evals/…)")
    parser.add_argument(
        "--latency-tps",
        type=float,
        help="simulate model time: output tokens per second (offline model only)",
    )
    parser.add_argument(
        "--latency-overhead",
        type=float,
        default=DEFAULT_OVERHEAD_SECONDS,
        help=f"simulated seconds per model call ({DEFAULT_OVERHEAD_SECONDS})",
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"corpus folder ({CORPUS})")
    parser.add_argument("--cache-dir", type=Path, help="library cache (default ~/.cache/fonte)")
    parser.set_defaults(handler=run_eval)


def run_eval(args: argparse.Namespace) -> int:
    # The suites, runner and models load here, when the command runs (its parser is built
    # by every `fonte` command, `fonte --help` included).
    from engine.planning import prices_from_env
    from evals.pricing import SimulatedPricing
    from evals.runner import ARCHS, RunOptions, run_suite, write_outputs
    from evals.suites import load_suite

    if args.limit is not None and args.limit < 1:
        raise BadInput("--limit must be 1 or more")
    models = models_for(args.model, os.environ)
    latency = _latency(args, models)
    suite = load_suite(args.suite, corpus=args.corpus, cache_dir=args.cache_dir)
    archs: tuple[Arch, ...] = ARCHS if args.arch == "both" else (args.arch,)
    pricing = SimulatedPricing.at_list_prices() if models.offline else None
    prices = prices_from_env(os.environ)  # the deployment's prices, as `fonte ask` reads them
    options = RunOptions(
        archs=archs, limit=args.limit, latency=latency, pricing=pricing, prices=prices
    )
    out: Path = (
        args.out or Path("reports") / "evals" / f"{suite.name}-{datetime.now():%Y%m%d-%H%M%S}"
    )
    count = len(suite.cases[: args.limit] if args.limit else suite.cases)
    print(
        f"eval {suite.name}: {count} cases × {', '.join(archs)}, model {models.name}"
        + (f", {latency.describe()}" if latency else ""),
        file=sys.stderr,
    )
    rows = asyncio.run(run_suite(suite, options, models, reports_dir=out / "reports"))
    outputs = write_outputs(rows, out, suite=suite.name, model=models.name, options=options)
    for path in (outputs.results_md, outputs.results_json, outputs.chart_png):
        print(path)
    return EXIT_OK


def _latency(args: argparse.Namespace, models: Models) -> SimulatedLatency | None:
    from evals.latency import SimulatedLatency

    if args.latency_tps is None:
        return None
    if not models.offline:
        raise BadInput("--latency-tps simulates model time for the offline model only")
    try:
        return SimulatedLatency(args.latency_tps, args.latency_overhead)
    except ValueError as error:
        raise BadInput(f"--latency-tps/--latency-overhead: {error}") from None


def models_for(flag: str | None, env: Mapping[str, str]) -> Models:
    """Offline unless Claude is asked for (`--model claude-…`, or no --model and a key set):
    then Claude runs the final architecture and v1's roles alike."""
    from engine.models.claude import ClaudeConfig, claude_model_from_config, wants_claude
    from engine.v1 import v1_roles_for
    from evals.runner import OFFLINE, ModelPair, Models

    if flag == "offline" or not wants_claude(env, flag):
        if flag not in (None, "offline"):
            raise BadInput(f"unknown model {flag!r}: use offline or claude-…")
        return OFFLINE
    try:
        config = ClaudeConfig.from_env(env, model=flag)
    except BadInput as error:
        raise BadInput(str(error)) from None

    @asynccontextmanager
    async def claude() -> AsyncIterator[ModelPair]:
        async with claude_model_from_config(config) as model:
            yield ModelPair(model, v1_roles_for(model))

    return Models(config.model, offline=False, open=claude)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fonte", description="Fonte evals.")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["eval", *(argv if argv is not None else sys.argv[1:])])
    try:
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except FonteError as error:  # bad input, a suite or library that cannot be read
        print(error_line(error), file=sys.stderr)
        return exit_code_for(error)


if __name__ == "__main__":
    sys.exit(main())
