"""The built-in commands' parsers: `fonte ask`, `fonte verify`, `fonte library index`.

Their arguments only; each command's work is in its own module (`ask`, `verify`, `library`),
imported when that command runs (`Deferred`), so `fonte --help` or a mistyped option pays
for no reader, model or renderer.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from engine.planning.templates import TEMPLATES

if TYPE_CHECKING:
    from engine.sources.library import DocumentKind, FolderWalk

__all__ = ["Deferred", "add_ask_command", "add_library_command", "add_verify_command"]


class Begun(Protocol):
    """Work a command begins before its module is imported (a library folder's walk)."""

    def cancel(self) -> None:
        """Stop it, when the command did not take it (a no-op when it did)."""


@dataclass(frozen=True)
class Deferred:
    """A command's handler named by its module and function, imported when it runs;
    `ahead`, given the arguments, first begins what can run meanwhile (and puts it in
    them for the handler), cancelled once the handler is done if the handler left it."""

    module: str
    function: str
    ahead: Callable[[argparse.Namespace], Begun | None] | None = None

    def __call__(self, args: argparse.Namespace) -> int:
        begun = self.ahead(args) if self.ahead is not None else None
        try:
            handler = getattr(importlib.import_module(self.module), self.function)
            result: int = handler(args)
        finally:
            if begun is not None:
                begun.cancel()
        return result


def _walk_library(folder: Path | None) -> FolderWalk[DocumentKind] | None:
    """`folder`'s walk begun in a process of its own while the command imports (half a
    second at 100,000 files, as long as the imports): `Library.open` takes it."""
    if folder is None or not folder.expanduser().is_dir():
        return None
    from engine.sources.library import start_scan

    return start_scan(folder.expanduser())


def _walk_ahead(argument: str) -> Callable[[argparse.Namespace], Begun | None]:
    """A command's `ahead`: the walk of the folder its `argument` names, put in
    `library_scan` for its handler."""

    def begin(args: argparse.Namespace) -> Begun | None:
        walk = args.library_scan = _walk_library(getattr(args, argument))
        return walk

    return begin


def add_ask_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ask = commands.add_parser("ask", help="research a question and write a cited report")
    ask.add_argument("question")
    where = ask.add_mutually_exclusive_group()
    where.add_argument("--library", type=Path, help="folder of PDF/HTML/Markdown/text documents")
    where.add_argument("--web", action="store_true", help="search and read the web (FONTE_SEARCH)")
    ask.add_argument("--template", choices=[t.id for t in TEMPLATES], help="fixed report sections")
    # The caps bound the whole run, clarifying questions included, under either --arch.
    ask.add_argument("--max-steps", type=int, help="steps for the whole run (from the price)")
    ask.add_argument("--max-minutes", type=float, help="wall time cap (from the price)")
    ask.add_argument(
        "--max-usd",
        type=float,
        help="money cap in USD for the whole run, clarifying questions included, enforced "
        "under --arch v1 too (default: price × research share)",
    )
    ask.add_argument("--out", type=Path, help="output folder (default reports/<time>-<slug>)")
    ask.add_argument(
        "--format",
        default="md,html,json,pdf",
        help="comma list of json,md,html,pdf,docx,pptx,xlsx (default md,html,json,pdf)",
    )
    ask.add_argument(
        "--cache-dir", type=Path, help="caches (default $FONTE_CACHE_DIR or ~/.cache/fonte)"
    )
    ask.add_argument(
        "--model",
        help="offline, or a Claude model id (default: Claude when ANTHROPIC_API_KEY is set)",
    )
    ask.add_argument(
        "--no-clarify",
        action="store_true",
        help="do not ask clarifying questions (they are only asked at a terminal)",
    )
    ask.add_argument(
        "--since",
        type=Path,
        metavar="PREVIOUS/report.json",
        help="the previous report of this question: the report opens with what changed since "
        "it (pages read again as they are today)",
    )
    ask.add_argument(
        "--arch",
        choices=["final", "v1"],
        default="final",
        help="final (default) or the five-role v1 baseline, kept for comparison",
    )
    handler = Deferred("engine.cli.ask", "run_ask", _walk_ahead("library"))
    ask.set_defaults(handler=handler, library_scan=None)


def add_verify_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser("verify", help="re-check a report's claims against the sources")
    verify.add_argument("report", type=Path)
    verify.add_argument("--library", type=Path, help="the library folder the report cites")
    verify.add_argument(
        "--refetch",
        action="store_true",
        help="re-read each cited web page live and say which changed since access",
    )
    verify.add_argument(
        "--judge",
        action="store_true",
        help="also ask Claude (ANTHROPIC_API_KEY) whether each sentence follows from its excerpts",
    )
    verify.add_argument(
        "--judge-max-usd", type=float, default=0.5, help="money cap of --judge (0.50)"
    )
    verify.add_argument(
        "--allow-unsealed",
        action="store_true",
        help="check a report that carries no digest instead of failing it (edits go unseen)",
    )
    verify.add_argument(
        "--since",
        type=Path,
        metavar="PREVIOUS/report.json",
        help="the previous report a report with changes was compared with: its seal and "
        "claims are checked too",
    )
    verify.add_argument("--cache-dir", type=Path)
    verify.set_defaults(handler=Deferred("engine.cli.verify", "run_verify"))


def add_library_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    library = commands.add_parser("library", help="manage a library folder's index")
    actions = library.add_subparsers(dest="library_command", required=True)
    index = actions.add_parser("index", help="build or refresh the index of a library folder")
    index.add_argument("folder", type=Path, help="the library folder")
    index.add_argument(
        "--cache-dir", type=Path, help="caches (default $FONTE_CACHE_DIR or ~/.cache/fonte)"
    )
    index.add_argument(
        "--store",
        metavar="URL",
        help="keep the index and page texts in this shared store, a postgresql://… URL, for "
        "workers on any host (default $FONTE_LIBRARY_STORE; unset: the cache)",
    )
    handler = Deferred("engine.cli.library", "run_library_index", _walk_ahead("folder"))
    index.set_defaults(handler=handler, library_scan=None)
