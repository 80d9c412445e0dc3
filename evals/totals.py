"""Totals of an architecture over a suite's rows, and the simulated cost of a mean report."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from evals.metrics import Row
from evals.pricing import SimulatedPricing


@dataclass(frozen=True)
class Totals:
    """One architecture over a set of rows."""

    arch: str
    cases: int
    required_found: int
    required_on_board: int
    required_total: int
    cases_complete: int
    """Cases whose every required item was found."""
    published_claims: int
    verified_claims: int
    unsupported_numbers: int
    uncited_sentences: int
    gaps_declared: int
    gaps_expected: int
    partial: int
    errors: int
    seconds_mean: float
    seconds_max: float
    usd_total: float
    model_calls: int
    input_tokens: int
    output_tokens: int
    conflicts_declared: int = 0
    context_claims: int = 0
    fragments: int = 0
    calculated_figures: int = 0
    ocr_claims: int = 0
    ocr_claims_verified: int = 0
    figure_claims: int = 0
    primary_sources: int = 0
    """Summed over the reports: a document cited by two reports counts in each."""
    secondary_sources: int = 0
    other_sources: int = 0
    unrated_sources: int = 0
    seen_rendered: int = 0
    seen_rejected: int = 0
    seen_seconds: float = 0.0

    @property
    def recall(self) -> float | None:
        return _share(self.required_found, self.required_total)

    @property
    def pass_rate(self) -> float | None:
        return _share(self.verified_claims, self.published_claims)

    @property
    def usd_mean(self) -> float:
        return self.usd_total / self.cases if self.cases else 0.0


def totals(rows: Iterable[Row], arch: str) -> Totals:
    own = [row for row in rows if row.arch == arch]
    seconds = [row.seconds for row in own]
    return Totals(
        arch=arch,
        cases=len(own),
        required_found=sum(r.required_found for r in own),
        required_on_board=sum(r.required_on_board for r in own),
        required_total=sum(r.required_total for r in own),
        cases_complete=sum(1 for r in own if r.required_found == r.required_total),
        published_claims=sum(r.published_claims for r in own),
        verified_claims=sum(r.verified_claims for r in own),
        unsupported_numbers=sum(r.unsupported_numbers for r in own),
        uncited_sentences=sum(r.uncited_sentences for r in own),
        gaps_declared=sum(r.gaps_declared for r in own),
        gaps_expected=sum(r.gaps_expected for r in own),
        partial=sum(1 for r in own if r.partial),
        errors=sum(1 for r in own if r.error is not None),
        seconds_mean=sum(seconds) / len(seconds) if seconds else 0.0,
        seconds_max=max(seconds, default=0.0),
        usd_total=sum(r.usd for r in own),
        model_calls=sum(r.model_calls for r in own),
        input_tokens=sum(r.input_tokens for r in own),
        output_tokens=sum(r.output_tokens for r in own),
        conflicts_declared=sum(r.conflicts_declared for r in own),
        context_claims=sum(r.context_claims for r in own),
        fragments=sum(r.fragments for r in own),
        calculated_figures=sum(r.calculated_figures for r in own),
        ocr_claims=sum(r.ocr_claims for r in own),
        ocr_claims_verified=sum(r.ocr_claims_verified for r in own),
        figure_claims=sum(r.figure_claims for r in own),
        primary_sources=sum(r.primary_sources for r in own),
        secondary_sources=sum(r.secondary_sources for r in own),
        other_sources=sum(r.other_sources for r in own),
        unrated_sources=sum(r.unrated_sources for r in own),
        seen_rendered=sum(r.seen_rendered for r in own),
        seen_rejected=sum(r.seen_rejected for r in own),
        seen_seconds=sum(r.seen_seconds for r in own),
    )


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def simulated_usd_mean(sums: Totals, pricing: SimulatedPricing) -> float:
    """The mean report's notional tokens at `pricing`'s list prices."""
    if not sums.cases:
        return 0.0
    return pricing.usd(sums.input_tokens / sums.cases, sums.output_tokens / sums.cases)
