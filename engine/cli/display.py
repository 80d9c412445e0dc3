"""A run on the terminal: progress while it goes, a summary when it ends (`fonte ask`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from engine.cli.console import console, say
from engine.contracts import Limits, Report
from engine.events import Event, EventSink
from engine.progress import ProgressState, describe_event


@contextmanager
def progress_display(limits: Limits) -> Iterator[EventSink]:
    """A live panel on a terminal; one line per event when output is a pipe or a log."""
    if not console.is_terminal:

        def log(event: Event) -> None:
            line = describe_event(event)
            if line is not None:
                say(line)

        yield log
        return
    from rich.live import Live  # the panel's tables load for a terminal only

    from engine.cli.panel import render_progress

    state = ProgressState(limits=limits)
    with Live(render_progress(state), console=console, refresh_per_second=4) as live:

        def show(event: Event) -> None:
            state.apply(event)
            live.update(render_progress(state))

        yield show


def summarise(report: Report, paths: Sequence[Path]) -> None:
    verified = len(report.verified_claims())
    rejected = len(report.claims) - verified
    status = "partial report" if report.partial else "report"
    if report.architecture == "v1":
        say(f"{status} (v1): {len(report.claims)} claims, unverified: v1 has no verifier")
    else:
        say(f"{status}: {verified} verified claims, {rejected} rejected or unverified")
    spend, limits = report.spend, report.limits
    say(
        f"spent {spend.steps}/{limits.steps} steps, {spend.seconds:.1f}/{limits.seconds:.0f} s, "
        f"${spend.usd:.4f}/${limits.usd:.2f}"
    )
    for gap in report.gaps:
        say(f"  gap: {gap}")
    for path in paths:
        print(path)
