"""The layout docs/architecture.md describes, kept true: imports run one way between layers,
packages stay small enough to read, each front door (`__all__`) lists exactly what it offers,
and no test module imports another test module."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import pkgutil
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bot", "evals")
MAX_TOP_LEVEL_MODULES = 14
MAX_MODULE_LINES = 400

# Lower layers never import higher ones (docs/architecture.md draws the same picture).
ENGINE_LAYERS: dict[str, int] = {
    "engine.text": 0,
    "engine.contracts": 1,
    "engine.settings": 1,
    "engine.disk": 1,
    "engine.snapshots": 2,
    "engine.budget": 2,
    "engine.events": 2,
    "engine.planning": 2,
    "engine.board": 3,
    "engine.progress": 3,
    "engine.writing": 3,
    "engine.sources.protocols": 3,
    "engine.verify": 4,
    "engine.agents": 5,
    "engine.render": 5,
    "engine.sources.library": 5,
    "engine.executor": 6,
    "engine.models.protocol": 6,
    "engine.sources.web": 6,
    "engine.sources": 7,
    "engine.models.extractive": 7,
    "engine.models.claude": 7,
    "engine.models": 7,
    "engine.orchestrator": 8,
    "engine.v1": 8,
    "engine.assembly": 8,
    "engine.cli": 9,
    "engine": 9,
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources(*packages: str) -> Iterator[tuple[str, Path]]:
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield _module_name(path), path


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _layer_of(module: str) -> str:
    """The longest ENGINE_LAYERS key that `module` is or lies under."""
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        candidate = ".".join(parts[:size])
        if candidate in ENGINE_LAYERS:
            return candidate
    raise AssertionError(f"{module} is in no layer: add it to ENGINE_LAYERS and the docs")


def test_engine_imports_run_downward_only() -> None:
    wrong = []
    for module, path in _sources("engine"):
        here = _layer_of(module)
        for imported in _imports(path):
            root = imported.split(".")[0]
            if root in ("bot", "evals"):
                wrong.append(f"{module} imports {imported}: the engine never imports {root}/")
            if root != "engine":
                continue
            there = _layer_of(imported)
            if imported.startswith(f"{module}."):
                continue  # a package's front door re-exports what lies under it
            if there != here and ENGINE_LAYERS[there] >= ENGINE_LAYERS[here]:
                wrong.append(f"{module} ({here}) imports {imported} ({there})")
    assert wrong == []


def test_bot_slack_and_redis_halves_stay_below_the_conversation() -> None:
    wrong = []
    for module, path in _sources("bot"):
        half = module.split(".")[1] if module.count(".") >= 1 else ""
        if half not in ("slack", "redis") or module == "bot.slack.app":
            continue  # the Bolt app is the bot's entry: it hands requests to the flows
        for imported in _imports(path):
            parts = imported.split(".")
            if parts[0] != "bot" or imported == "bot.config":
                continue
            if len(parts) < 2 or parts[1] != half:
                wrong.append(f"{module} imports {imported}")
    assert wrong == []


@pytest.mark.parametrize("package", ["engine", "bot"])
def test_a_package_keeps_at_most_fourteen_modules_at_its_top(package: str) -> None:
    modules = sorted(p.name for p in (ROOT / package).glob("*.py"))
    assert len(modules) <= MAX_TOP_LEVEL_MODULES, modules


def test_no_module_is_over_four_hundred_lines() -> None:
    long = {
        module: lines
        for module, path in _sources(*PACKAGES)
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def _packages() -> list[str]:
    names = []
    for root in PACKAGES:
        names.append(root)
        package = importlib.import_module(root)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{root}."):
            if info.ispkg:
                names.append(info.name)
    return names


def _public_names(module: types.ModuleType) -> set[str]:
    """What a package's __init__ offers: its public names that are not sub-modules nor
    `from __future__` features."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not inspect.ismodule(value)
        and type(value).__name__ != "_Feature"
    }


@pytest.mark.parametrize("name", _packages())
def test_a_front_door_lists_exactly_its_public_names(name: str) -> None:
    module = importlib.import_module(name)
    exported = set(getattr(module, "__all__", ()))
    assert exported == _public_names(module)


def test_no_test_module_imports_another_test_module() -> None:
    wrong = [
        f"{_module_name(path)} imports {imported}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for imported in _imports(path)
        if imported.startswith("tests.") and imported.split(".")[-1].startswith("test_")
    ]
    assert wrong == []


# Runs against an older engine too (PYTHONPATH=<worktree>), whose front door was smaller.
OLD_ENGINE_BENCHMARKS = frozenset({"evals.bench_claude"})


def test_bot_and_evals_use_the_engine_through_its_front_doors() -> None:
    """`from engine import …` or a package's own door (`engine.planning`, `engine.render`,
    …), never a module inside a package; `engine.assembly` is a door of its own."""
    wrong = []
    for module, path in _sources("bot", "evals"):
        if module in OLD_ENGINE_BENCHMARKS:
            continue
        for imported in _imports(path):
            if not imported.startswith("engine") or imported == "engine.assembly":
                continue
            spec = importlib.util.find_spec(imported)
            if spec is None or spec.submodule_search_locations is None:
                wrong.append(f"{module} imports {imported}, not a package's front door")
    assert wrong == []
