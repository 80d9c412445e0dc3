import re

import pytest

from engine.text.questions import (
    AUXILIARIES_EN,
    INTERROGATIVES_EN,
    INTERROGATIVES_PT,
    LONG_INTERROGATIVES_PT,
    asks_quantity,
    asks_rules,
    words_alternation,
)


def test_the_interrogatives_of_both_languages() -> None:
    assert {"what", "which", "how", "who", "when", "where", "why"} == set(INTERROGATIVES_EN)
    assert {"qual", "quais", "quanto", "quando", "como", "o que"} <= set(INTERROGATIVES_PT)
    assert {"por que", "até quando"} <= set(LONG_INTERROGATIVES_PT)
    assert "is" in AUXILIARIES_EN


def test_an_alternation_matches_whole_words_of_the_groups_it_is_given() -> None:
    pattern = re.compile(rf"^{words_alternation(INTERROGATIVES_PT, LONG_INTERROGATIVES_PT)}\b")
    assert pattern.match("até quando vale")
    assert pattern.match("o que é")
    assert pattern.match("quantas usinas")
    assert not pattern.match("what is")
    assert not pattern.match("quantidade")  # "quanto" is no prefix of another word


def test_an_alternation_escapes_and_tries_the_longest_word_first() -> None:
    assert words_alternation(("a", "a.b", "ab")) == r"(?:a\.b|ab|a)"


@pytest.mark.parametrize(
    "question",
    [
        "Quanto a Petrobras investiu em 2022?",
        "Qual o valor da multa?",
        "Até quando vale a regra?",
        "Qual é o prazo de adesão?",
        "How much did 3M spend on capex in FY2022?",
        "How many employees did Boeing have?",
        "What was the amount of dividends paid?",
        "When does the rule apply?",
        "What is the effective tax rate?",
    ],
)
def test_a_question_for_a_quantity_or_a_date(question: str) -> None:
    assert asks_quantity(question)


@pytest.mark.parametrize(
    "question",
    [
        "Quem preside a ANEEL?",
        "Which segment had the most revenue?",
        "What is the company's strategy?",
        "O que diz a lei sobre geração distribuída?",
        "Does Amcor have a quantitative model?",  # "quantitative" is no quantity word
    ],
)
def test_not_a_question_for_a_quantity(question: str) -> None:
    assert not asks_quantity(question)


@pytest.mark.parametrize(
    ("question", "rules"),
    [
        ("Quais são as regras da micro e minigeração distribuída na Lei 14.300?", True),
        ("O que a Lei 12.965 estabelece sobre a neutralidade de rede?", True),
        ("What are the rules of Brazil's drone registry law?", True),
        ("What does the law say about data retention in Brazil?", True),
        # One provision asked, not the law's rules as a whole.
        ("Por quanto tempo valem os créditos de energia?", False),
        ("Qual o prazo de guarda dos registros de conexão?", False),
        # A filing's "provisions" and "rules" are no law's.
        ("What are the provisions for income taxes of 3M in FY2022?", False),
        ("What accounting rules changed for Boeing in 2022?", False),
    ],
)
def test_a_question_for_a_laws_rules_as_a_whole(question: str, rules: bool) -> None:
    assert asks_rules(question) is rules
