"""`fonte ask --library` over PDFs that hide a sentence: white, in the invisible render mode,
microscopic, covered by a shape, outside the crop box. No verified claim may come from the
hidden sentence, the visible one still answers, and the full report comes out (a page whose
text lies outside its crop box once crashed the page crops and lost every file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import EXIT_OK, main
from evals.web_pages import pdf_page
from tests.support.cli_pages import ServeWeb
from tests.support.hidden_pdfs import HIDING, hiding_pdf

SHOWN = "Acme revenue was $5,000 million in fiscal 2023."
HIDDEN = "Acme revenue was $9,000 million in fiscal 2023."
QUESTION = "What was Acme's revenue in fiscal 2023?"


@pytest.mark.parametrize("how", sorted(HIDING))
def test_a_hidden_pdf_sentence_is_never_verified_and_the_report_comes_out(
    how: str, tmp_path: Path
) -> None:
    library = tmp_path / "docs"
    library.mkdir()
    (library / "acme_2023_annual_report.pdf").write_bytes(hiding_pdf(how, SHOWN, HIDDEN))
    out = tmp_path / "out"
    argv = ["ask", QUESTION, "--library", str(library), "--out", str(out)]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--format", "json,md,html"]
    assert main(argv) == EXIT_OK

    for name in ("report.json", "report.md", "report.html"):
        assert (out / name).is_file(), name
    report = json.loads((out / "report.json").read_text())
    verified = [c for c in report["claims"] if c["status"] == "verified"]
    assert not any("9,000" in c["excerpt"] for c in verified)
    assert any("5,000" in c["excerpt"] for c in verified)
    published = " ".join(s["text"] for sec in report["sections"] for s in sec["sentences"])
    assert "9,000" not in published
    assert "9,000" not in (out / "report.html").read_text()


@pytest.mark.parametrize("how", ["outside-crop-box", "white"])
def test_a_fetched_pdf_hiding_a_sentence_gives_a_full_report_with_web(
    how: str, serve_web: ServeWeb, tmp_path: Path
) -> None:
    serve_web(
        [
            pdf_page(
                "/reports/acme_2023_annual_report.pdf",
                hiding_pdf(how, SHOWN, HIDDEN),
                title="Acme annual report 2023",
                text=f"{SHOWN} {HIDDEN}",
            )
        ]
    )
    out = tmp_path / "out"
    argv = ["ask", "--web", QUESTION, "--out", str(out), "--format", "json,md,html"]
    assert main([*argv, "--cache-dir", str(tmp_path / "cache")]) == EXIT_OK
    for name in ("report.json", "report.md", "report.html"):
        assert (out / name).is_file(), name
    report = json.loads((out / "report.json").read_text())
    verified = [c for c in report["claims"] if c["status"] == "verified"]
    assert any("5,000" in c["excerpt"] for c in verified)
    assert not any("9,000" in c["excerpt"] for c in verified)
