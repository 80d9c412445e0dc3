from __future__ import annotations

import argparse
from importlib.metadata import EntryPoint

import pytest

import engine.settings
from engine.board import InvalidClaim
from engine.budget import Refusal, StepRefused
from engine.cli import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_MODEL_UNREACHABLE,
    error_line,
    exit_code_for,
    main,
    program,
)
from engine.errors import (
    BadInput,
    BudgetError,
    DeliveryError,
    FonteError,
    ModelError,
    SourceError,
)
from engine.models.claude import ClaudeUnavailable, UnknownModel
from engine.models.claude.structured import InvalidJson
from engine.planning import UnknownTemplate
from engine.sources.library import LibraryError
from engine.sources.protocols import FetchError, SearchError

BRANCHES = [
    (
        BadInput("--max-steps must be 1 or more"),
        EXIT_BAD_INPUT,
        "error: --max-steps must be 1 or more",
    ),
    (SourceError("brave: 401"), EXIT_BAD_INPUT, "error: brave: 401"),
    (
        BudgetError("steps: 40 of 40"),
        EXIT_FAILED,
        "error: the budget refused a step: steps: 40 of 40",
    ),
    (
        ModelError("overloaded"),
        EXIT_MODEL_UNREACHABLE,
        "error: the model gave no usable answer: overloaded",
    ),
    (
        DeliveryError("job j1 vanished"),
        EXIT_FAILED,
        "error: the report could not be delivered: job j1 vanished",
    ),
]


@pytest.mark.parametrize(("error", "code", "line"), BRANCHES)
def test_each_branch_maps_to_its_exit_code_and_one_line(
    error: FonteError, code: int, line: str
) -> None:
    assert exit_code_for(error) == code
    assert error_line(error) == line


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (UnknownTemplate("unknown template 'x'"), EXIT_BAD_INPUT),
        (UnknownModel("no price for model 'x'"), EXIT_BAD_INPUT),
        (LibraryError("no such folder: /nowhere"), EXIT_BAD_INPUT),
        (SearchError("tavily: quota"), EXIT_BAD_INPUT),
        (FetchError("404"), EXIT_BAD_INPUT),
        (StepRefused(Refusal("usd", "0.50 of 0.50")), EXIT_FAILED),
        (ClaudeUnavailable("overloaded", maybe_billed=True), EXIT_MODEL_UNREACHABLE),
        (InvalidJson("no JSON object"), EXIT_MODEL_UNREACHABLE),
        (InvalidClaim("invalid claim: url"), EXIT_MODEL_UNREACHABLE),
    ],
)
def test_an_error_maps_as_its_branch(error: FonteError, code: int) -> None:
    assert exit_code_for(error) == code


def test_a_fonte_error_of_no_branch_fails_with_its_line() -> None:
    assert exit_code_for(FonteError("odd")) == EXIT_FAILED
    assert error_line(FonteError("odd")) == "error: odd"


def test_the_line_is_one_line_and_never_empty() -> None:
    assert error_line(BadInput("FONTE_X='a':\n  expected a number\n")) == (
        "error: FONTE_X='a': expected a number"
    )
    assert error_line(SourceError()) == "error: SourceError"
    assert error_line(StepRefused(Refusal("steps", "40 of 40"))) == (
        "error: the budget refused a step: steps: 40 of 40"
    )


def test_bad_input_is_still_a_value_error_and_still_imported_from_settings() -> None:
    assert engine.settings.BadInput is BadInput
    with pytest.raises(ValueError, match="fix this"):
        raise BadInput("fix this")


@pytest.mark.parametrize("cls", [InvalidJson, InvalidClaim, UnknownTemplate, UnknownModel])
def test_errors_caught_as_value_errors_stay_value_errors(cls: type[FonteError]) -> None:
    # `except ValueError` around template names and price tables; Pydantic validators turn
    # only a ValueError into a ValidationError.
    assert issubclass(cls, ValueError)


def register_failing(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`fonte fail N` raises the Nth of BRANCHES; `fonte boom` an error outside the family
    (the entry point the tests below add)."""
    fail = commands.add_parser("fail")
    fail.add_argument("index", type=int)

    def raise_branch(args: argparse.Namespace) -> int:
        raise BRANCHES[args.index][0]

    fail.set_defaults(handler=raise_branch)
    commands.add_parser("boom").set_defaults(handler=lambda args: 1 // 0)


FAILING = EntryPoint(name="fail", value=f"{__name__}:register_failing", group="fonte.commands")


@pytest.mark.parametrize("index", range(len(BRANCHES)))
def test_fonte_maps_an_error_that_escapes_a_command_to_its_code_and_line(
    index: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(program, "entry_points", lambda group: [FAILING])
    _, code, line = BRANCHES[index]

    assert main(["fail", str(index)]) == code
    assert capsys.readouterr().err.strip().splitlines() == [line]


def test_an_error_outside_the_family_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(program, "entry_points", lambda group: [FAILING])
    with pytest.raises(ZeroDivisionError):
        main(["boom"])
