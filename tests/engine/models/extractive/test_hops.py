import pytest

from engine.models.extractive.hops import hop_names, names_in, names_the_page

LELAND = (
    'A number of movies, such as "Maximum Overdrive" (1986), "Domestic Disturbance" (2001), '
    'and "We\'re the Millers" (2013) have been shot in or around Leland.'
)


def test_quoted_titles_and_capitalised_runs_are_names() -> None:
    assert names_in(LELAND)[:2] == ["Maximum Overdrive", "Domestic Disturbance"]
    assert names_in("The hand of Carl Philipp Emanuel Bach, son of Johann Sebastian Bach.") == [
        "Carl Philipp Emanuel Bach",
        "Johann Sebastian Bach",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)",
        "The company audited its books as of February 2, 2019.",
        "Art. 1º Para fins e efeitos desta Lei, são adotadas as seguintes definições:",
    ],
)
def test_table_rows_dates_and_sentence_openings_are_not_names(text: str) -> None:
    assert [n for n in names_in(text) if " " in n] == []


def test_a_bridge_is_a_name_the_quote_gives_and_the_question_does_not() -> None:
    question = "Who directed the film that was shot in or around Leland, North Carolina in 1986"
    assert hop_names(question, [LELAND], ["Leland, North Carolina"]) == [
        "Maximum Overdrive",
        "Domestic Disturbance",
    ]


def test_a_comparison_looks_up_the_side_no_quoted_page_is_about() -> None:
    question = "Which plant is larger, the Pterocarya or the Cotula?"
    quote = "Pterocarya is a genus of six species of deciduous trees, commonly known as wingnuts."
    assert hop_names(question, [quote], ["Pterocarya"]) == ["Cotula"]


def test_a_question_about_one_thing_already_searched_takes_no_hop() -> None:
    question = "What is the FY2019 amount of inventories for Best Buy?"
    quote = "We have audited the consolidated balance sheets of Best Buy as of February 2, 2019."
    assert hop_names(question, [quote], ["BESTBUY_2019_10K"]) == []


def test_a_page_is_about_a_name_when_its_title_holds_every_word() -> None:
    assert names_the_page("Maximum Overdrive", "Maximum Overdrive")
    assert names_the_page("Carl Philipp Emanuel Bach", "Carl Philipp Emanuel Bach")
    assert not names_the_page("Maximum Overdrive", "Overdrive (band)")


def test_a_possessive_is_not_part_of_the_name() -> None:
    quote = "Elections were held on 31 July 2000, following Ezer Weizman's resignation."
    assert "Ezer Weizman" in names_in(quote)


def test_a_caption_of_the_documents_read_is_their_structure_not_a_bridge() -> None:
    from engine.models.extractive.hops import is_heading

    filings = {"3M_2018_10K": ["Consolidated Statement of Cash Flows\n(Millions) 2018 2017"]}
    assert is_heading("Consolidated Statement of Cash Flows", filings)
    assert not is_heading("Maximum Overdrive", {"Leland, North Carolina": [LELAND]})
    # The page about the name may show it as its heading: that is no reason to skip it.
    assert not is_heading(
        "Maximum Overdrive", {"Maximum Overdrive": ["Maximum Overdrive\nA film."]}
    )


def test_a_part_of_the_document_read_is_not_a_name_to_look_up() -> None:
    text = "Conforme o Art 26 desta Lei e a Note 12, aplica-se o Section 7 do Anexo II."
    assert names_in(text) == []


def test_a_leading_article_is_not_part_of_the_name() -> None:
    assert names_in("Os recursos da CDE custeiam, e a CDE Conta Nacional paga.") == [
        "CDE Conta Nacional"
    ]
    assert "Dark Knight" in names_in("It was filmed as The Dark Knight in Chicago.")


def test_a_numbered_name_keeps_the_whole_number() -> None:
    assert names_in("Os prazos da Lei 12.965 e do Decreto 9.412/2018 valem.") == [
        "Lei 12.965",
        "Decreto 9.412/2018",
    ]
