"""`fonte ask --library` over a DOCX, a PPTX and an XLSX: each question is answered by a
verified claim on the right file and slide or sheet (`#page=N`), and nothing hidden in the
files (a hidden run, a hidden slide, a hidden sheet) is ever verified or published."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import EXIT_OK, main
from tests.support.office_files import write_office_files

CASES = [
    ("How many people did Acme employ at the end of 2024?", ".docx", "", "1,200"),
    ("What revenue did Acme reach in 2024?", ".pptx", "#page=3", "840"),
    ("Qual a capacidade instalada das usinas solares da Bahia em 2024?", ".xlsx", "#page=3", "655"),
]
HIDDEN_FIGURES = ("9,100", "9,200", "9,400", "990", "991", "992", "993", "777001", "999002")


@pytest.mark.parametrize(("question", "suffix", "fragment", "figure"), CASES)
def test_office_files_answer_on_their_slide_or_sheet(
    question: str, suffix: str, fragment: str, figure: str, tmp_path: Path
) -> None:
    files = write_office_files(tmp_path / "docs")
    out = tmp_path / "out"
    argv = ["ask", question, "--library", str(tmp_path / "docs"), "--out", str(out)]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--format", "json,md"]
    assert main(argv) == EXIT_OK

    report = json.loads((out / "report.json").read_text())
    verified = [c for c in report["claims"] if c["status"] == "verified"]
    expected_url = files[suffix].resolve().as_uri() + fragment
    assert any(c["url"] == expected_url and figure in c["excerpt"] for c in verified), verified
    markdown = (out / "report.md").read_text()
    for hidden in HIDDEN_FIGURES:
        assert not any(hidden in c["excerpt"] for c in report["claims"]), hidden
        assert hidden not in markdown, hidden
