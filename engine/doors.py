"""Front doors that open on first use.

A package's `__init__.pyi` draws its door: the names it offers, each imported from the
module that defines it, and `__all__`. Type checkers and readers read that stub; the
package's `__init__.py` only attaches `door(__name__)`, which imports a name's module the
first time somebody asks for the name. So `import engine.cli` does not import every layer
below it, `fonte --help` imports no reader, model or renderer, and each command imports
what it uses (the shape of scientific-python's SPEC 1, with the absolute imports this
project writes everywhere).

    # engine/text/__init__.py
    from engine.doors import door
    __getattr__, __dir__, __all__ = door(__name__)

`from engine.text import tokenize` then imports `engine.text.tokens` and nothing else of
the package. A name the stub does not draw is an AttributeError, as on any module.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["door"]


def door(package: str) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """`__getattr__`, `__dir__` and `__all__` for `package`, read from its `__init__.pyi`."""
    module = sys.modules[package]
    if module.__file__ is None:
        raise ImportError(f"{package} has no file to find its __init__.pyi beside")
    stub = Path(module.__file__).with_suffix(".pyi")
    homes, exported = stub_names(stub.read_text(encoding="utf-8"), stub)

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(module, name, value)  # asked once: later lookups find it without us
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(module), *exported})

    return __getattr__, __dir__, exported


def stub_names(source: str, where: Path | str = "<stub>") -> tuple[dict[str, str], list[str]]:
    """A door's stub read: each offered name → the module it is imported from, and `__all__`.

    The stub holds imports and `__all__` only; an import under another name, a relative one,
    a name `__all__` lists but no import brings (or the reverse) is refused, so the door
    cannot offer what its stub does not say."""
    homes: dict[str, str] = {}
    exported: list[str] | None = None
    for node in ast.parse(source, filename=str(where)).body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if alias.asname not in (None, alias.name) or alias.name == "*":
                    raise ImportError(f"{where}: {alias.name} must be imported as itself")
                homes[alias.name] = node.module
        elif _is_all(node):
            assert isinstance(node, ast.Assign)
            exported = list(ast.literal_eval(node.value))
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            raise ImportError(f"{where}: a door's stub holds imports and __all__ only")
    if exported is None or set(exported) != set(homes):
        raise ImportError(f"{where}: __all__ must list exactly the names the stub imports")
    return homes, exported


def _is_all(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == "__all__"
    )
