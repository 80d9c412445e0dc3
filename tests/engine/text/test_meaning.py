"""The meaning guard: negation, comparison and exception words of a statement agree with its
excerpt's (engine/text/meaning.py), in Portuguese and English, and benign restatements pass."""

from __future__ import annotations

import pytest

from engine.text.meaning import bound_problem, cut_exception, meaning_problem, polarity_problem

# --- polarity ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("statement", "excerpt", "said", "there"),
    [
        (
            "A taxa se aplica às microempresas optantes pelo Simples.",
            "A taxa de fiscalização não se aplica às microempresas optantes pelo Simples.",
            "se aplica",
            "não se aplica",
        ),
        (
            "A taxa não se aplica às microempresas optantes pelo Simples.",
            "A taxa de fiscalização se aplica às microempresas optantes pelo Simples.",
            "não se aplica",
            "se aplica",
        ),
        (
            "Os créditos podem ser transferidos a terceiros.",
            "Os créditos de energia não podem ser transferidos a terceiros.",
            "podem ser transferidos",
            "não podem ser transferidos",
        ),
        (
            "O benefício nunca é concedido a quem já recebe o auxílio.",
            "O benefício é concedido a quem já recebe o auxílio emergencial.",
            "nunca é concedido",
            "é concedido",
        ),
        (
            "The surcharge applies to small businesses.",
            "The surcharge does not apply to small businesses with fewer than ten staff.",
            "applies",
            "not apply",
        ),
        (
            "The company did not pay a dividend in the year.",
            "The company pays a dividend in each quarter of the year.",
            "not pay",
            "pays",
        ),
        (
            "There is a cap on the credits a household may carry.",
            "There is no cap on the credits a household may carry forward.",
            "is a cap",
            "no cap",
        ),
        (
            "The rule was never enforced in the northern states.",
            "The rule was enforced in the northern states from 2019.",
            "never enforced",
            "was enforced",
        ),
    ],
)
def test_a_negation_added_or_dropped_is_a_problem(
    statement: str, excerpt: str, said: str, there: str
) -> None:
    problem = polarity_problem(statement, excerpt)
    assert problem == f"the statement says '{said}' where the excerpt says '{there}'"


@pytest.mark.parametrize(
    ("statement", "excerpt"),
    [
        # the same polarity in other words
        ("É vedada a venda dos créditos.", "Não é permitida a venda dos créditos de energia."),
        ("Selling the credits is prohibited.", "The credits cannot be sold to third parties."),
        # a faithful restatement
        (
            "A taxa não se aplica às microempresas.",
            "A taxa de fiscalização não se aplica às microempresas optantes pelo Simples.",
        ),
        ("The fee does not apply to small firms.", "The fee shall not apply to small firms."),
        # a negated clause the statement leaves out
        (
            "Os créditos expiram em 60 meses.",
            "Os créditos expiram em 60 meses, não podendo ser transferidos.",
        ),
        # "no" is "in the" in Portuguese
        ("A usina opera no Nordeste.", "A usina opera no Nordeste desde 2019."),
        # a word the excerpt says both ways is not judged on it
        (
            "The fee applies to large firms.",
            "The fee applies to large firms; it does not apply to small ones.",
        ),
        # "not only" does not negate
        (
            "The plant not only produces power but also stores it.",
            "The plant produces power and stores it in batteries.",
        ),
        # an exception restated as a negation
        (
            "A taxa não é cobrada das microempresas.",
            "A taxa é cobrada de todos os contribuintes, exceto das microempresas.",
        ),
        ("Small firms do not pay the fee.", "All firms pay the fee unless they are small."),
    ],
)
def test_the_same_polarity_passes(statement: str, excerpt: str) -> None:
    assert polarity_problem(statement, excerpt) is None


# --- comparison -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("statement", "excerpt", "said", "there"),
    [
        (
            "A microgeração tem potência instalada maior que 75 kW.",
            "central geradora de energia elétrica, com potência instalada menor ou igual a 75 kW",
            "maior que",
            "menor ou igual a",
        ),
        (
            "O financiamento cobre acima de 80% do valor do sistema.",
            "O financiamento cobre até 80% do valor do sistema fotovoltaico residencial.",
            "acima de",
            "ate",
        ),
        (
            "A multa é de no mínimo 2% do faturamento.",
            "A multa é de no máximo 2% do faturamento da pessoa jurídica no Brasil.",
            "no minimo",
            "no maximo",
        ),
        (
            "The loan term is at least 5 years for residential systems.",
            "The loan term is at most 5 years for residential solar systems.",
            "at least",
            "at most",
        ),
        (
            "Grants cover more than 40% of the installation cost.",
            "Grants cover up to 40% of the installation cost of a rooftop system.",
            "more than",
            "up to",
        ),
        (
            "Households using 300 kWh or more pay the higher tariff.",
            "Households using 300 kWh or less a month pay the social tariff.",
            "or more",
            "or less",
        ),
        (
            "O prazo é inferior a 30 dias.",
            "O prazo de resposta não poderá ser superior a 30 dias corridos.",
            "inferior a",
            "superior a",
        ),
    ],
)
def test_a_bound_turned_around_is_a_problem(
    statement: str, excerpt: str, said: str, there: str
) -> None:
    problem = bound_problem(statement, excerpt)
    assert problem == (
        f"the statement says '{said}' where the excerpt says '{there}' of the same figure"
    )


@pytest.mark.parametrize(
    ("statement", "excerpt"),
    [
        ("A sociedade deve ter no mínimo 3 sócios.", "A sociedade deve ter pelo menos 3 sócios."),
        ("A microgeração vai até 75 kW.", "potência instalada menor ou igual a 75 kW"),
        ("The term is at least 5 years.", "The term shall be no less than 5 years."),
        ("Grants cover up to 40% of the cost.", "Grants cover at most 40% of the cost."),
        ("A potência é acima de 75 kW.", "potência instalada superior a 75 kW e até 5 MW"),
        # a bound only one side states is not this rule's to judge
        ("A potência instalada é de 75 kW.", "potência instalada menor ou igual a 75 kW"),
    ],
)
def test_bounds_of_one_direction_pass(statement: str, excerpt: str) -> None:
    assert bound_problem(statement, excerpt) is None


# --- exception --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "excerpt", "exception"),
    [
        (
            "Art. 3º A taxa incide sobre todos os contribuintes do município, exceto as "
            "microempresas do Simples Nacional. Art. 4º ...",
            "A taxa incide sobre todos os contribuintes do município",
            "exceto as microempresas do Simples Nacional",
        ),
        (
            "Os créditos valem por 60 meses salvo disposição em contrário do contrato.",
            "Os créditos valem por 60 meses",
            "salvo disposição em contrário do contrato",
        ),
        (
            "O desconto é de 20% sobre a tarifa, ressalvados os consumidores de baixa renda; "
            "o restante paga tarifa cheia.",
            "O desconto é de 20% sobre a tarifa",
            "ressalvados os consumidores de baixa renda",
        ),
        (
            "The permit is valid for 10 years unless revoked by the agency.",
            "The permit is valid for 10 years",
            "unless revoked by the agency",
        ),
        (
            "All employees are eligible for the bonus of 5% except those hired after June.\n",
            "All employees are eligible for the bonus of 5%",
            "except those hired after June",
        ),
    ],
)
def test_an_excerpt_cut_before_its_exception_is_told(
    page: str, excerpt: str, exception: str
) -> None:
    assert cut_exception(page, page.index(excerpt) + len(excerpt)) == exception


@pytest.mark.parametrize(
    ("page", "excerpt"),
    [
        # the exception is quoted
        (
            "A taxa incide sobre todos, exceto as microempresas. Fim.",
            "A taxa incide sobre todos, exceto as microempresas",
        ),
        # the exception is in the next sentence, not the excerpt's
        (
            "A taxa incide sobre todos os contribuintes. Exceto no caso de isenção, paga-se.",
            "A taxa incide sobre todos os contribuintes",
        ),
        # nothing follows
        ("The permit is valid for 10 years.", "The permit is valid for 10 years"),
    ],
)
def test_an_excerpt_with_its_whole_sentence_has_no_cut_exception(page: str, excerpt: str) -> None:
    assert cut_exception(page, page.index(excerpt) + len(excerpt)) is None


def test_a_long_exception_is_quoted_short() -> None:
    page = "Vale para todos, exceto " + "os casos previstos em regulamento " * 10 + "."
    exception = cut_exception(page, len("Vale para todos"))
    assert exception is not None
    assert exception.endswith("…")
    assert len(exception) <= 161


def test_meaning_problem_says_the_first_disagreement() -> None:
    assert meaning_problem("A taxa se aplica.", "A taxa não se aplica.") is not None
    assert meaning_problem("A taxa não se aplica.", "A taxa não se aplica.") is None
