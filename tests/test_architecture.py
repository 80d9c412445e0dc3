"""The layout docs/architecture.md describes, kept true: imports run one way between layers
and each engine package imports only what its row of the table allows, a name or a module
name means one thing, each front door (`__all__`) lists exactly what it offers, and no test
module imports another test module."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import pkgutil
import re
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bot", "evals")

ARCHITECTURE = ROOT / "docs" / "architecture.md"
_REMARKS = re.compile(r"\([^)]*\)")
_NAMED = re.compile(r"`([\w.]+?)(?:\.py|/)?`")


def _engine_name(name: str) -> str:
    return name if name == "engine" or name.startswith("engine.") else f"engine.{name}"


def _drawn_layers(page: str) -> dict[str, int]:
    """The layers docs/architecture.md draws: `N  part · part (remark) · …` under "The
    layers"; `bot/` and `evals/` sit on top of the engine and are no part of it."""
    drawing = page.split("## The layers", 1)[1].split("```")[1]
    layers: dict[str, int] = {}
    for line in drawing.splitlines():
        number, _, parts = line.strip().partition("  ")
        if not number.isdigit():
            continue
        for name in _REMARKS.sub("", parts).replace("·", " ").split():
            if not name.endswith("/"):
                layers[_engine_name(name)] = int(number)
    return layers


def _may_import(page: str) -> dict[tuple[str, ...], frozenset[str] | None]:
    """The engine table's rows: (its packages and modules) -> what they may import, None for
    "everything below" (any lower layer). Backticked names count; remarks in parentheses and
    other words do not ("nothing" is the empty set)."""
    table = page.split("## engine/", 1)[1].split("\n## ", 1)[0]
    rows: dict[tuple[str, ...], frozenset[str] | None] = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        owners = tuple(_engine_name(name) for name in _NAMED.findall(cells[0]))
        allowed = _REMARKS.sub("", cells[2])
        everything = allowed.strip() == "everything below"
        rows[owners] = None if everything else frozenset(map(_engine_name, _NAMED.findall(allowed)))
    return rows


# Lower layers never import higher ones (docs/architecture.md draws them; the test reads it).
ENGINE_LAYERS = _drawn_layers(ARCHITECTURE.read_text(encoding="utf-8"))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _source_of(path: Path) -> Path:
    """A module's source; a door that opens on first use (`engine.doors`) is read from its
    `__init__.pyi`, where its imports are written (its `__init__.py` only attaches it)."""
    stub = path.with_suffix(".pyi")
    return stub if stub.exists() else path


def _sources(*packages: str) -> Iterator[tuple[str, Path]]:
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield _module_name(path), _source_of(path)


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
            if here == "engine.words" and imported == "engine.text.language":
                continue  # beside text, it takes the `Language` type (and only that: below)
            if there != here and ENGINE_LAYERS[there] >= ENGINE_LAYERS[here]:
                wrong.append(f"{module} ({here}) imports {imported} ({there})")
    assert wrong == []


def _files_of(name: str) -> list[Path]:
    """The source files of an engine package (all of it) or module."""
    path = ROOT.joinpath(*name.split("."))
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    return [_source_of(file) for file in files]


def _engine_parts() -> list[str]:
    """The packages and modules at the engine's top, its front door aside."""
    return sorted(
        f"engine.{path.stem}"
        for path in (ROOT / "engine").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
    )


def test_the_engine_table_has_one_row_for_each_part_of_the_engine() -> None:
    rows = _may_import(ARCHITECTURE.read_text(encoding="utf-8"))
    assert sorted(owner for owners in rows for owner in owners) == _engine_parts()


def test_each_engine_part_imports_what_its_row_says_and_all_of_it() -> None:
    """docs/architecture.md's "may import" column is the truth about the engine's imports:
    an import it does not name fails, and so does a name no module of the row imports (the
    column may not grow stale either way). "everything below" rows are held by the layers."""
    wrong, unused = [], []
    for owners, allowed in _may_import(ARCHITECTURE.read_text(encoding="utf-8")).items():
        if allowed is None:
            continue
        taken: set[str] = set()
        for path in (path for owner in owners for path in _files_of(owner)):
            for imported in _imports(path):
                own = any(imported == o or imported.startswith(f"{o}.") for o in owners)
                if own or not imported.startswith("engine."):
                    continue
                named = {a for a in allowed if imported == a or imported.startswith(f"{a}.")}
                if not named:
                    wrong.append(f"{_module_name(path)} imports {imported}")
                taken |= named
        unused += [
            f"{', '.join(owners)} may import {name}, but none does" for name in allowed - taken
        ]
    assert wrong == [], "the import is not in its row's column of docs/architecture.md"
    assert sorted(unused) == [], "drop it from the column of docs/architecture.md"


def test_the_architecture_page_reader_reads_layers_and_rows() -> None:
    """The readers above fail on what they must see (a broken reader passes everything)."""
    page = (
        "## The layers\n\n```\n 1  board · sources.web (the web)      bot/ · evals/\n"
        " 0  text\n```\n\n## engine/\n\n| package or module | what | may import |\n|---|---|---|\n"
        "| `text/` | rules | nothing of the engine |\n"
        "| `board.py`, `sources/` | the board (`Board`) | `text`, `words` (the `Words` only) |\n"
        "| `cli/` | entry | everything below |\n\n## bot/\n\n| `slack/` | x | `y` |\n"
    )
    assert _drawn_layers(page) == {"engine.board": 1, "engine.sources.web": 1, "engine.text": 0}
    assert _may_import(page) == {
        ("engine.text",): frozenset(),
        ("engine.board", "engine.sources"): frozenset({"engine.text", "engine.words"}),
        ("engine.cli",): None,
    }


def test_engine_words_imports_only_the_language_type() -> None:
    """The tables of words sit beside `engine.text` and take nothing else of the engine."""
    wrong = [
        f"{module} imports {imported}"
        for module, path in _sources("engine/words")
        for imported in _imports(path)
        if imported.split(".")[0] == "engine"
        and not imported.startswith(("engine.words", "engine.text.language"))
    ]
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
    for offered in exported:  # a door that opens on first use holds a name once asked
        getattr(module, offered)
    assert exported == _public_names(module)


# Names each module of a kind defines for itself by convention, meaning the same in every one:
# its logger (`logging.getLogger(__name__)`), its `python -m` entry point, and the hook the
# `fonte` command group calls in a package that adds commands (engine.cli.program).
CONVENTIONAL_NAMES = frozenset({"log", "main", "register"})


def _defined_names(source: str) -> Iterator[str]:
    """The public names one module's source defines at its top level: classes, functions
    and assigned names, not underscored (methods and nested names do not count)."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        else:
            names = []
        yield from (n for n in names if not n.startswith("_") and n not in CONVENTIONAL_NAMES)


def test_a_public_name_is_defined_in_one_module_only() -> None:
    """One name, one meaning: a name defined in two modules is either one thing written
    twice (keep one, import it) or two things (name each for what it is)."""
    defined: dict[str, list[str]] = {}
    for module, path in _sources(*PACKAGES):
        for name in _defined_names(path.read_text(encoding="utf-8")):
            defined.setdefault(name, []).append(module)
    assert {name: modules for name, modules in defined.items() if len(modules) > 1} == {}


def test_the_definition_scan_sees_every_kind_of_top_level_name() -> None:
    source = (
        "import logging\nlog = logging.getLogger(__name__)\nA = 1\nB: int = 2\n_C = 3\n"
        "class D:\n    def method(self) -> None: ...\n"
        "def e() -> None:\n    inner = 1\nasync def f() -> None: ...\ndef main() -> None: ..."
    )
    assert list(_defined_names(source)) == ["A", "B", "D", "e", "f"]


def _is_module(package: str, name: str) -> bool:
    base = ROOT.joinpath(*package.split("."), name)
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def test_no_project_name_is_imported_under_another_name() -> None:
    """`from engine.x import a as b` hides that `a` is `a` (it was how twins were dodged);
    a module under a short name (`slide_shapes as draw`) and `a as a` (an explicit
    re-export) are fine."""
    wrong = []
    for module, path in _sources(*PACKAGES):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
                continue
            if node.module.split(".")[0] not in PACKAGES:
                continue
            wrong += [
                f"{module}: from {node.module} import {alias.name} as {alias.asname}"
                for alias in node.names
                if alias.asname not in (None, alias.name)
                and not _is_module(node.module, alias.name)
            ]
    assert wrong == []


def _repeated_module_names() -> set[str]:
    """Module and package names that stand in more than one place of engine/, bot/, evals/."""
    seen: dict[str, int] = {}
    for root in PACKAGES:
        for path in (ROOT / root).rglob("*"):
            if path.name == "__pycache__" or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py" and path.stem != "__init__":
                seen[path.stem] = seen.get(path.stem, 0) + 1
            elif path.is_dir() and (path / "__init__.py").exists():
                seen[path.name] = seen.get(path.name, 0) + 1
    return {name for name, count in seen.items() if count > 1}


def test_a_module_name_that_repeats_is_listed_with_its_one_meaning() -> None:
    """A name in two packages (`figures` was a picture in one, a number in another) is
    either renamed or listed in docs/architecture.md's "Module names", saying what it
    means in all of them."""
    page = ARCHITECTURE.read_text(encoding="utf-8")
    table = page.split("## Module names", 1)[1].split("\n## ", 1)[0]
    listed = {
        name
        for line in table.splitlines()
        if line.startswith("| `")
        for name in _NAMED.findall(line.split("|")[1])
    }
    assert sorted(_repeated_module_names() - listed) == [], "rename it, or list its meaning"
    assert sorted(listed - _repeated_module_names()) == [], "no longer repeated: unlist it"


def test_no_test_module_imports_another_test_module() -> None:
    wrong = [
        f"{_module_name(path)} imports {imported}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for imported in _imports(path)
        if imported.startswith("tests.") and imported.split(".")[-1].startswith("test_")
    ]
    assert wrong == []


def _is_fixture_or_hook(node: ast.stmt) -> bool:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    if node.name.startswith("pytest_"):
        return True
    return any("fixture" in ast.unparse(decorator) for decorator in node.decorator_list)


def test_test_helpers_live_in_tests_support_and_conftests_hold_fixtures_only() -> None:
    """A conftest defines fixtures and hooks; whatever tests share besides (builders,
    stand-ins, sample pages) is in tests/support/, which tests import. Nothing imports a
    conftest."""
    wrong = []
    for path in sorted((ROOT / "tests").rglob("conftest.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            definition = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            # A private constant its fixtures read is the conftest's own business.
            # `pytest_plugins` is pytest's own declaration of the plugins a suite loads.
            shared = [
                t
                for t in targets
                if not (isinstance(t, ast.Name) and (t.id[0] == "_" or t.id == "pytest_plugins"))
            ]
            if (definition and not _is_fixture_or_hook(node)) or shared:
                wrong.append(f"{_module_name(path)} defines a helper at line {node.lineno}")
    for path in sorted((ROOT / "tests").rglob("*.py")):
        wrong += [
            f"{_module_name(path)} imports {imported}"
            for imported in _imports(path)
            if imported.endswith(".conftest")
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


def _names_taken_from_engine() -> dict[str, list[str]]:
    """Name → the modules of bot/, evals/ and engine/cli that import it `from engine`."""
    taken: dict[str, list[str]] = {}
    sources = [*_sources("bot", "evals"), *_sources("engine/cli")]
    for module, path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "engine" and node.level == 0:
                for alias in node.names:
                    taken.setdefault(alias.name, []).append(module)
    return taken


def test_the_engine_front_door_holds_what_its_callers_take_and_no_more() -> None:
    """`engine.__all__` is exactly what bot/, evals/ and the CLI import from `engine`: a
    name nobody takes is an internal on show, a name taken from elsewhere a door bypassed."""
    import engine

    taken = _names_taken_from_engine()
    exported = set(engine.__all__)
    assert sorted(exported - set(taken)) == [], "exported, but no caller imports it"
    assert sorted(set(taken) - exported) == [], "imported from engine, but not exported"


def _project_modules() -> Iterator[types.ModuleType]:
    """Every module of engine/, bot/ and evals/, imported; one that needs an optional package
    not installed is skipped, and the reason printed."""
    for root in PACKAGES:
        package = importlib.import_module(root)
        yield package
        found = pkgutil.walk_packages(
            package.__path__, prefix=f"{root}.", onerror=lambda name: print(f"skipped {name}")
        )
        for info in found:
            try:
                yield importlib.import_module(info.name)
            except ImportError as error:
                print(f"skipped {info.name}: {error}")


def _project_exceptions() -> set[type[Exception]]:
    """The exception classes engine/, bot/ and evals/ define (not those they import)."""
    return {
        value
        for module in _project_modules()
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Exception)
        and value.__module__.split(".")[0] in PACKAGES
    }


_TREE_LINE = re.compile(r"^    ((?:[│ ]   )*(?:[├└]── )?)([A-Z]\w*)(?: \(([\w, ]+)\))?(.*)$")


def _drawn_tree(docstring: str) -> dict[str, tuple[str | None, set[str], str | None]]:
    """The tree engine/errors.py draws: each name's parent, its second bases (in
    parentheses) and its module (when the line names one)."""
    drawn: dict[str, tuple[str | None, set[str], str | None]] = {}
    path: list[str] = []
    for line in docstring.splitlines():
        match = _TREE_LINE.match(line)
        if match is None:
            continue
        prefix, name, extra, rest = match.groups()
        depth = len(prefix) // 4
        path[depth:] = [name]
        parent = path[depth - 1] if depth else None
        bases = {base.strip() for base in extra.split(",")} if extra else set()
        module = re.search(r"\b((?:engine|bot|evals)(?:\.\w+)+)\b", rest)
        drawn[name] = (parent, bases, module.group(1) if module else None)
    return drawn


def test_every_exception_the_project_defines_is_a_fonte_error() -> None:
    import engine.errors

    outside = sorted(
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in _project_exceptions()
        if not issubclass(cls, engine.errors.FonteError)
    )
    assert outside == [], "re-base them on a branch of engine/errors.py"


def test_the_tree_engine_errors_draws_is_the_family() -> None:
    import engine.errors

    family = {cls.__name__: cls for cls in _project_exceptions()}
    assert len(family) == len(_project_exceptions()), "two exception classes share a name"
    actual = {
        name: (
            next(
                (b.__name__ for b in cls.__bases__ if issubclass(b, engine.errors.FonteError)), None
            ),
            {b.__name__ for b in cls.__bases__ if not issubclass(b, engine.errors.FonteError)}
            - {"Exception"},
            cls.__module__,
        )
        for name, cls in family.items()
    }
    drawn = _drawn_tree(engine.errors.__doc__ or "")
    undrawn, gone = sorted(set(actual) - set(drawn)), sorted(set(drawn) - set(actual))
    assert (undrawn, gone) == ([], []), "engine/errors.py's tree must name every class"
    wrong = {
        name: (drawn[name], actual[name])
        for name in drawn
        if drawn[name][:2] != actual[name][:2] or drawn[name][2] not in (None, actual[name][2])
    }
    assert wrong == {}, "drawn (parent, second bases, module) vs the classes"


# Where text keyed by language may live besides the tables of words: rules about language
# (engine/text: markers, number words, stopwords) and the models' prompts.
WORDS_ELSEWHERE_ALLOWED = ("engine/words/", "engine/text/", "engine/models/claude/prompts.py")
WORDS_NOT_YET_MOVED: frozenset[str] = frozenset()
"""Modules that may still keep words of their own (none: keep it so)."""
_TABLE_NAMES = frozenset({"PORTUGUESE", "ENGLISH", "PT", "EN"})


def _second_word_tables(source: str) -> Iterator[str]:
    """Dicts keyed by both "pt" and "en" (literals or `dict(pt=…, en=…)`), and tables built
    under a language's name (`PORTUGUESE = Labels(…)`), in one module's source."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if {"pt", "en"} <= keys:
                yield f"line {node.lineno}: a dict keyed by 'pt' and 'en'"
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "dict":
            if {"pt", "en"} <= {keyword.arg for keyword in node.keywords}:
                yield f"line {node.lineno}: dict(pt=…, en=…)"
        elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in _TABLE_NAMES:
                    yield f"line {node.lineno}: {target.id} built as a table of its own"


def test_the_words_of_each_language_live_in_one_table() -> None:
    """Every user-facing string is in engine/words' table of its language; no other module
    keeps words of its own in both languages (a report in one language throughout)."""
    wrong = []
    for _, path in _sources(*PACKAGES):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(WORDS_ELSEWHERE_ALLOWED) or relative in WORDS_NOT_YET_MOVED:
            continue
        source = path.read_text(encoding="utf-8")
        wrong += [f"{relative}, {where}" for where in _second_word_tables(source)]
    assert wrong == [], "move these words into engine/words (pt.py and en.py)"


def test_the_words_check_sees_a_table_outside_engine_words() -> None:
    """The check above fails on what it forbids."""
    samples = {
        'WORDS = {"pt": {"a": "Fontes"}, "en": {"a": "Sources"}}': 1,
        'WORDS = dict(pt="Fontes", en="Sources")': 1,
        'PORTUGUESE = Labels(sources="Fontes")': 1,
        'PT = words_for("pt").slack\nX = {"pt-BR": 1, "en": 2}': 0,
    }
    for source, found in samples.items():
        assert len(list(_second_word_tables(source))) == found, source


# A year pattern, "(?:19|20)\d\d" and its variants, compiled outside engine/text/periods.py.
_YEAR_PATTERN = re.compile(r"19\|20\)?(?:\\d|\[0-9\])")
YEAR_PATTERNS_ALLOWED: frozenset[str] = frozenset()


def _year_patterns(source: str) -> Iterator[str]:
    """The string literals of one module's source (f-strings' parts too) that hold a year
    pattern."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _YEAR_PATTERN.search(node.value)
        ):
            yield f"line {node.lineno}: {node.value[:60]!r}"


def test_year_patterns_live_in_engine_text() -> None:
    """Years, fiscal years and dates are read by engine/text/periods.py's patterns; a module
    composes its own from `YEAR` rather than writing the year rule again."""
    found = {
        relative: hits
        for _, path in _sources(*PACKAGES)
        if not (relative := path.relative_to(ROOT).as_posix()).startswith("engine/text/")
        and relative not in YEAR_PATTERNS_ALLOWED
        and (hits := list(_year_patterns(path.read_text(encoding="utf-8"))))
    }
    assert found == {}, "compose from engine.text.periods (YEAR, YEAR_IN_TEXT, …) instead"


def test_the_year_pattern_scan_finds_what_it_looks_for() -> None:
    samples = {
        'YEAR = re.compile(r"(?<!\\d)(?:19|20)\\d\\d(?!\\d)")': 1,
        'YEAR = re.compile(r"\\b(19|20)\\d{2}\\b")': 1,
        'YEAR = re.compile(rf"(?:19|20)[0-9]{{2}}{SUFFIX}")': 1,
        'YEAR = re.compile(rf"\\b{YEAR}\\b")': 0,
        'NOTE = "between 19 and 20 digits"': 0,
    }
    for source, found in samples.items():
        assert len(list(_year_patterns(source))) == found, source


def _whitespace_collapses(source: str) -> Iterator[str]:
    """`" ".join(x.split())` in one module's source: the whitespace rule written again."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant)
            and node.func.value.value == " "
            and len(node.args) == 1
            and isinstance(split := node.args[0], ast.Call)
            and isinstance(split.func, ast.Attribute)
            and split.func.attr == "split"
            and not split.args
            and not split.keywords
        ):
            yield f"line {node.lineno}: {ast.unparse(node)}"


def test_whitespace_is_collapsed_by_its_one_helper() -> None:
    """engine.text.normalise.collapse_whitespace is the rule; nothing writes it again."""
    found = {
        relative: hits
        for _, path in _sources(*PACKAGES)
        if (relative := path.relative_to(ROOT).as_posix()) != "engine/text/normalise.py"
        and (hits := list(_whitespace_collapses(path.read_text(encoding="utf-8"))))
    }
    assert found == {}, "call engine.text.collapse_whitespace instead"


def test_the_whitespace_scan_finds_what_it_looks_for() -> None:
    samples = {
        'T = " ".join(text.split())': 1,
        "T = ' '.join(f(text).casefold().split())": 1,
        'T = "".join(text.split())': 0,
        'T = " ".join(text.split("\\n"))': 0,
        'T = " ".join(words)': 0,
    }
    for source, found in samples.items():
        assert len(list(_whitespace_collapses(source))) == found, source
