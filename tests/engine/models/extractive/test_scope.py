import pytest

from engine.models.extractive.scope import (
    SCOPE_FLOOR,
    named_words,
    off_entity_titles,
    scope_factors,
)
from engine.text.tokens import tokenize


def test_a_title_names_the_words_it_holds_alone_or_glued() -> None:
    tokens = tokenize("Did American Express retain card members in 2022?")
    assert named_words(tokens, "AMERICANEXPRESS_2022_10K") == {"american", "express", "2022"}
    assert named_words(tokens, "BOEING_2022_10K") == {"2022"}


def test_the_filing_of_the_period_asked_beats_the_same_companys_other_filing() -> None:
    factors = scope_factors(
        "Is 3M a capital-intensive business based on FY2022 data?",
        ["3M_2022_10K", "3M_2018_10K", "3M_2022_10K"],
    )
    assert factors["3M_2022_10K"] == 1.0
    assert factors["3M_2018_10K"] == SCOPE_FLOOR + (1 - SCOPE_FLOOR) / 2


def test_another_companys_filing_of_that_year_is_a_lesser_match() -> None:
    factors = scope_factors(
        "Does American Express have an improving operating margin as of 2022?",
        ["AMERICANEXPRESS_2022_10K", "BOEING_2022_10K"],
    )
    assert factors["BOEING_2022_10K"] < factors["AMERICANEXPRESS_2022_10K"] == 1.0


def test_documents_naming_different_things_do_not_compete() -> None:
    factors = scope_factors(
        "Are Christopher Nolan and Sathish Kalathil both film directors?",
        ["Christopher Nolan", "Sathish Kalathil", "Film director"],
    )
    assert factors == {"Christopher Nolan": 1.0, "Sathish Kalathil": 1.0, "Film director": 1.0}


def test_a_page_the_question_does_not_name_is_not_discounted() -> None:
    factors = scope_factors(
        "What position was held by the actress who played Corliss Archer?",
        ["Kiss and Tell (1945 film)", "Shirley Temple", "Corliss Archer"],
    )
    assert factors["Shirley Temple"] == 1.0
    assert factors["Corliss Archer"] == 1.0


def test_no_title_naming_anything_leaves_every_factor_at_one() -> None:
    assert scope_factors("Quais são os limites da microgeração?", ["LEI Nº 14.300"]) == {
        "LEI Nº 14.300": 1.0
    }


def test_a_document_about_another_entity_of_the_same_period_is_off_entity() -> None:
    question = "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"
    titles = ["3M_2018_10K", "BOEING_2018_10K", "3M_2022_10K", "AMAZON_2017_10K"]
    # Boeing's 2018 filing names the period, Amazon's nothing: both are filings about others.
    assert off_entity_titles(question, titles) == {"BOEING_2018_10K", "AMAZON_2017_10K"}


def test_another_companys_filing_of_another_kind_is_off_entity_too() -> None:
    question = "What is the FY2022 unadjusted EBITDA less capex for PepsiCo?"
    titles = ["PEPSICO_2022_10K", "BESTBUY_2024Q2_10Q", "Depreciation"]
    # A 10-Q of Best Buy is not PepsiCo's; a page of no filing kind may be a second hop.
    assert off_entity_titles(question, titles) == {"BESTBUY_2024Q2_10Q"}


@pytest.mark.parametrize(
    ("question", "titles"),
    [
        # Two people asked about: each page is about one of them.
        (
            "Are Christopher Nolan and Sathish Kalathil both film directors?",
            ["Christopher Nolan", "Sathish Kalathil", "Film director"],
        ),
        # A second-hop page names nothing of the question: it is not off entity.
        (
            "Who directed the film shot in Leland, North Carolina in 1986?",
            ["Leland, North Carolina", "Maximum Overdrive"],
        ),
        # No title names whom the question is about: nothing to exclude by.
        ("What was the 2018 revenue?", ["BOEING_2018_10K", "3M_2018_10K"]),
    ],
)
def test_no_document_is_excluded_without_a_named_rival(question: str, titles: list[str]) -> None:
    assert off_entity_titles(question, titles) == set()
