"""What `fonte eval` and the benchmarks show as defaults before they read anything: the
corpus folder beside the project, the suites by name, the simulated seconds per model call.
Kept apart from the suites and the latency model they belong to, so that building the
command line (`fonte --help` loads every command's parser) imports no reader or model."""

from __future__ import annotations

from pathlib import Path

__all__ = ["CORPUS", "DEFAULT_OVERHEAD_SECONDS", "SUITE_NAMES"]

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
SUITE_NAMES = (
    "br-laws",
    "financebench",
    "financebench-questions",
    "financebench-companies",
    "hotpotqa",
)
DEFAULT_OVERHEAD_SECONDS = 0.5
