import pytest

from engine.text.language import detect_language


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Quais são os limites de potência da microgeração?", "pt"),
        ("Como está o mercado de energia solar no Nordeste?", "pt"),
        ("What is the FY2018 capital expenditure amount for 3M?", "en"),
        ("How large is the residential solar market in Brazil?", "en"),
    ],
)
def test_language_of_the_question(question: str, language: str) -> None:
    assert detect_language(question) == language
