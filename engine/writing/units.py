"""Units and periods of figures: what a unit measures and its scale (read by the quantity
rules of `engine.text.quantities`: "$ million" is read as "$ 1 million"), and the periods a
column header or a sentence prints ("February 2, 2019", "FY2023", "2022"), read by the period
rules of `engine.text.periods`. Pure functions."""

from __future__ import annotations

import re
from decimal import Decimal

from engine.text.currencies import CURRENCY_SIGN
from engine.text.normalise import collapse_whitespace
from engine.text.periods import DATED_PERIOD, period_year, year_of
from engine.text.quantities import Quantity, quantities

__all__ = ["header_cells", "period_year", "unit_family", "unit_scale", "year_of"]

_SPACE = "[ \t\u00a0\u2009\u202f]"


_CURRENCY = re.compile(rf"({CURRENCY_SIGN}){_SPACE}*")


def _probe(unit: str) -> Quantity | None:
    """The unit read by the quantity rules: "$ million" as "$ 1 million"."""
    currency = _CURRENCY.match(unit)
    rest = unit[currency.end() :] if currency else unit
    probe = f"{currency[1]} 1 {rest}" if currency else f"1 {rest}"
    found = quantities(probe.strip(), "en")
    return found[0] if found else None


def unit_family(unit: str) -> str:
    """What a unit measures, scale aside: "$" and "$ million" are "USD", "A$ million" "AUD",
    "MW" is "W", "km²" "m2", "%" is "%", "p.p." is "pp", "bps" "bp", a count ("", "million")
    is ""."""
    quantity = _probe(unit) if unit.strip() else None
    return (quantity.unit or "") if quantity else ""


def unit_scale(unit: str) -> Decimal:
    """The factor from a figure's printed number to its value: 10⁶ for "$ million"."""
    quantity = _probe(unit) if unit.strip() else None
    return quantity.scale if quantity else Decimal(1)


def header_cells(context: str) -> list[tuple[str, str]]:
    """The column headers a context prints, left to right, each with its year:
    ("February 2, 2019", "2019"), ("FY2023", "2023"), ("2022", "2022")."""
    cells = []
    for match in DATED_PERIOD.finditer(context):
        cells.append((collapse_whitespace(match[0]), period_year(match)))
    return cells
