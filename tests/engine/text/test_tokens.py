from engine.text.tokens import STOPWORDS, fold_accents, fold_plural, term_set, tokenize


def test_accents_and_case_are_folded() -> None:
    assert fold_accents("Geração DISTRIBUÍDA") == "geracao distribuida"
    assert tokenize("geração") == tokenize("GERACAO") == ["geracao"]


def test_splits_on_non_alphanumerics() -> None:
    assert tokenize("solar/wind—hydro_power") == ["solar", "wind", "hydro", "power"]


def test_numbers_are_tokens() -> None:
    assert tokenize("75 kW in 2018") == ["75", "kw", "2018"]


def test_grouped_numbers_have_one_spelling_in_both_languages() -> None:
    assert tokenize("1,577") == tokenize("1.577") == tokenize("1577") == ["1577"]
    assert tokenize("Lei 14.300") == ["lei", "14300"]
    assert tokenize("3,5 MW") == tokenize("3.5 MW") == ["3.5", "mw"]
    assert tokenize("1.234,56") == tokenize("1,234.56") == ["1234.56"]


def test_sentence_final_dot_does_not_join_numbers() -> None:
    assert tokenize("grew in 2018. Then") == ["grew", "2018"]


def test_english_and_portuguese_stopwords_are_dropped() -> None:
    assert tokenize("What is the capacity of the plant?") == ["capacity", "plant"]
    assert tokenize("Quais são os limites da potência?") == ["limite", "potencia"]
    assert {"the", "and", "de", "que", "sao", "nao"} <= STOPWORDS


def test_single_letters_are_dropped_but_single_digits_kept() -> None:
    assert tokenize("item a 5 b") == ["item", "5"]


def test_plurals_match_singulars_in_english() -> None:
    assert tokenize("limits sales companies") == tokenize("limit sale company")


def test_plurals_match_singulars_in_portuguese() -> None:
    assert tokenize("gerações nacionais níveis limites") == tokenize(
        "geração nacional nível limite"
    )


def test_short_and_non_plural_words_are_left_alone() -> None:
    assert fold_plural("gas") == "gas"
    assert fold_plural("business") == "business"
    assert fold_plural("status") == "status"
    assert fold_plural("analysis") == "analysis"
    assert fold_plural("2018s") == "2018s"


def test_mixed_letter_digit_words_also_yield_their_parts() -> None:
    assert tokenize("FY2018") == ["fy2018", "fy", "2018"]
    assert tokenize("3M") == ["3m"]
    assert tokenize("10-K") == ["10"]


def test_same_text_always_gives_same_tokens() -> None:
    text = "Microgeração distribuída: até 75 kW (setenta e cinco quilowatts)."
    assert tokenize(text) == tokenize(text)
    assert tokenize(text) == [
        "microgeracao",
        "distribuida",
        "75",
        "kw",
        "setenta",
        "cinco",
        "quilowatt",
    ]


def test_term_sets_meet_across_accents_case_and_plural() -> None:
    assert term_set("geração distribuída") == term_set("GERACAO DISTRIBUIDA")
    assert term_set("limites de potência") == term_set("limite potencia")
    assert term_set("As Gerações de Energia") == term_set("geração energia")
