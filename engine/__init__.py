"""Fonte's research engine: every statement carries a source and an excerpt really on it.

The front door for what builds on the engine (`bot/`, `evals/`, the CLI), holding exactly
what they take from it (tests/test_architecture.py keeps it so): the report contracts, the
core a run shares (board, budget, snapshots, events, progress), the orchestrator (the
lead), the subagent runner a worker runs one subagent or one claim check with, the executor
hooks, the model protocol with the extractive model, and the errors callers catch
(`FonteError`, `BadInput`, `DeliveryError`; the whole family is in `engine.errors`).
Heavier layers have their own doors, imported only where used: `engine.assembly` (library or
web sources), `engine.models.claude`, `engine.sources.*`, `engine.render`, `engine.v1`,
`engine.planning`, `engine.text`, `engine.verify`. docs/architecture.md maps them.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
