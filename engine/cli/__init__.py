"""`fonte`: the research engine from a terminal.

    fonte ask "QUESTION" (--library DIR | --web) [--template T] [--arch final|v1]
              [--max-steps N] [--max-minutes M] [--max-usd X] [--out DIR]
              [--format md,html,json,pdf]
    fonte verify REPORT.json [--library DIR] [--refetch]

Packages built on the engine add their commands (`fonte bot`, `fonte eval`) through the
`fonte.commands` entry point group: the engine never imports them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from engine.briefs import BadRequest
from engine.cli.ask import add_ask_command
from engine.cli.console import say
from engine.cli.verify import add_verify_command
from engine.sources.library import LibraryError
from engine.sources.protocols import SearchError
from engine.sources.web import FetchConfigError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
PLUGIN_GROUP = "fonte.commands"

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fonte", description="Cited research reports.")
    commands = parser.add_subparsers(dest="command", required=True)
    add_ask_command(commands)
    add_verify_command(commands)
    for entry in entry_points(group=PLUGIN_GROUP):
        register: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]
        register = entry.load()
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except (BadRequest, LibraryError, SearchError, FetchConfigError) as error:
        say(f"error: {error}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # before research started (e.g. while indexing): nothing to save
        say("interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
