"""What a report is sold for, and the budget that follows from it.

A consultancy sells each type of report (a template, or a question without one) at a price,
and spends a share of that price on the research. Prices are in US dollars, the currency the
model's API bills in, so the money a run may spend is the price times the share, with no
exchange rate in between. Steps and wall time follow from that money by one rule
(`limits_for_money`): as many steps and minutes per dollar as the former fixed budget gave
(60 steps and 10 minutes for US$ 2.00), within floors that let a cheap report finish and caps
that keep a dear one from running for hours. A flag (`fonte ask --max-usd`) or a deployment's
setting (FONTE_MAX_USD) replaces one limit and leaves the others to the price.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import BadInput
from engine.settings import env_number

if TYPE_CHECKING:
    from engine.contracts import Limits

CURRENCY = "USD"
STEPS_PER_USD = 30.0
MINUTES_PER_USD = 5.0
STEPS_FLOOR, STEPS_CAP = 20, 300
MINUTES_FLOOR, MINUTES_CAP = 5.0, 60.0


def limits_for_money(usd: float) -> Limits:
    """The limits of a run that may spend `usd`: 30 steps and 5 minutes per dollar, steps
    within 20..300 and minutes within 5..60."""
    # The report's models are built here, not at import: the templates' prices are read by
    # `fonte ask --help` (its --template choices), which builds no model.
    from engine.contracts import Limits

    steps = min(STEPS_CAP, max(STEPS_FLOOR, round(usd * STEPS_PER_USD)))
    minutes = min(MINUTES_CAP, max(MINUTES_FLOOR, usd * MINUTES_PER_USD))
    return Limits(steps=steps, seconds=minutes * 60, usd=usd)


@dataclass(frozen=True)
class Pricing:
    """A report's price (US$) and the share of it (0..1) spent on its research."""

    price_usd: float
    research_share: float

    def __post_init__(self) -> None:
        if not math.isfinite(self.price_usd) or self.price_usd < 0:
            raise BadInput(f"a report's price must be a finite amount ≥ 0, not {self.price_usd}")
        if not 0 <= self.research_share <= 1:
            raise BadInput(f"the research share is a fraction 0..1, not {self.research_share}")

    @property
    def research_usd(self) -> float:
        return round(self.price_usd * self.research_share, 6)

    def limits(self) -> Limits:
        """The run's limits, the price they follow from included (report.json keeps it)."""
        budget = limits_for_money(self.research_usd)
        return budget.model_copy(update={"price_usd": self.price_usd})


DEFAULT_PRICING = Pricing(price_usd=100.0, research_share=0.02)
"""A question without a template: US$ 100, 2% on research, so US$ 2.00, 60 steps, 10 min."""


@dataclass(frozen=True)
class LimitOverrides:
    """Limits the user or the deployment set by hand; each one given replaces the price's."""

    steps: int | None = None
    seconds: float | None = None
    usd: float | None = None

    def applied(self, limits: Limits) -> Limits:
        given = {"steps": self.steps, "seconds": self.seconds, "usd": self.usd}
        return limits.model_copy(update={k: v for k, v in given.items() if v is not None})


PRICE_VARIABLES: Mapping[str | None, tuple[str, str]] = {
    None: ("FONTE_PRICE", "FONTE_RESEARCH_SHARE"),
    "mercado": ("FONTE_PRICE_MERCADO", "FONTE_RESEARCH_SHARE_MERCADO"),
    "concorrentes": ("FONTE_PRICE_CONCORRENTES", "FONTE_RESEARCH_SHARE_CONCORRENTES"),
    "regulacao": ("FONTE_PRICE_REGULACAO", "FONTE_RESEARCH_SHARE_REGULACAO"),
    "tendencias": ("FONTE_PRICE_TENDENCIAS", "FONTE_RESEARCH_SHARE_TENDENCIAS"),
    "tecnologia": ("FONTE_PRICE_TECNOLOGIA", "FONTE_RESEARCH_SHARE_TECNOLOGIA"),
    "livre": ("FONTE_PRICE_LIVRE", "FONTE_RESEARCH_SHARE_LIVRE"),
}
"""The settings of each template's price (US$) and research share (a fraction: 0.02 is 2%),
None being a question without a template. A template's share not set falls back to
FONTE_RESEARCH_SHARE when that is set; its price falls back to its own built-in price."""


@dataclass(frozen=True)
class PriceList:
    """The price of each type of report: a default and one per template id (`aliases`: the
    other names a template is called by, to its id)."""

    default: Pricing = DEFAULT_PRICING
    templates: Mapping[str, Pricing] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)

    def for_template(self, template: str | None) -> Pricing:
        if template is None:
            return self.default
        return self.templates.get(self.aliases.get(template, template), self.default)

    def limits_for(self, template: str | None, overrides: LimitOverrides | None = None) -> Limits:
        limits = self.for_template(template).limits()
        return limits if overrides is None else overrides.applied(limits)

    def from_env(self, env: Mapping[str, str]) -> PriceList:
        """These prices with a deployment's settings (`PRICE_VARIABLES`) over them."""
        default = _read(env, PRICE_VARIABLES[None], self.default, self.default.research_share)
        templates = {
            template: _read(env, PRICE_VARIABLES[template], pricing, default.research_share)
            if template in PRICE_VARIABLES
            else pricing
            for template, pricing in self.templates.items()
        }
        return PriceList(default, templates, self.aliases)


def _read(
    env: Mapping[str, str], names: tuple[str, str], built_in: Pricing, share: float
) -> Pricing:
    price_name, share_name = names
    default_share = share if env.get("FONTE_RESEARCH_SHARE") else built_in.research_share
    price = env_number(env, price_name, built_in.price_usd, minimum=0)
    research_share = env_number(env, share_name, default_share, minimum=0)
    if research_share > 1:
        raise BadInput(f"{share_name}={research_share:g}: a fraction of the price, 0..1")
    return Pricing(price, research_share)
