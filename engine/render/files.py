"""Write a report to disk in the asked formats, each file atomically."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from engine.contracts import Report
from engine.disk import write_atomically
from engine.render.evidence import PageEvidence
from engine.render.html import render_html
from engine.render.markdown import render_markdown
from engine.render.pdf import render_pdf
from engine.verify.digest import sealed

FORMATS: tuple[str, ...] = ("json", "md", "html", "pdf")

_Renderer = Callable[[Report, Mapping[str, bytes]], bytes]
_RENDERERS: dict[str, _Renderer] = {
    "json": lambda report, _: report.model_dump_json(indent=2).encode("utf-8"),
    "md": lambda report, _: render_markdown(report).encode("utf-8"),
    "html": lambda report, crops: render_html(report, crops=crops).encode("utf-8"),
    "pdf": render_pdf,
}
_SHOW_CROPS = frozenset({"html", "pdf"})


def write_report(
    report: Report,
    out_dir: Path,
    formats: Iterable[str],
    *,
    evidence: PageEvidence | None = None,
) -> list[Path]:
    """Write `report.<format>` for each format into `out_dir`; returns the paths written.

    Formats are checked before anything is written, so a typo writes nothing. With
    `evidence` (the report's sources can show pages: a library), cited claims carry their
    boxes on the page in report.json, and the HTML and PDF reports show the page crops.
    """
    wanted = list(dict.fromkeys(formats))
    check_formats(wanted)
    if evidence is not None:
        report = evidence.with_boxes(report)
    report = sealed(report)  # what report.json publishes, so fonte verify sees later edits
    crops: Mapping[str, bytes] = {}
    if evidence is not None and _SHOW_CROPS.intersection(wanted):
        crops = evidence.crops(report)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in wanted:
        path = out_dir / f"report.{name}"
        write_atomically(path, _RENDERERS[name](report, crops))
        paths.append(path)
    return paths


def check_formats(formats: Iterable[str]) -> None:
    unknown = [name for name in formats if name not in _RENDERERS]
    if unknown:
        raise ValueError(
            f"unknown report format(s) {', '.join(map(repr, unknown))}; "
            f"valid formats: {', '.join(FORMATS)}"
        )
