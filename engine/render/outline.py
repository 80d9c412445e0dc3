"""The order of a report's parts, which every renderer follows, and its table of contents.

Title (the question stated once), what changed since the previous report (a report
compared with one: `fonte ask --since`), partial banner, summary, contents (three sections or
more), sections, figures tables (each with its chart), calculations, conflicts, declared
gaps, sources grouped by document, appendix. A part with nothing in it is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.contracts import Report, Section
from engine.render.changes import changes_part
from engine.render.labels import Labels
from engine.text.normalise import collapse_whitespace

MIN_SECTIONS_FOR_CONTENTS = 3


@dataclass(frozen=True)
class Heading:
    anchor: str
    """The id of the part in HTML (`section-2`, `sources`, …)."""
    title: str


def section_anchor(position: int) -> str:
    """The id of the report's section at `position` (1-based)."""
    return f"section-{position}"


def shown_sections(report: Report) -> list[tuple[int, Section]]:
    """(position, section) for every section with a sentence in it: an empty one is not
    shown."""
    return [(n, s) for n, s in enumerate(report.sections, start=1) if s.sentences]


def listed_gaps(report: Report) -> list[str]:
    """The gaps shown in their own part; a partial report lists them in its banner instead."""
    if report.partial:
        return []
    return [line for line in (collapse_whitespace(gap) for gap in report.gaps) if line]


def contents(report: Report, labels: Labels) -> list[Heading]:
    """The table of contents: the sections, then the parts after them that the report has;
    empty when it has fewer than three sections."""
    sections = shown_sections(report)
    if len(sections) < MIN_SECTIONS_FOR_CONTENTS:
        return []
    headings = [
        Heading(section_anchor(n), collapse_whitespace(section.title)) for n, section in sections
    ]
    changes = changes_part(report)
    first = [Heading("changes", changes.heading)] if changes is not None else []
    later = [
        ("figures", labels.figures, bool(report.tables)),
        ("calculations", labels.calculations, bool(report.calculations)),
        ("conflicts", labels.conflicts, bool(report.conflicts)),
        ("gaps", labels.declared_gaps, bool(listed_gaps(report))),
        ("sources", labels.sources, True),
        ("appendix", labels.appendix, True),
    ]
    shown_later = [Heading(anchor, title) for anchor, title, shown in later if shown]
    return [*first, *headings, *shown_later]
