from engine.sources.library.query import search_terms


def test_question_scaffolding_is_not_searched() -> None:
    terms = search_terms(
        "What is the FY2018 capex amount (in USD millions) for 3M? Give a response to the "
        "question by relying on the details shown in the cash flow statement."
    )
    assert terms.words == [
        "fy2018",
        "2018",
        "capex",
        "million",
        "3m",
        "cash",
        "flow",
        "statement",
    ]
    assert terms.expanded[: len(terms.words)] == terms.words
    assert "purchase" in terms.expanded[len(terms.words) :]


def test_query_of_only_stopwords_has_no_words() -> None:
    assert search_terms("  What is the?  ").words == []


def test_the_instruction_to_explain_an_unfit_metric_is_not_searched() -> None:
    terms = search_terms(
        "Does AMCOR have an improving gross margin profile as of FY2023? If gross margin is "
        "not a useful metric for a company like this, then state that and explain why."
    )
    assert not {"useful", "like", "explain"} & set(terms.words)
    assert {"amcor", "gross", "margin", "2023"} <= set(terms.words)
