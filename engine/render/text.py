"""Plain-text helpers shared by the renderers."""

from __future__ import annotations

from engine.contracts import Report


def one_line(text: str) -> str:
    """Collapse runs of whitespace (newlines included) into single spaces."""
    return " ".join(text.split())


def report_title(report: Report) -> str:
    """The report's title, or its question when the writer gave none."""
    return one_line(report.title) or one_line(report.question)
