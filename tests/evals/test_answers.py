"""Answer accuracy (evals/answers.py): a report states the gold answer only when one figure
of its summary, a figures table or a calculation is the gold's value with its scale."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.contracts import (
    Calculation,
    Figure,
    FiguresTable,
    Report,
    Sentence,
    TableCell,
    TableRow,
)
from evals.answers import gold_value, states_answer
from evals.cases import Case, GoldAnswer
from evals.metrics import Row, measure
from tests.support.eval_builders import claim, report

CAPEX = "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"
SOURCE = claim("https://3m.test/10k.pdf#page=60", "Purchases of PP&E (1,577)")


def _summary(*texts: str) -> Report:
    base = report([SOURCE])
    return base.model_copy(
        update={"summary": [Sentence(text=t, claim_ids=[SOURCE.id]) for t in texts]}
    )


def _table(unit: str, *cells: str) -> Report:
    table = FiguresTable(
        id="t1",
        title="Capital expenditure",
        unit=unit,
        columns=[f"FY{2018 - i}" for i in range(len(cells))],
        rows=[
            TableRow(
                label="Purchases of PP&E",
                cells=[TableCell(text=c, claim_ids=[SOURCE.id]) for c in cells],
            )
        ],
    )
    return report([SOURCE]).model_copy(update={"tables": [table]})


def _calculation(text: str, unit: str, value: float) -> Report:
    figure = Figure(measure="x", value=1.0, text="1", claim_ids=[SOURCE.id])
    calculation = Calculation(
        id="k1",
        kind="margin",
        measure="operating margin",
        value=value,
        unit=unit,
        text=text,
        formula="a / b",
        inputs=[figure],
    )
    return report([SOURCE]).model_copy(update={"calculations": [calculation]})


@pytest.mark.parametrize(
    ("question", "answer", "value", "percent"),
    [
        (CAPEX, "$1577.00", Decimal("1577000000"), False),  # the question's scale
        ("What was revenue?", "$8.70 billion", Decimal("8700000000"), False),
        ("What is the operating margin?", "24.5%", Decimal("24.5"), True),
        ("What is the change?", "-9.3%", Decimal("-9.3"), True),
        ("What is the quick ratio?", "0.66", Decimal("0.66"), False),
        ("What is the quick ratio in 2022?", "Yes. It is 1.2 in FY2022", Decimal("1.2"), False),
    ],
)
def test_the_gold_s_headline_figure_is_read_with_its_scale(
    question: str, answer: str, value: Decimal, percent: bool
) -> None:
    gold = gold_value(question, answer)
    assert gold is not None
    assert (gold.value, gold.percent) == (value, percent)


@pytest.mark.parametrize("answer", ["Yes", "No, the company is not capital intensive.", "2019"])
def test_an_answer_without_a_figure_is_not_scored(answer: str) -> None:
    assert states_answer(_summary("Capex was $1,577 million."), CAPEX, answer) is None


@pytest.mark.parametrize(
    ("made", "stated"),
    [
        (_summary("Capital expenditure was $1,577 million in FY2018."), True),
        (_summary("Capital expenditure was US$ 1.577 bilhão em 2018."), True),
        (_summary("Capital expenditure was $1.6 billion in FY2018."), True),  # its rounding
        # A figure without its scale is not the answer: "1,577" is not $1,577 million.
        (_summary("Capital expenditure was 1,577 in FY2018."), False),
        (_summary("Capital expenditure was $1,577 thousand in FY2018."), False),
        (_summary("Capital expenditure was $2 billion in FY2018."), False),  # past 2%
        (_summary("Net income was $5,363 million in FY2018."), False),  # another figure
        (_table("$ million", "1,577", "1,373"), True),  # under the table's unit
        (_table("", "1,577", "1,373"), False),  # a table with no unit says no scale
        (_table("$", "$1,577 million", "1,373"), True),  # the cell's own scale
    ],
)
def test_a_figure_is_the_answer_only_with_its_scale(made: Report, stated: bool) -> None:
    assert states_answer(made, CAPEX, "$1577.00") is stated


def test_the_answer_in_a_section_only_is_not_stated_where_the_client_reads_it() -> None:
    buried = report([SOURCE], [("Capital expenditure was $1,577 million.", [SOURCE.id])])
    assert states_answer(buried, CAPEX, "$1577.00") is False


@pytest.mark.parametrize(
    ("made", "stated"),
    [
        (_calculation("24.5%", "%", 24.5), True),
        (_calculation("24.4%", "%", 24.4), False),  # the gold's precision: a tenth
        (_calculation("0.245", "", 0.245), True),  # the ratio is the percentage
        (_summary("Operating income was $1,900 million."), False),  # the margin was asked
    ],
)
def test_the_asked_measure_is_stated_or_not(made: Report, stated: bool) -> None:
    assert states_answer(made, "What is the FY2019 operating margin?", "24.5%") is stated


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("Sales fell 9.3% in 2019.", True),
        ("Sales changed by −9.3% in 2019.", True),
        ("Sales rose 9.3% in 2019.", False),  # the sign is part of the answer
    ],
)
def test_the_sign_is_part_of_the_answer(text: str, stated: bool) -> None:
    assert states_answer(_summary(text), "What is the change in sales?", "-9.3%") is stated


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("Operating margin fell 1.7 pp, from 20.8% in 2021 to 19.1% in 2022.", True),
        ("A margem operacional caiu 1,7 p.p. em 2022.", True),
        ("Operating margin rose 1.7 pp in 2022.", False),
        ("Operating margin fell 1.6 pp in 2022.", False),
    ],
)
def test_a_margin_s_change_in_points_is_the_percentage_the_gold_writes(
    text: str, stated: bool
) -> None:
    question = "What drove operating margin change as of FY2022?"
    assert states_answer(_summary(text), question, "Operating margin decreased by -1.7%") is stated


def test_a_report_is_scored_on_each_numeric_gold_answer_of_its_case() -> None:
    case = Case(
        id="company-3m",
        question="3M: …",
        answers=(
            GoldAnswer(CAPEX, "$1577.00"),
            GoldAnswer("What is the FY2018 net income (in USD millions)?", "$5363.00"),
            GoldAnswer("Is 3M capital intensive?", "No"),
        ),
    )
    made = _summary("Capital expenditure was $1,577 million in FY2018.")
    metrics = measure(made, case, passing={SOURCE.id})
    assert (metrics.answers_stated, metrics.answers_numeric) == (1, 2)
    failed = Row.failed(case, "final", "boom", 1.0, False)
    assert (failed.answers_stated, failed.answers_numeric) == (0, 2)
