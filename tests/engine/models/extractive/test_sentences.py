from engine.models.extractive.sentences import Span, best_window, clean_statement, sentence_spans


def texts(page: str) -> list[str]:
    return [span.text(page) for span in sentence_spans(page)]


def test_units_are_exact_substrings_split_on_lines_sentences_and_legal_items() -> None:
    page = (
        "Art. 1º Esta Lei institui o marco legal da microgeração distribuída. O prazo é de 60 meses.\n"
        "I - microgeração: potência menor ou igual a 75 kW; II - minigeração: potência maior que 75 kW;\n"
        "short\n"
    )
    units = texts(page)
    assert units == [
        "Art. 1º Esta Lei institui o marco legal da microgeração distribuída.",
        "O prazo é de 60 meses.",
        "I - microgeração: potência menor ou igual a 75 kW;",
        "II - minigeração: potência maior que 75 kW;",
    ]
    assert all(unit in page for unit in units)


def test_abbreviations_do_not_end_sentences() -> None:
    page = "Conforme o art. 26 desta Lei, os créditos valem 60 meses. See U.S. filings for more detail here."
    assert texts(page)[0] == "Conforme o art. 26 desta Lei, os créditos valem 60 meses."


def test_markdown_and_table_markup_is_trimmed_from_units_and_statements() -> None:
    page = "| **Receita** líquida | 1.200 milhões em 2023 |\n## Título curto"
    (unit,) = texts(page)
    assert unit == "**Receita** líquida | 1.200 milhões em 2023"
    assert clean_statement(unit) == "Receita líquida 1.200 milhões em 2023"


def test_best_window_keeps_short_units_and_narrows_long_ones_to_the_best_terms() -> None:
    page = (
        " ".join(["palavra"] * 80)
        + " o limite é de 75 kW para microgeração "
        + " ".join(["fim"] * 60)
    )
    whole = Span(0, len(page))
    window = best_window(page, whole, lambda text: float("75" in text and "microgeração" in text))
    excerpt = window.text(page)
    assert len(excerpt) <= 380
    assert "75 kW para microgeração" in excerpt
    assert page[window.start : window.end] == excerpt
    short = Span(0, 20)
    assert best_window(page, short, lambda text: 0.0) == short


def test_an_article_number_does_not_end_a_sentence() -> None:
    page = "Art 26. As disposições do art. 17 não se aplicam até 31 de dezembro de 2045."
    assert texts(page) == [page]
