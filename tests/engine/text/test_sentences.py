import pytest

from engine.text.sentences import capitalised, ends_a_sentence, is_fragment, starts_mid_sentence


@pytest.mark.parametrize(
    "text",
    [
        # Cut at the end: no closing punctuation, a dangling word, an open bracket.
        "É considerada microgeração a central menor ou igual a 3 MW (três megawatts) para as…",
        "Adjusted operating income was $1,250 million ($35 million net of",
        "Accumulated depreciation of property and equipment as of December 31, 2018,",
        "The Company's total revenue increased to $42.9 billion, driven by",
        "As unidades consumidoras de que trata o art. 26 terão direito ao desconto de",
        "Revenue grew because of higher comparable sales in the",
        "O prazo de vigência dos créditos é de 60 meses e",
        "Net sales were $43.6 billion, compared to",
        "The guidance (excluding the impact of currency",
        "Operating income increased 10% net of",
        "A distribuidora deverá observar o disposto no art. 5º da",
        "Our revenue in fiscal 2023 was $46.3 billion...",
        # Cut at the start: a lowercase first letter, punctuation that continues something.
        "and operating income rose 5% in fiscal 2023.",
        "compared to $300 million in 2017, mainly due to lower rates.",
        "e o consumidor terá direito aos créditos por 60 meses.",
        ", which was recorded in cost of sales.",
        "; os créditos expiram em 60 meses.",
        "…the remaining balance was paid in 2019.",
        ") and was recognised in 2022.",
        "— mainly from the sale of the business.",
        "“and the balance was paid.”",
    ],
)
def test_sentences_cut_at_either_end_are_fragments(text: str) -> None:
    assert is_fragment(text)


@pytest.mark.parametrize(
    "text",
    [
        "Revenue was $43.6 billion in fiscal 2023.",
        "Os créditos de energia expiram em 60 (sessenta) meses após a data do faturamento.",
        "Did revenue grow? It did!",
        "He said “the plan works.”",
        "The result was positive (see Note 4).",
        "A receita cresceu 8%.",
        "The gain was recorded in other income [1].",
        "Revenue grew 8% in fiscal 2023. [1]",
        # A table row the extractive model builds, and a bare table line.
        "Revenue — February 2, 2019: $42,879; February 3, 2018: $42,151",
        "Operating income — 2023: 1,795; 2019: 1,900",
        "Operating Profit — 2022: 11,512; 2021: 11,162",
        "Gross profit 2,725 2,820 2,732",
        "Effective tax rate 22.9%",
        "Capital spending (4,625) (4,240)",
        # Legal list items, as statutes end them.
        "I - microgeração distribuída: central geradora com potência instalada até 75 kW;",
        "II - minigeração distribuída: central geradora com potência acima de 75 kW; e",
        "III - a unidade consumidora com geração local; ou",
        "Art. 1º Esta Lei institui o marco legal da microgeração e minigeração distribuída:",
        "a) as unidades consumidoras com microgeração;",
        "§ 1º O disposto neste artigo aplica-se às concessionárias;",
        "(i) the Company's obligations under the credit agreement; and",
        # Headings and labels.
        "CONSOLIDATED STATEMENTS OF EARNINGS",
        "Consolidated Statements of Cash Flows",
        "Dos Direitos e Garantias dos Usuários",
        "Capítulo II — Da Guarda de Registros",
        "Item 7. Management's Discussion and Analysis",
        # Names that start with a lowercase letter, and numbers that start a sentence.
        "iPhone sales rose 6% in 2022.",
        "eBay reported revenue of $10 billion.",
        "2022 was a record year for the Company.",
        "$406 million was spent on share repurchases in 2018.",
        "“Revenue grew,” the CEO said.",
        "(Revenue grew 8% in fiscal 2023.)",
    ],
)
def test_whole_sentences_rows_list_items_and_headings_are_not_fragments(text: str) -> None:
    assert not is_fragment(text)


def test_empty_text_is_a_fragment() -> None:
    assert is_fragment("")
    assert is_fragment("   ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("and revenue rose.", True),
        ("Revenue rose.", False),
        ("$406 million in 2018, compared to $300 million in 2017.", False),  # text cannot tell
        ("a) as unidades consumidoras;", False),
        ("ii. the Company's obligations;", False),
    ],
)
def test_a_start_mid_sentence_is_told_from_the_text_alone(text: str, expected: bool) -> None:
    assert starts_mid_sentence(text) is expected


@pytest.mark.parametrize(
    ("page_before", "expected"),
    [
        ("", True),
        ("Revenue rose. ", True),
        ("Results\n", True),
        ("Revenue:\n", True),
        ("1. Revenue\n\n", True),
        ("Interest expense was ", False),
        ("Net sales were $42.9 billion, ", False),
        ("the Company paid (", False),
        ("as unidades de ", False),
        ("accounts payable increased working capital by\n", False),
        ("the Minnesota NRD\n", False),
        ("Consolidated Statements of Earnings\n", True),
        ("Gross profit 2,725 2,820\n", True),
    ],
)
def test_the_page_before_a_unit_tells_whether_it_ends_a_sentence(
    page_before: str, expected: bool
) -> None:
    assert ends_a_sentence(page_before) is expected


def test_capitalised_raises_the_first_letter_only() -> None:
    assert capitalised("operating income of IBM") == "Operating income of IBM"
    assert capitalised("") == ""
