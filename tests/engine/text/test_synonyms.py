from engine.text.synonyms import (
    SYNONYMS,
    expand_query_tokens,
    expansions_for,
)
from engine.text.tokens import tokenize


def test_a_trigger_phrase_adds_the_printed_synonyms() -> None:
    tokens = tokenize("FY2018 capital expenditure for 3M")
    expanded = expand_query_tokens(tokens)
    assert expanded[: len(tokens)] == tokens
    assert {"purchase", "property", "plant", "equipment"} <= set(expanded[len(tokens) :])


def test_trigger_words_apart_do_not_expand() -> None:
    tokens = tokenize("capital structure and expenditure")
    assert expand_query_tokens(tokens) == tokens


def test_single_word_trigger_and_portuguese_entry() -> None:
    assert "sale" in expand_query_tokens(tokenize("total revenue"))
    assert "receita" in expand_query_tokens(tokenize("faturamento da empresa"))


def test_every_entry_has_usable_triggers_and_synonyms() -> None:
    for triggers, printed in SYNONYMS:
        assert all(tokenize(trigger) for trigger in triggers)
        assert all(tokenize(phrase) for phrase in printed)


def test_a_duration_question_in_portuguese_searches_for_periods() -> None:
    expanded = expand_query_tokens(tokenize("Por quanto tempo valem os créditos?"))
    assert {"prazo", "ano"} <= set(expanded)


def test_expansions_pair_the_asked_phrase_with_each_printed_phrase() -> None:
    pairs = expansions_for("What is the FY2018 capital expenditure for 3M?")
    assert ("capital expenditure", "purchases of property plant and equipment") in pairs
    assert expansions_for("Quem preside a agência?") == []


def test_a_legal_battle_is_searched_as_the_filings_legal_proceedings() -> None:
    pairs = expansions_for("Has Boeing reported any ongoing legal battles?")
    assert ("legal battles", "legal proceedings") in pairs


def test_a_ratio_is_searched_by_the_line_items_it_is_computed_from() -> None:
    tokens = tokenize("Has Verizon's quick ratio improved in FY2022?")
    extra = set(expand_query_tokens(tokens)[len(tokens) :])
    assert {"current", "asset", "liability", "cash", "receivable"} <= extra
    # Line items are where to look, not what the question asks: relevance does not use them.
    assert expansions_for("Has Verizon's quick ratio improved in FY2022?") == []


def test_a_statement_named_by_its_usual_name_is_searched_by_its_printed_heading() -> None:
    tokens = tokenize("Using the balance sheet, what is the working capital?")
    assert {"consolidated", "total", "asset"} <= set(expand_query_tokens(tokens))
