"""The appendix at the end of every report, "how this report was made": the run's internal
details, kept out of the body (spend and limits, model, architecture, notes, the claims the
verifier rejected and the sentences the draft check dropped). A part with nothing in it is
not shown."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contracts import ClaimStatus, Report
from engine.render.citations import safe_href
from engine.render.labels import labels_for, spend_rows
from engine.render.text import one_line


@dataclass(frozen=True)
class Rejection:
    url: str
    href: str | None
    reason: str


@dataclass(frozen=True)
class Dropped:
    section: str
    text: str
    reason: str


@dataclass(frozen=True)
class Appendix:
    rows: list[tuple[str, str]]
    """(label, value): spend against each limit, model, architecture, date."""
    notes: list[str]
    rejected: list[Rejection]
    dropped: list[Dropped]


def appendix(report: Report) -> Appendix:
    """The appendix's parts, each on one line, in the report's language."""
    labels = labels_for(report.language)
    return Appendix(
        rows=spend_rows(report),
        notes=[line for line in (one_line(note) for note in report.notes) if line],
        rejected=[
            Rejection(
                url=one_line(claim.url),
                href=safe_href(claim.url),
                reason=one_line(claim.reason or labels.no_reason),
            )
            for claim in report.claims
            if claim.status is ClaimStatus.rejected
        ],
        dropped=[
            Dropped(one_line(d.section), one_line(d.text), one_line(d.reason))
            for d in report.dropped_sentences
        ],
    )
