from importlib.metadata import EntryPoint

import pytest

from engine.cli import EXIT_BAD_INPUT, extra_requiring, main, program


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
