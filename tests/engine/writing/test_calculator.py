"""Derived figures computed in code, exactly, shown with their inputs as printed."""

import pytest

from engine.contracts import Figure
from engine.errors import ModelError
from engine.writing.calculator import Calculator, NotComparable, recompute


def figure(text: str, value: float, period: str, measure: str = "Revenue", **fields: str) -> Figure:
    values = {"unit": "$", "entity": "BESTBUY 10K", **fields}
    return Figure(
        measure=measure, period=period, value=value, text=text, claim_ids=[f"c{period}"], **values
    )


R19 = figure("$ 42,879", 42879, "2019")
R23 = figure("$ 46,298", 46298, "2023")
O19 = figure("1,900", 1900, "2019", "Operating income", unit="")
O23 = figure("1,900", 1900, "2023", "Operating income", unit="")


def test_a_percentage_change_shows_its_formula_and_cites_both_inputs() -> None:
    change = Calculator("en").percent_change(R19, R23)
    assert (change.id, change.kind, change.measure, change.period) == (
        "k1",
        "percent_change",
        "Revenue",
        "2019 to 2023",
    )
    assert change.text == "+8.0%"
    assert change.formula == "($ 46,298 − $ 42,879) ÷ $ 42,879 = +8.0%"
    assert change.value == pytest.approx(3419 / 42879 * 100, rel=1e-15)
    assert change.claim_ids == ["c2019", "c2023"]
    assert (change.unit, change.entity) == ("%", "BESTBUY 10K")


def test_a_cagr_over_the_years_between_the_periods() -> None:
    growth = Calculator("en").cagr(R19, R23)
    assert growth.text == "+1.9%"
    assert growth.formula == "((46,298 ÷ 42,879)^(1/4) − 1) = +1.9% a year"
    assert growth.value == pytest.approx(((46298 / 42879) ** 0.25 - 1) * 100, rel=1e-12)
    assert Calculator("en").cagr(R19, R23, years=2).text == "+3.9%"


def test_portuguese_numbers_and_words() -> None:
    calculator = Calculator("pt")
    assert calculator.percent_change(R19, R23).text == "+8,0%"
    growth = calculator.cagr(R19, R23)
    assert growth.period == "2019 a 2023"
    assert growth.formula.endswith("= +1,9% ao ano")
    assert calculator.difference(R19, R23).text == "+$ 3.419"


def test_ids_count_up_per_calculator() -> None:
    calculator = Calculator("en")
    ids = [calculator.percent_change(R19, R23).id, calculator.difference(R19, R23).id]
    assert ids == ["k1", "k2"]
    assert Calculator("en").cagr(R19, R23).id == "k1"


def test_amounts_keep_the_printed_unit_and_scale() -> None:
    old = figure("$51.8 billion", 51.8e9, "2022", unit="$ billion")
    new = figure("$46.3 billion", 46.3e9, "2023", unit="$ billion")
    fall = Calculator("en").difference(old, new)
    assert fall.text == "−$5.5 billion"
    assert fall.formula == "$46.3 billion − $51.8 billion = −$5.5 billion"
    assert fall.value == pytest.approx(-5.5e9)
    assert Calculator("en").percent_change(old, new).text == "−10.6%"
    assert Calculator("en").total([old, new]).text == "$98.1 billion"


def test_margins_ratios_shares_and_percentage_points() -> None:
    revenue = figure("$ 43,638", 43638, "2019")
    income = figure("$ 1,900", 1900, "2019", "Operating income")
    calculator = Calculator("en")
    assert calculator.margin(income, revenue).formula == "$ 1,900 ÷ $ 43,638 = 4.4%"
    assert calculator.share(income, revenue).text == "4.4%"
    assert calculator.ratio(revenue, income).text == "22.97"
    low = figure("4.4%", 4.4, "2019", "Operating margin", unit="%")
    high = figure("6.0%", 6.0, "2023", "Operating margin", unit="%")
    points = calculator.difference(low, high)
    assert (points.text, points.unit) == ("+1.6 pp", "pp")


def test_a_margins_change_in_points_and_its_mean_over_periods() -> None:
    calculator = Calculator("en")
    o19 = figure("$ 1,900", 1900, "2019", "Operating income")
    r19 = figure("$ 43,638", 43638, "2019")
    o23 = figure("$ 2,795", 2795, "2023", "Operating income")
    change = calculator.margin_change((o19, r19), (o23, R23))
    assert change.formula == "($ 2,795 ÷ $ 46,298) − ($ 1,900 ÷ $ 43,638) = +1.7 pp"
    assert (change.text, change.unit, change.period) == ("+1.7 pp", "pp", "2019 to 2023")
    mean = calculator.mean_margin([(o19, r19), (o23, R23)])
    assert mean.formula == "(($ 1,900 ÷ $ 43,638) + ($ 2,795 ÷ $ 46,298)) ÷ 2 = 5.2%"
    assert recompute(change) == change.value
    assert recompute(mean) == mean.value
    assert Calculator("pt").margin_change((o19, r19), (o23, R23)).text == "+1,7 p.p."
    with pytest.raises(NotComparable, match="one period"):
        calculator.margin_change((o19, R23), (o23, r19))
    with pytest.raises(NotComparable, match="different periods"):
        calculator.mean_margin([(o19, r19), (o19, r19)])


def test_recompute_is_the_guards_own_computation() -> None:
    calculator = Calculator("en")
    for calculation in (
        calculator.percent_change(R19, R23),
        calculator.cagr(R19, R23),
        calculator.difference(R19, R23),
        calculator.total([R19, R23]),
    ):
        assert recompute(calculation) == calculation.value
    no_years = calculator.cagr(R19, R23).model_copy(update={"formula": "growth = +1.9%"})
    with pytest.raises(NotComparable, match="no number of years"):
        recompute(no_years)


@pytest.mark.parametrize(
    ("kind", "inputs", "why"),
    [
        ("percent_change", [R19, figure("$ 1,900", 1900, "2023", "Income")], "one measure"),
        ("margin", [O19, R19], "units differ"),
        ("difference", [R19, figure("$ 1", 1, "2023", entity="Other")], "entities"),
        ("margin", [R19, R23], "one period"),
        ("percent_change", [R19, R19], "two periods"),
        ("percent_change", [figure("$ 0", 0, "2018"), R23], "divide by zero"),
        ("total", [[R19]], "at least two"),
        ("cagr", [R19, figure("$ 1", 1, "recent")], "years of both"),
    ],
)
def test_figures_that_do_not_compare_are_refused(kind: str, inputs: list[object], why: str) -> None:
    with pytest.raises(NotComparable, match=why):
        getattr(Calculator("en"), kind)(*inputs)


def test_not_comparable_is_a_model_error() -> None:
    assert issubclass(NotComparable, ModelError)


def test_a_ratio_to_an_average_of_two_periods() -> None:
    calculator = Calculator("en")
    sales = figure("$ 50,000", 50000, "2023", "Net sales")
    ppe_old = figure("$ 11,000", 11000, "2022", "PP&E")
    ppe_new = figure("$ 9,000", 9000, "2023", "PP&E")
    turnover = calculator.ratio_to_average(sales, ppe_old, ppe_new)
    assert (turnover.kind, turnover.text, turnover.period) == ("ratio_to_average", "5.00", "2023")
    assert turnover.formula == "($ 11,000 + $ 9,000) ÷ 2 = $ 10,000; $ 50,000 ÷ $ 10,000 = 5.00"
    assert turnover.value == pytest.approx(5.0)
    assert recompute(turnover) == turnover.value
    assert Calculator("pt").ratio_to_average(sales, ppe_old, ppe_new).text == "5,00"
    other = figure("$ 9,000", 9000, "2023", "Inventories")
    with pytest.raises(NotComparable, match="one measure"):
        calculator.ratio_to_average(sales, ppe_old, other)
    with pytest.raises(NotComparable, match="two periods"):
        calculator.ratio_to_average(sales, ppe_new, ppe_new)


def test_a_ratio_of_a_sum_of_inputs() -> None:
    calculator = Calculator("en")
    cash = figure("$ 1,200", 1200, "2022", "Cash")
    investments = figure("$ 300", 300, "2022", "Short-term investments")
    receivables = figure("$ 900", 900, "2022", "Receivables")
    liabilities = figure("$ 2,000", 2000, "2022", "Current liabilities")
    quick = calculator.sum_ratio([cash, investments, receivables], liabilities)
    assert (quick.kind, quick.text) == ("sum_ratio", "1.20")
    assert quick.formula == "($ 1,200 + $ 300 + $ 900) ÷ $ 2,000 = 1.20"
    assert recompute(quick) == quick.value
    with pytest.raises(NotComparable, match="one period"):
        calculator.sum_ratio([cash, investments], figure("$ 2,000", 2000, "2021", "CL"))
    with pytest.raises(NotComparable, match="at least two"):
        calculator.sum_ratio([cash], liabilities)


def test_days_of_a_figure_or_of_an_average_over_a_years_flow() -> None:
    calculator = Calculator("en")
    cogs = figure("$ 36,500", 36500, "2023", "Cost of sales")
    old = figure("$ 3,500", 3500, "2022", "Accounts payable")
    new = figure("$ 4,500", 4500, "2023", "Accounts payable")
    dpo = calculator.days([old, new], cogs)
    assert (dpo.kind, dpo.text) == ("days", "40.0 days")
    assert dpo.formula == "($ 3,500 + $ 4,500) ÷ 2 = $ 4,000; $ 4,000 ÷ $ 36,500 × 365 = 40.0 days"
    assert recompute(dpo) == dpo.value
    one = calculator.days([new], cogs)
    assert (one.text, one.formula) == ("45.0 days", "$ 4,500 ÷ $ 36,500 × 365 = 45.0 days")
    assert Calculator("pt").days([new], cogs).text == "45,0 dias"
    with pytest.raises(NotComparable, match="one period"):
        calculator.days([old], cogs)
