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
