from __future__ import annotations

import pytest

from engine.text.signs import minus_before_currency, parenthesised, stated_negative


@pytest.mark.parametrize(
    ("text", "figure", "expected"),
    [
        ("(1.577)", "1.577", True),
        ("$(1,577)", "1,577", True),
        ("(R$ 1.577)", "1.577", True),
        ("( 1,577 )", "1,577", True),
        ("(45%)", "45", False),
        ("(5 MW)", "5", False),
        ("(1,577 e 1,373)", "1,577", False),
        ("1,577", "1,577", False),
    ],
)
def test_parenthesised(text: str, figure: str, expected: bool) -> None:
    start = text.index(figure)
    assert parenthesised(text, start, start + len(figure)) is expected


@pytest.mark.parametrize(
    ("text", "figure", "expected"),
    [
        ("The company had a loss of 1,577", "1,577", True),
        ("O prejuízo foi de 1.577", "1.577", True),
        ("a 3,2% de queda", "3,2%", True),
        ("GDP fell 3.2%", "3.2", True),
        ("Capex was 1,577", "1,577", True),
        ("Net income was 1,577", "1,577", False),
        ("O lucro foi de 1.577", "1.577", False),
        ("Revenue fell. Profit was 1,577", "1,577", False),
        ("Revenue fell, but profit was 1,577", "1,577", False),
        ("Purchases of property and equipment were 1,577", "1,577", True),
    ],
)
def test_stated_negative(text: str, figure: str, expected: bool) -> None:
    start = text.index(figure)
    end = start + len(figure)
    assert stated_negative(text, start, end) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("−$1,577", True), ("-R$ 5", True), ("$1,577", False), ("X-$5", False)],
)
def test_minus_before_currency(text: str, expected: bool) -> None:
    start = next(i for i, c in enumerate(text) if c.isdigit())
    assert minus_before_currency(text, start) is expected
