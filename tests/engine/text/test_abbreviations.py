import pytest

from engine.text.abbreviations import abbreviated_words, short_names
from engine.text.tokens import tokenize


def test_acronyms_and_nicknames_are_short_names() -> None:
    assert short_names("Does AMEX have an improving margin? Are JnJ's FY2022 results good?") == [
        "amex",
        "jnj",
    ]
    assert short_names("Which region had the highest EBITDAR for MGM during FY2022?") == [
        "ebitdar",
        "mgm",
    ]
    assert short_names("The company grew in 2022.") == []


@pytest.mark.parametrize(
    ("name", "title", "words"),
    [
        ("jnj", "JOHNSON_JOHNSON_2022_10K", {"johnson"}),
        ("amex", "AMERICANEXPRESS_2022_10K", {"americanexpress"}),
        ("mgm", "MGMRESORTS_2022Q4_EARNINGS", {"mgmresort"}),
        ("mgm", "BOEING_2022_10K", set()),
        ("ebitdar", "MGMRESORTS_2022_10K", set()),
        ("usd", "PEPSICO_2022_10K", set()),
    ],
)
def test_a_short_name_stands_for_the_title_words_it_abbreviates(
    name: str, title: str, words: set[str]
) -> None:
    assert abbreviated_words(name, tokenize(title)) == words
