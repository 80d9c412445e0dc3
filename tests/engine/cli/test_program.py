import argparse
import importlib
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from engine.cli import EXIT_BAD_INPUT, commands, extra_requiring, main, program


def test_the_extra_that_requires_a_module_is_found_by_its_distribution_name() -> None:
    requirements = [
        "httpx>=0.27",
        'matplotlib>=3.8; extra == "evals"',
        "slack-bolt>=1.18; extra == 'slack'",
    ]
    assert extra_requiring(requirements, "matplotlib") == "evals"
    assert extra_requiring(requirements, "slack_bolt.adapter") == "slack"
    assert extra_requiring(requirements, "httpx") is None
    assert extra_requiring(requirements, "numpy") is None


def test_a_command_whose_package_is_missing_is_a_one_line_error_and_the_others_work(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = EntryPoint(name="eval", value="no_such_fonte_module:register", group="fonte.commands")
    monkeypatch.setattr(program, "entry_points", lambda group: [broken])

    assert main(["eval", "--suite", "br-laws"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "error: fonte eval needs no_such_fonte_module, which is not installed: "
        "install no_such_fonte_module"
    ]
    with pytest.raises(SystemExit) as exit_info:  # `ask` is still there, with its own checks
        main(["ask"])
    assert exit_info.value.code == 2
    assert "the following arguments are required" in capsys.readouterr().err


def test_a_built_in_command_loads_no_plugin_and_no_claude_sdk(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_plugins(group: str) -> list[EntryPoint]:
        raise AssertionError("a built-in command must not load the plugins")

    monkeypatch.setattr(program, "entry_points", no_plugins)
    assert main(["ask", "", "--library", "."]) == EXIT_BAD_INPUT  # parsed, ran, refused
    assert "the question is empty" in capsys.readouterr().err


def test_the_offline_path_does_not_import_the_claude_sdk() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, engine.cli.program, engine.cli.ask; "
        "sys.exit(1 if 'anthropic' in sys.modules else 0)"
    )
    assert subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0


def test_fonte_ask_begins_its_library_s_walk_before_importing_the_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    begun: list[str] = []
    taken: list[object] = []

    class Walked:
        def cancel(self) -> None:
            begun.append("cancelled")

    def start(folder: Path) -> Walked:
        begun.append(f"walk {folder.name}, ask imported: {'engine.cli.ask' in sys.modules}")
        return Walked()

    def run_ask(args: argparse.Namespace) -> int:
        taken.append(args.library_scan)
        return 0

    monkeypatch.delitem(sys.modules, "engine.cli.ask", raising=False)
    monkeypatch.setattr("engine.sources.library.start_scan", start)
    real_import = importlib.import_module

    def importing(name: str) -> object:
        module = real_import(name)
        if name == "engine.cli.ask":
            monkeypatch.setattr(module, "run_ask", run_ask)
        return module

    monkeypatch.setattr(commands.importlib, "import_module", importing)
    assert main(["ask", "q", "--library", str(tmp_path / "lib")]) == 0
    assert begun == ["walk lib, ask imported: False", "cancelled"]  # left by the handler
    assert [type(walk).__name__ for walk in taken] == ["Walked"]
    assert main(["ask", "q", "--web"]) == 0  # no library: nothing walked
    assert begun == ["walk lib, ask imported: False", "cancelled"]
