from engine.models.offline.scope import SCOPE_FLOOR, named_words, scope_factors
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
