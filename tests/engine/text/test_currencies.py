from __future__ import annotations

import pytest

from engine.text.currencies import currency_code, money_word


@pytest.mark.parametrize(
    ("sign", "code"),
    [
        ("$", "USD"),
        ("US$", "USD"),
        ("R$", "BRL"),
        ("A$", "AUD"),
        ("C$", "CAD"),
        ("NZ$", "NZD"),
        ("HK$", "HKD"),
        ("Z$", "Z$"),
        ("¥", "JPY"),
        ("CN¥", "CNY"),
        ("€", "EUR"),
        ("£", "GBP"),
        ("CHF", "CHF"),
    ],
)
def test_currency_code(sign: str, code: str) -> None:
    assert currency_code(sign) == code


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("reais", "BRL"),
        ("dólares", "USD"),
        ("dollars", "USD"),
        ("Australian dollars", "AUD"),
        ("dólares canadenses", "CAD"),
        ("Swiss francs", "CHF"),
        ("ienes", "JPY"),
        ("pounds sterling", "GBP"),
        ("euros", "EUR"),
        ("JPY", "JPY"),
    ],
)
def test_money_word(word: str, code: str) -> None:
    assert money_word(word) == code
