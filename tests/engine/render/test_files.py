from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from engine.contracts import Claim, Report
from engine.render import files
from engine.render.files import FORMATS, write_report
from engine.verify import published_digest
from tests.support.render_samples import build_report


def test_writes_every_format_and_returns_the_paths(
    portuguese_report: Report, tmp_path: Path
) -> None:
    out_dir = tmp_path / "runs" / "r1"

    paths = write_report(portuguese_report, out_dir, FORMATS)

    assert paths == [out_dir / f"report.{name}" for name in ("json", "md", "html", "pdf")]
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(p.name for p in paths)
    assert (out_dir / "report.md").read_text("utf-8").startswith("# Energia solar")
    assert '<details class="evidence">' in (out_dir / "report.html").read_text("utf-8")
    assert (out_dir / "report.pdf").read_bytes().startswith(b"%PDF-")


def test_a_report_with_nothing_found_still_renders_in_every_format(tmp_path: Path) -> None:
    empty = build_report([], [], partial=True, gaps=["Everything"], language="pt")

    paths = write_report(empty, tmp_path, FORMATS)

    assert "Nenhuma fonte citada." in (tmp_path / "report.md").read_text("utf-8")
    assert "Nenhuma fonte citada." in (tmp_path / "report.html").read_text("utf-8")
    assert all(path.stat().st_size > 0 for path in paths)


def test_json_round_trips(portuguese_report: Report, tmp_path: Path) -> None:
    [path] = write_report(portuguese_report, tmp_path, ["json"])

    written = Report.model_validate_json(path.read_text("utf-8"))
    assert written == portuguese_report.model_copy(update={"digest": written.digest})
    assert written.digest == published_digest(portuguese_report)  # sealed as it was written


def test_only_the_asked_formats_are_written_once_each(
    english_report: Report, tmp_path: Path
) -> None:
    paths = write_report(english_report, tmp_path, ["md", "json", "md"])

    assert paths == [tmp_path / "report.md", tmp_path / "report.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "report.md"]


def test_unknown_format_is_refused_before_anything_is_written(
    english_report: Report, tmp_path: Path
) -> None:
    out_dir = tmp_path / "out"

    with pytest.raises(ValueError, match="unknown report format") as raised:
        write_report(english_report, out_dir, ["md", "docx"])

    message = str(raised.value)
    assert "\n" not in message
    assert "'docx'" in message
    assert "json, md, html, pdf" in message
    assert not out_dir.exists()


def test_rewriting_replaces_the_file_and_leaves_no_temporary_files(
    english_report: Report, tmp_path: Path
) -> None:
    write_report(english_report, tmp_path, ["md"])
    english_report.title = "Second version"

    write_report(english_report, tmp_path, ["md", "html"])

    assert sorted(os.listdir(tmp_path)) == ["report.html", "report.md"]
    assert (tmp_path / "report.md").read_text("utf-8").startswith("# Second version")


def test_written_files_are_readable_by_others(english_report: Report, tmp_path: Path) -> None:
    [path] = write_report(english_report, tmp_path, ["md"])

    assert path.stat().st_mode & 0o777 == 0o644


def test_failing_renderer_leaves_no_file(
    english_report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(report: Report, crops: Mapping[str, bytes]) -> bytes:
        raise RuntimeError("layout failed")

    monkeypatch.setitem(files._RENDERERS, "pdf", broken)
    with pytest.raises(RuntimeError):
        write_report(english_report, tmp_path, ["pdf"])

    assert os.listdir(tmp_path) == []


class RecordingEvidence:
    """A `PageEvidence` that boxes and crops the claim "cpdf" and records what it was asked."""

    def __init__(self, png: bytes) -> None:
        self.png = png
        self.asked: list[str] = []

    def with_boxes(self, report: Report) -> Report:
        self.asked.append("boxes")
        claim = report.claim("cpdf")
        assert claim.locator is not None
        locator = claim.locator.model_copy(update={"boxes": [(72.0, 700.5, 300.25, 712.0)]})
        boxed = claim.model_copy(update={"locator": locator})
        claims = [boxed if c.id == "cpdf" else c for c in report.claims]
        return report.model_copy(update={"claims": claims})

    def crops(self, report: Report) -> Mapping[str, bytes]:
        self.asked.append("crops")
        assert report.claim("cpdf").locator.boxes  # type: ignore[union-attr]
        return {"cpdf": self.png}

    def crop_png(self, claim: Claim) -> bytes | None:
        self.asked.append("crop")
        return self.png if claim.id == "cpdf" else None


def test_evidence_puts_boxes_in_json_and_crops_in_html_and_pdf(
    portuguese_report: Report, tmp_path: Path, small_png: bytes
) -> None:
    evidence = RecordingEvidence(small_png)

    write_report(portuguese_report, tmp_path, FORMATS, evidence=evidence)

    written = Report.model_validate_json((tmp_path / "report.json").read_text("utf-8"))
    assert written.claim("cpdf").locator.boxes == [(72.0, 700.5, 300.25, 712.0)]  # type: ignore[union-attr]
    assert written.digest == published_digest(portuguese_report)  # boxes are not content
    assert evidence.asked == ["boxes", "crops"]
    assert 'class="page-crop"' in (tmp_path / "report.html").read_text("utf-8")
    assert "data:image" not in (tmp_path / "report.md").read_text("utf-8")
    assert small_png not in (tmp_path / "report.json").read_bytes()


def test_no_crops_are_made_for_formats_that_show_none(
    portuguese_report: Report, tmp_path: Path, small_png: bytes
) -> None:
    evidence = RecordingEvidence(small_png)

    write_report(portuguese_report, tmp_path, ["json", "md"], evidence=evidence)

    assert evidence.asked == ["boxes"]
