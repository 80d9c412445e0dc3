"""The exit codes of every `fonte` command, in one place (README, "Exit codes")."""

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
"""Interrupted a second time: quit at once."""
