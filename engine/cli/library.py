"""`fonte library index DIR`: build or refresh a library's index ahead of time.

The index is the one `fonte ask --library DIR` and the bot's workers open (same cache), so
after this a question pays nothing for indexing; with `--store URL` (or
`FONTE_LIBRARY_STORE`) it is kept in that shared store, for workers on any host. Only new,
changed and removed files are worked on; a progress bar counts the files read (in a log, a
line every few seconds), and a summary says what changed.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from engine.cli.console import console, say
from engine.cli.printable import escaped
from engine.sources.library import Library, Paced
from engine.sources.library.folder import SkippedNote

_FILES_READ = re.compile(r"^indexing (\d+)/(\d+) files(?:, .*)?$")
_NAMES_SHOWN = 10

ProgressSink = Callable[[str], None]


def run_library_index(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    warnings: list[str] = []
    with progress_bar() as on_progress:
        library = Library.open(
            args.folder,
            cache_dir=args.cache_dir,
            on_warning=warnings.append,
            on_progress=on_progress,
            store=args.store,
            scan_ahead=args.library_scan,
        )
    seconds = time.perf_counter() - started
    for line in summary_lines(library, seconds, warnings):
        say(line)
    return 0


def summary_lines(library: Library, seconds: float, warnings: Sequence[str] = ()) -> list[str]:
    """The summary of an index run; every name in it escaped (`escaped`): a file named
    "ok.md\\nunreadable: …" shows as one name, never as a line of its own."""
    summary = library.summary
    state = "refreshed" if summary.any_change else "up to date"
    lines = [
        f"index of {escaped(str(library.folder))} {state} in {seconds:.1f} s: "
        f"{library.document_count()} documents, {library.passage_count()} passages",
        f"  added {len(summary.added)}, changed {len(summary.changed)}, "
        f"removed {len(summary.removed)}, unreadable {len(summary.unreadable)}",
    ]
    lines += _named("added", summary.added)
    lines += _named("changed", summary.changed)
    lines += _named("removed", summary.removed)
    lines += _unreadable("unreadable", summary.unreadable)
    lines += _unreadable("skipped", library.refused)
    # The files left out are listed above; the other warnings (a manifest, the cache) here.
    lines += [f"  warning: {escaped(w)}" for w in warnings if not isinstance(w, SkippedNote)]
    return lines


def _named(label: str, names: list[str]) -> list[str]:
    shown = [f"  {label}: {escaped(name)}" for name in names[:_NAMES_SHOWN]]
    if len(names) > _NAMES_SHOWN:
        shown.append(f"  {label}: … and {len(names) - _NAMES_SHOWN} more")
    return shown


def _unreadable(label: str, files: list[tuple[str, str]]) -> list[str]:
    """`label: name: reason` lines, at most `_NAMES_SHOWN` of one reason and then a count
    (50,000 empty files are one line, not 50,000)."""
    by_reason: dict[str, list[str]] = {}
    for relative, reason in files:
        by_reason.setdefault(reason, []).append(relative)
    lines: list[str] = []
    for reason, names in by_reason.items():
        why = escaped(reason)
        lines += [f"  {label}: {escaped(name)}: {why}" for name in names[:_NAMES_SHOWN]]
        if len(names) > _NAMES_SHOWN:
            lines.append(f"  {label}: … and {len(names) - _NAMES_SHOWN:,} more: {why}")
    return lines


class IndexProgress:
    """Shows `Library.open`'s progress messages on a rich bar: "indexing N/M files" moves the
    bar, any other message becomes its description."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self.task = progress.add_task("opening", total=None)

    def __call__(self, message: str) -> None:
        files = _FILES_READ.match(message)
        if files is None:  # "reading DIR": a name, shown escaped
            self._progress.update(self.task, description=escaped(message)[:60])
            return
        done, total = int(files.group(1)), int(files.group(2))
        self._progress.update(self.task, description="indexing", completed=done, total=total)


@contextmanager
def progress_bar(clock: Callable[[], float] = time.monotonic) -> Iterator[ProgressSink]:
    """A bar on a terminal; in a log or a pipe (where a bar shows nothing) a line every few
    seconds of `clock` saying how far the index got (`Paced`)."""
    if not console.is_terminal:
        yield Paced(lambda message: say(f"library: {message}"), clock=clock)
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        yield IndexProgress(progress)
