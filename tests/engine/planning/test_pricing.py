"""A report's budget follows from the price of its type: money = price × research share, steps
and minutes from the money, within floors and caps; a deployment's settings over the prices."""

from __future__ import annotations

import pytest

from engine.contracts import Limits
from engine.errors import BadInput
from engine.planning import TEMPLATES, LimitOverrides, PriceList, Pricing, prices_from_env
from engine.planning.pricing import DEFAULT_PRICING, PRICE_VARIABLES, limits_for_money


def test_the_default_price_gives_the_former_fixed_budget() -> None:
    limits = DEFAULT_PRICING.limits()

    assert (limits.steps, limits.seconds, limits.usd) == (60, 600.0, 2.0)
    assert limits.price_usd == 100.0
    assert prices_from_env({}).limits_for(None) == limits


@pytest.mark.parametrize(
    ("usd", "steps", "minutes"),
    [
        (0.0, 20, 5.0),  # floors: a report that may spend nothing still gets to finish
        (0.5, 20, 5.0),
        (3.0, 90, 15.0),  # 30 steps and 5 minutes a dollar
        (5.0, 150, 25.0),
        (20.0, 300, 60.0),  # caps
    ],
)
def test_steps_and_minutes_scale_with_the_money_between_floors_and_caps(
    usd: float, steps: int, minutes: float
) -> None:
    assert limits_for_money(usd) == Limits(steps=steps, seconds=minutes * 60, usd=usd)


def test_every_template_carries_a_price_and_a_setting_for_it() -> None:
    prices = prices_from_env({})
    assert set(PRICE_VARIABLES) == {None, *(t.id for t in TEMPLATES)}
    market = prices.limits_for("mercado")
    assert (market.usd, market.steps, market.seconds, market.price_usd) == (5.0, 150, 1500.0, 250)
    assert prices.for_template("livre") == DEFAULT_PRICING
    assert prices.for_template("no-such-template") == DEFAULT_PRICING
    assert all(prices.for_template(t.id) == t.pricing for t in TEMPLATES)


def test_a_deployment_sets_prices_and_shares_per_template() -> None:
    env = {
        "FONTE_PRICE": "50",
        "FONTE_PRICE_MERCADO": "1000",
        "FONTE_RESEARCH_SHARE_MERCADO": "0.01",
        "FONTE_RESEARCH_SHARE": "0.04",
    }
    prices = prices_from_env(env)

    assert prices.for_template(None) == Pricing(50.0, 0.04)
    assert prices.for_template("mercado") == Pricing(1000.0, 0.01)
    # No share of its own: the deployment's share, on the template's built-in price.
    assert prices.for_template("regulacao") == Pricing(150.0, 0.04)
    assert prices.limits_for("regulacao").usd == 6.0
    # No share set anywhere: the template's own.
    assert prices_from_env({"FONTE_PRICE_REGULACAO": "300"}).limits_for("regulacao").usd == 6.0


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"FONTE_PRICE_MERCADO": "caro"}, "FONTE_PRICE_MERCADO='caro'"),
        ({"FONTE_PRICE": "-1"}, "FONTE_PRICE="),
        ({"FONTE_RESEARCH_SHARE_LIVRE": "2"}, "FONTE_RESEARCH_SHARE_LIVRE=2: a fraction"),
        ({"FONTE_RESEARCH_SHARE": "inf"}, "FONTE_RESEARCH_SHARE="),
    ],
)
def test_a_wrong_price_setting_is_one_line_naming_it(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(BadInput, match=r"^[^\n]+$") as error:
        prices_from_env(env)
    assert fragment in str(error.value)


def test_a_price_or_share_out_of_range_is_refused() -> None:
    with pytest.raises(BadInput, match="price"):
        Pricing(float("nan"), 0.02)
    with pytest.raises(BadInput, match="share"):
        Pricing(100.0, 1.5)


def test_overrides_replace_only_the_limits_they_name() -> None:
    prices = PriceList(Pricing(400.0, 0.01))

    limits = prices.limits_for(None, LimitOverrides(usd=0.25))

    assert limits == Limits(steps=120, seconds=1200.0, usd=0.25, price_usd=400.0)
    every = LimitOverrides(steps=3, seconds=30.0, usd=1.0)
    assert prices.limits_for(None, every) == Limits(steps=3, seconds=30, usd=1, price_usd=400)


def test_a_template_called_by_another_name_has_its_price() -> None:
    prices = prices_from_env({"FONTE_PRICE_CONCORRENTES": "800"})

    assert prices.for_template("players") == prices.for_template("concorrentes")
    assert prices.limits_for("competitors").usd == 16.0
