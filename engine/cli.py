"""`fonte`: the research engine from a terminal.

fonte ask "QUESTION" --library DIR [--template T] [--max-steps N] [--max-minutes M]
          [--max-usd X] [--out DIR] [--format md,html,json,pdf]
fonte verify REPORT.json [--library DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from importlib.metadata import entry_points
from pathlib import Path

from rich.console import Console
from rich.live import Live

from engine.briefs import BadRequest, make_brief
from engine.contracts import Limits, Report
from engine.events import Event, EventSink
from engine.models.offline import OfflineModel
from engine.orchestrator import Orchestrator
from engine.progress import ProgressState, describe_event, render_progress
from engine.recheck import recheck_report
from engine.render.files import FORMATS, write_report
from engine.sources.library import Library, LibraryError
from engine.templates import TEMPLATES
from engine.v1 import OfflineV1Roles, V1Pipeline

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
PLUGIN_GROUP = "fonte.commands"

console = Console(stderr=True, highlight=False)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fonte", description="Cited research reports.")
    commands = parser.add_subparsers(dest="command", required=True)

    ask = commands.add_parser("ask", help="research a question and write a cited report")
    ask.add_argument("question")
    ask.add_argument("--library", type=Path, help="folder of PDF/HTML/Markdown/text documents")
    ask.add_argument("--template", choices=[t.id for t in TEMPLATES], help="fixed report sections")
    ask.add_argument("--max-steps", type=int, default=60, help="steps for the whole tree (60)")
    ask.add_argument("--max-minutes", type=float, default=10.0, help="wall time cap (10)")
    ask.add_argument("--max-usd", type=float, default=2.0, help="money cap in USD (2.00)")
    ask.add_argument("--out", type=Path, help="output folder (default reports/<time>-<slug>)")
    ask.add_argument("--format", default="md,html,json,pdf", help="comma list of md,html,json,pdf")
    ask.add_argument("--cache-dir", type=Path, help="parse/index cache (default ~/.cache/fonte)")
    ask.add_argument(
        "--arch",
        choices=["final", "v1"],
        default="final",
        help="final (default) or the five-role v1 baseline, kept for comparison",
    )

    verify = commands.add_parser("verify", help="re-check a report's claims against the sources")
    verify.add_argument("report", type=Path)
    verify.add_argument("--library", type=Path, help="library folder (default: as recorded)")
    verify.add_argument("--cache-dir", type=Path)
    ask.set_defaults(handler=_ask)
    verify.set_defaults(handler=_verify)
    _add_plugin_commands(commands)
    return parser


def _add_plugin_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Commands of packages built on the engine (`fonte bot`, `fonte eval`): the engine does
    not import them; they register through the `fonte.commands` entry point group, each a
    callable that adds its subparser with `set_defaults(handler=...)`."""
    for entry in entry_points(group=PLUGIN_GROUP):
        register: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]
        register = entry.load()
        register(commands)


def _formats(raw: str) -> list[str]:
    formats = [f.strip().lower() for f in raw.split(",") if f.strip()]
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown or not formats:
        raise BadRequest(f"unknown format {', '.join(unknown) or raw!r}; use {','.join(FORMATS)}")
    return formats


def _limits(args: argparse.Namespace) -> Limits:
    if args.max_steps < 1 or args.max_minutes <= 0 or args.max_usd < 0:
        raise BadRequest("--max-steps must be ≥ 1, --max-minutes > 0 and --max-usd ≥ 0")
    return Limits(steps=args.max_steps, seconds=args.max_minutes * 60, usd=args.max_usd)


def _default_out(question: str) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", question.lower())[:40].strip("-") or "report"
    return Path("reports") / f"{datetime.now():%Y%m%d-%H%M%S}-{slug}"


def _open_library(folder: Path, cache_dir: Path | None) -> tuple[Library, list[str]]:
    warnings: list[str] = []

    def warn(message: str) -> None:
        warnings.append(message)
        console.print(f"[yellow]warning:[/] {message}")

    with console.status(f"opening library {folder} …") as status:
        library = Library.open(
            folder,
            cache_dir=cache_dir,
            on_warning=warn,
            on_progress=lambda message: status.update(f"library: {message}"),
        )
    return library, warnings


async def _research(orchestrator: Orchestrator, question: str, template: str | None) -> Report:
    brief = make_brief(question, template=template)
    loop = asyncio.get_running_loop()

    def interrupt() -> None:
        console.print("[bold]interrupted: writing the partial report (Ctrl-C again to quit)[/]")
        loop.remove_signal_handler(signal.SIGINT)
        orchestrator.cancel("interrupted by the user")

    loop.add_signal_handler(signal.SIGINT, interrupt)
    try:
        return await orchestrator.run(brief)
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def _ask(args: argparse.Namespace) -> int:
    make_brief(args.question, template=args.template)  # fail fast, before opening anything
    formats = _formats(args.format)
    limits = _limits(args)
    if args.library is None:
        raise BadRequest("no source: pass --library DIR (a folder of documents)")
    library, warnings = _open_library(args.library, args.cache_dir)
    labels = (f"library:{args.library.resolve()}",)
    with _progress_display(limits) as show:
        if args.arch == "v1":
            # v1 ran to completion or not at all: no partial report on Ctrl-C, as it was.
            pipeline = V1Pipeline(
                OfflineV1Roles(), library, library, limits=limits, events=show, source_labels=labels
            )
            brief = make_brief(args.question, template=args.template)
            report = asyncio.run(pipeline.run(brief))
        else:
            orchestrator = Orchestrator(
                OfflineModel(), library, library, limits=limits, events=show, source_labels=labels
            )
            report = asyncio.run(_research(orchestrator, args.question, args.template))
    report.notes.extend(warnings)
    out = args.out or _default_out(args.question)
    paths = write_report(report, out, formats)
    _summarise(report, paths)
    return EXIT_OK


@contextmanager
def _progress_display(limits: Limits) -> Iterator[EventSink]:
    """A live panel on a terminal; one line per event when output is a pipe or a log."""
    if not console.is_terminal:
        yield lambda event: _log_line(describe_event(event))
        return
    state = ProgressState(limits=limits)
    with Live(render_progress(state), console=console, refresh_per_second=4) as live:

        def show(event: Event) -> None:
            state.apply(event)
            live.update(render_progress(state))

        yield show


def _log_line(line: str | None) -> None:
    if line is not None:
        console.print(line, soft_wrap=True, markup=False)


def _summarise(report: Report, paths: Sequence[Path]) -> None:
    verified = len(report.verified_claims())
    rejected = len(report.claims) - verified
    status = "[bold yellow]partial report[/]" if report.partial else "[bold green]report[/]"
    if report.architecture == "v1":
        console.print(f"{status} (v1): {len(report.claims)} claims, unverified: v1 has no verifier")
    else:
        console.print(f"{status}: {verified} verified claims, {rejected} rejected or unverified")
    spend, limits = report.spend, report.limits
    console.print(
        f"spent {spend.steps}/{limits.steps} steps, {spend.seconds:.1f}/{limits.seconds:.0f} s, "
        f"${spend.usd:.4f}/${limits.usd:.2f}"
    )
    for gap in report.gaps:
        console.print(f"  gap: {gap}", soft_wrap=True, markup=False)
    for path in paths:
        print(path)


def _verify(args: argparse.Namespace) -> int:
    try:
        report = Report.model_validate_json(args.report.read_bytes())
    except FileNotFoundError:
        raise BadRequest(f"no such report: {args.report}") from None
    except ValueError as error:
        first_line = str(error).splitlines()[0]
        raise BadRequest(f"{args.report} is not a Fonte report.json: {first_line}") from None
    folder = args.library or _recorded_library(report)
    if folder is None:
        raise BadRequest("the report records no library; pass --library DIR")
    library, _ = _open_library(folder, args.cache_dir)
    result = asyncio.run(recheck_report(report, library))
    for line in result.lines():
        print(line)
    return EXIT_OK if result.ok else EXIT_FAILED


def _recorded_library(report: Report) -> Path | None:
    for source in report.sources:
        if source.startswith("library:"):
            return Path(source.removeprefix("library:"))
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except (BadRequest, LibraryError) as error:
        console.print(f"[bold red]error:[/] {error}", soft_wrap=True)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # before research started (e.g. while indexing): nothing to save
        console.print("interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
