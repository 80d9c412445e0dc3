"""Units and periods of figures: what a unit measures and its scale (read by the quantity
rules of `engine.text.quantities`: "$ million" is read as "$ 1 million"), and the periods a
column header or a sentence prints ("February 2, 2019", "FY2023", "2022"). Pure functions."""

from __future__ import annotations

import re
from decimal import Decimal

from engine.text.quantities import Quantity, quantities

__all__ = ["PERIOD", "header_cells", "period_year", "unit_family", "unit_scale", "year_of"]

_SPACE = "[ \t\u00a0\u2009\u202f]"
_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
_MESES = "janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro"
_YEAR = r"(?:19|20)\d{2}"
PERIOD = re.compile(
    rf"(?i:(?:{_MONTHS})\.?\s+\d{{1,2}},?\s+(?P<y1>{_YEAR}))"
    rf"|(?i:\d{{1,2}}º?\s+de\s+(?:{_MESES}|novembro|dezembro)\s+de\s+(?P<y2>{_YEAR}))"
    rf"|\d{{1,2}}[./]\d{{1,2}}[./](?P<y3>{_YEAR})"
    rf"|(?:FY\s?|(?i:fiscal\s+(?:year\s+)?|exerc[ií]cio\s+(?:de\s+)?))(?P<y4>{_YEAR})"
    rf"|(?<![\d/])(?<!\d[.,])(?P<y5>{_YEAR})(?![\d/]|[.,]\d)"
)
_ANY_YEAR = re.compile(rf"(?<!\d)({_YEAR})(?!\d)")


_CURRENCY = re.compile(rf"(R\$|US\$|U\$S|\$|€|£|USD|BRL|EUR|GBP){_SPACE}*")


def period_year(match: re.Match[str]) -> str:
    """The year a match of `PERIOD` names."""
    return next(y for y in match.group("y1", "y2", "y3", "y4", "y5") if y)


def _probe(unit: str) -> Quantity | None:
    """The unit read by the quantity rules: "$ million" as "$ 1 million"."""
    currency = _CURRENCY.match(unit)
    rest = unit[currency.end() :] if currency else unit
    probe = f"{currency[1]} 1 {rest}" if currency else f"1 {rest}"
    found = quantities(probe.strip(), "en")
    return found[0] if found else None


def unit_family(unit: str) -> str:
    """What a unit measures, scale aside: "$" and "$ million" are "USD", "MW" is "W", "%" is
    "%", "p.p." is "pp", a count ("", "million") is ""."""
    quantity = _probe(unit) if unit.strip() else None
    return (quantity.unit or "") if quantity else ""


def unit_scale(unit: str) -> Decimal:
    """The factor from a figure's printed number to its value: 10⁶ for "$ million"."""
    quantity = _probe(unit) if unit.strip() else None
    return quantity.scale if quantity else Decimal(1)


def year_of(period: str) -> int | None:
    match = _ANY_YEAR.search(period)
    return int(match[1]) if match else None


def header_cells(context: str) -> list[tuple[str, str]]:
    """The column headers a context prints, left to right, each with its year:
    ("February 2, 2019", "2019"), ("FY2023", "2023"), ("2022", "2022")."""
    cells = []
    for match in PERIOD.finditer(context):
        cells.append((" ".join(match[0].split()), period_year(match)))
    return cells
