"""The appendix at the end of every report, "how this report was made": the run's internal
details, kept out of the body (spend and limits, model, architecture, notes, the claims the
verifier rejected and the sentences the draft check dropped). A part with nothing in it is
not shown."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contracts import ClaimStatus, Report
from engine.render.citations import safe_href, shown_url
from engine.render.labels import format_decimal, labels_for, spend_rows
from engine.text.normalise import collapse_whitespace


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


def _with_cost_share(report: Report, rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`rows` with the run's cost as a share of the report's price after the cost row, when
    the report has a price ("0,14% de US$ 100,00")."""
    labels, price = labels_for(report.language), report.limits.price_usd
    if not price:  # no price (a report of an older version), or nothing to share
        return rows
    share = format_decimal(labels, report.spend.usd / price * 100, 2)
    row = (labels.cost_share, f"{share}% {labels.of} US$ {format_decimal(labels, price, 2)}")
    after = next((n + 1 for n, (label, _) in enumerate(rows) if label == labels.cost), len(rows))
    return [*rows[:after], row, *rows[after:]]


def appendix(report: Report) -> Appendix:
    """The appendix's parts, each on one line, in the report's language."""
    labels = labels_for(report.language)
    return Appendix(
        rows=_with_cost_share(report, spend_rows(report)),
        notes=[line for line in (collapse_whitespace(note) for note in report.notes) if line],
        rejected=[
            Rejection(
                url=shown_url(collapse_whitespace(claim.url)),
                href=safe_href(claim.url),
                reason=collapse_whitespace(claim.reason or labels.no_reason),
            )
            for claim in report.claims
            if claim.status is ClaimStatus.rejected
        ],
        dropped=[
            Dropped(
                collapse_whitespace(d.section),
                collapse_whitespace(d.text),
                collapse_whitespace(d.reason),
            )
            for d in report.dropped_sentences
        ],
    )
