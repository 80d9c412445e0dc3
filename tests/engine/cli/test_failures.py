"""`fonte ask` never loses a report and never fails silently: a part of the rendering that
fails (page crops, the PDF writer, a full disk) costs that part alone, in one line on
stderr and a note in the report; bad input (an unknown model, an --out that cannot be
written) is one line and exit 2 before any research; a model that cannot be reached ends
the run at once with a partial report that says so first, and exit 3."""

from __future__ import annotations

import errno
import functools
import json
import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.cli import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_MODEL_UNREACHABLE,
    EXIT_OK,
    main,
)
from engine.contracts import Report
from engine.render import files
from tests.support.anthropic_replies import ApiError
from tests.support.anthropic_server import ScriptedAnthropic
from tests.support.broken_weasyprint import BrokenWeasyPrint
from tests.support.claude_turns import API_KEY, MODEL
from tests.support.cli_pages import QUESTION, REPORT_FILES, ask, write_law_library


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return write_law_library(tmp_path / "docs")


def lines_about(err: str, what: str) -> list[str]:
    return [line for line in err.splitlines() if what in line]


def notes(out: Path) -> list[str]:
    report: dict[str, Any] = json.loads((out / "report.json").read_text("utf-8"))
    notes: list[str] = report["notes"]
    return notes


# -- a part that fails costs that part alone ------------------------------------------------


def test_page_crops_that_raise_still_give_every_file(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(self: object, report: object) -> dict[str, bytes]:
        raise ValueError("crop failed: page out of range")

    monkeypatch.setattr("engine.sources.library.page_evidence.LibraryPageEvidence.crops", broken)
    out = tmp_path / "out"

    assert ask(library, out) == EXIT_OK

    assert sorted(p.name for p in out.iterdir()) == REPORT_FILES
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = lines_about(err, "crop failed")
    assert line.startswith("warning: the crops of the cited pages were left out: ValueError")
    assert notes(out)[-1].startswith("Os recortes das páginas citadas não puderam ser gerados")
    assert "Os recortes das páginas citadas" in (out / "report.html").read_text("utf-8")


def test_a_failing_pdf_writer_loses_only_the_pdf_and_says_so_in_one_line(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("engine.render.pdf.load_weasyprint", lambda: BrokenWeasyPrint)
    out = tmp_path / "out"

    assert ask(library, out) == EXIT_OK

    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert lines_about(err, "report.pdf") == [
        "warning: report.pdf could not be made: RuntimeError: cannot load library 'libpango-1.0-0'"
    ]
    assert notes(out)[-1].startswith("report.pdf não pôde ser gerado (RuntimeError")


def full_disk_for(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`engine.disk.write_atomically` raising ENOSPC for the file `name`, as a full disk."""
    from engine import disk

    real = disk.write_atomically

    def write(path: Path, content: bytes, *, mode: int = 0o644) -> None:
        if path.name == name:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, content, mode=mode)

    monkeypatch.setattr("engine.disk.write_atomically", write)


@pytest.mark.parametrize(
    ("view", "formats", "code", "written", "said"),
    [
        pytest.param(
            "report.md",
            "json,md,html",
            EXIT_OK,
            ["report.html", "report.json"],
            "warning: report.md was not written: OSError: [Errno 28] No space left on device",
            id="one-view-absent-said-once",
        ),
        pytest.param(
            "report.json",
            "json,md",
            EXIT_FAILED,
            ["report.md"],
            "error: report.json was not written: OSError: [Errno 28] No space left on device; "
            "no report was saved",
            id="report-json-absent-clear-error",
        ),
    ],
)
def test_a_full_disk_for_one_file_leaves_it_absent_and_says_so_in_one_line(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    view: str,
    formats: str,
    code: int,
    written: list[str],
    said: str,
) -> None:
    """A view that cannot be written costs that view alone; report.json that cannot be written
    fails the run, saying no report was saved. No temporary file is left either way."""
    full_disk_for(view, monkeypatch)
    out = tmp_path / "out"

    assert ask(library, out, "--format", formats) == code

    assert sorted(os.listdir(out)) == written
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert lines_about(err, view) == [said]
    if view != "report.json":
        assert notes(out)[-1].startswith(f"{view} não pôde ser gerado (OSError")


def test_sigterm_while_the_files_are_written_leaves_them_whole_and_names_those_missing(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SIGTERM as report.docx is made: the files written are whole, no temporary file is
    left, one line names the files not written, and the exit says it was interrupted."""
    real = files._RENDERERS["docx"]

    def terminated(report: Report, crops: Mapping[str, bytes]) -> bytes:
        signal.raise_signal(signal.SIGTERM)
        return real(report, crops)

    monkeypatch.setitem(files._RENDERERS, "docx", terminated)
    out = tmp_path / "out"

    assert ask(library, out, "--format", "json,md,docx,pptx,xlsx") == EXIT_INTERRUPTED

    assert sorted(os.listdir(out)) == ["report.json", "report.md"]
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert lines_about(err, "interrupted") == [
        "warning: interrupted while writing the report: report.docx, report.pptx, report.xlsx "
        "not written"
    ]


# -- bad input: one line, exit 2, before any research ---------------------------------------


@pytest.mark.parametrize("model", ["gpt-4", "llama3"])
def test_an_unknown_model_is_bad_input_naming_the_choices(
    model: str, library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"

    assert ask(library, out, "--model", model) == EXIT_BAD_INPUT

    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"error: unknown --model '{model}': use offline or a Claude model id")
    assert MODEL in line
    assert not out.exists()


def test_an_out_that_cannot_be_written_is_one_line_before_any_research(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ask(library, Path("/proc/forbidden")) == EXIT_BAD_INPUT

    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = err.strip().splitlines()
    assert line.startswith("error: --out /proc/forbidden: cannot write there")
    assert not (tmp_path / "cache").exists(), "the library was never opened"

    # A writable --out passes the probe, which leaves nothing behind: refused later (no
    # source), the run leaves no folder.
    out = tmp_path / "new" / "out"
    assert main(["ask", QUESTION, "--out", str(out)]) == EXIT_BAD_INPUT
    assert "no source" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


# -- a model that cannot be reached ---------------------------------------------------------


@pytest.fixture
def no_wait_between_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Claude client's own retries (its `sleep` between them) without the waits."""
    import engine.models.claude as claude

    async def no_sleep(seconds: float) -> None:
        return None

    monkeypatch.setattr(
        claude,
        "claude_model_from_config",
        functools.partial(claude.claude_model_from_config, sleep=no_sleep),
    )


def assert_said_unreachable(out: Path, err: str) -> None:
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["partial"] is True
    assert report["gaps"][0].startswith("O modelo não pôde ser alcançado (")
    assert report["notes"][0] == report["gaps"][0]
    markdown = (out / "report.md").read_text("utf-8")
    first_gap = next(line for line in markdown.splitlines() if line.startswith("> - "))
    assert first_gap.startswith("> - O modelo não pôde ser alcançado")
    assert "Traceback" not in err
    assert len(lines_about(err, "the model could not be reached (")) == 1
    assert lines_about(err, "error: the model could not be reached")


def test_a_model_that_cannot_be_reached_ends_at_once_with_a_partial_report_and_exit_3(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_wait_between_retries: None,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")  # a closed port
    out = tmp_path / "out"

    code = ask(library, out, "--model", MODEL, "--format", "json,md")

    assert code == EXIT_MODEL_UNREACHABLE == 3
    err = capsys.readouterr().err
    assert_said_unreachable(out, err)
    assert "cannot reach the Anthropic API" in err
    # Stopped at the first failure: the subagents never called the model.
    assert not lines_about(err, "subagent s1 failed")


@pytest.mark.parametrize("clarifying", [False, True], ids=["researching", "clarifying"])
def test_a_key_the_api_refuses_is_a_model_that_cannot_be_reached(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    clarifying: bool,
) -> None:
    """No retry and no step after the first refused request: when the run asks clarifying
    questions first, they spend from the run's one budget, so the stop their failure puts on
    it stops the research too and the clarifier's request is the only one."""
    server = ScriptedAnthropic().start()
    try:
        server.script(lambda body: ApiError(401, "authentication_error", "invalid x-api-key"))
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        if clarifying:
            monkeypatch.setattr("sys.stdin.isatty", lambda: True)
            monkeypatch.setattr("builtins.input", lambda prompt="": "")
        out = tmp_path / "out"

        assert ask(library, out, "--model", MODEL, "--format", "json,md") == 3

        assert len(server.requests) == 1, "a step after the first refused request tried the model"
    finally:
        server.close()
    err = capsys.readouterr().err
    assert_said_unreachable(out, err)
    assert "401 authentication_error" in err
