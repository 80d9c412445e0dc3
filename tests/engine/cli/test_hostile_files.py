"""`fonte ask` on a library holding a normal document and one hostile file, run as a child
under a memory limit as a container's (3 GB, the whole process tree): a report is written,
citing the normal document, and a refused file is named in it (issue 36, points 1 and 2)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from engine.words import words_for
from tests.support.cli_pages import QUESTION, write_law_library
from tests.support.hostile_files import HOSTILE_FILES
from tests.support.memory_watch import GIGABYTE, run_watched

CONTAINER_LIMIT = 3 * GIGABYTE
ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("attack", list(HOSTILE_FILES))
def test_a_library_holding_a_hostile_file_still_reports_within_three_gigabytes(
    attack: str, tmp_path: Path
) -> None:
    hostile = HOSTILE_FILES[attack]
    library = write_law_library(tmp_path / "docs")
    (library / hostile.name).write_bytes(hostile.build())
    out = tmp_path / "out"
    argv = ["ask", QUESTION, "--library", str(library), "--out", str(out), "--model", "offline"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--format", "json,md"]
    command = [
        sys.executable,
        "-c",
        f"import sys; from engine.cli import main; sys.exit(main({argv!r}))",
    ]
    run = run_watched(command, CONTAINER_LIMIT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert not run.killed, f"{attack}: fonte ask went past 3 GB"
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads((out / "report.json").read_text())
    verified = [claim for claim in report["claims"] if claim["status"] == "verified"]
    assert any(claim["url"].endswith("lei_14300.md") for claim in verified), verified
    if hostile.refused:  # the question is Portuguese: so is the report
        said = words_for("pt").library.skip_reasons[hostile.said]
        assert f"{hostile.name}: {said}" in (out / "report.md").read_text()
