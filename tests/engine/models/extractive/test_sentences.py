from engine.models.extractive.sentences import (
    Window,
    block_spans,
    clause_window,
    clean_statement,
    sentence_spans,
    statement_of,
)
from engine.text.sentences import is_fragment
from engine.text.spans import Span


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


def test_a_short_whole_unit_is_quoted_as_it_is() -> None:
    page = "Revenue was $43.6 billion in fiscal 2023."
    unit = Span(0, len(page))
    assert clause_window(page, unit, lambda text: 0.0) == Window(unit)


def test_a_long_unit_is_quoted_from_its_start_to_a_clause_boundary() -> None:
    page = (
        "A receita da companhia cresceu no exercício, impulsionada pelas vendas de energia "
        "solar, "
        + ", ".join(f"pelo segmento número {i} com limite de 75 kW" for i in range(20))
        + " e pelo restante."
    )
    unit = Span(0, len(page))
    window = clause_window(page, unit, lambda text: float("75 kW" in text))
    assert window is not None
    assert window.lead is None
    excerpt = window.span.text(page)
    assert window.span.start == 0
    assert page[window.span.end - 1] == ","
    assert "75 kW" in excerpt
    assert len(excerpt) <= 380


def test_a_clause_deep_in_a_labelled_item_is_quoted_under_its_label() -> None:
    page = (
        "II - minigeração distribuída: central geradora de energia elétrica renovável, "
        + ", ".join(f"conectada por meio da instalação número {i}" for i in range(12))
        + ", menor ou igual a 3 MW (três megawatts) para as fontes não despacháveis, "
        "conforme regulamentação da Aneel;"
    )
    unit = Span(0, len(page))
    window = clause_window(page, unit, lambda text: float("3 MW" in text))
    assert window is not None
    assert window.lead is not None
    assert window.lead.text(page) == "II - minigeração distribuída:"
    excerpt = window.span.text(page)
    assert "menor ou igual a 3 MW (três megawatts) para as fontes não despacháveis" in excerpt
    assert excerpt.count("(") == excerpt.count(")")


def test_a_unit_cut_off_by_its_page_is_quoted_to_its_last_clause() -> None:
    page = (
        "Our operating income rate decreased in fiscal 2023, primarily driven by the "
        "unfavorable gross profit rate described above and decreased leverage from lower"
    )
    window = clause_window(page, Span(0, len(page)), lambda text: 1.0)
    assert window is not None
    assert window.span.text(page) == "Our operating income rate decreased in fiscal 2023,"
    assert window.cut_at_end(Span(0, len(page)))


def test_a_unit_with_no_clause_to_end_on_is_not_quoted() -> None:
    page = "Operating income rose because of lower costs of the"
    assert clause_window(page, Span(0, len(page)), lambda text: 1.0) is None


def test_wrapped_lines_of_a_paragraph_are_one_unit() -> None:
    page = (
        "The combination of accounts receivable, inventories and accounts payable increased "
        "working capital by\n$406 million in 2018, compared to the working capital increases "
        "of $608 million in 2017. Additional discussion on working capital changes is provided"
        "\nearlier in the section.\nLiquidity and Capital Resources\nWe ended the year with cash."
    )
    units = texts(page)
    assert units[0].startswith("The combination of")
    assert units[0].endswith("in 2017.")
    assert "\n$406 million" in units[0]
    assert units[1].endswith("earlier in the section.")
    assert units[2:] == ["Liquidity and Capital Resources", "We ended the year with cash."]
    assert not any(is_fragment(clean_statement(unit)) for unit in units)


def test_table_rows_headings_and_list_items_stay_lines_of_their_own() -> None:
    page = (
        "Consolidated Statements of Earnings\n"
        "(in millions, except per share amounts)\n"
        "2023 2022 2021\n"
        "Revenue 46,298 51,761 47,262\n"
        "Operating income 1,795 3,039 2,391\n"
        "I - microgeração distribuída: central geradora com potência até 75 kW\n"
        "II - minigeração distribuída: central geradora com potência acima de 75 kW\n"
        "| Receita | 1.200 |\n| Lucro | 300 |"
    )
    lines = [span.text(page) for span in block_spans(page)]
    assert lines == page.split("\n")


def test_an_article_number_does_not_end_a_sentence() -> None:
    page = "Art 26. As disposições do art. 17 não se aplicam até 31 de dezembro de 2045."
    assert texts(page) == [page]


def test_a_caput_cut_by_an_exam_annotation_on_a_line_of_its_own_is_one_unit() -> None:
    page = (
        "Art. 2º Os drones de uso agrícola ficam sujeitos\n"
        "**(CESPE-2020) (Cartórios/TJPA-2016)**\n"
        "às regras de transição desta Lei até 31 de dezembro de 2035.\n"
        "\n"
        "Parágrafo único. A Anac regulamentará o disposto no caput deste artigo."
    )
    units = [span.text(page) for span in sentence_spans(page)]
    assert units[0].startswith("Art. 2º Os drones")
    assert units[0].endswith("até 31 de dezembro de 2035.")
    assert units[1].endswith("o disposto no caput deste artigo.")  # the paragraph: its own


def test_a_statement_leaves_out_the_exam_annotations_its_excerpt_carries() -> None:
    page = "Art. 9º Os registros de conexão **(MPF-2017)** serão guardados por 1 (um) ano. **(TRF4-2022)**"
    span = sentence_spans(page)[0]
    window = clause_window(page, span, lambda _: 1.0)
    assert window == Window(span)  # a trailing annotation does not leave the sentence open
    statement = statement_of(window.span.text(page), span, window, page)
    assert statement == "Art. 9º Os registros de conexão serão guardados por 1 (um) ano."


def test_a_long_unit_is_never_quoted_to_a_colon_that_announces_what_it_leaves_out() -> None:
    """The lead-in of a list ("…, were filed against CVS Health, Aetna, and…:") read as the
    finding, its items cut away (published once on FinanceBench; a label line to a reader)."""
    lead_in = (
        "In August and September 2020, two class actions under the Employee Retirement "
        "Income Security Act of 1974 were filed in the U.S. District Court against the "
        "Company and several current and former executives and directors of its "
        "subsidiary:"
    )
    items = " " + "; ".join(
        f"the plaintiffs in action number {i} allege breaches of fiduciary duty" for i in range(9)
    )
    for page in (lead_in + items + ".", "Em 2021 a companhia foi citada em ações: " + items):
        # Whatever the ranking's score (here: one for the lead-in alone, the worst case).
        window = clause_window(page, Span(0, len(page)), lambda text: float(text.endswith(":")))
        quoted = window.span.text(page) if window is not None else ""
        assert not quoted.rstrip().endswith(":"), quoted
