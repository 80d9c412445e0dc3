"""What the project imports from an SDK, read from its source: for the tests that hold the
SDK floors in pyproject.toml (every name imported must be in the floor release)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("engine", "bot", "evals")


def imported_from(package: str) -> set[tuple[str, str]]:
    """(module, name) of every `from package… import name` in engine/, bot/ and evals/."""
    found: set[tuple[str, str]] = set()
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ImportFrom) or node.module is None:
                    continue
                if node.module == package or node.module.startswith(f"{package}."):
                    found |= {(node.module, alias.name) for alias in node.names}
    return found


def missing_names(package: str) -> list[str]:
    """The names the project imports from `package` that the installed release lacks."""
    return [
        f"{module}.{name}"
        for module, name in sorted(imported_from(package))
        if not hasattr(importlib.import_module(module), name)
    ]
