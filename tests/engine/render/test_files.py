from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from engine import disk
from engine.contracts import Claim, Report
from engine.render import files
from engine.render.files import FORMATS, write_report
from engine.verify import published_digest
from tests.support.broken_weasyprint import PANGO_MISSING, BrokenWeasyPrint
from tests.support.render_samples import build_report


def test_writes_every_format_and_returns_the_paths(
    portuguese_report: Report, tmp_path: Path
) -> None:
    out_dir = tmp_path / "runs" / "r1"

    paths = write_report(portuguese_report, out_dir, FORMATS)

    assert paths == [out_dir / f"report.{name}" for name in FORMATS]
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(p.name for p in paths)
    assert (out_dir / "report.md").read_text("utf-8").startswith("# Energia solar")
    assert '<details class="evidence">' in (out_dir / "report.html").read_text("utf-8")
    assert (out_dir / "report.pdf").read_bytes().startswith(b"%PDF-")
    for office in ("docx", "pptx", "xlsx"):
        assert (out_dir / f"report.{office}").read_bytes().startswith(b"PK")  # a zip package


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


def test_only_the_asked_formats_are_written_once_each_the_json_first(
    english_report: Report, tmp_path: Path
) -> None:
    paths = write_report(english_report, tmp_path, ["md", "json", "md"])

    assert paths == [tmp_path / "report.json", tmp_path / "report.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "report.md"]


def test_unknown_format_is_refused_before_anything_is_written(
    english_report: Report, tmp_path: Path
) -> None:
    out_dir = tmp_path / "out"

    with pytest.raises(ValueError, match="unknown report format") as raised:
        write_report(english_report, out_dir, ["md", "odt"])

    message = str(raised.value)
    assert "\n" not in message
    assert "'odt'" in message
    assert "json, md, html, pdf, docx, pptx, xlsx" in message
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


# -- every optional part fails alone: the report still comes out ----------------------------


class FailingCrops(RecordingEvidence):
    """Page evidence whose crops cannot be made (a PDF that no longer opens)."""

    def crops(self, report: Report) -> Mapping[str, bytes]:
        raise ValueError("crop failed: page 60 is out of range")


class FailingBoxes(RecordingEvidence):
    def with_boxes(self, report: Report) -> Report:
        raise ValueError("boxes failed")


def written_notes(folder: Path) -> list[str]:
    return Report.model_validate_json((folder / "report.json").read_text("utf-8")).notes


def test_crops_that_cannot_be_made_leave_every_file_with_a_note(
    portuguese_report: Report, tmp_path: Path, small_png: bytes
) -> None:
    lines: list[str] = []

    paths = write_report(
        portuguese_report,
        tmp_path,
        FORMATS,
        evidence=FailingCrops(small_png),
        on_failure=lines.append,
    )

    assert [p.name for p in paths] == [f"report.{name}" for name in FORMATS]
    [line] = lines
    assert (
        line
        == "the crops of the cited pages were left out: ValueError: crop failed: page 60 is out of range"
    )
    note = written_notes(tmp_path)[-1]
    assert note.startswith("Os recortes das páginas citadas não puderam ser gerados")  # pt
    html = (tmp_path / "report.html").read_text("utf-8")
    assert "data:image/png" not in html
    assert "Os recortes das páginas citadas" in html
    written = Report.model_validate_json((tmp_path / "report.json").read_text("utf-8"))
    assert written.claim("cpdf").locator.boxes  # type: ignore[union-attr]  # boxes still came
    assert written.digest == published_digest(written)  # sealed with the note


def test_boxes_that_cannot_be_computed_leave_the_json_without_them(
    english_report: Report, tmp_path: Path, small_png: bytes
) -> None:
    lines: list[str] = []

    paths = write_report(
        english_report,
        tmp_path,
        ["json", "md"],
        evidence=FailingBoxes(small_png),
        on_failure=lines.append,
    )

    assert [p.name for p in paths] == ["report.json", "report.md"]
    assert len(lines) == 1
    assert written_notes(tmp_path)[-1].startswith("The excerpts' positions")  # en


def test_a_failing_pdf_writer_loses_only_the_pdf(
    portuguese_report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("engine.render.pdf.load_weasyprint", lambda: BrokenWeasyPrint)
    lines: list[str] = []

    paths = write_report(portuguese_report, tmp_path, FORMATS, on_failure=lines.append)

    assert [p.name for p in paths] == [f"report.{n}" for n in FORMATS if n != "pdf"]
    assert sorted(os.listdir(tmp_path)) == sorted(f"report.{n}" for n in FORMATS if n != "pdf")
    assert lines == [f"report.pdf could not be made: RuntimeError: {PANGO_MISSING}"]
    assert written_notes(tmp_path)[-1] == (
        f"report.pdf não pôde ser gerado (RuntimeError: {PANGO_MISSING})"
    )


def test_a_rendering_the_crops_break_is_made_again_without_them(
    portuguese_report: Report, tmp_path: Path, small_png: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = files._RENDERERS["html"]

    def fragile(report: Report, crops: Mapping[str, bytes]) -> bytes:
        if crops:
            raise ValueError("bad image")
        return real(report, crops)

    monkeypatch.setitem(files._RENDERERS, "html", fragile)
    lines: list[str] = []

    write_report(
        portuguese_report,
        tmp_path,
        ["json", "html"],
        evidence=RecordingEvidence(small_png),
        on_failure=lines.append,
    )

    html = (tmp_path / "report.html").read_text("utf-8")
    assert "report.html saiu sem os recortes" in html  # the file says it itself
    assert lines == ["report.html was made without the page crops: ValueError: bad image"]
    assert "report.html saiu sem os recortes" in written_notes(tmp_path)[-1]


@pytest.mark.parametrize("full", ["report.md", "report.json"])
def test_a_full_disk_for_one_file_leaves_it_absent_not_half_written(
    full: str, english_report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = disk.write_atomically

    def write(path: Path, content: bytes, *, mode: int = 0o644) -> None:
        if path.name == full:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, content, mode=mode)

    monkeypatch.setattr("engine.disk.write_atomically", write)
    lines: list[str] = []

    paths = write_report(english_report, tmp_path, ["json", "md", "html"], on_failure=lines.append)

    assert full not in {p.name for p in paths}
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in paths)  # no temporary file
    assert lines == [f"{full} was not written: OSError: [Errno 28] No space left on device"]
    if full != "report.json":  # report.json was written again with the note, complete
        assert written_notes(tmp_path)[-1].startswith("report.md could not be made (OSError")


def test_a_write_that_fails_midway_leaves_no_temporary_file(
    english_report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """engine.disk itself: the temporary file is removed when the write fails."""

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("engine.disk.os.fsync", full)
    lines: list[str] = []

    assert write_report(english_report, tmp_path, ["json"], on_failure=lines.append) == []
    assert os.listdir(tmp_path) == []
    assert len(lines) == 1


def test_a_disk_full_for_the_json_rewrite_is_one_line_and_no_traceback(
    english_report: Report,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """report.md fills the disk, and report.json cannot be written again with its note: each
    is one line for the user, nothing logged with a traceback."""
    real = disk.write_atomically
    written: list[str] = []

    def write(path: Path, content: bytes, *, mode: int = 0o644) -> None:
        if path.name == "report.md" or path.name in written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(path.name)
        real(path, content, mode=mode)

    monkeypatch.setattr("engine.disk.write_atomically", write)
    lines: list[str] = []

    paths = write_report(english_report, tmp_path, ["json", "md"], on_failure=lines.append)

    assert [path.name for path in paths] == ["report.json"]
    full = "OSError: [Errno 28] No space left on device"
    assert lines == [
        f"report.md was not written: {full}",
        f"the later failures are not in report.json: {full}",
    ]
    assert not [record for record in caplog.records if record.exc_info]
