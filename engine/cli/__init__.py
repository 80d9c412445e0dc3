"""`fonte`: the research engine from a terminal.

    fonte ask "QUESTION" (--library DIR | --web) [--template T] [--arch final|v1]
              [--max-steps N] [--max-minutes M] [--max-usd X] [--out DIR]
              [--format md,html,json,pdf]
    fonte verify REPORT.json [--library DIR] [--refetch]

Packages built on the engine add their commands (`fonte bot`, `fonte eval`) through the
`fonte.commands` entry point group: the engine never imports them.
"""

from engine.cli.exits import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_MODEL_UNREACHABLE,
    EXIT_OK,
    error_line,
    exit_code_for,
)
from engine.cli.program import PLUGIN_GROUP, extra_requiring, main

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_MODEL_UNREACHABLE",
    "EXIT_OK",
    "PLUGIN_GROUP",
    "error_line",
    "exit_code_for",
    "extra_requiring",
    "main",
]
