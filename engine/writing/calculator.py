"""Derived figures computed in code from verified figures, never typed by a model.

`Calculator(language)` computes a difference, a percentage change, a CAGR, a margin, a ratio,
a share or a sum of `Figure`s, and of a margin between periods its change in percentage
points (`margin_change`: two periods' part and whole) and its mean (`mean_margin`: each
period's part and whole), a ratio to an average of two periods (`ratio_to_average`: "revenue
÷ average PP&E", the average of one measure's figures of two periods) and a ratio of a sum
(`sum_ratio`: "(cash + short-term investments + receivables) ÷ current liabilities", of one
period), and days of a year's flow (`days`: "payables ÷ cost of sales × 365", the payables of
one period or their average over two), and returns a `Calculation` (ids k1, k2, … per calculator)
whose `formula` shows the inputs as printed and whose `text` is the result as a report
states it, in the report's language ("+8.0%" in English, "+8,0%" in Portuguese).

The arithmetic is exact: inputs are read as decimals (`Decimal(repr(value))`), a CAGR's root
is taken at 28 significant digits, and only the text is rounded (one decimal for a
percentage, two for a ratio, an amount with the decimals its inputs print, and with the scale
and currency its statement declares when its inputs print none: "+$ 3,419 million" from
"$ 42,879" and "$ 46,298" under "(in millions)"; a formula shows its inputs as printed, with
that scale's word). `recompute` is
the number guard's own computation of a calculation from its inputs.

Inputs must be comparable, else `NotComparable`: the same unit family (`unit_family`: "$"
and "$ million" are both USD; "%" is not "p.p."), the same entity; a change or growth rate
is of one measure between two periods; a margin, ratio or share is of one period; a margin's
change or mean takes each period's part and whole, in pairs of one period each.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext

from engine.contracts import Calculation, CalculationKind, Figure, Language
from engine.errors import ModelError
from engine.text.normalise import collapse_whitespace, folded
from engine.words import words_for
from engine.writing.figures import (
    MINUS,
    printed_scale,
    scaled_amount,
    unit_family,
    unit_scale,
    year_of,
)

__all__ = ["Calculator", "NotComparable", "comparability_problem", "recompute"]

_HUNDRED = Decimal(100)
_YEAR_DAYS = Decimal(365)
_TWO_INPUTS = frozenset({"difference", "percent_change", "cagr", "margin", "ratio", "share"})
_OF_PERIODS = frozenset({"margin_change", "mean_margin"})
_ONE_PERIOD = frozenset({"margin", "ratio", "share", "sum_ratio"})
_YEARS_IN_FORMULA = re.compile(r"\^\(1/(\d+)\)")
_DIGITS = re.compile(r"\d(?:[\d.,\u00a0\u2009\u202f]*\d)?")


class NotComparable(ModelError):
    """Figures a calculation cannot combine: units or entities differ, a change across two
    measures, a margin across two periods, a division by zero."""


def comparability_problem(kind: str, inputs: Sequence[Figure]) -> str | None:
    """Why `inputs` cannot make a calculation of `kind`, or None when they can."""
    if kind == "sum":
        if len(inputs) < 2:
            return "a sum needs at least two figures"
    elif kind in _TWO_INPUTS:
        if len(inputs) != 2:
            return f"a {kind} needs exactly two figures, not {len(inputs)}"
    elif kind == "ratio_to_average":
        if len(inputs) != 3:
            return f"a {kind} needs a figure and the two figures averaged, not {len(inputs)}"
    elif kind == "days":
        if len(inputs) not in (2, 3):
            return f"days need a figure (or two averaged) and a year's flow, not {len(inputs)}"
    elif kind == "sum_ratio":
        if len(inputs) < 3:
            return f"a {kind} needs at least two figures summed and a divisor"
    elif kind in _OF_PERIODS:
        if len(inputs) < 4 or len(inputs) % 2:
            return f"a {kind} needs a part and a whole of each period, not {len(inputs)} figures"
        if kind == "margin_change" and len(inputs) != 4:
            return "a margin_change is between two periods"
    else:
        return f"unknown calculation {kind!r}"
    families = {unit_family(f.unit) for f in inputs}
    if len(families) > 1:
        return "the figures' units differ: " + ", ".join(repr(f.unit) for f in inputs)
    entities = {f.entity.casefold() for f in inputs}
    if len(entities) > 1:
        return "the figures are of different entities: " + ", ".join(f.entity for f in inputs)
    if kind in ("percent_change", "cagr"):
        if len({folded(f.measure) for f in inputs}) > 1:
            return f"a {kind} compares one measure, not " + " and ".join(f.measure for f in inputs)
        if inputs[0].period == inputs[1].period:
            return f"a {kind} is between two periods"
    averaged = inputs[1:] if kind == "ratio_to_average" else inputs[:2] if kind == "days" else []
    if len(averaged) == 2 and len(inputs) == 3:
        old, new = averaged
        if folded(old.measure) != folded(new.measure):
            return f"an average is of one measure, not {old.measure} and {new.measure}"
        other = next(f for f in inputs if f is not old and f is not new)
        years = [year_of(old.period), year_of(new.period)]
        if years[0] is None or years[1] is None or years[0] == years[1]:
            return "an average is between two periods"
        if year_of(other.period) not in years:
            return f"a {kind} is of one of the periods averaged"
    if kind in _ONE_PERIOD or (kind == "days" and len(inputs) == 2):
        periods = {f.period for f in inputs if f.period}
        if len(periods) > 1:
            return f"a {kind} is of one period, not " + " and ".join(sorted(periods))
    if kind in _OF_PERIODS:
        pairs = list(zip(inputs[::2], inputs[1::2], strict=True))
        if any(part.period != whole.period for part, whole in pairs):
            return f"each part and whole of a {kind} is of one period"
        if len({part.period for part, _ in pairs}) != len(pairs):
            return f"a {kind} is across different periods"
    return None


def recompute(calculation: Calculation) -> float:
    """The calculation's value computed again from its inputs (NotComparable when it cannot
    be: the guard then drops it)."""
    problem = comparability_problem(calculation.kind, calculation.inputs)
    if problem:
        raise NotComparable(problem)
    years = None
    if calculation.kind == "cagr":
        match = _YEARS_IN_FORMULA.search(calculation.formula)
        if match is None:
            raise NotComparable("a CAGR's formula names no number of years")
        years = int(match[1])
    return float(_exact(calculation.kind, calculation.inputs, years))


def _exact(kind: str, inputs: Sequence[Figure], years: int | None) -> Decimal:
    values = [_decimal(f.value) for f in inputs]
    if kind == "sum":
        return sum(values, Decimal(0))
    if kind == "ratio_to_average":
        average = (values[1] + values[2]) / 2
        if average == 0:
            raise NotComparable(f"a {kind} would divide by zero")
        return values[0] / average
    if kind == "days":
        if values[-1] == 0:
            raise NotComparable(f"{kind} would divide by zero")
        held = sum(values[:-1], Decimal(0)) / (len(values) - 1)
        return held / values[-1] * _YEAR_DAYS
    if kind == "sum_ratio":
        if values[-1] == 0:
            raise NotComparable(f"a {kind} would divide by zero")
        return sum(values[:-1], Decimal(0)) / values[-1]
    if kind in _OF_PERIODS:
        if any(whole == 0 for whole in values[1::2]):
            raise NotComparable(f"a {kind} would divide by zero")
        margins = [
            part / whole * _HUNDRED for part, whole in zip(values[::2], values[1::2], strict=True)
        ]
        if kind == "margin_change":
            return margins[1] - margins[0]
        return sum(margins, Decimal(0)) / len(margins)
    a, b = values
    if kind == "difference":
        return b - a
    divisor = b if kind in ("margin", "ratio", "share") else a
    if divisor == 0:
        raise NotComparable(f"a {kind} would divide by zero")
    if kind == "percent_change":
        return (b - a) / abs(a) * _HUNDRED
    if kind == "cagr":
        if years is None or years < 1:
            raise NotComparable("a CAGR needs a span of at least one year")
        if a <= 0 or b <= 0:
            raise NotComparable("a CAGR needs two positive figures")
        with localcontext() as context:
            context.prec = 28
            growth = (b / a) ** (Decimal(1) / Decimal(years))
        return (growth - 1) * _HUNDRED
    if kind == "ratio":
        return a / b
    return a / b * _HUNDRED  # margin, share: a part of a whole, in percent


def _decimal(value: float) -> Decimal:
    return Decimal(repr(float(value)))


class Calculator:
    """Calculations of one report, numbered k1, k2, … in the order they are asked for."""

    def __init__(self, language: Language) -> None:
        self.language: Language = language
        self._count = 0

    # -- the calculations -------------------------------------------------------------

    def difference(self, old: Figure, new: Figure) -> Calculation:
        value = self._checked("difference", [old, new], None)
        text, unit = self._amount(value, [old, new], signed=True)
        formula = f"{self._said(new)} {MINUS} {self._said(old)} = {text}"
        return self._made("difference", [old, new], value, unit, text, formula, _span(old, new))

    def percent_change(self, old: Figure, new: Figure) -> Calculation:
        value = self._checked("percent_change", [old, new], None)
        text = self._percent(value, signed=True)
        formula = f"({self._said(new)} {MINUS} {self._said(old)}) ÷ {self._said(old)} = {text}"
        return self._made("percent_change", [old, new], value, "%", text, formula, _span(old, new))

    def cagr(self, first: Figure, last: Figure, years: int | None = None) -> Calculation:
        """Compound annual growth from `first` to `last` over `years` (by default the years
        between their periods)."""
        if years is None:
            start, end = year_of(first.period), year_of(last.period)
            if start is None or end is None:
                raise NotComparable("a CAGR needs the years of both periods, or `years`")
            years = end - start
        value = self._checked("cagr", [first, last], years)
        text = self._percent(value, signed=True)
        a_year = words_for(self.language).writer.a_year
        formula = (
            f"(({_printed_digits(last.text)} ÷ {_printed_digits(first.text)})^(1/{years}) "
            f"{MINUS} 1) = {text} {a_year}"
        )
        return self._made("cagr", [first, last], value, "%", text, formula, _span(first, last))

    def margin(self, part: Figure, whole: Figure) -> Calculation:
        return self._part_of("margin", part, whole)

    def share(self, part: Figure, whole: Figure) -> Calculation:
        return self._part_of("share", part, whole)

    def margin_change(self, old: tuple[Figure, Figure], new: tuple[Figure, Figure]) -> Calculation:
        """The change, in percentage points, of a margin (part ÷ whole) from one period's
        part and whole (`old`) to another's (`new`)."""
        inputs = [*old, *new]
        value = self._checked("margin_change", inputs, None)
        pp = words_for(self.language).writer.percentage_points
        text = f"{self._number(value, 1, signed=True)} {pp}"
        formula = (
            f"({new[0].text} ÷ {new[1].text}) {MINUS} ({old[0].text} ÷ {old[1].text}) = {text}"
        )
        return self._made("margin_change", inputs, value, pp, text, formula, _span(old[0], new[0]))

    def mean_margin(self, pairs: Sequence[tuple[Figure, Figure]]) -> Calculation:
        """The mean of a margin (part ÷ whole) over the periods of `pairs`, each one
        period's part and whole."""
        inputs = [figure for pair in pairs for figure in pair]
        value = self._checked("mean_margin", inputs, None)
        text = self._percent(value, signed=False)
        each = " + ".join(f"({part.text} ÷ {whole.text})" for part, whole in pairs)
        formula = f"({each}) ÷ {len(pairs)} = {text}"
        return self._made(
            "mean_margin", inputs, value, "%", text, formula, _span(pairs[0][0], pairs[-1][0])
        )

    def ratio(self, a: Figure, b: Figure) -> Calculation:
        value = self._checked("ratio", [a, b], None)
        text = self._number(value, 2, signed=False)
        formula = f"{self._said(a)} ÷ {self._said(b)} = {text}"
        return self._made("ratio", [a, b], value, "", text, formula, a.period or b.period)

    def ratio_to_average(self, a: Figure, old: Figure, new: Figure) -> Calculation:
        """`a` ÷ the average of one measure's figures of two periods (`old`, `new`): "revenue
        ÷ average PP&E". The average is shown in the formula, as the inputs' unit prints it."""
        inputs = [a, old, new]
        value = self._checked("ratio_to_average", inputs, None)
        average = self._average(old, new)
        text = self._number(value, 2, signed=False)
        formula = (
            f"({self._said(old)} + {self._said(new)}) ÷ 2 = {average}; "
            f"{self._said(a)} ÷ {average} = {text}"
        )
        measure = f"{collapse_whitespace(a.measure)} ÷ {collapse_whitespace(new.measure)}"
        return self._made(
            "ratio_to_average", inputs, value, "", text, formula, a.period, measure=measure
        )

    def sum_ratio(self, parts: Sequence[Figure], whole: Figure) -> Calculation:
        """The sum of `parts` ÷ `whole`, all of one period: "(cash + receivables) ÷ current
        liabilities"."""
        inputs = [*parts, whole]
        value = self._checked("sum_ratio", inputs, None)
        text = self._number(value, 2, signed=False)
        summed = " + ".join(self._said(f) for f in parts)
        formula = f"({summed}) ÷ {self._said(whole)} = {text}"
        names = " + ".join(collapse_whitespace(f.measure) for f in parts)
        measure = f"({names}) ÷ {collapse_whitespace(whole.measure)}"
        return self._made(
            "sum_ratio", inputs, value, "", text, formula, whole.period, measure=measure
        )

    def days(self, held: Sequence[Figure], flow: Figure) -> Calculation:
        """Days of a year's `flow` that `held` is (× 365): "payables ÷ cost of sales × 365";
        `held` one figure of the flow's period, or two of one measure (its average over two
        periods, shown in the formula)."""
        inputs = [*held, flow]
        value = self._checked("days", inputs, None)
        words = words_for(self.language).writer
        text = f"{self._number(value, 1, signed=False)} {words.days}"
        if len(held) == 2:
            average = self._average(held[0], held[1])
            formula = f"({self._said(held[0])} + {self._said(held[1])}) ÷ 2 = {average}; "
        else:
            average, formula = self._said(held[0]), ""
        formula += f"{average} ÷ {self._said(flow)} × 365 = {text}"
        measure = f"{collapse_whitespace(held[-1].measure)} ÷ {collapse_whitespace(flow.measure)}"
        return self._made("days", inputs, value, "", text, formula, flow.period, measure=measure)

    def total(self, figures: Sequence[Figure]) -> Calculation:
        inputs = list(figures)
        value = self._checked("sum", inputs, None)
        text, unit = self._amount(value, inputs, signed=False)
        formula = " + ".join(self._said(f) for f in inputs) + f" = {text}"
        periods = list(dict.fromkeys(f.period for f in inputs if f.period))
        period = periods[0] if len(periods) == 1 else ", ".join(periods)
        return self._made("sum", inputs, value, unit, text, formula, period)

    # -- helpers ----------------------------------------------------------------------

    def _part_of(self, kind: CalculationKind, part: Figure, whole: Figure) -> Calculation:
        value = self._checked(kind, [part, whole], None)
        text = self._percent(value, signed=False)
        formula = f"{self._said(part)} ÷ {self._said(whole)} = {text}"
        return self._made(kind, [part, whole], value, "%", text, formula, part.period)

    def _average(self, old: Figure, new: Figure) -> str:
        """The average of two figures as they print their amounts (a half with one decimal
        more: "$ 10,820.5 million")."""
        mean = (_decimal(old.value) + _decimal(new.value)) / 2
        decimals = _decimals([old, new])
        face = mean / unit_scale(new.unit)
        if face != face.quantize(Decimal(1).scaleb(-decimals)):
            decimals += 1
        return self._amount(mean, [old, new], signed=False, decimals=decimals)[0]

    def _checked(self, kind: str, inputs: Sequence[Figure], years: int | None) -> Decimal:
        problem = comparability_problem(kind, inputs)
        if problem:
            raise NotComparable(problem)
        return _exact(kind, inputs, years)

    def _made(
        self,
        kind: CalculationKind,
        inputs: list[Figure],
        value: Decimal,
        unit: str,
        text: str,
        formula: str,
        period: str,
        *,
        measure: str = "",
    ) -> Calculation:
        self._count += 1
        named: dict[str, str] = {}
        for figure in inputs:
            named.setdefault(folded(figure.measure), collapse_whitespace(figure.measure))
        measures = list(named.values())
        joiner = " ÷ " if kind in ("margin", "ratio", "share", *_OF_PERIODS) else " + "
        if not measure:
            measure = measures[0] if len(measures) == 1 else joiner.join(measures)
        if kind == "difference" and len(measures) == 2:
            measure = f"{measures[1]} {MINUS} {measures[0]}"
        return Calculation(
            id=f"k{self._count}",
            kind=kind,
            measure=measure,
            entity=inputs[0].entity,
            period=period.replace(" to ", f" {words_for(self.language).writer.span_to} "),
            value=float(value),
            unit=unit,
            text=text,
            formula=formula,
            inputs=inputs,
        )

    def _said(self, figure: Figure) -> str:
        """An input as its excerpt prints it, with the scale word its statement declares:
        "$ 42,879 million" ("$ 42,879 milhões" in Portuguese: a formula shows the digits
        as printed)."""
        scale = unit_scale(figure.unit)
        if scale == 1 or printed_scale(figure) == scale:
            return figure.text
        word = words_for(self.language).writer.scales.get(scale.adjusted(), "")
        return f"{figure.text} {word}".strip()

    def _percent(self, value: Decimal, *, signed: bool) -> str:
        return f"{self._number(value, 1, signed=signed)}%"

    def _amount(
        self,
        value: Decimal,
        inputs: Sequence[Figure],
        *,
        signed: bool,
        decimals: int | None = None,
    ) -> tuple[str, str]:
        """An amount in the first input's unit, printed as it prints its figures (or with
        `decimals`)."""
        first = inputs[0]
        if decimals is None:
            decimals = _decimals(inputs)
        if unit_family(first.unit) == "%":
            pp = words_for(self.language).writer.percentage_points
            return f"{self._number(value, decimals, signed=signed)} {pp}", pp
        face = value / unit_scale(first.unit)
        if printed_scale(first) != unit_scale(first.unit):  # the scale its statement declares
            sign = "+" if signed else ""
            return scaled_amount(face, first.unit, self.language, decimals=decimals, sign=sign), (
                first.unit
            )
        prefix, suffix = _around_digits(first.text)
        number = self._number(abs(face), decimals, signed=False)
        sign = "" if not signed or face.is_zero() else ("+" if face > 0 else MINUS)
        if not signed and face < 0:
            sign = MINUS
        return f"{sign}{prefix}{number}{suffix}", first.unit

    def _number(self, value: Decimal, decimals: int, *, signed: bool) -> str:
        quantum = Decimal(1).scaleb(-decimals)
        rounded = value.quantize(quantum, rounding=ROUND_HALF_UP)
        words = words_for(self.language).report
        separators = str.maketrans(",.", words.thousands_separator + words.decimal_separator)
        body = f"{abs(rounded):,.{decimals}f}".translate(separators)
        if rounded < 0:
            return f"{MINUS}{body}"
        return f"+{body}" if signed and rounded > 0 else body


def _span(old: Figure, new: Figure) -> str:
    if old.period and new.period and old.period != new.period:
        return f"{old.period} to {new.period}"
    return new.period or old.period


def _printed_digits(text: str) -> str:
    match = _DIGITS.search(text)
    return match[0] if match else text


def _around_digits(text: str) -> tuple[str, str]:
    """What a printed figure writes before and after its number ("$ ", " billion"), its
    signs and parentheses left out."""
    match = _DIGITS.search(text)
    if match is None:
        return "", ""
    prefix = text[: match.start()].lstrip("(-\u2212+ ")
    suffix = text[match.end() :].replace(")", "").rstrip()
    return prefix, suffix


def _decimals(inputs: Sequence[Figure]) -> int:
    """The most decimals an input prints (a trailing group of three digits is thousands)."""
    most = 0
    for figure in inputs:
        digits = _printed_digits(figure.text)
        groups = re.split(r"[.,]", digits)
        if len(groups) > 1 and len(groups[-1]) != 3:
            most = max(most, len(groups[-1]))
    return most
