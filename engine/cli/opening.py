"""Opening a library folder for `fonte ask` and `fonte verify`: its index brought up to date
(until the run's deadline, for `ask`), its warnings said on stderr, and its progress shown in
place on a terminal or, in a log, as a line every few seconds (`Paced`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.cli.console import console, say
from engine.sources.library import Deadline, DocumentKind, FolderWalk, Library, Paced


def open_library(
    folder: Path,
    cache_dir: Path | None,
    deadline: Deadline | None = None,
    scan_ahead: FolderWalk[DocumentKind] | None = None,
) -> tuple[Library, list[str]]:
    """The library, its index brought up to date until `deadline` (the run's time cap),
    with its warnings; `scan_ahead` is its folder's walk begun already (`commands`)."""
    warnings: list[str] = []

    def warn(message: str) -> None:
        warnings.append(message)
        say(f"warning: {message}")

    def opened(on_progress: Callable[[str], None]) -> Library:
        return Library.open(
            folder,
            cache_dir=cache_dir,
            on_warning=warn,
            on_progress=on_progress,
            deadline=deadline,
            scan_ahead=scan_ahead,
        )

    if not console.is_terminal:  # no status line: its refresh thread would make the index's
        # workers spawned (seconds each to start) rather than forked
        return opened(Paced(lambda message: say(f"library: {message}"))), warnings
    with console.status(f"opening library {folder} …") as status:
        return opened(lambda message: status.update(f"library: {message}")), warnings
