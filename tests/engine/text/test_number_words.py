from __future__ import annotations

from decimal import Decimal

import pytest

from engine.text.number_words import numbers_in_words


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("vinte e cinco", [Decimal(25)]),
        ("cento e vinte e três", [Decimal(123)]),
        ("dois mil e quinhentos", [Decimal(2500)]),
        ("twenty-five", [Decimal(25)]),
        ("one hundred and five", [Decimal(105)]),
        ("three", [Decimal(3)]),
        ("cinco e seis", [Decimal(5), Decimal(6)]),
        ("um dos maiores", []),
        ("one of the largest", []),
        ("15 por cento", []),
        ("um milhão", [Decimal(1)]),
    ],
)
def test_numbers_in_words(text: str, values: list[Decimal]) -> None:
    assert [min(t.values) for t in numbers_in_words(text)] == values


def test_a_word_token_points_at_its_words() -> None:
    text = "Foram vinte e cinco usinas e três parques."
    tokens = numbers_in_words(text)
    assert [text[t.start : t.end] for t in tokens] == ["vinte e cinco", "três"]
    assert all(t.exact for t in tokens)
