"""The few words a rendered report shows around its content, read from the report's
language's table (`engine.words`): `Labels` is that table's `report` part."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.contracts import Claim, Report
from engine.words import ReportWords, words_for

Labels = ReportWords


def labels_for(language: str) -> Labels:
    return words_for(language).report


def format_utc(moment: datetime) -> str:
    """`2025-05-01 14:03 UTC`; a naive datetime is taken to be UTC already."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def page_label(labels: Labels, page: int) -> str:
    return f"{labels.page} {page}"


def context_text(labels: Labels, claim: Claim) -> str | None:
    """A claim's context as a report shows it; a table's header verified on the page before
    the excerpt's (the table continues) says so: "(header from page 4)"."""
    if not claim.context:
        return None
    context, at, where = claim.context.strip(), claim.context_locator, claim.locator
    if at is not None and where is not None and at.page is not None and where.page != at.page:
        context += f" ({labels.header_from_page.format(page=at.page)})"
    return context


def accessed_text(labels: Labels, moment: datetime) -> str:
    return f"{labels.accessed_on} {format_utc(moment)}"


def format_decimal(labels: Labels, value: float, places: int) -> str:
    return f"{value:.{places}f}".replace(".", labels.decimal_separator)


def spend_rows(report: Report) -> list[tuple[str, str]]:
    """(label, value) rows for the footer: spend against each limit, model, architecture."""
    labels = labels_for(report.language)
    spend, limits = report.spend, report.limits

    def seconds(value: float) -> str:
        return f"{format_decimal(labels, value, 1)} s"

    def dollars(value: float) -> str:
        return f"US$ {format_decimal(labels, value, 4)}"

    return [
        (labels.steps, f"{spend.steps} {labels.of} {limits.steps}"),
        (labels.time, f"{seconds(spend.seconds)} {labels.of} {seconds(limits.seconds)}"),
        (labels.cost, f"{dollars(spend.usd)} {labels.of} {dollars(limits.usd)}"),
        (labels.model, report.model),
        (labels.architecture, report.architecture),
        (labels.created_at, format_utc(report.created_at)),
    ]
