"""The exit codes of every `fonte` command, in one place (README, "Exit codes"), and how an
error of the family (engine/errors.py) that reaches an entry point maps to one of them and
to the one line printed on stderr."""

from __future__ import annotations

from engine.errors import BadInput, BudgetError, DeliveryError, FonteError, ModelError, SourceError
from engine.text.normalise import collapse_whitespace

EXIT_OK = 0
"""A report was written (complete or partial), or a check passed."""
EXIT_FAILED = 1
"""`fonte verify` found a failure, or report.json could not be written (a full disk)."""
EXIT_BAD_INPUT = 2
"""Input the user must fix; one line on stderr says what."""
EXIT_MODEL_UNREACHABLE = 3
"""The model could not be reached (no network, DNS, a key the API refuses): the run stopped
at once and wrote the partial report, whose first gap and first note say so."""
EXIT_INTERRUPTED = 130
"""Interrupted a second time (quit at once), or while the report's files were written (one
line names those not written; each written is whole)."""

# Each branch of the family, most specific first: its exit code and what its line says
# before the message ("" for a message that already says it all).
_BRANCHES: tuple[tuple[type[FonteError], int, str], ...] = (
    (BadInput, EXIT_BAD_INPUT, ""),
    (SourceError, EXIT_BAD_INPUT, ""),
    (BudgetError, EXIT_FAILED, "the budget refused a step: "),
    (ModelError, EXIT_MODEL_UNREACHABLE, "the model gave no usable answer: "),
    (DeliveryError, EXIT_FAILED, "the report could not be delivered: "),
)


def exit_code_for(error: FonteError) -> int:
    """The exit code of an entry point that stops on `error`: its branch's code, or
    EXIT_FAILED for a FonteError of no branch."""
    for branch, code, _ in _BRANCHES:
        if isinstance(error, branch):
            return code
    return EXIT_FAILED


def error_line(error: FonteError) -> str:
    """The line printed on stderr for `error`: "error: " and its message on one line (its
    class name when it has none), after what its branch says failed."""
    message = collapse_whitespace(str(error)) or type(error).__name__
    lead = next((lead for branch, _, lead in _BRANCHES if isinstance(error, branch)), "")
    return f"error: {lead}{message}"
