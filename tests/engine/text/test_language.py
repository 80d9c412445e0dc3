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


@pytest.mark.parametrize(
    ("query", "language"),
    [
        # Slash-command templates: a few content words, no function word, no accent.
        ("mercado energia solar residencial", "pt"),
        ("energia solar residencial", "pt"),
        ("concorrentes distribuidoras energia", "pt"),
        ("regulacao geracao distribuida", "pt"),
        ("tecnologia baterias armazenamento", "pt"),
        ("market residential solar energy", "en"),
        ("residential solar energy", "en"),
        ("competitors electricity distribution", "en"),
        ("technology battery storage pricing", "en"),
    ],
)
def test_short_template_queries(query: str, language: str) -> None:
    assert detect_language(query) == language


def test_no_evidence_either_way_is_english() -> None:
    assert detect_language("3M FY2018 capex") == "en"
