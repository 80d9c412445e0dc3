"""Totals of an architecture over a suite's rows, and the simulated cost of a mean report."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from evals.metrics import Row, Tally
from evals.pricing import SimulatedPricing


@dataclass(frozen=True, kw_only=True)
class Totals(Tally):
    """One architecture over a set of rows: each of its rows' `Tally` summed, and how the
    runs went."""

    arch: str
    cases: int
    cases_complete: int
    """Cases whose every required item was found."""
    partial: int
    errors: int
    seconds_mean: float
    seconds_max: float
    usd_total: float
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
    summed = {each.name: sum(getattr(row, each.name) for row in own) for each in fields(Tally)}
    return Totals(
        **summed,
        arch=arch,
        cases=len(own),
        cases_complete=sum(1 for r in own if r.required_found == r.required_total),
        partial=sum(1 for r in own if r.partial),
        errors=sum(1 for r in own if r.error is not None),
        seconds_mean=sum(seconds) / len(seconds) if seconds else 0.0,
        seconds_max=max(seconds, default=0.0),
        usd_total=sum(r.usd for r in own),
        seen_seconds=sum(r.seen_seconds for r in own),
    )


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def simulated_usd_mean(sums: Totals, pricing: SimulatedPricing) -> float:
    """The mean report's notional tokens at `pricing`'s list prices."""
    if not sums.cases:
        return 0.0
    return pricing.usd(sums.input_tokens / sums.cases, sums.output_tokens / sums.cases)
