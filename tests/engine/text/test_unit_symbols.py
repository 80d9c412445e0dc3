from __future__ import annotations

from decimal import Decimal

import pytest

from engine.text.unit_symbols import unit_at


@pytest.mark.parametrize(
    ("text", "unit", "factor"),
    [
        ("bps", "bp", Decimal("0.01")),
        ("pontos-base", "bp", Decimal("0.01")),
        ("p.p.", "pp", Decimal(1)),
        ("%", "%", Decimal(1)),
        ("m²", "m2", Decimal(1)),
        ("km2", "m2", Decimal(10**6)),
        ("cm²", "m2", Decimal("0.0001")),
        ("km³", "m3", Decimal(10**9)),
        ("ha", "m2", Decimal(10**4)),
        ("hectares", "m2", Decimal(10**4)),
        ("square kilometres", "m2", Decimal(10**6)),
        ("quilômetros quadrados", "m2", Decimal(10**6)),
        ("metros cúbicos", "m3", Decimal(1)),
        ("MW", "W", Decimal(10**6)),
        ("mW", "W", Decimal("0.001")),
        ("Swiss francs", "CHF", Decimal(1)),
        ("casas", None, Decimal(1)),
    ],
)
def test_unit_at(text: str, unit: str | None, factor: Decimal) -> None:
    found, scale, _ = unit_at(text, 0)
    assert (found, scale) == (unit, factor)
