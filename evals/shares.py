"""Cost as a share of the price: what each template's reports cost against what they sell for.

Every row carries its template ("default" for a question asked without one) and the price of
that template's report (`engine.planning.pricing`, in US$). The share is the mean cost per
report over that price; offline runs, which cost $0, also get the share of their simulated
cost (`evals.pricing`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from evals.metrics import Row
from evals.pricing import SimulatedPricing

DEFAULT_TEMPLATE = "default"
"""The template column of a question asked without a template."""


@dataclass(frozen=True)
class TemplateShare:
    """One template under one architecture."""

    template: str
    arch: str
    reports: int
    price_usd: float
    usd_mean: float
    simulated_usd_mean: float | None = None

    @property
    def share(self) -> float | None:
        return self.usd_mean / self.price_usd if self.price_usd else None

    @property
    def simulated_share(self) -> float | None:
        if self.simulated_usd_mean is None or not self.price_usd:
            return None
        return self.simulated_usd_mean / self.price_usd


def template_shares(
    rows: Iterable[Row], pricing: SimulatedPricing | None = None
) -> list[TemplateShare]:
    """One entry per template and architecture, in the rows' order; failed runs left out."""
    groups: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        if row.error is None:
            groups.setdefault((row.template, row.arch), []).append(row)
    shares = []
    for (template, arch), own in groups.items():
        simulated = None
        if pricing is not None:
            simulated = sum(pricing.usd(r.input_tokens, r.output_tokens) for r in own) / len(own)
        usd_mean = sum(r.usd for r in own) / len(own)
        shares.append(
            TemplateShare(template, arch, len(own), own[0].price_usd, usd_mean, simulated)
        )
    return shares


def percent(share: float | None) -> str:
    return "–" if share is None else f"{share:.3%}"
