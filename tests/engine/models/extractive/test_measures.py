from engine.models.extractive.measures import measures_asked, states_measure
from engine.models.extractive.ranking import candidates_of, choose_quotes
from engine.snapshots import Snapshot
from engine.text.tokens import term_set


def test_a_derived_measure_is_asked_as_the_figures_it_is_computed_from() -> None:
    asked = measures_asked("What is the FY2022 unadjusted EBITDA % margin for PepsiCo?")
    assert asked == ["operating income", "depreciation and amortization", "revenue"]


def test_a_definition_in_the_question_names_each_input_once() -> None:
    question = (
        "What is Amazon's FY2017 days payable outstanding (DPO)? DPO is defined as: 365 * "
        "(average accounts payable between FY2016 and FY2017) / (FY2017 COGS + change in "
        "inventory between FY2016 and FY2017)"
    )
    # COGS is the cost of sales and inventory the inventories the DPO already asks for.
    assert measures_asked(question) == ["accounts payable", "cost of sales", "inventories"]


def test_a_measure_inside_a_longer_one_is_not_asked_on_its_own() -> None:
    assert measures_asked("What was Corning's net income in FY2021?") == ["net income"]
    assert measures_asked("Did operating income grow?") == ["operating income"]


def test_a_question_without_a_financial_measure_asks_for_none() -> None:
    assert measures_asked("Quem dirigiu o filme vencedor do Oscar de 1998?") == []
    assert measures_asked("Which region had the highest EBITDAR contribution?") == []


def test_a_row_states_a_measure_under_any_name_filings_print_for_it() -> None:
    assert states_measure("revenue", term_set("Net sales 86,392 79,474"))
    assert states_measure("capital expenditure", term_set("Capital spending (4,625) (4,240)"))
    assert states_measure(
        "capital expenditure", term_set("Purchases of property and equipment (11,955)")
    )
    assert states_measure("operating income", term_set("Operating Profit 11,512 11,162"))
    assert not states_measure("operating income", term_set("Other income 1,200 900"))
    assert not states_measure("revenue", term_set("Cost of sales 40,576 37,075"))


INCOME_STATEMENT = """Consolidated Statement of Income
PepsiCo, Inc. and Subsidiaries
(in millions except per share amounts)
2022 2021 2020
Net Revenue $ 86,392 $ 79,474 $ 70,372
Cost of sales 40,576 37,075 31,797
Selling, general and administrative expenses 34,459 31,237 28,453
Operating Profit 11,512 11,162 10,080
Net Income Attributable to PepsiCo $ 8,910 $ 7,618 $ 7,120
"""
CASH_FLOWS = """Consolidated Statement of Cash Flows
PepsiCo, Inc. and Subsidiaries
(in millions)
2022 2021 2020
Operating Activities
Net income $ 8,978 $ 7,679 $ 7,175
Depreciation and amortization 2,763 2,710 2,548
Cash payments for restructuring charges (224) (256) (255)
Net Cash Provided by Operating Activities 10,811 11,616 10,613
Capital spending (5,207) (4,625) (4,240)
Cash dividends paid (6,172) (5,815) (5,509)
"""
OTHER_SEGMENTS = """Segment results
2022 2021
Segment EBITDA margin 40.2 % 43.7 %
Segment operating income margin 27.9 % 31.4 %
"""


def excerpts_for(question: str) -> list[str]:
    pepsico = Snapshot.from_pages(
        "file:///pepsico-2022.pdf", [INCOME_STATEMENT, CASH_FLOWS], title="PEPSICO_2022_10K"
    )
    other = Snapshot.from_pages("file:///other.pdf", [OTHER_SEGMENTS], title="COMCAST_2022_10K")
    candidates = [
        *candidates_of("file:///other.pdf#page=1", other, hit_rank=1),
        *candidates_of("file:///pepsico-2022.pdf#page=2", pepsico, hit_rank=2),
        *candidates_of("file:///pepsico-2022.pdf#page=1", pepsico, hit_rank=3),
    ]
    return [quote.excerpt for quote in choose_quotes(candidates, question)]


def test_a_ratio_is_answered_with_the_row_of_each_figure_it_is_computed_from() -> None:
    found = excerpts_for(
        "What is the FY2022 unadjusted EBITDA % margin for PepsiCo? (cash flow statement, p&l)"
    )
    # Operating profit and revenue from the income statement, D&A from the cash flows:
    # though both sit on pages that already gave their rows, and no row says "EBITDA".
    assert "Operating Profit 11,512 11,162 10,080" in found
    assert "Net Revenue $ 86,392 $ 79,474 $ 70,372" in found
    assert "Depreciation and amortization 2,763 2,710 2,548" in found
    # Another company's "EBITDA margin" is not PepsiCo's.
    assert not any(excerpt.startswith("Segment") for excerpt in found)


def test_the_statement_a_question_names_says_where_to_look_not_what_to_quote() -> None:
    found = excerpts_for(
        "What is the FY2022 capital expenditure amount for PepsiCo? Use the statement of "
        "cash flows."
    )
    # "statement of cash flows" is where the row is, not words a row must share: the other
    # rows of the cash flows ("Cash payments …") are no answer.
    assert found[0] == "Capital spending (5,207) (4,625) (4,240)"
    assert not any(excerpt.startswith(("Cash payments", "Cash dividends")) for excerpt in found)
