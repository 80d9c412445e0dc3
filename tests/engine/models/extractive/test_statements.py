import pytest

from engine.models.extractive.statements import (
    PRINTED_ON,
    asked_statements,
    column_headers,
    is_column_header,
    is_table_row,
    page_statement,
    row_by_period,
    statement_alternatives,
    statement_marker,
    statement_pages,
    statements_printing,
)
from engine.text.tokens import tokenize

CASH_FLOW_PAGE = """Table of Contents
3M Company and Subsidiaries
Consolidated Statement of Cash Flows
Years ended December 31
(Millions) 2018 2017 2016
Net income including noncontrolling interest $ 5,363 $ 4,869 $ 5,058
Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)
"""


def test_the_caption_under_the_table_of_contents_names_the_statement() -> None:
    assert page_statement(CASH_FLOW_PAGE) == "cash_flow_statement"
    assert page_statement("Index\nConsolidated Balance Sheets Corning Inc\n") == "balance_sheet"
    income = "Amcor plc and Subsidiaries\nConsolidated Statements of Income\n"
    assert page_statement(income) == "income_statement"
    assert page_statement("CONSOLIDATED STATEMENTS OF OPERATIONS\n") == "income_statement"


@pytest.mark.parametrize(
    "page",
    [
        "Consolidated Statements of Comprehensive Income\nNet income 10 20\n",
        "Notes to Consolidated Financial Statements\nThe balance sheet is ...\n",
        "Report of Independent Registered Public Accounting Firm\n"
        "We have audited the accompanying consolidated balance sheets\n",
        "Item 7. Management's Discussion\nRevenue grew in 2022.\n",
    ],
)
def test_pages_that_are_not_a_primary_statement_have_none(page: str) -> None:
    assert page_statement(page) is None


def test_a_caption_far_down_the_page_is_a_mention_not_a_caption() -> None:
    lines = [f"Line {n} of the discussion" for n in range(12)]
    assert page_statement("\n".join([*lines, "Consolidated Balance Sheets"])) is None


@pytest.mark.parametrize(
    "line",
    [
        "(Millions) 2018 2017 2016",
        "February 2, 2019 February 3, 2018",
        "For the years ended June 30, 2023 2022 2021",
        "2021 2020 2019",
        "Three Months Ended July 29, 2023 July 30, 2022",
    ],
)
def test_column_headers(line: str) -> None:
    assert is_column_header(line)
    assert not is_table_row(line)


@pytest.mark.parametrize(
    "line",
    [
        "In 2021 and 2022, sales rose.",
        "Net sales 14,694 14,544 12,861",
        "The 2023 plan replaced the 2019 plan",
    ],
)
def test_not_column_headers(line: str) -> None:
    assert not is_column_header(line)


@pytest.mark.parametrize(
    "line",
    [
        "Gross profit 2,725 2,820 2,732",
        "Capital spending (4,625) (4,240) (4,232)",
        "Effective tax rate 22.9% 20.2% 17.5%",
        "Net income $ 7,679 $ 7,175 $ 7,353",
        "Short-term investments — 2,032",
        "Merchandise inventories 5,409",
    ],
)
def test_table_rows(line: str) -> None:
    assert is_table_row(line)


@pytest.mark.parametrize(
    "line",
    [
        "We had capital expenditures of $1.5 billion in 2018.",
        "In 2021 and 2022, sales rose.",
        "Total current assets",
        "2,725 2,820",
        "The following table shows the results of our five segments for the year ended 2022",
    ],
)
def test_prose_and_labels_are_not_rows(line: str) -> None:
    assert not is_table_row(line)


def test_column_headers_are_found_with_their_spans() -> None:
    found = list(column_headers(CASH_FLOW_PAGE))
    assert len(found) == 1
    line, years = found[0]
    assert line.text(CASH_FLOW_PAGE) == "(Millions) 2018 2017 2016"
    assert years == {"2018", "2017", "2016"}


def test_a_question_asks_for_the_statements_it_names_then_those_printing_its_figures() -> None:
    assert asked_statements("What is the inventory? (balance sheet)") == ["balance_sheet"]
    assert asked_statements("FY2018 capital expenditure for 3M") == ["cash_flow_statement"]
    assert asked_statements("Does AMCOR have an improving gross margin?") == ["income_statement"]
    assert asked_statements("Inventory turnover, using the statement of cash flows") == [
        "cash_flow_statement",
        "balance_sheet",
        "income_statement",
    ]
    assert asked_statements("Who are the primary customers of Boeing?") == []


def test_statement_pages_are_numbered_from_one() -> None:
    pages = ["Cover page", CASH_FLOW_PAGE, "Consolidated Balance Sheets\nAssets 1 2"]
    assert statement_pages(pages) == {"cash_flow_statement": [2], "balance_sheet": [3]}


def test_a_named_statement_is_matched_by_its_marker() -> None:
    pairs = statement_alternatives("… relying on the statement of cash flows")
    marker = frozenset({statement_marker("cash_flow_statement")})
    assert pairs == ((frozenset({"statement", "cash", "flow"}), marker),)


def test_a_caption_broken_over_lines_or_spaced_with_nbsp_is_found() -> None:
    broken = "MGM\nRESORTS\nINTERNATIONAL\nCONSOLIDATED\nBALANCE\nSHEETS\n(In thousands)\n"
    assert page_statement(broken) == "balance_sheet"
    assert page_statement("Consolidated\xa0Statements\xa0of\xa0Operations\n") == "income_statement"


def test_a_table_of_contents_naming_several_statements_is_none() -> None:
    index = "Index\nConsolidated Statements of Income 48\nConsolidated Balance Sheets 50\n"
    assert page_statement(index) is None


def test_a_caption_with_a_word_split_by_the_pdf_is_found() -> None:
    page = "Table of Contents\n3M Company\nConsolidated Statement of Incom e\nNet sales 1 2\n"
    assert page_statement(page) == "income_statement"
    assert page_statement("Consolidated Balance Shee t\n") == "balance_sheet"
    assert page_statement("Consolidated Statement of Comprehensive Incom e\n") is None


def test_the_statements_that_sit_together_come_first() -> None:
    pages = ["Filler"] * 12
    pages[2] = "Consolidated Statements of Income\nSummary 1 2\n"  # a summary in the discussion
    pages[8] = "Consolidated Statements of Income\nNet sales 1 2\n"
    pages[9] = "Consolidated Balance Sheets\nAssets 1 2\n"
    pages[10] = "Consolidated Statements of Cash Flows\nNet income 1 2\n"
    assert statement_pages(pages) == {
        "income_statement": [9, 3],
        "balance_sheet": [10],
        "cash_flow_statement": [11],
    }


def test_every_printed_on_trigger_has_words_and_names_a_known_statement() -> None:
    for triggers, statements in PRINTED_ON:
        assert all(tokenize(trigger) for trigger in triggers)
        assert set(statements) <= {"balance_sheet", "income_statement", "cash_flow_statement"}


def test_a_question_without_a_statement_figure_asks_for_no_statement() -> None:
    assert statements_printing("Who are the primary customers of Boeing as of FY2022?") == []
    assert statements_printing("Quais são os limites da microgeração?") == []
    assert statements_printing("Is 3M capital intensive?") == [
        "balance_sheet",
        "income_statement",
        "cash_flow_statement",
    ]


@pytest.mark.parametrize(
    ("row", "header", "paired"),
    [
        (
            "Operating Profit 11,512 11,162 10,080",
            "2022 2021 2020",
            "Operating Profit — 2022: 11,512; 2021: 11,162; 2020: 10,080",
        ),
        (
            "Net Revenue $ 86,392 $ 79,474",
            "(in millions) 2022 2021",
            "Net Revenue — 2022: $86,392; 2021: $79,474",
        ),
        (
            "Merchandise inventories 5,409 5,209",
            "February 2, 2019 February 3, 2018",
            "Merchandise inventories — February 2, 2019: 5,409; February 3, 2018: 5,209",
        ),
        (
            "Segment EBITDA margin 40.2 % 43.7 %",
            "2022 2021",
            "Segment EBITDA margin — 2022: 40.2%; 2021: 43.7%",
        ),
        ("Dividends paid — (2,111)", "2023 2022", "Dividends paid — 2023: —; 2022: (2,111)"),
    ],
)
def test_a_row_pairs_each_figure_with_its_columns_period(
    row: str, header: str, paired: str
) -> None:
    assert row_by_period(row, header) == paired


@pytest.mark.parametrize(
    ("row", "header"),
    [
        ("Gross Profit 15,941 67.2 16,849 67.9 (5.4)", "2022 2021"),  # amounts, shares, change
        ("Total revenues 66,608", "2022 2021"),
        ("Total revenues 66,608 62,286", "(in millions)"),
    ],
)
def test_no_pairing_is_guessed_when_figures_and_periods_differ(row: str, header: str) -> None:
    assert row_by_period(row, header) is None
