"""Whether a report states the gold answer: the gold's number, with its scale, among what a
client reads as the answer (the summary, a figures table, a calculation). Pure.

Evidence found is not an answer given: a report can cite the right page and still state
operating income where the margin was asked, or "1,577" where the answer is $1,577 million.
So a FinanceBench answer counts as stated only when one figure of those three places,
read with the scale the report shows for it (its own words, or its table's unit), is the
gold's value at the gold's or the report's precision, sign included. A gold answer without a
number (a yes or no, a name, a judgement) is not scored here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from engine import Report
from engine.text import Quantity, declarations, quantities_stated
from engine.writing import unit_scale
from evals.cases import GoldAnswer

__all__ = ["Stated", "gold_value", "stated_values", "states_answer"]

# "(in USD millions)", "in USD thousands", "USD billions": the scale a question asks its
# answer in, which the gold answer then leaves out ("$1577.00").
_ASKED_SCALE = re.compile(
    r"\b(?:in\s+)?(?:USD|US\$|\$|dollars?)?\s*(thousands|millions|billions)\b", re.IGNORECASE
)
_EXPONENTS = {"thousands": 3, "millions": 6, "billions": 9}
_RELATIVE_SLACK = Decimal("0.005")
"""Below half a percent of the gold, any figure is its value written another way."""
_PER_HUNDRED = frozenset({"%", "pp"})
"""A change of a margin in percentage points is the percentage FinanceBench writes for it
("Operating Margin … has decreased by 1.7%" of 20.8% to 19.1%)."""
_ROUNDING_CAP = Decimal("0.02")
"""A report's rounding ("$1.6 billion") covers the gold only within 2% of it."""


@dataclass(frozen=True)
class Stated:
    """A figure as a reader takes it: its value with its scale applied and the sign it is
    written with, whether it is a percentage, half a unit of its last written digit (its
    precision), scaled, and whether its words make it negative ("fell 9.3%", "a loss of")."""

    value: Decimal
    percent: bool
    half_unit: Decimal
    said_negative: bool = False


def gold_value(question: str, answer: str) -> Stated | None:
    """The gold answer's headline figure (its first number that is not a year or a
    reference), scaled as the question asks when the answer gives no scale; None for an
    answer without one."""
    for quantity in quantities_stated(answer, "en"):
        stated = next(_readings(quantity))  # FinanceBench writes "1,577.00": one reading
        if quantity.scale == 1 and not stated.percent:
            asked = _ASKED_SCALE.search(question)
            if asked:
                factor = Decimal(10) ** _EXPONENTS[asked[1].lower()]
                stated = Stated(stated.value * factor, False, stated.half_unit * factor)
        return stated
    return None


def stated_values(report: Report) -> Iterator[Stated]:
    """Every figure the report states where its answer is read: the summary's sentences,
    its figures tables' cells (under the table's unit when the cell gives no scale), and its
    calculations' results."""
    for sentence in report.summary:
        for quantity in quantities_stated(sentence.text, report.language):
            yield from _readings(quantity)
    for table in report.tables:
        declared = declarations(f"({table.unit})") if table.unit else []
        scale = declared[0][1] if declared else unit_scale(table.unit)
        percent = table.unit.strip() == "%"
        for row in table.rows:
            for cell in row.cells:
                for quantity in quantities_stated(cell.text if cell else "", report.language):
                    own = scale if quantity.scale == 1 else Decimal(1)
                    yield from _readings(quantity, own, percent)
    for calculation in report.calculations:
        unit = calculation.unit.strip()
        scale = unit_scale(unit) if unit not in ("", "%") else Decimal(1)
        for quantity in quantities_stated(calculation.text, report.language):
            own = scale if quantity.scale == 1 else Decimal(1)
            yield from _readings(quantity, own, unit == "%")


def states_answer(report: Report, question: str, answer: str) -> bool | None:
    """Whether `report` states the gold `answer` to `question`; None when it has no number."""
    gold = gold_value(question, answer)
    if gold is None:
        return None
    return any(_agrees(figure, gold) for figure in stated_values(report))


def numeric_gold(gold: GoldAnswer) -> bool:
    """Whether the gold answer states a number, so that a report can be scored on it."""
    return gold_value(gold.question, gold.answer) is not None


def _readings(
    quantity: Quantity, scale: Decimal = Decimal(1), percent: bool = False
) -> Iterator[Stated]:
    """The figure as each value it can be read as ("1.577" is 1,577 or 1.577 until its
    language settles it), `scale` applied besides its own."""
    factor = quantity.scale * scale
    sign = -1 if quantity.negative else 1
    for reading in quantity.readings:
        exponent = reading.as_tuple().exponent
        places = max(-exponent, 0) if isinstance(exponent, int) else 0
        half_unit = Decimal(5) * Decimal(10) ** (-places - 1) * factor
        shown_percent = percent or quantity.unit in _PER_HUNDRED
        yield Stated(sign * reading * factor, shown_percent, half_unit, quantity.stated_negative)


def _agrees(figure: Stated, gold: Stated) -> bool:
    """One figure is the gold's value: the same within the gold's precision (or half a
    percent of an amount), or within the report's own rounding up to 2%; a ratio stated as
    a percentage (0.245 and 24.5%) is the same figure. Its sign is the one it is written
    with, or the one its words give it ("fell 9.3%" is -9.3%; "capital expenditure of $1,577
    million" is written positive, as FinanceBench gives it)."""
    value = figure.value
    if figure.percent != gold.percent:
        value = value / 100 if figure.percent else value * 100
    slack = max(
        gold.half_unit,
        Decimal(0) if gold.percent else abs(gold.value) * _RELATIVE_SLACK,
        min(figure.half_unit, abs(gold.value) * _ROUNDING_CAP),
    )
    signs = {value, -abs(value)} if figure.said_negative else {value}
    return any(abs(signed - gold.value) <= slack for signed in signs)
