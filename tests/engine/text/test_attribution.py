"""Whose figure it is (engine/text/attribution.py): a figure's company, period or column in
the statement is the one its excerpt, or its table's header, attaches to it."""

from __future__ import annotations

import pytest

from engine.text.attribution import attribution_problem


@pytest.mark.parametrize(
    ("statement", "excerpt", "context", "problem"),
    [
        (
            "Samsung had a 10% share of the market.",
            "Smartphone shipments in 2023: Apple 10%, Samsung 20%.",
            None,
            "the statement gives 10% to Samsung; the excerpt gives it to Apple",
        ),
        (
            "Samsung had a 10% share of the market.",
            "In 2023 the share was 10% for Apple and 20% for Samsung.",
            None,
            "the statement gives 10% to Samsung; the excerpt gives it to Apple",
        ),
        (
            "A Vale lucrou R$ 124 bilhões.",
            "A Petrobras lucrou R$ 124 bilhões em 2023, e a Vale R$ 39 bilhões.",
            None,
            "the statement gives 124 to Vale; the excerpt gives it to Petrobras",
        ),
        (
            "Samsung had 10 MW of capacity.",
            "Installed capacity in 2023: Apple 10 MW, Samsung 20 MW.",
            None,
            "the statement gives 10 to Samsung; the excerpt gives it to Apple",
        ),
        (
            "Net revenue was 11,162 in 2022.",
            "Net revenue 2022: 11,512; 2021: 11,162",
            None,
            "the statement gives 11,162 to 2022; the excerpt gives it to 2021",
        ),
        (
            "A receita líquida foi de 11.162 em 2022.",
            "Receita líquida 11.512 11.162",
            "2022 2021",
            "the statement gives 11.162 to 2022; the excerpt gives it to 2021",
        ),
        (
            "Net revenue was 11,162 in fiscal 2022.",
            "Year 2022 2021\nNet revenue 11,512 11,162",
            None,
            "the statement gives 11,162 to 2022; the excerpt gives it to 2021",
        ),
        (
            "Em 2021 a capacidade instalada foi de 410 MW.",
            "Capacidade instalada: 2022, 655 MW; 2021, 530 MW; 2020, 410 MW.",
            None,
            "the statement gives 410 to 2021; the excerpt gives it to 2020",
        ),
    ],
)
def test_a_figure_given_to_another_label_is_a_problem(
    statement: str, excerpt: str, context: str | None, problem: str
) -> None:
    assert attribution_problem(statement, excerpt, context) == problem


@pytest.mark.parametrize(
    ("statement", "excerpt", "context"),
    [
        ("Apple had a 10% share.", "Smartphone shipments in 2023: Apple 10%, Samsung 20%.", None),
        (
            "Apple had 10% of the market and Samsung 20%.",
            "In 2023 the share was 10% for Apple and 20% for Samsung.",
            None,
        ),
        ("Net revenue was 11,512 in 2022.", "Net revenue 2022: 11,512; 2021: 11,162", None),
        (
            "Net revenue rose from 11,162 in 2021 to 11,512 in 2022.",
            "Net revenue 2022: 11,512; 2021: 11,162",
            None,
        ),
        ("Receita de 11.162 em 2021.", "Receita líquida 11.512 11.162", "2022 2021"),
        (
            "3M's FY2022 capital expenditure was $1,749 million.",
            "Purchases of property, plant and equipment (PP&E) (1,749) (1,603) (1,501)",
            "2022 2021 2020",
        ),
        # a statement that does not pair its figures plainly is not judged
        (
            "In 2022 revenue was 11,512, up from 11,162.",
            "Net revenue 2022: 11,512; 2021: 11,162",
            None,
        ),
        # a label the excerpt does not name (another name of the same company)
        ("Alphabet had a 10% share.", "Shares in 2023: Google 10%, Microsoft 20%.", None),
        # dates are neither labels nor figures
        (
            "On December 31, 2022, cash was $5,100 million.",
            "As of December 31, 2022 and 2021, cash was $5,100 million and $4,800 million.",
            None,
        ),
    ],
)
def test_a_figure_with_its_own_label_passes(
    statement: str, excerpt: str, context: str | None
) -> None:
    assert attribution_problem(statement, excerpt, context) is None
