"""A command imports what it uses: `fonte --help` loads no reader, model or renderer, and a
command on a library of Markdown loads no Office, PDF or HTML reader, no Claude SDK and no
renderer of a format it does not write. Each runs in a new interpreter, as a user's `fonte`
does, and reads `sys.modules` at its end (the speed itself is `python -m evals.bench_startup`'s
figure, never a test's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evals.bench_startup import HEAVY, HELP_UNUSED
from tests.support.cli_pages import QUESTION, write_law_library

ROOT = Path(__file__).resolve().parents[3]

_RUN = """
import json, sys
from engine.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
heavy = json.loads({heavy!r})
print(json.dumps({{"code": code, "loaded": [m for m in heavy if m in sys.modules]}}))
"""


def _fonte(*arguments: str, cache: Path, heavy: tuple[str, ...] = HEAVY) -> tuple[int, list[str]]:
    """`fonte ARGUMENTS` in a new interpreter on this checkout: its exit code and which of the
    `heavy` modules it imported."""
    done = subprocess.run(
        [sys.executable, "-c", _RUN.format(heavy=json.dumps(heavy)), *arguments],
        cwd=ROOT,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "HOME": str(cache),
            "FONTE_CACHE_DIR": str(cache),
        },
        capture_output=True,
        text=True,
        check=False,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return int(result["code"] or 0), list(result["loaded"])


def test_help_imports_no_reader_model_or_renderer(tmp_path: Path) -> None:
    assert _fonte("--help", cache=tmp_path) == (0, [])


@pytest.mark.parametrize("command", ["ask", "verify", "library", "eval", "bot", "worker"])
def test_a_command_s_help_imports_none_either(command: str, tmp_path: Path) -> None:
    assert _fonte(command, "--help", cache=tmp_path) == (0, [])


@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        ["--version"],
        ["ask", "--help"],
        ["verify", "--help"],
        ["library", "index", "--help"],
        ["bot", "--help"],
        ["worker", "--help"],
        ["eval", "--help"],
    ],
)
def test_help_builds_no_report_model_and_no_console(arguments: list[str], tmp_path: Path) -> None:
    """Help is argparse's text: no pydantic model is built, no rich console made, and a
    built-in command reads no distribution's metadata (only `fonte --help` lists plugins)."""
    code, loaded = _fonte(*arguments, cache=tmp_path, heavy=HELP_UNUSED)
    built_in = arguments[0] in ("ask", "verify", "library")
    expected = [] if built_in else ["importlib.metadata"]
    assert (code, loaded) == (0, expected)


def test_indexing_markdown_loads_no_office_pdf_or_html_reader(tmp_path: Path) -> None:
    library = write_law_library(tmp_path / "library")
    code, loaded = _fonte("library", "index", str(library), cache=tmp_path)
    assert code == 0
    assert set(loaded) <= {"numpy"}  # the index's own scoring is on numpy


def test_a_markdown_report_in_markdown_and_json_loads_no_sdk_and_no_other_writer(
    tmp_path: Path,
) -> None:
    library = write_law_library(tmp_path / "library")
    out = tmp_path / "out"
    asked = ("ask", QUESTION, "--library", str(library), "--model", "offline", "--no-clarify")
    code, loaded = _fonte(*asked, "--format", "md,json", "--out", str(out), cache=tmp_path)
    assert code == 0
    assert (out / "report.md").exists()
    # A library of Markdown written as Markdown: no seer renders a page (no browser), no
    # page is cropped (PIL), no PDF is opened (pdfium), no web client, search API or HTML
    # reader opens, no HTML template engine loads. numpy is the index's own scoring.
    assert set(loaded) <= {"numpy"}
    code, loaded = _fonte(
        "verify", str(out / "report.json"), "--library", str(library), cache=tmp_path
    )
    assert code == 0
    assert set(loaded) <= {"numpy"}


def test_a_question_on_a_library_indexed_already_starts_no_parse_worker(tmp_path: Path) -> None:
    """The parse workers (a process pool) are for files to read: a warm question loads
    neither them nor the reading of files for the index."""
    library = write_law_library(tmp_path / "library")
    asked = ("ask", QUESTION, "--library", str(library), "--model", "offline", "--no-clarify")
    workers = ("concurrent.futures.process", "engine.sources.library.index.workers")
    code, loaded = _fonte(*asked, "--out", str(tmp_path / "cold"), cache=tmp_path, heavy=workers)
    assert (code, loaded) == (0, list(workers))  # the first question indexes the library
    code, loaded = _fonte(*asked, "--out", str(tmp_path / "warm"), cache=tmp_path, heavy=workers)
    assert (code, loaded) == (0, [])
