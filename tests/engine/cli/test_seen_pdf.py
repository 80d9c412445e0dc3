"""`fonte ask --library` and `fonte verify` over PDFs whose text layer says what the page does
not show (tests/support/seen_pdfs.py): no claim on the unseen sentence is published, the
shown one is, seen by rendering; and a report that publishes an unseen sentence (written by
a run without the check, and sealed again) fails `fonte verify`, "not what the page shows"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import EXIT_OK, main
from engine.contracts import ClaimStatus, Report
from engine.documents.ocr import ocr_available
from engine.verify.digest import sealed
from tests.support.seen_pdfs import ATTACKS, scan_with_layer, seen_pdf, swapped_digits_pdf

pytestmark = pytest.mark.skipif(not ocr_available(), reason="needs tesseract with eng data")

SHOWN = "Acme revenue was $5,000 million in fiscal 2023."
HIDDEN = "Acme revenue was $9,000 million in fiscal 2023."
QUESTION = "What was Acme's revenue in fiscal 2023?"
DRAWN = "Acme revenue was $1,204 million in fiscal 2023."
SAID = "Acme revenue was $1,294 million in fiscal 2023."

HOSTILE = {
    **{how: (seen_pdf(SHOWN, HIDDEN, how), "9,000") for how in ATTACKS},
    "tounicode": (swapped_digits_pdf(DRAWN, SAID, "tounicode"), "1,294"),
    "actualtext": (swapped_digits_pdf(DRAWN, SAID, "actualtext"), "1,294"),
    "scan-layer": (scan_with_layer(DRAWN, SAID, dpi=300), "1,294"),
}


def ask(tmp_path: Path, pdf: bytes) -> tuple[Path, dict[str, object]]:
    library = tmp_path / "docs"
    library.mkdir(exist_ok=True)
    (library / "acme_2023_annual_report.pdf").write_bytes(pdf)
    out = tmp_path / "out"
    argv = ["ask", QUESTION, "--library", str(library), "--out", str(out), "--format", "json"]
    assert main([*argv, "--cache-dir", str(tmp_path / "cache")]) == EXIT_OK
    return out / "report.json", json.loads((out / "report.json").read_text())


def verify(tmp_path: Path, report: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    argv = ["verify", str(report), "--library", str(tmp_path / "docs")]
    code = main([*argv, "--cache-dir", str(tmp_path / "cache")])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("how", sorted(HOSTILE))
def test_an_unseen_sentence_is_never_published_by_ask_nor_passed_by_verify(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf, unseen = HOSTILE[how]
    path, report = ask(tmp_path, pdf)
    claims = report["claims"]
    assert isinstance(claims, list)
    assert not any(unseen in c["excerpt"] for c in claims if c["status"] == "verified")
    published = json.dumps(report["sections"]) + json.dumps(report["summary"])
    assert unseen not in published
    for claim in claims:  # an unseen sentence the text check let by, the seen check stopped
        if unseen in claim["excerpt"] and claim["status"] == "rejected":
            assert claim["reason"].startswith(("not what the page shows", "excerpt not found"))

    forged = forged_report(path, unseen, HIDDEN if unseen == "9,000" else SAID)
    code, out = verify(tmp_path, forged, capsys)
    assert code == 1
    assert "not what the page shows" in out or "excerpt not found" in out


def forged_report(path: Path, unseen: str, sentence: str) -> Path:
    """The run's report with one more verified claim quoting `sentence`, sealed again: what
    a run without the seen check would have written."""
    report = Report.model_validate_json(path.read_bytes())
    forged = report.claims[0].model_copy(
        update={
            "id": "cforged",
            "excerpt": sentence,
            "statement": sentence,
            "context": None,
            "status": ClaimStatus.verified,
            "reason": None,
            "seen_by": "pdf-ocr",
        }
    )
    edited = sealed(report.model_copy(update={"claims": [*report.claims, forged]}))
    target = path.with_name("forged.json")
    target.write_text(edited.model_dump_json())
    return target


BENIGN_PAGES = {
    "plain": (seen_pdf(SHOWN, None), "5,000"),
    "scan-layer-agrees": (scan_with_layer(SHOWN, SHOWN, dpi=300), "5,000"),
    **{how: (seen_pdf(SHOWN, HIDDEN, how), "9,000") for how in ("grey-text", "white-on-dark-cell")},
}


@pytest.mark.parametrize("name", sorted(BENIGN_PAGES))
def test_a_sentence_a_reader_sees_is_published_seen_and_verify_passes(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf, shown = BENIGN_PAGES[name]
    path, report = ask(tmp_path, pdf)
    claims = report["claims"]
    assert isinstance(claims, list)
    verified = [c for c in claims if c["status"] == "verified"]
    assert any("5,000" in c["excerpt"] for c in verified)
    assert any(shown in c["excerpt"] for c in verified)
    assert all(c["seen_by"] == "pdf-ocr" for c in verified)
    code, out = verify(tmp_path, path, capsys)
    assert code == 0, out


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
