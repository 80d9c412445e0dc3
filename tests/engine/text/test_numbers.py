from __future__ import annotations

from decimal import Decimal

import pytest

from engine.text.numbers import missing_numbers, numbers_in


def readings(text: str) -> list[tuple[str, set[Decimal]]]:
    return [(token.raw, set(token.values)) for token in numbers_in(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("75", [("75", {Decimal(75)})]),
        ("1,577", [("1,577", {Decimal(1577), Decimal("1.577")})]),
        ("1.577,00", [("1.577,00", {Decimal(1577)})]),
        ("1,577.00", [("1,577.00", {Decimal(1577)})]),
        ("14.300", [("14.300", {Decimal(14300), Decimal("14.3")})]),
        ("3.5", [("3.5", {Decimal("3.5")})]),
        ("20%", [("20", {Decimal(20)})]),
        ("(1,577)", [("1,577", {Decimal(1577), Decimal("1.577")})]),
        ("R$ 1,2 bilhão", [("1,2", {Decimal("1.2")})]),
        ("em 2018.", [("2018", {Decimal(2018)})]),
        ("o 1º artigo", [("1", {Decimal(1)})]),
        ("são 75.", [("75", {Decimal(75)})]),
        ("1,577,373.5", [("1,577,373.5", {Decimal("1577373.5")})]),
        ("14\u202f300 casas", [("14\u202f300", {Decimal(14300)})]),
        ("１５", [("１５", {Decimal(15)})]),
        ("-5", [("-5", {Decimal(5), Decimal(-5)})]),
        ("2019-2022", [("2019", {Decimal(2019)}), ("2022", {Decimal(2022)})]),
        ("FY2018", [("2018", {Decimal(2018)})]),
        ("1.2.3", [("1.2", {Decimal("1.2")}), ("3", {Decimal(3)})]),
        ("Lei 14.300/2022", [("14.300", {Decimal(14300), Decimal("14.3")}), ("2022", {2022})]),
        ("setenta e cinco", []),
    ],
)
def test_numbers_and_their_readings(text: str, expected: list[tuple[str, set[Decimal]]]) -> None:
    assert readings(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3M's results", []),
        ("5G and 4K", []),
        ("$3M raised", ["3"]),
        ("a 75MW plant", ["75"]),
        ("a 3MW plant", ["3"]),
        ("75kW", ["75"]),
    ],
)
def test_names_with_a_digit_are_not_numbers(text: str, expected: list[str]) -> None:
    assert [token.raw for token in numbers_in(text)] == expected


def test_token_positions_point_at_the_raw_text() -> None:
    text = "Lucro de R$ 1.577,00 em 2018, ou -5%."
    for token in numbers_in(text):
        assert text[token.start : token.end] == token.raw


@pytest.mark.parametrize(
    ("statement", "excerpt"),
    [
        ("capex was 1,577", "capex was 1577"),
        ("o capex foi de 1.577", "capex was 1,577"),
        ("lucro de 1.577,00", "profit of 1,577.00"),
        ("a 75 kW limit", "até 75 kW (setenta e cinco quilowatts)"),
        ("spent $1,577 million", "(Millions) Purchases of PP&E (1,577) (1,373)"),
        ("fell 5%", "change of -5%"),
        ("grew 3.5%", "cresceu 3,5%"),
        ("no numbers here", "nor here"),
    ],
)
def test_numbers_backed_by_the_excerpt(statement: str, excerpt: str) -> None:
    assert missing_numbers(statement, excerpt) == []


@pytest.mark.parametrize(
    ("statement", "excerpt", "missing"),
    [
        ("a limit of 80 kW", "um limite de 75 kW", ["80"]),
        ("growth of 15%", "growth of 1.5%", ["15"]),
        ("in 2018 it spent 1,577", "it spent 1,577", ["2018"]),
        ("a 76 kW limit", "setenta e cinco quilowatts", ["76"]),
        ("1,578 and 1,578 again", "1,577", ["1,578"]),
        ("worth 1,577.01", "worth 1,577", ["1,577.01"]),
        ("spent $1,577 million", "Purchases of PP&E (1,577) (1,373)", ["1,577"]),
        ("capex was 1.577", "capex was 1,577", ["1.577"]),
    ],
)
def test_numbers_missing_from_the_excerpt(statement: str, excerpt: str, missing: list[str]) -> None:
    assert missing_numbers(statement, excerpt) == missing
