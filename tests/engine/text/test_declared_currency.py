"""A statement's header declares the currency of its bare figures with their scale: "$ in
millions", "$ and shares in millions", "(Dollars in millions)", "Reais em milhares"."""

from decimal import Decimal

from engine.text.quantities import declarations, unsupported_numbers

MILLION = Decimal(10) ** 6


def test_a_currency_before_in_millions_is_declared() -> None:
    assert declarations("$ and shares in millions, except per share amounts") == [("USD", MILLION)]
    assert declarations("$ in millions, except per share amounts") == [("USD", MILLION)]
    assert declarations("(Dollars in millions, except per share amounts)") == [("USD", MILLION)]
    assert declarations("Reais em milhares") == [("BRL", Decimal(1000))]
    assert declarations("(In millions)") == [(None, MILLION)]  # no currency: none declared


def test_a_declared_currency_backs_that_currency_only() -> None:
    quoted = "Operating income 1,900 1,843 1,854 \n $ in millions, except per share amounts"
    assert unsupported_numbers("Operating income was $1,900 million", quoted) == []
    assert unsupported_numbers("Operating income was R$ 1,900 million", quoted) == ["1,900"]
