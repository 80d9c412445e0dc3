"""Front doors that open on first use (engine/doors.py): a name is imported when asked for,
the stub is the door's whole truth, and every engine door is one."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import engine.text
from engine.doors import stub_names

ROOT = Path(__file__).resolve().parents[2]


def _fresh(code: str) -> str:
    """`code` run in a new interpreter on this checkout; its standard output."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_importing_a_package_imports_none_of_its_modules() -> None:
    loaded = _fresh(
        "import sys, engine.text; print(sorted(m for m in sys.modules if m.startswith('engine.text.')))"
    )
    assert loaded == "[]"


def test_a_name_asked_for_imports_its_own_module_and_no_other() -> None:
    loaded = _fresh(
        "import sys; from engine.text import tokenize; "
        "print(sorted(m for m in sys.modules if m.startswith('engine.text.')))"
    )
    assert "engine.text.tokens" in loaded
    assert "engine.text.comparisons" not in loaded  # drawn by the same door, not asked for


def test_a_name_is_the_one_its_module_defines_and_is_kept_once_asked() -> None:
    from engine.text.tokens import tokenize

    assert engine.text.tokenize is tokenize
    assert vars(engine.text)["tokenize"] is tokenize
    assert "tokenize" in dir(engine.text)


def test_a_name_the_stub_does_not_draw_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = engine.text.nothing_here  # type: ignore[attr-defined]
    with pytest.raises(ImportError):
        from engine.text import nothing_here  # type: ignore[attr-defined]  # noqa: F401


def test_a_submodule_is_still_imported_by_its_name() -> None:
    from engine.documents import office

    assert office.__name__ == "engine.documents.office"


@pytest.mark.parametrize(
    ("stub", "why"),
    [
        ("from engine.text.tokens import tokenize as split\n__all__ = ['split']\n", "as itself"),
        ("from .tokens import tokenize\n__all__ = ['tokenize']\n", "imports and __all__ only"),
        ("from engine.text.tokens import tokenize\n__all__ = []\n", "exactly"),
        ("from engine.text.tokens import tokenize\n", "exactly"),
        ("from engine.text.tokens import tokenize\nx = 1\n__all__ = ['tokenize']\n", "only"),
        ("from engine.text.tokens import *\n__all__ = []\n", "as itself"),
    ],
)
def test_a_stub_that_says_more_or_less_than_its_imports_is_refused(stub: str, why: str) -> None:
    with pytest.raises(ImportError, match=why):
        stub_names(stub)


def test_a_stub_reads_into_each_name_s_module() -> None:
    homes, exported = stub_names(
        '"""Door."""\nfrom engine.text.tokens import tokenize\n'
        "from engine.text.language import Language, detect_language\n"
        "__all__ = ['Language', 'detect_language', 'tokenize']\n"
    )
    assert homes == {
        "tokenize": "engine.text.tokens",
        "Language": "engine.text.language",
        "detect_language": "engine.text.language",
    }
    assert exported == ["Language", "detect_language", "tokenize"]


def _attaches_a_door(init: Path) -> bool:
    body = [
        node
        for node in ast.parse(init.read_text(encoding="utf-8")).body
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
    ]
    return len(body) == 2 and ast.unparse(body[1]) == (
        "__getattr__, __dir__, __all__ = engine.doors.door(__name__)"
    )


# Doors that stay eager, each for its reason: `words` defines `words_for` in its door, and
# `agents` offers nothing (its one module is imported by name).
EAGER_DOORS = {"engine/words/__init__.py", "engine/agents/__init__.py"}


@pytest.mark.parametrize(
    "init",
    sorted(str(path.relative_to(ROOT)) for path in (ROOT / "engine").rglob("__init__.py")),
)
def test_every_engine_door_opens_on_first_use(init: str) -> None:
    path = ROOT / init
    has_stub = path.with_suffix(".pyi").exists()
    if init in EAGER_DOORS:
        assert not has_stub
        return
    assert has_stub, f"{init}: draw the door in __init__.pyi (engine/doors.py)"
    assert _attaches_a_door(path), f"{init}: a door's __init__.py only attaches engine.doors"
