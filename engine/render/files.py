"""Write a report to disk in the asked formats, each file atomically and each on its own.

report.json is the report (what `fonte verify` reads), so it is written first, before any
optional part is made; report.md, .html, .pdf, .docx, .pptx and .xlsx are views of it. Every
optional part fails alone: the page boxes and crops (a PDF that no longer opens), a format's
renderer (WeasyPrint for the PDF), the writing of a file (a full disk). That part is left out or
degraded, the report's notes say so in the report's language, `on_failure` hears one line,
and the rest is still written. A file is never half-written (`engine.disk`).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import engine.disk as disk
from engine.contracts import Report
from engine.render.evidence import PageEvidence
from engine.render.labels import labels_for
from engine.text.normalise import clip, collapse_whitespace
from engine.verify.digest import sealed

log = logging.getLogger(__name__)

FORMATS: tuple[str, ...] = ("json", "md", "html", "pdf", "docx", "pptx", "xlsx")
"""Also the order they are written in: the report first, then its views, the one that needs
WeasyPrint, then the office files."""

_Renderer = Callable[[Report, Mapping[str, bytes]], bytes]


def _loaded_when_used(module: str, function: str) -> _Renderer:
    """A renderer whose module (WeasyPrint, python-docx, python-pptx, openpyxl behind it)
    is imported the first time a report is written in its format, not by every caller (as
    the Markdown and HTML renderers are, `_markdown` and `_html`)."""

    def render(report: Report, crops: Mapping[str, bytes]) -> bytes:
        renderer: _Renderer = getattr(importlib.import_module(module), function)
        return renderer(report, crops)

    return render


def _markdown(report: Report, _: Mapping[str, bytes]) -> bytes:
    from engine.render.markdown import render_markdown  # imported for a report.md only

    return render_markdown(report).encode("utf-8")


def _html(report: Report, crops: Mapping[str, bytes]) -> bytes:
    from engine.render.html import render_html  # Jinja2 behind it, for a report.html only

    return render_html(report, crops=crops).encode("utf-8")


_RENDERERS: dict[str, _Renderer] = {
    "json": lambda report, _: report.model_dump_json(indent=2).encode("utf-8"),
    "md": _markdown,
    "html": _html,
    "pdf": _loaded_when_used("engine.render.pdf", "render_pdf"),
    "docx": _loaded_when_used("engine.render.docx", "render_docx"),
    "pptx": _loaded_when_used("engine.render.pptx", "render_pptx"),
    "xlsx": _loaded_when_used("engine.render.xlsx", "render_xlsx"),
}
_SHOW_CROPS = frozenset({"html", "pdf", "docx"})
"""The formats that show the page crops (a deck holds its excerpts in its notes instead)."""
_ERROR_CHARS = 200

OnFailure = Callable[[str], None]
"""Hears one line (in English, for a terminal or a log) per part that failed."""


class RenderProblems:
    """The parts of a report's rendering that failed. Each one becomes a note of `report`
    (in the report's language, so every file rendered after it says so) and one line for
    `on_failure` (a log warning when none is given)."""

    def __init__(self, report: Report, on_failure: OnFailure | None = None) -> None:
        self.report = report
        self.labels = labels_for(report.language)
        self.lines: list[str] = []
        self._on_failure = on_failure or _log_failure

    def file_not_made(self, file: str, error: BaseException, *, written: bool = False) -> None:
        """`file` could not be rendered, or (`written`) could not be written."""
        why = describe(error)
        line = f"{file} was not written: {why}" if written else f"{file} could not be made: {why}"
        self.add(self.labels.file_not_made.format(file=file, error=why), line)

    def page_boxes_failed(self, error: BaseException) -> None:
        why = describe(error)
        self.add(
            self.labels.page_boxes_failed.format(error=why),
            f"the excerpts' boxes on their pages were left out: {why}",
        )

    def page_crops_failed(self, error: BaseException) -> None:
        why = describe(error)
        self.add(
            self.labels.page_crops_failed.format(error=why),
            f"the crops of the cited pages were left out: {why}",
        )

    def add(self, note: str, line: str) -> None:
        self.report = with_note(self.report, note)
        self.tell(line)

    def tell(self, line: str) -> None:
        """Say `line` without a note (the report can no longer carry one)."""
        self.lines.append(line)
        self._on_failure(line)


def with_note(report: Report, note: str) -> Report:
    return report.model_copy(update={"notes": [*report.notes, note]})


def describe(error: BaseException) -> str:
    """An error in one short line: its kind and what it says."""
    message = collapse_whitespace(str(error))
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return clip(text, _ERROR_CHARS)


def _log_failure(line: str) -> None:
    log.warning("report rendering: %s", line)


def write_report(
    report: Report,
    out_dir: Path,
    formats: Iterable[str],
    *,
    evidence: PageEvidence | None = None,
    on_failure: OnFailure | None = None,
) -> list[Path]:
    """Write `report.<format>` for each format into `out_dir`, report.json first; returns
    the paths written, in `FORMATS` order. A part that fails is noted (see the module) and
    never raises; only an unknown format does, before anything is written.

    With `evidence` (the report's sources can show pages: a library), cited claims carry
    their boxes on the page in report.json, and the HTML and PDF reports show the page crops.
    When a part fails after report.json was written, report.json is written again with the
    note (if that fails too, the first, complete report.json stays).

    Interrupted (KeyboardInterrupt: Ctrl-C, or SIGTERM the CLI turns into one), the file
    being written is left whole or not at all, `on_failure` hears one line naming the files
    not written, and the interrupt goes on up.
    """
    asked = list(formats)
    check_formats(asked)
    wanted = [name for name in FORMATS if name in asked]
    problems = RenderProblems(report, on_failure)
    paths: list[Path] = []
    try:
        _write_all(wanted, out_dir, evidence, problems, paths)
    except KeyboardInterrupt:
        missing = [f"report.{name}" for name in wanted if out_dir / f"report.{name}" not in paths]
        problems.tell(f"interrupted while writing the report: {', '.join(missing)} not written")
        raise
    return paths


def _write_all(
    wanted: list[str],
    out_dir: Path,
    evidence: PageEvidence | None,
    problems: RenderProblems,
    paths: list[Path],
) -> None:
    """`write_report`'s work, each file written added to `paths` as soon as it is."""
    if evidence is not None:
        try:
            problems.report = evidence.with_boxes(problems.report)
        except Exception as error:
            problems.page_boxes_failed(error)
    noted = len(problems.lines)
    if "json" in wanted and _write(out_dir, "json", render_json(problems.report), problems):
        paths.append(out_dir / "report.json")
        noted = len(problems.lines)
    crops: Mapping[str, bytes] = {}
    if evidence is not None and _SHOW_CROPS.intersection(wanted):
        crops = page_crops(evidence, problems)
    for name in wanted:
        if name == "json":
            continue
        content = render_format(name, problems, crops)
        if content is not None and _write(out_dir, name, content, problems):
            paths.append(out_dir / f"report.{name}")
    if paths and paths[0].name == "report.json" and len(problems.lines) > noted:
        try:  # report.json lists every part that failed after it was first written
            disk.write_atomically(paths[0], render_json(problems.report))
        except Exception as error:  # one line, as every other failure: no traceback
            problems.tell(f"the later failures are not in report.json: {describe(error)}")


def render_json(report: Report) -> bytes:
    """report.json: sealed, so `fonte verify` sees any later edit."""
    return _RENDERERS["json"](sealed(report), {})


def page_crops(evidence: PageEvidence, problems: RenderProblems) -> Mapping[str, bytes]:
    """The crops of the cited pages; none, and a note, when they cannot be made."""
    try:
        return evidence.crops(problems.report)
    except Exception as error:
        problems.page_crops_failed(error)
        return {}


def render_format(
    name: str,
    problems: RenderProblems,
    crops: Mapping[str, bytes],
    *,
    file: str | None = None,
) -> bytes | None:
    """`problems.report` as format `name` (one of `FORMATS` but json); None, and a note
    naming `file` (default `report.<name>`), when it cannot be made. A rendering the page
    crops break is made again without them, saying so."""
    file = file or f"report.{name}"
    render = _RENDERERS[name]
    uses_crops = bool(crops) and name in _SHOW_CROPS
    try:
        return render(sealed(problems.report), crops if uses_crops else {})
    except Exception as error:
        if not uses_crops:
            problems.file_not_made(file, error)
            return None
        first = error
    why = describe(first)
    note = problems.labels.crops_left_out.format(file=file, error=why)
    try:
        content = render(sealed(with_note(problems.report, note)), {})
    except Exception as error:
        problems.file_not_made(file, error)
        return None
    problems.add(note, f"{file} was made without the page crops: {why}")
    return content


def _write(out_dir: Path, name: str, content: bytes, problems: RenderProblems) -> bool:
    path = out_dir / f"report.{name}"
    try:
        disk.write_atomically(path, content)
    except Exception as error:  # a full disk, a folder gone: this file only; none half-written
        problems.file_not_made(path.name, error, written=True)
        return False
    return True


def check_formats(formats: Iterable[str]) -> None:
    unknown = [name for name in formats if name not in _RENDERERS]
    if unknown:
        raise ValueError(
            f"unknown report format(s) {', '.join(map(repr, unknown))}; "
            f"valid formats: {', '.join(FORMATS)}"
        )
