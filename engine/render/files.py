"""Write a report to disk in the asked formats, each file atomically."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from engine.contracts import Report
from engine.disk import write_atomically
from engine.render.html import render_html
from engine.render.markdown import render_markdown
from engine.render.pdf import render_pdf
from engine.verify.digest import sealed

FORMATS: tuple[str, ...] = ("json", "md", "html", "pdf")

_RENDERERS: dict[str, Callable[[Report], bytes]] = {
    "json": lambda report: report.model_dump_json(indent=2).encode("utf-8"),
    "md": lambda report: render_markdown(report).encode("utf-8"),
    "html": lambda report: render_html(report).encode("utf-8"),
    "pdf": render_pdf,
}


def write_report(report: Report, out_dir: Path, formats: Iterable[str]) -> list[Path]:
    """Write `report.<format>` for each format into `out_dir`; returns the paths written.

    Formats are checked before anything is written, so a typo writes nothing.
    """
    wanted = list(dict.fromkeys(formats))
    check_formats(wanted)
    report = sealed(report)  # what report.json publishes, so fonte verify sees later edits
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in wanted:
        path = out_dir / f"report.{name}"
        write_atomically(path, _RENDERERS[name](report))
        paths.append(path)
    return paths


def check_formats(formats: Iterable[str]) -> None:
    unknown = [name for name in formats if name not in _RENDERERS]
    if unknown:
        raise ValueError(
            f"unknown report format(s) {', '.join(map(repr, unknown))}; "
            f"valid formats: {', '.join(FORMATS)}"
        )
