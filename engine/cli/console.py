"""The terminal's one stderr console and `say`, its plain line; a run's live panel and summary
are `engine.cli.display`'s (only `fonte ask` shows one)."""

from __future__ import annotations

from rich.console import Console

from engine.cli.printable import printable

console = Console(stderr=True, highlight=False)


def say(message: str) -> None:
    """One plain line on stderr, never wrapped (so errors stay one line), with any control
    sequence a page or a file name carried taken out."""
    console.print(printable(message), soft_wrap=True, markup=False)
