from __future__ import annotations

import pytest

from engine.text.number_kinds import number_kind
from engine.text.quantities import quantities


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("em 2022", ["year"]),
        ("2022 unidades", ["quantity"]),
        ("Lei 14.300/2022", ["reference", "year"]),
        ("art. 75 e artigo 26", ["reference", "reference"]),
        ("Law No. 14,300", ["reference"]),
        ("75 kW", ["quantity"]),
        ("R$ 2022", ["quantity"]),
        ("2022 2021", ["year", "year"]),
        ("October 2017 debt issuances", ["year"]),
        ("October 2017\ndebt issuances", ["year"]),
        ("February 2, 2019 revenue", ["quantity", "year"]),
        ("2017 debt issuances", ["quantity"]),
        ("2017\ndebt issuances", ["quantity"]),
    ],
)
def test_years_and_references_are_not_quantities(text: str, kinds: list[str]) -> None:
    assert [q.kind for q in quantities(text)] == kinds


@pytest.mark.parametrize(
    ("text", "figure", "kind"),
    [
        ("Lei nº 14.300", "14.300", "reference"),
        ("§ 2 do artigo", "2", "reference"),
        ("Item 7 of the 10-K", "7", "reference"),
        ("foram 2019 casas", "2019", "quantity"),
        ("desde 2019 casas", "2019", "year"),
        ("2019 was a record", "2019", "year"),
        ("2019 Annual Report", "2019", "year"),
        ("R$ 14.300 de multa", "14.300", "quantity"),
        ("December 31, 2023 2022 \n acme_2023_10k.pdf", "2022", "year"),
        ("em 2022 \n unidades vendidas", "2022", "year"),
    ],
)
def test_number_kind(text: str, figure: str, kind: str) -> None:
    start = text.index(figure)
    assert number_kind(text, start, start + len(figure), start) == kind
