from engine.models.claude.config import DEFAULT_MODEL
from engine.models.claude.prices import DEFAULT_PRICES
from evals.pricing import SimulatedPricing


def test_the_default_pricing_is_the_default_models_list_price() -> None:
    pricing = SimulatedPricing.at_list_prices()
    rates = DEFAULT_PRICES[DEFAULT_MODEL].rates
    assert pricing.model == DEFAULT_MODEL
    expected = (1_000 * rates.input + 200 * rates.output) / 1_000_000
    assert pricing.usd(1_000, 200) == expected
    assert "no caching" in pricing.describe()
