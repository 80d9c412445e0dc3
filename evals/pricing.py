"""What an offline run would have cost on Claude: its notional tokens at list prices.

The offline model costs $0, but its runs count the calls and tokens a real model would have
needed (`evals.latency`). Priced at one model's list prices (every call on that model, no
prompt caching), those tokens give a **simulated** cost per report: a way to compare the
architectures' appetite for tokens in dollars, never a quote. Runs on Claude report what
they really spent instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Usage
from engine.models.claude import DEFAULT_MODEL, DEFAULT_PRICES, PRICES_AS_OF, ModelPrice


@dataclass(frozen=True)
class SimulatedPricing:
    model: str
    price: ModelPrice
    as_of: str = PRICES_AS_OF

    @classmethod
    def at_list_prices(cls, model: str = DEFAULT_MODEL) -> SimulatedPricing:
        return cls(model, DEFAULT_PRICES[model])

    def usd(self, input_tokens: float, output_tokens: float) -> float:
        usage = Usage(input_tokens=round(input_tokens), output_tokens=round(output_tokens))
        return self.price.cost_usd(usage)

    def describe(self) -> str:
        return (
            f"simulated cost: notional tokens at {self.model} list prices of {self.as_of}, "
            "no caching"
        )
